//===- ChainFolding.cpp - Exact merging of tasks that can run together ----===//
//
// Both rules are exchange arguments on one optimal order. Forward: moving v
// up to right after u (legal, u is v's only predecessor) frees v's internal
// buffers earlier and allocates its outputs earlier; the tasks it passes see
// at most outputs - internal <= 0 more bytes, and v's new step is below u's.
// Backward: moving u down to right before v (legal, v is u's only successor)
// takes u's net allocation (>= 0) away from the tasks it passes, and u's new
// step is below v's. Either way no step rises, so the merged problem keeps
// the minimum peak. A merged task's workspace is chosen so that its single
// step equals the higher of its two steps, which the rules make the one
// the model can express (the first task's step when folding forward, the
// second's when folding backward).
//
//===----------------------------------------------------------------------===//

#include "ChainFolding.h"
#include "ScheduleGraph.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <queue>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail;

bool FoldedProblem::isFolded() const {
  for (const std::vector<TaskId> &group : members)
    if (group.size() > 1)
      return true;
  return false;
}

namespace {
/// Buffers with more users than this are never classified: their users'
/// order relations would cost more to check than folding saves.
constexpr size_t kMaxClassifiedUsers = 64;

void replaceOrErase(std::vector<int32_t> &list, int32_t from, int32_t to) {
  bool hasTo = std::find(list.begin(), list.end(), to) != list.end();
  auto it = std::find(list.begin(), list.end(), from);
  if (it == list.end())
    return;
  if (hasTo)
    list.erase(it);
  else
    *it = to;
}

void erase(std::vector<int32_t> &list, int32_t item) {
  list.erase(std::remove(list.begin(), list.end(), item), list.end());
}

void insertUnique(std::vector<int32_t> &list, int32_t item) {
  if (std::find(list.begin(), list.end(), item) == list.end())
    list.push_back(item);
}

/// The mutable graph the rules rewrite: tasks are group representatives.
class Folder {
public:
  /// `excess` > 0: also apply the approximate rule of coarsenChains().
  Folder(const Problem &problem, double excess);
  void run();
  FoldedProblem build() const;

private:
  bool joinPredecessor(int32_t v);
  bool joinSuccessor(int32_t u);
  bool joinSuccessorApproximately(int32_t u);
  /// Where the users of `buffer` other than u run, u's only successor being
  /// v: before u (its predecessors, which must be marked), after it (v and
  /// v's successors, `after`), or on either side.
  struct UserSides {
    bool before = false, after = false, either = false, onlyV = true;
  };
  UserSides classifyUsers(int32_t buffer, int32_t u, int32_t v,
                          const std::vector<int32_t> &after) const;
  /// Bytes v allocates in every order: buffers whose other users follow it
  /// (marks v's successors).
  int64_t surelyAllocatedBy(int32_t v);
  /// u's only successor where u may join it (neither is a fence), else -1.
  int32_t joinableSuccessor(int32_t u) const;
  /// Merges u into its only successor v (u runs first): u's buffers that
  /// only u and v use die inside.
  void mergeIntoSuccessor(int32_t u, int32_t v);
  /// Merges task `gone` into task `keep`, which run back to back (`keep`
  /// first if `keepRunsFirst`): buffers `diesInside` selects leave the
  /// graph, the others and every edge of `gone` move to `keep`.
  void absorb(int32_t gone, int32_t keep, bool keepRunsFirst,
              const std::function<bool(int32_t)> &diesInside);
  void mark(const std::vector<int32_t> &tasks) {
    ++stamp;
    for (int32_t task : tasks)
      marks[task] = stamp;
  }
  bool isMarked(int32_t task) const { return marks[task] == stamp; }

  const Problem &problem;
  double excess;
  std::vector<std::vector<int32_t>> preds, succs, taskBuffers, users;
  std::vector<int64_t> workspace, bytes;
  std::vector<bool> escapes, fence, alive;
  std::vector<std::vector<TaskId>> members;
  std::vector<uint32_t> marks;
  uint32_t stamp = 0;
  std::deque<int32_t> work;
  std::vector<bool> queued;

  void enqueue(int32_t task) {
    if (!queued[task]) {
      queued[task] = true;
      work.push_back(task);
    }
  }
};

Folder::Folder(const Problem &problem, double excess)
    : problem(problem), excess(excess) {
  ScheduleGraph graph(problem);
  int32_t n = graph.numTasks();
  preds.resize(n);
  succs.resize(n);
  taskBuffers.resize(n);
  workspace.resize(n);
  fence.resize(n);
  alive.assign(n, true);
  members.resize(n);
  marks.assign(n, 0);
  queued.assign(n, false);
  for (int32_t task = 0; task < n; ++task) {
    preds[task].assign(graph.preds(task).begin(), graph.preds(task).end());
    succs[task].assign(graph.succs(task).begin(), graph.succs(task).end());
    taskBuffers[task].assign(graph.buffers(task).begin(),
                             graph.buffers(task).end());
    workspace[task] = graph.workspaceBytes(task);
    fence[task] = problem.task(task).isFence;
    members[task] = {task};
  }
  for (int32_t buffer = 0; buffer < graph.numBuffers(); ++buffer) {
    users.emplace_back(graph.users(buffer).begin(), graph.users(buffer).end());
    bytes.push_back(graph.bufferBytes(buffer));
    escapes.push_back(graph.escapes(buffer));
  }
  for (int32_t task : graph.topologicalOrder())
    enqueue(task);
}

void Folder::run() {
  while (!work.empty()) {
    int32_t task = work.front();
    work.pop_front();
    queued[task] = false;
    if (alive[task] && !joinPredecessor(task) && !joinSuccessor(task) &&
        excess > 0.0)
      joinSuccessorApproximately(task);
  }
}

bool Folder::joinPredecessor(int32_t v) {
  if (preds[v].size() != 1)
    return false;
  int32_t u = preds[v].front();
  if (fence[u] || fence[v])
    return false;
  mark(succs[v]);
  int64_t internal = 0, produced = 0;
  for (int32_t buffer : taskBuffers[v]) {
    if (users[buffer].size() > kMaxClassifiedUsers)
      return false;
    bool usedByU = false, onlyU = true, onlySuccessors = true;
    for (int32_t user : users[buffer]) {
      if (user == v)
        continue;
      if (user == u)
        usedByU = true;
      else
        onlyU = false;
      if (!isMarked(user))
        onlySuccessors = false;
    }
    if (usedByU && onlyU && !escapes[buffer])
      internal += bytes[buffer];
    else if (onlySuccessors)
      produced += bytes[buffer];
    else if (!usedByU)
      return false; // Who allocates or frees it depends on the order.
  }
  if (produced > internal)
    return false;
  // Bytes u frees in every order: buffers whose other users precede it.
  mark(preds[u]);
  int64_t surelyFreed = 0;
  for (int32_t buffer : taskBuffers[u]) {
    if (escapes[buffer] || users[buffer].size() > kMaxClassifiedUsers)
      continue;
    bool lastUser = true;
    for (int32_t user : users[buffer])
      if (user != u && !isMarked(user))
        lastUser = false;
    if (lastUser)
      surelyFreed += bytes[buffer];
  }
  if (produced + workspace[v] > workspace[u] + surelyFreed)
    return false;

  // Merge v into u. v's buffers that only u and v use die inside.
  workspace[u] += internal - produced;
  absorb(v, u, /*keepRunsFirst=*/true, [&](int32_t buffer) {
    return !escapes[buffer] && users[buffer].size() == 2 &&
           std::find(users[buffer].begin(), users[buffer].end(), u) !=
               users[buffer].end();
  });
  return true;
}

bool Folder::joinSuccessor(int32_t u) {
  int32_t v = joinableSuccessor(u);
  if (v < 0)
    return false;
  // Classify u's buffers by whether their other users run before u (its
  // predecessors) or after it (v and v's successors); any other user makes
  // what u allocates or frees depend on the order.
  std::vector<int32_t> after = succs[v];
  after.push_back(v);
  int64_t allocated = 0, freed = 0, internal = 0, freedInputs = 0;
  mark(preds[u]);
  for (int32_t buffer : taskBuffers[u]) {
    if (users[buffer].size() > kMaxClassifiedUsers)
      return false;
    UserSides sides = classifyUsers(buffer, u, v, after);
    if (sides.either)
      return false;
    if (!sides.before)
      allocated += bytes[buffer];
    if (!sides.after && !escapes[buffer]) {
      freed += bytes[buffer];
      if (sides.before)
        freedInputs += bytes[buffer];
    }
    if (sides.after && sides.onlyV && !escapes[buffer])
      internal += bytes[buffer];
  }
  if (allocated < freed)
    return false;
  int64_t surelyAllocated = surelyAllocatedBy(v);
  if (workspace[u] + freed > surelyAllocated + workspace[v])
    return false;
  if (freedInputs > internal + workspace[v])
    return false;

  workspace[v] += internal - freedInputs;
  mergeIntoSuccessor(u, v);
  return true;
}

bool Folder::joinSuccessorApproximately(int32_t u) {
  int32_t v = joinableSuccessor(u);
  if (v < 0)
    return false;
  // As joinSuccessor, but users of u's buffers that run in either order with
  // u are allowed: such a buffer may or may not be allocated or freed by u.
  std::vector<int32_t> after = succs[v];
  after.push_back(v);
  int64_t surelyAllocated = 0, maybeFreed = 0, surelyFreed = 0, internal = 0;
  mark(preds[u]);
  for (int32_t buffer : taskBuffers[u]) {
    if (users[buffer].size() > kMaxClassifiedUsers)
      return false;
    UserSides sides = classifyUsers(buffer, u, v, after);
    if (!sides.before && !sides.either)
      surelyAllocated += bytes[buffer];
    if (!sides.after && !escapes[buffer]) {
      maybeFreed += bytes[buffer];
      if (!sides.either)
        surelyFreed += bytes[buffer];
    }
    if (sides.after && sides.onlyV && !escapes[buffer])
      internal += bytes[buffer];
  }
  // Moving u down to v lowers the tasks it passes by what it allocates and
  // raises them by what it frees, which may exceed it by `excess`.
  if (surelyAllocated == 0 ||
      static_cast<double>(maybeFreed) >
          static_cast<double>(surelyAllocated) * (1.0 + excess))
    return false;
  int64_t allocatedByV = surelyAllocatedBy(v);
  // The merged step covers both steps, with what the order leaves open
  // taken at its worst.
  int64_t merged = std::max(internal - allocatedByV + workspace[u],
                            internal - surelyFreed + workspace[v]);
  workspace[v] = std::max<int64_t>(merged, 0);
  mergeIntoSuccessor(u, v);
  return true;
}

int32_t Folder::joinableSuccessor(int32_t u) const {
  if (succs[u].size() != 1)
    return -1;
  int32_t v = succs[u].front();
  return fence[u] || fence[v] ? -1 : v;
}

void Folder::mergeIntoSuccessor(int32_t u, int32_t v) {
  absorb(u, v, /*keepRunsFirst=*/false, [&](int32_t buffer) {
    return !escapes[buffer] &&
           std::all_of(users[buffer].begin(), users[buffer].end(),
                       [&](int32_t user) { return user == u || user == v; });
  });
}

Folder::UserSides
Folder::classifyUsers(int32_t buffer, int32_t u, int32_t v,
                      const std::vector<int32_t> &after) const {
  UserSides sides;
  for (int32_t user : users[buffer]) {
    if (user == u)
      continue;
    if (isMarked(user))
      sides.before = true;
    else if (std::find(after.begin(), after.end(), user) != after.end())
      sides.after = true;
    else
      sides.either = true;
    if (user != v)
      sides.onlyV = false;
  }
  return sides;
}

int64_t Folder::surelyAllocatedBy(int32_t v) {
  mark(succs[v]);
  int64_t allocated = 0;
  for (int32_t buffer : taskBuffers[v]) {
    bool first = users[buffer].size() <= kMaxClassifiedUsers;
    for (int32_t user : users[buffer])
      if (user != v && !isMarked(user))
        first = false;
    if (first)
      allocated += bytes[buffer];
  }
  return allocated;
}

void Folder::absorb(int32_t gone, int32_t keep, bool keepRunsFirst,
                    const std::function<bool(int32_t)> &diesInside) {
  for (int32_t buffer : taskBuffers[gone]) {
    if (diesInside(buffer)) {
      users[buffer].clear();
      erase(taskBuffers[keep], buffer);
      continue;
    }
    replaceOrErase(users[buffer], gone, keep);
    insertUnique(taskBuffers[keep], buffer);
  }
  // The edge between the two disappears; the other task's other edges
  // move to the one kept.
  erase(succs[keep], gone);
  erase(preds[keep], gone);
  for (int32_t pred : preds[gone]) {
    if (pred == keep)
      continue;
    replaceOrErase(succs[pred], gone, keep);
    insertUnique(preds[keep], pred);
    enqueue(pred);
  }
  for (int32_t succ : succs[gone]) {
    if (succ == keep)
      continue;
    replaceOrErase(preds[succ], gone, keep);
    insertUnique(succs[keep], succ);
    enqueue(succ);
  }
  std::vector<TaskId> first = std::move(members[keepRunsFirst ? keep : gone]);
  const std::vector<TaskId> &second = members[keepRunsFirst ? gone : keep];
  first.insert(first.end(), second.begin(), second.end());
  members[keep] = std::move(first);
  alive[gone] = false;
  enqueue(keep);
}

FoldedProblem Folder::build() const {
  int32_t n = static_cast<int32_t>(alive.size());
  // Folded tasks in a topological order that follows the original program
  // order of their first members.
  std::vector<int32_t> indegree(n, 0);
  std::priority_queue<std::pair<TaskId, int32_t>,
                      std::vector<std::pair<TaskId, int32_t>>,
                      std::greater<std::pair<TaskId, int32_t>>>
      ready;
  auto key = [&](int32_t task) {
    return *std::min_element(members[task].begin(), members[task].end());
  };
  for (int32_t task = 0; task < n; ++task) {
    if (!alive[task])
      continue;
    indegree[task] = static_cast<int32_t>(preds[task].size());
    if (indegree[task] == 0)
      ready.emplace(key(task), task);
  }
  FoldedProblem folded;
  std::vector<TaskId> newId(n, kNoId);
  while (!ready.empty()) {
    int32_t task = ready.top().second;
    ready.pop();
    Task merged = problem.task(members[task].front());
    merged.duration = 0.0;
    for (TaskId member : members[task])
      merged.duration += problem.task(member).duration;
    merged.workspaceBytes = workspace[task];
    // The folded problem has values of its own; the members' writes name
    // the original ones.
    merged.inPlaceWrites.clear();
    newId[task] = folded.problem.addTask(std::move(merged));
    folded.members.push_back(members[task]);
    for (int32_t succ : succs[task])
      if (--indegree[succ] == 0)
        ready.emplace(key(succ), succ);
  }
  for (size_t buffer = 0; buffer < users.size(); ++buffer) {
    if (users[buffer].empty())
      continue;
    Buffer kept;
    kept.sizeBytes = bytes[buffer];
    kept.liveToEnd = escapes[buffer];
    BufferId id = folded.problem.addBuffer(kept);
    Value value;
    value.sizeBytes = bytes[buffer];
    value.buffer = id;
    for (int32_t user : users[buffer])
      value.consumers.push_back(newId[user]);
    folded.problem.addValue(std::move(value));
  }
  for (int32_t task = 0; task < n; ++task)
    if (alive[task])
      for (int32_t pred : preds[task])
        folded.problem.addDependence(newId[pred], newId[task]);
  return folded;
}
} // namespace

FoldedProblem
mlir::memsched::scheduling::detail::foldChains(const Problem &problem) {
  Folder folder(problem, /*excess=*/0.0);
  folder.run();
  return folder.build();
}

FoldedProblem
mlir::memsched::scheduling::detail::coarsenChains(const Problem &problem,
                                                  double excess) {
  Folder folder(problem, excess);
  folder.run();
  return folder.build();
}

std::vector<TaskId> mlir::memsched::scheduling::detail::unfoldOrder(
    const FoldedProblem &folded, const std::vector<TaskId> &order) {
  std::vector<TaskId> unfolded;
  for (TaskId task : order)
    unfolded.insert(unfolded.end(), folded.members[task].begin(),
                    folded.members[task].end());
  return unfolded;
}

std::vector<TaskId> mlir::memsched::scheduling::detail::foldOrder(
    const FoldedProblem &folded, const std::vector<TaskId> &order) {
  size_t numOriginal = order.size();
  std::vector<int32_t> position(numOriginal, 0);
  for (size_t pos = 0; pos < numOriginal; ++pos)
    position[order[pos]] = static_cast<int32_t>(pos);
  const Problem &problem = folded.problem;
  int32_t n = static_cast<int32_t>(problem.numTasks());
  std::vector<int32_t> indegree(n), first(n);
  std::priority_queue<std::pair<int32_t, TaskId>,
                      std::vector<std::pair<int32_t, TaskId>>,
                      std::greater<std::pair<int32_t, TaskId>>>
      ready;
  for (TaskId task = 0; task < n; ++task) {
    first[task] = static_cast<int32_t>(numOriginal);
    for (TaskId member : folded.members[task])
      first[task] = std::min(first[task], position[member]);
    indegree[task] = static_cast<int32_t>(problem.predecessors(task).size());
    if (indegree[task] == 0)
      ready.emplace(first[task], task);
  }
  std::vector<TaskId> result;
  result.reserve(n);
  while (!ready.empty()) {
    TaskId task = ready.top().second;
    ready.pop();
    result.push_back(task);
    for (TaskId succ : problem.successors(task))
      if (--indegree[succ] == 0)
        ready.emplace(first[succ], succ);
  }
  return result;
}
