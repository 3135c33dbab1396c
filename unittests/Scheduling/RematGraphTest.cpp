//===- RematGraphTest.cpp - Tests for the node model of remat -------------===//
//
// This file tests simulateSequence() on hand-computed sequences and checks
// that expandSequence() turns any valid sequence into a Problem whose memory
// profile has the same peak.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/RematGraph.h"

#include "memsched/Scheduling/MemorySimulator.h"

#include "SchedulingTestHelpers.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir::memsched::scheduling;

namespace {

/// a -> b -> c with sizes 1, 2, 4 and durations 1, 2, 3.
RematGraph makeChain() {
  RematGraph graph;
  graph.nodes.push_back(makeRematNode("a", 1, 1.0));
  graph.nodes.push_back(makeRematNode("b", 2, 2.0, {0}));
  graph.nodes.push_back(makeRematNode("c", 4, 3.0, {1}));
  return graph;
}

/// a -> b -> c, and d reads c and a: a is worth recomputing before d.
/// All sizes 4 but d's, which is 1; all durations 1.
RematGraph makeSkip() {
  RematGraph graph;
  graph.nodes.push_back(makeRematNode("a", 4, 1.0));
  graph.nodes.push_back(makeRematNode("b", 4, 1.0, {0}));
  graph.nodes.push_back(makeRematNode("c", 4, 1.0, {1}));
  graph.nodes.push_back(makeRematNode("d", 1, 1.0, {2, 0}));
  return graph;
}

SequenceCost simulateOrDie(const RematGraph &graph,
                           const std::vector<NodeId> &sequence) {
  std::string error;
  std::optional<SequenceCost> cost = simulateSequence(graph, sequence, &error);
  EXPECT_TRUE(cost.has_value()) << error;
  return cost.value_or(SequenceCost());
}

TEST(RematGraphTest, VerifyRejectsBadNodes) {
  std::string error;
  EXPECT_TRUE(makeChain().verify(&error)) << error;

  RematGraph forward = makeChain();
  forward.nodes[1].inputs = {1};
  EXPECT_FALSE(forward.verify(&error));
  EXPECT_NE(error.find("'b'"), std::string::npos) << error;

  RematGraph negativeSize = makeChain();
  negativeSize.nodes[2].sizeBytes = -1;
  EXPECT_FALSE(negativeSize.verify(&error));
  EXPECT_NE(error.find("negative size"), std::string::npos) << error;

  RematGraph nanDuration = makeChain();
  nanDuration.nodes[0].duration = std::nan("");
  EXPECT_FALSE(nanDuration.verify(&error));
  EXPECT_NE(error.find("duration"), std::string::npos) << error;
}

TEST(RematGraphTest, ChainFreesInputsAfterTheirLastRead) {
  RematGraph graph = makeChain();
  // a: 1; b: a + b = 3; c: b + c = 6 (a is dead after b).
  SequenceCost cost = simulateOrDie(graph, identitySequence(graph));
  EXPECT_EQ(cost.peakBytes, 6);
  EXPECT_DOUBLE_EQ(cost.time, 6.0);
  EXPECT_EQ(cost.recomputedRuns, 0);
  EXPECT_EQ(identitySequence(graph), (std::vector<NodeId>{0, 1, 2}));
}

TEST(RematGraphTest, DiamondKeepsBothBranches) {
  RematGraph graph;
  graph.nodes.push_back(makeRematNode("a", 1, 1.0));
  graph.nodes.push_back(makeRematNode("b", 2, 1.0, {0}));
  graph.nodes.push_back(makeRematNode("c", 4, 1.0, {0}));
  graph.nodes.push_back(makeRematNode("d", 8, 1.0, {1, 2}));
  // c: a + b + c = 7; d: b + c + d = 14.
  EXPECT_EQ(simulateOrDie(graph, {0, 1, 2, 3}).peakBytes, 14);
  // b after c: c: a + c = 5; b: a + b + c = 7; d: 14.
  EXPECT_EQ(simulateOrDie(graph, {0, 2, 1, 3}).peakBytes, 14);
  // Without d, nobody reads b and c: each lives only during its run.
  graph.nodes.pop_back();
  EXPECT_EQ(simulateOrDie(graph, {0, 1, 2}).peakBytes, 5);
}

TEST(RematGraphTest, RecomputationReplacesTheInstance) {
  RematGraph graph = makeSkip();
  // Without recomputation a stays live until d: a + b + c = 12 at c.
  SequenceCost keep = simulateOrDie(graph, identitySequence(graph));
  EXPECT_EQ(keep.peakBytes, 12);
  EXPECT_DOUBLE_EQ(keep.time, 4.0);
  // Recomputing a before d frees the first instance after b:
  // a 4, b 8, c 8, a 8 (c + a), d 9 (a + c + d).
  SequenceCost remat = simulateOrDie(graph, {0, 1, 2, 0, 3});
  EXPECT_EQ(remat.peakBytes, 9);
  EXPECT_DOUBLE_EQ(remat.time, 5.0);
  EXPECT_EQ(remat.recomputedRuns, 1);
  // A recomputation nobody reads lives only during its own run.
  SequenceCost wasted = simulateOrDie(graph, {0, 1, 1, 2, 3});
  EXPECT_EQ(wasted.peakBytes, 12);
  EXPECT_EQ(wasted.recomputedRuns, 1);
}

TEST(RematGraphTest, KeepToEndKeepsTheLastInstance) {
  RematGraph graph;
  graph.nodes.push_back(makeRematNode("a", 3, 1.0, {}, /*keepToEnd=*/true));
  graph.nodes.push_back(makeRematNode("b", 2, 1.0, {0}));
  graph.nodes.push_back(makeRematNode("c", 5, 1.0));
  // a stays live through c: 3 + 5 = 8.
  EXPECT_EQ(simulateOrDie(graph, {0, 1, 2}).peakBytes, 8);
  // Recomputed after c, only the last instance is kept: the first dies
  // after b, so c runs alone (5) and the final a adds 3 to nothing.
  EXPECT_EQ(simulateOrDie(graph, {0, 1, 2, 0}).peakBytes, 5);
  graph.nodes[0].keepToEnd = false;
  EXPECT_EQ(simulateOrDie(graph, {0, 1, 2}).peakBytes, 5);
  // A kept sink stays live to the end too.
  graph.nodes[0].keepToEnd = true;
  graph.nodes[1].keepToEnd = true;
  EXPECT_EQ(simulateOrDie(graph, {0, 1, 2}).peakBytes, 10);
}

TEST(RematGraphTest, DuplicateInputsCountOnce) {
  RematGraph graph;
  graph.nodes.push_back(makeRematNode("a", 3, 1.0));
  graph.nodes.push_back(makeRematNode("b", 2, 1.0, {0, 0}));
  EXPECT_EQ(simulateOrDie(graph, {0, 1}).peakBytes, 5);
  std::optional<ExpandedSequence> expanded = expandSequence(graph, {0, 1});
  ASSERT_TRUE(expanded.has_value());
  EXPECT_EQ(expanded->problem.value(0).consumers, (std::vector<TaskId>{1}));
}

TEST(RematGraphTest, EmptyGraph) {
  RematGraph graph;
  SequenceCost cost = simulateOrDie(graph, {});
  EXPECT_EQ(cost.peakBytes, 0);
  EXPECT_EQ(cost.recomputedRuns, 0);
  std::optional<ExpandedSequence> expanded = expandSequence(graph, {});
  ASSERT_TRUE(expanded.has_value());
  EXPECT_EQ(expanded->problem.numTasks(), 0u);
}

TEST(RematGraphTest, RejectsInvalidSequences) {
  RematGraph graph = makeChain();
  std::string error;
  EXPECT_FALSE(simulateSequence(graph, {1, 0, 2}, &error));
  EXPECT_NE(error.find("'b' reads node 'a', which has not run"),
            std::string::npos)
      << error;
  EXPECT_FALSE(simulateSequence(graph, {0, 1}, &error));
  EXPECT_NE(error.find("'c' never runs"), std::string::npos) << error;
  EXPECT_FALSE(simulateSequence(graph, {0, 1, 2, 3}, &error));
  EXPECT_NE(error.find("node id 3, which is out of range"), std::string::npos)
      << error;
  EXPECT_FALSE(simulateSequence(graph, {0, -1, 1, 2}, &error));
  EXPECT_NE(error.find("node id -1"), std::string::npos) << error;
  EXPECT_FALSE(expandSequence(graph, {0, 2, 1}, &error));
  EXPECT_NE(error.find("has not run"), std::string::npos) << error;

  RematGraph bad = makeChain();
  bad.nodes[0].inputs = {2};
  EXPECT_FALSE(simulateSequence(bad, {0, 1, 2}, &error));
  EXPECT_NE(error.find("invalid graph"), std::string::npos) << error;
}

TEST(RematGraphTest, ExpandFollowsTheLatestInstance) {
  RematGraph graph = makeSkip();
  graph.nodes[3].keepToEnd = true;
  std::optional<ExpandedSequence> expanded =
      expandSequence(graph, {0, 1, 2, 0, 3, 3});
  ASSERT_TRUE(expanded.has_value());
  const Problem &problem = expanded->problem;
  std::string error;
  ASSERT_TRUE(problem.verify(&error)) << error;
  ASSERT_EQ(problem.numTasks(), 6u);
  ASSERT_EQ(problem.numValues(), 6u);
  ASSERT_EQ(problem.numBuffers(), 6u);
  EXPECT_EQ(expanded->order, (std::vector<TaskId>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(expanded->nodeOf, (std::vector<NodeId>{0, 1, 2, 0, 3, 3}));
  EXPECT_EQ(problem.task(3).name, "a#1");
  EXPECT_EQ(problem.task(5).name, "d#1");
  // The first a is read by b only; d reads the recomputed one.
  EXPECT_EQ(problem.value(0).consumers, (std::vector<TaskId>{1}));
  EXPECT_EQ(problem.value(3).consumers, (std::vector<TaskId>{4, 5}));
  EXPECT_EQ(problem.value(2).consumers, (std::vector<TaskId>{4, 5}));
  EXPECT_EQ(problem.value(3).producer, 3);
  EXPECT_EQ(problem.value(3).definedBy, 3);
  // Only the last d escapes.
  EXPECT_FALSE(problem.value(4).liveToEnd);
  EXPECT_TRUE(problem.value(5).liveToEnd);
  for (size_t id = 0; id < problem.numBuffers(); ++id)
    EXPECT_EQ(problem.buffer(static_cast<BufferId>(id)).kind,
              BufferKind::Transient);
}

/// A random DAG: every node reads up to three earlier nodes (possibly the
/// same one twice); sizes 0..20, durations 0..4, some nodes keepToEnd.
RematGraph makeRandomGraph(std::mt19937 &rng, size_t numNodes) {
  RematGraph graph;
  for (size_t v = 0; v < numNodes; ++v) {
    RematNode node;
    node.name = "n" + std::to_string(v);
    node.sizeBytes = std::uniform_int_distribution<int64_t>(0, 20)(rng);
    node.duration = std::uniform_int_distribution<int>(0, 4)(rng);
    if (v > 0) {
      int numInputs = std::uniform_int_distribution<int>(0, 3)(rng);
      for (int k = 0; k < numInputs; ++k)
        node.inputs.push_back(std::uniform_int_distribution<NodeId>(
            0, static_cast<NodeId>(v) - 1)(rng));
    }
    node.keepToEnd = std::uniform_int_distribution<int>(0, 4)(rng) == 0;
    graph.nodes.push_back(std::move(node));
  }
  return graph;
}

/// A random valid sequence: any node whose inputs have all run may run
/// next, new or not, so first runs come in any topological order and
/// recomputations anywhere; it stops once every node has run and a coin
/// says so.
std::vector<NodeId> makeRandomSequence(std::mt19937 &rng,
                                       const RematGraph &graph) {
  size_t n = graph.nodes.size();
  std::vector<bool> ran(n, false);
  size_t numRan = 0;
  std::vector<NodeId> sequence;
  while (numRan < n || std::uniform_int_distribution<int>(0, 3)(rng) != 0) {
    std::vector<NodeId> ready;
    for (size_t v = 0; v < n; ++v) {
      bool inputsRan = true;
      for (NodeId input : graph.nodes[v].inputs)
        inputsRan = inputsRan && ran[input];
      // Prefer new nodes so that sequences end.
      if (inputsRan && (!ran[v] || numRan == n ||
                        std::uniform_int_distribution<int>(0, 2)(rng) == 0))
        ready.push_back(static_cast<NodeId>(v));
    }
    if (ready.empty())
      break;
    NodeId next =
        ready[std::uniform_int_distribution<size_t>(0, ready.size() - 1)(rng)];
    if (!ran[next]) {
      ran[next] = true;
      ++numRan;
    }
    sequence.push_back(next);
  }
  return sequence;
}

TEST(RematGraphTest, ExpandedPeakMatchesSimulateMemory) {
  std::mt19937 rng(20240611);
  int64_t recomputations = 0;
  for (int iteration = 0; iteration < 600; ++iteration) {
    size_t n = std::uniform_int_distribution<size_t>(1, 12)(rng);
    RematGraph graph = makeRandomGraph(rng, n);
    std::vector<NodeId> sequence = makeRandomSequence(rng, graph);
    std::string error;
    std::optional<SequenceCost> cost =
        simulateSequence(graph, sequence, &error);
    ASSERT_TRUE(cost.has_value()) << error;
    std::optional<ExpandedSequence> expanded =
        expandSequence(graph, sequence, &error);
    ASSERT_TRUE(expanded.has_value()) << error;
    ASSERT_TRUE(expanded->problem.verify(&error)) << error;
    std::optional<MemoryProfile> profile =
        simulateMemory(expanded->problem, expanded->order, &error);
    ASSERT_TRUE(profile.has_value()) << error;
    EXPECT_EQ(profile->peakTransientBytes, cost->peakBytes)
        << "iteration " << iteration;
    double time = 0.0;
    for (size_t t = 0; t < expanded->problem.numTasks(); ++t)
      time += expanded->problem.task(static_cast<TaskId>(t)).duration;
    EXPECT_DOUBLE_EQ(time, cost->time);
    EXPECT_EQ(cost->recomputedRuns,
              static_cast<int64_t>(sequence.size()) - static_cast<int64_t>(n));
    recomputations += cost->recomputedRuns;
  }
  // The generator must actually exercise recomputation.
  EXPECT_GT(recomputations, 300);
}

} // namespace
