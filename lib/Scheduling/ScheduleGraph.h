//===- ScheduleGraph.h - Compact view of a Problem for schedulers -*- C++ -*-=//
//
// This file declares the flat (CSR) view of a Problem that every scheduler
// works on: dependences, the transient buffers each task touches and the
// tasks that touch each buffer. In this view a buffer is live from its first
// scheduled user to its last (or to the end if it escapes), which is exactly
// the rule of simulateMemory(); MemoryTracker applies it incrementally. Where
// the problem names in-place writes, a task that is the last user of a write's
// input buffer and the first of its result's holds one buffer for both, as
// the in-place rewrite that follows the order makes it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_SCHEDULING_SCHEDULEGRAPH_H
#define MEMSCHED_LIB_SCHEDULING_SCHEDULEGRAPH_H

#include "SubsetSearch.h"
#include "memsched/Scheduling/Problem.h"

#include <cstdint>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {
namespace detail {

/// A contiguous slice of an index array.
struct IdRange {
  const int32_t *first;
  const int32_t *last;
  const int32_t *begin() const { return first; }
  const int32_t *end() const { return last; }
  size_t size() const { return static_cast<size_t>(last - first); }
  bool empty() const { return first == last; }
};

/// A contiguous slice of a task's in-place writes.
struct WriteRange {
  const InPlaceWrite *first;
  const InPlaceWrite *last;
  const InPlaceWrite *begin() const { return first; }
  const InPlaceWrite *end() const { return last; }
  bool empty() const { return first == last; }
};

/// Flat dependence and buffer-use lists of a verified Problem. Resident
/// buffers and buffers no task touches are left out (they never change the
/// transient peak).
class ScheduleGraph {
public:
  explicit ScheduleGraph(const Problem &problem);

  int32_t numTasks() const { return static_cast<int32_t>(workspace.size()); }
  int32_t numBuffers() const { return static_cast<int32_t>(size.size()); }

  IdRange preds(int32_t task) const { return slice(predStart, predIds, task); }
  IdRange succs(int32_t task) const { return slice(succStart, succIds, task); }
  /// Transient buffers (dense ids) the task touches, without duplicates.
  IdRange buffers(int32_t task) const {
    return slice(bufferStart, bufferIds, task);
  }
  /// Tasks touching a buffer, without duplicates, ascending.
  IdRange users(int32_t buffer) const {
    return slice(userStart, userIds, buffer);
  }

  /// The task's in-place writes (Task::inPlaceWrites) over transient
  /// buffers of one size that do not escape; empty where the problem names
  /// none.
  WriteRange inPlaceWrites(int32_t task) const {
    if (writeStart.empty())
      return {nullptr, nullptr};
    return {writes.data() + writeStart[task],
            writes.data() + writeStart[task + 1]};
  }
  /// Whether any task has in-place writes.
  bool hasInPlaceWrites() const { return !writes.empty(); }

  /// Bytes of a buffer while live.
  int64_t bufferBytes(int32_t buffer) const { return size[buffer]; }
  /// Whether a buffer stays live to the end once allocated.
  bool escapes(int32_t buffer) const { return escaping[buffer]; }
  /// Workspace of a task.
  int64_t workspaceBytes(int32_t task) const { return workspace[task]; }
  /// The Problem's buffer id of a dense buffer id.
  BufferId originalBuffer(int32_t buffer) const { return original[buffer]; }
  /// Sum of the sizes of the buffers a task touches, plus its workspace.
  int64_t footprint(int32_t task) const;
  /// A topological order, smallest task id first among the ready ones (the
  /// program order whenever that is topological).
  const std::vector<int32_t> &topologicalOrder() const { return topo; }

private:
  static IdRange slice(const std::vector<int32_t> &start,
                       const std::vector<int32_t> &ids, int32_t i) {
    return {ids.data() + start[i], ids.data() + start[i + 1]};
  }

  std::vector<int32_t> predStart, predIds, succStart, succIds;
  std::vector<int32_t> bufferStart, bufferIds, userStart, userIds;
  std::vector<int64_t> size, workspace;
  std::vector<bool> escaping;
  std::vector<BufferId> original;
  std::vector<int32_t> topo;
  std::vector<int32_t> writeStart;
  std::vector<InPlaceWrite> writes;
};

/// Live bytes of a partial schedule, updated one task at a time.
class MemoryTracker {
public:
  explicit MemoryTracker(const ScheduleGraph &graph);

  /// Bytes of the buffers `task` touches that are not live yet.
  int64_t allocatedBy(int32_t task) const;
  /// Bytes of the buffers that die once `task` has run.
  int64_t freedBy(int32_t task) const;
  /// Bytes `task`'s in-place writes spare its step (bytesSparedInPlace).
  int64_t sparedBy(int32_t task) const;
  /// Live bytes while `task` runs, workspace included.
  int64_t stepPeak(int32_t task) const {
    return live + allocatedBy(task) - sparedBy(task) +
           graph.workspaceBytes(task);
  }
  /// Runs `task`; returns its step peak.
  int64_t schedule(int32_t task);

  /// Live bytes between steps.
  int64_t liveBytes() const { return live; }
  /// Highest step peak so far.
  int64_t peakBytes() const { return peak; }
  /// Users of `buffer` not scheduled yet.
  int32_t remainingUsers(int32_t buffer) const { return remaining[buffer]; }
  /// Whether `buffer` has been allocated and not freed.
  bool isLive(int32_t buffer) const {
    return remaining[buffer] <
               static_cast<int32_t>(graph.users(buffer).size()) &&
           (remaining[buffer] > 0 || graph.escapes(buffer));
  }

private:
  const ScheduleGraph &graph;
  std::vector<int32_t> remaining;
  int64_t live = 0;
  int64_t peak = 0;
};

/// Peak transient bytes of a complete order, by MemoryTracker (no checks).
int64_t computePeak(const ScheduleGraph &graph,
                    const std::vector<int32_t> &order);

/// Live bytes at each step of a complete order, workspace included.
std::vector<int64_t> computeStepPeaks(const ScheduleGraph &graph,
                                      const std::vector<int32_t> &order);

/// Where each task and buffer sits in a complete order.
struct OrderIndex {
  OrderIndex(const ScheduleGraph &graph, const std::vector<int32_t> &order);
  std::vector<int32_t> position;
  /// First and last positions of each buffer's users.
  std::vector<int32_t> firstUse, lastUse;
  /// Bytes live between position p and p + 1.
  std::vector<int64_t> liveAfter;
};

/// The positions [begin, end) of `order` as a local problem whose boundary
/// is what the rest of the order leaves live. Local task i is
/// order[begin + i].
LocalProblem makeRangeProblem(const ScheduleGraph &graph,
                              const std::vector<int32_t> &order,
                              const OrderIndex &index, int32_t begin,
                              int32_t end);

/// Splits a complete order at its cut tasks (tasks every other task must
/// precede or follow). Returns the maximal ranges [begin, end) between cuts,
/// each cut being a range of its own; every topological order visits the
/// same ranges in the same sequence.
std::vector<std::pair<int32_t, int32_t>>
findComponents(const ScheduleGraph &graph, const std::vector<int32_t> &order);

/// A problem without its free sources: tasks with no predecessors and no
/// fence role whose buffers are used by themselves alone or by all their
/// successors (tensor.empty, constants, a function of the weights such as a
/// normalisation's scale), and whose own step fits in every successor's
/// (workspace and buffers only the source uses, against what the successor
/// surely allocates plus its workspace). Some optimal order runs such a source
/// right before its first successor, where its buffers are allocated anyway;
/// the reduced problem allocates them at that successor, so both have the same
/// minimum peak. Removing sources shrinks the down-sets exponentially and
/// exposes cut tasks.
struct ReducedProblem {
  Problem problem;
  /// Original id of each reduced task.
  std::vector<TaskId> original;
  /// The free sources, in program order.
  std::vector<TaskId> freeTasks;
  /// Whether anything was removed.
  bool isReduced() const { return !freeTasks.empty(); }
};

/// Builds the reduced problem of a verified problem.
ReducedProblem removeFreeSources(const Problem &problem);
/// Maps an order of `reduced` to an order of the original problem: each
/// free source runs right before its first successor (first if it has
/// none).
std::vector<TaskId> expandOrder(const Problem &problem,
                                const ReducedProblem &reduced,
                                const std::vector<TaskId> &order);
/// Maps an order of the original problem to the reduced one.
std::vector<TaskId> restrictOrder(const ReducedProblem &reduced,
                                  const std::vector<TaskId> &order);

} // namespace detail
} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_LIB_SCHEDULING_SCHEDULEGRAPH_H
