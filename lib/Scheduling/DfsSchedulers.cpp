//===- DfsSchedulers.cpp - Depth-first schedulers of XLA and Inductor -----===//
//
// This file reimplements the depth-first orders of production compilers on
// memsched's memory model: a plain post-order (XLA's PostOrderScheduler),
// XLA's DFSMemoryScheduler and Inductor's DFS sort. All three emit a task
// after every predecessor, so the result is a topological order.
//
//===----------------------------------------------------------------------===//

#include "ScheduleGraph.h"
#include "memsched/Scheduling/Reorder.h"

#include <algorithm>
#include <limits>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail;

namespace {
/// Post-order DFS over predecessors, iterative so that deep graphs cannot
/// overflow the stack. `roots` are visited in the given order, and each
/// task's predecessors in the order `sortPreds` leaves them in.
template <typename SortPreds>
std::vector<TaskId> depthFirstPostorder(const ScheduleGraph &graph,
                                        const std::vector<int32_t> &roots,
                                        SortPreds sortPreds) {
  int32_t n = graph.numTasks();
  std::vector<uint8_t> state(n, 0); // 0 unvisited, 1 on stack, 2 emitted.
  std::vector<TaskId> order;
  order.reserve(n);
  struct Frame {
    int32_t task;
    std::vector<int32_t> preds;
    size_t next = 0;
  };
  std::vector<Frame> stack;
  auto open = [&](int32_t task) {
    Frame frame{task, {}, 0};
    IdRange preds = graph.preds(task);
    frame.preds.assign(preds.begin(), preds.end());
    sortPreds(frame.preds);
    state[task] = 1;
    stack.push_back(std::move(frame));
  };
  for (int32_t root : roots) {
    if (state[root] != 0)
      continue;
    open(root);
    while (!stack.empty()) {
      Frame &top = stack.back();
      if (top.next < top.preds.size()) {
        int32_t pred = top.preds[top.next++];
        if (state[pred] == 0)
          open(pred);
        continue;
      }
      state[top.task] = 2;
      order.push_back(top.task);
      stack.pop_back();
    }
  }
  return order;
}

/// Sinks (tasks without successors) in program order, then every other task
/// so that nothing is missed.
std::vector<int32_t> sinksFirst(const ScheduleGraph &graph) {
  std::vector<int32_t> roots;
  for (int32_t task = 0; task < graph.numTasks(); ++task)
    if (graph.succs(task).empty())
      roots.push_back(task);
  for (int32_t task = 0; task < graph.numTasks(); ++task)
    if (!graph.succs(task).empty())
      roots.push_back(task);
  return roots;
}

int64_t saturatingAdd(int64_t a, int64_t b) {
  constexpr int64_t kCap = std::numeric_limits<int64_t>::max() / 4;
  return std::min(kCap, a + b);
}
} // namespace

std::vector<TaskId>
mlir::memsched::scheduling::schedulePostorder(const Problem &problem) {
  ScheduleGraph graph(problem);
  return depthFirstPostorder(graph, sinksFirst(graph),
                             [](std::vector<int32_t> &) {});
}

std::vector<TaskId>
mlir::memsched::scheduling::scheduleXlaDfs(const Problem &problem) {
  ScheduleGraph graph(problem);
  int32_t n = graph.numTasks();
  // The bytes a task defines: buffers it is the first user of in program
  // order. Transitive sums double-count shared ancestors, as in XLA, and
  // saturate instead of overflowing.
  std::vector<int64_t> extraUsers(n, 0), totalBytes(n, 0);
  for (int32_t buffer = 0; buffer < graph.numBuffers(); ++buffer)
    totalBytes[*graph.users(buffer).begin()] += graph.bufferBytes(buffer);
  for (int32_t task : graph.topologicalOrder()) {
    size_t users = graph.succs(task).size();
    extraUsers[task] = users == 0 ? 0 : static_cast<int64_t>(users) - 1;
    for (int32_t pred : graph.preds(task)) {
      extraUsers[task] = saturatingAdd(extraUsers[task], extraUsers[pred]);
      totalBytes[task] = saturatingAdd(totalBytes[task], totalBytes[pred]);
    }
  }
  return depthFirstPostorder(
      graph, sinksFirst(graph), [&](std::vector<int32_t> &preds) {
        std::stable_sort(preds.begin(), preds.end(), [&](int32_t a, int32_t b) {
          if (extraUsers[a] != extraUsers[b])
            return extraUsers[a] > extraUsers[b];
          if (totalBytes[a] != totalBytes[b])
            return totalBytes[a] > totalBytes[b];
          return a < b;
        });
      });
}

std::vector<TaskId>
mlir::memsched::scheduling::scheduleInductorDfs(const Problem &problem) {
  ScheduleGraph graph(problem);
  int32_t n = graph.numTasks();
  std::vector<int64_t> bytes(n);
  for (int32_t task = 0; task < n; ++task)
    bytes[task] = graph.footprint(task);
  auto bySize = [&](std::vector<int32_t> &tasks) {
    std::stable_sort(tasks.begin(), tasks.end(), [&](int32_t a, int32_t b) {
      return bytes[a] != bytes[b] ? bytes[a] < bytes[b] : a < b;
    });
  };
  std::vector<int32_t> roots(n);
  for (int32_t task = 0; task < n; ++task)
    roots[task] = task;
  bySize(roots);
  return depthFirstPostorder(graph, roots, bySize);
}
