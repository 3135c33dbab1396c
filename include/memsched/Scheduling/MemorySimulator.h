//===- MemorySimulator.h - Memory profile of a task order -------*- C++ -*-===//
//
// This file declares the memory simulator, which computes the buffer
// lifetimes and per-step live bytes that a given task order implies, and an
// order-independent lower bound that schedulers can compare against.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_MEMORYSIMULATOR_H
#define MEMSCHED_SCHEDULING_MEMORYSIMULATOR_H

#include "memsched/Scheduling/Problem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// Inclusive range of steps (positions in the order) a buffer is live for.
struct BufferLifetime {
  /// First live step, or -1 if never live.
  int32_t start = -1;
  /// Last live step, or -1 if never live.
  int32_t end = -1;
  /// Whether the buffer is live at any step.
  bool isLive() const { return start >= 0 && end >= start; }
};

/// Memory use of one task order.
struct MemoryProfile {
  /// Transient bytes live at each step, workspace included.
  std::vector<int64_t> liveBytes;
  /// Transient buffer bytes live at each step, workspace excluded.
  std::vector<int64_t> liveBufferBytes;
  /// Sum of the sizes of the resident buffers.
  int64_t residentBytes = 0;
  /// Maximum of liveBytes.
  int64_t peakTransientBytes = 0;
  /// Maximum of liveBufferBytes: what a buffer arena must hold.
  int64_t maxLiveBytes = 0;
  /// First step at which liveBytes reaches its peak; -1 if there are no steps.
  int32_t peakStep = -1;
  /// Lifetime of each buffer, by BufferId; resident buffers span all steps.
  std::vector<BufferLifetime> lifetimes;
  /// Resident plus peak transient bytes.
  int64_t peakBytes() const { return residentBytes + peakTransientBytes; }
};

/// Simulates \p order over \p problem. Returns std::nullopt and explains in
/// \p error (if non-null) when the problem has invalid references or \p order
/// is not a topological order of all tasks. Runs in O(tasks + buffers +
/// values + uses + dependences).
///
/// A transient buffer is live from the first step that produces or consumes
/// any of its values to the last such step, or to the last step if it or one
/// of its values is liveToEnd; a buffer no task touches is never live.
std::optional<MemoryProfile> simulateMemory(const Problem &problem,
                                            const std::vector<TaskId> &order,
                                            std::string *error = nullptr);

/// simulateMemory() without its checks, for callers that established both
/// (the planners simulate one problem per candidate plan, and the checks
/// cost as much as the simulation): \p problem's references are valid and
/// \p order is a topological order of all its tasks.
MemoryProfile simulateCheckedMemory(const Problem &problem,
                                    const std::vector<TaskId> &order);

/// Counts the escaping transient buffers of \p profile (those holding values
/// the function returns) from the first step on, as the footprint does:
/// they are allocated outside the arena, so their bytes are taken for the
/// whole call wherever they are made, and only the other buffers' peak can
/// be cut. Updates the per-step bytes and the peaks; lifetimes stay as
/// simulated.
void countEscapingFromStart(const Problem &problem, MemoryProfile &profile);

/// Makes the in-place writes of \p problem's tasks (Task::inPlaceWrites)
/// that memsched-inplace would make in \p order, given the buffers'
/// \p lifetimes in that order: in order, a write whose input's buffer is
/// used last at its task and whose result's buffer is first used there,
/// both transient and not escaping, each buffer in one write per task. (A
/// returned result may take a dying input's buffer too, but inside a
/// control-flow body planned as a function what it yields is a tensor of
/// its own in the lowering: those writes are left out, which can only make
/// the model count more than the rewrite leaves.) A write made moves the
/// result's buffer's values into the input's buffer. Returns whether any was
/// made (simulate again to see the effect).
bool applyInPlaceWrites(Problem &problem, const std::vector<TaskId> &order,
                        const std::vector<BufferLifetime> &lifetimes);

/// Returns a lower bound on peakTransientBytes valid for every order: the
/// larger of the biggest single-task footprint (distinct transient buffers
/// used plus workspace) and the total size of the used liveToEnd transient
/// buffers, which all coexist at the last step.
int64_t computeLowerBoundTransientBytes(const Problem &problem);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_MEMORYSIMULATOR_H
