//===- Swap.cpp - Swap (offload) plans for general problems -----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Swap.h"
#include "Deadline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

using namespace mlir::memsched::scheduling;

namespace {
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Everything about a buffer the planner needs to place a swap.
struct BufferUses {
  BufferId buffer = kNoId;
  ValueId value = kNoId;
  /// Sorted distinct positions at which the buffer is produced or read.
  std::vector<int32_t> events;
  /// Index into events from which every event reads `value` only.
  size_t lateFrom = 0;
  /// Position of the value's definer.
  int32_t definer = -1;
  /// Whether this is the buffer's late part with the longest gap. A buffer
  /// whose values follow one another in place (each op writing over the
  /// value it reads for the last time) has one late part per such value;
  /// `planned` and the exhaustive search swap any of them, the baselines
  /// only this one.
  bool longest = true;
};

/// Order-dependent facts shared by the evaluations of one planning run.
class SwapContext {
public:
  SwapContext(const Problem &problem, const std::vector<TaskId> &order,
              const LinkSpec &link)
      : problem(problem), order(order), link(link) {}

  /// Computes positions, the base profile and the candidate buffers (of
  /// values \p swappable allows, by ValueId; empty allows all).
  bool init(int64_t minBytes, std::string *error,
            const std::vector<bool> &swappable = {},
            bool escapingWhole = false);

  std::optional<SwapEvaluation> evaluate(const std::vector<SwapDecision> &swaps,
                                         std::string *error) const;

  /// The decision swapping `uses` across its gap (events[gap-1],
  /// events[gap]), prefetched at `prefetch` (a position), compute waiting
  /// for the copy out before position `release` (-1: no stall), the last
  /// early use writing `writeOver` over the value (release is then that
  /// use's position).
  SwapDecision makeDecision(const BufferUses &uses, size_t gap,
                            int32_t prefetch, int32_t release = -1,
                            ValueId writeOver = kNoId) const;
  /// The result the task at position `at` may write over `value` in
  /// `buffer` once compute has waited for the value's copy out there
  /// (SwapDecision::writeOver), or kNoId: an in-place write of the task
  /// whose input is the value or a view of it, into a transient buffer of
  /// the same size that nothing uses before it and that does not escape.
  ValueId findWriteOver(BufferId buffer, ValueId value, int32_t at) const;
  /// The latest prefetch position in [a, c-1] whose compute up to c covers
  /// the swap-in time of `bytes`.
  int32_t justInTimePrefetch(int32_t a, int32_t c, int64_t bytes) const;
  /// Compute time of the tasks at positions [from, to).
  double computeBetween(int32_t from, int32_t to) const {
    if (to <= from)
      return 0;
    return prefix[to] - prefix[from];
  }
  double copySeconds(int64_t bytes, bool toDevice) const {
    double bandwidth = toDevice ? link.hostToDeviceBytesPerSecond
                                : link.deviceToHostBytesPerSecond;
    return link.copyLatencySeconds + static_cast<double>(bytes) / bandwidth;
  }
  int64_t valueBytes(ValueId value) const {
    return problem.value(value).sizeBytes;
  }
  /// The gap of `uses` that strictly contains position `step`, or 0.
  size_t gapAround(const BufferUses &uses, int32_t step) const;
  /// The longest gap (by compute time) of `uses`, or 0.
  size_t longestGap(const BufferUses &uses) const {
    return longestGap(uses.events, uses.lateFrom, uses.events.size());
  }
  /// The longest gap (by compute time) between events[gap - 1] and
  /// events[gap] for gap in [from, to), or 0 where none has a task inside.
  size_t longestGap(const std::vector<int32_t> &events, size_t from,
                    size_t to) const;

  const Problem &problem;
  const std::vector<TaskId> &order;
  const LinkSpec &link;
  std::vector<int32_t> position;
  std::vector<double> prefix;
  MemoryProfile base;
  std::vector<bool> escaping;
  std::vector<BufferUses> candidates;
  /// Number of evaluate() calls.
  mutable int64_t evaluations = 0;
};
} // namespace

std::optional<SwapAlgorithm>
mlir::memsched::scheduling::parseSwapAlgorithm(const std::string &name) {
  if (name == "planned")
    return SwapAlgorithm::Planned;
  if (name == "size-idle")
    return SwapAlgorithm::SizeIdle;
  if (name == "everything")
    return SwapAlgorithm::Everything;
  return std::nullopt;
}

const char *mlir::memsched::scheduling::getSwapAlgorithmNames() {
  return "planned, size-idle, everything";
}

const char *
mlir::memsched::scheduling::getSwapAlgorithmName(SwapAlgorithm algorithm) {
  switch (algorithm) {
  case SwapAlgorithm::Planned:
    return "planned";
  case SwapAlgorithm::SizeIdle:
    return "size-idle";
  case SwapAlgorithm::Everything:
    return "everything";
  }
  return "planned";
}

ValueId mlir::memsched::scheduling::getViewRoot(const Problem &problem,
                                                ValueId value) {
  // Views come after what they view, so the chain ends.
  while (problem.value(value).viewOf != kNoId)
    value = problem.value(value).viewOf;
  return value;
}

ValueId
mlir::memsched::scheduling::getWriteOverInput(const Problem &problem,
                                              const SwapDecision &swap) {
  if (swap.writeOver == kNoId || swap.lastEarlyUse < 0 ||
      static_cast<size_t>(swap.lastEarlyUse) >= problem.numTasks())
    return kNoId;
  for (auto [input, result] : problem.task(swap.lastEarlyUse).inPlaceWrites)
    if (result == swap.writeOver &&
        problem.value(input).buffer == swap.buffer &&
        getViewRoot(problem, input) == swap.value)
      return input;
  return kNoId;
}

/// The share of \p transfer seconds of copies not in the \p exposed time.
static double hiddenShare(double exposed, double transfer) {
  if (transfer <= 0)
    return 1.0;
  return std::clamp(1.0 - exposed / transfer, 0.0, 1.0);
}

double SwapEvaluation::hiddenFraction() const {
  return hiddenShare(exposedSeconds(), transferSeconds);
}

double IssuedSwapProfile::hiddenFraction() const {
  return hiddenShare(timeline.exposedCopyTime, transferSeconds);
}

bool SwapContext::init(int64_t minBytes, std::string *error,
                       const std::vector<bool> &swappable, bool escapingWhole) {
  std::optional<MemoryProfile> profile = simulateMemory(problem, order, error);
  if (!profile)
    return false;
  base = std::move(*profile);
  if (escapingWhole)
    countEscapingFromStart(problem, base);
  size_t n = order.size();
  position.assign(n, 0);
  prefix.assign(n + 1, 0.0);
  for (size_t pos = 0; pos < n; ++pos) {
    position[order[pos]] = static_cast<int32_t>(pos);
    prefix[pos + 1] = prefix[pos] + problem.task(order[pos]).duration;
  }

  // Per buffer: (position, value read or kNoId for a write) events.
  std::vector<std::vector<std::pair<int32_t, ValueId>>> events(
      problem.numBuffers());
  for (size_t id = 0; id < problem.numValues(); ++id) {
    const Value &value = problem.value(static_cast<ValueId>(id));
    auto &list = events[value.buffer];
    if (value.producer != kNoId)
      list.push_back({position[value.producer], kNoId});
    for (TaskId reader : value.consumers)
      list.push_back({position[reader], static_cast<ValueId>(id)});
  }
  escaping = problem.escapingBuffers();
  auto rootOf = [&](ValueId value) { return getViewRoot(problem, value); };
  for (size_t id = 0; id < problem.numBuffers(); ++id) {
    const Buffer &buffer = problem.buffer(static_cast<BufferId>(id));
    auto &list = events[id];
    if (buffer.kind != BufferKind::Transient || escaping[id] ||
        buffer.sizeBytes <= 0 || buffer.sizeBytes < minBytes || list.empty())
      continue;
    // By position; at one position the reads come before the write (an op
    // reads its inputs, then writes its result).
    std::sort(list.begin(), list.end(), [](const auto &x, const auto &y) {
      if (x.first != y.first)
        return x.first < y.first;
      return (x.second == kNoId) < (y.second == kNoId) ||
             ((x.second == kNoId) == (y.second == kNoId) &&
              x.second < y.second);
    });
    std::vector<int32_t> positions;
    for (const auto &event : list)
      if (positions.empty() || positions.back() != event.first)
        positions.push_back(event.first);
    // The swap of the events list[0, end): its late part, the longest
    // suffix of reads of one value or of views of it (the same contents:
    // their reads then read views of the copy brought back); a position
    // with a write or a read of another value ends it. Found from the end
    // back to the write before it, so that trying every end stays linear in
    // the buffer's events.
    struct LatePart {
      ValueId value;
      int32_t definer;
      /// positions[0, count) are the swap's events, from lateFrom late.
      size_t count, lateFrom;
    };
    auto latePartUpTo = [&](size_t end) -> std::optional<LatePart> {
      if (list[end - 1].second == kNoId)
        return std::nullopt;
      ValueId late = rootOf(list[end - 1].second);
      size_t from = end;
      while (from > 0 && list[from - 1].second != kNoId &&
             rootOf(list[from - 1].second) == late)
        --from;
      // Events at the position where the suffix starts must all be in it.
      while (from < end && from > 0 && list[from - 1].first == list[from].first)
        ++from;
      if (from >= end)
        return std::nullopt;
      const Value &value = problem.value(late);
      if (value.definedBy == kNoId || value.sizeBytes <= 0 ||
          (!swappable.empty() && !swappable[late]))
        return std::nullopt;
      LatePart part{late, position[value.definedBy], 0, 0};
      part.count = static_cast<size_t>(std::upper_bound(positions.begin(),
                                                        positions.end(),
                                                        list[end - 1].first) -
                                       positions.begin());
      part.lateFrom = static_cast<size_t>(
          std::lower_bound(positions.begin(), positions.begin() + part.count,
                           list[from].first) -
          positions.begin());
      // A gap needs an early use at or after the definer, before it.
      size_t firstGap = std::max<size_t>(part.lateFrom, 1);
      while (firstGap < part.count && positions[firstGap - 1] < part.definer)
        ++firstGap;
      if (firstGap >= part.count)
        return std::nullopt;
      part.lateFrom = firstGap;
      return part;
    };
    // A late part ends at the buffer's last event, or where an op reads a
    // value for the last time and writes its result over it (in place):
    // the reads after the gap then read the copy brought back, and that
    // write goes into the copy. Each is a candidate; their late reads are
    // of different values, so swaps of several never overlap.
    size_t first = candidates.size(), longest = first;
    double longestTime = -1;
    auto consider = [&](size_t end) {
      std::optional<LatePart> part = latePartUpTo(end);
      if (!part)
        return;
      size_t gap = longestGap(positions, part->lateFrom, part->count);
      if (gap == 0)
        return;
      double time = computeBetween(positions[gap - 1] + 1, positions[gap]);
      if (time > longestTime) {
        longestTime = time;
        longest = candidates.size();
      }
      BufferUses uses;
      uses.buffer = static_cast<BufferId>(id);
      uses.value = part->value;
      uses.definer = part->definer;
      uses.events.assign(positions.begin(), positions.begin() + part->count);
      uses.lateFrom = part->lateFrom;
      candidates.push_back(std::move(uses));
    };
    consider(list.size());
    for (size_t write = 1; write < list.size(); ++write)
      if (list[write].second == kNoId && list[write - 1].second != kNoId &&
          list[write - 1].first == list[write].first)
        consider(write);
    for (size_t index = first; index < candidates.size(); ++index)
      candidates[index].longest = index == longest;
  }
  return true;
}

size_t SwapContext::gapAround(const BufferUses &uses, int32_t step) const {
  auto it = std::upper_bound(uses.events.begin(), uses.events.end(), step);
  if (it == uses.events.begin() || it == uses.events.end())
    return 0;
  size_t gap = static_cast<size_t>(it - uses.events.begin());
  if (gap < uses.lateFrom || uses.events[gap - 1] >= step)
    return 0;
  return gap;
}

size_t SwapContext::longestGap(const std::vector<int32_t> &events, size_t from,
                               size_t to) const {
  size_t best = 0;
  double bestTime = -1;
  for (size_t gap = from; gap < to; ++gap) {
    if (events[gap] - events[gap - 1] < 2)
      continue;
    double time = computeBetween(events[gap - 1] + 1, events[gap]);
    if (time > bestTime) {
      bestTime = time;
      best = gap;
    }
  }
  return best;
}

int32_t SwapContext::justInTimePrefetch(int32_t a, int32_t c,
                                        int64_t bytes) const {
  double needed = copySeconds(bytes, /*toDevice=*/true);
  // The largest p in [a, c-1] with prefix[c] - prefix[p+1] >= needed.
  double limit = prefix[c] - needed;
  auto it =
      std::upper_bound(prefix.begin() + a + 1, prefix.begin() + c + 1, limit);
  int32_t p = static_cast<int32_t>(it - prefix.begin()) - 2;
  return std::clamp(p, a, c - 1);
}

ValueId SwapContext::findWriteOver(BufferId buffer, ValueId value,
                                   int32_t at) const {
  for (auto [input, result] : problem.task(order[at]).inPlaceWrites) {
    if (problem.value(input).buffer != buffer ||
        getViewRoot(problem, input) != value)
      continue;
    BufferId written = problem.value(result).buffer;
    const Buffer &resultBuffer = problem.buffer(written);
    if (written != buffer && resultBuffer.kind == BufferKind::Transient &&
        !escaping[written] &&
        resultBuffer.sizeBytes == problem.buffer(buffer).sizeBytes &&
        base.lifetimes[written].start == at)
      return result;
  }
  return kNoId;
}

SwapDecision SwapContext::makeDecision(const BufferUses &uses, size_t gap,
                                       int32_t prefetch, int32_t release,
                                       ValueId writeOver) const {
  SwapDecision decision;
  decision.buffer = uses.buffer;
  decision.value = uses.value;
  decision.issueAfter = problem.value(uses.value).definedBy;
  decision.lastEarlyUse = order[uses.events[gap - 1]];
  decision.prefetchAfter = order[prefetch];
  decision.firstLateUse = order[uses.events[gap]];
  decision.lastLateUse = order[uses.events.back()];
  if (release >= 0)
    decision.releaseBefore = order[release];
  decision.writeOver = writeOver;
  return decision;
}

std::vector<CopyTask> mlir::memsched::scheduling::makeSwapCopies(
    const Problem &problem, const std::vector<TaskId> &order,
    const std::vector<SwapDecision> &swaps) {
  size_t count = swaps.size();
  std::vector<int32_t> position(order.size(), 0);
  for (size_t pos = 0; pos < order.size(); ++pos)
    position[order[pos]] = static_cast<int32_t>(pos);
  // By position: the swap-out compute stalls for right before that task and
  // that ends last (copies out run in issue order), or -1.
  std::vector<int32_t> stallAt(order.size(), -1);
  for (size_t i = 0; i < count; ++i) {
    const SwapDecision &swap = swaps[i];
    if (swap.releaseBefore == kNoId)
      continue;
    int32_t &last = stallAt[position[swap.releaseBefore]];
    if (last < 0 ||
        position[swaps[last].issueAfter] <= position[swap.issueAfter])
      last = static_cast<int32_t>(i);
  }
  size_t numRefetches = 0;
  for (const SwapDecision &swap : swaps)
    numRefetches += swap.refetches.size();
  std::vector<CopyTask> copies(2 * count + numRefetches);
  // The copy in issued when `prefetch` ends, for `reader`, from the host
  // copy of decision `i`.
  auto copyIn = [&](CopyTask &in, size_t i, int64_t bytes, TaskId prefetch,
                    TaskId reader) {
    in.bytes = bytes;
    in.direction = CopyDirection::HostToDevice;
    in.issuedAfter = prefetch;
    in.neededBy = reader;
    in.afterCopy = static_cast<int32_t>(i);
    size_t next = static_cast<size_t>(position[prefetch]) + 1;
    if (next < order.size())
      in.stallCopy = stallAt[next];
  };
  size_t refetchIndex = 2 * count;
  for (size_t i = 0; i < count; ++i) {
    const SwapDecision &swap = swaps[i];
    int64_t bytes = problem.value(swap.value).sizeBytes;
    CopyTask &out = copies[i];
    out.bytes = bytes;
    out.direction = CopyDirection::DeviceToHost;
    out.issuedAfter = swap.issueAfter;
    out.neededBy = swap.releaseBefore;
    copyIn(copies[count + i], i, bytes, swap.prefetchAfter, swap.firstLateUse);
  }
  for (size_t i = 0; i < count; ++i) {
    int64_t bytes = problem.value(swaps[i].value).sizeBytes;
    for (const SwapRefetch &refetch : swaps[i].refetches)
      copyIn(copies[refetchIndex++], i, bytes, refetch.prefetchAfter,
             refetch.firstUse);
  }
  return copies;
}

/// Sets peak fields of \p evaluation from its liveBytes.
static void settlePeak(SwapEvaluation &evaluation) {
  evaluation.peakTransientBytes = 0;
  evaluation.peakStep = -1;
  for (size_t step = 0; step < evaluation.liveBytes.size(); ++step)
    if (evaluation.peakStep < 0 ||
        evaluation.liveBytes[step] > evaluation.peakTransientBytes) {
      evaluation.peakTransientBytes = evaluation.liveBytes[step];
      evaluation.peakStep = static_cast<int32_t>(step);
    }
}

/// First position whose task ends at or after \p time.
static int32_t firstEndingAtOrAfter(const std::vector<double> &endAt,
                                    double time) {
  return static_cast<int32_t>(
      std::lower_bound(endAt.begin(), endAt.end(), time) - endAt.begin());
}

std::optional<SwapEvaluation>
SwapContext::evaluate(const std::vector<SwapDecision> &swaps,
                      std::string *error) const {
  auto fail = [&](std::string message) -> std::optional<SwapEvaluation> {
    if (error)
      *error = std::move(message);
    return std::nullopt;
  };
  ++evaluations;
  int32_t n = static_cast<int32_t>(order.size());
  for (const SwapDecision &swap : swaps) {
    for (TaskId task : {swap.issueAfter, swap.lastEarlyUse, swap.prefetchAfter,
                        swap.firstLateUse, swap.lastLateUse})
      if (task < 0 || task >= n)
        return fail("swap decision refers to an invalid task");
    if (swap.buffer < 0 ||
        static_cast<size_t>(swap.buffer) >= problem.numBuffers() ||
        swap.value < 0 ||
        static_cast<size_t>(swap.value) >= problem.numValues() ||
        problem.value(swap.value).buffer != swap.buffer)
      return fail("swap decision refers to an invalid buffer or value");
    int32_t a = position[swap.lastEarlyUse], p = position[swap.prefetchAfter],
            c = position[swap.firstLateUse], e = position[swap.lastLateUse];
    if (!(position[swap.issueAfter] <= a && a <= p && p < c && c <= e))
      return fail("swap decision for buffer #" + std::to_string(swap.buffer) +
                  " is out of order (definer <= last early use <= prefetch < "
                  "first late use <= last late use)");
    if (swap.writeOver != kNoId) {
      if (swap.releaseBefore != swap.lastEarlyUse ||
          findWriteOver(swap.buffer, swap.value, a) != swap.writeOver)
        return fail("swap decision for buffer #" + std::to_string(swap.buffer) +
                    " writes over its value where its last early use has no "
                    "such in-place write, or without waiting there");
    } else if (swap.releaseBefore != kNoId &&
               (swap.releaseBefore < 0 || swap.releaseBefore >= n ||
                !(a < position[swap.releaseBefore] &&
                  position[swap.releaseBefore] <= p))) {
      return fail("swap decision for buffer #" + std::to_string(swap.buffer) +
                  " stalls out of order (last early use < release <= "
                  "prefetch)");
    }
    int32_t segmentStart = c;
    for (const SwapRefetch &refetch : swap.refetches) {
      for (TaskId task :
           {refetch.lastUseBefore, refetch.prefetchAfter, refetch.firstUse})
        if (task < 0 || task >= n)
          return fail("swap refetch refers to an invalid task");
      int32_t l = position[refetch.lastUseBefore],
              q = position[refetch.prefetchAfter],
              f = position[refetch.firstUse];
      if (!(segmentStart <= l && l <= q && q < f && f <= e))
        return fail("swap refetch for buffer #" + std::to_string(swap.buffer) +
                    " is out of order (previous first use <= last use "
                    "before <= prefetch < first use <= last late use)");
      segmentStart = f;
    }
  }
  std::vector<CopyTask> copies = makeSwapCopies(problem, order, swaps);
  size_t count = swaps.size();
  std::optional<Timeline> timeline =
      simulateTime(problem, order, copies, link, error);
  if (!timeline)
    return std::nullopt;
  std::vector<double> endAt(n);
  for (int32_t pos = 0; pos < n; ++pos)
    endAt[pos] = timeline->tasks[order[pos]].end;

  SwapEvaluation evaluation;
  std::vector<int64_t> delta(n + 1, 0);
  // Whether compute waits for copy `index` in, read first at `reader`.
  auto waitsForCopyIn = [&](size_t index, TaskId reader) {
    int32_t c = position[reader];
    double readerStart = timeline->tasks[reader].start;
    double previousEnd = c > 0 ? endAt[c - 1] : 0.0;
    return readerStart > previousEnd &&
           timeline->copies[index].end >= readerStart;
  };
  size_t refetchIndex = 2 * count;
  for (size_t i = 0; i < swaps.size(); ++i) {
    const SwapDecision &swap = swaps[i];
    int32_t a = position[swap.lastEarlyUse], p = position[swap.prefetchAfter],
            e = position[swap.lastLateUse];
    int64_t held = problem.buffer(swap.buffer).sizeBytes;
    int64_t bytes = problem.value(swap.value).sizeBytes;
    int32_t holdEnd = std::min(
        std::max(a, firstEndingAtOrAfter(endAt, timeline->copies[i].end)), e);
    // Compute waits for the copy before the release task: the buffer is
    // free there whenever the copy ends. A write over the value releases
    // at its last early use: the result takes the buffer, and the result's
    // own buffer, counted from there in the base, stands for it.
    if (swap.releaseBefore != kNoId)
      holdEnd = std::min(holdEnd, position[swap.releaseBefore] - 1);
    evaluation.outEnds.push_back(timeline->copies[i].end);
    delta[holdEnd + 1] -= held;
    delta[e + 1] += held;
    evaluation.swapBytes += 2 * bytes;
    evaluation.stalls.push_back(waitsForCopyIn(count + i, swap.firstLateUse));
    for (size_t k : {i, count + i})
      evaluation.transferSeconds +=
          timeline->copies[k].end - timeline->copies[k].start;
    // Each copy brought back is held from its issue point to the last read
    // before the next one.
    int32_t inFrom = p + 1;
    std::vector<bool> &refetchStalls = evaluation.refetchStalls.emplace_back();
    for (const SwapRefetch &refetch : swap.refetches) {
      delta[inFrom] += bytes;
      delta[position[refetch.lastUseBefore] + 1] -= bytes;
      inFrom = position[refetch.prefetchAfter] + 1;
      evaluation.swapBytes += bytes;
      refetchStalls.push_back(waitsForCopyIn(refetchIndex, refetch.firstUse));
      evaluation.transferSeconds += timeline->copies[refetchIndex].end -
                                    timeline->copies[refetchIndex].start;
      ++refetchIndex;
    }
    delta[inFrom] += bytes;
    delta[e + 1] -= bytes;
  }
  evaluation.liveBytes = base.liveBytes;
  int64_t running = 0;
  for (int32_t pos = 0; pos < n; ++pos) {
    running += delta[pos];
    evaluation.liveBytes[pos] += running;
  }
  settlePeak(evaluation);
  evaluation.startAt.resize(n);
  for (int32_t pos = 0; pos < n; ++pos)
    evaluation.startAt[pos] = timeline->tasks[order[pos]].start;
  evaluation.computeSeconds = timeline->computeTime;
  evaluation.makespanSeconds = timeline->makespan;
  return evaluation;
}

std::vector<SwapDecision>
mlir::memsched::scheduling::findSwapCandidates(const Problem &problem,
                                               const std::vector<TaskId> &order,
                                               int64_t minBytes) {
  LinkSpec link;
  link.hostToDeviceBytesPerSecond = 1;
  link.deviceToHostBytesPerSecond = 1;
  SwapContext context(problem, order, link);
  std::vector<SwapDecision> result;
  if (!context.init(minBytes, nullptr))
    return result;
  for (const BufferUses &uses : context.candidates) {
    size_t gap = context.longestGap(uses);
    if (gap == 0 || !uses.longest)
      continue;
    result.push_back(context.makeDecision(uses, gap, uses.events[gap] - 1));
  }
  return result;
}

std::optional<SwapEvaluation> mlir::memsched::scheduling::evaluateSwaps(
    const Problem &problem, const std::vector<TaskId> &order,
    const std::vector<SwapDecision> &swaps, const LinkSpec &link,
    std::string *error) {
  SwapContext context(problem, order, link);
  if (!context.init(0, error))
    return std::nullopt;
  return context.evaluate(swaps, error);
}

namespace {
/// Whether \p a is a better plan outcome than \p b under \p budget.
bool isBetter(const SwapEvaluation &a, const SwapEvaluation &b,
              int64_t budget) {
  bool aFits = a.peakTransientBytes <= budget;
  bool bFits = b.peakTransientBytes <= budget;
  if (aFits != bFits)
    return aFits;
  if (!aFits)
    return a.peakTransientBytes < b.peakTransientBytes;
  if (a.makespanSeconds != b.makespanSeconds)
    return a.makespanSeconds < b.makespanSeconds;
  return a.swapBytes < b.swapBytes;
}

/// The peak-directed planner with its refinement.
class PlannedSwaps {
public:
  /// The plan spaces a run searches, each containing the one before.
  enum class Space {
    /// One gap of the late part with the longest gap of each buffer
    /// (BufferUses::longest).
    OneGap,
    /// Those parts with refetches, and moved to earlier gaps.
    Refetches,
    /// Every late part of each buffer (values written over one another in
    /// place), with refetches.
    AllParts,
  };

  /// A run in \p space, with writes over swapped values where \p
  /// writeOvers, whose evaluations count from \p firstEvaluation towards
  /// the work limit.
  PlannedSwaps(const SwapContext &context, const SwapOptions &options,
               Space space, bool writeOvers, int64_t firstEvaluation)
      : context(context), options(options), deadline(options.timeLimitSeconds),
        space(space), writeOvers(writeOvers && options.allowStalls),
        firstEvaluation(firstEvaluation) {}

  bool run(SwapPlan &plan, std::string *error);

private:
  /// The peak-directed rounds towards \p budget from no swaps: \p swaps
  /// and \p current end within the budget, or at the smallest peak the
  /// rounds passed (\p smallest) where they stop short of it.
  bool descend(int64_t budget, std::vector<SwapDecision> &swaps,
               std::optional<SwapEvaluation> &current, int64_t &smallest,
               std::string *error);
  bool refine(std::vector<SwapDecision> &swaps, SwapEvaluation &current,
              std::string *error);
  /// Whether the refinement must stop: this run's plan evaluations reached
  /// the work limit, or the optional deadline passed.
  bool outOfWork() const {
    return (options.maxEvaluations > 0 &&
            context.evaluations - firstEvaluation >= options.maxEvaluations) ||
           deadline.expired();
  }

  const SwapContext &context;
  const SwapOptions &options;
  detail::Deadline deadline;
  Space space;
  /// Whether choices may write over a swapped value
  /// (SwapDecision::writeOver).
  bool writeOvers;
  int64_t firstEvaluation;
};
} // namespace

bool PlannedSwaps::run(SwapPlan &plan, std::string *error) {
  int64_t budget = options.budgetTransientBytes;
  std::vector<SwapDecision> swaps;
  std::optional<SwapEvaluation> current;
  int64_t smallest = 0;
  if (!descend(budget, swaps, current, smallest, error))
    return false;
  plan.smallestPeakTransient = smallest;
  if (current->peakTransientBytes <= budget && !refine(swaps, *current, error))
    return false;
  plan.swaps = std::move(swaps);
  plan.after = std::move(*current);
  return true;
}

bool PlannedSwaps::descend(int64_t budget, std::vector<SwapDecision> &swaps,
                           std::optional<SwapEvaluation> &current,
                           int64_t &smallest, std::string *error) {
  swaps.clear();
  current = context.evaluate(swaps, error);
  if (!current)
    return false;
  // By candidate: the index of its swap in `swaps`, or -1.
  std::vector<int32_t> swapOf(context.candidates.size(), -1);
  smallest = current->peakTransientBytes;
  // The plan with the smallest peak so far (the one returned when the
  // budget is missed: adding swaps can raise the peak elsewhere).
  std::vector<SwapDecision> lowest;
  std::optional<SwapEvaluation> atLowest = current;
  while (current->peakTransientBytes > budget) {
    int32_t k = current->peakStep;
    // The last over-budget step at or before each step.
    std::vector<int32_t> lastOverUpTo(current->liveBytes.size(), -1);
    for (size_t step = 0; step < lastOverUpTo.size(); ++step)
      lastOverUpTo[step] = current->liveBytes[step] > budget
                               ? static_cast<int32_t>(step)
                               : (step ? lastOverUpTo[step - 1] : -1);
    // A choice is a new swap, or a change to an earlier swap (existing >=
    // 0) that frees memory at step k.
    enum class Kind {
      /// Swap candidate `index` across its gap `gap`.
      NewSwap,
      /// Stall for the swap's copy out before step k.
      Stall,
      /// Prefetch copy `segment` in (0: the first, s: refetch s-1) after
      /// step k, keeping it out of step k.
      DelayPrefetch,
      /// Free copy `segment` across the gap `gap` of its reads around step
      /// k and bring the value back once more.
      Refetch,
      /// Swap across the earlier gap `gap` (around step k) instead; the
      /// swap's first gap becomes its first refetch.
      EarlierGap,
    };
    struct Choice {
      double score;
      int64_t freed;
      size_t index;
      Kind kind;
      size_t gap = 0;
      int32_t prefetch = -1;
      int32_t release = -1;
      int32_t existing = -1;
      size_t segment = 0;
      /// A new swap or stall whose last early use, step k, writes this
      /// result over the value (SwapDecision::writeOver).
      ValueId writeOver = kNoId;
    };
    std::vector<Choice> choices;
    // Swapping candidate `index` out across its gap `gap` around step k,
    // or nothing where that cannot free its buffer at k.
    auto swapAcross = [&](size_t index, size_t gap) -> std::optional<Choice> {
      const BufferUses &uses = context.candidates[index];
      int64_t freed = context.problem.buffer(uses.buffer).sizeBytes;
      int32_t a = uses.events[gap - 1], c = uses.events[gap];
      int64_t bytes = context.valueBytes(uses.value);
      // The copy out must be done by the time step k starts, or the swap
      // frees nothing there unless compute waits for it before step k.
      double outTime = context.copySeconds(bytes, /*toDevice=*/false);
      double outShort = outTime - context.computeBetween(uses.definer + 1, k);
      if (outShort > 0 && !options.allowStalls)
        return std::nullopt;
      // Prefetching before a later step of the gap that is over budget too
      // would hold the copy there.
      int32_t lastOver = std::max(k, lastOverUpTo[c - 1]);
      int32_t prefetch =
          std::max(context.justInTimePrefetch(a, c, bytes), lastOver);
      double inTime = context.copySeconds(bytes, /*toDevice=*/true);
      double exposed =
          std::max(0.0, inTime - context.computeBetween(prefetch + 1, c)) +
          std::max(0.0, outShort);
      return Choice{exposed / static_cast<double>(freed),
                    freed,
                    index,
                    Kind::NewSwap,
                    gap,
                    prefetch,
                    outShort > 0 ? k : -1};
    };
    // The gap of `uses` that step k, reading the value for the last time
    // before it, opens and may write over the value at, or 0.
    auto writeOverGap = [&](const BufferUses &uses) -> size_t {
      if (!writeOvers)
        return 0;
      auto it = std::lower_bound(uses.events.begin(), uses.events.end(), k);
      if (it == uses.events.end() || *it != k)
        return 0;
      size_t gap = static_cast<size_t>(it - uses.events.begin()) + 1;
      if (gap <= uses.lateFrom || gap >= uses.events.size() ||
          context.findWriteOver(uses.buffer, uses.value, k) == kNoId)
        return 0;
      return gap;
    };
    for (size_t index = 0; index < context.candidates.size(); ++index) {
      const BufferUses &uses = context.candidates[index];
      if (space != Space::AllParts && !uses.longest)
        continue;
      int64_t freed = context.problem.buffer(uses.buffer).sizeBytes;
      int32_t existing = swapOf[index];
      if (existing < 0) {
        if (size_t gap = context.gapAround(uses, k)) {
          if (std::optional<Choice> choice = swapAcross(index, gap))
            choices.push_back(*choice);
        } else if (size_t gap = writeOverGap(uses)) {
          // Step k reads the value last before a gap and may write over
          // it: swap it, compute waiting at k for the copy out.
          if (std::optional<Choice> choice = swapAcross(index, gap)) {
            choice->release = k;
            choice->writeOver =
                context.findWriteOver(uses.buffer, uses.value, k);
            choices.push_back(*choice);
          }
        }
        continue;
      }
      const SwapDecision &swap = swaps[existing];
      int32_t a = context.position[swap.lastEarlyUse];
      int32_t p = context.position[swap.prefetchAfter];
      int32_t r = swap.releaseBefore == kNoId
                      ? INT32_MAX
                      : context.position[swap.releaseBefore];
      int32_t c = context.position[swap.firstLateUse];
      int64_t bytes = context.valueBytes(uses.value);
      double inTime = context.copySeconds(bytes, /*toDevice=*/true);
      if (space != Space::OneGap && k < a) {
        // Read before and after k, ahead of the swap's gap: swap across
        // the gap around k, bringing the value back for the old one.
        size_t gap = context.gapAround(uses, k);
        if (gap == 0)
          continue;
        if (std::optional<Choice> choice = swapAcross(index, gap)) {
          choice->kind = Kind::EarlierGap;
          choice->existing = existing;
          choices.push_back(*choice);
        }
        continue;
      }
      // The copy in held at k, if any: segment s, issued after position
      // segP, first read at segC, last read at segEnd.
      int32_t segP = p, segC = c;
      size_t segment = 0;
      for (size_t s = 0; s < swap.refetches.size(); ++s)
        if (k > context.position[swap.refetches[s].prefetchAfter]) {
          segment = s + 1;
          segP = context.position[swap.refetches[s].prefetchAfter];
          segC = context.position[swap.refetches[s].firstUse];
        }
      int32_t segEnd =
          segment < swap.refetches.size()
              ? context.position[swap.refetches[segment].lastUseBefore]
              : context.position[swap.lastLateUse];
      if (segP < k && k < segC) {
        // The copy in is held at k: prefetch after k instead, at the cost
        // of the swap-in time the shorter compute no longer covers.
        double added =
            std::max(0.0, inTime - context.computeBetween(k + 1, segC)) -
            std::max(0.0, inTime - context.computeBetween(segP + 1, segC));
        choices.push_back({std::max(0.0, added) / static_cast<double>(bytes),
                           bytes, index, Kind::DelayPrefetch, 0, k, -1,
                           existing, segment});
        continue;
      }
      if (space != Space::OneGap && segC < k && k < segEnd) {
        // The copy in is read before and after k: free it across the gap
        // of its reads around k and bring the value back again.
        size_t gap = context.gapAround(uses, k);
        if (gap == 0)
          continue;
        int32_t from = uses.events[gap - 1], to = uses.events[gap];
        int32_t lastOver = std::max(k, lastOverUpTo[to - 1]);
        int32_t prefetch =
            std::max(context.justInTimePrefetch(from, to, bytes), lastOver);
        double exposed =
            std::max(0.0, inTime - context.computeBetween(prefetch + 1, to));
        choices.push_back({exposed / static_cast<double>(bytes), bytes, index,
                           Kind::Refetch, gap, prefetch, -1, existing,
                           segment});
        continue;
      }
      double outEnd = current->outEnds[existing];
      if (k == a && r != k && writeOvers) {
        // Read last at k, which may write over it: wait there for the copy
        // out.
        ValueId result = context.findWriteOver(uses.buffer, uses.value, k);
        if (result != kNoId) {
          double stall = std::max(0.0, outEnd - current->startAt[k]);
          Choice choice{stall / static_cast<double>(freed),
                        freed,
                        index,
                        Kind::Stall,
                        0,
                        p,
                        k,
                        existing};
          choice.writeOver = result;
          choices.push_back(choice);
        }
        continue;
      }
      // Still held at k because its copy out has not ended: stall for it.
      if (!options.allowStalls || !(a < k && k <= p && k < r) ||
          outEnd <= current->startAt[k])
        continue;
      double stall = outEnd - current->startAt[k];
      choices.push_back({stall / static_cast<double>(freed), freed, index,
                         Kind::Stall, 0, p, k, existing});
    }
    if (choices.empty())
      break;
    // Best first: least exposed time per byte, then the largest. Take as
    // many as the excess at step k needs before re-simulating (copies
    // queueing on the engines can make the estimate short; the next round
    // then adds more).
    std::sort(choices.begin(), choices.end(),
              [](const Choice &x, const Choice &y) {
                if (x.score != y.score)
                  return x.score < y.score;
                if (x.freed != y.freed)
                  return x.freed > y.freed;
                return x.index < y.index;
              });
    int64_t excess = current->liveBytes[k] - budget;
    for (const Choice &choice : choices) {
      if (excess <= 0)
        break;
      const BufferUses &uses = context.candidates[choice.index];
      switch (choice.kind) {
      case Kind::NewSwap:
        swapOf[choice.index] = static_cast<int32_t>(swaps.size());
        swaps.push_back(context.makeDecision(uses, choice.gap, choice.prefetch,
                                             choice.release, choice.writeOver));
        break;
      case Kind::Stall:
        swaps[choice.existing].releaseBefore = context.order[choice.release];
        swaps[choice.existing].writeOver = choice.writeOver;
        break;
      case Kind::DelayPrefetch: {
        SwapDecision &swap = swaps[choice.existing];
        (choice.segment == 0
             ? swap.prefetchAfter
             : swap.refetches[choice.segment - 1].prefetchAfter) =
            context.order[choice.prefetch];
        break;
      }
      case Kind::Refetch: {
        std::vector<SwapRefetch> &refetches = swaps[choice.existing].refetches;
        refetches.insert(refetches.begin() +
                             static_cast<std::ptrdiff_t>(choice.segment),
                         {context.order[uses.events[choice.gap - 1]],
                          context.order[choice.prefetch],
                          context.order[uses.events[choice.gap]]});
        break;
      }
      case Kind::EarlierGap: {
        SwapDecision &swap = swaps[choice.existing];
        SwapDecision moved = context.makeDecision(
            uses, choice.gap, choice.prefetch, choice.release);
        moved.refetches.push_back(
            {swap.lastEarlyUse, swap.prefetchAfter, swap.firstLateUse});
        moved.refetches.insert(moved.refetches.end(), swap.refetches.begin(),
                               swap.refetches.end());
        swap = std::move(moved);
        break;
      }
      }
      excess -= choice.freed;
    }
    std::optional<SwapEvaluation> next = context.evaluate(swaps, error);
    if (!next)
      return false;
    current = std::move(next);
    if (current->peakTransientBytes < smallest) {
      smallest = current->peakTransientBytes;
      lowest = swaps;
      atLowest = current;
    }
  }
  if (current->peakTransientBytes > budget &&
      atLowest->peakTransientBytes < current->peakTransientBytes) {
    swaps = std::move(lowest);
    current = std::move(atLowest);
  }
  return true;
}

/// Prefetch positions to try for a copy in issued after position \p p that
/// compute waits for: halving distances back towards \p a, then \p a.
static std::vector<int32_t> earlierPrefetches(int32_t p, int32_t a) {
  std::vector<int32_t> tries;
  for (int32_t step = 1; p - step > a; step *= 2)
    tries.push_back(p - step);
  if (p > a)
    tries.push_back(a);
  return tries;
}

bool PlannedSwaps::refine(std::vector<SwapDecision> &swaps,
                          SwapEvaluation &current, std::string *error) {
  int64_t budget = options.budgetTransientBytes;
  // Takes `trial` if it meets the budget in less time (or, unless
  // \p strictly, as fast); false on an evaluation error.
  auto keepIfFaster = [&](std::vector<SwapDecision> trial,
                          bool strictly = true) {
    std::optional<SwapEvaluation> next = context.evaluate(trial, error);
    if (!next)
      return false;
    double limit = strictly ? current.makespanSeconds - 1e-15
                            : current.makespanSeconds + 1e-15;
    if (next->peakTransientBytes <= budget &&
        (strictly ? next->makespanSeconds < limit
                  : next->makespanSeconds <= limit)) {
      swaps = std::move(trial);
      current = std::move(*next);
    }
    return true;
  };
  // Drop what the budget does not need, latest choice first: each swap's
  // refetches, then the swap.
  for (size_t i = swaps.size(); i-- > 0;) {
    for (size_t j = swaps[i].refetches.size(); j-- > 0;) {
      if (outOfWork())
        return true;
      std::vector<SwapDecision> trial = swaps;
      trial[i].refetches.erase(trial[i].refetches.begin() +
                               static_cast<std::ptrdiff_t>(j));
      if (!keepIfFaster(std::move(trial), /*strictly=*/false))
        return false;
    }
    if (outOfWork())
      return true;
    std::vector<SwapDecision> trial = swaps;
    trial.erase(trial.begin() + static_cast<std::ptrdiff_t>(i));
    if (!keepIfFaster(std::move(trial), /*strictly=*/false))
      return false;
  }
  // Stall later (less, or not at all) while the budget allows: try halving
  // distances towards the prefetch, then no stall.
  for (size_t i = 0; i < swaps.size(); ++i) {
    if (swaps[i].releaseBefore == kNoId)
      continue;
    int32_t r = context.position[swaps[i].releaseBefore];
    int32_t p = context.position[swaps[i].prefetchAfter];
    std::vector<int32_t> tries;
    for (int32_t step = 1; r + step <= p; step *= 2)
      tries.push_back(r + step);
    tries.push_back(-1);
    for (int32_t later : tries) {
      if (outOfWork())
        return true;
      std::vector<SwapDecision> trial = swaps;
      trial[i].releaseBefore = later < 0 ? kNoId : context.order[later];
      trial[i].writeOver = kNoId;
      if (!keepIfFaster(std::move(trial)))
        return false;
    }
  }
  // Move stalling prefetches earlier while the budget allows: try halving
  // distances towards the gap's start (or the stall) and keep the best.
  for (size_t i = 0; i < swaps.size(); ++i) {
    if (current.exposedSeconds() <= 0)
      break;
    if (outOfWork())
      return true;
    if (!current.stalls[i])
      continue;
    int32_t a = context.position[swaps[i].lastEarlyUse];
    if (swaps[i].releaseBefore != kNoId)
      a = context.position[swaps[i].releaseBefore];
    int32_t p = context.position[swaps[i].prefetchAfter];
    for (int32_t earlier : earlierPrefetches(p, a)) {
      std::vector<SwapDecision> trial = swaps;
      trial[i].prefetchAfter = context.order[earlier];
      if (!keepIfFaster(std::move(trial)))
        return false;
    }
  }
  // The same for the copies refetches bring back, towards the last read of
  // the copy before.
  for (size_t i = 0; i < swaps.size(); ++i) {
    for (size_t j = 0; j < swaps[i].refetches.size(); ++j) {
      if (current.exposedSeconds() <= 0)
        return true;
      if (outOfWork())
        return true;
      if (!current.refetchStalls[i][j])
        continue;
      int32_t a = context.position[swaps[i].refetches[j].lastUseBefore];
      int32_t p = context.position[swaps[i].refetches[j].prefetchAfter];
      for (int32_t earlier : earlierPrefetches(p, a)) {
        std::vector<SwapDecision> trial = swaps;
        trial[i].refetches[j].prefetchAfter = context.order[earlier];
        if (!keepIfFaster(std::move(trial)))
          return false;
      }
    }
  }
  return true;
}

std::optional<SwapPlan> mlir::memsched::scheduling::planSwap(
    const Problem &problem, const std::vector<TaskId> &order,
    const SwapOptions &options, std::string *error) {
  auto fail = [&](std::string message) -> std::optional<SwapPlan> {
    if (error)
      *error = std::move(message);
    return std::nullopt;
  };
  Clock::time_point start = Clock::now();
  if (!(options.link.hostToDeviceBytesPerSecond > 0) ||
      !(options.link.deviceToHostBytesPerSecond > 0))
    return fail("swap planning needs positive host link bandwidths in both "
                "directions");
  if (options.budgetTransientBytes < 0)
    return fail("the transient budget must not be negative");
  if (!options.swappable.empty() &&
      options.swappable.size() != problem.numValues())
    return fail("the swappable list must have one entry per value");
  SwapContext context(problem, order, options.link);
  if (!context.init(options.minBytes, error, options.swappable,
                    options.escapingWhole))
    return std::nullopt;
  SwapPlan plan;
  plan.algorithm = getSwapAlgorithmName(options.algorithm);
  plan.numCandidates = static_cast<int64_t>(context.candidates.size());
  std::optional<SwapEvaluation> before = context.evaluate({}, error);
  if (!before)
    return std::nullopt;
  plan.before = *before;
  int64_t budget = options.budgetTransientBytes;

  switch (options.algorithm) {
  case SwapAlgorithm::Planned: {
    // In each plan space from the smallest (the larger ones only where
    // they differ), keeping the best plan: a larger space lowers the
    // smallest peak (mobilenet_v2 at `min`: 1.52x its floor with one gap
    // per buffer, 1.38x with refetches, 1.00x with every part), but its
    // cheaper choices can lead the greedy to a slower plan, or to a
    // higher smallest peak (resnet50 at `min`: 1.003x with refetches,
    // 1.062x with every part). Writes over swapped values come last, in
    // the largest space, for the same reason (the LSTM at `min`: 1.66x its
    // floor without them, 1.00x with; mobilenet_v2's plan at `min` 0.2%
    // slower with them in every space).
    using Space = PlannedSwaps::Space;
    bool severalParts =
        std::any_of(context.candidates.begin(), context.candidates.end(),
                    [](const BufferUses &uses) { return !uses.longest; });
    bool inPlaceWrites = false;
    for (size_t task = 0; task < problem.numTasks() && !inPlaceWrites; ++task)
      inPlaceWrites =
          !problem.task(static_cast<TaskId>(task)).inPlaceWrites.empty();
    Space largest = severalParts ? Space::AllParts : Space::Refetches;
    std::vector<std::pair<Space, bool>> runs = {{Space::OneGap, false},
                                                {Space::Refetches, false}};
    if (severalParts)
      runs.push_back({Space::AllParts, false});
    if (inPlaceWrites && options.allowStalls)
      runs.push_back({largest, true});
    for (auto [space, writeOvers] : runs) {
      // The first run counts the evaluation of `before`, as the planner
      // always did.
      bool first = space == Space::OneGap;
      SwapPlan trial = plan;
      PlannedSwaps planner(context, options, space, writeOvers,
                           first ? 0 : context.evaluations);
      if (!planner.run(trial, error))
        return std::nullopt;
      if (first) {
        plan = std::move(trial);
        continue;
      }
      int64_t smallest =
          std::min(plan.smallestPeakTransient, trial.smallestPeakTransient);
      if (isBetter(trial.after, plan.after, budget))
        plan = std::move(trial);
      plan.smallestPeakTransient = smallest;
    }
    break;
  }
  case SwapAlgorithm::SizeIdle: {
    struct Ranked {
      double score;
      size_t index;
      size_t gap;
    };
    std::vector<Ranked> ranked;
    for (size_t index = 0; index < context.candidates.size(); ++index) {
      const BufferUses &uses = context.candidates[index];
      size_t gap = context.longestGap(uses);
      if (gap == 0 || !uses.longest)
        continue;
      double idle =
          context.computeBetween(uses.events[gap - 1] + 1, uses.events[gap]);
      ranked.push_back(
          {idle * static_cast<double>(context.valueBytes(uses.value)), index,
           gap});
    }
    std::stable_sort(
        ranked.begin(), ranked.end(),
        [](const Ranked &x, const Ranked &y) { return x.score > y.score; });
    std::vector<SwapDecision> swaps, bestSwaps;
    SwapEvaluation current = *before, best = *before;
    int64_t smallest = current.peakTransientBytes;
    for (const Ranked &entry : ranked) {
      if (current.peakTransientBytes <= budget)
        break;
      const BufferUses &uses = context.candidates[entry.index];
      int32_t a = uses.events[entry.gap - 1], c = uses.events[entry.gap];
      swaps.push_back(context.makeDecision(
          uses, entry.gap,
          context.justInTimePrefetch(a, c, context.valueBytes(uses.value))));
      std::optional<SwapEvaluation> next = context.evaluate(swaps, error);
      if (!next)
        return std::nullopt;
      current = std::move(*next);
      smallest = std::min(smallest, current.peakTransientBytes);
      if (isBetter(current, best, budget)) {
        best = current;
        bestSwaps = swaps;
      }
    }
    // The best prefix, not the last: when the budget is missed, later swaps
    // may have raised the peak again.
    plan.swaps = std::move(bestSwaps);
    plan.after = std::move(best);
    plan.smallestPeakTransient = smallest;
    break;
  }
  case SwapAlgorithm::Everything: {
    std::vector<SwapDecision> swaps;
    // vDNN offloads what the forward pass saves for the backward pass:
    // here, every candidate idle across the peak step without swaps.
    for (const BufferUses &uses : context.candidates) {
      size_t gap = context.gapAround(uses, before->peakStep);
      if (gap == 0 || !uses.longest)
        continue;
      int32_t a = uses.events[gap - 1], c = uses.events[gap];
      // One task ahead, but never at the gap's start: the swap-in would
      // then coexist with the buffer it replaces. Like vDNN, compute waits
      // for the copy out after the buffer's last early use.
      swaps.push_back(
          context.makeDecision(uses, gap, std::max(a + 1, c - 2), a + 1));
    }
    std::optional<SwapEvaluation> after = context.evaluate(swaps, error);
    if (!after)
      return std::nullopt;
    plan.swaps = std::move(swaps);
    plan.after = std::move(*after);
    plan.smallestPeakTransient = plan.after.peakTransientBytes;
    break;
  }
  }
  plan.withinBudget = plan.after.peakTransientBytes <= budget;
  plan.numEvaluations = context.evaluations;
  plan.solveSeconds = secondsSince(start);
  return plan;
}

std::optional<SwapPlan> mlir::memsched::scheduling::planSwapExhaustive(
    const Problem &problem, const std::vector<TaskId> &order,
    const SwapOptions &options, size_t maxCandidates, std::string *error) {
  Clock::time_point start = Clock::now();
  SwapContext context(problem, order, options.link);
  if (!context.init(options.minBytes, error))
    return std::nullopt;
  // Every candidate gap (not only the longest) of every buffer.
  struct Choice {
    size_t candidate;
    size_t gap;
  };
  std::vector<Choice> choices;
  for (size_t index = 0; index < context.candidates.size(); ++index) {
    const BufferUses &uses = context.candidates[index];
    for (size_t gap = uses.lateFrom; gap < uses.events.size(); ++gap)
      if (uses.events[gap] - uses.events[gap - 1] >= 2)
        choices.push_back({index, gap});
  }
  if (choices.size() > maxCandidates)
    choices.resize(maxCandidates);
  SwapPlan plan;
  plan.algorithm = "exhaustive";
  plan.numCandidates = static_cast<int64_t>(choices.size());
  std::optional<SwapEvaluation> before = context.evaluate({}, error);
  if (!before)
    return std::nullopt;
  plan.before = *before;
  plan.after = *before;
  plan.smallestPeakTransient = before->peakTransientBytes;
  int64_t budget = options.budgetTransientBytes;

  std::vector<SwapDecision> swaps;
  bool failed = false;
  // Depth-first over choices: skip, or take with each prefetch position
  // (one swap out per candidate), each with every set of refetches across
  // later gaps of its reads, each at every prefetch position.
  std::vector<bool> candidateTaken(context.candidates.size(), false);
  std::function<void(size_t)> visit;
  std::function<void(size_t, const BufferUses &, size_t)> visitRefetches =
      [&](size_t next, const BufferUses &uses, size_t fromGap) {
        visit(next + 1);
        for (size_t gap = fromGap; gap < uses.events.size(); ++gap) {
          int32_t a = uses.events[gap - 1], c = uses.events[gap];
          if (c - a < 2)
            continue;
          for (int32_t q = a; q < c; ++q) {
            swaps.back().refetches.push_back(
                {context.order[a], context.order[q], context.order[c]});
            visitRefetches(next, uses, gap + 1);
            swaps.back().refetches.pop_back();
          }
        }
      };
  visit = [&](size_t next) {
    if (failed)
      return;
    if (next == choices.size()) {
      std::optional<SwapEvaluation> evaluation = context.evaluate(swaps, error);
      if (!evaluation) {
        failed = true;
        return;
      }
      plan.smallestPeakTransient =
          std::min(plan.smallestPeakTransient, evaluation->peakTransientBytes);
      if (isBetter(*evaluation, plan.after, budget)) {
        plan.after = std::move(*evaluation);
        plan.swaps = swaps;
      }
      return;
    }
    visit(next + 1);
    const Choice &choice = choices[next];
    const BufferUses &uses = context.candidates[choice.candidate];
    if (candidateTaken[choice.candidate])
      return;
    candidateTaken[choice.candidate] = true;
    int32_t a = uses.events[choice.gap - 1], c = uses.events[choice.gap];
    // The last early use may write over the value (waiting for its copy
    // out); r == a stands for that.
    ValueId writeOver = options.allowStalls && choice.gap > uses.lateFrom
                            ? context.findWriteOver(uses.buffer, uses.value, a)
                            : kNoId;
    for (int32_t p = a; p < c; ++p) {
      for (int32_t r = writeOver != kNoId    ? a
                       : options.allowStalls ? a + 1
                                             : p + 1;
           r <= p + 1; ++r) {
        // r == p + 1 stands for no stall.
        swaps.push_back(context.makeDecision(
            uses, choice.gap, p, r <= p ? r : -1, r == a ? writeOver : kNoId));
        visitRefetches(next, uses, choice.gap + 1);
        swaps.pop_back();
      }
    }
    candidateTaken[choice.candidate] = false;
  };
  visit(0);
  if (failed)
    return std::nullopt;
  plan.withinBudget = plan.after.peakTransientBytes <= budget;
  plan.solveSeconds = secondsSince(start);
  return plan;
}

std::optional<IssuedSwapProfile>
mlir::memsched::scheduling::simulateIssuedSwaps(
    const Problem &problem, const std::vector<TaskId> &order,
    const std::vector<IssuedSwapOut> &outs,
    const std::vector<IssuedSwapIn> &ins, const LinkSpec &link,
    std::string *error) {
  auto fail = [&](std::string message) -> std::optional<IssuedSwapProfile> {
    if (error)
      *error = std::move(message);
    return std::nullopt;
  };
  std::optional<MemoryProfile> profile = simulateMemory(problem, order, error);
  if (!profile)
    return std::nullopt;
  std::vector<CopyTask> copies;
  for (const IssuedSwapOut &out : outs) {
    if (out.buffer < 0 ||
        static_cast<size_t>(out.buffer) >= problem.numBuffers())
      return fail("swap-out refers to an invalid buffer");
    CopyTask copy;
    copy.name = problem.task(out.task).name;
    copy.bytes = out.bytes;
    copy.direction = CopyDirection::DeviceToHost;
    copy.issuedAfter = out.task;
    copy.neededBy = out.release;
    copies.push_back(copy);
  }
  for (const IssuedSwapIn &in : ins) {
    if (in.swapOut < 0 || static_cast<size_t>(in.swapOut) >= outs.size())
      return fail("swap-in refers to an invalid swap-out");
    CopyTask copy;
    copy.name = problem.task(in.task).name;
    copy.bytes = in.bytes;
    copy.direction = CopyDirection::HostToDevice;
    copy.issuedAfter = in.task;
    copy.neededBy = in.neededBy;
    copy.afterCopy = in.swapOut;
    copies.push_back(copy);
  }
  std::optional<Timeline> timeline =
      simulateTime(problem, order, copies, link, error);
  if (!timeline)
    return std::nullopt;
  int32_t n = static_cast<int32_t>(order.size());
  std::vector<double> endAt(n);
  std::vector<int32_t> position(problem.numTasks(), 0);
  for (int32_t pos = 0; pos < n; ++pos) {
    endAt[pos] = timeline->tasks[order[pos]].end;
    position[order[pos]] = pos;
  }

  IssuedSwapProfile result;
  std::vector<bool> escaping = problem.escapingBuffers();
  std::vector<int64_t> delta(n + 1, 0);
  for (size_t i = 0; i < outs.size(); ++i) {
    const IssuedSwapOut &out = outs[i];
    BufferLifetime &lifetime = profile->lifetimes[out.buffer];
    const Buffer &buffer = problem.buffer(out.buffer);
    if (buffer.kind != BufferKind::Transient || escaping[out.buffer] ||
        !lifetime.isLive())
      continue;
    int32_t copyEnd = firstEndingAtOrAfter(endAt, timeline->copies[i].end);
    // Compute waits for the copy at the release task: free after it.
    if (out.release != kNoId)
      copyEnd = std::min(copyEnd, position[out.release]);
    int32_t holdEnd = std::min(std::max(lifetime.end, copyEnd), n - 1);
    if (holdEnd > lifetime.end) {
      delta[lifetime.end + 1] += buffer.sizeBytes;
      delta[holdEnd + 1] -= buffer.sizeBytes;
      lifetime.end = holdEnd;
    }
  }
  int64_t running = 0;
  profile->peakTransientBytes = 0;
  profile->maxLiveBytes = 0;
  profile->peakStep = n > 0 ? 0 : -1;
  for (int32_t pos = 0; pos < n; ++pos) {
    running += delta[pos];
    profile->liveBytes[pos] += running;
    profile->liveBufferBytes[pos] += running;
    if (profile->liveBytes[pos] > profile->peakTransientBytes) {
      profile->peakTransientBytes = profile->liveBytes[pos];
      profile->peakStep = pos;
    }
    profile->maxLiveBytes =
        std::max(profile->maxLiveBytes, profile->liveBufferBytes[pos]);
  }
  for (size_t i = 0; i < copies.size(); ++i) {
    result.transferSeconds +=
        timeline->copies[i].end - timeline->copies[i].start;
    result.swapBytes += copies[i].bytes;
  }
  result.profile = std::move(*profile);
  result.timeline = std::move(*timeline);
  return result;
}

std::optional<AppliedSwaps> mlir::memsched::scheduling::applySwaps(
    const Problem &problem, const std::vector<TaskId> &order,
    const std::vector<SwapDecision> &swaps, std::string *error) {
  auto fail = [&](std::string message) -> std::optional<AppliedSwaps> {
    if (error)
      *error = std::move(message);
    return std::nullopt;
  };
  size_t n = order.size();
  if (n != problem.numTasks())
    return fail("the order does not cover every task");
  std::vector<int32_t> position(n);
  for (size_t pos = 0; pos < n; ++pos)
    position[order[pos]] = static_cast<int32_t>(pos);
  AppliedSwaps applied;
  applied.problem = problem;
  Problem &result = applied.problem;
  // Tasks to run right after each position, in insertion order.
  std::vector<std::vector<TaskId>> after(n);
  // The values of each buffer: a swapped buffer's views are among them.
  std::vector<std::vector<ValueId>> valuesOfBuffer(problem.numBuffers());
  for (size_t id = 0; id < problem.numValues(); ++id)
    valuesOfBuffer[problem.value(static_cast<ValueId>(id)).buffer].push_back(
        static_cast<ValueId>(id));
  std::vector<std::pair<IssuedSwapIn, TaskId>> refetchIns;
  // By buffer: the buffer a write over a value moves it into, or itself.
  std::vector<BufferId> mergedInto(problem.numBuffers());
  std::iota(mergedInto.begin(), mergedInto.end(), 0);
  auto finalBuffer = [&](BufferId buffer) {
    // No merge closes a cycle (checked where each is made); the buffers of
    // copies brought back are never merged.
    while (static_cast<size_t>(buffer) < mergedInto.size() &&
           mergedInto[buffer] != buffer)
      buffer = mergedInto[buffer];
    return buffer;
  };
  for (size_t i = 0; i < swaps.size(); ++i) {
    const SwapDecision &swap = swaps[i];
    if (swap.value < 0 ||
        static_cast<size_t>(swap.value) >= problem.numValues())
      return fail("swap decision refers to an invalid value");
    int64_t bytes = problem.value(swap.value).sizeBytes;
    Task outTask;
    outTask.name = "swap_out";
    TaskId out = result.addTask(outTask);
    Buffer host;
    host.name = "host";
    BufferId hostBuffer = result.addBuffer(host);
    Value hostValue;
    hostValue.buffer = hostBuffer;
    hostValue.producer = out;
    hostValue.definedBy = out;
    ValueId hostId = result.addValue(hostValue);
    result.addConsumer(swap.value, out);
    // Per copy brought back: the swap-in task, issued after `prefetch`,
    // and the value the reads from `firstUse` on (up to the next copy's)
    // read.
    struct CopyIn {
      TaskId task;
      ValueId value;
      TaskId prefetch;
      TaskId firstUse;
    };
    std::vector<CopyIn> copiesIn;
    auto addCopyIn = [&](TaskId prefetch, TaskId firstUse) {
      Task inTask;
      inTask.name = "swap_in";
      TaskId in = result.addTask(inTask);
      result.addConsumer(hostId, in);
      Buffer device;
      device.name = "swapped_in";
      device.sizeBytes = bytes;
      BufferId deviceBuffer = result.addBuffer(device);
      Value swapped;
      swapped.sizeBytes = bytes;
      swapped.buffer = deviceBuffer;
      swapped.producer = in;
      swapped.definedBy = in;
      copiesIn.push_back({in, result.addValue(swapped), prefetch, firstUse});
    };
    addCopyIn(swap.prefetchAfter, swap.firstLateUse);
    for (const SwapRefetch &refetch : swap.refetches)
      addCopyIn(refetch.prefetchAfter, refetch.firstUse);
    // The copy brought back that a read at `pos` reads, or -1 (early).
    auto copyInAt = [&](int32_t pos) {
      int32_t which = -1;
      for (size_t k = 0; k < copiesIn.size(); ++k)
        if (pos >= position[copiesIn[k].firstUse])
          which = static_cast<int32_t>(k);
      return which;
    };
    // Late reads of the value or of a view of it read a copy brought back
    // (through a view of it made anew).
    for (ValueId read : valuesOfBuffer[problem.value(swap.value).buffer]) {
      if (getViewRoot(problem, read) != swap.value)
        continue;
      std::vector<TaskId> &readers = result.value(read).consumers;
      std::vector<TaskId> early;
      for (TaskId reader : readers) {
        int32_t which =
            reader < static_cast<TaskId>(n) ? copyInAt(position[reader]) : -1;
        if (which >= 0)
          result.value(copiesIn[which].value).consumers.push_back(reader);
        else
          early.push_back(reader);
      }
      result.value(read).consumers = std::move(early);
    }
    // A late part that ends at an in-place write over the value: that
    // write and the values after it in the buffer go into the copy it
    // reads.
    for (ValueId later : valuesOfBuffer[problem.value(swap.value).buffer]) {
      ValueId root = getViewRoot(problem, later);
      TaskId producer = problem.value(root).producer;
      if (root == swap.value || producer == kNoId ||
          position[producer] < position[swap.firstLateUse])
        continue;
      int32_t which = copyInAt(position[producer]);
      result.value(later).buffer = result.value(copiesIn[which].value).buffer;
    }
    after[position[swap.issueAfter]].push_back(out);
    after[position[swap.prefetchAfter]].push_back(copiesIn[0].task);
    TaskId wait = kNoId;
    if (swap.releaseBefore != kNoId) {
      if (swap.releaseBefore < 0 ||
          static_cast<size_t>(swap.releaseBefore) >= n ||
          position[swap.releaseBefore] == 0)
        return fail("swap decision stalls before an invalid task");
      Task waitTask;
      waitTask.name = "swap_wait";
      wait = result.addTask(waitTask);
      result.addConsumer(hostId, wait);
      after[position[swap.releaseBefore] - 1].push_back(wait);
    }
    if (swap.writeOver != kNoId) {
      if (swap.writeOver < 0 ||
          static_cast<size_t>(swap.writeOver) >= problem.numValues() ||
          swap.releaseBefore != swap.lastEarlyUse ||
          getWriteOverInput(problem, swap) == kNoId)
        return fail("swap decision writes over its value without an "
                    "in-place write at its last early use");
      // The result and what follows it in its buffer live in the swapped
      // buffer (merged below: that buffer may itself be written over).
      BufferId written = problem.value(swap.writeOver).buffer;
      if (mergedInto[written] != written || finalBuffer(swap.buffer) == written)
        return fail("two swap decisions write over values into one buffer");
      mergedInto[written] = swap.buffer;
    }
    applied.outs.push_back({out, swap.buffer, bytes, wait});
    applied.ins.push_back(
        {copiesIn[0].task, static_cast<int32_t>(i), swap.firstLateUse, bytes});
    for (size_t k = 1; k < copiesIn.size(); ++k)
      refetchIns.push_back({{copiesIn[k].task, static_cast<int32_t>(i),
                             copiesIn[k].firstUse, bytes},
                            copiesIn[k].prefetch});
  }
  for (size_t id = 0; id < problem.numValues(); ++id) {
    Value &value = result.value(static_cast<ValueId>(id));
    value.buffer = finalBuffer(value.buffer);
  }
  for (IssuedSwapOut &out : applied.outs)
    out.buffer = finalBuffer(out.buffer);
  // Copies in of refetches come after every first one, as in
  // makeSwapCopies().
  for (const auto &[in, prefetch] : refetchIns) {
    applied.ins.push_back(in);
    after[position[prefetch]].push_back(in.task);
  }
  // At one position swap-outs run first (a swap-in never precedes the
  // swap-out it reads), then waits, then swap-ins: a swap-in issued where
  // compute stalls takes its buffer (and starts its copy) after the stall.
  auto rank = [&](TaskId task) {
    const std::string &name = result.task(task).name;
    return name == "swap_out" ? 0 : name == "swap_wait" ? 1 : 2;
  };
  for (size_t pos = 0; pos < n; ++pos) {
    applied.order.push_back(order[pos]);
    std::stable_sort(after[pos].begin(), after[pos].end(),
                     [&](TaskId x, TaskId y) { return rank(x) < rank(y); });
    for (TaskId task : after[pos])
      applied.order.push_back(task);
  }
  return applied;
}
