//===- TreeSchedulers.cpp - Liu's traversals of in- and out-trees ---------===//
//
// This file implements the two tree algorithms of Liu: the best post-order
// (1986), which orders subtrees by non-increasing peak minus residual, and the
// optimal traversal (1987), which cuts every subtree's schedule into
// hill-valley segments and merges the children's segments by non-increasing
// hill minus valley. Out-trees are solved as the in-tree with every edge
// reversed: reversing an order maps each buffer's live interval onto an
// interval of the same steps, so the peak is unchanged.
//
//===----------------------------------------------------------------------===//

#include "ScheduleGraph.h"
#include "memsched/Scheduling/Reorder.h"

#include <algorithm>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail;

namespace {
/// A problem in Liu's in-tree model: task i runs with the outputs of its
/// children, its own extra memory and its output live; afterwards only its
/// output remains.
struct InTreeModel {
  std::vector<std::vector<int32_t>> children;
  /// Tasks without a parent.
  std::vector<int32_t> roots;
  /// Bytes that stay live after a task until its parent runs (or to the end,
  /// for a root's escaping buffers).
  std::vector<int64_t> output;
  /// Workspace plus buffers used by the task alone.
  std::vector<int64_t> extra;
  /// Children before parents.
  std::vector<int32_t> postorder;
};

/// Builds the in-tree model of `graph`, or of its reverse if `reversed`
/// (then each task's parent is its predecessor). Fails if the graph does not
/// fit the model.
std::optional<InTreeModel> buildInTreeModel(const ScheduleGraph &graph,
                                            bool reversed) {
  int32_t n = graph.numTasks();
  std::vector<int32_t> parent(n, -1);
  for (int32_t task = 0; task < n; ++task) {
    IdRange up = reversed ? graph.preds(task) : graph.succs(task);
    if (up.size() > 1)
      return std::nullopt;
    if (!up.empty())
      parent[task] = *up.begin();
  }

  InTreeModel model;
  model.children.resize(n);
  model.output.assign(n, 0);
  model.extra.assign(n, 0);
  for (int32_t task = 0; task < n; ++task) {
    model.extra[task] = graph.workspaceBytes(task);
    if (parent[task] < 0)
      model.roots.push_back(task);
    else
      model.children[parent[task]].push_back(task);
  }
  for (int32_t buffer = 0; buffer < graph.numBuffers(); ++buffer) {
    IdRange users = graph.users(buffer);
    int64_t bytes = graph.bufferBytes(buffer);
    bool escapes = graph.escapes(buffer);
    if (users.size() == 1) {
      int32_t task = *users.begin();
      if (!escapes) {
        model.extra[task] += bytes;
      } else if (!reversed && parent[task] < 0) {
        // A root's escaping buffer stays live from the root to the end.
        model.output[task] += bytes;
      } else {
        return std::nullopt;
      }
      continue;
    }
    if (users.size() != 2 || escapes)
      return std::nullopt;
    int32_t a = users.begin()[0], b = users.begin()[1];
    if (parent[a] == b)
      model.output[a] += bytes;
    else if (parent[b] == a)
      model.output[b] += bytes;
    else
      return std::nullopt;
  }

  const std::vector<int32_t> &topo = graph.topologicalOrder();
  model.postorder = topo;
  if (reversed)
    std::reverse(model.postorder.begin(), model.postorder.end());
  return model;
}

/// The model of whichever orientation fits, and whether it is reversed.
std::optional<std::pair<InTreeModel, bool>>
buildAnyTreeModel(const ScheduleGraph &graph) {
  if (std::optional<InTreeModel> model = buildInTreeModel(graph, false))
    return std::make_pair(std::move(*model), false);
  if (std::optional<InTreeModel> model = buildInTreeModel(graph, true))
    return std::make_pair(std::move(*model), true);
  return std::nullopt;
}

/// One step of a subtree schedule, with memory measured from the subtree's
/// start.
struct Step {
  int32_t task;
  int64_t peak;
  int64_t residual;
};

/// A hill-valley segment: steps [begin, end) peak at `hill` and leave
/// `valley` live.
struct Segment {
  int64_t hill;
  int64_t valley;
  int32_t begin;
  int32_t end;
};

struct SubtreeSchedule {
  std::vector<Step> steps;
  std::vector<Segment> segments;
};

/// Liu's canonical decomposition: the first segment runs to the last point
/// of lowest residual after the first highest peak, and so on, so hills do
/// not increase and valleys strictly increase along the schedule.
std::vector<Segment> decompose(const std::vector<Step> &steps) {
  int32_t len = static_cast<int32_t>(steps.size());
  std::vector<int32_t> firstMax(len), lastMin(len);
  for (int32_t t = len - 1; t >= 0; --t) {
    bool last = t == len - 1;
    firstMax[t] = last || steps[t].peak >= steps[firstMax[t + 1]].peak
                      ? t
                      : firstMax[t + 1];
    lastMin[t] = last || steps[t].residual < steps[lastMin[t + 1]].residual
                     ? t
                     : lastMin[t + 1];
  }
  std::vector<Segment> segments;
  for (int32_t begin = 0; begin < len;) {
    int32_t hill = firstMax[begin];
    int32_t valley = lastMin[hill];
    segments.push_back(
        {steps[hill].peak, steps[valley].residual, begin, valley + 1});
    begin = valley + 1;
  }
  return segments;
}

/// Interleaves the children's schedules segment by segment, by
/// non-increasing hill minus valley; each step is offset by what the other
/// children leave live at that point.
std::vector<Step> mergeChildren(std::vector<SubtreeSchedule *> &children) {
  if (children.size() == 1)
    return std::move(children.front()->steps);
  struct Ref {
    int64_t key;
    int32_t child;
    int32_t segment;
  };
  std::vector<Ref> refs;
  size_t total = 0;
  for (int32_t c = 0; c < static_cast<int32_t>(children.size()); ++c) {
    total += children[c]->steps.size();
    for (int32_t s = 0; s < static_cast<int32_t>(children[c]->segments.size());
         ++s) {
      const Segment &seg = children[c]->segments[s];
      refs.push_back({seg.hill - seg.valley, c, s});
    }
  }
  std::stable_sort(refs.begin(), refs.end(),
                   [](const Ref &a, const Ref &b) { return a.key > b.key; });
  std::vector<Step> merged;
  merged.reserve(total);
  std::vector<int64_t> current(children.size(), 0);
  int64_t residual = 0;
  for (const Ref &ref : refs) {
    const SubtreeSchedule &child = *children[ref.child];
    const Segment &seg = child.segments[ref.segment];
    int64_t offset = residual - current[ref.child];
    for (int32_t t = seg.begin; t < seg.end; ++t)
      merged.push_back({child.steps[t].task, child.steps[t].peak + offset,
                        child.steps[t].residual + offset});
    current[ref.child] = seg.valley;
    residual = offset + seg.valley;
  }
  return merged;
}

std::vector<TaskId> finishOrder(std::vector<int32_t> order, bool reversed) {
  if (reversed)
    std::reverse(order.begin(), order.end());
  return std::vector<TaskId>(order.begin(), order.end());
}
} // namespace

TreeKind mlir::memsched::scheduling::classifyTree(const Problem &problem) {
  ScheduleGraph graph(problem);
  if (buildInTreeModel(graph, false))
    return TreeKind::InTree;
  if (buildInTreeModel(graph, true))
    return TreeKind::OutTree;
  return TreeKind::NotATree;
}

std::optional<std::vector<TaskId>>
mlir::memsched::scheduling::scheduleLiuOptimal(const Problem &problem) {
  ScheduleGraph graph(problem);
  std::optional<std::pair<InTreeModel, bool>> found = buildAnyTreeModel(graph);
  if (!found)
    return std::nullopt;
  const InTreeModel &model = found->first;
  int32_t n = graph.numTasks();

  std::vector<SubtreeSchedule> schedules(n);
  std::vector<SubtreeSchedule *> children;
  for (int32_t task : model.postorder) {
    SubtreeSchedule &schedule = schedules[task];
    int64_t childOutputs = 0;
    children.clear();
    for (int32_t child : model.children[task]) {
      children.push_back(&schedules[child]);
      childOutputs += model.output[child];
    }
    if (!children.empty())
      schedule.steps = mergeChildren(children);
    for (SubtreeSchedule *child : children)
      *child = SubtreeSchedule();
    int64_t out = model.output[task];
    schedule.steps.push_back(
        {task, childOutputs + model.extra[task] + out, out});
    schedule.segments = decompose(schedule.steps);
  }

  // A forest: the roots are merged as the children of a virtual root.
  std::vector<int32_t> order;
  children.clear();
  for (int32_t root : model.roots)
    children.push_back(&schedules[root]);
  if (!children.empty())
    for (const Step &step : mergeChildren(children))
      order.push_back(step.task);
  return finishOrder(std::move(order), found->second);
}

std::optional<std::vector<TaskId>>
mlir::memsched::scheduling::scheduleLiuPostorder(const Problem &problem) {
  ScheduleGraph graph(problem);
  std::optional<std::pair<InTreeModel, bool>> found = buildAnyTreeModel(graph);
  if (!found)
    return std::nullopt;
  InTreeModel &model = found->first;
  int32_t n = graph.numTasks();

  // Peak of each subtree's best post-order, with the children sorted by
  // non-increasing peak minus output.
  std::vector<int64_t> peak(n, 0);
  auto sortChildren = [&](std::vector<int32_t> &children) {
    std::stable_sort(
        children.begin(), children.end(), [&](int32_t a, int32_t b) {
          return peak[a] - model.output[a] > peak[b] - model.output[b];
        });
  };
  for (int32_t task : model.postorder) {
    std::vector<int32_t> &children = model.children[task];
    sortChildren(children);
    int64_t before = 0, best = 0;
    for (int32_t child : children) {
      best = std::max(best, before + peak[child]);
      before += model.output[child];
    }
    peak[task] =
        std::max(best, before + model.extra[task] + model.output[task]);
  }
  sortChildren(model.roots);

  // Emit each subtree after its children, children in sorted order.
  std::vector<int32_t> order;
  order.reserve(n);
  std::vector<std::pair<int32_t, size_t>> stack;
  for (int32_t root : model.roots) {
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto &[task, next] = stack.back();
      if (next < model.children[task].size()) {
        int32_t child = model.children[task][next++];
        stack.push_back({child, 0});
        continue;
      }
      order.push_back(task);
      stack.pop_back();
    }
  }
  return finishOrder(std::move(order), found->second);
}
