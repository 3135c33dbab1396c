//===- Fit.cpp - memsched-fit pass ------------------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements memsched-fit, the budget step of memsched-optimize:
// recomputation alone, swapping alone, and joint plans (recompute down to an
// intermediate budget, swap the rest: POFO's combination, searched over a
// ladder of intermediate budgets on the scheduling model) are each applied
// to a copy of the function and measured on the rebuilt graph; the fastest
// whose footprint (resident + planned arena, and at least the modelled
// peak) fits is kept.
//
//===----------------------------------------------------------------------===//

#include "SwapRewrite.h"
#include "memsched/Analysis/Budget.h"
#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Scheduling/Remat.h"
#include "memsched/Scheduling/Swap.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDFITPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

namespace {
/// One candidate rewrite of the function and its measured figures.
struct FitCandidate {
  std::string kind;
  func::FuncOp work;
  FunctionReport report;
  int64_t smallestTransient = std::numeric_limits<int64_t>::max();
};

struct FitPass : public memsched::impl::MemschedFitPassBase<FitPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Applies recomputation down to `rematTransient` (none if negative) and
  /// then swaps down to `swapTransient` (none if negative) to a copy of
  /// `func`; the copy is returned in `candidate` (null if a plan failed).
  LogicalResult build(func::FuncOp func, const TensorGraph &graph,
                      const CostModel &costModel, int64_t rematTransient,
                      int64_t swapTransient, FitCandidate &candidate);
};
} // namespace

LogicalResult FitPass::build(func::FuncOp func, const TensorGraph &graph,
                             const CostModel &costModel, int64_t rematTransient,
                             int64_t swapTransient, FitCandidate &candidate) {
  std::string error;
  IRMapping mapping;
  func::FuncOp work = func.clone(mapping);
  if (rematTransient >= 0) {
    sched::RematOptions options;
    options.budgetTransientBytes = rematTransient;
    options.timeLimitSeconds = static_cast<double>(timeLimitMs) / 1000.0;
    std::optional<sched::RematPlan> plan =
        sched::planRemat(graph.getProblem(), options, &error);
    if (!plan) {
      work.erase();
      return func.emitError() << "memsched-fit: internal error: " << error;
    }
    candidate.smallestTransient =
        std::min(candidate.smallestTransient, plan->smallestPeakTransient);
    if (!plan->withinBudget) {
      work.erase();
      return success();
    }
    applyRematPlan(graph, *plan, mapping);
    numberAllocations(work);
  }
  if (swapTransient >= 0) {
    TensorGraph rebuilt = TensorGraph::build(work, costModel);
    if (rebuilt.getStatus() != TensorGraphStatus::Built) {
      work.erase();
      return func.emitError() << "memsched-fit: internal error: the function "
                                 "after recomputation cannot be analyzed: "
                              << rebuilt.getFailureReason();
    }
    const sched::Problem &problem = rebuilt.getProblem();
    sched::SwapOptions options;
    options.budgetTransientBytes = swapTransient;
    options.link = getLinkSpec(costModel.getDevice());
    options.swappable = getSwappableValues(rebuilt);
    options.timeLimitSeconds = static_cast<double>(timeLimitMs) / 1000.0;
    std::optional<sched::SwapPlan> plan =
        sched::planSwap(problem, problem.programOrder(), options, &error);
    if (!plan) {
      work.erase();
      return func.emitError() << "memsched-fit: internal error: " << error;
    }
    candidate.smallestTransient =
        std::min(candidate.smallestTransient, plan->smallestPeakTransient);
    if (!plan->withinBudget) {
      work.erase();
      return success();
    }
    IRMapping swapMapping;
    func::FuncOp swapped = work.clone(swapMapping);
    applySwapDecisions(rebuilt, plan->swaps, swapMapping);
    work.erase();
    work = swapped;
  }
  candidate.work = work;
  candidate.report = analyzeFunction(work, costModel);
  if (candidate.report.status != TensorGraphStatus::Built) {
    work.erase();
    candidate.work = nullptr;
    return func.emitError() << "memsched-fit: internal error: the rewritten "
                               "function cannot be analyzed: "
                            << candidate.report.skippedReason;
  }
  return success();
}

/// What the budget bounds: resident + the planned arena (escaping buffers
/// are allocated apart), and never less than the modelled peak.
static int64_t getFootprint(const FunctionReport &report) {
  return std::max(report.peakBytes, report.residentBytes + report.arenaBytes);
}

void FitPass::runOnOperation() {
  func::FuncOp func = getOperation();
  // Host glue (memsched-exec-harness's main) is not a training step.
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  std::string error;
  std::optional<Budget> parsedBudget = parseBudget(budget, error);
  if (!parsedBudget) {
    func.emitError() << "memsched-fit: " << error;
    return signalPassFailure();
  }
  if (timeLimitMs < 0) {
    func.emitError() << "memsched-fit: time-limit-ms must not be negative";
    return signalPassFailure();
  }
  FailureOr<DeviceSpec> spec =
      DeviceSpec::lookupOrEmitError(device, func, "memsched-fit");
  if (failed(spec))
    return signalPassFailure();
  bool canSwap = allowSwap && spec->hostToDeviceBandwidth > 0 &&
                 spec->deviceToHostBandwidth > 0;
  if (hasSwapOps(func)) {
    func.emitError() << "memsched-fit: '@" << func.getSymName()
                     << "' already has swap ops";
    return signalPassFailure();
  }
  CostModel costModel(*spec);
  std::optional<TensorGraph> built =
      TensorGraph::buildOrEmitError(func, costModel, "memsched-fit");
  if (!built)
    return signalPassFailure();
  const TensorGraph &graph = *built;
  FunctionReport original = analyzeFunction(func, costModel);
  if (original.status != TensorGraphStatus::Built)
    return signalPassFailure();
  int64_t resident = original.residentBytes;
  // A fraction is of the unoptimised peak: the one memsched-reorder
  // recorded before moving ops, when it ran first (as in memsched-optimize).
  int64_t unoptimisedPeak = original.peakBytes;
  if (auto reorder = func->getAttrOfType<DictionaryAttr>(kReorderAttrName))
    if (auto before = reorder.getAs<IntegerAttr>("peak_before_bytes"))
      unoptimisedPeak = before.getInt();
  int64_t budgetBytes = parsedBudget->resolve(unoptimisedPeak);
  if (failed(checkBudgetIsAboveWorkingSets(func, graph, resident, budgetBytes,
                                           "memsched-fit")))
    return signalPassFailure();

  Builder builder(&getContext());
  SmallVector<NamedAttribute> fields;
  fields.push_back(builder.getNamedAttr(
      "budget_bytes", builder.getI64IntegerAttr(budgetBytes)));
  fields.push_back(
      builder.getNamedAttr("planned_before_bytes",
                           builder.getI64IntegerAttr(getFootprint(original))));
  fields.push_back(builder.getNamedAttr(
      "time_before_s", builder.getF64FloatAttr(original.modeledTimeSeconds)));
  if (getFootprint(original) <= budgetBytes) {
    fields.push_back(
        builder.getNamedAttr("chosen", builder.getStringAttr("none")));
    func->setAttr(kFitAttrName, builder.getDictionaryAttr(fields));
    return;
  }

  // Each kind is retried with its target tightened by the overshoot of the
  // planned memory (arena fragmentation, in-place decisions).
  int64_t peakTransient = original.peakTransientBytes;
  std::vector<FitCandidate> results;
  int64_t smallestTransient = std::numeric_limits<int64_t>::max();
  int64_t smallestFootprint = std::numeric_limits<int64_t>::max();
  auto tryKind = [&](StringRef kind, double rematShare,
                     bool withSwap) -> LogicalResult {
    int64_t target = budgetBytes - resident;
    for (int attempt = 0; attempt < 4 && target > 0; ++attempt) {
      FitCandidate candidate;
      candidate.kind = kind.str();
      int64_t rematTarget = -1;
      if (rematShare >= 0)
        rematTarget = target + static_cast<int64_t>(
                                   rematShare * double(peakTransient - target));
      if (failed(build(func, graph, costModel, rematTarget,
                       withSwap ? target : -1, candidate)))
        return failure();
      smallestTransient =
          std::min(smallestTransient, candidate.smallestTransient);
      if (!candidate.work)
        return success();
      int64_t footprint = getFootprint(candidate.report);
      smallestFootprint = std::min(smallestFootprint, footprint);
      int64_t overshoot = footprint - budgetBytes;
      if (overshoot <= 0) {
        results.push_back(std::move(candidate));
        return success();
      }
      candidate.work.erase();
      // Fragmentation does not shrink in proportion; step by at least 1%.
      target -= std::max(overshoot, target / 100);
    }
    return success();
  };
  // Candidates are detached copies; none may outlive a failure.
  auto fail = [&] {
    for (FitCandidate &candidate : results)
      candidate.work.erase();
    signalPassFailure();
  };
  if (allowRemat && failed(tryKind("remat", 0.0, false)))
    return fail();
  if (canSwap && failed(tryKind("swap", -1.0, true)))
    return fail();
  if (allowRemat && canSwap) {
    // Joint plans: recompute to an intermediate budget, swap the rest.
    for (double share : {0.25, 0.5, 0.75})
      if (failed(tryKind(llvm::formatv("joint-{0}", share).str(), share, true)))
        return fail();
  }

  FitCandidate *best = nullptr;
  for (FitCandidate &candidate : results)
    if (!best ||
        candidate.report.modeledTimeSeconds < best->report.modeledTimeSeconds)
      best = &candidate;
  if (!best) {
    InFlightDiagnostic diag = func.emitError();
    diag << "memsched-fit: cannot meet the budget of "
         << formatBytes(budgetBytes) << " (" << budgetBytes << " B) for '@"
         << func.getSymName() << "'; ";
    int64_t smallestPeak =
        smallestTransient == std::numeric_limits<int64_t>::max()
            ? original.peakBytes
            : std::max(resident + smallestTransient, original.lowerBoundBytes);
    if (smallestPeak <= budgetBytes &&
        smallestFootprint != std::numeric_limits<int64_t>::max())
      diag << "plans meeting it in the model need "
           << formatBytes(smallestFootprint) << " (" << smallestFootprint
           << " B) after buffer planning (fragmentation)";
    else
      diag << "the smallest reachable peak is " << formatBytes(smallestPeak)
           << " (" << smallestPeak << " B";
    if (smallestPeak > budgetBytes ||
        smallestFootprint == std::numeric_limits<int64_t>::max())
      diag << (allowRemat ? "" : ", recomputation disabled")
           << (canSwap ? "" : ", swapping disabled") << ")";
    return signalPassFailure();
  }
  for (FitCandidate &candidate : results) {
    std::string key = candidate.kind + "_time_s";
    std::replace(key.begin(), key.end(), '.', '_');
    fields.push_back(builder.getNamedAttr(
        key, builder.getF64FloatAttr(candidate.report.modeledTimeSeconds)));
  }
  fields.push_back(
      builder.getNamedAttr("chosen", builder.getStringAttr(best->kind)));
  fields.push_back(builder.getNamedAttr(
      "time_after_s",
      builder.getF64FloatAttr(best->report.modeledTimeSeconds)));
  fields.push_back(builder.getNamedAttr(
      "planned_after_bytes",
      builder.getI64IntegerAttr(getFootprint(best->report))));
  func.getBody().takeBody(best->work.getBody());
  for (FitCandidate &candidate : results)
    candidate.work.erase();
  func->setAttr(kFitAttrName, builder.getDictionaryAttr(fields));
  func.emitRemark() << "memsched-fit: planned memory "
                    << formatBytes(getFootprint(original)) << " -> "
                    << formatBytes(getFootprint(best->report)) << " within "
                    << formatBytes(budgetBytes) << " with " << best->kind
                    << ", modelled time "
                    << llvm::formatv("{0:e3}", original.modeledTimeSeconds)
                    << " s -> "
                    << llvm::formatv("{0:e3}", best->report.modeledTimeSeconds)
                    << " s";
}
