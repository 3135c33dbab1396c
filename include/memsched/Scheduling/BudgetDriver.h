//===- BudgetDriver.h - One loop that meets a memory budget -----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the budget driver, the one place where a footprint
// budget is met. The levers (recomputation, swapping, both) are strategies
// the caller names; for each, the driver asks the caller's evaluator to plan
// for a target of transient bytes, apply the plan and measure the footprint
// of the result the way the report will, and tightens the target by the
// overshoot until the measured footprint is within the budget, then loosens
// it by the slack while a looser plan still fits. The fastest
// candidate within the budget wins; a candidate as fast as the input ends
// the search (no lever makes a step faster).
//
// The smallest reachable footprint does not depend on the budget: every
// strategy is also evaluated at the smallest target its planner reaches, and
// those candidates are the fallback when nothing else fits (the fastest of
// them within the budget). So the figure
// an error reports is met when it is given back as the budget, and
// `budget=min` picks the smallest of them.
//
// All limits are counts (attempts, evaluations): the same input gives the
// same choice on any machine.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_BUDGETDRIVER_H
#define MEMSCHED_SCHEDULING_BUDGETDRIVER_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// Marks a request for the smallest reachable footprint (`budget=min`).
inline constexpr int64_t kMinimumBudget = -1;

/// The measured outcome of one candidate plan.
struct BudgetEvaluation {
  /// Whether the planner reached the target in its own model; when false,
  /// no candidate was built and only smallestTransientBytes is meaningful.
  bool planned = false;
  /// The caller's handle on the candidate (released by the driver when it
  /// is not chosen).
  int64_t candidate = -1;
  /// The footprint of the rewritten function, as the report measures it.
  int64_t footprintBytes = 0;
  /// Its modelled step time in seconds.
  double timeSeconds = 0;
  /// The smallest peak of transient bytes the strategy's planner reached
  /// (its model's floor), whether or not it reached the target.
  int64_t smallestTransientBytes = 0;
  /// The modelled peak of transient bytes of the rewritten function.
  int64_t peakTransientBytes = 0;
};

/// The IR round trip of the driver, implemented by the caller.
class BudgetEvaluator {
public:
  virtual ~BudgetEvaluator();
  /// Plans strategy \p strategy (an index into the driver's list) for at
  /// most \p targetTransientBytes live transient bytes in the planner's
  /// model, applies the plan to a copy of the function and measures it.
  /// std::nullopt stops the driver (an internal error, already reported).
  virtual std::optional<BudgetEvaluation>
  evaluate(int strategy, int64_t targetTransientBytes) = 0;
  /// The candidate will not be chosen.
  virtual void release(int64_t candidate) = 0;
};

/// What the driver is asked.
struct BudgetDriverOptions {
  /// The bound on the footprint in bytes, or kMinimumBudget.
  int64_t budgetBytes = kMinimumBudget;
  /// Resident bytes of the function (no lever lowers them).
  int64_t residentBytes = 0;
  /// Footprint, modelled peak of transient bytes and modelled time of the
  /// function as it is.
  int64_t inputFootprintBytes = 0;
  int64_t inputPeakTransientBytes = 0;
  double inputTimeSeconds = 0;
  /// Names of the strategies, in the order they are tried.
  std::vector<std::string> strategies;
  /// Per strategy, whether it adds no time of its own (in-place writes
  /// only): its candidates bound how fast any lever's can be.
  std::vector<bool> addsNoTime;
  /// Plans tried per strategy while tightening towards the budget.
  int maxAttempts = 4;
  /// Seconds after which no further candidate is tried once one is in hand
  /// (the fastest within the budget so far, else a floor); 0: no limit.
  double timeLimitSeconds = 0;
};

/// One evaluated candidate, for reports.
struct BudgetTrial {
  int strategy = -1;
  int64_t targetTransientBytes = 0;
  BudgetEvaluation evaluation;
};

/// What the driver decided.
struct BudgetResult {
  /// Whether a candidate (or the input) is within the budget.
  bool met = false;
  /// The chosen strategy, or -1 for the input as it is (already within the
  /// budget, or the smallest footprint of all).
  int strategy = -1;
  /// The chosen candidate's evaluation (the input's when strategy is -1).
  BudgetEvaluation chosen;
  /// The budget in bytes that was met (the smallest footprint for `min`).
  int64_t budgetBytes = 0;
  /// Whether the floors were searched (when nothing met the budget, or for
  /// `min`); the two fields after it are meaningful only then.
  bool searchedFloors = false;
  /// Whether the time limit stopped the search before every candidate it
  /// would have tried.
  bool stoppedByTimeLimit = false;
  /// The smallest footprint any strategy reaches at its planner's floor,
  /// independent of the budget, and the strategy that reaches it (-1: the
  /// input itself).
  int64_t smallestFootprintBytes = 0;
  int smallestStrategy = -1;
  /// The smallest transient peak any planner reached in its model.
  int64_t smallestTransientBytes = 0;
  /// Every candidate evaluated, in order.
  std::vector<BudgetTrial> trials;
};

/// Meets \p options.budgetBytes through \p evaluator. Returns std::nullopt
/// when the evaluator failed; otherwise a result whose `met` says whether
/// the budget is met. Every candidate but the chosen one is released.
std::optional<BudgetResult> driveBudget(BudgetEvaluator &evaluator,
                                        const BudgetDriverOptions &options);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_BUDGETDRIVER_H
