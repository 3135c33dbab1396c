//===- CheckmateIlpTest.cpp - Tests for the Checkmate ILP -----------------===//
//
// This file checks the Checkmate ILP against the brute-force oracle on random
// tiny graphs, at budgets from the smallest feasible one to the peak without
// recomputation, and checks that every returned sequence replays within its
// budget at the reported time.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/CheckmateIlp.h"

#include "SchedulingTestHelpers.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>

using namespace mlir::memsched::scheduling;

namespace {

/// a -> b -> c, and d reads c and a: recomputing a before d saves memory.
/// All sizes 4 but d's, which is 1; durations 1, 2, 3, 4.
RematGraph makeSkip() {
  RematGraph graph;
  graph.nodes.push_back(makeRematNode("a", 4, 1.0));
  graph.nodes.push_back(makeRematNode("b", 4, 2.0, {0}));
  graph.nodes.push_back(makeRematNode("c", 4, 3.0, {1}));
  graph.nodes.push_back(makeRematNode("d", 1, 4.0, {2, 0}));
  return graph;
}

/// Checks that \p result's sequence replays within \p budget at the time
/// the solver reported.
void expectReplays(const RematGraph &graph, int64_t budget,
                   const CheckmateResult &result) {
  std::string error;
  std::optional<SequenceCost> cost =
      simulateSequence(graph, result.sequence, &error);
  ASSERT_TRUE(cost.has_value()) << error;
  EXPECT_LE(cost->peakBytes, budget);
  EXPECT_EQ(cost->peakBytes, result.cost.peakBytes);
  EXPECT_NEAR(cost->time, result.objective, 1e-6);
  EXPECT_NEAR(cost->time, result.cost.time, 1e-9);
}

CheckmateResult solveOrDie(const RematGraph &graph, int64_t budget,
                           const CheckmateOptions &options = {}) {
  std::string error;
  std::optional<CheckmateResult> result =
      solveCheckmateIlp(graph, budget, options, &error);
  EXPECT_TRUE(result.has_value()) << error;
  return result.value_or(CheckmateResult());
}

TEST(CheckmateIlpTest, HandGraph) {
  RematGraph graph = makeSkip();
  // Without recomputation the peak is a + b + c = 12 at c.
  CheckmateResult unlimited = solveOrDie(graph, 12);
  EXPECT_EQ(unlimited.status, IlpStatus::Optimal);
  EXPECT_DOUBLE_EQ(unlimited.objective, 10.0);
  EXPECT_EQ(unlimited.sequence, identitySequence(graph));
  // At 9 (what d needs) a is recomputed before d.
  CheckmateResult tight = solveOrDie(graph, 9);
  EXPECT_EQ(tight.status, IlpStatus::Optimal);
  EXPECT_NEAR(tight.objective, 11.0, 1e-9);
  EXPECT_EQ(tight.sequence, (std::vector<NodeId>{0, 1, 2, 0, 3}));
  EXPECT_EQ(tight.cost.peakBytes, 9);
  EXPECT_EQ(tight.cost.recomputedRuns, 1);
  expectReplays(graph, 9, tight);
  CheckmateResult infeasible = solveOrDie(graph, 8);
  EXPECT_EQ(infeasible.status, IlpStatus::Infeasible);
  EXPECT_TRUE(infeasible.sequence.empty());

  std::vector<NodeId> best;
  std::optional<SequenceCost> oracle = solveRematBruteForce(graph, 9, &best);
  ASSERT_TRUE(oracle.has_value());
  EXPECT_DOUBLE_EQ(oracle->time, 11.0);
  EXPECT_EQ(best, (std::vector<NodeId>{0, 1, 2, 0, 3}));
  std::string error;
  EXPECT_FALSE(solveRematBruteForce(graph, 8, nullptr, &error));
  EXPECT_NE(error.find("no sequence fits"), std::string::npos) << error;
}

TEST(CheckmateIlpTest, KeepToEndIsNeverFreed) {
  // a is a result; c reads nothing but must run while a is still held.
  RematGraph graph;
  graph.nodes.push_back(makeRematNode("a", 3, 1.0, {}, /*keepToEnd=*/true));
  graph.nodes.push_back(makeRematNode("b", 2, 1.0, {0}));
  graph.nodes.push_back(makeRematNode("c", 5, 1.0));
  EXPECT_EQ(solveOrDie(graph, 8).status, IlpStatus::Optimal);
  EXPECT_EQ(solveOrDie(graph, 7).status, IlpStatus::Infeasible);
  EXPECT_FALSE(solveRematBruteForce(graph, 7));
  graph.nodes[0].keepToEnd = false;
  CheckmateResult result = solveOrDie(graph, 5);
  EXPECT_EQ(result.status, IlpStatus::Optimal);
  expectReplays(graph, 5, result);
}

TEST(CheckmateIlpTest, ModelAccountingMatchesSimulation) {
  // The ILP is exact because its U, with the smallest S, is the live bytes
  // of simulateSequence() at every run; check that on random sequences of
  // the schedule space, recomputations included.
  std::mt19937 rng(13);
  for (int iteration = 0; iteration < 300; ++iteration) {
    size_t n = std::uniform_int_distribution<size_t>(1, 14)(rng);
    RematGraph graph = test::makeRandomRematGraph(rng, n);
    std::vector<NodeId> sequence;
    for (size_t t = 0; t < n; ++t) {
      for (size_t i = 0; i < t; ++i)
        if (!graph.nodes[i].keepToEnd &&
            std::uniform_int_distribution<int>(0, 2)(rng) == 0)
          sequence.push_back(static_cast<NodeId>(i));
      sequence.push_back(static_cast<NodeId>(t));
    }
    std::string error;
    std::optional<int64_t> modelPeak =
        checkmateModelPeak(graph, sequence, &error);
    ASSERT_TRUE(modelPeak.has_value()) << error;
    std::optional<SequenceCost> cost = simulateSequence(graph, sequence);
    ASSERT_TRUE(cost.has_value());
    EXPECT_EQ(*modelPeak, cost->peakBytes) << "iteration " << iteration;
  }

  RematGraph graph = makeSkip();
  std::string error;
  // Out of stage order, a repeated run within a stage, and a missing node.
  EXPECT_FALSE(checkmateModelPeak(graph, {0, 1, 2, 3, 0}, &error));
  EXPECT_NE(error.find("schedule space"), std::string::npos) << error;
  EXPECT_FALSE(checkmateModelPeak(graph, {0, 1, 0, 0, 2, 3}));
  EXPECT_FALSE(checkmateModelPeak(graph, {0, 1, 2}));
  graph.nodes[0].keepToEnd = true;
  EXPECT_FALSE(checkmateModelPeak(graph, {0, 1, 2, 0, 3}));
}

TEST(CheckmateIlpTest, MatchesBruteForceOnRandomGraphs) {
  std::mt19937 rng(7);
  int numSolves = 0, numWithRecomputation = 0;
  for (int iteration = 0; iteration < 30; ++iteration) {
    size_t n = std::uniform_int_distribution<size_t>(4, 8)(rng);
    RematGraph graph = test::makeRandomRematGraph(rng, n);
    SCOPED_TRACE("iteration " + std::to_string(iteration));
    int64_t peak = simulateSequence(graph, identitySequence(graph))->peakBytes;
    int64_t minimum = peak;
    while (minimum > 0 && solveRematBruteForce(graph, minimum - 1))
      --minimum;
    // Every budget from one below the smallest feasible one to the peak.
    for (int64_t budget = minimum - 1; budget <= peak; ++budget) {
      std::vector<NodeId> best;
      std::optional<SequenceCost> oracle =
          solveRematBruteForce(graph, budget, &best);
      CheckmateResult result = solveOrDie(graph, budget);
      ++numSolves;
      SCOPED_TRACE("budget " + std::to_string(budget));
      if (!oracle) {
        EXPECT_EQ(result.status, IlpStatus::Infeasible);
        continue;
      }
      std::optional<SequenceCost> replay = simulateSequence(graph, best);
      ASSERT_TRUE(replay.has_value());
      EXPECT_LE(replay->peakBytes, budget);
      EXPECT_DOUBLE_EQ(replay->time, oracle->time);
      ASSERT_EQ(result.status, IlpStatus::Optimal);
      EXPECT_NEAR(result.objective, oracle->time, 1e-6);
      expectReplays(graph, budget, result);
      numWithRecomputation += result.cost.recomputedRuns > 0;
      if (budget == peak) {
        EXPECT_EQ(result.cost.recomputedRuns, 0);
      }
    }
  }
  // The budgets must reach the interesting regime.
  EXPECT_GT(numWithRecomputation, numSolves / 4);
}

TEST(CheckmateIlpTest, RelaxationBoundsTheOptimum) {
  std::mt19937 rng(11);
  CheckmateOptions relaxed;
  relaxed.relaxation = true;
  for (int iteration = 0; iteration < 6; ++iteration) {
    RematGraph graph = test::makeRandomRematGraph(rng, 8);
    int64_t peak = simulateSequence(graph, identitySequence(graph))->peakBytes;
    double baseTime = simulateSequence(graph, identitySequence(graph))->time;
    for (int64_t budget = peak / 2; budget <= peak; budget += 3) {
      CheckmateResult exact = solveOrDie(graph, budget);
      CheckmateResult bound = solveOrDie(graph, budget, relaxed);
      EXPECT_TRUE(bound.sequence.empty());
      if (exact.status == IlpStatus::Infeasible)
        continue;
      ASSERT_EQ(exact.status, IlpStatus::Optimal);
      ASSERT_EQ(bound.status, IlpStatus::Optimal);
      EXPECT_LE(bound.objective, exact.objective + 1e-6);
      // Every node runs at least once in any relaxed solution too.
      EXPECT_GE(bound.objective, baseTime - 1e-6);
    }
  }
}

TEST(CheckmateIlpTest, UnlimitedBudgetRecomputesNothing) {
  std::mt19937 rng(3);
  for (int iteration = 0; iteration < 5; ++iteration) {
    RematGraph graph = test::makeRandomRematGraph(rng, 12);
    CheckmateResult result = solveOrDie(graph, int64_t(1) << 40);
    ASSERT_EQ(result.status, IlpStatus::Optimal);
    EXPECT_EQ(result.sequence, identitySequence(graph));
    EXPECT_EQ(result.cost.recomputedRuns, 0);
  }
}

TEST(CheckmateIlpTest, LargeSizesAreScaled) {
  // Sizes that share a large factor: the ILP works in units of their gcd.
  RematGraph graph = makeSkip();
  for (RematNode &node : graph.nodes)
    node.sizeBytes *= int64_t(1) << 30;
  int64_t unit = int64_t(1) << 30;
  CheckmateResult result = solveOrDie(graph, 9 * unit + unit / 2);
  ASSERT_EQ(result.status, IlpStatus::Optimal);
  EXPECT_EQ(result.cost.peakBytes, 9 * unit);
  EXPECT_EQ(solveOrDie(graph, 9 * unit - 1).status, IlpStatus::Infeasible);
}

TEST(CheckmateIlpTest, TimeLimitIsRespected) {
  std::mt19937 rng(5);
  RematGraph graph = test::makeRandomRematGraph(rng, 60);
  int64_t peak = simulateSequence(graph, identitySequence(graph))->peakBytes;
  CheckmateOptions options;
  options.timeLimitSeconds = 1.0;
  auto begin = std::chrono::steady_clock::now();
  CheckmateResult result = solveOrDie(graph, peak * 2 / 3, options);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  // Generous: CBC checks the limit between steps, and a loaded machine
  // stretches those (2.7 s was seen with a 1 s limit).
  EXPECT_LT(seconds, 10.0);
  EXPECT_NE(result.status, IlpStatus::Infeasible);
  if (result.status == IlpStatus::Optimal ||
      result.status == IlpStatus::Feasible) {
    expectReplays(graph, peak * 2 / 3, result);
    EXPECT_LE(result.lowerBound, result.objective + 1e-6);
  }
}

TEST(CheckmateIlpTest, EdgeCases) {
  std::string error;
  RematGraph bad = makeSkip();
  bad.nodes[1].inputs = {3};
  EXPECT_FALSE(solveCheckmateIlp(bad, 100, {}, &error));
  EXPECT_NE(error.find("invalid graph"), std::string::npos) << error;
  EXPECT_FALSE(solveRematBruteForce(bad, 100, nullptr, &error));
  EXPECT_NE(error.find("invalid graph"), std::string::npos) << error;

  RematGraph empty;
  EXPECT_EQ(solveOrDie(empty, 0).status, IlpStatus::Optimal);
  EXPECT_TRUE(solveRematBruteForce(empty, 0));
  EXPECT_EQ(solveOrDie(makeSkip(), -1).status, IlpStatus::Infeasible);
  CheckmateOptions relaxed;
  relaxed.relaxation = true;
  EXPECT_EQ(solveOrDie(makeSkip(), 3, relaxed).status, IlpStatus::Infeasible);

  std::mt19937 rng(1);
  RematGraph large = test::makeRandomRematGraph(rng, kMaxBruteForceNodes + 1);
  EXPECT_FALSE(solveRematBruteForce(large, 1000, nullptr, &error));
  EXPECT_NE(error.find("at most"), std::string::npos) << error;
  EXPECT_STREQ(stringifyIlpStatus(IlpStatus::Feasible), "feasible");
}

} // namespace
