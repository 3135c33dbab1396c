//===- TimeModel.cpp - Compute and copy stream timing model ---------------===//
//
// This file implements the two-stream timing model. Copies are settled in
// issue order just before the compute task at the next position starts; by
// then everything a copy depends on has a known end time, so one forward
// pass suffices.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/TimeModel.h"

#include <algorithm>
#include <cmath>

using namespace mlir::memsched::scheduling;

namespace {
bool inRange(int32_t id, size_t size) {
  return id >= 0 && static_cast<size_t>(id) < size;
}

std::string describeCopy(const std::vector<CopyTask> &copies, size_t index) {
  if (copies[index].name.empty())
    return "copy #" + std::to_string(index);
  return "copy '" + copies[index].name + "'";
}
} // namespace

std::optional<Timeline> mlir::memsched::scheduling::simulateTime(
    const Problem &problem, const std::vector<TaskId> &order,
    const std::vector<CopyTask> &copies, const LinkSpec &link,
    std::string *error) {
  auto fail = [&](std::string message) -> std::optional<Timeline> {
    if (error)
      *error = std::move(message);
    return std::nullopt;
  };

  std::string why;
  if (!problem.isTopologicalOrder(order, &why))
    return fail("invalid order: " + why);
  size_t n = order.size();
  std::vector<int32_t> position(n);
  for (size_t pos = 0; pos < n; ++pos)
    position[order[pos]] = static_cast<int32_t>(pos);
  for (size_t pos = 0; pos < n; ++pos) {
    double duration = problem.task(order[pos]).duration;
    if (!(duration >= 0.0) || !std::isfinite(duration))
      return fail("task " + problem.describeTask(order[pos]) +
                  " has a negative or non-finite duration");
  }
  if (!(link.copyLatencySeconds >= 0.0) ||
      !std::isfinite(link.copyLatencySeconds))
    return fail("copy latency must be non-negative and finite");

  // Issue position -1 stands for time 0, ahead of every task.
  std::vector<int32_t> issuePosition(copies.size());
  for (size_t i = 0; i < copies.size(); ++i) {
    const CopyTask &copy = copies[i];
    for (TaskId id : {copy.issuedAfter, copy.waitsFor, copy.neededBy})
      if (id != kNoId && !inRange(id, n))
        return fail(describeCopy(copies, i) + " refers to task id " +
                    std::to_string(id) + ", which is out of range");
    if (copy.bytes < 0)
      return fail(describeCopy(copies, i) + " has negative size " +
                  std::to_string(copy.bytes));
    double bandwidth = copy.direction == CopyDirection::HostToDevice
                           ? link.hostToDeviceBytesPerSecond
                           : link.deviceToHostBytesPerSecond;
    if (!(bandwidth > 0.0))
      return fail(std::string(copy.direction == CopyDirection::HostToDevice
                                  ? "host-to-device"
                                  : "device-to-host") +
                  " bandwidth must be positive for " + describeCopy(copies, i));
    int32_t issued =
        copy.issuedAfter == kNoId ? -1 : position[copy.issuedAfter];
    issuePosition[i] = issued;
    // A stream can only wait on work already enqueued when the copy is
    // issued; anything else is a cross-stream wait on the future.
    if (copy.waitsFor != kNoId && position[copy.waitsFor] > issued)
      return fail(describeCopy(copies, i) + " waits for task " +
                  problem.describeTask(copy.waitsFor) +
                  ", which runs after the copy is issued");
    if (copy.neededBy != kNoId && position[copy.neededBy] <= issued)
      return fail(describeCopy(copies, i) + " is needed by task " +
                  problem.describeTask(copy.neededBy) +
                  ", which runs before the copy is issued (deadlock)");
  }

  for (size_t i = 0; i < copies.size(); ++i) {
    for (int32_t before : {copies[i].afterCopy, copies[i].stallCopy}) {
      if (before == -1)
        continue;
      if (before < 0 || static_cast<size_t>(before) >= copies.size() ||
          static_cast<size_t>(before) == i)
        return fail(describeCopy(copies, i) + " waits for copy #" +
                    std::to_string(before) + ", which does not exist");
      if (issuePosition[before] > issuePosition[i] ||
          (issuePosition[before] == issuePosition[i] &&
           static_cast<size_t>(before) > i))
        return fail(describeCopy(copies, i) + " waits for " +
                    describeCopy(copies, before) +
                    ", which is issued after it");
    }
  }

  std::vector<size_t> issueOrder(copies.size());
  for (size_t i = 0; i < copies.size(); ++i)
    issueOrder[i] = i;
  std::stable_sort(
      issueOrder.begin(), issueOrder.end(),
      [&](size_t a, size_t b) { return issuePosition[a] < issuePosition[b]; });

  Timeline timeline;
  timeline.tasks.assign(n, Interval());
  timeline.copies.assign(copies.size(), Interval());
  // Latest end of the copies each task needs, by TaskId.
  std::vector<double> neededReady(n, 0.0);
  double engineFree[2] = {0.0, 0.0};
  double computeFree = 0.0;
  size_t nextCopy = 0;

  // Settles every copy issued before position \p limit.
  auto settleCopies = [&](int32_t limit) {
    for (; nextCopy < issueOrder.size(); ++nextCopy) {
      size_t index = issueOrder[nextCopy];
      if (issuePosition[index] >= limit)
        break;
      const CopyTask &copy = copies[index];
      bool toDevice = copy.direction == CopyDirection::HostToDevice;
      double start = copy.issuedAfter == kNoId
                         ? 0.0
                         : timeline.tasks[copy.issuedAfter].end;
      if (copy.waitsFor != kNoId)
        start = std::max(start, timeline.tasks[copy.waitsFor].end);
      if (copy.afterCopy != -1)
        start = std::max(start, timeline.copies[copy.afterCopy].end);
      if (copy.stallCopy != -1)
        start = std::max(start, timeline.copies[copy.stallCopy].end);
      double &engine = engineFree[toDevice ? 1 : 0];
      start = std::max(start, engine);
      double bandwidth = toDevice ? link.hostToDeviceBytesPerSecond
                                  : link.deviceToHostBytesPerSecond;
      double end = start + link.copyLatencySeconds +
                   static_cast<double>(copy.bytes) / bandwidth;
      engine = end;
      timeline.copies[index] = {start, end};
      if (copy.neededBy != kNoId)
        neededReady[copy.neededBy] = std::max(neededReady[copy.neededBy], end);
    }
  };

  for (size_t pos = 0; pos < n; ++pos) {
    settleCopies(static_cast<int32_t>(pos));
    TaskId id = order[pos];
    double start = std::max(computeFree, neededReady[id]);
    double duration = problem.task(id).duration;
    timeline.tasks[id] = {start, start + duration};
    computeFree = start + duration;
    timeline.computeTime += duration;
  }
  settleCopies(static_cast<int32_t>(n));

  timeline.makespan = computeFree;
  for (const Interval &interval : timeline.copies)
    timeline.makespan = std::max(timeline.makespan, interval.end);
  timeline.exposedCopyTime = timeline.makespan - timeline.computeTime;
  return timeline;
}
