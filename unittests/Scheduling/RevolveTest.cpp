//===- RevolveTest.cpp - Tests for binomial checkpointing -----------------===//
//
// This file tests the closed form of binomial checkpointing against the
// published values and the recurrence it solves, the generated schedules
// against the closed form through the replayer, and the replayer against
// broken schedules.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Oracles/Revolve.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

using namespace mlir::memsched::scheduling;

namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

int64_t closedForm(int64_t steps, int64_t slots) {
  std::string error;
  std::optional<int64_t> count = revolveForwardSteps(steps, slots, &error);
  EXPECT_TRUE(count.has_value()) << error;
  return count.value_or(-1);
}

std::vector<RevolveAction> scheduleOrDie(int64_t steps, int64_t slots) {
  std::string error;
  std::optional<std::vector<RevolveAction>> schedule =
      revolveSchedule(steps, slots, &error);
  EXPECT_TRUE(schedule.has_value()) << error;
  return schedule.value_or(std::vector<RevolveAction>());
}

/// Generates the schedule, replays it and checks it against the closed
/// form and the slot count.
void expectOptimalSchedule(int64_t steps, int64_t slots) {
  std::vector<RevolveAction> schedule = scheduleOrDie(steps, slots);
  std::string error;
  std::optional<RevolveReplay> replay =
      replayRevolveSchedule(schedule, steps, slots, &error);
  ASSERT_TRUE(replay.has_value())
      << "l=" << steps << " c=" << slots << ": " << error;
  EXPECT_EQ(replay->forwardSteps, closedForm(steps, slots))
      << "l=" << steps << " c=" << slots;
  EXPECT_LE(replay->maxSlotsUsed, slots);
  EXPECT_GE(replay->maxSlotsUsed, 1);
}

/// Replays \p schedule expecting a rejection whose message contains
/// \p fragment.
void expectRejected(const std::vector<RevolveAction> &schedule, int64_t steps,
                    int64_t slots, const std::string &fragment) {
  std::string error;
  EXPECT_FALSE(replayRevolveSchedule(schedule, steps, slots, &error));
  EXPECT_NE(error.find(fragment), std::string::npos) << error;
}

TEST(RevolveTest, PublishedValues) {
  EXPECT_EQ(closedForm(100, 5), 316);
  EXPECT_EQ(closedForm(1000, 10), 3636);
  EXPECT_EQ(revolveRepetitionNumber(100, 5), 4);
  EXPECT_EQ(revolveRepetitionNumber(1000, 10), 4);
  EXPECT_EQ(revolveBeta(5, 4), 126);
  EXPECT_EQ(revolveBeta(10, 3), 286);
  EXPECT_EQ(revolveBeta(3, -1), 0);
  EXPECT_EQ(revolveBeta(7, 0), 1);
}

TEST(RevolveTest, SpecialCases) {
  for (int64_t slots : {1, 2, 5, 64})
    EXPECT_EQ(closedForm(1, slots), 0);
  for (int64_t steps : {1, 2, 3, 10, 1000, 100000})
    EXPECT_EQ(closedForm(steps, 1), steps * (steps - 1) / 2);
  // With a slot per state every step runs once: l - 1 advances.
  for (int64_t steps : {2, 7, 50})
    EXPECT_EQ(closedForm(steps, steps), steps - 1);
}

TEST(RevolveTest, ClosedFormMatchesRecurrence) {
  std::string error;
  std::optional<std::vector<std::vector<int64_t>>> table =
      revolveRecurrenceTable(119, 6, &error);
  ASSERT_TRUE(table.has_value()) << error;
  for (int64_t slots = 1; slots <= 6; ++slots)
    for (int64_t steps = 1; steps < 120; ++steps)
      EXPECT_EQ((*table)[slots][steps], closedForm(steps, slots))
          << "l=" << steps << " c=" << slots;
  EXPECT_EQ(revolveForwardStepsByRecurrence(100, 5), 316);
  EXPECT_EQ(revolveForwardStepsByRecurrence(1000, 10), 3636);
}

TEST(RevolveTest, LargeArgumentsAreExact) {
  // The binomial split satisfies the recurrence's identity even where the
  // products leave 64 bits.
  for (auto [steps, slots] : std::initializer_list<std::pair<int64_t, int64_t>>{
           {int64_t(1) << 40, 3},
           {int64_t(1000000000000000), 5},
           {int64_t(1) << 55, 40},
           {int64_t(123456789012), 64}}) {
    int64_t r = *revolveRepetitionNumber(steps, slots);
    EXPECT_LT(revolveBeta(slots, r - 1), steps);
    EXPECT_GE(revolveBeta(slots, r), steps);
    int64_t split = std::min(revolveBeta(slots, r - 1),
                             steps - revolveBeta(slots - 1, r - 1));
    int64_t total = closedForm(steps, slots);
    ASSERT_LT(total, kInt64Max);
    EXPECT_EQ(total, split + closedForm(steps - split, slots - 1) +
                         closedForm(split, slots));
  }
  // c = 1 near the top of int64: 3e9 (3e9 - 1) / 2 fits, 5e9 does not.
  EXPECT_EQ(closedForm(3000000000, 1), int64_t(3000000000) * 2999999999 / 2);
  EXPECT_EQ(closedForm(5000000000, 1), kInt64Max);
  EXPECT_EQ(closedForm(kInt64Max, kInt64Max), kInt64Max - 1);
  EXPECT_EQ(closedForm(kInt64Max, 2), kInt64Max);
  EXPECT_EQ(revolveBeta(64, 64), kInt64Max);
}

TEST(RevolveTest, InvalidArguments) {
  std::string error;
  EXPECT_FALSE(revolveForwardSteps(0, 3, &error));
  EXPECT_NE(error.find("at least one step"), std::string::npos);
  EXPECT_FALSE(revolveForwardSteps(5, 0, &error));
  EXPECT_FALSE(revolveSchedule(5, 0, &error));
  EXPECT_FALSE(revolveRepetitionNumber(-1, 2, &error));
  EXPECT_FALSE(revolveRecurrenceTable(1 << 20, 1 << 10, &error));
  EXPECT_NE(error.find("2^28"), std::string::npos);
}

TEST(RevolveTest, SmallSchedulesAreOptimal) {
  for (int64_t slots = 1; slots <= 6; ++slots)
    for (int64_t steps = 1; steps <= 60; ++steps)
      expectOptimalSchedule(steps, slots);
}

TEST(RevolveTest, SampledSchedulesAreOptimal) {
  for (int64_t slots : {1, 2, 3, 5, 10, 64})
    for (int64_t steps : {1, 2, 3, 10, 99, 100, 101, 1000, 10000})
      expectOptimalSchedule(steps, slots);
}

TEST(RevolveTest, HandWrittenSchedule) {
  // Three steps, two slots: store x_0, advance to x_2 (two steps), reverse
  // step 2, restore x_0, advance to x_1, reverse step 1, restore, reverse 0.
  std::vector<RevolveAction> schedule = {
      {RevolveActionKind::Takeshot, 0, 0},  {RevolveActionKind::Advance, 0, 2},
      {RevolveActionKind::FirstTurn, 2, 0}, {RevolveActionKind::Restore, 0, 0},
      {RevolveActionKind::Advance, 0, 1},   {RevolveActionKind::YouTurn, 1, 0},
      {RevolveActionKind::Restore, 0, 0},   {RevolveActionKind::YouTurn, 0, 0},
  };
  std::optional<RevolveReplay> replay = replayRevolveSchedule(schedule, 3, 2);
  ASSERT_TRUE(replay.has_value());
  EXPECT_EQ(replay->forwardSteps, 3);
  EXPECT_EQ(replay->maxSlotsUsed, 1);
  // The optimum with two slots stores x_1 on the way: two advances.
  EXPECT_EQ(closedForm(3, 2), 2);
}

TEST(RevolveTest, ReplayerRejectsBrokenSchedules) {
  const int64_t steps = 20, slots = 3;
  const std::vector<RevolveAction> schedule = scheduleOrDie(steps, slots);
  ASSERT_TRUE(replayRevolveSchedule(schedule, steps, slots).has_value());
  auto firstOf = [&](RevolveActionKind kind, size_t from = 0) {
    for (size_t i = from; i < schedule.size(); ++i)
      if (schedule[i].kind == kind)
        return i;
    ADD_FAILURE() << "no such action";
    return size_t(0);
  };

  // Too few slots for this schedule.
  expectRejected(schedule, steps, slots - 1, "slots in use");

  // A missing restore leaves no current state for the next action.
  std::vector<RevolveAction> broken = schedule;
  broken.erase(broken.begin() + firstOf(RevolveActionKind::Restore));
  expectRejected(broken, steps, slots, "current");

  // A missing takeshot makes a later restore fail.
  broken = schedule;
  broken.erase(broken.begin() + firstOf(RevolveActionKind::Takeshot, 1));
  expectRejected(broken, steps, slots, "not stored");

  // Advancing one step too few breaks the next action's precondition.
  broken = schedule;
  size_t advance = firstOf(RevolveActionKind::Advance);
  --broken[advance].to;
  expectRejected(broken, steps, slots, "x_");

  // Advancing past the next adjoint is pointless and rejected.
  broken = schedule;
  broken[advance].to = steps;
  expectRejected(broken, steps, slots, "outside");

  // Adjoints out of order.
  broken = schedule;
  size_t first = firstOf(RevolveActionKind::FirstTurn);
  size_t second = firstOf(RevolveActionKind::YouTurn);
  std::swap(broken[first], broken[second]);
  expectRejected(broken, steps, slots, "adjoint of step");

  // The last step's adjoint must be a firsturn.
  broken = schedule;
  broken[first].kind = RevolveActionKind::YouTurn;
  expectRejected(broken, steps, slots, "firsturn");

  // Truncated, and overlong.
  broken = schedule;
  broken.pop_back();
  expectRejected(broken, steps, slots, "ends before the adjoint of step 0");
  broken = schedule;
  broken.push_back({RevolveActionKind::Restore, 0, 0});
  expectRejected(broken, steps, slots, "already complete");

  // Storing a state twice.
  broken = schedule;
  broken.insert(broken.begin() + 1, {RevolveActionKind::Takeshot, 0, 0});
  expectRejected(broken, steps, slots, "already stored");
}

TEST(RevolveTest, TurnsReleaseLaterCheckpoints) {
  // After the adjoint of step 1, x_1 and x_2 are released: restoring them
  // fails, and their slots are free again.
  std::vector<RevolveAction> schedule = {
      {RevolveActionKind::Takeshot, 0, 0},  {RevolveActionKind::Advance, 0, 1},
      {RevolveActionKind::Takeshot, 1, 0},  {RevolveActionKind::Advance, 1, 2},
      {RevolveActionKind::FirstTurn, 2, 0}, {RevolveActionKind::Restore, 1, 0},
      {RevolveActionKind::YouTurn, 1, 0},   {RevolveActionKind::Restore, 1, 0},
  };
  expectRejected(schedule, 3, 2, "not stored");
  schedule.back() = {RevolveActionKind::Restore, 0, 0};
  schedule.push_back({RevolveActionKind::YouTurn, 0, 0});
  std::optional<RevolveReplay> replay = replayRevolveSchedule(schedule, 3, 2);
  ASSERT_TRUE(replay.has_value());
  EXPECT_EQ(replay->forwardSteps, 2);
  EXPECT_EQ(replay->maxSlotsUsed, 2);
}

} // namespace
