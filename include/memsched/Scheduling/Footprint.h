//===- Footprint.h - What the device must hold for a plan -------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file defines the footprint, the one number a memory budget bounds and
// every report leads with (`planned_bytes`): resident memory, plus the arena
// holding every transient buffer that does not escape at planned offsets,
// plus the escaping buffers (returned values), which the caller owns and
// which are allocated apart. Reorder, recomputation, swapping, the budget
// driver and the report all measure it here.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_FOOTPRINT_H
#define MEMSCHED_SCHEDULING_FOOTPRINT_H

#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/OffsetPlanner.h"
#include "memsched/Scheduling/Problem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// The device memory one task order needs after buffer planning.
struct Footprint {
  /// Function arguments and constants, present for the whole call.
  int64_t residentBytes = 0;
  /// The planned arena: non-escaping transient buffers at their offsets, and
  /// each task's workspace as a block live for that task's step.
  int64_t arenaBytes = 0;
  /// Max over steps of the bytes the arena holds live: no offsets can do
  /// better.
  int64_t arenaMaxLiveBytes = 0;
  /// Transient buffers that escape (returned values), allocated apart and
  /// counted whole.
  int64_t escapingBytes = 0;
  /// The first step at which the arena's requests (workspaces included)
  /// hold the most live bytes; -1 without requests.
  int64_t arenaPeakStep = -1;
  /// The offset algorithm whose plan gave arenaBytes.
  std::string arenaAlgorithm;
  /// resident + arena + escaping: what the device must hold.
  int64_t plannedBytes() const {
    return residentBytes + arenaBytes + escapingBytes;
  }
};

/// The arena requests of \p problem run with \p profile (the lifetimes of
/// simulateMemory() for some order): one per live, non-empty, non-escaping
/// transient buffer (id = its BufferId), then one per task with workspace
/// (id = -1 - position). Escaping bytes are added to \p escapingBytes.
std::vector<AllocationRequest>
collectArenaRequests(const Problem &problem, const std::vector<TaskId> &order,
                     const MemoryProfile &profile, int64_t &escapingBytes);

/// The footprint of \p problem run in \p order, whose memory \p profile is
/// (from simulateMemory() or a swap simulation). The arena is planned with
/// \p options; their default limits are deterministic, so the same input
/// gives the same footprint on any machine.
Footprint computeFootprint(const Problem &problem,
                           const std::vector<TaskId> &order,
                           const MemoryProfile &profile,
                           const OffsetPlanOptions &options = {});

/// As above, simulating \p order first; std::nullopt and \p error when the
/// order or the problem is invalid.
std::optional<Footprint> computeFootprint(const Problem &problem,
                                          const std::vector<TaskId> &order,
                                          std::string *error = nullptr);

/// The smallest footprint any order, recomputation or swap plan of a
/// problem's tasks and buffers can reach: every task needs its
/// non-escaping transient buffers and its workspace in the arena at once
/// while it runs, and the resident and escaping buffers are held whole. An
/// in-place write lets a result share an input's buffer, which the
/// bytes placed elsewhere below account for.
struct FootprintFloor {
  int64_t residentBytes = 0;
  int64_t escapingBytes = 0;
  /// Returned bytes left out of escapingBytes: they may take the buffer of
  /// an argument (counted among the resident bytes) the function no longer
  /// reads.
  int64_t escapingInResidentBytes = 0;
  /// The largest working set of one task.
  int64_t workingSetBytes = 0;
  /// The task with that working set (kNoId without tasks).
  TaskId task = kNoId;
  /// resident + escaping + working set.
  int64_t bytes() const {
    return residentBytes + escapingBytes + workingSetBytes;
  }

  /// Plans that only order and recompute (no swaps, the ops as they are)
  /// are bounded higher: two values one task reads are live together, so
  /// whichever of the two copies it reads is made last is made while the
  /// other is held, and the inputs of that making are live beside the held
  /// one in turn (Footprint.cpp, HeldSetBound). The largest such bound over
  /// the operand pairs of every task, at least workingSetBytes.
  int64_t recomputeWorkingSetBytes = 0;
  /// The task reading that pair (kNoId where no pair bound exceeds the
  /// working set, or where the bound was not asked for).
  TaskId recomputeTask = kNoId;
  /// resident + escaping + recomputeWorkingSetBytes.
  int64_t recomputeBytes() const {
    return residentBytes + escapingBytes + recomputeWorkingSetBytes;
  }
};

/// The floor of a verified problem. \p placedElsewhere, if given, holds for
/// each task the bytes of its working set that a plan may place elsewhere
/// (a result in one of its inputs' buffers, a buffer in a returned one);
/// they are left out of its working set, so that the floor also holds for
/// plans that write in place. The recomputation floor's bound is computed
/// only where \p heldWhole is given: it flags the buffers that occupy the
/// arena whole whenever a value of theirs is live (not storage a plan may
/// place in an argument's or returned buffer, nor made by an op cleanup
/// erases), the only ones its held sets count; without it,
/// recomputeWorkingSetBytes is workingSetBytes.
FootprintFloor
computeFootprintFloor(const Problem &problem,
                      const std::vector<int64_t> *placedElsewhere = nullptr,
                      const std::vector<char> *heldWhole = nullptr);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_FOOTPRINT_H
