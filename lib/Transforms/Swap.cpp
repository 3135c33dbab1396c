//===- Swap.cpp - memsched-swap pass ----------------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the swap pass. The plan comes from lib/Scheduling
// (planSwap on the function's tensor graph, in program order); the pass
// inserts the swap ops on a copy of the function and checks the budget on
// the graph rebuilt from the copy, with swapped-out buffers held until their
// copies end. A plan that fails the check leaves the input untouched.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Swap.h"
#include "SwapRewrite.h"
#include "memsched/Analysis/Budget.h"
#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDSWAPPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

namespace {
struct SwapPass : public memsched::impl::MemschedSwapPassBase<SwapPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void SwapPass::runOnOperation() {
  func::FuncOp func = getOperation();
  // Host glue (memsched-exec-harness's main) is not a training step.
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  std::optional<sched::SwapAlgorithm> parsedAlgorithm =
      sched::parseSwapAlgorithm(algorithm);
  if (!parsedAlgorithm) {
    func.emitError() << "memsched-swap: unknown algorithm '" << algorithm
                     << "'; expected one of: "
                     << sched::getSwapAlgorithmNames();
    return signalPassFailure();
  }
  std::string error;
  bool everything = *parsedAlgorithm == sched::SwapAlgorithm::Everything;
  // `everything` ignores the budget; without one it is unbounded.
  std::optional<Budget> parsedBudget = everything && budget.empty()
                                           ? parseBudget("1e18", error)
                                           : parseBudget(budget, error);
  if (!parsedBudget) {
    func.emitError() << "memsched-swap: " << error;
    return signalPassFailure();
  }
  if (timeLimitMs < 0 || minBytes < 0) {
    func.emitError() << "memsched-swap: time-limit-ms and min-bytes must not "
                        "be negative";
    return signalPassFailure();
  }
  FailureOr<DeviceSpec> spec =
      DeviceSpec::lookupOrEmitError(device, func, "memsched-swap");
  if (failed(spec))
    return signalPassFailure();
  if (!(spec->hostToDeviceBandwidth > 0) ||
      !(spec->deviceToHostBandwidth > 0)) {
    func.emitError() << "memsched-swap: device '" << spec->name
                     << "' has no host link bandwidth in one direction; "
                        "swapping needs both";
    return signalPassFailure();
  }
  if (hasSwapOps(func)) {
    func.emitError() << "memsched-swap: '@" << func.getSymName()
                     << "' already has swap ops; run the pass once";
    return signalPassFailure();
  }
  CostModel costModel(*spec);
  std::optional<TensorGraph> built =
      TensorGraph::buildOrEmitError(func, costModel, "memsched-swap");
  if (!built)
    return signalPassFailure();
  const TensorGraph &graph = *built;
  const sched::Problem &problem = graph.getProblem();
  std::vector<sched::TaskId> order = problem.programOrder();
  sched::SwapOptions options;
  options.algorithm = *parsedAlgorithm;
  options.link = getLinkSpec(*spec);
  options.minBytes = minBytes;
  options.swappable = getSwappableValues(graph);
  options.timeLimitSeconds = static_cast<double>(timeLimitMs) / 1000.0;
  int64_t resident = problem.residentBytes();
  std::optional<sched::SwapEvaluation> base =
      sched::evaluateSwaps(problem, order, {}, options.link, &error);
  if (!base) {
    func.emitError() << "memsched-swap: " << error;
    return signalPassFailure();
  }
  int64_t before = resident + base->peakTransientBytes;
  int64_t budgetBytes = parsedBudget->resolve(before);
  if (!everything && failed(checkBudgetIsAboveWorkingSets(
                         func, graph, resident, budgetBytes, "memsched-swap")))
    return signalPassFailure();
  // `everything` ignores the budget; only the planners that aim at it need
  // a non-negative one.
  options.budgetTransientBytes = std::max<int64_t>(budgetBytes - resident, 0);

  // In-place decisions on the rewritten function can differ from the plan's
  // model; tighten the target by the overshoot and plan again, a few times.
  std::optional<sched::SwapPlan> plan;
  std::optional<FunctionReport> after;
  func::FuncOp work;
  bool met = false;
  for (int attempt = 0; attempt < 4; ++attempt) {
    if (work)
      work.erase();
    work = nullptr;
    plan = sched::planSwap(problem, order, options, &error);
    if (!plan) {
      func.emitError() << "memsched-swap: internal error: " << error;
      return signalPassFailure();
    }
    if (plan->swaps.empty())
      break;
    IRMapping mapping;
    work = func.clone(mapping);
    applySwapDecisions(graph, plan->swaps, mapping);
    after = analyzeFunction(work, costModel);
    if (after->status != TensorGraphStatus::Built) {
      work.erase();
      func.emitError() << "memsched-swap: internal error: the rewritten "
                          "function cannot be analyzed: "
                       << after->skippedReason;
      return signalPassFailure();
    }
    met = after->peakBytes <= budgetBytes;
    if (met || everything)
      break;
    int64_t overshoot = after->peakBytes - budgetBytes;
    if (!plan->withinBudget || options.budgetTransientBytes <= overshoot)
      break;
    options.budgetTransientBytes -= overshoot;
  }
  if (plan->swaps.empty() && (before <= budgetBytes || everything)) {
    met = true;
  } else if (!met && !everything) {
    if (work)
      work.erase();
    InFlightDiagnostic diag = func.emitError();
    diag << "memsched-swap: cannot meet the budget of "
         << formatBytes(budgetBytes) << " (" << budgetBytes << " B) for '@"
         << func.getSymName() << "'; ";
    if (plan->withinBudget && after)
      diag << "plans meeting it in the planner's model come to "
           << formatBytes(after->peakBytes) << " (" << after->peakBytes
           << " B) on the rewritten function (in-place decisions differ)";
    else {
      int64_t smallest = resident + plan->smallestPeakTransient;
      diag << "the smallest peak " << plan->algorithm << " reaches is "
           << formatBytes(smallest) << " (" << smallest << " B: resident "
           << resident << " B + transient " << plan->smallestPeakTransient
           << " B)";
    }
    return signalPassFailure();
  }

  int64_t peakAfter = before;
  double exposed = 0, hidden = 1, transfer = 0;
  int64_t swapBytes = 0;
  bool applied = static_cast<bool>(work);
  if (applied) {
    func.getBody().takeBody(work.getBody());
    work.erase();
    peakAfter = after->peakBytes;
    exposed = after->swapExposedSeconds;
    hidden = after->swapHiddenFraction;
    transfer = after->swapTransferSeconds;
    swapBytes = after->swapBytes;
  }
  Builder builder(&getContext());
  NamedAttribute fields[] = {
      builder.getNamedAttr("algorithm", builder.getStringAttr(algorithm)),
      builder.getNamedAttr("budget_bytes",
                           builder.getI64IntegerAttr(budgetBytes)),
      builder.getNamedAttr("peak_before_bytes",
                           builder.getI64IntegerAttr(before)),
      builder.getNamedAttr("peak_after_bytes",
                           builder.getI64IntegerAttr(peakAfter)),
      builder.getNamedAttr(
          "swapped_values",
          builder.getI64IntegerAttr(
              applied ? static_cast<int64_t>(plan->swaps.size()) : 0)),
      builder.getNamedAttr("swap_bytes", builder.getI64IntegerAttr(swapBytes)),
      builder.getNamedAttr("swap_transfer_time_s",
                           builder.getF64FloatAttr(transfer)),
      builder.getNamedAttr("swap_exposed_time_s",
                           builder.getF64FloatAttr(exposed)),
      builder.getNamedAttr("swap_hidden_fraction",
                           builder.getF64FloatAttr(hidden)),
      builder.getNamedAttr(
          "solve_time_ms",
          builder.getF64FloatAttr(std::round(plan->solveSeconds * 1e6) / 1e3)),
  };
  func->setAttr(kSwapAttrName, builder.getDictionaryAttr(fields));
  InFlightDiagnostic remark = func.emitRemark();
  remark << "memsched-swap: peak " << formatBytes(before) << " -> "
         << formatBytes(peakAfter);
  if (peakAfter <= budgetBytes)
    remark << " within " << formatBytes(budgetBytes);
  if (plan->swaps.empty())
    remark << "; no swap needed";
  else
    remark << " by swapping " << plan->swaps.size() << " values ("
           << formatBytes(swapBytes) << " copied, "
           << llvm::formatv("{0:f1}", 100.0 * hidden).str()
           << "% of the copy time hidden)";
}
