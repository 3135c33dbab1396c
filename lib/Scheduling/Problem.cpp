//===- Problem.cpp - Scheduling problem for memory-aware ordering ---------===//
//
// This file implements the scheduling problem: construction, the lazily
// derived dependence graph, order checking and verification. Every graph walk
// is iterative because real problems are chains 100k tasks deep.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Problem.h"
#include "SetError.h"

#include <algorithm>
#include <cassert>
#include <cmath>

using namespace mlir::memsched::scheduling;
using mlir::memsched::scheduling::detail::setError;

namespace {
bool inRange(int32_t id, size_t size) {
  return id >= 0 && static_cast<size_t>(id) < size;
}

/// Sorts and deduplicates \p ids in place.
void sortUnique(std::vector<int32_t> &ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}
} // namespace

TaskId Problem::addTask(Task task) {
  invalidate();
  tasks.push_back(std::move(task));
  return static_cast<TaskId>(tasks.size() - 1);
}

void Problem::resizeForRebuild(size_t numTasks, size_t numBuffers,
                               size_t numValues) {
  invalidate();
  tasks.resize(numTasks);
  buffers.resize(numBuffers);
  values.resize(numValues);
  extraEdges.clear();
}

BufferId Problem::addBuffer(Buffer buffer) {
  invalidate();
  buffers.push_back(std::move(buffer));
  return static_cast<BufferId>(buffers.size() - 1);
}

ValueId Problem::addValue(Value value) {
  invalidate();
  // A written value is defined by its writer unless said otherwise.
  if (value.definedBy == kNoId)
    value.definedBy = value.producer;
  values.push_back(std::move(value));
  return static_cast<ValueId>(values.size() - 1);
}

void Problem::addConsumer(ValueId value, TaskId task) {
  assert(inRange(value, values.size()) && "value id out of range");
  invalidate();
  values[value].consumers.push_back(task);
}

void Problem::addDependence(TaskId before, TaskId after) {
  invalidate();
  extraEdges.emplace_back(before, after);
}

const Task &Problem::task(TaskId id) const {
  assert(inRange(id, tasks.size()) && "task id out of range");
  return tasks[id];
}

Task &Problem::task(TaskId id) {
  assert(inRange(id, tasks.size()) && "task id out of range");
  invalidate();
  return tasks[id];
}

const Buffer &Problem::buffer(BufferId id) const {
  assert(inRange(id, buffers.size()) && "buffer id out of range");
  return buffers[id];
}

Buffer &Problem::buffer(BufferId id) {
  assert(inRange(id, buffers.size()) && "buffer id out of range");
  invalidate();
  return buffers[id];
}

const Value &Problem::value(ValueId id) const {
  assert(inRange(id, values.size()) && "value id out of range");
  return values[id];
}

Value &Problem::value(ValueId id) {
  assert(inRange(id, values.size()) && "value id out of range");
  invalidate();
  return values[id];
}

void Problem::finalize() const { ensureDerived(); }

void Problem::ensureDerived() const {
  if (derivedValid)
    return;
  size_t n = tasks.size();
  preds.assign(n, {});
  succs.assign(n, {});
  bufferUses.assign(n, {});

  // Out-of-range ids are skipped rather than asserted on so that verify()
  // can report them with a message instead of crashing first.
  for (const Value &v : values) {
    bool hasBuffer = inRange(v.buffer, buffers.size());
    bool hasProducer = inRange(v.producer, n);
    if (hasProducer && hasBuffer)
      bufferUses[v.producer].push_back(v.buffer);
    for (TaskId consumer : v.consumers) {
      if (!inRange(consumer, n))
        continue;
      if (hasBuffer)
        bufferUses[consumer].push_back(v.buffer);
      if (hasProducer && consumer != v.producer)
        preds[consumer].push_back(v.producer);
    }
  }
  for (auto [before, after] : extraEdges)
    if (inRange(before, n) && inRange(after, n) && before != after)
      preds[after].push_back(before);
  TaskId previousFence = kNoId;
  for (size_t id = 0; id < n; ++id) {
    if (!tasks[id].isFence)
      continue;
    if (previousFence != kNoId)
      preds[id].push_back(previousFence);
    previousFence = static_cast<TaskId>(id);
  }

  for (size_t id = 0; id < n; ++id) {
    sortUnique(preds[id]);
    sortUnique(bufferUses[id]);
  }
  // Visiting targets in increasing order leaves every successor list sorted.
  for (size_t id = 0; id < n; ++id)
    for (TaskId pred : preds[id])
      succs[pred].push_back(static_cast<TaskId>(id));
  derivedValid = true;
}

const std::vector<TaskId> &Problem::predecessors(TaskId id) const {
  assert(inRange(id, tasks.size()) && "task id out of range");
  ensureDerived();
  return preds[id];
}

const std::vector<TaskId> &Problem::successors(TaskId id) const {
  assert(inRange(id, tasks.size()) && "task id out of range");
  ensureDerived();
  return succs[id];
}

const std::vector<BufferId> &Problem::buffersUsedBy(TaskId id) const {
  assert(inRange(id, tasks.size()) && "task id out of range");
  ensureDerived();
  return bufferUses[id];
}

int64_t Problem::residentBytes() const {
  int64_t total = 0;
  for (const Buffer &b : buffers)
    if (b.kind == BufferKind::Resident)
      total += b.sizeBytes;
  return total;
}

Problem Problem::withEscapingResident() const {
  Problem copy = *this;
  std::vector<bool> escaping = escapingBuffers();
  for (size_t id = 0; id < buffers.size(); ++id)
    if (escaping[id])
      copy.buffer(static_cast<BufferId>(id)).kind = BufferKind::Resident;
  return copy;
}

std::vector<bool> Problem::escapingBuffers() const {
  std::vector<bool> escaping(buffers.size(), false);
  for (size_t id = 0; id < buffers.size(); ++id)
    escaping[id] = buffers[id].liveToEnd;
  for (const Value &v : values)
    if (v.liveToEnd)
      escaping[v.buffer] = true;
  return escaping;
}

std::vector<TaskId> Problem::programOrder() const {
  std::vector<TaskId> order(tasks.size());
  for (size_t id = 0; id < order.size(); ++id)
    order[id] = static_cast<TaskId>(id);
  return order;
}

std::string Problem::describeTask(TaskId id) const {
  if (inRange(id, tasks.size()) && !tasks[id].name.empty())
    return "'" + tasks[id].name + "'";
  return "#" + std::to_string(id);
}

bool Problem::isTopologicalOrder(const std::vector<TaskId> &order,
                                 std::string *why) const {
  size_t n = tasks.size();
  if (order.size() != n) {
    setError(why, "order has " + std::to_string(order.size()) +
                      " entries but the problem has " + std::to_string(n) +
                      " tasks");
    return false;
  }
  std::vector<int32_t> position(n, -1);
  for (size_t pos = 0; pos < n; ++pos) {
    TaskId id = order[pos];
    if (!inRange(id, n)) {
      setError(why, "order entry " + std::to_string(pos) + " is task id " +
                        std::to_string(id) + ", which is out of range");
      return false;
    }
    if (position[id] != -1) {
      setError(why, "task " + describeTask(id) + " appears twice in the order");
      return false;
    }
    position[id] = static_cast<int32_t>(pos);
  }
  // Edge by edge first, without building the derived lists: the planners
  // check an order per candidate plan of large problems. The lists name the
  // offending pair only where there is one.
  auto runsBefore = [&](TaskId after, TaskId before) {
    return inRange(after, n) && inRange(before, n) && after != before &&
           position[after] < position[before];
  };
  bool ordered = true;
  for (const Value &v : values)
    for (TaskId consumer : v.consumers)
      ordered &= !runsBefore(consumer, v.producer);
  for (auto [before, after] : extraEdges)
    ordered &= !runsBefore(after, before);
  TaskId previousFence = kNoId;
  for (size_t id = 0; id < n; ++id)
    if (tasks[id].isFence) {
      ordered &= !runsBefore(static_cast<TaskId>(id), previousFence);
      previousFence = static_cast<TaskId>(id);
    }
  if (ordered)
    return true;
  ensureDerived();
  for (size_t pos = 0; pos < n; ++pos) {
    TaskId id = order[pos];
    for (TaskId pred : preds[id]) {
      if (position[pred] < static_cast<int32_t>(pos))
        continue;
      setError(why, "task " + describeTask(id) + " at position " +
                        std::to_string(pos) + " runs before its predecessor " +
                        describeTask(pred) + " at position " +
                        std::to_string(position[pred]));
      return false;
    }
  }
  return true;
}

bool Problem::verifyReferences(std::string *error) const {
  size_t n = tasks.size();
  auto quoted = [](const std::string &name, int32_t id) {
    return name.empty() ? "#" + std::to_string(id) : "'" + name + "'";
  };
  for (size_t id = 0; id < n; ++id) {
    const Task &t = tasks[id];
    if (t.workspaceBytes < 0) {
      setError(error, "task " + describeTask(static_cast<TaskId>(id)) +
                          " has negative workspace size " +
                          std::to_string(t.workspaceBytes));
      return false;
    }
    // Written so that NaN fails too.
    if (!(t.duration >= 0.0) || !std::isfinite(t.duration)) {
      setError(error, "task " + describeTask(static_cast<TaskId>(id)) +
                          " has a negative or non-finite duration");
      return false;
    }
    for (auto [input, result] : t.inPlaceWrites)
      if (!inRange(input, values.size()) || !inRange(result, values.size())) {
        setError(error, "task " + describeTask(static_cast<TaskId>(id)) +
                            " names an in-place write of a value out of range");
        return false;
      }
  }
  for (size_t id = 0; id < buffers.size(); ++id) {
    const Buffer &b = buffers[id];
    if (b.sizeBytes < 0) {
      setError(error, "buffer " + quoted(b.name, static_cast<int32_t>(id)) +
                          " has negative size " + std::to_string(b.sizeBytes));
      return false;
    }
  }
  for (size_t id = 0; id < values.size(); ++id) {
    const Value &v = values[id];
    // Built on demand: this loop runs over every value of large problems.
    auto name = [&] { return quoted(v.name, static_cast<int32_t>(id)); };
    if (v.sizeBytes < 0) {
      setError(error, "value " + name() + " has negative size " +
                          std::to_string(v.sizeBytes));
      return false;
    }
    if (v.buffer == kNoId) {
      setError(error, "value " + name() + " has no buffer");
      return false;
    }
    if (!inRange(v.buffer, buffers.size())) {
      setError(error, "value " + name() + " refers to buffer id " +
                          std::to_string(v.buffer) + ", which is out of range");
      return false;
    }
    if (v.producer != kNoId && !inRange(v.producer, n)) {
      setError(error, "value " + name() + " has producer id " +
                          std::to_string(v.producer) +
                          ", which is out of range");
      return false;
    }
    for (TaskId consumer : v.consumers) {
      if (!inRange(consumer, n)) {
        setError(error, "value " + name() + " has consumer id " +
                            std::to_string(consumer) +
                            ", which is out of range");
        return false;
      }
      if (consumer == v.producer) {
        setError(error, "value " + name() +
                            " is consumed by its own producer " +
                            describeTask(consumer));
        return false;
      }
    }
  }
  for (auto [before, after] : extraEdges) {
    if (!inRange(before, n) || !inRange(after, n)) {
      setError(error, "dependence " + std::to_string(before) + " -> " +
                          std::to_string(after) +
                          " refers to a task id out of range");
      return false;
    }
  }
  return true;
}

bool Problem::verify(std::string *error) const {
  if (!verifyReferences(error))
    return false;

  // Kahn's algorithm; whatever it cannot schedule lies on or behind a cycle.
  ensureDerived();
  size_t n = tasks.size();
  std::vector<int32_t> pending(n);
  std::vector<TaskId> ready;
  for (size_t id = 0; id < n; ++id) {
    pending[id] = static_cast<int32_t>(preds[id].size());
    if (pending[id] == 0)
      ready.push_back(static_cast<TaskId>(id));
  }
  size_t scheduled = 0;
  while (!ready.empty()) {
    TaskId id = ready.back();
    ready.pop_back();
    ++scheduled;
    for (TaskId succ : succs[id])
      if (--pending[succ] == 0)
        ready.push_back(succ);
  }
  if (scheduled == n)
    return true;

  // Every unscheduled task has an unscheduled predecessor, so walking such
  // predecessors must revisit a task; the revisited stretch is a cycle.
  TaskId start = kNoId;
  for (size_t id = 0; id < n && start == kNoId; ++id)
    if (pending[id] > 0)
      start = static_cast<TaskId>(id);
  std::vector<int32_t> visitIndex(n, -1);
  std::vector<TaskId> walk;
  TaskId current = start;
  while (visitIndex[current] == -1) {
    visitIndex[current] = static_cast<int32_t>(walk.size());
    walk.push_back(current);
    for (TaskId pred : preds[current]) {
      if (pending[pred] > 0) {
        current = pred;
        break;
      }
    }
  }
  // The walk follows predecessor edges, so print it reversed to read in
  // execution direction.
  std::vector<TaskId> cycle(walk.begin() + visitIndex[current], walk.end());
  std::reverse(cycle.begin(), cycle.end());
  std::string message = "dependence cycle: ";
  constexpr size_t kMaxShown = 8;
  for (size_t i = 0; i < cycle.size() && i < kMaxShown; ++i)
    message += describeTask(cycle[i]) + " -> ";
  if (cycle.size() > kMaxShown)
    message += "... -> ";
  message += describeTask(cycle.front());
  setError(error, message);
  return false;
}
