//===- TimeModel.h - Compute and copy stream timing model -------*- C++ -*-===//
//
// This file declares a timing model with one compute stream and one copy
// engine per direction, used to estimate how much of the host/device copy
// time that swapping introduces stays hidden behind compute.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_TIMEMODEL_H
#define MEMSCHED_SCHEDULING_TIMEMODEL_H

#include "memsched/Scheduling/Problem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// Which copy engine a copy runs on.
enum class CopyDirection {
  /// Swap-out.
  DeviceToHost,
  /// Swap-in.
  HostToDevice,
};

/// A copy on one of the copy engines, synchronized with compute tasks.
struct CopyTask {
  /// Name used in diagnostics.
  std::string name;
  /// Bytes transferred.
  int64_t bytes = 0;
  /// Which engine runs the copy.
  CopyDirection direction = CopyDirection::DeviceToHost;
  /// The copy is issued when this compute task ends; kNoId issues it at time
  /// 0, ahead of every task. Issue order is FIFO order on the engine.
  TaskId issuedAfter = kNoId;
  /// The copy cannot start before this compute task ends; it must not come
  /// after issuedAfter in the order.
  TaskId waitsFor = kNoId;
  /// This compute task cannot start before the copy ends; it must come after
  /// issuedAfter in the order.
  TaskId neededBy = kNoId;
  /// Index of another copy that must end before this one starts (a swap-in
  /// reads the host copy its swap-out wrote), or -1. It must be issued no
  /// later than this copy, and come first in the list when issued at the
  /// same point.
  int32_t afterCopy = -1;
  /// Index of a copy that compute waits for right before this copy is
  /// issued (a planned stall at the issue point), or -1: the copy starts
  /// after it ends. The same constraints as afterCopy apply.
  int32_t stallCopy = -1;
};

/// Bandwidth and latency of the host/device link.
struct LinkSpec {
  /// Swap-in bandwidth; must be positive if any swap-in exists.
  double hostToDeviceBytesPerSecond = 0;
  /// Swap-out bandwidth; must be positive if any swap-out exists.
  double deviceToHostBytesPerSecond = 0;
  /// Fixed cost added to every copy.
  double copyLatencySeconds = 0;
};

/// A time span in seconds.
struct Interval {
  /// Start time.
  double start = 0;
  /// End time.
  double end = 0;
};

/// Result of simulateTime().
struct Timeline {
  /// When each compute task runs, by TaskId.
  std::vector<Interval> tasks;
  /// When each copy runs, by index into the copy list.
  std::vector<Interval> copies;
  /// End of the last compute task or copy, whichever is later.
  double makespan = 0;
  /// Sum of the task durations.
  double computeTime = 0;
  /// makespan - computeTime: copy time not hidden behind compute, i.e. time
  /// compute waited on copies plus any copy tail after the last task.
  double exposedCopyTime = 0;
};

/// Simulates \p order on the compute stream together with \p copies. Tasks
/// run back to back in order, each also waiting for the copies it needs;
/// copies of one direction run FIFO in issue order (position of issuedAfter,
/// then index). Returns std::nullopt and explains in \p error (if non-null)
/// for an invalid order, a copy id out of range, a copy waiting on a task
/// that is issued after it, a copy needed at or before its issue point,
/// negative bytes or latency, or a non-positive bandwidth in a used
/// direction. Runs in O((tasks + copies) log copies).
std::optional<Timeline> simulateTime(const Problem &problem,
                                     const std::vector<TaskId> &order,
                                     const std::vector<CopyTask> &copies,
                                     const LinkSpec &link,
                                     std::string *error = nullptr);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_TIMEMODEL_H
