//===- DeterminismTest.cpp - Same input, same plan, on any machine --------===//
//
// This file tests that the planners' default limits are work limits: each
// planner solves a problem on which its limits bind (it stops on them, not
// because it is done) once alone and then several times at once on more
// threads than the machine has cores, which slows every run down several
// times over; every run must return the same plan. Under a wall-clock limit
// (the former default) the loaded runs would stop earlier, with other plans.
//
//===----------------------------------------------------------------------===//

#include "SchedulingTestHelpers.h"
#include "memsched/Scheduling/OffsetPlanner.h"
#include "memsched/Scheduling/Oracles/Generators.h"
#include "memsched/Scheduling/Remat.h"
#include "memsched/Scheduling/Reorder.h"
#include "memsched/Scheduling/Swap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>

using namespace mlir::memsched::scheduling;

namespace {

/// More runs at once than a small machine has cores.
constexpr int kLoadedRuns = 6;

/// Runs \p solve on kLoadedRuns threads at once and returns the results.
template <typename Fn>
auto solveUnderLoad(Fn solve) {
  using Result = decltype(solve());
  std::vector<Result> results(kLoadedRuns);
  std::vector<std::thread> threads;
  for (int i = 0; i < kLoadedRuns; ++i)
    threads.emplace_back([&results, &solve, i] { results[i] = solve(); });
  for (std::thread &thread : threads)
    thread.join();
  return results;
}

/// Random lifetimes over about \p n steps, log-uniform lengths of 1 to
/// \p maxLength steps, and sizes of 16 KiB times a rank in 1..256 of
/// probability ~ 1/rank, +-25% (as the offset benchmark's random family).
std::vector<AllocationRequest> makeRequests(uint64_t seed, int n,
                                            int64_t maxLength) {
  std::mt19937_64 rng(seed);
  std::vector<double> weights;
  for (int r = 1; r <= 256; ++r)
    weights.push_back(1.0 / r);
  std::discrete_distribution<int> rank(weights.begin(), weights.end());
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<AllocationRequest> requests;
  for (int i = 0; i < n; ++i) {
    int64_t start = static_cast<int64_t>(unit(rng) * n);
    int64_t length =
        std::max<int64_t>(1, static_cast<int64_t>(std::exp(
                                 unit(rng) * std::log(double(maxLength)))));
    int64_t size = static_cast<int64_t>(16384.0 * (rank(rng) + 1) *
                                        (0.75 + 0.5 * unit(rng)));
    requests.push_back({i, start, start + length - 1, size});
  }
  return requests;
}

void expectSamePlan(const OffsetPlan &a, const OffsetPlan &b) {
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.arenaBytes, b.arenaBytes);
  EXPECT_EQ(a.algorithm, b.algorithm);
  EXPECT_EQ(a.candidates, b.candidates);
  EXPECT_EQ(a.isOptimal, b.isOptimal);
  EXPECT_EQ(a.exactNodes, b.exactNodes);
  EXPECT_EQ(a.improvePlacements, b.improvePlacements);
}

TEST(DeterminismTest, OffsetPlansWhereTheExactSearchStopsOnItsNodeLimit) {
  // An instance where auto's exact search runs out of nodes with the
  // default limits (checked: the limit binds).
  OffsetPlanOptions options;
  options.alignment = 64;
  std::vector<AllocationRequest> requests;
  std::optional<OffsetPlan> alone;
  for (uint64_t seed = 1; seed < 200 && !requests.size(); ++seed) {
    std::vector<AllocationRequest> candidate = makeRequests(seed, 100, 64);
    alone = planOffsets(candidate, options);
    ASSERT_TRUE(alone);
    if (alone->exactNodes >= options.exactMaxNodes)
      requests = std::move(candidate);
  }
  ASSERT_FALSE(requests.empty())
      << "no instance where the node limit binds; the test needs one";
  for (const std::optional<OffsetPlan> &loaded :
       solveUnderLoad([&] { return planOffsets(requests, options); })) {
    ASSERT_TRUE(loaded);
    expectSamePlan(*alone, *loaded);
  }
}

TEST(DeterminismTest, OffsetPlansOfALargeInstanceWithDefaultOptions) {
  // 20k buffers with the default options (those of the memory report): the
  // squeaky wheel stops on its placement limit.
  std::vector<AllocationRequest> requests = makeRequests(7, 20000, 64);
  std::optional<OffsetPlan> first = planOffsets(requests, OffsetPlanOptions());
  std::optional<OffsetPlan> second = planOffsets(requests, OffsetPlanOptions());
  ASSERT_TRUE(first && second);
  EXPECT_TRUE(verifyOffsets(requests, first->offsets, 256));
  EXPECT_GT(first->improvePlacements, 0);
  EXPECT_GT(first->improvePlacements + 20000,
            OffsetPlanOptions().improveMaxPlacements);
  expectSamePlan(*first, *second);
}

TEST(DeterminismTest, ReorderWhereTheSearchesStopOnTheirStateLimits) {
  // Random DAGs too large for the exact search to finish: auto's windowed
  // and exact searches stop on their state limits (small here, so that the
  // test stays fast; the defaults behave the same, only longer).
  ReorderOptions options;
  options.exactMaxTasks = 1000;
  options.exactMaxStates = 20'000;
  options.windowMaxStates = 20'000;
  Problem problem = makeRandomDag(200, 3);
  std::optional<ReorderResult> alone = reorder(problem, options);
  ASSERT_TRUE(alone);
  ASSERT_FALSE(alone->isOptimal);
  EXPECT_GE(alone->statesVisited, options.exactMaxStates);
  for (const std::optional<ReorderResult> &loaded :
       solveUnderLoad([&] { return reorder(problem, options); })) {
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->order, alone->order);
    EXPECT_EQ(loaded->chosenAlgorithm, alone->chosenAlgorithm);
    EXPECT_EQ(loaded->statesVisited, alone->statesVisited);
  }
}

/// Options of planRemat at half \p problem's peak in program order.
RematOptions atHalfThePeak(const Problem &problem) {
  RematOptions options;
  options.budgetTransientBytes =
      simulateMemory(problem, problem.programOrder())->peakTransientBytes / 2;
  return options;
}

TEST(DeterminismTest, RematWhereTheRefinementStopsOnItsEvaluationLimit) {
  Problem problem = makeTrainingStep(60, 2, 11);
  RematOptions options = atHalfThePeak(problem);
  options.maxEvaluations = 30;
  std::optional<RematPlan> alone = planRemat(problem, options);
  ASSERT_TRUE(alone);
  EXPECT_GE(alone->numEvaluations, options.maxEvaluations);
  for (const std::optional<RematPlan> &loaded :
       solveUnderLoad([&] { return planRemat(problem, options); })) {
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->droppedBuffers, alone->droppedBuffers);
    EXPECT_EQ(loaded->peakTransientAfter, alone->peakTransientAfter);
    EXPECT_EQ(loaded->recomputeSeconds, alone->recomputeSeconds);
    EXPECT_EQ(loaded->algorithm, alone->algorithm);
    EXPECT_EQ(loaded->numEvaluations, alone->numEvaluations);
  }
}

// The work limit in simulated tasks is the evaluation limit it comes to:
// work of 30 tasks' worth of evaluations plans as 30 evaluations do.
TEST(DeterminismTest, RematWorkLimitIsAnEvaluationLimitPerTask) {
  Problem problem = makeTrainingStep(60, 2, 11);
  RematOptions byCount = atHalfThePeak(problem);
  byCount.maxEvaluations = 30;
  byCount.maxEvaluationWork = 0;
  RematOptions byWork = byCount;
  byWork.maxEvaluations = 256;
  byWork.maxEvaluationWork = 30 * static_cast<int64_t>(problem.numTasks());
  std::optional<RematPlan> counted = planRemat(problem, byCount);
  std::optional<RematPlan> worked = planRemat(problem, byWork);
  ASSERT_TRUE(counted && worked);
  EXPECT_EQ(worked->numEvaluations, counted->numEvaluations);
  EXPECT_EQ(worked->droppedBuffers, counted->droppedBuffers);
  EXPECT_EQ(worked->recomputeSeconds, counted->recomputeSeconds);
  // Without either limit the search goes on further.
  byWork.maxEvaluationWork = 0;
  std::optional<RematPlan> unlimited = planRemat(problem, byWork);
  ASSERT_TRUE(unlimited);
  EXPECT_GT(unlimited->numEvaluations, counted->numEvaluations);
}

TEST(DeterminismTest, SwapWhereTheRefinementStopsOnItsEvaluationLimit) {
  Problem problem = makeTrainingStep(40, 2, 5, 1 << 10);
  std::vector<TaskId> order = problem.programOrder();
  int64_t peak = simulateMemory(problem, order)->peakTransientBytes;
  // The tightest of these budgets and the slowest of these links at which
  // the planner meets the budget with a refinement to do.
  SwapOptions options;
  options.maxEvaluations = 0;
  std::optional<SwapPlan> full;
  for (double bandwidth : {3e8, 1e9, 1e10}) {
    for (int tenths = 5; tenths <= 9; ++tenths) {
      options.link.hostToDeviceBytesPerSecond = bandwidth;
      options.link.deviceToHostBytesPerSecond = bandwidth;
      options.budgetTransientBytes = peak * tenths / 10;
      full = planSwap(problem, order, options);
      ASSERT_TRUE(full);
      if (full->withinBudget && full->numEvaluations > 4)
        break;
    }
    if (full->withinBudget && full->numEvaluations > 4)
      break;
  }
  ASSERT_TRUE(full->withinBudget);
  ASSERT_GT(full->numEvaluations, 4);
  // Stop halfway.
  options.maxEvaluations = full->numEvaluations / 2;
  std::optional<SwapPlan> alone = planSwap(problem, order, options);
  ASSERT_TRUE(alone);
  EXPECT_GE(alone->numEvaluations, options.maxEvaluations);
  EXPECT_LT(alone->numEvaluations, full->numEvaluations);
  for (const std::optional<SwapPlan> &loaded :
       solveUnderLoad([&] { return planSwap(problem, order, options); })) {
    ASSERT_TRUE(loaded);
    ASSERT_EQ(loaded->swaps.size(), alone->swaps.size());
    for (size_t i = 0; i < alone->swaps.size(); ++i) {
      EXPECT_EQ(loaded->swaps[i].buffer, alone->swaps[i].buffer);
      EXPECT_EQ(loaded->swaps[i].prefetchAfter, alone->swaps[i].prefetchAfter);
    }
    EXPECT_EQ(loaded->after.makespanSeconds, alone->after.makespanSeconds);
    EXPECT_EQ(loaded->numEvaluations, alone->numEvaluations);
  }
}

} // namespace
