//===- SubsetSearch.cpp - Exact min-peak search over down-sets ------------===//
//
// The search is a best-first (A*) search in which a path's cost is the
// highest step peak along it (a bottleneck cost). Two orders reaching the
// same down-set leave the same buffers live, so only the lower bottleneck
// is kept (the dynamic program over ready sets of Serenity). The admissible
// estimate is the largest footprint of a task still to run; ties go to the
// deepest state, so the search dives to a complete order quickly.
//
//===----------------------------------------------------------------------===//

#include "SubsetSearch.h"

#include <algorithm>
#include <array>
#include <limits>
#include <queue>
#include <tuple>
#include <unordered_map>

using namespace mlir::memsched::scheduling::detail;

int64_t mlir::memsched::scheduling::detail::computeLocalPeak(
    const LocalProblem &problem, const std::vector<int32_t> &order) {
  int32_t k = problem.numTasks();
  std::vector<std::vector<int32_t>> taskBuffers(k);
  std::vector<int32_t> remaining(problem.buffers.size());
  int64_t live = problem.baseBytes;
  for (size_t b = 0; b < problem.buffers.size(); ++b) {
    const LocalProblem::LocalBuffer &buffer = problem.buffers[b];
    remaining[b] = static_cast<int32_t>(buffer.users.size());
    for (int32_t user : buffer.users)
      taskBuffers[user].push_back(static_cast<int32_t>(b));
    if (buffer.liveAtStart)
      live += buffer.bytes;
  }
  int64_t peak = 0;
  for (int32_t task : order) {
    int64_t allocated = 0, freed = 0, spared = 0;
    if (!problem.inPlaceWrites.empty())
      spared = bytesSparedInPlace(
          problem.inPlaceWrites[task],
          [&](int32_t b) {
            return remaining[b] == 1 && !problem.buffers[b].liveAtEnd;
          },
          [&](int32_t b) {
            return !problem.buffers[b].liveAtStart &&
                   remaining[b] ==
                       static_cast<int32_t>(problem.buffers[b].users.size());
          },
          [&](int32_t b) { return problem.buffers[b].bytes; });
    for (int32_t b : taskBuffers[task]) {
      const LocalProblem::LocalBuffer &buffer = problem.buffers[b];
      if (!buffer.liveAtStart &&
          remaining[b] == static_cast<int32_t>(buffer.users.size()))
        allocated += buffer.bytes;
      if (--remaining[b] == 0 && !buffer.liveAtEnd)
        freed += buffer.bytes;
    }
    peak = std::max(peak, live + allocated - spared + problem.workspace[task]);
    // The bytes a write spares it keeps: the live bytes after the step are
    // those without the write.
    live += allocated - freed;
  }
  return peak;
}

namespace {
template <int Words>
struct Bits {
  std::array<uint64_t, Words> words{};

  void set(int32_t i) { words[i >> 6] |= uint64_t(1) << (i & 63); }
  bool test(int32_t i) const { return (words[i >> 6] >> (i & 63)) & 1; }
  bool intersects(const Bits &other) const {
    for (int w = 0; w < Words; ++w)
      if (words[w] & other.words[w])
        return true;
    return false;
  }
  bool isSubsetOf(const Bits &other) const {
    for (int w = 0; w < Words; ++w)
      if (words[w] & ~other.words[w])
        return false;
    return true;
  }
  bool operator==(const Bits &other) const { return words == other.words; }
};

template <int Words>
struct BitsHash {
  size_t operator()(const Bits<Words> &bits) const {
    uint64_t hash = 0x9e3779b97f4a7c15ULL;
    for (uint64_t word : bits.words) {
      hash ^= word + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2);
      hash *= 0xbf58476d1ce4e5b9ULL;
    }
    return static_cast<size_t>(hash ^ (hash >> 31));
  }
};

/// The bit masks both searches work with, and the memory arithmetic of one
/// step from a down-set.
template <int Words>
struct DownSetTables {
  using Set = Bits<Words>;

  explicit DownSetTables(const LocalProblem &problem)
      : problem(problem), predMask(problem.numTasks()),
        userMask(problem.buffers.size()), taskBuffers(problem.numTasks()) {
    for (int32_t task = 0; task < problem.numTasks(); ++task)
      for (int32_t pred : problem.preds[task])
        predMask[task].set(pred);
    startLive = problem.baseBytes;
    for (size_t b = 0; b < problem.buffers.size(); ++b) {
      const LocalProblem::LocalBuffer &buffer = problem.buffers[b];
      for (int32_t user : buffer.users) {
        userMask[b].set(user);
        taskBuffers[user].push_back(static_cast<int32_t>(b));
      }
      if (buffer.liveAtStart)
        startLive += buffer.bytes;
    }
  }

  bool isReady(const Set &done, int32_t task) const {
    return !done.test(task) && predMask[task].isSubsetOf(done);
  }
  /// Bytes `task` allocates when it runs after `done`.
  int64_t allocated(const Set &done, int32_t task) const {
    int64_t bytes = 0;
    for (int32_t b : taskBuffers[task])
      if (!problem.buffers[b].liveAtStart && !userMask[b].intersects(done))
        bytes += problem.buffers[b].bytes;
    return bytes;
  }
  /// Bytes `task`'s in-place writes spare its step when it runs after
  /// `done` (bytesSparedInPlace).
  int64_t spared(const Set &done, int32_t task) const {
    if (problem.inPlaceWrites.empty() || problem.inPlaceWrites[task].empty())
      return 0;
    Set withTask = done;
    withTask.set(task);
    return bytesSparedInPlace(
        problem.inPlaceWrites[task],
        [&](int32_t b) {
          return !problem.buffers[b].liveAtEnd &&
                 userMask[b].isSubsetOf(withTask);
        },
        [&](int32_t b) {
          return !problem.buffers[b].liveAtStart &&
                 !userMask[b].intersects(done);
        },
        [&](int32_t b) { return problem.buffers[b].bytes; });
  }
  /// Bytes live while `task` runs after `done` above those live before it:
  /// what it allocates (\p allocated, allocated(done, task)) less what its
  /// writes spare, and its workspace.
  int64_t stepBytes(const Set &done, int32_t task, int64_t allocated) const {
    return allocated - spared(done, task) + problem.workspace[task];
  }
  /// Bytes that die once the tasks of `next` (which ran `task` last) ran.
  int64_t freed(const Set &next, int32_t task) const {
    int64_t bytes = 0;
    for (int32_t b : taskBuffers[task])
      if (!problem.buffers[b].liveAtEnd && userMask[b].isSubsetOf(next))
        bytes += problem.buffers[b].bytes;
    return bytes;
  }
  /// A ready task that frees at least what it allocates and whose step stays
  /// within the peak so far can run next in some best completion: moving it
  /// to the front of any completion lowers (or keeps) the live bytes of
  /// every step it passes. It is then the only extension worth making.
  bool isFreeStep(const Set &done, int64_t live, int64_t peak,
                  int32_t task) const {
    Set next = done;
    next.set(task);
    int64_t bytes = allocated(done, task);
    return bytes <= freed(next, task) &&
           live + stepBytes(done, task, bytes) <= peak;
  }

  const LocalProblem &problem;
  std::vector<Set> predMask, userMask;
  std::vector<std::vector<int32_t>> taskBuffers;
  /// Bytes live before the first local task.
  int64_t startLive = 0;
};

template <int Words>
LocalResult search(const LocalProblem &problem, int64_t upperBound,
                   int64_t goodEnough, int64_t maxStates,
                   const Deadline &deadline) {
  using Set = Bits<Words>;
  int32_t k = problem.numTasks();
  DownSetTables<Words> tables(problem);
  const std::vector<std::vector<int32_t>> &taskBuffers = tables.taskBuffers;
  int64_t startLive = tables.startLive, alwaysLive = problem.baseBytes;
  for (const LocalProblem::LocalBuffer &buffer : problem.buffers)
    if (buffer.liveAtStart && buffer.liveAtEnd)
      alwaysLive += buffer.bytes;
  // Every task's step holds at least its own buffers, its workspace and the
  // buffers live throughout; the largest such footprint among the tasks left
  // bounds every completion from below.
  std::vector<int64_t> footprint(k);
  for (int32_t task = 0; task < k; ++task) {
    footprint[task] = alwaysLive + problem.workspace[task];
    for (int32_t b : taskBuffers[task]) {
      const LocalProblem::LocalBuffer &buffer = problem.buffers[b];
      if (!(buffer.liveAtStart && buffer.liveAtEnd))
        footprint[task] += buffer.bytes;
    }
    if (!problem.inPlaceWrites.empty())
      footprint[task] -=
          mostBytesSparedInPlace(problem.inPlaceWrites[task], [&](int32_t b) {
            return problem.buffers[b].bytes;
          });
  }
  std::vector<int32_t> byFootprint(k);
  for (int32_t task = 0; task < k; ++task)
    byFootprint[task] = task;
  std::stable_sort(
      byFootprint.begin(), byFootprint.end(),
      [&](int32_t a, int32_t b) { return footprint[a] > footprint[b]; });
  auto estimate = [&](const Set &done) -> int64_t {
    for (int32_t task : byFootprint)
      if (!done.test(task))
        return footprint[task];
    return 0;
  };

  auto cheapestNextStep = [&](const Set &done) -> int64_t {
    int64_t cheapest = std::numeric_limits<int64_t>::max();
    for (int32_t task = 0; task < k; ++task)
      if (tables.isReady(done, task))
        cheapest =
            std::min(cheapest, tables.stepBytes(done, task,
                                                tables.allocated(done, task)));
    return cheapest == std::numeric_limits<int64_t>::max() ? 0 : cheapest;
  };

  struct State {
    Set done;
    int64_t bottleneck;
    int64_t live;
    int64_t key;
    int32_t parent;
    int32_t task;
    int32_t depth;
  };
  std::vector<State> states;
  std::unordered_map<Set, int32_t, BitsHash<Words>> index;
  // Min-heap on (key, -depth, live, state).
  using Entry = std::tuple<int64_t, int32_t, int64_t, int32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;

  LocalResult result;
  Set empty;
  int64_t rootKey = std::max(estimate(empty), goodEnough);
  states.push_back({empty, 0, startLive, rootKey, -1, -1, 0});
  index.emplace(empty, 0);
  open.emplace(rootKey, 0, startLive, 0);

  int64_t pops = 0;
  while (!open.empty()) {
    auto [key, negDepth, live, id] = open.top();
    open.pop();
    const State current = states[id];
    if (key != current.key || live != current.live)
      continue;
    if (current.depth == k) {
      result.complete = true;
      result.found = current.bottleneck < upperBound;
      result.peak = current.bottleneck;
      result.lowerBound = std::min(current.bottleneck, upperBound);
      for (int32_t s = id; states[s].parent >= 0; s = states[s].parent)
        result.order.push_back(states[s].task);
      std::reverse(result.order.begin(), result.order.end());
      result.statesVisited = static_cast<int64_t>(states.size());
      return result;
    }
    if ((++pops & 255) == 0 && deadline.expired()) {
      result.limitReason = "time limit reached";
      result.statesVisited = static_cast<int64_t>(states.size());
      result.lowerBound = std::min(key, upperBound);
      return result;
    }
    int32_t onlyTask = -1;
    for (int32_t task = 0; task < k && onlyTask < 0; ++task)
      if (tables.isReady(current.done, task) &&
          tables.isFreeStep(current.done, current.live, current.bottleneck,
                            task))
        onlyTask = task;
    for (int32_t task = 0; task < k; ++task) {
      if (!tables.isReady(current.done, task) ||
          (onlyTask >= 0 && task != onlyTask))
        continue;
      int64_t allocated = tables.allocated(current.done, task);
      int64_t bottleneck = std::max(
          current.bottleneck,
          current.live + tables.stepBytes(current.done, task, allocated));
      if (bottleneck >= upperBound)
        continue;
      Set next = current.done;
      next.set(task);
      int64_t nextKey = std::max({bottleneck, estimate(next), current.key});
      if (nextKey >= upperBound)
        continue;
      int64_t nextLive = current.live + allocated - tables.freed(next, task);
      if (current.depth + 1 < k) {
        // The next step holds what is live now plus the cheapest ready task.
        nextKey = std::max(nextKey, nextLive + cheapestNextStep(next));
        if (nextKey >= upperBound)
          continue;
      }
      auto [it, inserted] =
          index.emplace(next, static_cast<int32_t>(states.size()));
      if (inserted) {
        if (static_cast<int64_t>(states.size()) >= maxStates) {
          result.limitReason = "state limit reached";
          result.statesVisited = static_cast<int64_t>(states.size());
          // Every order still to be found passes through the popped state
          // or one left open, and keys never fall along an order.
          result.lowerBound = std::min(key, upperBound);
          return result;
        }
        states.push_back(
            {next, bottleneck, nextLive, nextKey, id, task, current.depth + 1});
      } else {
        State &known = states[it->second];
        if (known.bottleneck <= bottleneck)
          continue;
        known.bottleneck = bottleneck;
        known.key = nextKey;
        known.parent = id;
        known.task = task;
      }
      open.emplace(nextKey, -(current.depth + 1), nextLive, it->second);
    }
  }
  // Nothing beats the upper bound.
  result.complete = true;
  result.statesVisited = static_cast<int64_t>(states.size());
  result.lowerBound = upperBound;
  return result;
}

template <int Words>
LocalResult beam(const LocalProblem &problem, int64_t upperBound, int64_t width,
                 BeamRanking ranking, int64_t maxStates,
                 const Deadline &deadline) {
  using Set = Bits<Words>;
  int32_t k = problem.numTasks();
  DownSetTables<Words> tables(problem);
  std::vector<std::vector<int32_t>> succs(k);
  for (int32_t task = 0; task < k; ++task)
    for (int32_t pred : problem.preds[task])
      succs[pred].push_back(task);

  struct Node {
    Set done;
    int64_t peak;
    int64_t live;
    /// Index of the parent in the previous layer, and the task it ran.
    int32_t parent;
    int32_t task;
    std::vector<int32_t> ready;
  };
  std::vector<Node> layer(1);
  layer[0].peak = 0;
  layer[0].live = tables.startLive;
  layer[0].parent = -1;
  layer[0].task = -1;
  for (int32_t task = 0; task < k; ++task)
    if (problem.preds[task].empty())
      layer[0].ready.push_back(task);
  // (parent, task) of every kept node, by depth, to rebuild the order.
  std::vector<std::vector<std::pair<int32_t, int32_t>>> trace;
  LocalResult result;
  int64_t created = 0;
  // Partial orders with the same scheduled set leave the same bytes live,
  // so the lower peak dominates. Across sets, fewer live bytes rank first:
  // ranking by peak so far would favour orders that put off their big
  // allocations, which is no progress (the upper bound already prunes
  // orders whose peak is too high).
  auto dominates = [](const Node &a, const Node &b) { return a.peak < b.peak; };
  auto ranksBefore = [ranking](const Node &a, const Node &b) {
    if (ranking == BeamRanking::LiveAndPeak)
      return std::make_tuple(2 * a.live + a.peak, a.live) <
             std::make_tuple(2 * b.live + b.peak, b.live);
    return std::tie(a.live, a.peak) < std::tie(b.live, b.peak);
  };
  for (int32_t depth = 0; depth < k; ++depth) {
    std::vector<Node> next;
    std::unordered_map<Set, int32_t, BitsHash<Words>> index;
    for (int32_t i = 0; i < static_cast<int32_t>(layer.size()); ++i) {
      const Node &node = layer[i];
      int32_t onlyTask = -1;
      // As in the exact search: a free step is the only extension.
      for (int32_t task : node.ready)
        if (tables.isFreeStep(node.done, node.live, node.peak, task)) {
          onlyTask = task;
          break;
        }
      for (int32_t task : node.ready) {
        if (onlyTask >= 0 && task != onlyTask)
          continue;
        int64_t allocated = tables.allocated(node.done, task);
        int64_t peak =
            std::max(node.peak,
                     node.live + tables.stepBytes(node.done, task, allocated));
        if (peak >= upperBound)
          continue;
        Node child;
        child.done = node.done;
        child.done.set(task);
        child.peak = peak;
        child.live = node.live + allocated - tables.freed(child.done, task);
        child.parent = i;
        child.task = task;
        auto [it, inserted] =
            index.emplace(child.done, static_cast<int32_t>(next.size()));
        if (!inserted) {
          if (dominates(child, next[it->second]))
            next[it->second] = std::move(child);
          continue;
        }
        if (++created > maxStates) {
          result.limitReason = "state limit reached";
          result.statesVisited = created;
          return result;
        }
        next.push_back(std::move(child));
      }
    }
    if (next.empty() || deadline.expired()) {
      result.limitReason = next.empty() ? "" : "time limit reached";
      result.statesVisited = created;
      return result;
    }
    if (static_cast<int64_t>(next.size()) > width) {
      std::nth_element(next.begin(), next.begin() + width, next.end(),
                       ranksBefore);
      next.resize(width);
    }
    // Ready lists only for the partial orders kept.
    std::vector<std::pair<int32_t, int32_t>> kept;
    kept.reserve(next.size());
    for (Node &node : next) {
      kept.emplace_back(node.parent, node.task);
      for (int32_t other : layer[node.parent].ready)
        if (other != node.task)
          node.ready.push_back(other);
      for (int32_t succ : succs[node.task])
        if (tables.predMask[succ].isSubsetOf(node.done))
          node.ready.push_back(succ);
    }
    trace.push_back(std::move(kept));
    layer = std::move(next);
  }
  int32_t best = 0;
  for (int32_t i = 1; i < static_cast<int32_t>(layer.size()); ++i)
    if (dominates(layer[i], layer[best]))
      best = i;
  result.found = true;
  result.peak = layer[best].peak;
  result.statesVisited = created;
  result.order.resize(k);
  for (int32_t depth = k - 1, i = best; depth >= 0; --depth) {
    result.order[depth] = trace[depth][i].second;
    i = trace[depth][i].first;
  }
  return result;
}
} // namespace

LocalResult mlir::memsched::scheduling::detail::searchDownSets(
    const LocalProblem &problem, int64_t upperBound, int64_t goodEnough,
    int64_t maxStates, const Deadline &deadline) {
  int32_t k = problem.numTasks();
  if (k <= 64)
    return search<1>(problem, upperBound, goodEnough, maxStates, deadline);
  if (k <= 128)
    return search<2>(problem, upperBound, goodEnough, maxStates, deadline);
  if (k <= 256)
    return search<4>(problem, upperBound, goodEnough, maxStates, deadline);
  if (k <= kMaxLocalTasks)
    return search<8>(problem, upperBound, goodEnough, maxStates, deadline);
  LocalResult result;
  result.limitReason = "too many tasks for the exact search";
  result.lowerBound = goodEnough;
  return result;
}

LocalResult mlir::memsched::scheduling::detail::beamSearchDownSets(
    const LocalProblem &problem, int64_t upperBound, int64_t width,
    BeamRanking ranking, int64_t maxStates, const Deadline &deadline) {
  int32_t k = problem.numTasks();
  if (k <= 64)
    return beam<1>(problem, upperBound, width, ranking, maxStates, deadline);
  if (k <= 128)
    return beam<2>(problem, upperBound, width, ranking, maxStates, deadline);
  if (k <= 256)
    return beam<4>(problem, upperBound, width, ranking, maxStates, deadline);
  if (k <= kMaxLocalTasks)
    return beam<8>(problem, upperBound, width, ranking, maxStates, deadline);
  LocalResult result;
  result.limitReason = "too many tasks for the beam search";
  return result;
}
