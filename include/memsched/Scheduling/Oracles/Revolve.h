//===- Revolve.h - Binomial checkpointing of homogeneous chains -*- C++ -*-===//
//
// This file declares binomial checkpointing (Griewank and Walther, "Algorithm
// 799: Revolve", ACM TOMS 2000) for the reversal of a chain of l identical
// steps with c checkpoint slots: the closed form of the minimal number of
// forward steps, the recurrence it solves (used as an oracle), a generator of
// a schedule reaching the minimum, and a replayer that checks a schedule and
// counts its forward steps.
//
// The model. Step i (0 <= i < l) maps the state x_i to x_{i+1}. The adjoint
// of step i is one combined action (Revolve's firsturn/youturn: forward step i
// with its intermediates, then backward step i); it needs x_i as the current
// state, and the adjoints run in the order l-1, ..., 0. A slot holds one
// state; x_0 occupies one of the c slots. The cost counted is the number of
// forward steps outside the adjoint actions (the re-execution of step i
// inside its own adjoint is not counted).
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_ORACLES_REVOLVE_H
#define MEMSCHED_SCHEDULING_ORACLES_REVOLVE_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// beta(c, r) = C(c + r, c): the longest chain that c slots reverse with at
/// most r forward executions of each step (Griewank's repetition number).
/// Returns 0 for r < 0 (so that beta(c, -1) < l for every l >= 1) and
/// saturates at INT64_MAX; c must be >= 0.
int64_t revolveBeta(int64_t slots, int64_t repetitions);

/// The repetition number of a chain of \p steps steps with \p slots slots:
/// the unique r >= 0 with beta(c, r - 1) < l <= beta(c, r). Fails (with a
/// message in \p error if non-null) unless steps >= 1 and slots >= 1.
/// O(log l) binomial evaluations of O(64) multiplications each.
std::optional<int64_t> revolveRepetitionNumber(int64_t steps, int64_t slots,
                                               std::string *error = nullptr);

/// The minimal number of forward steps, by the closed form
/// t(l, c) = r l - C(c + r, c + 1) with r the repetition number. Exact in
/// 128-bit arithmetic and saturated at INT64_MAX. For c = 1 this is
/// l (l - 1) / 2; t(100, 5) = 316, t(1000, 10) = 3636. Fails unless
/// steps >= 1 and slots >= 1.
std::optional<int64_t> revolveForwardSteps(int64_t steps, int64_t slots,
                                           std::string *error = nullptr);

/// The table T[c][l] (0 <= c <= maxSlots, 0 <= l <= maxSteps) of the minimal
/// number of forward steps by the recurrence
///   T(1, c) = 0,  T(l, 1) = l (l - 1) / 2,
///   T(l, c) = min_{1 <= j < l} j + T(l - j, c - 1) + T(j, c),
/// i.e. advance j steps, store x_j, reverse the right part with one slot
/// less, then the left part with every slot. Row c = 0 and column l = 0 are
/// unused and hold -1. An oracle for the closed form: O(l^2 c) time and
/// O(l c) memory. Fails unless maxSteps >= 1 and maxSlots >= 1 and the table
/// has at most 2^28 entries.
std::optional<std::vector<std::vector<int64_t>>>
revolveRecurrenceTable(int64_t maxSteps, int64_t maxSlots,
                       std::string *error = nullptr);

/// T(steps, slots) from revolveRecurrenceTable().
std::optional<int64_t>
revolveForwardStepsByRecurrence(int64_t steps, int64_t slots,
                                std::string *error = nullptr);

/// The kinds of action of a reversal schedule.
enum class RevolveActionKind {
  /// Run forward steps from x_step to x_to without storing anything.
  Advance,
  /// Store the current state x_step in a free slot.
  Takeshot,
  /// Make the stored x_step the current state.
  Restore,
  /// The adjoint of the last step, l - 1 (the first adjoint).
  FirstTurn,
  /// The adjoint of step `step` < l - 1.
  YouTurn,
};

/// One action of a reversal schedule.
struct RevolveAction {
  RevolveActionKind kind = RevolveActionKind::Advance;
  /// Advance: the first state; the others: the state or step index.
  int64_t step = 0;
  /// Advance only: the state reached.
  int64_t to = 0;
};

/// What replayRevolveSchedule() measured.
struct RevolveReplay {
  /// Forward steps outside the adjoint actions.
  int64_t forwardSteps = 0;
  /// Most slots in use at once.
  int64_t maxSlotsUsed = 0;
};

/// A schedule reversing \p steps steps with \p slots slots in exactly
/// revolveForwardSteps(steps, slots) forward steps. It starts by storing
/// x_0 and splits every part recursively at a binomial point: a part of
/// length l with c slots and repetition number r advances
/// j = min(beta(c, r - 1), l - beta(c - 1, r - 1)) steps, which leaves a left
/// part with repetition number r - 1 and a right part with r for c - 1
/// slots; that is where both closed forms are linear with the slopes that
/// make j + t(l - j, c - 1) + t(j, c) = t(l, c). With one slot, every
/// adjoint restarts from the part's first state. O(l) actions (memory and
/// time). Fails unless steps >= 1 and slots >= 1.
std::optional<std::vector<RevolveAction>>
revolveSchedule(int64_t steps, int64_t slots, std::string *error = nullptr);

/// Replays \p schedule for a chain of \p steps steps with \p slots slots and
/// counts forward steps. The current state starts as x_0 with no slot in
/// use. Rules: Advance needs the current state to be x_step and
/// step < to <= the next adjoint's step (states past it are never needed
/// again); Takeshot needs x_step current, not already stored, and a free
/// slot; Restore needs x_step stored; a turn needs to be the next adjoint
/// (FirstTurn for l - 1, YouTurn for the others, in order l - 1 .. 0) with
/// x_step current. A turn of step i leaves no current state and releases the
/// slots holding x_k for k >= i, which no later adjoint can use. The
/// schedule must end with the adjoint of step 0. Fails with the first
/// violated rule in \p error.
std::optional<RevolveReplay>
replayRevolveSchedule(const std::vector<RevolveAction> &schedule, int64_t steps,
                      int64_t slots, std::string *error = nullptr);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_ORACLES_REVOLVE_H
