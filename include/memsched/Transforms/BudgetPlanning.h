//===- BudgetPlanning.h - The budget passes' shared driver ------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// memsched-remat, memsched-swap and memsched-fit are configurations of one
// budget driver (scheduling::driveBudget). This file gives the driver its IR
// round trip: a candidate is a copy of the function with the recomputation
// and swap plans written in, then the in-place rewrites, measured with the
// report's footprint, both as it is and after standard cleanup (canonicalize
// and CSE), so that a plan cleanup could undo is never chosen.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_BUDGETPLANNING_H
#define MEMSCHED_TRANSFORMS_BUDGETPLANNING_H

#include "memsched/Analysis/Budget.h"
#include "memsched/Analysis/CostModel.h"
#include "memsched/Scheduling/BudgetDriver.h"
#include "memsched/Scheduling/Remat.h"
#include "memsched/Scheduling/Reorder.h"
#include "memsched/Scheduling/Swap.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"

#include <string>
#include <vector>

namespace mlir::memsched {

/// Holds back the diagnostics the current thread emits while it lives: into
/// \p held, or dropped when \p held is null. Other threads' diagnostics
/// (functions planned in parallel) go on to the handlers registered before.
class ThreadDiagnostics : public ScopedDiagnosticHandler {
public:
  ThreadDiagnostics(MLIRContext *context, std::vector<Diagnostic> *held);
  /// Emits \p held, in order, to the handlers below any of this kind.
  static void emit(MLIRContext *context, std::vector<Diagnostic> &held);
};

/// What a budget pass asks of the driver.
struct BudgetPassConfig {
  /// The pass's name, for diagnostics and the dictionary it leaves.
  std::string passName;
  /// The parsed `budget=` option.
  Budget budget;
  /// Levers: recomputation, swapping, and joint plans (recompute part of
  /// the way, swap the rest) when both are allowed.
  bool allowRemat = true;
  bool allowSwap = true;
  /// Planner options; budgets and the host link are filled in per call.
  scheduling::RematOptions remat;
  scheduling::SwapOptions swap;
  /// Take in-place decisions on every candidate, so that nothing after the
  /// pass changes its footprint.
  bool inplace = true;
  /// Order each candidate with recomputation alone (planned by `auto`) as
  /// memsched-reorder with `objective=planned` does, where that measures
  /// fewer planned bytes at no more modelled time (`reorder-after=`).
  bool reorderAfterRemat = true;
  /// At `min`, where the plan chosen recomputes (without swaps) and that
  /// order moved ops, plan again from the result, whose order the planners
  /// then see, while that lowers the planned bytes: at most this many more
  /// rounds.
  int minimumReplans = 2;
};

/// What the driver decided, for test passes and tools.
struct BudgetPlanningOutcome {
  /// Whether the driver ran to a decision (met or not); false when the
  /// function could not be planned at all (an error was emitted).
  bool decided = false;
  /// The strategies the driver was given, by index.
  std::vector<std::string> strategies;
  scheduling::BudgetResult result;
};

/// Meets the budget for \p func: on success \p func is the chosen
/// candidate, carries the `memsched.fit` dictionary (and `memsched.remat` /
/// `memsched.swap` for the plans it contains) and one remark says what was
/// done (unless \p quiet). On failure one error says why, with the smallest
/// reachable footprint, and \p func is unchanged. \p outcome, when given,
/// receives the driver's decision and every candidate it evaluated.
LogicalResult runBudgetPlanning(func::FuncOp func, const CostModel &costModel,
                                const BudgetPassConfig &config,
                                BudgetPlanningOutcome *outcome = nullptr,
                                bool quiet = false);

/// The one remark a budget pass leaves when it meets the budget: planned
/// bytes before and after, the budget, what the plan does, modelled times.
void emitBudgetRemark(func::FuncOp func, StringRef passName,
                      int64_t plannedBefore, int64_t plannedAfter,
                      int64_t budgetBytes, StringRef plan, double timeBefore,
                      double timeAfter);

/// One point of a budget sweep: what the driver reaches for one budget.
struct BudgetSweepPoint {
  /// The budget as asked.
  Budget budget;
  /// The budget in bytes (for `min`, the smallest reachable footprint).
  int64_t budgetBytes = 0;
  bool met = false;
  /// The chosen plan's footprint; when the budget is not met, the smallest
  /// reachable footprint.
  int64_t plannedBytes = 0;
  /// The chosen plan's modelled step time (0 when the budget is not met).
  double timeSeconds = 0;
  /// "none" (the function as it is), a strategy name, or "" when not met.
  std::string strategy;
};

/// Runs the budget driver of \p config once per budget of \p budgets on
/// copies of \p func, which stays unchanged: the memory-vs-time curve of
/// the function. Budgets the driver cannot meet are points with `met`
/// false, not errors; the smallest reachable footprint is searched once.
/// Fails (with the driver's error) only on an internal error.
FailureOr<SmallVector<BudgetSweepPoint>>
sweepBudgets(func::FuncOp func, const CostModel &costModel,
             const BudgetPassConfig &config, ArrayRef<Budget> budgets);

/// Whether \p a is a better outcome than \p b: met before not met; among
/// met plans the faster (for a `min` budget, the smaller, then the
/// faster); among unmet ones the smaller reachable footprint.
bool isBetterBudgetOutcome(const scheduling::BudgetResult &a,
                           const scheduling::BudgetResult &b, bool isMinimum);

/// Whether memsched-offload may move \p func's arguments and results to host
/// memory: a private function is called within the module, whose callers
/// pass and take device values, so its calling convention stays.
bool isOffloadable(func::FuncOp func);

/// Keeps the resident state \p selection names (`params`, `grads`,
/// `optimizer`, `inputs`) of the training step \p func in host memory, as
/// memsched-offload does (docs/passes.md), and records `memsched.offload`.
/// Returns the bytes no longer resident; on failure an error says why and
/// \p func is unchanged.
FailureOr<int64_t> applyResidentOffload(func::FuncOp func,
                                        ArrayRef<std::string> selection,
                                        const CostModel &costModel);

/// What applyReorder did.
struct ReorderOutcome {
  /// The function is outside the model but valid (a remark said so); it is
  /// unchanged.
  bool skipped = false;
  /// What the objective minimises (the modelled peak, or the planned bytes
  /// with ReorderObjective::Planned) in the input order and the order kept.
  int64_t beforeBytes = 0;
  int64_t afterBytes = 0;
  /// The candidate whose order was kept (`program` when restored).
  std::string chosen;
  bool isOptimal = false;
  /// The scheduler's order modelled worse once rebuilt; the input order
  /// was kept.
  bool restored = false;
  /// Bodies of structured control flow whose order changed.
  int64_t bodiesReordered = 0;
};

/// Reorders the ops of \p func as memsched-reorder does (docs/passes.md)
/// and records `memsched.reorder` (with \p algorithmName); the summary
/// remark is the caller's. On failure an error says why and \p func is
/// unchanged. With ReorderOptions::modelInPlaceWrites the order is kept
/// unmeasured: the caller measures it once the writes are taken.
FailureOr<ReorderOutcome>
applyReorder(func::FuncOp func, const CostModel &costModel,
             StringRef algorithmName,
             const scheduling::ReorderOptions &options);

/// What memsched-split did to a function.
struct SplitOutcome {
  int64_t floorBeforeBytes = 0;
  int64_t floorAfterBytes = 0;
  /// Ops split, the producers split with them included.
  int64_t opsSplit = 0;
  /// Pieces of the ops whose working sets set the floor.
  int64_t pieces = 0;
};

/// Splits the ops whose working sets set the floor of \p func into pieces
/// along a parallel loop (memsched-split), until the floor is within
/// \p budget (for `min`, while splits lower it), at most \p maxPieces per
/// op, and records `memsched.split`. std::nullopt, \p func unchanged, when
/// no split lowers the floor.
std::optional<SplitOutcome> splitToFloor(func::FuncOp func,
                                         const CostModel &costModel,
                                         const Budget &budget,
                                         int64_t maxPieces);

/// What memsched-fuse may fuse.
struct FuseOptions {
  /// A generator's tensor inputs are at most 1/inputRatio of its result's
  /// bytes.
  int64_t inputRatio = 64;
  /// Also upstream's elementwise fusion, where it raises the floor by at
  /// most 1/64.
  bool elementwise = true;
};

/// What memsched-fuse did to a function.
struct FuseOutcome {
  /// Readers a generator was fused into.
  int64_t generatorsFused = 0;
  /// Whether upstream's elementwise fusion was kept.
  bool elementwiseFused = false;
  int64_t floorBeforeBytes = 0;
  /// The floor after the generators, before the elementwise step.
  int64_t floorAfterGeneratorsBytes = 0;
  int64_t floorAfterBytes = 0;
};

/// Fuses each generator of \p func (an elementwise op whose tensor inputs
/// are at most 1/inputRatio of its result's bytes: fills, broadcasts,
/// one-hot masks) into every elementwise reader, a copy per reader, then
/// (with \p options.elementwise) applies upstream's elementwise fusion where
/// that raises the floor by at most 1/64, and records `memsched.fuse`
/// (memsched-fuse). std::nullopt, \p func unchanged, when nothing was fused
/// or the function is outside the model.
std::optional<FuseOutcome> fuseToLowerFloor(func::FuncOp func,
                                            const CostModel &costModel,
                                            const FuseOptions &options);

/// The footprint a fractional budget is a fraction of: the planned bytes of
/// \p func before memsched rewrote it (recorded by memsched-split,
/// memsched-offload or memsched-reorder, whichever ran first), else \p
/// currentPlannedBytes.
int64_t getInputPlannedBytes(func::FuncOp func, int64_t currentPlannedBytes);

} // namespace mlir::memsched

#endif // MEMSCHED_TRANSFORMS_BUDGETPLANNING_H
