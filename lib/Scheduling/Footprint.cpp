//===- Footprint.cpp - What the device must hold for a plan -----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Footprint.h"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_map>

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

namespace {
/// Values held at once, as a sorted list of at most kMaxHeld ids.
using HeldSet = std::array<ValueId, 4>;
constexpr size_t kMaxHeld = std::tuple_size<HeldSet>::value;

struct HeldSetHash {
  size_t operator()(const HeldSet &set) const {
    uint64_t hash = 1469598103934665603ull;
    for (ValueId id : set)
      hash = (hash ^ static_cast<uint32_t>(id)) * 1099511628211ull;
    return static_cast<size_t>(hash);
  }
};

/// The recomputation floor's bound. Lemma: where copies of the values of a
/// set S (in different buffers, each occupying the arena whole) are live at
/// once in some plan that only orders and recomputes, the arena holds at
/// least held(S) at some step. Proof: let m's copy be the last of S made,
/// by a run of m's producer p. The others are live then, so the arena holds
/// p's working set and them (once, where p uses a buffer itself); and the
/// inputs of that run are live then beside them, a set the lemma applies to
/// in turn. held(S) is the smallest such bound over the choice of m. Any
/// subset of S is live at once too, so the recursion may keep only the
/// largest kMaxHeld values, and stop at a depth limit or a work limit (large
/// functions) with the trivial bound (S itself): every one is valid.
class HeldSetBound {
public:
  HeldSetBound(const Problem &problem, const std::vector<int64_t> &workingSet,
               const std::vector<char> &heldWhole)
      : problem(problem), workingSet(workingSet), heldWhole(heldWhole),
        reads(problem.numTasks()) {
    std::vector<ValueId> root(problem.numValues());
    for (size_t id = 0; id < problem.numValues(); ++id) {
      ValueId value = static_cast<ValueId>(id);
      while (problem.value(value).viewOf != kNoId)
        value = problem.value(value).viewOf;
      root[id] = value;
    }
    for (size_t id = 0; id < problem.numValues(); ++id)
      if (sizeOf(root[id]) > 0)
        for (TaskId reader : problem.value(static_cast<ValueId>(id)).consumers)
          reads[reader].push_back(root[id]);
    for (std::vector<ValueId> &list : reads) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
      // Largest first: the ones a truncated set keeps.
      std::stable_sort(list.begin(), list.end(), [&](ValueId a, ValueId b) {
        return sizeOf(a) > sizeOf(b);
      });
    }
  }

  /// The values (view roots, held whole) \p task reads, largest first.
  const std::vector<ValueId> &readsOf(TaskId task) const { return reads[task]; }
  BufferId bufferOf(ValueId value) const { return problem.value(value).buffer; }
  /// The bytes a held value occupies; 0 for the others.
  int64_t sizeOf(ValueId value) const {
    BufferId buffer = bufferOf(value);
    return heldWhole[buffer] ? problem.buffer(buffer).sizeBytes : 0;
  }

  /// held() of \p values (held values in different buffers, at most
  /// kMaxHeld).
  int64_t bound(const std::vector<ValueId> &values, int depth) {
    return held(makeSet(values), std::min(values.size(), kMaxHeld), depth);
  }

private:
  /// The first kMaxHeld of \p values, sorted.
  static HeldSet makeSet(const std::vector<ValueId> &values) {
    HeldSet set;
    set.fill(kNoId);
    size_t count = std::min(values.size(), kMaxHeld);
    for (size_t i = 0; i < count; ++i)
      set[i] = values[i];
    std::sort(set.begin(), set.begin() + count);
    return set;
  }

  int64_t held(const HeldSet &set, size_t count, int depth) {
    int64_t allHeld = 0;
    for (size_t i = 0; i < count; ++i)
      allHeld += sizeOf(set[i]);
    if (count < 2 || depth == 0 || work >= kMaxWork)
      return allHeld;
    auto it = memo.find(set);
    if (it != memo.end() && it->second.first >= depth)
      return it->second.second;
    ++work;
    int64_t best = std::numeric_limits<int64_t>::max();
    std::vector<ValueId> next;
    for (size_t last = 0; last < count && best > allHeld; ++last) {
      TaskId producer = problem.value(set[last]).producer;
      // An op cleanup erases (a negative working set) makes nothing a plan
      // runs.
      if (producer == kNoId || workingSet[producer] < 0) {
        best = allHeld;
        break;
      }
      const std::vector<BufferId> &used = problem.buffersUsedBy(producer);
      int64_t bytes = workingSet[producer];
      next.clear();
      for (size_t i = 0; i < count; ++i) {
        if (i == last)
          continue;
        next.push_back(set[i]);
        if (!std::binary_search(used.begin(), used.end(), bufferOf(set[i])))
          bytes += sizeOf(set[i]);
      }
      for (ValueId input : reads[producer]) {
        if (next.size() == kMaxHeld)
          break;
        if (std::none_of(next.begin(), next.end(),
                         [&](ValueId held) {
                           return bufferOf(held) == bufferOf(input);
                         }) &&
            bufferOf(input) != bufferOf(set[last]))
          next.push_back(input);
      }
      bytes = std::max(bytes, held(makeSet(next),
                                   std::min(next.size(), kMaxHeld), depth - 1));
      best = std::min(best, bytes);
    }
    int64_t result = std::max(allHeld, best);
    memo[set] = {depth, result};
    return result;
  }

  /// Set evaluations per problem, which keep the search near-linear.
  static constexpr int64_t kMaxWork = int64_t(1) << 18;

  const Problem &problem;
  const std::vector<int64_t> &workingSet;
  const std::vector<char> &heldWhole;
  std::vector<std::vector<ValueId>> reads;
  std::unordered_map<HeldSet, std::pair<int, int64_t>, HeldSetHash> memo;
  int64_t work = 0;
};
} // namespace

/// How deep the bound follows the makers of a held set's values.
static constexpr int kHeldDepth = 8;
/// The operands of one task whose sets are bounded: the largest ones, in
/// pairs.
static constexpr size_t kPairOperands = 4;

/// Raises \p floor's recomputeWorkingSetBytes to the largest held-set bound
/// over the operand pairs of the tasks (\p workingSet: each task's, negative
/// for a task cleanup erases).
static void boundRecomputation(const Problem &problem,
                               const std::vector<int64_t> &workingSet,
                               const std::vector<char> &heldWhole,
                               FootprintFloor &floor) {
  // The pairs of the largest operands first: the work limit, where it binds,
  // leaves the trivial bound to the smaller ones.
  HeldSetBound held(problem, workingSet, heldWhole);
  struct OperandPair {
    int64_t bytes;
    TaskId task;
    ValueId first, second;
  };
  std::vector<OperandPair> pairs;
  for (size_t id = 0; id < problem.numTasks(); ++id) {
    if (workingSet[id] < 0)
      continue;
    const std::vector<ValueId> &reads = held.readsOf(static_cast<TaskId>(id));
    size_t operands = std::min(reads.size(), kPairOperands);
    for (size_t i = 0; i < operands; ++i)
      for (size_t j = i + 1; j < operands; ++j)
        if (held.bufferOf(reads[i]) != held.bufferOf(reads[j]))
          pairs.push_back({held.sizeOf(reads[i]) + held.sizeOf(reads[j]),
                           static_cast<TaskId>(id), reads[i], reads[j]});
  }
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const OperandPair &a, const OperandPair &b) {
                     return a.bytes > b.bytes;
                   });
  for (const OperandPair &pair : pairs) {
    int64_t bound = held.bound({pair.first, pair.second}, kHeldDepth);
    if (bound > floor.recomputeWorkingSetBytes ||
        (bound == floor.recomputeWorkingSetBytes &&
         floor.recomputeTask != kNoId && pair.task < floor.recomputeTask)) {
      floor.recomputeWorkingSetBytes = bound;
      floor.recomputeTask = pair.task;
    }
  }
}

FootprintFloor mlir::memsched::scheduling::computeFootprintFloor(
    const Problem &problem, const std::vector<int64_t> *placedElsewhere,
    const std::vector<char> *heldWhole) {
  FootprintFloor floor;
  floor.residentBytes = problem.residentBytes();
  std::vector<bool> escaping = problem.escapingBuffers();
  std::vector<bool> used(problem.numBuffers(), false);
  std::vector<int64_t> workingSet(problem.numTasks(), 0);
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
    workingSet[id] = bytes;
    if (bytes > floor.workingSetBytes) {
      floor.workingSetBytes = bytes;
      floor.task = task;
    }
  }
  floor.workingSetBytes = std::max<int64_t>(floor.workingSetBytes, 0);

  floor.recomputeWorkingSetBytes = floor.workingSetBytes;
  if (heldWhole)
    boundRecomputation(problem, workingSet, *heldWhole, floor);
  // The escaping buffers the footprint counts: the used ones.
  for (size_t id = 0; id < problem.numBuffers(); ++id) {
    const Buffer &b = problem.buffer(static_cast<BufferId>(id));
    if (used[id] && escaping[id] && b.kind == BufferKind::Transient)
      floor.escapingBytes += b.sizeBytes;
  }
  return floor;
}
