//===- SubsetSearch.h - Exact min-peak search over down-sets ----*- C++ -*-===//
//
// This file declares the exact engine shared by the exact solver and the
// windowed search: a best-first search over down-sets (sets of scheduled
// tasks closed under predecessors) of a small local problem whose boundary
// (buffers live before it starts, after it ends, or throughout) is fixed.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_SCHEDULING_SUBSETSEARCH_H
#define MEMSCHED_LIB_SCHEDULING_SUBSETSEARCH_H

#include "Deadline.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {
namespace detail {

/// The most tasks a local problem may have.
inline constexpr int32_t kMaxLocalTasks = 512;

/// A write a task may make over one of its inputs (Task::inPlaceWrites, as
/// buffer ids of one size): the result's buffer takes the input's where the
/// task is the input buffer's last user and the result buffer's first.
struct InPlaceWrite {
  int32_t input;
  int32_t result;
};

/// Bytes a task's in-place writes spare its step: the writes whose input
/// buffer `dies` at the task and whose result buffer is `born` there, taken in
/// order, each buffer in one write, as memsched-inplace takes them. The live
/// bytes after the step are the same either way (the result keeps the input's
/// bytes instead of new ones), so only the step's own peak changes.
template <typename Writes, typename Dies, typename Born, typename Bytes>
int64_t bytesSparedInPlace(const Writes &writes, Dies dies, Born born,
                           Bytes bytes) {
  constexpr int kMaxTaken = 8;
  int32_t taken[2 * kMaxTaken];
  int numTaken = 0;
  int64_t spared = 0;
  for (const InPlaceWrite &write : writes) {
    if (numTaken == 2 * kMaxTaken)
      break;
    bool isTaken = false;
    for (int i = 0; i < numTaken; ++i)
      isTaken |= taken[i] == write.input || taken[i] == write.result;
    if (isTaken || !dies(write.input) || !born(write.result))
      continue;
    taken[numTaken++] = write.input;
    taken[numTaken++] = write.result;
    spared += bytes(write.result);
  }
  return spared;
}

/// The most bytesSparedInPlace can give for \p writes whatever has run:
/// each result buffer's bytes once (for lower bounds on a step).
template <typename Writes, typename Bytes>
int64_t mostBytesSparedInPlace(const Writes &writes, Bytes bytes) {
  int64_t spared = 0;
  for (auto it = writes.begin(); it != writes.end(); ++it) {
    bool counted = false;
    for (auto earlier = writes.begin(); earlier != it; ++earlier)
      counted |= earlier->result == it->result;
    if (!counted)
      spared += bytes(it->result);
  }
  return spared;
}

/// A contiguous part of a schedule: its tasks may be permuted, everything
/// before it has run and everything after it waits for it.
struct LocalProblem {
  struct LocalBuffer {
    int64_t bytes = 0;
    /// Local tasks touching the buffer.
    std::vector<int32_t> users;
    /// Live when the part starts (a user ran before it).
    bool liveAtStart = false;
    /// Still live when the part ends (a user runs after it, or it escapes).
    bool liveAtEnd = false;
  };
  /// Predecessors of each local task among the local tasks.
  std::vector<std::vector<int32_t>> preds;
  std::vector<int64_t> workspace;
  std::vector<LocalBuffer> buffers;
  /// In-place writes of each local task over local buffers (empty where the
  /// problem models none).
  std::vector<std::vector<InPlaceWrite>> inPlaceWrites;
  /// Bytes live during the whole part that no local task touches.
  int64_t baseBytes = 0;

  int32_t numTasks() const { return static_cast<int32_t>(preds.size()); }
};

/// Outcome of searchDownSets().
struct LocalResult {
  /// The search ran to completion: `order` (if found) is optimal, or no
  /// order beats `upperBound`.
  bool complete = false;
  /// An order with peak < upperBound was found.
  bool found = false;
  std::vector<int32_t> order;
  int64_t peak = 0;
  int64_t statesVisited = 0;
  /// Why the search stopped early.
  std::string limitReason;
  /// A proven lower bound on the peak of every local order: the optimum if
  /// complete (capped by upperBound), otherwise the smallest bound among the
  /// partial orders left open (never below goodEnough).
  int64_t lowerBound = 0;
};

/// Peak of a local order (every step, base included).
int64_t computeLocalPeak(const LocalProblem &problem,
                         const std::vector<int32_t> &order);

/// Finds a local order of minimum peak among those with peak <
/// `upperBound`. Orders with peak <= `goodEnough` are treated as optimal
/// (pass 0 for a true optimum). Stops after `maxStates` down-sets or at the
/// deadline.
LocalResult searchDownSets(const LocalProblem &problem, int64_t upperBound,
                           int64_t goodEnough, int64_t maxStates,
                           const Deadline &deadline);

/// How the beam ranks partial orders with different scheduled sets.
enum class BeamRanking {
  /// Fewest live bytes, then lowest peak so far.
  Live,
  /// Lowest 2 * live + peak so far: a little weight on the peak.
  LiveAndPeak,
};

/// Finds a good local order fast: a beam search over down-sets that extends
/// every kept partial order by every ready task, drops those whose peak
/// reaches `upperBound`, merges those with the same scheduled set (keeping
/// the lower peak) and keeps the `width` that `ranking` ranks first. Returns
/// found if an order's peak is below `upperBound`; never complete. Counts the
/// partial orders it creates in statesVisited and stops (found = false) once
/// they would exceed `maxStates`.
LocalResult beamSearchDownSets(const LocalProblem &problem, int64_t upperBound,
                               int64_t width, BeamRanking ranking,
                               int64_t maxStates, const Deadline &deadline);

} // namespace detail
} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_LIB_SCHEDULING_SUBSETSEARCH_H
