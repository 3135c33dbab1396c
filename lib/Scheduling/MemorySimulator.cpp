//===- MemorySimulator.cpp - Memory profile of a task order ---------------===//
//
// This file implements the memory simulator with difference arrays, so a
// whole profile costs linear time regardless of how long buffers live.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/MemorySimulator.h"

#include <algorithm>
#include <limits>

using namespace mlir::memsched::scheduling;

std::optional<MemoryProfile>
mlir::memsched::scheduling::simulateMemory(const Problem &problem,
                                           const std::vector<TaskId> &order,
                                           std::string *error) {
  std::string why;
  if (!problem.verifyReferences(&why)) {
    if (error)
      *error = "invalid problem: " + why;
    return std::nullopt;
  }
  if (!problem.isTopologicalOrder(order, &why)) {
    if (error)
      *error = "invalid order: " + why;
    return std::nullopt;
  }
  return simulateCheckedMemory(problem, order);
}

MemoryProfile mlir::memsched::scheduling::simulateCheckedMemory(
    const Problem &problem, const std::vector<TaskId> &order) {
  size_t n = order.size();
  size_t numBuffers = problem.numBuffers();
  std::vector<int32_t> position(n);
  for (size_t pos = 0; pos < n; ++pos)
    position[order[pos]] = static_cast<int32_t>(pos);

  MemoryProfile profile;
  profile.residentBytes = problem.residentBytes();
  profile.lifetimes.assign(numBuffers, BufferLifetime());

  // A consumer of a producer-less value may come before the buffer's first
  // write (e.g. an empty tensor read before being filled); starting at the
  // first use of any kind keeps the buffer live at every step that touches
  // it, which is what makes computeLowerBoundTransientBytes a valid bound.
  constexpr int32_t kUnset = std::numeric_limits<int32_t>::max();
  std::vector<int32_t> firstUse(numBuffers, kUnset);
  std::vector<int32_t> lastUse(numBuffers, -1);
  auto recordUse = [&](BufferId buffer, int32_t pos) {
    firstUse[buffer] = std::min(firstUse[buffer], pos);
    lastUse[buffer] = std::max(lastUse[buffer], pos);
  };
  for (size_t id = 0; id < problem.numValues(); ++id) {
    const Value &v = problem.value(static_cast<ValueId>(id));
    if (v.producer != kNoId)
      recordUse(v.buffer, position[v.producer]);
    for (TaskId consumer : v.consumers)
      recordUse(v.buffer, position[consumer]);
  }

  std::vector<bool> escaping = problem.escapingBuffers();
  std::vector<int64_t> delta(n + 1, 0);
  int32_t lastStep = static_cast<int32_t>(n) - 1;
  for (size_t id = 0; id < numBuffers; ++id) {
    const Buffer &b = problem.buffer(static_cast<BufferId>(id));
    BufferLifetime &lifetime = profile.lifetimes[id];
    if (b.kind == BufferKind::Resident) {
      if (n > 0)
        lifetime = {0, lastStep};
      continue;
    }
    if (lastUse[id] < 0)
      continue;
    lifetime = {firstUse[id], escaping[id] ? lastStep : lastUse[id]};
    delta[lifetime.start] += b.sizeBytes;
    delta[lifetime.end + 1] -= b.sizeBytes;
  }

  profile.liveBytes.resize(n);
  profile.liveBufferBytes.resize(n);
  int64_t running = 0;
  for (size_t pos = 0; pos < n; ++pos) {
    running += delta[pos];
    int64_t withWorkspace = running + problem.task(order[pos]).workspaceBytes;
    profile.liveBufferBytes[pos] = running;
    profile.liveBytes[pos] = withWorkspace;
    profile.maxLiveBytes = std::max(profile.maxLiveBytes, running);
    if (profile.peakStep < 0 || withWorkspace > profile.peakTransientBytes) {
      profile.peakTransientBytes = withWorkspace;
      profile.peakStep = static_cast<int32_t>(pos);
    }
  }
  return profile;
}

namespace {
/// Sets the peaks and the peak step from the per-step bytes.
void updatePeaks(MemoryProfile &profile) {
  profile.peakTransientBytes = 0;
  profile.maxLiveBytes = 0;
  profile.peakStep = -1;
  for (size_t pos = 0; pos < profile.liveBytes.size(); ++pos) {
    profile.maxLiveBytes =
        std::max(profile.maxLiveBytes, profile.liveBufferBytes[pos]);
    if (profile.peakStep < 0 ||
        profile.liveBytes[pos] > profile.peakTransientBytes) {
      profile.peakTransientBytes = profile.liveBytes[pos];
      profile.peakStep = static_cast<int32_t>(pos);
    }
  }
}
} // namespace

void mlir::memsched::scheduling::countEscapingFromStart(
    const Problem &problem, MemoryProfile &profile) {
  size_t n = profile.liveBytes.size();
  std::vector<bool> escaping = problem.escapingBuffers();
  // By step: the escaping bytes first live after it.
  std::vector<int64_t> startsAfter(n + 1, 0);
  for (size_t id = 0; id < problem.numBuffers(); ++id) {
    const Buffer &buffer = problem.buffer(static_cast<BufferId>(id));
    const BufferLifetime &lifetime = profile.lifetimes[id];
    if (escaping[id] && buffer.kind == BufferKind::Transient &&
        lifetime.isLive())
      startsAfter[lifetime.start] += buffer.sizeBytes;
  }
  int64_t running = 0;
  for (size_t pos = n; pos-- > 0;) {
    running += startsAfter[pos + 1];
    profile.liveBytes[pos] += running;
    profile.liveBufferBytes[pos] += running;
  }
  updatePeaks(profile);
}

bool mlir::memsched::scheduling::applyInPlaceWrites(
    Problem &problem, const std::vector<TaskId> &order,
    const std::vector<BufferLifetime> &lifetimes) {
  std::vector<bool> escaping = problem.escapingBuffers();
  // Where each buffer's values went: a chain of writes ends in one buffer.
  std::vector<BufferId> mergedInto(problem.numBuffers());
  for (size_t b = 0; b < mergedInto.size(); ++b)
    mergedInto[b] = static_cast<BufferId>(b);
  auto find = [&](BufferId buffer) {
    while (mergedInto[buffer] != buffer)
      buffer = mergedInto[buffer] = mergedInto[mergedInto[buffer]];
    return buffer;
  };
  bool changed = false;
  for (size_t pos = 0; pos < order.size(); ++pos) {
    const std::vector<std::pair<ValueId, ValueId>> &writes =
        problem.task(order[pos]).inPlaceWrites;
    int32_t step = static_cast<int32_t>(pos);
    std::vector<BufferId> taken;
    for (auto [input, result] : writes) {
      BufferId from = problem.value(input).buffer;
      BufferId to = problem.value(result).buffer;
      auto isTaken = [&](BufferId buffer) {
        return std::find(taken.begin(), taken.end(), buffer) != taken.end();
      };
      if (from == to || problem.buffer(from).kind != BufferKind::Transient ||
          problem.buffer(to).kind != BufferKind::Transient || escaping[from] ||
          escaping[to] || lifetimes[from].end != step ||
          lifetimes[to].start != step || isTaken(from) || isTaken(to))
        continue;
      taken.push_back(from);
      taken.push_back(to);
      mergedInto[to] = find(from);
      changed = true;
    }
  }
  if (!changed)
    return false;
  for (size_t b = 0; b < mergedInto.size(); ++b) {
    BufferId root = find(static_cast<BufferId>(b));
    if (root == static_cast<BufferId>(b))
      continue;
    Buffer &target = problem.buffer(root);
    const Buffer &moved = problem.buffer(static_cast<BufferId>(b));
    target.sizeBytes = std::max(target.sizeBytes, moved.sizeBytes);
  }
  for (size_t v = 0; v < problem.numValues(); ++v) {
    Value &value = problem.value(static_cast<ValueId>(v));
    value.buffer = find(value.buffer);
  }
  return true;
}

int64_t mlir::memsched::scheduling::computeLowerBoundTransientBytes(
    const Problem &problem) {
  // References are checked so that malformed problems cannot index out of
  // range; the bound of such a problem is meaningless anyway.
  if (!problem.verifyReferences(nullptr))
    return 0;
  int64_t bound = 0;
  std::vector<bool> used(problem.numBuffers(), false);
  for (size_t id = 0; id < problem.numTasks(); ++id) {
    TaskId task = static_cast<TaskId>(id);
    int64_t footprint = problem.task(task).workspaceBytes;
    for (BufferId buffer : problem.buffersUsedBy(task)) {
      used[buffer] = true;
      const Buffer &b = problem.buffer(buffer);
      if (b.kind == BufferKind::Transient)
        footprint += b.sizeBytes;
    }
    bound = std::max(bound, footprint);
  }

  std::vector<bool> escaping = problem.escapingBuffers();
  int64_t escapingBytes = 0;
  for (size_t id = 0; id < problem.numBuffers(); ++id) {
    const Buffer &b = problem.buffer(static_cast<BufferId>(id));
    if (used[id] && escaping[id] && b.kind == BufferKind::Transient)
      escapingBytes += b.sizeBytes;
  }
  return std::max(bound, escapingBytes);
}
