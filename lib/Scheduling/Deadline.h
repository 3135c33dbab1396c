//===- Deadline.h - Optional wall-clock limits of the planners --*- C++ -*-===//
//
// The planners stop on work limits (search nodes, states, evaluations), so
// that their results depend only on the input and the options, never on the
// machine or its load. A wall-clock limit is an extra, optional limit for
// callers who prefer one; this file declares it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_SCHEDULING_DEADLINE_H
#define MEMSCHED_LIB_SCHEDULING_DEADLINE_H

#include <chrono>

namespace mlir {
namespace memsched {
namespace scheduling {
namespace detail {

/// A wall-clock deadline, or none.
class Deadline {
public:
  using Clock = std::chrono::steady_clock;

  /// No deadline.
  Deadline() = default;
  /// A deadline \p seconds from now; a non-positive budget means none.
  explicit Deadline(double seconds)
      : enabled(seconds > 0),
        end(Clock::now() +
            std::chrono::duration_cast<Clock::duration>(
                std::chrono::duration<double>(seconds > 0 ? seconds : 0))) {}

  /// Whether there is a deadline at all.
  bool isEnabled() const { return enabled; }
  /// Whether the deadline has passed (never when there is none).
  bool expired() const { return enabled && Clock::now() >= end; }
  /// Seconds left; a large number when there is no deadline.
  double secondsLeft() const {
    if (!enabled)
      return 1e30;
    return std::chrono::duration<double>(end - Clock::now()).count();
  }
  /// The point halfway between now and this deadline (none if none).
  Deadline halfway() const {
    Deadline half = *this;
    if (enabled)
      half.end = Clock::now() + (end - Clock::now()) / 2;
    return half;
  }

private:
  bool enabled = false;
  Clock::time_point end;
};

} // namespace detail
} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_LIB_SCHEDULING_DEADLINE_H
