//===- SchedulingTestHelpers.h - Helpers shared by the unit tests -*- C++ -*-=//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_UNITTESTS_SCHEDULING_SCHEDULINGTESTHELPERS_H
#define MEMSCHED_UNITTESTS_SCHEDULING_SCHEDULINGTESTHELPERS_H

#include "memsched/Scheduling/MemorySimulator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
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

} // namespace mlir::memsched::scheduling::test

#endif // MEMSCHED_UNITTESTS_SCHEDULING_SCHEDULINGTESTHELPERS_H
