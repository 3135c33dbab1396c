//===- ScheduleGraph.cpp - Compact view of a Problem for schedulers -------===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "ScheduleGraph.h"

#include <algorithm>
#include <queue>
#include <unordered_map>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail;

namespace {
/// Turns per-item lists into CSR arrays.
void flatten(const std::vector<std::vector<int32_t>> &lists,
             std::vector<int32_t> &start, std::vector<int32_t> &ids) {
  start.assign(lists.size() + 1, 0);
  for (size_t i = 0; i < lists.size(); ++i)
    start[i + 1] = start[i] + static_cast<int32_t>(lists[i].size());
  ids.clear();
  ids.reserve(start.back());
  for (const std::vector<int32_t> &list : lists)
    ids.insert(ids.end(), list.begin(), list.end());
}
} // namespace

ScheduleGraph::ScheduleGraph(const Problem &problem) {
  int32_t n = static_cast<int32_t>(problem.numTasks());
  problem.finalize();

  std::vector<bool> escapingOriginal = problem.escapingBuffers();

  // Dense ids for the transient, non-empty buffers some task touches.
  std::vector<int32_t> dense(problem.numBuffers(), -1);
  std::vector<std::vector<int32_t>> taskBuffers(n);
  std::vector<std::vector<int32_t>> bufferUsers;
  for (int32_t task = 0; task < n; ++task) {
    for (BufferId id : problem.buffersUsedBy(task)) {
      const Buffer &buffer = problem.buffer(id);
      if (buffer.kind != BufferKind::Transient || buffer.sizeBytes == 0)
        continue;
      if (dense[id] < 0) {
        dense[id] = static_cast<int32_t>(size.size());
        size.push_back(buffer.sizeBytes);
        escaping.push_back(escapingOriginal[id]);
        original.push_back(id);
        bufferUsers.emplace_back();
      }
      taskBuffers[task].push_back(dense[id]);
      bufferUsers[dense[id]].push_back(task);
    }
  }
  flatten(taskBuffers, bufferStart, bufferIds);
  flatten(bufferUsers, userStart, userIds);

  std::vector<std::vector<int32_t>> predLists(n), succLists(n);
  for (int32_t task = 0; task < n; ++task) {
    const std::vector<TaskId> &preds = problem.predecessors(task);
    predLists[task].assign(preds.begin(), preds.end());
    const std::vector<TaskId> &succs = problem.successors(task);
    succLists[task].assign(succs.begin(), succs.end());
  }
  flatten(predLists, predStart, predIds);
  flatten(succLists, succStart, succIds);

  workspace.resize(n);
  for (int32_t task = 0; task < n; ++task)
    workspace[task] = problem.task(task).workspaceBytes;

  // Only writes between buffers of one size keep the live bytes after the
  // step as they are without the write; the rewrite's merged buffer would
  // otherwise outlive the smaller one's bytes.
  for (int32_t task = 0; task < n; ++task) {
    for (auto [input, result] : problem.task(task).inPlaceWrites) {
      int32_t from = dense[problem.value(input).buffer];
      int32_t to = dense[problem.value(result).buffer];
      if (from < 0 || to < 0 || from == to || escaping[from] || escaping[to] ||
          size[from] != size[to])
        continue;
      if (writeStart.empty())
        writeStart.assign(task + 1, 0);
      writes.push_back({from, to});
    }
    if (!writeStart.empty())
      writeStart.push_back(static_cast<int32_t>(writes.size()));
  }

  std::vector<int32_t> indegree(n);
  std::priority_queue<int32_t, std::vector<int32_t>, std::greater<int32_t>>
      ready;
  for (int32_t task = 0; task < n; ++task) {
    indegree[task] = static_cast<int32_t>(preds(task).size());
    if (indegree[task] == 0)
      ready.push(task);
  }
  topo.reserve(n);
  while (!ready.empty()) {
    int32_t task = ready.top();
    ready.pop();
    topo.push_back(task);
    for (int32_t succ : succs(task))
      if (--indegree[succ] == 0)
        ready.push(succ);
  }
}

int64_t ScheduleGraph::footprint(int32_t task) const {
  int64_t bytes = workspace[task];
  for (int32_t buffer : buffers(task))
    bytes += size[buffer];
  return bytes;
}

MemoryTracker::MemoryTracker(const ScheduleGraph &graph) : graph(graph) {
  remaining.resize(graph.numBuffers());
  for (int32_t buffer = 0; buffer < graph.numBuffers(); ++buffer)
    remaining[buffer] = static_cast<int32_t>(graph.users(buffer).size());
}

int64_t MemoryTracker::allocatedBy(int32_t task) const {
  int64_t bytes = 0;
  for (int32_t buffer : graph.buffers(task))
    if (remaining[buffer] == static_cast<int32_t>(graph.users(buffer).size()))
      bytes += graph.bufferBytes(buffer);
  return bytes;
}

int64_t MemoryTracker::freedBy(int32_t task) const {
  int64_t bytes = 0;
  for (int32_t buffer : graph.buffers(task))
    if (remaining[buffer] == 1 && !graph.escapes(buffer))
      bytes += graph.bufferBytes(buffer);
  return bytes;
}

int64_t MemoryTracker::sparedBy(int32_t task) const {
  WriteRange writes = graph.inPlaceWrites(task);
  if (writes.empty())
    return 0;
  return bytesSparedInPlace(
      writes,
      [&](int32_t buffer) {
        return remaining[buffer] == 1 && !graph.escapes(buffer);
      },
      [&](int32_t buffer) {
        return remaining[buffer] ==
               static_cast<int32_t>(graph.users(buffer).size());
      },
      [&](int32_t buffer) { return graph.bufferBytes(buffer); });
}

int64_t MemoryTracker::schedule(int32_t task) {
  int64_t allocated = allocatedBy(task);
  int64_t step = live + allocated - sparedBy(task) + graph.workspaceBytes(task);
  peak = std::max(peak, step);
  live += allocated - freedBy(task);
  for (int32_t buffer : graph.buffers(task))
    --remaining[buffer];
  return step;
}

int64_t mlir::memsched::scheduling::detail::computePeak(
    const ScheduleGraph &graph, const std::vector<int32_t> &order) {
  MemoryTracker tracker(graph);
  for (int32_t task : order)
    tracker.schedule(task);
  return tracker.peakBytes();
}

std::vector<int64_t> mlir::memsched::scheduling::detail::computeStepPeaks(
    const ScheduleGraph &graph, const std::vector<int32_t> &order) {
  MemoryTracker tracker(graph);
  std::vector<int64_t> peaks;
  peaks.reserve(order.size());
  for (int32_t task : order)
    peaks.push_back(tracker.schedule(task));
  return peaks;
}

OrderIndex::OrderIndex(const ScheduleGraph &graph,
                       const std::vector<int32_t> &order) {
  int32_t n = static_cast<int32_t>(order.size());
  position.assign(graph.numTasks(), -1);
  for (int32_t pos = 0; pos < n; ++pos)
    position[order[pos]] = pos;
  firstUse.assign(graph.numBuffers(), n);
  lastUse.assign(graph.numBuffers(), -1);
  std::vector<int64_t> delta(n + 1, 0);
  for (int32_t buffer = 0; buffer < graph.numBuffers(); ++buffer) {
    for (int32_t user : graph.users(buffer)) {
      firstUse[buffer] = std::min(firstUse[buffer], position[user]);
      lastUse[buffer] = std::max(lastUse[buffer], position[user]);
    }
    int64_t bytes = graph.bufferBytes(buffer);
    delta[firstUse[buffer]] += bytes;
    if (!graph.escapes(buffer))
      delta[lastUse[buffer]] -= bytes;
  }
  liveAfter.resize(n);
  int64_t live = 0;
  for (int32_t pos = 0; pos < n; ++pos) {
    live += delta[pos];
    liveAfter[pos] = live;
  }
}

LocalProblem mlir::memsched::scheduling::detail::makeRangeProblem(
    const ScheduleGraph &graph, const std::vector<int32_t> &order,
    const OrderIndex &index, int32_t begin, int32_t end) {
  LocalProblem local;
  int32_t k = end - begin;
  local.preds.resize(k);
  local.workspace.resize(k);
  std::vector<int32_t> localBuffer;
  std::vector<int32_t> touched;
  localBuffer.reserve(16);
  // Dense local ids for the buffers the range touches.
  std::unordered_map<int32_t, int32_t> bufferIds;
  for (int32_t i = 0; i < k; ++i) {
    int32_t task = order[begin + i];
    local.workspace[i] = graph.workspaceBytes(task);
    for (int32_t pred : graph.preds(task)) {
      int32_t pos = index.position[pred];
      if (pos >= begin && pos < end)
        local.preds[i].push_back(pos - begin);
    }
    for (int32_t buffer : graph.buffers(task)) {
      auto [it, inserted] =
          bufferIds.emplace(buffer, static_cast<int32_t>(local.buffers.size()));
      if (inserted) {
        LocalProblem::LocalBuffer entry;
        entry.bytes = graph.bufferBytes(buffer);
        entry.liveAtStart = index.firstUse[buffer] < begin;
        entry.liveAtEnd = index.lastUse[buffer] >= end || graph.escapes(buffer);
        local.buffers.push_back(std::move(entry));
      }
      local.buffers[it->second].users.push_back(i);
    }
    if (graph.hasInPlaceWrites()) {
      local.inPlaceWrites.resize(k);
      // Both buffers are the task's own, so they have local ids by now.
      for (InPlaceWrite write : graph.inPlaceWrites(task))
        local.inPlaceWrites[i].push_back(
            {bufferIds.at(write.input), bufferIds.at(write.result)});
    }
  }
  if (begin > 0) {
    local.baseBytes = index.liveAfter[begin - 1];
    for (const LocalProblem::LocalBuffer &buffer : local.buffers)
      if (buffer.liveAtStart)
        local.baseBytes -= buffer.bytes;
  }
  return local;
}

std::vector<std::pair<int32_t, int32_t>>
mlir::memsched::scheduling::detail::findComponents(
    const ScheduleGraph &graph, const std::vector<int32_t> &order) {
  int32_t n = static_cast<int32_t>(order.size());
  std::vector<int32_t> position(graph.numTasks());
  for (int32_t pos = 0; pos < n; ++pos)
    position[order[pos]] = pos;
  // The task at position p is a cut iff no edge jumps over p, no sink comes
  // before p and no source after p: then everything before reaches it and
  // everything after is reached from it.
  std::vector<int32_t> crossing(n + 1, 0);
  std::vector<int32_t> sinksBefore(n + 1, 0), sourcesAfter(n + 1, 0);
  for (int32_t pos = 0; pos < n; ++pos) {
    int32_t task = order[pos];
    for (int32_t succ : graph.succs(task)) {
      int32_t to = position[succ];
      if (to > pos + 1) {
        ++crossing[pos + 1];
        --crossing[to];
      }
    }
    sinksBefore[pos + 1] = sinksBefore[pos] + (graph.succs(task).empty());
  }
  for (int32_t pos = n - 1; pos >= 0; --pos)
    sourcesAfter[pos] =
        sourcesAfter[pos + 1] + (graph.preds(order[pos]).empty());
  std::vector<std::pair<int32_t, int32_t>> components;
  int32_t begin = 0, jumps = 0;
  for (int32_t pos = 0; pos < n; ++pos) {
    jumps += crossing[pos];
    bool isCut =
        jumps == 0 && sinksBefore[pos] == 0 && sourcesAfter[pos + 1] == 0;
    if (!isCut)
      continue;
    if (begin < pos)
      components.push_back({begin, pos});
    components.push_back({pos, pos + 1});
    begin = pos + 1;
  }
  if (begin < n)
    components.push_back({begin, n});
  return components;
}

ReducedProblem
mlir::memsched::scheduling::detail::removeFreeSources(const Problem &problem) {
  ScheduleGraph graph(problem);
  int32_t n = graph.numTasks();
  ReducedProblem reduced;
  std::vector<TaskId> newId(n, kNoId);
  // Bytes a task allocates in every order: its buffers whose other users
  // all follow it.
  std::vector<uint32_t> mark(n, 0);
  uint32_t stamp = 0;
  auto surelyAllocated = [&](int32_t task) {
    ++stamp;
    for (int32_t succ : graph.succs(task))
      mark[succ] = stamp;
    int64_t bytes = 0;
    for (int32_t buffer : graph.buffers(task)) {
      bool first = true;
      for (int32_t user : graph.users(buffer))
        if (user != task && mark[user] != stamp)
          first = false;
      if (first)
        bytes += graph.bufferBytes(buffer);
    }
    return bytes;
  };
  auto isFree = [&](int32_t task) {
    if (!graph.preds(task).empty() || problem.task(task).isFence)
      return false;
    if (graph.succs(task).empty())
      return graph.buffers(task).empty() && graph.workspaceBytes(task) == 0;
    ++stamp;
    for (int32_t succ : graph.succs(task))
      mark[succ] = stamp;
    // Each buffer is used by the source alone or by every successor, so
    // that whichever successor runs first allocates it in the reduced
    // problem, where the source would have.
    size_t numSuccs = graph.succs(task).size();
    int64_t privateBytes = 0;
    for (int32_t buffer : graph.buffers(task)) {
      IdRange users = graph.users(buffer);
      if (users.size() == 1) {
        if (graph.escapes(buffer))
          return false;
        privateBytes += graph.bufferBytes(buffer);
        continue;
      }
      size_t usingSuccs = 0;
      for (int32_t user : users) {
        if (user != task && mark[user] != stamp)
          return false;
        usingSuccs += user != task;
      }
      if (usingSuccs != numSuccs)
        return false;
    }
    int64_t step = graph.workspaceBytes(task) + privateBytes;
    if (step == 0)
      return true;
    for (int32_t succ : graph.succs(task))
      if (step > surelyAllocated(succ) + graph.workspaceBytes(succ))
        return false;
    return true;
  };
  for (int32_t task = 0; task < n; ++task) {
    if (isFree(task)) {
      reduced.freeTasks.push_back(task);
      continue;
    }
    newId[task] = reduced.problem.addTask(problem.task(task));
    reduced.original.push_back(task);
  }
  for (size_t id = 0; id < problem.numBuffers(); ++id)
    reduced.problem.addBuffer(problem.buffer(static_cast<BufferId>(id)));
  for (size_t id = 0; id < problem.numValues(); ++id) {
    Value value = problem.value(static_cast<ValueId>(id));
    value.producer = value.producer == kNoId ? kNoId : newId[value.producer];
    value.definedBy = value.definedBy == kNoId ? kNoId : newId[value.definedBy];
    std::vector<TaskId> consumers;
    for (TaskId consumer : value.consumers)
      if (newId[consumer] != kNoId)
        consumers.push_back(newId[consumer]);
    value.consumers = std::move(consumers);
    reduced.problem.addValue(std::move(value));
  }
  for (auto [before, after] : problem.extraDependences())
    if (newId[before] != kNoId && newId[after] != kNoId)
      reduced.problem.addDependence(newId[before], newId[after]);
  return reduced;
}

std::vector<TaskId> mlir::memsched::scheduling::detail::expandOrder(
    const Problem &problem, const ReducedProblem &reduced,
    const std::vector<TaskId> &order) {
  size_t n = problem.numTasks();
  std::vector<int32_t> position(n, static_cast<int32_t>(n));
  for (size_t pos = 0; pos < order.size(); ++pos)
    position[reduced.original[order[pos]]] = static_cast<int32_t>(pos);
  // Free sources waiting for the position of their first successor.
  std::vector<std::vector<TaskId>> before(order.size() + 1);
  for (TaskId task : reduced.freeTasks) {
    int32_t first = static_cast<int32_t>(order.size());
    for (TaskId succ : problem.successors(task))
      first = std::min(first, position[succ]);
    if (problem.successors(task).empty())
      first = 0;
    before[first].push_back(task);
  }
  std::vector<TaskId> expanded;
  expanded.reserve(n);
  for (size_t pos = 0; pos <= order.size(); ++pos) {
    expanded.insert(expanded.end(), before[pos].begin(), before[pos].end());
    if (pos < order.size())
      expanded.push_back(reduced.original[order[pos]]);
  }
  return expanded;
}

std::vector<TaskId> mlir::memsched::scheduling::detail::restrictOrder(
    const ReducedProblem &reduced, const std::vector<TaskId> &order) {
  std::vector<TaskId> newId(order.size(), kNoId);
  for (size_t id = 0; id < reduced.original.size(); ++id)
    newId[reduced.original[id]] = static_cast<TaskId>(id);
  std::vector<TaskId> restricted;
  restricted.reserve(reduced.original.size());
  for (TaskId task : order)
    if (newId[task] != kNoId)
      restricted.push_back(newId[task]);
  return restricted;
}
