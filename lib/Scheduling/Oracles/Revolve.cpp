//===- Revolve.cpp - Binomial checkpointing of homogeneous chains ---------===//
//
// This file implements binomial checkpointing. Binomials are evaluated by the
// multiplicative formula in 128-bit arithmetic, in an order where every
// intermediate value is itself a binomial no larger than the result, so a
// cap or an exact bound on the result bounds every product.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Oracles/Revolve.h"

#include <algorithm>
#include <limits>
#include <set>

using namespace mlir::memsched::scheduling;

namespace {
__extension__ typedef unsigned __int128 UInt128;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

/// C(n, k) if it is at most \p cap, else cap + 1. Needs n < 2^64 and
/// cap <= 2^63: C(n, i) grows with i up to min(k, n - k), so every value
/// multiplied is at most cap and every product stays below 2^127.
UInt128 binomialCapped(UInt128 n, UInt128 k, UInt128 cap) {
  if (k > n)
    return 0;
  k = std::min(k, n - k);
  UInt128 value = 1;
  for (UInt128 i = 0; i < k; ++i) {
    // C(n, i) (n - i) = C(n, i + 1) (i + 1): the division is exact.
    value = value * (n - i) / (i + 1);
    if (value > cap)
      return cap + 1;
  }
  return value;
}

UInt128 gcd128(UInt128 a, UInt128 b) {
  while (b != 0) {
    UInt128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/// C(n, k) exactly, for a result known to be below 2^127. Dividing (i + 1)
/// into C(n, i) and (n - i) before multiplying makes the product the next
/// binomial itself, so nothing larger than the result is ever formed.
UInt128 binomialExact(UInt128 n, UInt128 k) {
  if (k > n)
    return 0;
  k = std::min(k, n - k);
  UInt128 value = 1;
  for (UInt128 i = 0; i < k; ++i) {
    UInt128 g = gcd128(value, i + 1);
    // (i + 1) / g divides C(n, i) / g * (n - i) and is coprime to the first
    // factor, so it divides n - i.
    value = (value / g) * ((n - i) / ((i + 1) / g));
  }
  return value;
}

int64_t saturate(UInt128 value) {
  return value > static_cast<UInt128>(kInt64Max) ? kInt64Max
                                                 : static_cast<int64_t>(value);
}

bool checkArguments(int64_t steps, int64_t slots, std::string *error) {
  if (steps >= 1 && slots >= 1)
    return true;
  if (error)
    *error = "a chain needs at least one step and one slot (got " +
             std::to_string(steps) + " steps, " + std::to_string(slots) +
             " slots)";
  return false;
}

/// The repetition number, for valid arguments: the smallest r with
/// beta(c, r) >= l, found by bisection on [0, l - 1] (beta(c, l - 1) >= l
/// for c >= 1).
int64_t repetitionNumber(int64_t steps, int64_t slots) {
  int64_t low = 0, high = steps - 1;
  while (low < high) {
    int64_t mid = low + (high - low) / 2;
    UInt128 n = static_cast<UInt128>(slots) + static_cast<UInt128>(mid);
    if (binomialCapped(n, static_cast<UInt128>(std::min(slots, mid)),
                       static_cast<UInt128>(steps)) >=
        static_cast<UInt128>(steps))
      high = mid;
    else
      low = mid + 1;
  }
  return low;
}

/// t(l, c) for valid arguments, in 128 bits: r <= l - 1 makes r l < 2^126,
/// and C(c + r, c + 1) <= r l because t >= 0.
UInt128 forwardSteps(int64_t steps, int64_t slots) {
  int64_t r = repetitionNumber(steps, slots);
  if (r == 0)
    return 0;
  UInt128 n = static_cast<UInt128>(slots) + static_cast<UInt128>(r);
  return static_cast<UInt128>(r) * static_cast<UInt128>(steps) -
         binomialExact(n, static_cast<UInt128>(slots) + 1);
}

/// How far a part of \p steps >= 2 steps with \p slots >= 2 slots advances
/// before its first checkpoint (see revolveSchedule()).
int64_t splitPoint(int64_t steps, int64_t slots) {
  int64_t r = repetitionNumber(steps, slots);
  return std::min(revolveBeta(slots, r - 1),
                  steps - revolveBeta(slots - 1, r - 1));
}
} // namespace

int64_t mlir::memsched::scheduling::revolveBeta(int64_t slots,
                                                int64_t repetitions) {
  if (repetitions < 0 || slots < 0)
    return 0;
  UInt128 n = static_cast<UInt128>(slots) + static_cast<UInt128>(repetitions);
  return saturate(
      binomialCapped(n, static_cast<UInt128>(std::min(slots, repetitions)),
                     static_cast<UInt128>(kInt64Max)));
}

std::optional<int64_t> mlir::memsched::scheduling::revolveRepetitionNumber(
    int64_t steps, int64_t slots, std::string *error) {
  if (!checkArguments(steps, slots, error))
    return std::nullopt;
  return repetitionNumber(steps, slots);
}

std::optional<int64_t>
mlir::memsched::scheduling::revolveForwardSteps(int64_t steps, int64_t slots,
                                                std::string *error) {
  if (!checkArguments(steps, slots, error))
    return std::nullopt;
  return saturate(forwardSteps(steps, slots));
}

std::optional<std::vector<std::vector<int64_t>>>
mlir::memsched::scheduling::revolveRecurrenceTable(int64_t maxSteps,
                                                   int64_t maxSlots,
                                                   std::string *error) {
  if (!checkArguments(maxSteps, maxSlots, error))
    return std::nullopt;
  constexpr int64_t kMaxEntries = int64_t(1) << 28;
  if (maxSteps >= kMaxEntries || maxSlots >= kMaxEntries ||
      (maxSteps + 1) * (maxSlots + 1) > kMaxEntries) {
    if (error)
      *error = "the recurrence table would exceed 2^28 entries";
    return std::nullopt;
  }
  std::vector<std::vector<int64_t>> table(
      maxSlots + 1, std::vector<int64_t>(maxSteps + 1, -1));
  for (int64_t l = 1; l <= maxSteps; ++l)
    table[1][l] = l * (l - 1) / 2;
  for (int64_t c = 2; c <= maxSlots; ++c) {
    std::vector<int64_t> &row = table[c];
    const std::vector<int64_t> &fewer = table[c - 1];
    row[1] = 0;
    for (int64_t l = 2; l <= maxSteps; ++l) {
      int64_t best = kInt64Max;
      for (int64_t j = 1; j < l; ++j)
        best = std::min(best, j + fewer[l - j] + row[j]);
      row[l] = best;
    }
  }
  return table;
}

std::optional<int64_t>
mlir::memsched::scheduling::revolveForwardStepsByRecurrence(
    int64_t steps, int64_t slots, std::string *error) {
  std::optional<std::vector<std::vector<int64_t>>> table =
      revolveRecurrenceTable(steps, slots, error);
  if (!table)
    return std::nullopt;
  return (*table)[slots][steps];
}

std::optional<std::vector<RevolveAction>>
mlir::memsched::scheduling::revolveSchedule(int64_t steps, int64_t slots,
                                            std::string *error) {
  if (!checkArguments(steps, slots, error))
    return std::nullopt;
  std::vector<RevolveAction> actions;
  auto emit = [&](RevolveActionKind kind, int64_t step, int64_t to = 0) {
    actions.push_back(RevolveAction{kind, step, to});
  };
  // -1: no current state (after a turn).
  int64_t current = 0;
  auto restore = [&](int64_t state) {
    if (current != state)
      emit(RevolveActionKind::Restore, state);
    current = state;
  };
  auto turn = [&](int64_t step) {
    emit(step == steps - 1 ? RevolveActionKind::FirstTurn
                           : RevolveActionKind::YouTurn,
         step);
    current = -1;
  };

  /// Reverse steps [begin, end) with `slots` slots, x_begin being stored in
  /// one of them (or current, for a single step).
  struct Part {
    int64_t begin, end, slots;
  };
  // An explicit stack: the recursion depth can reach r + c. The right part
  // goes on top so that it is reversed before the left part.
  std::vector<Part> stack = {{0, steps, slots}};
  emit(RevolveActionKind::Takeshot, 0);
  while (!stack.empty()) {
    Part part = stack.back();
    stack.pop_back();
    int64_t length = part.end - part.begin;
    if (length == 1) {
      restore(part.begin);
      turn(part.begin);
      continue;
    }
    if (part.slots == 1) {
      for (int64_t step = part.end - 1; step >= part.begin; --step) {
        restore(part.begin);
        if (step > part.begin)
          emit(RevolveActionKind::Advance, part.begin, step);
        current = step;
        turn(step);
      }
      continue;
    }
    int64_t split = part.begin + splitPoint(length, part.slots);
    restore(part.begin);
    emit(RevolveActionKind::Advance, part.begin, split);
    current = split;
    // A right part of one step is reversed at once from the current state.
    if (part.end - split > 1)
      emit(RevolveActionKind::Takeshot, split);
    stack.push_back({part.begin, split, part.slots});
    stack.push_back({split, part.end, part.slots - 1});
  }
  return actions;
}

std::optional<RevolveReplay> mlir::memsched::scheduling::replayRevolveSchedule(
    const std::vector<RevolveAction> &schedule, int64_t steps, int64_t slots,
    std::string *error) {
  if (!checkArguments(steps, slots, error))
    return std::nullopt;
  RevolveReplay replay;
  int64_t current = 0;
  int64_t nextAdjoint = steps - 1;
  std::set<int64_t> stored;
  for (size_t index = 0; index < schedule.size(); ++index) {
    const RevolveAction &action = schedule[index];
    auto fail = [&](const std::string &why) -> std::optional<RevolveReplay> {
      if (error)
        *error = "action #" + std::to_string(index) + ": " + why;
      return std::nullopt;
    };
    if (nextAdjoint < 0)
      return fail("the reversal is already complete");
    int64_t step = action.step;
    std::string at = "x_" + std::to_string(step);
    switch (action.kind) {
    case RevolveActionKind::Advance: {
      if (current != step)
        return fail("advance from " + at + ", which is not current");
      if (action.to <= step || action.to > nextAdjoint)
        return fail("advance to x_" + std::to_string(action.to) +
                    ", outside (" + std::to_string(step) + ", " +
                    std::to_string(nextAdjoint) + "]");
      int64_t count = action.to - step;
      replay.forwardSteps = replay.forwardSteps > kInt64Max - count
                                ? kInt64Max
                                : replay.forwardSteps + count;
      current = action.to;
      break;
    }
    case RevolveActionKind::Takeshot:
      if (current != step)
        return fail("takeshot of " + at + ", which is not current");
      if (stored.count(step))
        return fail(at + " is already stored");
      if (static_cast<int64_t>(stored.size()) >= slots)
        return fail("takeshot of " + at + " with all " + std::to_string(slots) +
                    " slots in use");
      stored.insert(step);
      replay.maxSlotsUsed = std::max<int64_t>(
          replay.maxSlotsUsed, static_cast<int64_t>(stored.size()));
      break;
    case RevolveActionKind::Restore:
      if (!stored.count(step))
        return fail("restore of " + at + ", which is not stored");
      current = step;
      break;
    case RevolveActionKind::FirstTurn:
    case RevolveActionKind::YouTurn: {
      bool first = action.kind == RevolveActionKind::FirstTurn;
      if (step != nextAdjoint)
        return fail("adjoint of step " + std::to_string(step) +
                    " while the next one is step " +
                    std::to_string(nextAdjoint));
      if (first != (step == steps - 1))
        return fail(first ? "firsturn must be the adjoint of the last step"
                          : "the adjoint of the last step must be firsturn");
      if (current != step)
        return fail("adjoint of step " + std::to_string(step) + " without " +
                    at + " current");
      stored.erase(stored.lower_bound(step), stored.end());
      current = -1;
      --nextAdjoint;
      break;
    }
    }
  }
  if (nextAdjoint >= 0) {
    if (error)
      *error = "the schedule ends before the adjoint of step " +
               std::to_string(nextAdjoint);
    return std::nullopt;
  }
  return replay;
}
