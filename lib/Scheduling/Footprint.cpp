//===- Footprint.cpp - What the device must hold for a plan -----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Footprint.h"

using namespace mlir::memsched::scheduling;

std::vector<AllocationRequest> mlir::memsched::scheduling::collectArenaRequests(
    const Problem &problem, const std::vector<TaskId> &order,
    const MemoryProfile &profile, int64_t &escapingBytes) {
  std::vector<bool> escaping = problem.escapingBuffers();
  std::vector<AllocationRequest> requests;
  for (size_t id = 0; id < problem.numBuffers(); ++id) {
    const Buffer &buffer = problem.buffer(static_cast<BufferId>(id));
    const BufferLifetime &lifetime = profile.lifetimes[id];
    if (buffer.kind != BufferKind::Transient || !lifetime.isLive() ||
        buffer.sizeBytes == 0)
      continue;
    if (escaping[id]) {
      escapingBytes += buffer.sizeBytes;
      continue;
    }
    requests.push_back({static_cast<int64_t>(id), lifetime.start, lifetime.end,
                        buffer.sizeBytes});
  }
  for (size_t step = 0; step < order.size(); ++step) {
    int64_t workspace = problem.task(order[step]).workspaceBytes;
    if (workspace > 0)
      requests.push_back({-1 - static_cast<int64_t>(step),
                          static_cast<int64_t>(step),
                          static_cast<int64_t>(step), workspace});
  }
  return requests;
}

/// The first step at which \p requests hold the most live bytes; -1 without
/// any.
static int64_t findPeakStep(const std::vector<AllocationRequest> &requests,
                            size_t numSteps) {
  std::vector<int64_t> delta(numSteps + 1, 0);
  for (const AllocationRequest &request : requests) {
    delta[request.start] += request.sizeBytes;
    delta[request.end + 1] -= request.sizeBytes;
  }
  int64_t live = 0, most = 0, peakStep = -1;
  for (size_t step = 0; step < numSteps; ++step) {
    live += delta[step];
    if (live > most) {
      most = live;
      peakStep = static_cast<int64_t>(step);
    }
  }
  return peakStep;
}

Footprint mlir::memsched::scheduling::computeFootprint(
    const Problem &problem, const std::vector<TaskId> &order,
    const MemoryProfile &profile, const OffsetPlanOptions &options) {
  Footprint footprint;
  footprint.residentBytes = profile.residentBytes;
  std::vector<AllocationRequest> requests =
      collectArenaRequests(problem, order, profile, footprint.escapingBytes);
  footprint.arenaPeakStep = findPeakStep(requests, order.size());
  if (std::optional<OffsetPlan> plan = planOffsets(requests, options)) {
    footprint.arenaBytes = plan->arenaBytes;
    footprint.arenaMaxLiveBytes = plan->maxLiveBytes;
    footprint.arenaAlgorithm = plan->algorithm;
  } else {
    // Planning fails only on malformed requests; stacking every buffer is
    // still a valid (if loose) arena.
    for (const AllocationRequest &request : requests)
      footprint.arenaBytes += request.sizeBytes;
    footprint.arenaMaxLiveBytes = footprint.arenaBytes;
    footprint.arenaAlgorithm = "stacked";
  }
  return footprint;
}

std::optional<Footprint>
mlir::memsched::scheduling::computeFootprint(const Problem &problem,
                                             const std::vector<TaskId> &order,
                                             std::string *error) {
  std::optional<MemoryProfile> profile = simulateMemory(problem, order, error);
  if (!profile)
    return std::nullopt;
  return computeFootprint(problem, order, *profile);
}

FootprintFloor mlir::memsched::scheduling::computeFootprintFloor(
    const Problem &problem, const std::vector<int64_t> *placedElsewhere) {
  FootprintFloor floor;
  floor.residentBytes = problem.residentBytes();
  std::vector<bool> escaping = problem.escapingBuffers();
  std::vector<bool> used(problem.numBuffers(), false);
  floor.workingSetBytes = -1;
  for (size_t id = 0; id < problem.numTasks(); ++id) {
    TaskId task = static_cast<TaskId>(id);
    int64_t bytes = problem.task(task).workspaceBytes;
    for (BufferId buffer : problem.buffersUsedBy(task)) {
      used[buffer] = true;
      const Buffer &b = problem.buffer(buffer);
      if (b.kind == BufferKind::Transient && !escaping[buffer])
        bytes += b.sizeBytes;
    }
    if (placedElsewhere)
      bytes -= (*placedElsewhere)[task];
    if (bytes > floor.workingSetBytes) {
      floor.workingSetBytes = bytes;
      floor.task = task;
    }
  }
  floor.workingSetBytes = std::max<int64_t>(floor.workingSetBytes, 0);
  // The escaping buffers the footprint counts: the used ones.
  for (size_t id = 0; id < problem.numBuffers(); ++id) {
    const Buffer &b = problem.buffer(static_cast<BufferId>(id));
    if (used[id] && escaping[id] && b.kind == BufferKind::Transient)
      floor.escapingBytes += b.sizeBytes;
  }
  return floor;
}
