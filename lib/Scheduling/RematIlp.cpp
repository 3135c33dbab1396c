//===- RematIlp.cpp - Checkmate's ILP as a plan of memsched-remat ---------===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "RematIlp.h"

#include "SetError.h"
#include "memsched/Scheduling/CheckmateIlp.h"
#include "memsched/Scheduling/MemorySimulator.h"

#include <algorithm>

using namespace mlir::memsched::scheduling;
using mlir::memsched::scheduling::detail::setError;

std::optional<RematGraph>
mlir::memsched::scheduling::detail::getTaskGraph(const Problem &problem,
                                                 std::string *reason) {
  auto fail = [&](std::string message) -> std::optional<RematGraph> {
    setError(reason, std::move(message));
    return std::nullopt;
  };
  size_t numTasks = problem.numTasks();
  // The transient buffers each task defines, and whether it writes resident
  // state.
  std::vector<int64_t> definedBytes(numTasks, 0);
  std::vector<char> writesResident(numTasks, 0), definesEscaping(numTasks, 0);
  std::vector<TaskId> definerOf(problem.numBuffers(), kNoId);
  std::vector<bool> escaping = problem.escapingBuffers();
  for (size_t v = 0; v < problem.numValues(); ++v) {
    const Value &value = problem.value(static_cast<ValueId>(v));
    if (value.definedBy == kNoId)
      continue;
    TaskId task = value.definedBy;
    if (problem.buffer(value.buffer).kind != BufferKind::Transient) {
      writesResident[task] = 1;
      continue;
    }
    if (definerOf[value.buffer] == task)
      continue;
    if (definerOf[value.buffer] != kNoId)
      return fail("a buffer is written by two tasks");
    definerOf[value.buffer] = task;
    definedBytes[task] += problem.buffer(value.buffer).sizeBytes;
    definesEscaping[task] |= escaping[value.buffer] ? 1 : 0;
  }

  RematGraph graph;
  graph.nodes.resize(numTasks);
  for (size_t t = 0; t < numTasks; ++t) {
    const Task &task = problem.task(static_cast<TaskId>(t));
    RematNode &node = graph.nodes[t];
    node.name = task.name;
    node.duration = task.duration;
    if (task.isFence || writesResident[t]) {
      // Never recomputed: kept (an empty node costs nothing kept).
      if (definedBytes[t] > 0)
        return fail("task '" + problem.describeTask(static_cast<TaskId>(t)) +
                    "' has side effects and defines a transient buffer");
      node.keepToEnd = true;
      continue;
    }
    // A task defining several buffers is one node of their total size: no
    // buffer outlives the node's instance, so the ILP's peak bounds the
    // plan's.
    node.sizeBytes = definedBytes[t];
    node.keepToEnd = definesEscaping[t];
  }
  for (size_t v = 0; v < problem.numValues(); ++v) {
    const Value &value = problem.value(static_cast<ValueId>(v));
    if (value.definedBy == kNoId ||
        problem.buffer(value.buffer).kind != BufferKind::Transient)
      continue;
    for (TaskId reader : value.consumers) {
      if (reader == value.definedBy)
        continue;
      if (reader < value.definedBy)
        return fail("a task reads a value defined after it");
      std::vector<NodeId> &inputs = graph.nodes[reader].inputs;
      if (std::find(inputs.begin(), inputs.end(), value.definedBy) ==
          inputs.end())
        inputs.push_back(value.definedBy);
    }
  }
  for (RematNode &node : graph.nodes)
    std::sort(node.inputs.begin(), node.inputs.end());
  return graph;
}

std::optional<RematPlan> mlir::memsched::scheduling::detail::getPlanOfSequence(
    const Problem &problem, const std::vector<NodeId> &sequence,
    std::string *error) {
  int32_t numTasks = static_cast<int32_t>(problem.numTasks());
  // Distinct values each task reads that another task defines.
  std::vector<std::vector<ValueId>> reads(numTasks);
  for (size_t v = 0; v < problem.numValues(); ++v) {
    const Value &value = problem.value(static_cast<ValueId>(v));
    if (value.definedBy == kNoId)
      continue;
    for (TaskId reader : value.consumers) {
      std::vector<ValueId> &list = reads[reader];
      if (reader != value.definedBy &&
          std::find(list.begin(), list.end(), static_cast<ValueId>(v)) ==
              list.end())
        list.push_back(static_cast<ValueId>(v));
    }
  }

  // The tasks writing into each buffer, in program order (several in an
  // in-place chain): a clone may read an original value only while no later
  // write into its buffer has run.
  std::vector<std::vector<TaskId>> writers(problem.numBuffers());
  for (size_t v = 0; v < problem.numValues(); ++v)
    if (TaskId producer = problem.value(static_cast<ValueId>(v)).producer;
        producer != kNoId)
      writers[problem.value(static_cast<ValueId>(v)).buffer].push_back(
          producer);
  for (std::vector<TaskId> &list : writers)
    std::sort(list.begin(), list.end());
  auto overwrittenBefore = [&](ValueId v, TaskId task) {
    const Value &value = problem.value(v);
    const std::vector<TaskId> &list = writers[value.buffer];
    auto next = std::upper_bound(list.begin(), list.end(), value.definedBy);
    return next != list.end() && *next < task;
  };

  RematPlan plan;
  // The latest run of each task: -1 for the original, else a clone index.
  std::vector<int32_t> latest(numTasks, -1);
  std::vector<char> started(numTasks, 0);
  std::vector<TaskId> pendingClones;
  TaskId nextFirst = 0;
  auto readAll = [&](int32_t reader, TaskId task) {
    for (ValueId v : reads[task])
      if (int32_t copy = latest[problem.value(v).definedBy]; copy >= 0)
        plan.redirects.push_back({reader, v, copy});
  };
  for (NodeId node : sequence) {
    if (node < 0 || node >= numTasks) {
      setError(error, "the sequence names an unknown task");
      return std::nullopt;
    }
    if (started[node]) {
      // The clone runs before the next first run, nextFirst.
      for (ValueId v : reads[node])
        if (latest[problem.value(v).definedBy] < 0 &&
            overwrittenBefore(v, nextFirst)) {
          setError(error, "a clone reads a value an in-place write has "
                          "overwritten");
          return std::nullopt;
        }
      int32_t clone = static_cast<int32_t>(plan.clones.size());
      // Inserted before the next first run, fixed below.
      plan.clones.push_back({node, kNoId});
      pendingClones.push_back(clone);
      readAll(numTasks + clone, node);
      latest[node] = clone;
      plan.recomputeSeconds += problem.task(node).duration;
      continue;
    }
    if (node != nextFirst) {
      setError(error, "the first runs of the tasks are not in program order");
      return std::nullopt;
    }
    for (int32_t clone : pendingClones)
      plan.clones[clone].insertBefore = node;
    pendingClones.clear();
    readAll(node, node);
    started[node] = 1;
    ++nextFirst;
  }
  if (nextFirst != numTasks || !pendingClones.empty()) {
    setError(error, "the sequence does not end with the first run of the "
                    "last task");
    return std::nullopt;
  }
  // The buffers of the recomputed tasks.
  std::vector<char> cloned(numTasks, 0);
  for (const RematClone &clone : plan.clones)
    cloned[clone.task] = 1;
  for (size_t v = 0; v < problem.numValues(); ++v)
    if (TaskId task = problem.value(static_cast<ValueId>(v)).definedBy;
        task != kNoId && cloned[task])
      plan.droppedBuffers.push_back(
          problem.value(static_cast<ValueId>(v)).buffer);
  std::sort(plan.droppedBuffers.begin(), plan.droppedBuffers.end());
  plan.droppedBuffers.erase(
      std::unique(plan.droppedBuffers.begin(), plan.droppedBuffers.end()),
      plan.droppedBuffers.end());
  return plan;
}

bool mlir::memsched::scheduling::detail::measurePlan(const Problem &problem,
                                                     RematPlan &plan,
                                                     int64_t budget,
                                                     bool escapingWhole) {
  std::optional<RematExpansion> expansion = expandRematPlan(problem, plan);
  if (!expansion)
    return false;
  std::optional<MemoryProfile> profile =
      simulateRematExpansion(*expansion, escapingWhole);
  if (!profile)
    return false;
  plan.peakTransientAfter = profile->peakTransientBytes;
  plan.withinBudget = profile->peakTransientBytes <= budget;
  plan.smallestPeakTransient = profile->peakTransientBytes;
  return true;
}

std::optional<RematPlan> mlir::memsched::scheduling::detail::planRematByIlp(
    const Problem &problem, int64_t budget, int64_t maxNodes,
    double timeLimitSeconds, const RematPlan *start, bool escapingWhole) {
  std::optional<RematGraph> graph = getTaskGraph(problem);
  if (!graph)
    return std::nullopt;
  CheckmateOptions options;
  options.maxNodes = maxNodes;
  options.timeLimitSeconds = timeLimitSeconds;
  // The start's run sequence: its expanded order, task by task.
  if (start)
    if (std::optional<RematExpansion> expansion =
            expandRematPlan(problem, *start))
      options.startSequences.push_back(std::move(expansion->originOf));
  // Workspaces (and escaping buffers before they are made, with
  // escapingWhole) are outside the ILP's accounting: a plan over the budget
  // by them is solved again under a budget lowered by its excess.
  constexpr int kMaxSolves = 3;
  int64_t ilpBudget = budget;
  for (int solve = 0; solve < kMaxSolves && ilpBudget >= 0; ++solve) {
    std::optional<CheckmateResult> result =
        solveCheckmateIlp(*graph, ilpBudget, options);
    if (!result || result->sequence.empty())
      return std::nullopt;
    std::optional<RematPlan> plan =
        getPlanOfSequence(problem, result->sequence);
    if (!plan || !measurePlan(problem, *plan, budget, escapingWhole))
      return std::nullopt;
    plan->algorithm = "ilp";
    if (plan->withinBudget)
      return plan;
    ilpBudget -= plan->peakTransientAfter - budget;
  }
  return std::nullopt;
}
