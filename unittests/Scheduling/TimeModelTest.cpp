//===- TimeModelTest.cpp - Tests for the two-stream timing model ----------===//
//
// This file tests the timing model on hand-computed timelines. Durations,
// sizes and bandwidths are chosen so that every expected time is exact in
// binary floating point.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/TimeModel.h"

#include <gtest/gtest.h>

using namespace mlir::memsched::scheduling;

namespace {

/// Three independent tasks a, b, c of 1, 2 and 2 seconds.
Problem makeThreeTasks() {
  Problem problem;
  for (auto [name, duration] :
       {std::pair<const char *, double>{"a", 1.0}, {"b", 2.0}, {"c", 2.0}}) {
    Task task;
    task.name = name;
    task.duration = duration;
    problem.addTask(task);
  }
  return problem;
}

/// 100 bytes per second both ways, no latency.
LinkSpec makeLink() {
  LinkSpec link;
  link.hostToDeviceBytesPerSecond = 100;
  link.deviceToHostBytesPerSecond = 100;
  return link;
}

CopyTask makeCopy(std::string name, int64_t bytes, CopyDirection direction,
                  TaskId issuedAfter = kNoId, TaskId waitsFor = kNoId,
                  TaskId neededBy = kNoId) {
  CopyTask copy;
  copy.name = std::move(name);
  copy.bytes = bytes;
  copy.direction = direction;
  copy.issuedAfter = issuedAfter;
  copy.waitsFor = waitsFor;
  copy.neededBy = neededBy;
  return copy;
}

Timeline simulateOrDie(const Problem &problem, const std::vector<TaskId> &order,
                       const std::vector<CopyTask> &copies,
                       const LinkSpec &link) {
  std::string error;
  std::optional<Timeline> timeline =
      simulateTime(problem, order, copies, link, &error);
  EXPECT_TRUE(timeline.has_value()) << error;
  return timeline.value_or(Timeline());
}

void expectInterval(const Interval &interval, double start, double end) {
  EXPECT_DOUBLE_EQ(interval.start, start);
  EXPECT_DOUBLE_EQ(interval.end, end);
}

TEST(TimeModelTest, ComputeOnly) {
  Problem problem = makeThreeTasks();
  // c, a, b: c [0,2], a [2,3], b [3,5].
  Timeline timeline = simulateOrDie(problem, {2, 0, 1}, {}, LinkSpec());
  expectInterval(timeline.tasks[2], 0, 2);
  expectInterval(timeline.tasks[0], 2, 3);
  expectInterval(timeline.tasks[1], 3, 5);
  EXPECT_DOUBLE_EQ(timeline.makespan, 5);
  EXPECT_DOUBLE_EQ(timeline.computeTime, 5);
  EXPECT_DOUBLE_EQ(timeline.exposedCopyTime, 0);
  EXPECT_TRUE(timeline.copies.empty());
}

TEST(TimeModelTest, EmptyOrder) {
  Problem problem;
  Timeline timeline = simulateOrDie(problem, {}, {}, LinkSpec());
  EXPECT_DOUBLE_EQ(timeline.makespan, 0);
  EXPECT_DOUBLE_EQ(timeline.exposedCopyTime, 0);
}

TEST(TimeModelTest, SwapOutHiddenBehindCompute) {
  Problem problem = makeThreeTasks();
  // Swap-out of a's 100-byte result after a: [1,2], while b runs [1,3].
  std::vector<CopyTask> copies = {
      makeCopy("out", 100, CopyDirection::DeviceToHost, /*issuedAfter=*/0,
               /*waitsFor=*/0)};
  Timeline timeline =
      simulateOrDie(problem, problem.programOrder(), copies, makeLink());
  expectInterval(timeline.copies[0], 1, 2);
  expectInterval(timeline.tasks[1], 1, 3);
  expectInterval(timeline.tasks[2], 3, 5);
  EXPECT_DOUBLE_EQ(timeline.makespan, 5);
  EXPECT_DOUBLE_EQ(timeline.exposedCopyTime, 0);
}

TEST(TimeModelTest, SwapInThatComputeWaitsFor) {
  Problem problem = makeThreeTasks();
  // Swap-in of 200 bytes issued after a (t = 1) takes 2 s: [1,3]. b needs it
  // and starts at 3 instead of 1, so compute waits 2 s:
  //   a [0,1], b [3,5], c [5,7]; makespan 7, compute 5, exposed 2.
  std::vector<CopyTask> copies = {
      makeCopy("in", 200, CopyDirection::HostToDevice, /*issuedAfter=*/0, kNoId,
               /*neededBy=*/1)};
  Timeline timeline =
      simulateOrDie(problem, problem.programOrder(), copies, makeLink());
  expectInterval(timeline.copies[0], 1, 3);
  expectInterval(timeline.tasks[0], 0, 1);
  expectInterval(timeline.tasks[1], 3, 5);
  expectInterval(timeline.tasks[2], 5, 7);
  EXPECT_DOUBLE_EQ(timeline.makespan, 7);
  EXPECT_DOUBLE_EQ(timeline.computeTime, 5);
  EXPECT_DOUBLE_EQ(timeline.exposedCopyTime, 2);
}

TEST(TimeModelTest, WaitOnEarlierTaskIsAlreadySatisfied) {
  Problem problem = makeThreeTasks();
  // waitsFor may not come after issuedAfter, and the compute stream is in
  // order, so waiting for a never delays a copy issued after b: it starts
  // when b ends (t = 3) and ends at 4, inside c [3,5].
  std::vector<CopyTask> copies = {
      makeCopy("out", 100, CopyDirection::DeviceToHost, /*issuedAfter=*/1,
               /*waitsFor=*/0)};
  Timeline timeline =
      simulateOrDie(problem, problem.programOrder(), copies, makeLink());
  expectInterval(timeline.copies[0], 3, 4);
  EXPECT_DOUBLE_EQ(timeline.exposedCopyTime, 0);
}

TEST(TimeModelTest, SameDirectionCopiesSerializeFifo) {
  Problem problem = makeThreeTasks();
  // Issue order: "early" (at time 0), then "second" and "third" (both after
  // a; tie broken by index). Each takes 1 s on the one H2D engine:
  //   early [0,1], second [1,2], third [2,3].
  // c needs third, which ends at 3 just as b does, so nothing is exposed.
  std::vector<CopyTask> copies = {
      makeCopy("second", 100, CopyDirection::HostToDevice, /*issuedAfter=*/0),
      makeCopy("third", 100, CopyDirection::HostToDevice, /*issuedAfter=*/0,
               kNoId, /*neededBy=*/2),
      makeCopy("early", 100, CopyDirection::HostToDevice)};
  Timeline timeline =
      simulateOrDie(problem, problem.programOrder(), copies, makeLink());
  expectInterval(timeline.copies[2], 0, 1);
  expectInterval(timeline.copies[0], 1, 2);
  expectInterval(timeline.copies[1], 2, 3);
  expectInterval(timeline.tasks[2], 3, 5);
  EXPECT_DOUBLE_EQ(timeline.exposedCopyTime, 0);
}

TEST(TimeModelTest, FifoOrderFollowsIssueNotIndex) {
  Problem problem = makeThreeTasks();
  // Copy 0 is issued after b (t = 3), copy 1 after a (t = 1). FIFO follows
  // issue position, so copy 1 runs [1,3] (200 bytes) and copy 0 [3,4].
  std::vector<CopyTask> copies = {
      makeCopy("late", 100, CopyDirection::DeviceToHost, /*issuedAfter=*/1),
      makeCopy("soon", 200, CopyDirection::DeviceToHost, /*issuedAfter=*/0)};
  Timeline timeline =
      simulateOrDie(problem, problem.programOrder(), copies, makeLink());
  expectInterval(timeline.copies[1], 1, 3);
  expectInterval(timeline.copies[0], 3, 4);
}

TEST(TimeModelTest, OppositeDirectionsOverlap) {
  Problem problem = makeThreeTasks();
  // Each direction has its own engine: both run [0,1]. a needs the swap-in,
  // so compute waits 1 s: a [1,2], b [2,4], c [4,6].
  std::vector<CopyTask> copies = {
      makeCopy("out", 100, CopyDirection::DeviceToHost),
      makeCopy("in", 100, CopyDirection::HostToDevice, kNoId, kNoId,
               /*neededBy=*/0)};
  Timeline timeline =
      simulateOrDie(problem, problem.programOrder(), copies, makeLink());
  expectInterval(timeline.copies[0], 0, 1);
  expectInterval(timeline.copies[1], 0, 1);
  expectInterval(timeline.tasks[0], 1, 2);
  EXPECT_DOUBLE_EQ(timeline.makespan, 6);
  EXPECT_DOUBLE_EQ(timeline.exposedCopyTime, 1);
}

TEST(TimeModelTest, LatencyIsAddedToEveryCopy) {
  Problem problem = makeThreeTasks();
  LinkSpec link = makeLink();
  link.copyLatencySeconds = 0.5;
  // Two swap-ins after a (t = 1): [1, 1 + 0.5 + 1] = [1,2.5], then
  // [2.5,4]. b needs the second one: b [4,6], c [6,8]; exposed 3.
  std::vector<CopyTask> copies = {
      makeCopy("in0", 100, CopyDirection::HostToDevice, 0),
      makeCopy("in1", 100, CopyDirection::HostToDevice, 0, kNoId,
               /*neededBy=*/1)};
  Timeline timeline =
      simulateOrDie(problem, problem.programOrder(), copies, link);
  expectInterval(timeline.copies[0], 1, 2.5);
  expectInterval(timeline.copies[1], 2.5, 4);
  expectInterval(timeline.tasks[1], 4, 6);
  EXPECT_DOUBLE_EQ(timeline.makespan, 8);
  EXPECT_DOUBLE_EQ(timeline.exposedCopyTime, 3);
}

TEST(TimeModelTest, TrailingCopyExtendsMakespan) {
  Problem problem = makeThreeTasks();
  // A swap-out after c (t = 5) of 300 bytes ends at 8: 3 s are exposed.
  std::vector<CopyTask> copies = {
      makeCopy("tail", 300, CopyDirection::DeviceToHost, /*issuedAfter=*/2)};
  Timeline timeline =
      simulateOrDie(problem, problem.programOrder(), copies, makeLink());
  expectInterval(timeline.copies[0], 5, 8);
  EXPECT_DOUBLE_EQ(timeline.makespan, 8);
  EXPECT_DOUBLE_EQ(timeline.exposedCopyTime, 3);
}

/// Expects simulateTime to fail with a message containing \p fragment.
void expectError(const Problem &problem, const std::vector<TaskId> &order,
                 const std::vector<CopyTask> &copies, const LinkSpec &link,
                 const std::string &fragment) {
  std::string error;
  EXPECT_FALSE(simulateTime(problem, order, copies, link, &error).has_value());
  EXPECT_NE(error.find(fragment), std::string::npos) << error;
}

TEST(TimeModelTest, InvalidOrder) {
  Problem problem = makeThreeTasks();
  problem.addDependence(0, 1);
  expectError(problem, {1, 0, 2}, {}, makeLink(), "invalid order");
  expectError(problem, {0, 1}, {}, makeLink(), "invalid order");
}

TEST(TimeModelTest, WaitingForTaskIssuedLater) {
  Problem problem = makeThreeTasks();
  expectError(problem, problem.programOrder(),
              {makeCopy("out", 1, CopyDirection::DeviceToHost,
                        /*issuedAfter=*/0, /*waitsFor=*/1)},
              makeLink(), "copy 'out' waits for task 'b'");
  expectError(problem, problem.programOrder(),
              {makeCopy("out", 1, CopyDirection::DeviceToHost, kNoId,
                        /*waitsFor=*/0)},
              makeLink(), "waits for task 'a'");
}

TEST(TimeModelTest, NeededAtOrBeforeIssueDeadlocks) {
  Problem problem = makeThreeTasks();
  expectError(problem, problem.programOrder(),
              {makeCopy("in", 1, CopyDirection::HostToDevice,
                        /*issuedAfter=*/1, kNoId, /*neededBy=*/1)},
              makeLink(), "deadlock");
  expectError(problem, problem.programOrder(),
              {makeCopy("in", 1, CopyDirection::HostToDevice,
                        /*issuedAfter=*/1, kNoId, /*neededBy=*/0)},
              makeLink(), "needed by task 'a'");
}

TEST(TimeModelTest, NonPositiveBandwidthInUsedDirection) {
  Problem problem = makeThreeTasks();
  LinkSpec link;
  link.deviceToHostBytesPerSecond = 100;
  // No swap-in: the zero H2D bandwidth is irrelevant.
  std::vector<CopyTask> swapOut = {
      makeCopy("out", 100, CopyDirection::DeviceToHost)};
  EXPECT_TRUE(simulateTime(problem, problem.programOrder(), swapOut, link));
  expectError(problem, problem.programOrder(),
              {makeCopy("in", 100, CopyDirection::HostToDevice)}, link,
              "host-to-device bandwidth must be positive");
  link.hostToDeviceBytesPerSecond = -1;
  expectError(problem, problem.programOrder(),
              {makeCopy("in", 100, CopyDirection::HostToDevice)}, link,
              "bandwidth");
}

TEST(TimeModelTest, NegativeBytes) {
  Problem problem = makeThreeTasks();
  expectError(problem, problem.programOrder(),
              {makeCopy("neg", -8, CopyDirection::DeviceToHost)}, makeLink(),
              "copy 'neg' has negative size");
}

TEST(TimeModelTest, CopyTaskIdOutOfRange) {
  Problem problem = makeThreeTasks();
  expectError(problem, problem.programOrder(),
              {makeCopy("far", 8, CopyDirection::DeviceToHost, kNoId, kNoId,
                        /*neededBy=*/3)},
              makeLink(), "out of range");
}

} // namespace
