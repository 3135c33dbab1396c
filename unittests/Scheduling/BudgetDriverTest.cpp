//===- BudgetDriverTest.cpp - Tests of the budget driver ------------------===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// The driver is tested against synthetic evaluators whose planners have a
// floor, whose measured footprint overshoots the planner's target by a
// deterministic, target-dependent amount (as fragmentation and in-place
// decisions do), and whose time grows as the target shrinks.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/BudgetDriver.h"
#include "memsched/Scheduling/SplitMix64.h"

#include "gtest/gtest.h"

#include <functional>
#include <map>
#include <set>

using namespace mlir::memsched::scheduling;

namespace {
/// One synthetic lever.
struct SyntheticStrategy {
  int64_t floorTransient = 0;
  /// Footprint = resident + target + overshoot(target).
  int64_t overshootScale = 0;
  double secondsPerByteSaved = 0;
  /// Time at the peak (the input's is 1.0; in-place writes can beat it).
  double baseSeconds = 1.0;
  /// Bytes every candidate's footprint has on top (a lever that cannot
  /// reach the budget).
  int64_t extraFootprint = 0;
};

class SyntheticEvaluator : public BudgetEvaluator {
public:
  SyntheticEvaluator(int64_t resident, int64_t peakTransient,
                     std::vector<SyntheticStrategy> strategies)
      : resident(resident), peakTransient(peakTransient),
        strategies(std::move(strategies)) {}

  std::optional<BudgetEvaluation> evaluate(int strategy,
                                           int64_t target) override {
    const SyntheticStrategy &s = strategies[strategy];
    BudgetEvaluation evaluation;
    evaluation.smallestTransientBytes = s.floorTransient;
    if (target < s.floorTransient)
      return evaluation;
    int64_t planned = std::min(target, peakTransient);
    // A deterministic, non-monotone overshoot (fragmentation).
    int64_t overshoot =
        s.overshootScale == 0
            ? 0
            : (planned * 7919 + strategy * 104729) % (s.overshootScale + 1);
    evaluation.planned = true;
    evaluation.footprintBytes =
        resident + planned + overshoot + s.extraFootprint;
    evaluation.peakTransientBytes = planned;
    evaluation.timeSeconds =
        s.baseSeconds + s.secondsPerByteSaved * double(peakTransient - planned);
    evaluation.candidate = next++;
    live.insert(evaluation.candidate);
    return evaluation;
  }
  void release(int64_t candidate) override {
    ASSERT_TRUE(live.erase(candidate)) << "released twice or unknown";
  }

  int64_t resident, peakTransient;
  std::vector<SyntheticStrategy> strategies;
  int64_t next = 0;
  std::set<int64_t> live;
};

BudgetDriverOptions makeOptions(const SyntheticEvaluator &evaluator,
                                int64_t budget) {
  BudgetDriverOptions options;
  options.budgetBytes = budget;
  options.residentBytes = evaluator.resident;
  options.inputFootprintBytes = evaluator.resident + evaluator.peakTransient;
  options.inputPeakTransientBytes = evaluator.peakTransient;
  options.inputTimeSeconds = 1.0;
  for (size_t i = 0; i < evaluator.strategies.size(); ++i)
    options.strategies.push_back("s" + std::to_string(i));
  return options;
}

SyntheticEvaluator makeRandomEvaluator(SplitMix64 &random) {
  int64_t resident = random.uniform(0, 1000);
  int64_t peak = random.uniform(100, 100000);
  std::vector<SyntheticStrategy> strategies;
  int count = static_cast<int>(random.uniform(1, 4));
  for (int i = 0; i < count; ++i) {
    SyntheticStrategy s;
    s.floorTransient = random.uniform(0, peak);
    s.overshootScale = random.uniform(0, 3) == 0 ? 0 : random.uniform(1, 5000);
    s.secondsPerByteSaved = random.uniformReal(1e-6, 1e-4);
    strategies.push_back(s);
  }
  return SyntheticEvaluator(resident, peak, strategies);
}
} // namespace

TEST(BudgetDriverTest, InputWithinBudgetIsKept) {
  SyntheticEvaluator evaluator(100, 1000, {{0, 0, 1e-5}});
  std::optional<BudgetResult> result =
      driveBudget(evaluator, makeOptions(evaluator, 1100));
  ASSERT_TRUE(result);
  EXPECT_TRUE(result->met);
  EXPECT_EQ(result->strategy, -1);
  EXPECT_TRUE(result->trials.empty());
}

TEST(BudgetDriverTest, TightensByTheOvershoot) {
  // Footprint = resident + target + up to 50 bytes: the first attempt at
  // the budget overshoots, a tighter one fits.
  SyntheticEvaluator evaluator(100, 1000, {{0, 50, 1e-5}});
  std::optional<BudgetResult> result =
      driveBudget(evaluator, makeOptions(evaluator, 600));
  ASSERT_TRUE(result);
  ASSERT_TRUE(result->met);
  EXPECT_EQ(result->strategy, 0);
  EXPECT_LE(result->chosen.footprintBytes, 600);
  EXPECT_EQ(evaluator.live.size(), 1u);
}

TEST(BudgetDriverTest, ChoosesTheFastestWithinBudget) {
  SyntheticEvaluator evaluator(0, 1000, {{0, 0, 1e-3}, {0, 0, 1e-5}});
  std::optional<BudgetResult> result =
      driveBudget(evaluator, makeOptions(evaluator, 500));
  ASSERT_TRUE(result);
  ASSERT_TRUE(result->met);
  EXPECT_EQ(result->strategy, 1);
}

// In-place writes alone make the step faster than the input (0.8 s against
// 1.0 s) but cannot meet the budget. The first lever meets it at about
// 0.85 s, faster than the input; the second at about 0.8005 s. A candidate
// faster than the input is not the fastest possible: the driver goes on to
// the second lever.
TEST(BudgetDriverTest, FasterThanTheInputIsNotFastEnough) {
  SyntheticEvaluator evaluator(
      0, 1000, {{0, 0, 0.0, 0.8, 1000}, {0, 0, 1e-4, 0.8}, {0, 0, 1e-6, 0.8}});
  BudgetDriverOptions options = makeOptions(evaluator, 500);
  options.addsNoTime = {true, false, false};
  std::optional<BudgetResult> result = driveBudget(evaluator, options);
  ASSERT_TRUE(result);
  ASSERT_TRUE(result->met);
  EXPECT_EQ(result->strategy, 2);
  EXPECT_LT(result->chosen.timeSeconds, 0.81);
}

// The input's footprint exceeds the budget by more than its peak (returned
// buffers counted whole, fragmentation), so the first target, the peak
// less that excess, is negative. The search still runs, from halfway
// between the lever's floor (300) and the budget's transient share (600),
// and keeps a plan near the budget rather than the floor's, which saves
// the most bytes and so costs the most time.
TEST(BudgetDriverTest, AnExcessAboveThePeakStillSearchesTheBudget) {
  SyntheticEvaluator evaluator(100, 1000, {{300, 0, 1e-5}});
  BudgetDriverOptions options = makeOptions(evaluator, 700);
  options.inputFootprintBytes += 2000;
  std::optional<BudgetResult> result = driveBudget(evaluator, options);
  ASSERT_TRUE(result);
  ASSERT_TRUE(result->met);
  EXPECT_LE(result->chosen.footprintBytes, 700);
  EXPECT_GT(result->chosen.footprintBytes, 600);
  EXPECT_LT(result->chosen.timeSeconds, 1.0 + 1e-5 * 700);
}

TEST(BudgetDriverTest, MinimumIsTheSmallestFloor) {
  SyntheticEvaluator evaluator(10, 1000, {{400, 0, 1e-5}, {300, 0, 1e-3}});
  std::optional<BudgetResult> result =
      driveBudget(evaluator, makeOptions(evaluator, kMinimumBudget));
  ASSERT_TRUE(result);
  ASSERT_TRUE(result->met);
  EXPECT_EQ(result->strategy, 1);
  EXPECT_EQ(result->chosen.footprintBytes, 310);
  EXPECT_EQ(result->budgetBytes, 310);
}

// The property the passes promise: a met budget is never exceeded, and the
// smallest footprint an unmet budget reports is met when given back.
TEST(BudgetDriverTest, RandomBudgetsAreHardAndTheFloorIsReachable) {
  SplitMix64 random(17);
  int unmet = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    SyntheticEvaluator evaluator = makeRandomEvaluator(random);
    int64_t input = evaluator.resident + evaluator.peakTransient;
    int64_t budget = random.uniform(0, input + 100);
    std::optional<BudgetResult> result =
        driveBudget(evaluator, makeOptions(evaluator, budget));
    ASSERT_TRUE(result);
    if (result->met) {
      EXPECT_LE(result->chosen.footprintBytes, budget) << "trial " << trial;
      EXPECT_LE(evaluator.live.size(), 1u);
      continue;
    }
    ++unmet;
    EXPECT_TRUE(evaluator.live.empty());
    EXPECT_GT(result->smallestFootprintBytes, budget);
    SyntheticEvaluator again = evaluator;
    again.live.clear();
    std::optional<BudgetResult> retry =
        driveBudget(again, makeOptions(again, result->smallestFootprintBytes));
    ASSERT_TRUE(retry);
    EXPECT_TRUE(retry->met) << "trial " << trial;
    EXPECT_LE(retry->chosen.footprintBytes, result->smallestFootprintBytes);
    // `min` finds the same figure.
    SyntheticEvaluator minimum = evaluator;
    minimum.live.clear();
    std::optional<BudgetResult> smallest =
        driveBudget(minimum, makeOptions(minimum, kMinimumBudget));
    ASSERT_TRUE(smallest);
    EXPECT_TRUE(smallest->met);
    EXPECT_EQ(smallest->chosen.footprintBytes, result->smallestFootprintBytes);
  }
  // Both branches of the property were exercised.
  EXPECT_GT(unmet, 100);
  EXPECT_LT(unmet, 1900);
}

TEST(BudgetDriverTest, SameInputSameChoice) {
  SplitMix64 random(5);
  for (int trial = 0; trial < 200; ++trial) {
    SyntheticEvaluator first = makeRandomEvaluator(random);
    SyntheticEvaluator second = first;
    int64_t budget = random.uniform(0, first.resident + first.peakTransient);
    std::optional<BudgetResult> a =
        driveBudget(first, makeOptions(first, budget));
    std::optional<BudgetResult> b =
        driveBudget(second, makeOptions(second, budget));
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->met, b->met);
    EXPECT_EQ(a->strategy, b->strategy);
    EXPECT_EQ(a->chosen.footprintBytes, b->chosen.footprintBytes);
    EXPECT_EQ(a->trials.size(), b->trials.size());
  }
}

namespace {
/// Levers that meet nothing while tightening (every plan overshoots) but
/// reach a floor at the target their probe names: floor footprint and time
/// per strategy.
class FloorOnlyEvaluator : public BudgetEvaluator {
public:
  struct Floor {
    int64_t transient, footprint;
    double seconds;
  };
  explicit FloorOnlyEvaluator(std::vector<Floor> floors)
      : floors(std::move(floors)) {}

  std::optional<BudgetEvaluation> evaluate(int strategy,
                                           int64_t target) override {
    const Floor &floor = floors[strategy];
    BudgetEvaluation evaluation;
    evaluation.smallestTransientBytes = floor.transient;
    if (target < floor.transient)
      return evaluation;
    evaluation.planned = true;
    evaluation.peakTransientBytes = target;
    evaluation.footprintBytes =
        target == floor.transient ? floor.footprint : int64_t(1) << 40;
    evaluation.timeSeconds = floor.seconds;
    evaluation.candidate = next++;
    live.insert(evaluation.candidate);
    return evaluation;
  }
  void release(int64_t candidate) override {
    ASSERT_TRUE(live.erase(candidate)) << "released twice or unknown";
  }

  std::vector<Floor> floors;
  int64_t next = 0;
  std::set<int64_t> live;
};
} // namespace

// When only the floors fit, the fastest floor within the budget is chosen,
// not the smallest: a smaller but slower floor wins only when the budget
// needs it (or for `min`). Every other candidate is released.
TEST(BudgetDriverTest, FastestFloorWithinTheBudgetWhenOnlyFloorsFit) {
  auto run = [](int64_t budget) {
    FloorOnlyEvaluator evaluator({{50, 100, 3.0}, {80, 150, 1.0}});
    BudgetDriverOptions options;
    options.budgetBytes = budget;
    options.inputFootprintBytes = 300;
    options.inputPeakTransientBytes = 250;
    options.inputTimeSeconds = 0.5;
    options.strategies = {"small-slow", "large-fast"};
    std::optional<BudgetResult> result = driveBudget(evaluator, options);
    EXPECT_TRUE(result && result->met);
    EXPECT_EQ(evaluator.live.size(), 1u);
    EXPECT_EQ(result->smallestFootprintBytes, 100);
    return result ? result->strategy : -2;
  };
  EXPECT_EQ(run(160), 1);
  EXPECT_EQ(run(150), 1);
  EXPECT_EQ(run(149), 0);
  EXPECT_EQ(run(kMinimumBudget), 0);
}

namespace {
/// One lever whose footprint is a given function of the target; the time
/// falls as the target rises.
class FootprintCurveEvaluator : public BudgetEvaluator {
public:
  FootprintCurveEvaluator(int64_t peakTransient,
                          std::function<int64_t(int64_t)> footprint)
      : peakTransient(peakTransient), footprint(std::move(footprint)) {}

  std::optional<BudgetEvaluation> evaluate(int, int64_t target) override {
    BudgetEvaluation evaluation;
    evaluation.planned = true;
    evaluation.peakTransientBytes = std::min(target, peakTransient);
    evaluation.footprintBytes = footprint(target);
    evaluation.timeSeconds = 1.0 + 1e-5 * double(peakTransient - target);
    evaluation.candidate = next++;
    live.insert(evaluation.candidate);
    targets.push_back(target);
    return evaluation;
  }
  void release(int64_t candidate) override {
    ASSERT_TRUE(live.erase(candidate)) << "released twice or unknown";
  }

  int64_t peakTransient;
  std::function<int64_t(int64_t)> footprint;
  int64_t next = 0;
  std::set<int64_t> live;
  std::vector<int64_t> targets;
};
} // namespace

// The footprint jumps above target 850 (a plan that keeps one more large
// buffer): the budget's own target overshoots, the tightened one fits with
// half the budget spare, the target looser by that spare overshoots again;
// bisecting between the last two finds a plan that fits with less
// recomputation than the tightened one.
TEST(BudgetDriverTest, BisectsBetweenAFitAndALooserOvershoot) {
  FootprintCurveEvaluator evaluator(1000, [](int64_t target) {
    return target <= 850 ? target - 100 : target + 400;
  });
  BudgetDriverOptions options;
  options.budgetBytes = 900;
  options.inputFootprintBytes = 1000;
  options.inputPeakTransientBytes = 1000;
  options.inputTimeSeconds = 1.0;
  options.strategies = {"curve"};
  std::optional<BudgetResult> result = driveBudget(evaluator, options);
  ASSERT_TRUE(result && result->met);
  EXPECT_EQ(evaluator.targets, (std::vector<int64_t>{900, 500, 1000, 750}));
  EXPECT_EQ(result->chosen.peakTransientBytes, 750);
  EXPECT_EQ(evaluator.live.size(), 1u);
}
