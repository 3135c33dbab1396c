//===- ListSchedulers.cpp - Greedy list schedulers of XLA and Inductor ----===//
//
// This file reimplements, on memsched's memory model, the greedy list
// schedulers of production compilers: XLA's ListMemoryScheduler, and
// Inductor's least-peak-memory-first and BFS sorts. They serve both as
// baselines in the benchmarks and as candidates inside `auto`.
//
//===----------------------------------------------------------------------===//

#include "ScheduleGraph.h"
#include "memsched/Scheduling/Reorder.h"

#include <algorithm>
#include <queue>
#include <set>
#include <tuple>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail;

namespace {
/// Ready-set bookkeeping shared by the list schedulers: indegrees, plus the
/// tasks whose allocated/freed bytes changed because a buffer they touch was
/// allocated or reached its last user.
class ReadyTracker {
public:
  explicit ReadyTracker(const ScheduleGraph &graph)
      : graph(graph), memory(graph), indegree(graph.numTasks()),
        scheduled(graph.numTasks(), false) {
    for (int32_t task = 0; task < graph.numTasks(); ++task)
      indegree[task] = static_cast<int32_t>(graph.preds(task).size());
  }

  bool isReady(int32_t task) const {
    return !scheduled[task] && indegree[task] == 0;
  }

  /// Runs `task`; appends newly ready tasks to `newlyReady` and ready tasks
  /// whose allocated or freed bytes changed to `changed`.
  void schedule(int32_t task, std::vector<int32_t> &newlyReady,
                std::vector<int32_t> &changed) {
    scheduled[task] = true;
    for (int32_t buffer : graph.buffers(task)) {
      int32_t users = static_cast<int32_t>(graph.users(buffer).size());
      int32_t before = memory.remainingUsers(buffer);
      // First use: the other users no longer allocate it. Down to one user
      // left: that user now frees it.
      if (before == users || before == 2)
        for (int32_t user : graph.users(buffer))
          if (user != task && isReady(user))
            changed.push_back(user);
    }
    memory.schedule(task);
    for (int32_t succ : graph.succs(task))
      if (--indegree[succ] == 0)
        newlyReady.push_back(succ);
  }

  const MemoryTracker &getMemory() const { return memory; }

private:
  const ScheduleGraph &graph;
  MemoryTracker memory;
  std::vector<int32_t> indegree;
  std::vector<bool> scheduled;
};

std::vector<TaskId> toTaskIds(const std::vector<int32_t> &order) {
  return std::vector<TaskId>(order.begin(), order.end());
}
} // namespace

std::vector<TaskId>
mlir::memsched::scheduling::scheduleXlaList(const Problem &problem) {
  ScheduleGraph graph(problem);
  int32_t n = graph.numTasks();
  ReadyTracker ready(graph);

  // Max-heap on (bytes freed - bytes allocated, successors, -id); entries go
  // stale when a task's priority changes and are skipped by version.
  using Entry = std::tuple<int64_t, int32_t, int32_t, int32_t>;
  std::priority_queue<Entry> heap;
  std::vector<int32_t> version(n, 0);
  auto push = [&](int32_t task) {
    const MemoryTracker &memory = ready.getMemory();
    int64_t gain = memory.freedBy(task) - memory.allocatedBy(task);
    heap.emplace(gain, static_cast<int32_t>(graph.succs(task).size()), -task,
                 ++version[task]);
  };
  for (int32_t task = 0; task < n; ++task)
    if (ready.isReady(task))
      push(task);

  std::vector<int32_t> order, newlyReady, changed;
  order.reserve(n);
  while (!heap.empty()) {
    auto [gain, succs, negTask, entryVersion] = heap.top();
    heap.pop();
    int32_t task = -negTask;
    if (entryVersion != version[task] || !ready.isReady(task))
      continue;
    order.push_back(task);
    newlyReady.clear();
    changed.clear();
    ready.schedule(task, newlyReady, changed);
    for (int32_t other : changed)
      push(other);
    for (int32_t other : newlyReady)
      push(other);
  }
  return toTaskIds(order);
}

std::vector<TaskId>
mlir::memsched::scheduling::scheduleInductorLpmf(const Problem &problem) {
  ScheduleGraph graph(problem);
  int32_t n = graph.numTasks();
  ReadyTracker ready(graph);

  // The key is (max(live + c, peak so far), d, id) with c = allocated +
  // workspace and d = allocated - freed. All tasks with c <= peak - live tie
  // on the first component, so the choice is: the smallest (d, id) among
  // those if there is one, else the smallest (c, d, id). Two ordered sets
  // answer both without scanning the whole ready list.
  struct Key {
    int64_t c, d;
  };
  std::vector<Key> keys(n);
  std::set<std::tuple<int64_t, int64_t, int32_t>> byC;
  std::set<std::tuple<int64_t, int32_t, int64_t>> byD;
  auto insert = [&](int32_t task) {
    const MemoryTracker &memory = ready.getMemory();
    int64_t allocated = memory.allocatedBy(task);
    keys[task] = {allocated + graph.workspaceBytes(task),
                  allocated - memory.freedBy(task)};
    byC.emplace(keys[task].c, keys[task].d, task);
    byD.emplace(keys[task].d, task, keys[task].c);
  };
  auto erase = [&](int32_t task) {
    byC.erase({keys[task].c, keys[task].d, task});
    byD.erase({keys[task].d, task, keys[task].c});
  };
  for (int32_t task = 0; task < n; ++task)
    if (ready.isReady(task))
      insert(task);

  std::vector<int32_t> order, newlyReady, changed;
  order.reserve(n);
  int64_t peak = 0;
  while (!byC.empty()) {
    int64_t slack = peak - ready.getMemory().liveBytes();
    int32_t task;
    if (std::get<0>(*byC.begin()) > slack) {
      task = std::get<2>(*byC.begin());
    } else {
      auto it = byD.begin();
      while (std::get<2>(*it) > slack)
        ++it;
      task = std::get<1>(*it);
    }
    erase(task);
    order.push_back(task);
    newlyReady.clear();
    changed.clear();
    peak = std::max(peak, ready.getMemory().stepPeak(task));
    ready.schedule(task, newlyReady, changed);
    for (int32_t other : changed) {
      erase(other);
      insert(other);
    }
    for (int32_t other : newlyReady)
      insert(other);
  }
  return toTaskIds(order);
}

std::vector<TaskId>
mlir::memsched::scheduling::scheduleInductorBfs(const Problem &problem) {
  ScheduleGraph graph(problem);
  int32_t n = graph.numTasks();
  std::vector<int32_t> indegree(n), position(n, -1);
  // A ready task's key is the list of its predecessors' positions, latest
  // first; it is fixed once the task is ready.
  using Key = std::pair<std::vector<int32_t>, int32_t>;
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> heap;
  for (int32_t task = 0; task < n; ++task) {
    indegree[task] = static_cast<int32_t>(graph.preds(task).size());
    if (indegree[task] == 0)
      heap.emplace(std::vector<int32_t>(), task);
  }
  std::vector<TaskId> order;
  order.reserve(n);
  while (!heap.empty()) {
    int32_t task = heap.top().second;
    heap.pop();
    position[task] = static_cast<int32_t>(order.size());
    order.push_back(task);
    for (int32_t succ : graph.succs(task)) {
      if (--indegree[succ] != 0)
        continue;
      std::vector<int32_t> key;
      for (int32_t pred : graph.preds(succ))
        key.push_back(position[pred]);
      std::sort(key.begin(), key.end(), std::greater<int32_t>());
      heap.emplace(std::move(key), succ);
    }
  }
  return order;
}
