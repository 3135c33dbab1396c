//===- GeneratorsTest.cpp - Tests for the synthetic problem generators ----===//
//
// This file checks that every generator produces valid problems whose program
// order is topological, that the tree generators produce trees in Liu's
// model, that generation is deterministic, and that the post-order
// counterexample has the documented peaks.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Oracles/Generators.h"
#include "SchedulingTestHelpers.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/Reorder.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

using namespace mlir::memsched::scheduling;
using mlir::memsched::scheduling::test::isChain;
using mlir::memsched::scheduling::test::peakOf;

namespace {

void expectValid(const Problem &problem) {
  std::string error;
  EXPECT_TRUE(problem.verify(&error)) << error;
  std::string why;
  EXPECT_TRUE(problem.isTopologicalOrder(problem.programOrder(), &why)) << why;
}

/// A structural fingerprint, to compare two generated problems.
std::string fingerprint(const Problem &problem) {
  std::string s;
  for (size_t t = 0; t < problem.numTasks(); ++t)
    s += std::to_string(problem.task(static_cast<TaskId>(t)).workspaceBytes) +
         ";";
  for (size_t id = 0; id < problem.numBuffers(); ++id)
    s += std::to_string(problem.buffer(static_cast<BufferId>(id)).sizeBytes) +
         ",";
  for (size_t id = 0; id < problem.numValues(); ++id) {
    const Value &v = problem.value(static_cast<ValueId>(id));
    s += "|" + std::to_string(v.buffer) + ":" + std::to_string(v.producer) +
         (v.liveToEnd ? "!" : "");
    for (TaskId c : v.consumers)
      s += " " + std::to_string(c);
  }
  for (auto [before, after] : problem.extraDependences())
    s += "#" + std::to_string(before) + ">" + std::to_string(after);
  return s;
}

TEST(GeneratorsTest, InTreesAreValidInTrees) {
  for (int n = 1; n <= 40; ++n)
    for (uint64_t seed = 0; seed < 5; ++seed) {
      Problem problem = makeRandomInTree(n, seed, 100, seed % 2 == 0);
      ASSERT_EQ(problem.numTasks(), static_cast<size_t>(n));
      expectValid(problem);
      EXPECT_EQ(classifyTree(problem), TreeKind::InTree)
          << "n=" << n << " seed=" << seed;
      // Only the root's output escapes, and the root is the last task.
      for (size_t id = 0; id < problem.numValues(); ++id) {
        const Value &v = problem.value(static_cast<ValueId>(id));
        EXPECT_EQ(v.liveToEnd, v.producer == n - 1);
        if (v.producer != n - 1) {
          ASSERT_EQ(v.consumers.size(), 1u);
          EXPECT_GT(v.consumers[0], v.producer);
        }
        EXPECT_GE(v.sizeBytes, 1);
        EXPECT_LE(v.sizeBytes, 100);
      }
      if (seed % 2 == 1) {
        for (size_t t = 0; t < problem.numTasks(); ++t)
          EXPECT_EQ(problem.task(static_cast<TaskId>(t)).workspaceBytes, 0);
      }
    }
}

TEST(GeneratorsTest, OutTreesAreValidOutTrees) {
  for (int n = 1; n <= 40; ++n)
    for (uint64_t seed = 0; seed < 5; ++seed) {
      Problem problem = makeRandomOutTree(n, seed, 100, seed % 2 == 0);
      ASSERT_EQ(problem.numTasks(), static_cast<size_t>(n));
      expectValid(problem);
      // A chain without escaping buffers is an in-tree as well.
      TreeKind kind = classifyTree(problem);
      if (isChain(problem))
        EXPECT_NE(kind, TreeKind::NotATree) << "n=" << n << " seed=" << seed;
      else
        EXPECT_EQ(kind, TreeKind::OutTree) << "n=" << n << " seed=" << seed;
      std::vector<int> numPreds(n, 0);
      for (size_t id = 0; id < problem.numValues(); ++id) {
        const Value &v = problem.value(static_cast<ValueId>(id));
        EXPECT_FALSE(v.liveToEnd);
        EXPECT_LE(v.consumers.size(), 1u);
        for (TaskId c : v.consumers)
          ++numPreds[c];
      }
      EXPECT_EQ(numPreds[0], 0);
      for (int t = 1; t < n; ++t)
        EXPECT_EQ(numPreds[t], 1);
    }
}

TEST(GeneratorsTest, RandomDagsAreValid) {
  int inPlaceProblems = 0;
  for (int n = 1; n <= 60; ++n)
    for (uint64_t seed = 0; seed < 6; ++seed) {
      double density = 0.1 + 0.15 * static_cast<double>(seed);
      Problem problem = makeRandomDag(n, seed * 1000 + n, density);
      ASSERT_EQ(problem.numTasks(), static_cast<size_t>(n));
      expectValid(problem);
      if (!problem.extraDependences().empty())
        ++inPlaceProblems;
      // In-place writes keep the program order a valid memory order: every
      // value of a shared buffer is dead before the next one is written.
      std::vector<std::vector<ValueId>> byBuffer(problem.numBuffers());
      for (size_t id = 0; id < problem.numValues(); ++id)
        byBuffer[problem.value(static_cast<ValueId>(id)).buffer].push_back(
            static_cast<ValueId>(id));
      for (const std::vector<ValueId> &values : byBuffer)
        for (size_t i = 1; i < values.size(); ++i) {
          const Value &older = problem.value(values[i - 1]);
          const Value &newer = problem.value(values[i]);
          EXPECT_FALSE(older.liveToEnd);
          for (TaskId c : older.consumers)
            EXPECT_LE(c, newer.producer);
        }
    }
  EXPECT_GT(inPlaceProblems, 10);
}

TEST(GeneratorsTest, RandWireAndTrainingStepsAreValid) {
  for (uint64_t seed = 0; seed < 5; ++seed) {
    Problem wire = makeRandWire(3, 32, 4, 0.75, seed);
    EXPECT_EQ(wire.numTasks(), 3u * 33u + 2u);
    expectValid(wire);
    expectValid(makeRandWire(2, 5, 4, 0.0, seed));
    expectValid(makeRandWire(1, 1, 4, 0.5, seed));
    for (int layers : {1, 2, 8})
      for (int branches : {1, 2, 3}) {
        Problem step = makeTrainingStep(layers, branches, seed);
        expectValid(step);
        EXPECT_GT(step.residentBytes(), 0);
      }
  }
}

TEST(GeneratorsTest, TrainingStepSavesActivationsForBackward) {
  // With one branch the forward output of the first layer is read by the
  // backward of that layer, so it is live across the loss.
  Problem step = makeTrainingStep(4, 1, 7);
  std::optional<MemoryProfile> profile =
      simulateMemory(step, step.programOrder());
  ASSERT_TRUE(profile.has_value());
  TaskId loss = kNoId;
  for (size_t t = 0; t < step.numTasks(); ++t)
    if (step.task(static_cast<TaskId>(t)).name == "loss")
      loss = static_cast<TaskId>(t);
  ASSERT_NE(loss, kNoId);
  // Four saved activations plus the loss value at least.
  EXPECT_GE(profile->liveBytes[loss], 4 * ((1 << 20) / 2));
}

TEST(GeneratorsTest, GeneratorsAreDeterministic) {
  EXPECT_EQ(fingerprint(makeRandomInTree(50, 3)),
            fingerprint(makeRandomInTree(50, 3)));
  EXPECT_NE(fingerprint(makeRandomInTree(50, 3)),
            fingerprint(makeRandomInTree(50, 4)));
  EXPECT_EQ(fingerprint(makeRandomOutTree(50, 3)),
            fingerprint(makeRandomOutTree(50, 3)));
  EXPECT_EQ(fingerprint(makeRandomDag(50, 3)),
            fingerprint(makeRandomDag(50, 3)));
  EXPECT_NE(fingerprint(makeRandomDag(50, 3)),
            fingerprint(makeRandomDag(50, 4)));
  EXPECT_EQ(fingerprint(makeRandWire(2, 16, 4, 0.75, 3)),
            fingerprint(makeRandWire(2, 16, 4, 0.75, 3)));
  EXPECT_NE(fingerprint(makeRandWire(2, 16, 4, 0.75, 3)),
            fingerprint(makeRandWire(2, 16, 4, 0.75, 4)));
  EXPECT_EQ(fingerprint(makeTrainingStep(4, 2, 3)),
            fingerprint(makeTrainingStep(4, 2, 3)));
  EXPECT_NE(fingerprint(makeTrainingStep(4, 2, 3)),
            fingerprint(makeTrainingStep(4, 2, 4)));
}

/// The order realising the optimal peak of the counterexample: at every
/// root, first each chain's lower part (recursively, in the same way), then
/// all the chain tops Y_j, then the root.
void counterexampleOptimalOrder(const Problem &problem, TaskId root,
                                std::vector<TaskId> &order) {
  const std::vector<TaskId> &tops = problem.predecessors(root);
  if (tops.empty()) {
    order.push_back(root);
    return;
  }
  for (TaskId top : tops) {
    const std::vector<TaskId> &below = problem.predecessors(top);
    ASSERT_EQ(below.size(), 1u);
    counterexampleOptimalOrder(problem, below[0], order);
  }
  for (TaskId top : tops)
    order.push_back(top);
  order.push_back(root);
}

TEST(GeneratorsTest, PostorderCounterexamplePeaks) {
  const int64_t big = 1200, small = 1;
  for (int branching : {2, 3, 4})
    for (int levels = 1; levels <= 4; ++levels) {
      Problem problem =
          makePostorderCounterexample(levels, branching, big, small);
      expectValid(problem);
      EXPECT_EQ(classifyTree(problem), TreeKind::InTree);
      size_t expectedTasks = 2 * branching + 1;
      for (int k = 2; k <= levels; ++k)
        expectedTasks = branching * (expectedTasks + 1) + 1;
      ASSERT_EQ(problem.numTasks(), expectedTasks);

      // The program order is the best post-order: the children are
      // identical, so every post-order has the same peak.
      int64_t postorderPeak =
          big + small + levels * (branching - 1) * (big / branching);
      EXPECT_EQ(peakOf(problem, problem.programOrder()), postorderPeak)
          << "K=" << levels << " b=" << branching;

      std::vector<TaskId> optimal;
      counterexampleOptimalOrder(
          problem, static_cast<TaskId>(problem.numTasks() - 1), optimal);
      ASSERT_TRUE(problem.isTopologicalOrder(optimal));
      int64_t optimalPeak = big + small + levels * (branching - 1) * small;
      EXPECT_EQ(peakOf(problem, optimal), optimalPeak)
          << "K=" << levels << " b=" << branching;
    }
}

TEST(GeneratorsTest, PostorderCounterexampleWithIndivisibleBig) {
  // The chain outputs are big / b rounded down.
  Problem problem = makePostorderCounterexample(2, 3, 1000, 2);
  EXPECT_EQ(peakOf(problem, problem.programOrder()),
            1000 + 2 + 2 * 2 * (1000 / 3));
}

TEST(GeneratorsTest, DegenerateSizes) {
  expectValid(makeRandomInTree(0, 1));
  expectValid(makeRandomOutTree(0, 1));
  expectValid(makeRandomDag(0, 1));
  EXPECT_EQ(makeRandomInTree(0, 1).numTasks(), 0u);
  EXPECT_EQ(makeRandomDag(1, 1).numTasks(), 1u);
}

} // namespace
