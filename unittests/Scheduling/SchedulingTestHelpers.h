//===- SchedulingTestHelpers.h - Helpers shared by the unit tests -*- C++ -*-=//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_UNITTESTS_SCHEDULING_SCHEDULINGTESTHELPERS_H
#define MEMSCHED_UNITTESTS_SCHEDULING_SCHEDULINGTESTHELPERS_H

#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/RematGraph.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace mlir::memsched::scheduling::test {

/// Peak transient bytes of \p order, which must be a valid order of all
/// tasks (a test failure otherwise, and the largest value, so that no
/// "at most" comparison passes by accident).
inline int64_t peakOf(const Problem &problem,
                      const std::vector<TaskId> &order) {
  std::string error;
  std::optional<MemoryProfile> profile = simulateMemory(problem, order, &error);
  EXPECT_TRUE(profile.has_value()) << error;
  return profile ? profile->peakTransientBytes
                 : std::numeric_limits<int64_t>::max();
}

/// Whether every task has at most one successor and one predecessor.
inline bool isChain(const Problem &problem) {
  for (size_t t = 0; t < problem.numTasks(); ++t)
    if (problem.successors(static_cast<TaskId>(t)).size() > 1 ||
        problem.predecessors(static_cast<TaskId>(t)).size() > 1)
      return false;
  return true;
}

/// A random node graph of \p numNodes nodes: every node but the first reads
/// one to three earlier nodes, sizes 1..10, durations 1..5; about a third
/// of the sinks are keepToEnd.
inline RematGraph makeRandomRematGraph(std::mt19937 &rng, size_t numNodes) {
  RematGraph graph;
  std::vector<bool> hasReader(numNodes, false);
  for (size_t v = 0; v < numNodes; ++v) {
    RematNode node;
    node.name = "n" + std::to_string(v);
    node.sizeBytes = std::uniform_int_distribution<int64_t>(1, 10)(rng);
    node.duration = std::uniform_int_distribution<int>(1, 5)(rng);
    if (v > 0) {
      int numInputs = std::uniform_int_distribution<int>(1, 3)(rng);
      for (int k = 0; k < numInputs; ++k) {
        NodeId input = std::uniform_int_distribution<NodeId>(
            0, static_cast<NodeId>(v) - 1)(rng);
        node.inputs.push_back(input);
        hasReader[input] = true;
      }
    }
    graph.nodes.push_back(std::move(node));
  }
  for (size_t v = 0; v < numNodes; ++v)
    if (!hasReader[v])
      graph.nodes[v].keepToEnd =
          std::uniform_int_distribution<int>(0, 2)(rng) == 0;
  return graph;
}

} // namespace mlir::memsched::scheduling::test

#endif // MEMSCHED_UNITTESTS_SCHEDULING_SCHEDULINGTESTHELPERS_H
