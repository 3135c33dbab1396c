//===- Swap.cpp - memsched-swap pass ----------------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the swap pass: the budget driver with swapping as its
// only lever (BudgetPlanning.h). The plans come from lib/Scheduling
// (planSwap on the function's planning graph, in program order); swapped-out
// buffers are held until their copies end. `algorithm=everything` is vDNN's
// baseline, which swaps whatever it can and takes no budget.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Swap.h"
#include "PlanRewrite.h"
#include "memsched/Analysis/Budget.h"
#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Transforms/BudgetPlanning.h"
#include "memsched/Transforms/Passes.h"

#include "llvm/ADT/ScopeExit.h"

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

private:
  LogicalResult swapEverything(func::FuncOp func, const CostModel &costModel);
};
} // namespace

/// vDNN's baseline: every candidate is swapped whatever the memory; the
/// result is measured, not bounded.
LogicalResult SwapPass::swapEverything(func::FuncOp func,
                                       const CostModel &costModel) {
  // Swaps go after and before whole tasks: each task's ops together first,
  // in program order (a view may sit far from the op it belongs with).
  func::FuncOp work = func.clone();
  llvm::scope_exit eraseWork([&] { work.erase(); });
  std::optional<TensorGraph> graph =
      TensorGraph::buildOrEmitError(work, costModel, "memsched-swap");
  if (!graph)
    return failure();
  layOutTasks(work, *graph, graph->getProblem().programOrder());
  graph = TensorGraph::buildOrEmitError(work, costModel, "memsched-swap");
  if (!graph)
    return failure();
  const sched::Problem &problem = graph->getProblem();
  sched::SwapOptions options;
  options.algorithm = sched::SwapAlgorithm::Everything;
  options.link = getLinkSpec(costModel.getDevice());
  options.minBytes = minBytes;
  options.swappable = getSwappableValues(*graph);
  std::string error;
  std::optional<sched::SwapPlan> plan =
      sched::planSwap(problem, problem.programOrder(), options, &error);
  if (!plan)
    return emitError(func.getLoc())
           << "memsched-swap: internal error: " << error;
  IRMapping mapping;
  func::FuncOp swapped = work.clone(mapping);
  applySwapDecisions(*graph, plan->swaps, mapping);
  func.getBody().takeBody(swapped.getBody());
  swapped.erase();
  FunctionReport report = analyzeFunction(func, costModel);
  recordSwapDictionary(func, plan->algorithm,
                       static_cast<int64_t>(plan->swaps.size()), report);
  emitRemark(func.getLoc()) << "memsched-swap: swapped " << plan->swaps.size()
                            << " values (everything), planned memory "
                            << formatBytes(report.plannedBytes());
  return success();
}

void SwapPass::runOnOperation() {
  func::FuncOp func = getOperation();
  // Host glue (memsched-exec-harness's main) is not a training step.
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  bool everything = algorithm == sched::SwapAlgorithm::Everything;
  // `everything` (vDNN's baseline) takes no budget.
  std::optional<Budget> parsedBudget =
      everything ? Budget()
                 : parseBudgetOrEmitError(budget, func, "memsched-swap");
  if (!parsedBudget)
    return signalPassFailure();
  if (timeLimitMs < 0 || minBytes < 0) {
    emitError(func.getLoc())
        << "memsched-swap: time-limit-ms and min-bytes must not "
           "be negative";
    return signalPassFailure();
  }
  FailureOr<DeviceSpec> spec =
      DeviceSpec::resolveOrEmitError(device, func, "memsched-swap");
  if (failed(spec))
    return signalPassFailure();
  // The device is recorded once the pass has succeeded; a failed pass leaves
  // the function as it was.
  llvm::scope_exit recordDevice([&] {
    if (!getPassState().irAndPassFailed.getInt())
      DeviceSpec::record(device, func);
  });
  if (!(spec->hostToDeviceBandwidth > 0) ||
      !(spec->deviceToHostBandwidth > 0)) {
    emitError(func.getLoc())
        << "memsched-swap: device '" << spec->name
        << "' has no host link bandwidth in one direction; swapping needs both";
    return signalPassFailure();
  }
  CostModel costModel(*spec);
  if (everything) {
    if (failed(swapEverything(func, costModel)))
      signalPassFailure();
    return;
  }
  BudgetPassConfig config;
  config.passName = "memsched-swap";
  config.budget = *parsedBudget;
  config.allowRemat = false;
  config.swap.algorithm = algorithm;
  config.swap.minBytes = minBytes;
  config.swap.allowStalls = allowStalls;
  config.swap.timeLimitSeconds = static_cast<double>(timeLimitMs) / 1000.0;
  if (failed(runBudgetPlanning(func, costModel, config)))
    signalPassFailure();
}
