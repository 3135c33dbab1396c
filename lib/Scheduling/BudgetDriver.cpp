//===- BudgetDriver.cpp - One loop that meets a memory budget ---*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/BudgetDriver.h"
#include "Deadline.h"

#include <algorithm>
#include <limits>

using namespace mlir::memsched::scheduling;

BudgetEvaluator::~BudgetEvaluator() = default;

namespace {
/// Keeps the best candidate seen under an ordering and releases the rest.
class CandidateSlot {
public:
  CandidateSlot(BudgetEvaluator &evaluator) : evaluator(evaluator) {}

  /// Offers a built candidate; `better` says whether it beats the held one.
  void offer(int strategy, const BudgetEvaluation &evaluation, bool better) {
    if (held && !better) {
      evaluator.release(evaluation.candidate);
      return;
    }
    if (held)
      evaluator.release(evaluation_.candidate);
    held = true;
    strategy_ = strategy;
    evaluation_ = evaluation;
  }
  /// Drops the held candidate without releasing it (another slot took it).
  void forget() { held = false; }
  /// Releases the held candidate, if any.
  void clear() {
    if (held)
      evaluator.release(evaluation_.candidate);
    held = false;
  }
  bool has() const { return held; }
  int strategy() const { return strategy_; }
  const BudgetEvaluation &evaluation() const { return evaluation_; }

private:
  BudgetEvaluator &evaluator;
  bool held = false;
  int strategy_ = -1;
  BudgetEvaluation evaluation_;
};
} // namespace

std::optional<BudgetResult>
mlir::memsched::scheduling::driveBudget(BudgetEvaluator &evaluator,
                                        const BudgetDriverOptions &options) {
  BudgetResult result;
  BudgetEvaluation input;
  input.planned = true;
  input.footprintBytes = options.inputFootprintBytes;
  input.timeSeconds = options.inputTimeSeconds;
  input.smallestTransientBytes = options.inputPeakTransientBytes;
  input.peakTransientBytes = options.inputPeakTransientBytes;
  result.smallestFootprintBytes = options.inputFootprintBytes;
  result.smallestTransientBytes = input.smallestTransientBytes;
  bool minimise = options.budgetBytes == kMinimumBudget;
  if (!minimise && options.inputFootprintBytes <= options.budgetBytes) {
    result.met = true;
    result.chosen = input;
    result.budgetBytes = options.budgetBytes;
    return result;
  }

  int numStrategies = static_cast<int>(options.strategies.size());
  // Past the time limit, the search keeps what it has: each phase below
  // still tries until it holds a candidate.
  detail::Deadline deadline(options.timeLimitSeconds);
  auto outOfTime = [&] {
    if (!deadline.expired())
      return false;
    result.stoppedByTimeLimit = true;
    return true;
  };
  // How fast a candidate can be: the input's time, or a time-free
  // strategy's candidate's, which can be faster (in-place writes save
  // copies).
  double fastestPossible = options.inputTimeSeconds;
  auto evaluate = [&](int strategy,
                      int64_t target) -> std::optional<BudgetEvaluation> {
    std::optional<BudgetEvaluation> evaluation =
        evaluator.evaluate(strategy, target);
    if (!evaluation)
      return std::nullopt;
    if (evaluation->planned &&
        static_cast<size_t>(strategy) < options.addsNoTime.size() &&
        options.addsNoTime[strategy])
      fastestPossible = std::min(fastestPossible, evaluation->timeSeconds);
    result.trials.push_back({strategy, target, *evaluation});
    result.smallestTransientBytes = std::min(
        result.smallestTransientBytes, evaluation->smallestTransientBytes);
    return evaluation;
  };

  // The fastest candidate within the budget: each strategy aims at the
  // budget and tightens its target by the measured overshoot (in-place
  // decisions and arena fragmentation are only known on the rewritten
  // function), at least 1% a step; a plan that fits with more than 1% of
  // the budget to spare is followed by one at a target looser by the slack,
  // and where that overshoots, by bisection between the two targets (the
  // footprint is not linear in the target: a plan well under the budget
  // can recompute or swap much more than one just under it).
  CandidateSlot fastest(evaluator);
  // A strategy's unplanned answer at a target of 1 byte: what the floor
  // search below would probe again at 0.
  std::vector<std::optional<BudgetEvaluation>> probes(
      options.strategies.size());
  // Strategies whose planner's floor lies above the budget: their floor
  // plans can still measure within it (the in-place writes the planners do
  // not model), and be faster than what another strategy met it with.
  std::vector<bool> floorAboveBudget(options.strategies.size(), false);
  if (!minimise) {
    // The footprint counts more than the planners' peak (escaping buffers
    // whole, arena fragmentation): start below the input's peak by the
    // input's excess.
    int64_t excess = options.inputFootprintBytes - options.budgetBytes;
    int64_t firstTarget = std::min(options.budgetBytes - options.residentBytes,
                                   options.inputPeakTransientBytes - excess);
    for (int strategy = 0; strategy < numStrategies; ++strategy) {
      // Levers do not make a step faster than the input or in-place writes
      // alone: a candidate as fast as both is not beaten.
      if (fastest.has() && fastest.evaluation().timeSeconds <= fastestPossible)
        break;
      if (fastest.has() && outOfTime())
        break;
      // Where the input's excess exceeds its peak (returned buffers counted
      // whole, fragmentation), the first target is below every planner's
      // floor: aim at 1 byte, which is not planned, so the search goes on
      // from halfway between the floor and the budget instead of leaving
      // the budget to the floor's plan, the costliest there is.
      int64_t target = std::max<int64_t>(firstTarget, 1);
      bool fits = false, raised = false;
      // The loosest target that fit, and the tightest looser one that did
      // not (0: none yet).
      int64_t fitTarget = 0, overTarget = 0;
      int64_t resolution = std::max<int64_t>(options.budgetBytes / 100, 1);
      // Aims halfway between the two; false once they are within 1% of the
      // budget.
      auto bisect = [&] {
        if (overTarget - fitTarget <= resolution)
          return false;
        target = fitTarget + (overTarget - fitTarget) / 2;
        return true;
      };
      for (int attempt = 0; attempt < options.maxAttempts && target > 0;
           ++attempt) {
        if (attempt > 0 && fastest.has() && outOfTime())
          break;
        std::optional<BudgetEvaluation> evaluation = evaluate(strategy, target);
        if (!evaluation) {
          fastest.clear();
          return std::nullopt;
        }
        if (!evaluation->planned) {
          if (target == 1)
            probes[strategy] = evaluation;
          // The first target is below this planner's floor, but the budget
          // is not: aim halfway between the two once.
          int64_t ceiling = options.budgetBytes - options.residentBytes;
          int64_t floor = evaluation->smallestTransientBytes;
          if (!fits && floor >= ceiling)
            floorAboveBudget[strategy] = true;
          if (fits || raised || floor >= ceiling)
            break;
          raised = true;
          target = floor + (ceiling - floor) / 2;
          continue;
        }
        if (evaluation->footprintBytes <= options.budgetBytes) {
          fastest.offer(strategy, *evaluation,
                        evaluation->timeSeconds <
                            fastest.evaluation().timeSeconds);
          fits = true;
          fitTarget = std::max(fitTarget, target);
          if (overTarget) {
            if (!bisect())
              break;
            continue;
          }
          // Well under the budget (the measured footprint can fall far
          // below the planner's target: in-place writes, freed gaps): a
          // looser target may need less recomputation or swapping.
          int64_t slack = options.budgetBytes - evaluation->footprintBytes;
          if (slack <= options.budgetBytes / 100)
            break;
          target += slack;
          continue;
        }
        evaluator.release(evaluation->candidate);
        // A looser target overshot: the plan that fits stays, and the
        // targets between the two are bisected.
        if (fits) {
          overTarget = overTarget ? std::min(overTarget, target) : target;
          if (!bisect())
            break;
          continue;
        }
        // At its planner's floor: a tighter target cannot be planned.
        if (evaluation->peakTransientBytes <=
            evaluation->smallestTransientBytes)
          break;
        int64_t overshoot = evaluation->footprintBytes - options.budgetBytes;
        target = std::min(target, evaluation->peakTransientBytes) -
                 std::max({overshoot, target / 100, int64_t(1)});
      }
    }
  }

  // The smallest footprint, independent of the budget: each strategy at the
  // floor of its planner (probed at target 0). Needed when nothing fits
  // and for `min`; it is what an error reports. Every strategy's floor
  // candidate is kept until one is chosen.
  std::vector<CandidateSlot> floors;
  floors.reserve(numStrategies);
  auto releaseAll = [&] {
    fastest.clear();
    for (CandidateSlot &floor : floors)
      floor.clear();
  };
  // With a candidate in hand, only the strategies whose planner's floor is
  // above the budget are probed (a floor plan within the budget and faster
  // than that candidate replaces it).
  bool floorsOnly = !minimise && fastest.has();
  if (minimise || !fastest.has() ||
      std::find(floorAboveBudget.begin(), floorAboveBudget.end(), true) !=
          floorAboveBudget.end()) {
    result.searchedFloors = !floorsOnly;
    for (int strategy = 0; strategy < numStrategies; ++strategy) {
      if (floorsOnly && !floorAboveBudget[strategy])
        continue;
      if ((!floors.empty() || floorsOnly) && outOfTime())
        break;
      std::optional<BudgetEvaluation> probe =
          probes[strategy] ? probes[strategy] : evaluate(strategy, 0);
      if (!probe) {
        releaseAll();
        return std::nullopt;
      }
      std::optional<BudgetEvaluation> floor = probe;
      // The planners are myopic: asked for the smallest peak they passed,
      // they can take another path and miss it. Looser targets follow, a
      // growing share of the way up to the input's peak, until one is met.
      int64_t lowest = probe->smallestTransientBytes;
      int64_t above =
          std::max<int64_t>(options.inputPeakTransientBytes - lowest, 0);
      // 0: the smallest peak itself; d: 1/d of the way up.
      for (int64_t divisor : {0, 64, 16, 4}) {
        if (floor->planned || (divisor && above / divisor == 0))
          break;
        floor = evaluate(strategy, lowest + (divisor ? above / divisor : 0));
        if (!floor) {
          releaseAll();
          return std::nullopt;
        }
      }
      if (!floor->planned)
        continue;
      floors.emplace_back(evaluator);
      floors.back().offer(strategy, *floor, true);
    }
  }
  // The smallest of the floors (the faster on a tie).
  const CandidateSlot *smallest = nullptr;
  for (const CandidateSlot &floor : floors) {
    const BudgetEvaluation &candidate = floor.evaluation();
    if (!smallest ||
        candidate.footprintBytes < smallest->evaluation().footprintBytes ||
        (candidate.footprintBytes == smallest->evaluation().footprintBytes &&
         candidate.timeSeconds < smallest->evaluation().timeSeconds))
      smallest = &floor;
  }
  if (smallest &&
      smallest->evaluation().footprintBytes < result.smallestFootprintBytes) {
    result.smallestFootprintBytes = smallest->evaluation().footprintBytes;
    result.smallestStrategy = smallest->strategy();
  }

  if (fastest.has()) {
    // A floor plan within the budget that is faster.
    for (CandidateSlot &floor : floors) {
      if (floor.evaluation().footprintBytes <= options.budgetBytes &&
          floor.evaluation().timeSeconds < fastest.evaluation().timeSeconds) {
        fastest.offer(floor.strategy(), floor.evaluation(), true);
        floor.forget();
      }
    }
    for (CandidateSlot &floor : floors)
      floor.clear();
    result.met = true;
    result.strategy = fastest.strategy();
    result.chosen = fastest.evaluation();
    result.budgetBytes = options.budgetBytes;
    return result;
  }
  int64_t bound =
      minimise ? result.smallestFootprintBytes : options.budgetBytes;
  result.budgetBytes = bound;
  // The fastest floor within the bound (for `min`, the bound is the
  // smallest footprint, so only the smallest floors qualify).
  CandidateSlot *chosen = nullptr;
  for (CandidateSlot &floor : floors)
    if (floor.evaluation().footprintBytes <= bound &&
        (!chosen ||
         floor.evaluation().timeSeconds < chosen->evaluation().timeSeconds))
      chosen = &floor;
  if (chosen && (result.smallestStrategy >= 0 || !minimise)) {
    result.met = true;
    result.strategy = chosen->strategy();
    result.chosen = chosen->evaluation();
    for (CandidateSlot &floor : floors)
      if (&floor != chosen)
        floor.clear();
    return result;
  }
  releaseAll();
  if (options.inputFootprintBytes <= bound) {
    result.met = true;
    result.chosen = input;
  }
  return result;
}
