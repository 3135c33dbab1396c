//===- Remat.cpp - Rematerialization plans for general problems -*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// A plan is a drop set; everything else (where clones run, which reads use
// which copy) follows from it, so every algorithm here only chooses drop sets
// and every drop set is judged by the same full expansion and simulation.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Remat.h"
#include "Deadline.h"
#include "RematIlp.h"
#include "RematRotor.h"
#include "memsched/Scheduling/MemorySimulator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

using namespace mlir::memsched::scheduling;

namespace {
using Clock = std::chrono::steady_clock;

/// Lists of ids by key in one array (compressed rows): key k's entries are
/// entries[offsets[k]] up to entries[offsets[k + 1]], in the order added.
/// The expansion builds several per candidate plan; one array each keeps
/// that to a few allocations on large problems.
struct FlatLists {
  std::vector<int32_t> offsets;
  std::vector<int32_t> entries;

  /// \p forEach(add) calls add(key, entry) for every entry; it is run twice.
  template <typename ForEach>
  static FlatLists build(size_t numKeys, ForEach forEach) {
    FlatLists lists;
    lists.offsets.assign(numKeys + 1, 0);
    forEach([&](int32_t key, int32_t) { ++lists.offsets[key + 1]; });
    for (size_t k = 0; k < numKeys; ++k)
      lists.offsets[k + 1] += lists.offsets[k];
    lists.entries.resize(lists.offsets[numKeys]);
    std::vector<int32_t> next(lists.offsets.begin(), lists.offsets.end() - 1);
    forEach([&](int32_t key, int32_t entry) {
      lists.entries[next[key]++] = entry;
    });
    return lists;
  }
  const int32_t *begin(int32_t key) const {
    return entries.data() + offsets[key];
  }
  const int32_t *end(int32_t key) const {
    return entries.data() + offsets[key + 1];
  }
};

/// What the expansion of every plan of one problem reads of it: the values
/// each task defines, and those it reads (a value once per read). Built
/// once per planning run.
struct ExpansionLists {
  FlatLists definedValues;
  FlatLists reads;

  explicit ExpansionLists(const Problem &problem)
      : definedValues(FlatLists::build(
            problem.numTasks(),
            [&](auto add) {
              for (size_t v = 0; v < problem.numValues(); ++v)
                if (TaskId def =
                        problem.value(static_cast<ValueId>(v)).definedBy;
                    def != kNoId)
                  add(def, static_cast<ValueId>(v));
            })),
        reads(FlatLists::build(problem.numTasks(), [&](auto add) {
          for (size_t v = 0; v < problem.numValues(); ++v)
            for (TaskId reader :
                 problem.value(static_cast<ValueId>(v)).consumers)
              add(reader, static_cast<ValueId>(v));
        })) {}
};

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// What recomputing one buffer takes on its own.
struct BufferRecipe {
  /// Whether the buffer can be recomputed: transient, not escaping, every
  /// value defined by a task without side effects, written at least once.
  bool recomputable = false;
  /// Tasks defining the buffer's values (writers, views, the empty tensor),
  /// in program order: what a copy clones.
  std::vector<TaskId> definers;
  /// Values outside the buffer that the definers read.
  std::vector<ValueId> externalReads;
  /// Sum of the definers' durations.
  double seconds = 0;
  /// Last task using the buffer in the input order.
  TaskId lastUse = kNoId;
};

/// A buffer that can be dropped: recomputable, with a gap in its uses.
/// One gap may have several candidates (variants) that differ in where the
/// copy is made; at most one of them is dropped.
struct Candidate {
  BufferId buffer = kNoId;
  /// Last use before the gap; the original is freed after it.
  TaskId dropAfter = kNoId;
  /// First read after the gap; reads from here on use the copy.
  TaskId firstLate = kNoId;
  /// The copy is made right before this task: firstLate, or earlier, right
  /// after the last use of an input of its definers, so that the input is
  /// read before it dies instead of being recomputed too (Checkmate's
  /// freedom to recompute at any stage).
  TaskId insertBefore = kNoId;
  /// Whether inputs of the definers that are dead by then are kept alive
  /// until the copy is made, rather than recomputed with it.
  bool keepsInputs = false;
  /// Whether clones run inside the gap, before the copy is made, read the
  /// value as it was before the gap (which then lives until they run)
  /// rather than the copy made early for them.
  bool lendsOriginal = false;
  /// Whether dead inputs of the definers that another dropped gap copies
  /// later (for readers after this copy) are recomputed with this copy,
  /// rather than that copy being made here, early, and kept until its own
  /// readers: the inputs are then recomputed twice, and neither copy lives
  /// across the high stretch between the two readers.
  bool privateInputs = false;
  /// The first variant of the same gap and the number of variants; the
  /// variants of a gap are contiguous in the candidate list.
  int32_t firstVariant = 0;
  int32_t numVariants = 1;
};

/// A drop set turned into clone runs and redirected reads, plus its
/// simulation.
struct Evaluation {
  /// False for a drop set whose clones cannot be ordered; then only
  /// `plan.peakTransientAfter` (INT64_MAX) and `plan.withinBudget` (false)
  /// are set.
  bool isValid = true;
  RematPlan plan;
  MemoryProfile profile;
  /// Position of each input task in the expanded order.
  std::vector<int32_t> positionOf;

  /// The steps of this plan at which dropping \p candidate frees its
  /// buffer, [first, second): after its last use before the gap, up to the
  /// clones already run before the copy's insertion point (the copy would
  /// be live with them).
  std::pair<int32_t, int32_t> freedSteps(const Candidate &candidate) const {
    return {positionOf[candidate.dropAfter] + 1,
            positionOf[candidate.insertBefore - 1] + 1};
  }
  /// Whether dropping \p candidate frees its buffer at \p step.
  bool frees(const Candidate &candidate, int32_t step) const {
    auto [first, end] = freedSteps(candidate);
    return first <= step && step < end;
  }
};

/// Everything derived once from the problem.
class RematContext {
public:
  RematContext(const Problem &problem, bool singleRecompute, bool escapingWhole,
               size_t maxGroupSize = kMaxGroupSize);

  /// A recomputation that needs more than this many buffers recomputed with
  /// it is rarely worth it; the cap also keeps the greedy's scoring of every
  /// candidate linear (a weight gradient's dead inputs would otherwise pull
  /// in the whole backward).
  static constexpr size_t kMaxGroupSize = 32;
  /// The cap of auto's deep greedy, run where nothing meets the budget:
  /// longer chains of activations recomputed from fewer kept ones.
  static constexpr size_t kDeepGroupSize = 256;

  /// The buffers recomputed together with dropped candidate \p c: c, and
  /// recursively every input buffer that is dead by c's first late read,
  /// recomputable and not negligible next to c (a tiny input, e.g. a batch
  /// statistic, is kept alive instead), up to maxGroupSize buffers. Inputs
  /// whose dropped candidates make copies in time are read from those
  /// copies. \p extended collects the dead inputs kept alive.
  std::vector<BufferId> collectGroup(int32_t c,
                                     const std::vector<char> &dropped,
                                     std::vector<BufferId> *extended) const;
  /// The dropped gap of \p buffer whose copy a read at task \p reader sees:
  /// the latest one that ends (frees its predecessor) before the reader, or
  /// -1 when the reader sees the original. A clone run right before
  /// \p reader (\p byClone) inside a lending gap, before its copy is made,
  /// reads what was live before the gap instead.
  int32_t copySource(BufferId buffer, TaskId reader,
                     const std::vector<char> &dropped,
                     bool byClone = false) const {
    const std::vector<int32_t> &gaps = gapsOf[buffer];
    for (auto it = gaps.rbegin(); it != gaps.rend(); ++it) {
      const Candidate &gap = candidates[*it];
      if (!dropped[*it] || gap.dropAfter >= reader)
        continue;
      if (byClone && gap.lendsOriginal && reader < gap.insertBefore)
        continue;
      return *it;
    }
    return -1;
  }
  /// The gap of \p buffer that spans task \p step (its variant that makes
  /// the copy at the first late read), or -1.
  int32_t gapSpanning(BufferId buffer, TaskId step) const {
    for (int32_t c : gapsOf[buffer])
      if (isLateVariant(c) && candidates[c].dropAfter < step &&
          candidates[c].firstLate > step)
        return c;
    return -1;
  }
  /// Whether candidate \p c makes its copy at the first late read.
  bool isLateVariant(int32_t c) const {
    return candidates[c].insertBefore == candidates[c].firstLate &&
           !candidates[c].keepsInputs && !candidates[c].lendsOriginal &&
           !candidates[c].privateInputs;
  }
  /// Whether candidate \p c makes its copy before its first late reader.
  bool isEarlyVariant(size_t c) const {
    return candidates[c].insertBefore < candidates[c].firstLate;
  }
  /// The candidate indices of the variants of \p c's gap, \p c included.
  std::pair<int32_t, int32_t> variantsOf(int32_t c) const {
    return {candidates[c].firstVariant,
            candidates[c].firstVariant + candidates[c].numVariants};
  }
  /// Whether another variant of \p c's gap is dropped.
  bool isVariantDropped(int32_t c, const std::vector<char> &dropped) const {
    auto [first, end] = variantsOf(c);
    for (int32_t k = first; k < end; ++k)
      if (k != c && dropped[k])
        return true;
    return false;
  }
  /// Whether a clone run right before \p task can read \p input's
  /// original: it is used at or right before that task, so the read extends
  /// its life by no other task.
  bool isAliveAt(BufferId input, TaskId task) const {
    return recipes[input].lastUse != kNoId &&
           recipes[input].lastUse + (singleRecompute ? 0 : 1) >= task;
  }
  /// Builds the plan of a drop set (flags by candidate index).
  RematPlan buildPlan(const std::vector<char> &dropped) const;
  /// Builds, expands and simulates a drop set.
  std::optional<Evaluation> evaluate(const std::vector<char> &dropped,
                                     int64_t budget, std::string *error) const;

  const Problem &problem;
  int32_t numTasks;
  /// RematOptions::singleRecompute.
  bool singleRecompute;
  /// RematOptions::escapingWhole.
  bool escapingWhole;
  /// The most buffers one drop's group recomputes (collectGroup).
  size_t maxGroupSize;
  /// Distinct values each task reads, in first-read order.
  std::vector<std::vector<ValueId>> reads;
  /// Values of each buffer.
  std::vector<std::vector<ValueId>> valuesIn;
  std::vector<BufferRecipe> recipes;
  /// Candidate indices of each buffer's gaps, in program order.
  std::vector<std::vector<int32_t>> gapsOf;
  std::vector<Candidate> candidates;
  /// For each candidate: whether it is not a privateInputs variant but
  /// another variant of a gap that has one. The greedy's usual path and the
  /// local search never drop privateInputs variants; the greedies that
  /// prefer private recomputation never drop these, but for the early ones
  /// with GreedyVariants::PrivateOrEarly.
  std::vector<char> hasPrivateVariant;
  TaskId firstImpureDefiner = kNoId;
  /// The lists every expansion of a plan reads.
  ExpansionLists expansionLists;
  /// The last evaluation's expansion, whose storage the next one reuses
  /// (most of an evaluation's allocations otherwise).
  mutable RematExpansion scratchExpansion;
  mutable int64_t numEvaluations = 0;
};

/// When the un-drop refinement and the segment searches stop: once the
/// plan evaluations of the whole call reach the work limit, or at the
/// optional deadline.
struct SearchLimit {
  const RematContext &context;
  int64_t maxEvaluations;
  detail::Deadline deadline;

  bool reached() const {
    return (maxEvaluations > 0 && context.numEvaluations >= maxEvaluations) ||
           deadline.expired();
  }
};
} // namespace

RematContext::RematContext(const Problem &problem, bool singleRecompute,
                           bool escapingWhole, size_t maxGroupSize)
    : problem(problem), numTasks(static_cast<int32_t>(problem.numTasks())),
      singleRecompute(singleRecompute), escapingWhole(escapingWhole),
      maxGroupSize(maxGroupSize), expansionLists(problem) {
  reads.resize(problem.numTasks());
  valuesIn.resize(problem.numBuffers());
  for (size_t v = 0; v < problem.numValues(); ++v) {
    const Value &value = problem.value(static_cast<ValueId>(v));
    valuesIn[value.buffer].push_back(static_cast<ValueId>(v));
    for (TaskId reader : value.consumers) {
      std::vector<ValueId> &list = reads[reader];
      if (std::find(list.begin(), list.end(), static_cast<ValueId>(v)) ==
          list.end())
        list.push_back(static_cast<ValueId>(v));
    }
  }

  std::vector<bool> escaping = problem.escapingBuffers();
  recipes.resize(problem.numBuffers());
  gapsOf.resize(problem.numBuffers());
  std::vector<std::pair<BufferId, TaskId>> gapBuffers;
  for (size_t b = 0; b < problem.numBuffers(); ++b) {
    const Buffer &buffer = problem.buffer(static_cast<BufferId>(b));
    BufferRecipe &recipe = recipes[b];
    if (buffer.kind != BufferKind::Transient || escaping[b] ||
        valuesIn[b].empty())
      continue;
    TaskId lastWriter = kNoId;
    for (ValueId v : valuesIn[b]) {
      const Value &value = problem.value(v);
      // A transient value nothing defines is a destination placeholder (a
      // free tensor.empty, or a view of one): the copy's writer allocates
      // again, so there is nothing to recompute.
      if (value.definedBy == kNoId)
        continue;
      recipe.definers.push_back(value.definedBy);
      if (value.producer != kNoId)
        lastWriter = std::max(lastWriter, value.producer);
      recipe.lastUse = std::max(recipe.lastUse, value.producer);
      for (TaskId reader : value.consumers)
        recipe.lastUse = std::max(recipe.lastUse, reader);
    }
    if (lastWriter == kNoId)
      continue;
    std::sort(recipe.definers.begin(), recipe.definers.end());
    recipe.definers.erase(
        std::unique(recipe.definers.begin(), recipe.definers.end()),
        recipe.definers.end());
    TaskId impure = kNoId;
    for (TaskId definer : recipe.definers)
      if (problem.task(definer).isFence)
        impure = definer;
    if (impure != kNoId) {
      if (buffer.sizeBytes > 0 &&
          (firstImpureDefiner == kNoId || impure < firstImpureDefiner))
        firstImpureDefiner = impure;
      continue;
    }
    recipe.recomputable = true;
    for (TaskId definer : recipe.definers) {
      recipe.seconds += problem.task(definer).duration;
      for (ValueId v : reads[definer])
        if (problem.value(v).buffer != static_cast<BufferId>(b) &&
            std::find(recipe.externalReads.begin(), recipe.externalReads.end(),
                      v) == recipe.externalReads.end())
          recipe.externalReads.push_back(v);
    }
    if (buffer.sizeBytes <= 0)
      continue;

    gapBuffers.emplace_back(static_cast<BufferId>(b), lastWriter);
  }
  // Gaps, once every buffer's last use is known (early variants use their
  // inputs').
  constexpr int32_t kMaxTasksForLending = 2000;
  bool allowsLending = !singleRecompute && numTasks <= kMaxTasksForLending;
  // Scratch of the early points' walk, reused across gaps.
  std::vector<BufferId> recomputedWith;
  std::unordered_set<BufferId> seen;
  for (auto [b, lastWriter] : gapBuffers) {
    const BufferRecipe &recipe = recipes[b];
    // The gaps: distances of at least two tasks between consecutive uses
    // from the last write on. Each is a candidate of its own, so a value
    // can be dropped and recomputed once per group of late readers; with
    // singleRecompute only the largest gap is. The largest kMaxGapsPerBuffer
    // are kept, which bounds the candidates of a value read all along the
    // program.
    constexpr size_t kMaxGapsPerBuffer = 16;
    std::vector<TaskId> uses{lastWriter};
    for (ValueId v : valuesIn[b])
      for (TaskId reader : problem.value(v).consumers)
        if (reader > lastWriter)
          uses.push_back(reader);
    std::sort(uses.begin(), uses.end());
    uses.erase(std::unique(uses.begin(), uses.end()), uses.end());
    std::vector<size_t> gaps;
    for (size_t i = 1; i < uses.size(); ++i)
      if (uses[i] - uses[i - 1] >= 2)
        gaps.push_back(i);
    // Largest first; the later gap among equals, as the single-gap rule
    // always chose.
    std::stable_sort(gaps.begin(), gaps.end(), [&](size_t x, size_t y) {
      return uses[x] - uses[x - 1] > uses[y] - uses[y - 1] ||
             (uses[x] - uses[x - 1] == uses[y] - uses[y - 1] && x > y);
    });
    gaps.resize(std::min(gaps.size(), singleRecompute ? 1 : kMaxGapsPerBuffer));
    std::sort(gaps.begin(), gaps.end());
    for (size_t gapAt : gaps) {
      Candidate candidate;
      candidate.buffer = static_cast<BufferId>(b);
      candidate.dropAfter = uses[gapAt - 1];
      candidate.firstLate = uses[gapAt];
      candidate.insertBefore = candidate.firstLate;
      candidate.firstVariant = static_cast<int32_t>(candidates.size());
      // Early variants: right after an input of the definers is last used
      // inside the gap (the latest kMaxEarlyVariants such points), leaving
      // at least one task between the drop and the copy. Where those are
      // fewer, the inputs of inputs that die with the buffer (which the copy
      // recomputes), recursively, fill up: a gradient computed from a scratch
      // buffer that dies at once (a convolution's dilated output gradient)
      // is best recomputed right after that buffer's own input is last read
      // (mobilenet_v2 at `min`: 528 -> 413 MiB).
      constexpr size_t kMaxEarlyVariants = 3;
      std::vector<TaskId> points, deeperPoints;
      if (!singleRecompute) {
        recomputedWith.assign(1, static_cast<BufferId>(b));
        seen.clear();
        seen.insert(static_cast<BufferId>(b));
        for (size_t i = 0; i < recomputedWith.size(); ++i)
          for (ValueId v : recipes[recomputedWith[i]].externalReads) {
            BufferId input = problem.value(v).buffer;
            const Buffer &inputBuffer = problem.buffer(input);
            if (inputBuffer.kind != BufferKind::Transient ||
                !seen.insert(input).second)
              continue;
            TaskId last = recipes[input].lastUse;
            if (last != kNoId && last + 1 > candidate.dropAfter + 1 &&
                last + 1 < candidate.firstLate)
              (i == 0 ? points : deeperPoints).push_back(last + 1);
            if (recipes[input].recomputable && last != kNoId &&
                last <= candidate.dropAfter &&
                inputBuffer.sizeBytes * 64 > problem.buffer(b).sizeBytes &&
                recomputedWith.size() < maxGroupSize)
              recomputedWith.push_back(input);
          }
      }
      auto latestFirst = [](std::vector<TaskId> &list) {
        std::sort(list.begin(), list.end(), std::greater<TaskId>());
        list.erase(std::unique(list.begin(), list.end()), list.end());
      };
      latestFirst(points);
      points.resize(std::min(points.size(), kMaxEarlyVariants));
      latestFirst(deeperPoints);
      for (TaskId point : deeperPoints)
        if (points.size() < kMaxEarlyVariants &&
            std::find(points.begin(), points.end(), point) == points.end())
          points.push_back(point);
      latestFirst(points);
      points.insert(points.begin(), candidate.firstLate);
      // At each point, a variant that keeps the dead inputs alive until the
      // copy is made where some input would otherwise be recomputed with it.
      auto recomputesInputs = [&](TaskId point) {
        for (ValueId v : recipe.externalReads) {
          BufferId input = problem.value(v).buffer;
          if (problem.buffer(input).kind == BufferKind::Transient &&
              recipes[input].recomputable && !isAliveAt(input, point))
            return true;
        }
        return false;
      };
      // Each also in a lending version where the problem is small enough
      // for the local search, which is what chooses between them.
      auto addVariant = [&](TaskId point, bool keepsInputs,
                            bool privateInputs = false) {
        candidate.insertBefore = point;
        candidate.keepsInputs = keepsInputs;
        candidate.privateInputs = privateInputs;
        candidate.lendsOriginal = false;
        candidates.push_back(candidate);
        if (allowsLending) {
          candidate.lendsOriginal = true;
          candidates.push_back(candidate);
        }
      };
      // Whether an input could be recomputed with the copy (and so could be
      // recomputed for it rather than read from a copy made for others).
      bool hasRecomputableInput = false;
      for (ValueId v : recipe.externalReads) {
        const Buffer &input = problem.buffer(problem.value(v).buffer);
        if (input.kind == BufferKind::Transient &&
            recipes[problem.value(v).buffer].recomputable &&
            input.sizeBytes * 64 > problem.buffer(b).sizeBytes)
          hasRecomputableInput = true;
      }
      for (TaskId point : points) {
        addVariant(point, /*keepsInputs=*/false);
        if (!singleRecompute && recomputesInputs(point))
          addVariant(point, /*keepsInputs=*/true);
      }
      // At the first late read, also the variant that recomputes inputs
      // other gaps copy later, rather than making those copies here; last,
      // so that the variants before it are the space searched whole.
      if (!singleRecompute && hasRecomputableInput)
        addVariant(candidate.firstLate, /*keepsInputs=*/false,
                   /*privateInputs=*/true);
      candidate.numVariants =
          static_cast<int32_t>(candidates.size()) - candidate.firstVariant;
      for (int32_t k = candidate.firstVariant;
           k < static_cast<int32_t>(candidates.size()); ++k)
        candidates[k].numVariants = candidate.numVariants;
    }
  }
  // Candidates in program order of their last writer (the forward order).
  std::vector<size_t> order(candidates.size());
  for (size_t c = 0; c < order.size(); ++c)
    order[c] = c;
  auto lastWriterOf = [&](size_t c) {
    TaskId last = kNoId;
    for (ValueId v : valuesIn[candidates[c].buffer])
      last = std::max(last, problem.value(v).producer);
    return last;
  };
  std::vector<TaskId> keys(candidates.size());
  for (size_t c = 0; c < keys.size(); ++c)
    keys[c] = lastWriterOf(c);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  // The sort is stable and a buffer's candidates share their key, so the
  // variants of a gap stay contiguous.
  std::vector<int32_t> newIndex(candidates.size());
  std::vector<Candidate> sorted;
  for (size_t c : order) {
    newIndex[c] = static_cast<int32_t>(sorted.size());
    gapsOf[candidates[c].buffer].push_back(static_cast<int32_t>(sorted.size()));
    sorted.push_back(candidates[c]);
  }
  for (Candidate &candidate : sorted)
    candidate.firstVariant = newIndex[candidate.firstVariant];
  candidates = std::move(sorted);
  hasPrivateVariant.assign(candidates.size(), 0);
  for (size_t c = 0; c < candidates.size(); ++c) {
    auto [first, end] = variantsOf(static_cast<int32_t>(c));
    for (int32_t k = first; k < end; ++k)
      if (candidates[k].privateInputs && !candidates[c].privateInputs)
        hasPrivateVariant[c] = 1;
  }
}

std::vector<BufferId>
RematContext::collectGroup(int32_t c, const std::vector<char> &dropped,
                           std::vector<BufferId> *extended) const {
  BufferId root = candidates[c].buffer;
  int64_t rootSize = problem.buffer(root).sizeBytes;
  std::vector<BufferId> group{root};
  // Few (a group's inputs): searched, not hashed, as this runs for every
  // candidate at the peak of every evaluation.
  std::vector<BufferId> seen{root};
  for (size_t i = 0; i < group.size(); ++i) {
    for (ValueId v : recipes[group[i]].externalReads) {
      BufferId input = problem.value(v).buffer;
      const Buffer &buffer = problem.buffer(input);
      if (buffer.kind != BufferKind::Transient ||
          std::find(seen.begin(), seen.end(), input) != seen.end())
        continue;
      bool joins = !candidates[c].keepsInputs && recipes[input].recomputable &&
                   buffer.sizeBytes * 64 > rootSize &&
                   group.size() < maxGroupSize;
      // An input another dropped gap copies is read from that copy, unless
      // this variant recomputes it rather than have that copy made early.
      int32_t copy = copySource(input, candidates[c].insertBefore, dropped,
                                /*byClone=*/true);
      if (copy >= 0 &&
          !(candidates[c].privateInputs && joins &&
            candidates[copy].insertBefore > candidates[c].insertBefore))
        continue;
      if (copy < 0 && isAliveAt(input, candidates[c].insertBefore))
        continue;
      seen.push_back(input);
      if (joins) {
        group.push_back(input);
        continue;
      }
      if (extended)
        extended->push_back(input);
    }
  }
  return group;
}

RematPlan RematContext::buildPlan(const std::vector<char> &dropped) const {
  RematPlan plan;
  std::vector<int32_t> droppedList;
  for (size_t c = 0; c < candidates.size(); ++c)
    if (dropped[c])
      droppedList.push_back(static_cast<int32_t>(c));
  std::vector<std::vector<BufferId>> groups(candidates.size());
  for (int32_t c : droppedList)
    groups[c] = collectGroup(c, dropped, nullptr);
  // Insertion points: before the first late reader, or earlier when a clone
  // made earlier reads the copy. A pull goes from an earlier insertion point
  // to a later one, so visiting them earliest first settles a chain of
  // dropped activations (the backward reaches its last one first) in one
  // sweep; the loop only confirms it.
  std::vector<TaskId> insertAt(candidates.size(), kNoId);
  for (int32_t c : droppedList)
    insertAt[c] = candidates[c].insertBefore;
  std::sort(droppedList.begin(), droppedList.end(), [&](int32_t x, int32_t y) {
    return candidates[x].insertBefore < candidates[y].insertBefore;
  });
  for (bool changed = true; changed;) {
    changed = false;
    for (int32_t c : droppedList)
      for (BufferId member : groups[c])
        for (ValueId v : recipes[member].externalReads) {
          // Inputs recomputed in the group (privateInputs) pull nothing.
          if (std::find(groups[c].begin(), groups[c].end(),
                        problem.value(v).buffer) != groups[c].end())
            continue;
          int32_t a = copySource(problem.value(v).buffer,
                                 candidates[c].insertBefore, dropped,
                                 /*byClone=*/true);
          if (a >= 0 && insertAt[c] < insertAt[a]) {
            insertAt[a] = insertAt[c];
            changed = true;
          }
        }
  }

  // Clone runs, one per (insertion point, task), in execution order.
  struct Run {
    TaskId insertBefore;
    TaskId task;
    int32_t owner;
  };
  std::vector<Run> runs;
  for (int32_t c : droppedList)
    for (BufferId member : groups[c])
      for (TaskId task : recipes[member].definers)
        runs.push_back({insertAt[c], task, c});
  std::sort(runs.begin(), runs.end(), [](const Run &x, const Run &y) {
    return std::tie(x.insertBefore, x.task, x.owner) <
           std::tie(y.insertBefore, y.task, y.owner);
  });
  // Among the runs before one task, those of copies made before their first
  // late reader run first: such a copy is placed right after an input's
  // last read so that it is made while little else is live, not after the
  // copies made there for that task itself (a convolution's input gradient
  // recomputed after the weight gradient, before the forward activation
  // the next backward op reads is recomputed). Runs keep their program
  // order within each class, and a point keeps its order where an early
  // run reads what a later one defines.
  // Early by where the copy is finally made (a pull can move it earlier).
  auto isEarly = [&](const Run &run) {
    return insertAt[run.owner] < candidates[run.owner].firstLate;
  };
  std::vector<TaskId> lateTasks;
  for (size_t begin = 0; begin < runs.size();) {
    size_t end = begin;
    while (end < runs.size() &&
           runs[end].insertBefore == runs[begin].insertBefore)
      ++end;
    lateTasks.clear();
    for (size_t i = begin; i < end; ++i)
      if (!isEarly(runs[i]))
        lateTasks.push_back(runs[i].task);
    std::sort(lateTasks.begin(), lateTasks.end());
    auto isLateTask = [&](TaskId task) {
      return std::binary_search(lateTasks.begin(), lateTasks.end(), task);
    };
    bool independent = !lateTasks.empty();
    for (size_t i = begin; i < end && independent; ++i)
      if (isEarly(runs[i]) && !isLateTask(runs[i].task))
        for (ValueId v : reads[runs[i].task])
          if (isLateTask(problem.value(v).definedBy))
            independent = false;
    if (independent)
      std::stable_partition(runs.begin() + begin, runs.begin() + end,
                            [&](const Run &run) {
                              return isEarly(run) && !isLateTask(run.task);
                            });
    begin = end;
  }
  std::unordered_map<int64_t, int32_t> runIndex;
  auto key = [](int64_t a, int64_t b) { return (a << 32) | b; };
  std::vector<int32_t> ownerOfRun;
  for (const Run &run : runs) {
    int64_t k = key(run.insertBefore, run.task);
    if (runIndex.count(k))
      continue;
    runIndex[k] = static_cast<int32_t>(plan.clones.size());
    plan.clones.push_back({run.task, run.insertBefore});
    ownerOfRun.push_back(run.owner);
  }
  auto copyAt = [&](TaskId insertBefore, ValueId v) {
    return runIndex.at(key(insertBefore, problem.value(v).definedBy));
  };

  for (int32_t c : droppedList) {
    plan.droppedBuffers.push_back(candidates[c].buffer);
    for (ValueId v : valuesIn[candidates[c].buffer]) {
      // Placeholders (free empties) have no copy: writers allocate anew.
      if (problem.value(v).definedBy == kNoId)
        continue;
      const std::vector<TaskId> &consumers = problem.value(v).consumers;
      for (size_t i = 0; i < consumers.size(); ++i) {
        TaskId reader = consumers[i];
        if (copySource(candidates[c].buffer, reader, dropped) != c ||
            std::find(consumers.begin(), consumers.begin() + i, reader) !=
                consumers.begin() + i)
          continue;
        plan.redirects.push_back({reader, v, copyAt(insertAt[c], v)});
      }
    }
  }
  for (size_t k = 0; k < plan.clones.size(); ++k) {
    int32_t owner = ownerOfRun[k];
    const std::vector<BufferId> &group = groups[owner];
    for (ValueId v : reads[plan.clones[k].task]) {
      if (problem.value(v).definedBy == kNoId)
        continue;
      BufferId buffer = problem.value(v).buffer;
      TaskId source = kNoId;
      if (std::find(group.begin(), group.end(), buffer) != group.end())
        source = insertAt[owner];
      else if (int32_t a =
                   copySource(buffer, candidates[owner].insertBefore, dropped,
                              /*byClone=*/true);
               a >= 0)
        source = insertAt[a];
      if (source != kNoId)
        plan.redirects.push_back(
            {numTasks + static_cast<int32_t>(k), v, copyAt(source, v)});
    }
    plan.recomputeSeconds += problem.task(plan.clones[k].task).duration;
  }
  std::sort(plan.droppedBuffers.begin(), plan.droppedBuffers.end());
  plan.droppedBuffers.erase(
      std::unique(plan.droppedBuffers.begin(), plan.droppedBuffers.end()),
      plan.droppedBuffers.end());
  return plan;
}

/// expandRematPlan with the problem's lists built beforehand, into
/// \p result, whose storage it reuses (a planner expands many plans of one
/// problem); false with \p error where the plan does not fit the problem,
/// \p outOfOrder set where a clone would read a value before it is
/// computed.
static bool expandWithLists(const Problem &problem, const ExpansionLists &lists,
                            const RematPlan &plan, RematExpansion &result,
                            std::string *error, bool *outOfOrder) {
  if (outOfOrder)
    *outOfOrder = false;
  auto fail = [&](const std::string &message) {
    if (error)
      *error = message;
    return false;
  };
  int32_t numTasks = static_cast<int32_t>(problem.numTasks());
  int32_t numClones = static_cast<int32_t>(plan.clones.size());
  for (size_t k = 0; k < plan.clones.size(); ++k) {
    const RematClone &clone = plan.clones[k];
    if (clone.task < 0 || clone.task >= numTasks || clone.insertBefore < 0 ||
        clone.insertBefore >= numTasks ||
        (k > 0 && plan.clones[k - 1].insertBefore > clone.insertBefore))
      return fail("clone " + std::to_string(k) +
                  " has an invalid task or insertion point");
  }
  // Expanded order: the clones inserted before each task, then the task.
  result.originOf.clear();
  std::vector<TaskId> newIdOfTask(numTasks), newIdOfClone(numClones);
  {
    size_t k = 0;
    for (TaskId t = 0; t < numTasks; ++t) {
      for (; k < plan.clones.size() && plan.clones[k].insertBefore == t; ++k) {
        newIdOfClone[k] = static_cast<TaskId>(result.originOf.size());
        result.originOf.push_back(plan.clones[k].task);
      }
      newIdOfTask[t] = static_cast<TaskId>(result.originOf.size());
      result.originOf.push_back(t);
    }
  }
  const FlatLists &definedValues = lists.definedValues;
  const FlatLists &reads = lists.reads;
  // Clone k's copies are the values firstCopy[k]..., one per value its task
  // defines, in definedValues' order. Each takes a buffer of its own per
  // original buffer, so aliases (in-place chains, views) stay together,
  // shared by the copies of one original buffer made by the clones of one
  // insertion point (the clone list is in insertion order): copyBuffer
  // holds them by copy, in that order.
  std::vector<ValueId> firstCopy(numClones);
  std::vector<BufferId> copyBuffer;
  size_t numBuffers = problem.numBuffers();
  {
    std::vector<std::pair<BufferId, BufferId>> pointBuffers;
    size_t numValues = problem.numValues();
    for (int32_t k = 0; k < numClones; ++k) {
      TaskId task = plan.clones[k].task;
      if (k == 0 ||
          plan.clones[k].insertBefore != plan.clones[k - 1].insertBefore)
        pointBuffers.clear();
      firstCopy[k] = static_cast<ValueId>(numValues);
      for (const int32_t *it = definedValues.begin(task),
                         *end = definedValues.end(task);
           it != end; ++it, ++numValues) {
        BufferId original = problem.value(*it).buffer;
        auto shared = std::find_if(
            pointBuffers.begin(), pointBuffers.end(),
            [&](const auto &entry) { return entry.first == original; });
        if (shared == pointBuffers.end()) {
          pointBuffers.emplace_back(original,
                                    static_cast<BufferId>(numBuffers++));
          shared = pointBuffers.end() - 1;
        }
        copyBuffer.push_back(shared->second);
      }
    }
  }
  Problem &expanded = result.problem;
  expanded.resizeForRebuild(result.originOf.size(), numBuffers,
                            problem.numValues() + copyBuffer.size());
  for (size_t t = 0; t < result.originOf.size(); ++t)
    expanded.task(static_cast<TaskId>(t)) = problem.task(result.originOf[t]);
  for (size_t b = 0; b < problem.numBuffers(); ++b)
    expanded.buffer(static_cast<BufferId>(b)) =
        problem.buffer(static_cast<BufferId>(b));

  // Original values keep their ids; copies follow.
  for (size_t v = 0; v < problem.numValues(); ++v) {
    Value &value = expanded.value(static_cast<ValueId>(v));
    assignAllButConsumers(value, problem.value(static_cast<ValueId>(v)));
    if (value.producer != kNoId)
      value.producer = newIdOfTask[value.producer];
    if (value.definedBy != kNoId)
      value.definedBy = newIdOfTask[value.definedBy];
  }
  auto copyOf = [&](int32_t k, ValueId v) -> ValueId {
    TaskId task = plan.clones[k].task;
    const int32_t *first = definedValues.begin(task);
    const int32_t *found = std::find(first, definedValues.end(task), v);
    return found == definedValues.end(task)
               ? kNoId
               : firstCopy[k] + static_cast<ValueId>(found - first);
  };
  // New buffers were numbered as copies first took them.
  BufferId nextNewBuffer = static_cast<BufferId>(problem.numBuffers());
  for (int32_t k = 0; k < numClones; ++k) {
    TaskId task = plan.clones[k].task;
    ValueId id = firstCopy[k];
    for (const int32_t *it = definedValues.begin(task),
                       *end = definedValues.end(task);
         it != end; ++it, ++id) {
      const Value &original = problem.value(*it);
      BufferId copyId = copyBuffer[id - problem.numValues()];
      if (copyId == nextNewBuffer) {
        ++nextNewBuffer;
        Buffer &buffer = expanded.buffer(copyId);
        buffer = problem.buffer(original.buffer);
        buffer.liveToEnd = false;
        buffer.kind = BufferKind::Transient;
      }
      Value &copy = expanded.value(id);
      assignAllButConsumers(copy, original);
      copy.buffer = copyId;
      copy.producer = original.producer == task ? newIdOfClone[k] : kNoId;
      copy.definedBy = newIdOfClone[k];
      copy.liveToEnd = false;
      copy.viewOf = kNoId;
    }
  }

  for (const RematRedirect &r : plan.redirects)
    if (r.clone < 0 || r.clone >= numClones || r.reader < 0 ||
        r.reader >= numTasks + numClones || r.value < 0 ||
        r.value >= static_cast<ValueId>(problem.numValues()) ||
        copyOf(r.clone, r.value) == kNoId)
      return fail("a redirected read names an invalid reader, value or clone");
  // The redirects by reader; where several name one read, the last holds.
  FlatLists redirectsOf = FlatLists::build(numTasks + numClones, [&](auto add) {
    for (size_t i = 0; i < plan.redirects.size(); ++i)
      add(plan.redirects[i].reader, static_cast<int32_t>(i));
  });
  // The value \p reader reads for \p v: \p v or a clone's copy of it.
  auto readValue = [&](int32_t reader, ValueId v) {
    ValueId read = v;
    for (const int32_t *it = redirectsOf.begin(reader),
                       *end = redirectsOf.end(reader);
         it != end; ++it)
      if (plan.redirects[*it].value == v)
        read = copyOf(plan.redirects[*it].clone, v);
    return read;
  };
  auto addReads = [&](int32_t reader, TaskId origin, TaskId newId) {
    for (const int32_t *it = reads.begin(origin), *end = reads.end(origin);
         it != end; ++it)
      expanded.addConsumer(readValue(reader, *it), newId);
  };
  for (TaskId t = 0; t < numTasks; ++t)
    addReads(t, t, newIdOfTask[t]);
  for (int32_t k = 0; k < numClones; ++k)
    addReads(numTasks + k, plan.clones[k].task, newIdOfClone[k]);
  for (auto [before, after] : problem.extraDependences())
    expanded.addDependence(newIdOfTask[before], newIdOfTask[after]);

  // In-place writes name the values of the expanded problem: a redirected
  // read's copy, and for a clone its own result.
  auto remapWrites = [&](int32_t reader, TaskId newId, int32_t clone) {
    std::vector<std::pair<ValueId, ValueId>> &writes =
        expanded.task(newId).inPlaceWrites;
    for (auto &[input, result] : writes) {
      input = readValue(reader, input);
      if (clone >= 0)
        result = copyOf(clone, result);
    }
    writes.erase(std::remove_if(writes.begin(), writes.end(),
                                [](const std::pair<ValueId, ValueId> &write) {
                                  return write.second == kNoId;
                                }),
                 writes.end());
  };
  for (TaskId t = 0; t < numTasks; ++t)
    if (!problem.task(t).inPlaceWrites.empty())
      remapWrites(t, newIdOfTask[t], -1);
  for (int32_t k = 0; k < numClones; ++k)
    if (!problem.task(plan.clones[k].task).inPlaceWrites.empty())
      remapWrites(numTasks + k, newIdOfClone[k], k);

  result.order.resize(result.originOf.size());
  std::iota(result.order.begin(), result.order.end(), 0);
  result.idOfInputTask = std::move(newIdOfTask);
  std::string why;
  if (!expanded.isTopologicalOrder(result.order, &why)) {
    if (outOfOrder)
      *outOfOrder = true;
    return fail("the plan reads a copy before it is made: " + why);
  }
  return true;
}

std::optional<RematExpansion> mlir::memsched::scheduling::expandRematPlan(
    const Problem &problem, const RematPlan &plan, std::string *error,
    bool *outOfOrder) {
  RematExpansion expansion;
  if (!expandWithLists(problem, ExpansionLists(problem), plan, expansion, error,
                       outOfOrder))
    return std::nullopt;
  return expansion;
}

std::optional<MemoryProfile> mlir::memsched::scheduling::simulateRematExpansion(
    RematExpansion &expansion, bool escapingWhole, std::string *error) {
  // The order was checked as the expansion was made, and the in-place
  // writes only move values into buffers that exist: one check of the
  // references is all the simulations need.
  std::string why;
  if (!expansion.problem.verifyReferences(&why)) {
    if (error)
      *error = "invalid problem: " + why;
    return std::nullopt;
  }
  std::optional<MemoryProfile> profile =
      simulateCheckedMemory(expansion.problem, expansion.order);
  if (applyInPlaceWrites(expansion.problem, expansion.order,
                         profile->lifetimes))
    profile = simulateCheckedMemory(expansion.problem, expansion.order);
  if (escapingWhole)
    countEscapingFromStart(expansion.problem, *profile);
  return profile;
}

std::optional<Evaluation>
RematContext::evaluate(const std::vector<char> &dropped, int64_t budget,
                       std::string *error) const {
  ++numEvaluations;
  Evaluation evaluation;
  evaluation.plan = buildPlan(dropped);
  bool outOfOrder = false;
  RematExpansion &expansion = scratchExpansion;
  bool expanded = expandWithLists(problem, expansionLists, evaluation.plan,
                                  expansion, error, &outOfOrder);
  // Pulling a clone earlier for a later clone that reads it can place it
  // before an input it reads is computed: such a drop set is not a plan.
  // It is marked as never better than any plan, and the searches undo it.
  if (!expanded && outOfOrder) {
    if (error)
      error->clear();
    evaluation.isValid = false;
    evaluation.plan.peakTransientAfter = INT64_MAX;
    evaluation.plan.withinBudget = false;
    return evaluation;
  }
  if (!expanded)
    return std::nullopt;
  std::optional<MemoryProfile> profile =
      simulateRematExpansion(expansion, escapingWhole, error);
  if (!profile)
    return std::nullopt;
  evaluation.plan.peakTransientAfter = profile->peakTransientBytes;
  evaluation.plan.withinBudget = profile->peakTransientBytes <= budget;
  // The expanded order is the identity, so ids are positions.
  evaluation.positionOf = std::move(expansion.idOfInputTask);
  evaluation.profile = std::move(*profile);
  return evaluation;
}

namespace {
/// A plan with the drop set it was built from (flags by candidate index).
struct DropPlan {
  RematPlan plan;
  std::vector<char> dropped;
};

/// Whether \p a is a better plan than \p b: within budget first, then less
/// recompute time; out of budget, the lower peak.
bool isBetter(const RematPlan &a, const RematPlan &b) {
  if (a.withinBudget != b.withinBudget)
    return a.withinBudget;
  if (a.withinBudget)
    return a.recomputeSeconds < b.recomputeSeconds ||
           (a.recomputeSeconds == b.recomputeSeconds &&
            a.peakTransientAfter < b.peakTransientAfter);
  return a.peakTransientAfter < b.peakTransientAfter;
}

/// The bytes above \p budget summed over the steps of \p evaluation
/// (saturating); the largest value for an invalid drop set.
int64_t overflowOf(const Evaluation &evaluation, int64_t budget) {
  if (!evaluation.isValid)
    return INT64_MAX;
  int64_t sum = 0;
  for (int64_t bytes : evaluation.profile.liveBytes)
    if (bytes > budget)
      sum = bytes - budget > INT64_MAX - sum ? INT64_MAX : sum + bytes - budget;
  return sum;
}

/// Where \p evaluation (of \p dropped) peaks inside the stretch a dropped
/// candidate's copy is made early because another dropped candidate's group
/// reads it (a pull), tries switching that other candidate to its gap's
/// privateInputs variant, one at a time, and keeps the first switch that
/// lowers the peak (or keeps it and lowers the bytes over \p budget).
/// Returns whether one was kept; std::nullopt on an evaluation error.
std::optional<bool> unpullAtPeak(const RematContext &context, int64_t budget,
                                 const Evaluation &evaluation,
                                 std::vector<char> &dropped,
                                 const SearchLimit &limit, std::string *error) {
  const Problem &problem = context.problem;
  int32_t step = evaluation.profile.peakStep;
  int64_t overflow = overflowOf(evaluation, budget);
  for (size_t c = 0; c < dropped.size(); ++c) {
    if (limit.reached())
      return false;
    const Candidate &puller = context.candidates[c];
    if (!dropped[c] || puller.privateInputs ||
        evaluation.positionOf[puller.insertBefore] > step)
      continue;
    // The gap's (first) privateInputs variant, if any.
    int32_t privateVariant = -1;
    auto [first, end] = context.variantsOf(static_cast<int32_t>(c));
    for (int32_t k = first; k < end && privateVariant < 0; ++k)
      if (context.candidates[k].privateInputs)
        privateVariant = k;
    if (privateVariant < 0)
      continue;
    bool pullsAcrossPeak = false;
    for (BufferId member :
         context.collectGroup(static_cast<int32_t>(c), dropped, nullptr)) {
      for (ValueId v : context.recipes[member].externalReads) {
        int32_t pulled =
            context.copySource(problem.value(v).buffer, puller.insertBefore,
                               dropped, /*byClone=*/true);
        if (pulled >= 0 &&
            context.candidates[pulled].insertBefore > puller.insertBefore &&
            evaluation.positionOf[context.candidates[pulled].insertBefore] >
                step)
          pullsAcrossPeak = true;
      }
      if (pullsAcrossPeak)
        break;
    }
    if (!pullsAcrossPeak)
      continue;
    dropped[c] = 0;
    dropped[privateVariant] = 1;
    std::optional<Evaluation> trial = context.evaluate(dropped, budget, error);
    if (!trial)
      return std::nullopt;
    if (trial->isValid &&
        (trial->plan.peakTransientAfter < evaluation.plan.peakTransientAfter ||
         (trial->plan.peakTransientAfter ==
              evaluation.plan.peakTransientAfter &&
          overflowOf(*trial, budget) < overflow)))
      return true;
    dropped[privateVariant] = 0;
    dropped[c] = 1;
  }
  return false;
}

/// Which variants of a gap the greedy drops.
enum class GreedyVariants {
  /// Every variant but the one that recomputes inputs other gaps copy
  /// (privateInputs).
  Shared,
  /// Where a gap has a privateInputs variant, only that one.
  Private,
  /// As Private, and also the variants that make the copy early, right
  /// after an input's last read: such a copy does not live across the
  /// stretch before its reader, which Private avoids, but it reads copies
  /// other gaps make, and on some problems Private alone ends lower
  /// (resnet50 at `min`: 644 MiB against 714; mobilenet_v2 528 against 413).
  PrivateOrEarly,
};

/// The drop phase of the greedy: from \p dropped (a warm start), drops
/// candidates at the peak step until the budget is met or nothing at the
/// peak can be dropped. Leaves the final drop set in \p dropped and returns
/// the best plan seen; lowers \p smallestPeak to the lowest peak seen.
/// Candidates flagged in \p forbidden, if given, are never dropped, nor are
/// the variants \p variants excludes.
std::optional<DropPlan>
dropUntilBudget(const RematContext &context, int64_t budget,
                std::vector<char> &dropped, int64_t &smallestPeak,
                const SearchLimit &limit, std::string *error,
                const std::vector<char> *forbidden = nullptr,
                GreedyVariants variants = GreedyVariants::Shared) {
  const Problem &problem = context.problem;
  size_t numCandidates = context.candidates.size();
  std::optional<DropPlan> best;
  // A batch that does not lower the peak is undone and retried at half the
  // size; a single candidate that does not is never tried again.
  std::vector<char> rejected =
      forbidden ? *forbidden : std::vector<char>(numCandidates, 0);
  for (size_t c = 0; c < numCandidates; ++c)
    rejected[c] |= variants == GreedyVariants::Shared
                       ? context.candidates[c].privateInputs
                       : context.hasPrivateVariant[c] &&
                             !(variants == GreedyVariants::PrivateOrEarly &&
                               context.isEarlyVariant(c));
  std::vector<size_t> lastBatch;
  size_t batchLimit = numCandidates;
  std::optional<Evaluation> previous;
  while (true) {
    std::optional<Evaluation> current =
        context.evaluate(dropped, budget, error);
    if (!current)
      return std::nullopt;
    // A batch is kept when it lowers the peak, or keeps it and lowers the
    // bytes above the budget summed over all steps: where several steps are
    // at the peak, each drop lowers one of them and only all of them
    // together lower the peak. One that raises the peak is undone (keeping
    // those led the reordered mobilenet_v2's smallest plan from 675 to 750
    // MiB).
    int64_t peakChange = previous ? current->plan.peakTransientAfter -
                                        previous->plan.peakTransientAfter
                                  : 0;
    if (previous && !lastBatch.empty() && !current->plan.withinBudget &&
        (peakChange > 0 ||
         (peakChange == 0 &&
          overflowOf(*current, budget) >= overflowOf(*previous, budget)))) {
      for (size_t c : lastBatch)
        dropped[c] = 0;
      if (lastBatch.size() == 1)
        rejected[lastBatch.front()] = 1;
      batchLimit = std::max<size_t>(1, lastBatch.size() / 2);
      lastBatch.clear();
      current = std::move(previous);
    } else if (!lastBatch.empty()) {
      batchLimit = std::min(numCandidates, batchLimit * 2);
    }
    previous.reset();
    // An unorderable drop set with nothing to fall back to ends the phase.
    if (!current->isValid)
      break;
    const RematPlan &plan = current->plan;
    smallestPeak = std::min(smallestPeak, plan.peakTransientAfter);
    if (!best || isBetter(plan, best->plan))
      best = DropPlan{plan, dropped};
    // The work limit: where single candidates keep failing (a wide tree,
    // whose every drop is undone), each round is one more simulation.
    if (plan.withinBudget || limit.reached())
      break;
    // Candidates whose gap spans the peak step, by recompute time per byte
    // freed there.
    int32_t step = current->profile.peakStep;
    const std::vector<BufferLifetime> &lifetimes = current->profile.lifetimes;
    struct Choice {
      double score;
      int64_t benefit;
      size_t candidate;
    };
    std::vector<Choice> choices;
    for (size_t c = 0; c < numCandidates; ++c) {
      const Candidate &candidate = context.candidates[c];
      if (dropped[c] || rejected[c] || !current->frees(candidate, step) ||
          context.isVariantDropped(static_cast<int32_t>(c), dropped))
        continue;
      int64_t benefit = problem.buffer(candidate.buffer).sizeBytes;
      // Dead inputs the copy keeps alive across the peak count against it;
      // dead inputs it recomputes count as time.
      std::vector<BufferId> extended;
      std::vector<BufferId> group =
          context.collectGroup(static_cast<int32_t>(c), dropped, &extended);
      double seconds = 0;
      for (BufferId member : group)
        seconds += context.recipes[member].seconds;
      for (BufferId input : extended)
        if (lifetimes[input].end < step)
          benefit -= problem.buffer(input).sizeBytes;
      if (benefit <= 0)
        continue;
      choices.push_back(
          {(seconds + 1e-15) / static_cast<double>(benefit), benefit, c});
    }
    if (choices.empty()) {
      // Every candidate spanning the peak is dropped. Copies that recomputing
      // others made early, and keep until their own readers, may hold it:
      // switch what pulls them to its gap's variant that recomputes those
      // inputs itself.
      std::optional<bool> switched =
          variants != GreedyVariants::Shared
              ? std::optional<bool>(false)
              : unpullAtPeak(context, budget, *current, dropped, limit, error);
      if (!switched)
        return std::nullopt;
      if (*switched) {
        lastBatch.clear();
        continue;
      }
      break;
    }
    std::sort(choices.begin(), choices.end(),
              [](const Choice &a, const Choice &b) {
                return a.score < b.score ||
                       (a.score == b.score && a.candidate < b.candidate);
              });
    int64_t excess = plan.peakTransientAfter - budget;
    int64_t freed = 0;
    lastBatch.clear();
    for (const Choice &choice : choices) {
      if (context.isVariantDropped(static_cast<int32_t>(choice.candidate),
                                   dropped))
        continue;
      dropped[choice.candidate] = 1;
      lastBatch.push_back(choice.candidate);
      freed += choice.benefit;
      if (freed >= excess || lastBatch.size() >= batchLimit)
        break;
    }
    previous = std::move(current);
  }
  return best;
}

/// The un-drop phase: starting from a drop set within the budget, keeps the
/// most expensive dropped buffers the budget does not need. A buffer whose
/// gap crosses a step with less than its size to spare under the budget is
/// skipped without a trial: keeping it would, but for copies that move,
/// overflow there. That filter is what keeps this phase from costing one
/// full simulation per dropped buffer at tight budgets.
std::optional<DropPlan> undropUnneeded(const RematContext &context,
                                       int64_t budget, DropPlan best,
                                       const SearchLimit &limit,
                                       std::string *error) {
  std::vector<char> dropped = best.dropped;
  std::vector<size_t> order;
  for (size_t c = 0; c < dropped.size(); ++c)
    if (dropped[c])
      order.push_back(c);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return context.recipes[context.candidates[a].buffer].seconds >
           context.recipes[context.candidates[b].buffer].seconds;
  });
  std::optional<Evaluation> current = context.evaluate(dropped, budget, error);
  if (!current)
    return std::nullopt;
  if (!current->isValid)
    return best;
  for (size_t c : order) {
    if (limit.reached())
      break;
    const Candidate &candidate = context.candidates[c];
    int64_t spare = budget - context.problem.buffer(candidate.buffer).sizeBytes;
    auto [from, to] = current->freedSteps(candidate);
    const std::vector<int64_t> &live = current->profile.liveBytes;
    if (std::any_of(live.begin() + from, live.begin() + to,
                    [&](int64_t bytes) { return bytes > spare; }))
      continue;
    dropped[c] = 0;
    std::optional<Evaluation> trial = context.evaluate(dropped, budget, error);
    if (!trial)
      return std::nullopt;
    if (trial->isValid && trial->plan.withinBudget &&
        isBetter(trial->plan, best.plan)) {
      best = DropPlan{trial->plan, dropped};
      current = std::move(trial);
    } else {
      dropped[c] = 1;
    }
  }
  return best;
}

/// The greedy at \p budget, made monotone over budgets. Its drop phase runs
/// down a fixed ladder of budgets (k/20 of the peak without recomputation,
/// k = 19, 18, ...), each rung warm-started from the drop set of the rung
/// above, until a rung is missed. Every rung is refined at its own budget,
/// which makes its plan independent of \p budget; a budget off the ladder
/// gets a plan of its own too, started from the rung above it. The cheapest
/// plan within the budget wins. A smaller budget on the ladder thus only
/// removes plans from the choice, so over budgets on the ladder (0.9x,
/// 0.85x, ...) the recompute time never drops as the budget shrinks. The
/// smallest peak reported is the lowest any rung reached.
std::optional<DropPlan> planGreedy(const RematContext &context, int64_t budget,
                                   int64_t peakBefore, const SearchLimit &limit,
                                   std::string *error,
                                   GreedyVariants variants) {
  constexpr int kRungs = 20;
  std::vector<char> dropped(context.candidates.size(), 0);
  std::vector<char> aboveBudget = dropped;
  int64_t smallestPeak = INT64_MAX;
  bool budgetIsRung = false;
  std::optional<DropPlan> best, missed;
  auto consider = [&](std::optional<DropPlan> plan) {
    if (!best || isBetter(plan->plan, best->plan))
      best = std::move(plan);
  };
  for (int k = kRungs - 1; k >= 1; --k) {
    if (best && limit.reached())
      break;
    int64_t rungBudget = peakBefore * k / kRungs;
    budgetIsRung |= rungBudget == budget;
    std::optional<DropPlan> plan =
        dropUntilBudget(context, rungBudget, dropped, smallestPeak, limit,
                        error, /*forbidden=*/nullptr, variants);
    if (!plan)
      return std::nullopt;
    if (rungBudget > budget)
      aboveBudget = dropped;
    if (!plan->plan.withinBudget) {
      missed = std::move(plan);
      break;
    }
    if (rungBudget > budget)
      continue;
    std::optional<DropPlan> refined = undropUnneeded(
        context, rungBudget, DropPlan{plan->plan, dropped}, limit, error);
    if (!refined)
      return std::nullopt;
    refined->plan.withinBudget = true;
    consider(std::move(refined));
  }
  if (!budgetIsRung) {
    std::optional<DropPlan> plan =
        dropUntilBudget(context, budget, aboveBudget, smallestPeak, limit,
                        error, /*forbidden=*/nullptr, variants);
    if (!plan)
      return std::nullopt;
    if (plan->plan.withinBudget) {
      std::optional<DropPlan> refined = undropUnneeded(
          context, budget, DropPlan{plan->plan, aboveBudget}, limit, error);
      if (!refined)
        return std::nullopt;
      consider(std::move(refined));
    } else if (!missed || plan->plan.peakTransientAfter <
                              missed->plan.peakTransientAfter) {
      missed = std::move(plan);
    }
  }
  if (!best)
    best = std::move(missed);
  best->plan.withinBudget = best->plan.peakTransientAfter <= budget;
  best->plan.smallestPeakTransient =
      std::min(smallestPeak, best->plan.peakTransientAfter);
  return best;
}

/// Hill climbing from \p start over drop sets: drop one candidate less,
/// switch a dropped one to another variant of its gap, swap a dropped one
/// for one whose gap spans the peak step, or (out of budget) drop one more
/// there; the first move that gives a better plan is taken, until none does
/// or \p maxEvaluations plan evaluations are spent. It undoes the greedy's
/// myopic choices where the problem is small enough to afford it.
std::optional<DropPlan> improveLocally(const RematContext &context,
                                       int64_t budget, DropPlan start,
                                       int64_t maxEvaluations,
                                       const detail::Deadline &deadline,
                                       std::string *error) {
  DropPlan best = std::move(start);
  std::optional<Evaluation> current =
      context.evaluate(best.dropped, budget, error);
  if (!current)
    return std::nullopt;
  if (!current->isValid)
    return best;
  int64_t evaluations = 1;
  size_t numCandidates = context.candidates.size();
  auto spansPeak = [&](size_t d) {
    return current->frees(context.candidates[d], current->profile.peakStep);
  };
  // Tries the drop set \p trial; keeps it when better.
  auto tryMove = [&](std::vector<char> &trial) -> std::optional<bool> {
    ++evaluations;
    std::optional<Evaluation> evaluation =
        context.evaluate(trial, budget, error);
    if (!evaluation)
      return std::nullopt;
    if (!evaluation->isValid || !isBetter(evaluation->plan, best.plan))
      return false;
    best = DropPlan{evaluation->plan, trial};
    current = std::move(evaluation);
    return true;
  };
  auto exhausted = [&] {
    return evaluations >= maxEvaluations || deadline.expired();
  };
  bool improved = true;
  while (improved && !exhausted()) {
    improved = false;
    std::vector<size_t> droppedList;
    for (size_t c = 0; c < numCandidates; ++c)
      if (best.dropped[c])
        droppedList.push_back(c);
    std::vector<size_t> spanning;
    for (size_t d = 0; d < numCandidates; ++d)
      if (!best.dropped[d] && !context.candidates[d].privateInputs &&
          !context.isVariantDropped(static_cast<int32_t>(d), best.dropped) &&
          spansPeak(d))
        spanning.push_back(d);
    std::vector<char> trial = best.dropped;
    for (size_t c : droppedList) {
      std::vector<size_t> replacements;
      auto [first, end] = context.variantsOf(static_cast<int32_t>(c));
      for (int32_t k = first; k < end; ++k)
        if (static_cast<size_t>(k) != c && !context.candidates[k].privateInputs)
          replacements.push_back(k);
      replacements.insert(replacements.end(), spanning.begin(), spanning.end());
      trial[c] = 0;
      for (size_t k = 0; k <= replacements.size() && !improved; ++k) {
        if (exhausted())
          return best;
        // k == 0: c alone undone.
        size_t d = k == 0 ? SIZE_MAX : replacements[k - 1];
        if (d != SIZE_MAX && (trial[d] || context.isVariantDropped(
                                              static_cast<int32_t>(d), trial)))
          continue;
        if (d != SIZE_MAX)
          trial[d] = 1;
        std::optional<bool> accepted = tryMove(trial);
        if (!accepted)
          return std::nullopt;
        improved = *accepted;
        if (!improved && d != SIZE_MAX)
          trial[d] = 0;
      }
      if (improved)
        break;
      trial[c] = 1;
    }
    if (improved)
      continue;
    // Ruin and recreate: undo one dropped candidate for good (all variants
    // of its gap) and let the greedy drop others until the budget is met,
    // then keep what it does not need.
    if (best.plan.withinBudget) {
      SearchLimit repairLimit{
          context, context.numEvaluations + (maxEvaluations - evaluations),
          deadline};
      for (size_t c : droppedList) {
        if (exhausted())
          return best;
        std::vector<char> forbidden(numCandidates, 0);
        auto [first, end] = context.variantsOf(static_cast<int32_t>(c));
        std::fill(forbidden.begin() + first, forbidden.begin() + end, 1);
        std::vector<char> repaired = best.dropped;
        repaired[c] = 0;
        int64_t ignoredPeak = INT64_MAX;
        int64_t countBefore = context.numEvaluations;
        std::optional<DropPlan> recreated =
            dropUntilBudget(context, budget, repaired, ignoredPeak, repairLimit,
                            error, &forbidden);
        if (recreated && recreated->plan.withinBudget)
          recreated = undropUnneeded(context, budget, std::move(*recreated),
                                     repairLimit, error);
        evaluations += context.numEvaluations - countBefore;
        if (!recreated)
          return std::nullopt;
        if (recreated->plan.withinBudget &&
            isBetter(recreated->plan, best.plan)) {
          best = std::move(*recreated);
          current = context.evaluate(best.dropped, budget, error);
          ++evaluations;
          if (!current)
            return std::nullopt;
          improved = true;
          break;
        }
      }
      continue;
    }
    for (size_t d : spanning) {
      if (exhausted())
        return best;
      trial[d] = 1;
      std::optional<bool> accepted = tryMove(trial);
      if (!accepted)
        return std::nullopt;
      if ((improved = *accepted))
        break;
      trial[d] = 0;
    }
  }
  return best;
}

/// The gaps of the candidates, as (first variant, number of variants).
std::vector<std::pair<int32_t, int32_t>> getGaps(const RematContext &context) {
  std::vector<std::pair<int32_t, int32_t>> gaps;
  for (size_t c = 0; c < context.candidates.size(); ++c) {
    const Candidate &candidate = context.candidates[c];
    if (candidate.firstVariant != static_cast<int32_t>(c))
      continue;
    // The privateInputs variants come last; they are left out.
    int32_t count = 0;
    while (count < candidate.numVariants &&
           !context.candidates[c + count].privateInputs)
      ++count;
    gaps.push_back({static_cast<int32_t>(c), count});
  }
  return gaps;
}

/// Whether every drop set (each gap not dropped or dropped as one of its
/// variants) can be evaluated within \p maxWork task simulations.
bool isSmallPlanSpace(const RematContext &context, int64_t maxWork) {
  int64_t work = std::max<int32_t>(1, context.numTasks);
  for (auto [first, count] : getGaps(context)) {
    work *= count + 1;
    if (work > maxWork)
      return false;
  }
  return true;
}

/// Every drop set of a small plan space (isSmallPlanSpace): the best plan
/// of the space (privateInputs variants aside), exact where the greedy and
/// the local search can only come close.
std::optional<DropPlan> searchExhaustively(const RematContext &context,
                                           int64_t budget,
                                           int64_t &smallestPeak,
                                           std::string *error) {
  std::vector<std::pair<int32_t, int32_t>> gaps = getGaps(context);
  int64_t combinations = 1;
  for (auto [first, count] : gaps)
    combinations *= count + 1;
  std::optional<DropPlan> best;
  std::vector<int32_t> choice(gaps.size(), 0);
  std::vector<char> dropped(context.candidates.size(), 0);
  for (int64_t k = 0; k < combinations; ++k) {
    std::optional<Evaluation> evaluation =
        context.evaluate(dropped, budget, error);
    if (!evaluation)
      return std::nullopt;
    if (evaluation->isValid) {
      smallestPeak =
          std::min(smallestPeak, evaluation->plan.peakTransientAfter);
      if (!best || isBetter(evaluation->plan, best->plan))
        best = DropPlan{evaluation->plan, dropped};
    }
    // The next combination, odometer-wise.
    for (size_t g = 0; g < gaps.size(); ++g) {
      auto [first, count] = gaps[g];
      if (choice[g] > 0)
        dropped[first + choice[g] - 1] = 0;
      choice[g] = (choice[g] + 1) % (count + 1);
      if (choice[g] > 0)
        dropped[first + choice[g] - 1] = 1;
      if (choice[g] != 0)
        break;
    }
  }
  return best;
}

/// The candidates Chen et al.'s segments work on: those whose gap spans the
/// peak step without recomputation (in a training step, the activations
/// saved for the backward; not the gradients or the weight gradients, whose
/// gaps lie elsewhere), and among them the path: those another one's
/// recomputation reads (the activations the forward passes along, where
/// checkpoints go). Returns the two flag vectors.
std::pair<std::vector<char>, std::vector<char>>
segmentCandidates(const RematContext &context, int32_t peakStep) {
  size_t n = context.candidates.size();
  std::vector<char> spanning(n, 0), onPath(n, 0);
  for (size_t c = 0; c < n; ++c)
    spanning[c] = context.isLateVariant(static_cast<int32_t>(c)) &&
                  context.candidates[c].dropAfter < peakStep &&
                  context.candidates[c].firstLate > peakStep;
  for (size_t c = 0; c < n; ++c) {
    if (!spanning[c])
      continue;
    for (ValueId v :
         context.recipes[context.candidates[c].buffer].externalReads)
      if (int32_t a =
              context.gapSpanning(context.problem.value(v).buffer, peakStep);
          a >= 0 && spanning[a])
        onPath[a] = 1;
  }
  if (std::find(onPath.begin(), onPath.end(), 1) == onPath.end())
    onPath = spanning;
  return {std::move(spanning), std::move(onPath)};
}

/// Chen et al.'s segments on a DAG. Checkpoints are chosen among the path
/// candidates; every other spanning candidate before the last checkpoint is
/// dropped, so each segment is recomputed from the checkpoint before it.
/// Chen's rule (his memory-threshold greedy): walk the path, and once the
/// bytes since the last checkpoint reach total / k, keep the next path
/// buffer that is not negligible (at least 1/16 of the largest; small ones
/// such as batch statistics would not end a recomputation). With
/// \p pytorchSplit the path is cut by count into k segments of n / k and
/// the last segment is kept whole (PyTorch's checkpoint_sequential).
std::vector<char> segmentDropSet(const RematContext &context,
                                 const std::vector<char> &spanning,
                                 const std::vector<char> &onPath,
                                 int64_t segments, bool pytorchSplit) {
  size_t numCandidates = onPath.size();
  std::vector<char> dropped(numCandidates, 0);
  auto sizeOf = [&](size_t c) {
    return context.problem.buffer(context.candidates[c].buffer).sizeBytes;
  };
  size_t pathLength = 0;
  int64_t pathBytes = 0, largest = 0;
  for (size_t c = 0; c < numCandidates; ++c)
    if (onPath[c]) {
      ++pathLength;
      pathBytes += sizeOf(c);
      largest = std::max(largest, sizeOf(c));
    }
  if (pathLength == 0 || segments <= 0)
    return dropped;
  segments = std::min<int64_t>(segments, static_cast<int64_t>(pathLength));
  std::vector<char> checkpoint(numCandidates, 0);
  size_t lastPath = 0, keptFrom = segments == 1 ? 0 : numCandidates;
  if (pytorchSplit) {
    size_t size = pathLength / static_cast<size_t>(segments);
    size_t index = 0;
    for (size_t c = 0; c < numCandidates; ++c) {
      if (!onPath[c])
        continue;
      ++index;
      checkpoint[c] = index % size == 0;
      if (index == size * static_cast<size_t>(segments - 1))
        keptFrom = c;
    }
  } else {
    int64_t threshold = pathBytes / segments, since = 0;
    for (size_t c = 0; c < numCandidates; ++c) {
      if (!onPath[c])
        continue;
      lastPath = c;
      since += sizeOf(c);
      if (since >= threshold && sizeOf(c) * 16 >= largest) {
        checkpoint[c] = 1;
        since = 0;
      }
    }
    checkpoint[lastPath] = 1;
  }
  // Drop everything before the last checkpoint (before the kept tail).
  size_t end = pytorchSplit ? keptFrom : lastPath;
  for (size_t c = 0; c < numCandidates && c < end; ++c)
    dropped[c] = spanning[c] && !checkpoint[c];
  return dropped;
}

std::optional<DropPlan>
planSegments(const RematContext &context, int64_t budget, int64_t segments,
             bool pytorchSplit, const SearchLimit &limit, std::string *error) {
  std::optional<Evaluation> none = context.evaluate(
      std::vector<char>(context.candidates.size(), 0), budget, error);
  if (!none)
    return std::nullopt;
  auto [spanning, onPath] = segmentCandidates(context, none->profile.peakStep);
  size_t n = std::max<size_t>(1, std::count(onPath.begin(), onPath.end(), 1));
  std::vector<int64_t> counts;
  if (segments > 0 || pytorchSplit) {
    counts.push_back(segments > 0 ? segments
                                  : std::max<int64_t>(
                                        1, std::llround(std::sqrt(double(n)))));
  } else {
    // Chen et al. choose the segment count; search it from sqrt(n) outwards
    // (geometrically), which also covers the memory-threshold variant.
    int64_t root = std::max<int64_t>(1, std::llround(std::sqrt(double(n))));
    counts.push_back(root);
    for (double f = 1.25; f < 64; f *= 1.25) {
      counts.push_back(std::max<int64_t>(1, std::llround(root * f)));
      counts.push_back(std::max<int64_t>(1, std::llround(root / f)));
    }
    counts.push_back(static_cast<int64_t>(n));
  }
  std::optional<DropPlan> best;
  int64_t smallestPeak = INT64_MAX;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (i > 0 && limit.reached())
      break;
    std::vector<char> dropped =
        segmentDropSet(context, spanning, onPath, counts[i], pytorchSplit);
    std::optional<Evaluation> evaluation =
        context.evaluate(dropped, budget, error);
    if (!evaluation)
      return std::nullopt;
    if (!evaluation->isValid)
      continue;
    smallestPeak = std::min(smallestPeak, evaluation->plan.peakTransientAfter);
    if (!best || isBetter(evaluation->plan, best->plan))
      best = DropPlan{std::move(evaluation->plan), std::move(dropped)};
  }
  if (!best) {
    best =
        DropPlan{none->plan, std::vector<char>(context.candidates.size(), 0)};
    smallestPeak = none->plan.peakTransientAfter;
  }
  best->plan.smallestPeakTransient = smallestPeak;
  return best;
}

/// \p plan with the clones inserted before task \p from moved to run before
/// task \p to instead (clone indices renumbered so the list stays in
/// execution order), or std::nullopt when \p to already runs clones of the
/// same tasks (their copies would share buffers).
std::optional<RematPlan> moveCloneGroup(const RematPlan &plan, TaskId from,
                                        TaskId to, int32_t numTasks) {
  std::vector<char> tasksAtTarget;
  for (const RematClone &clone : plan.clones)
    if (clone.insertBefore == to) {
      if (tasksAtTarget.size() <= static_cast<size_t>(clone.task))
        tasksAtTarget.resize(clone.task + 1, 0);
      tasksAtTarget[clone.task] = 1;
    }
  std::vector<int32_t> order(plan.clones.size());
  std::iota(order.begin(), order.end(), 0);
  RematPlan moved = plan;
  for (RematClone &clone : moved.clones)
    if (clone.insertBefore == from) {
      if (static_cast<size_t>(clone.task) < tasksAtTarget.size() &&
          tasksAtTarget[clone.task])
        return std::nullopt;
      clone.insertBefore = to;
    }
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return moved.clones[a].insertBefore < moved.clones[b].insertBefore;
  });
  std::vector<int32_t> newIndex(order.size());
  for (size_t k = 0; k < order.size(); ++k)
    newIndex[order[k]] = static_cast<int32_t>(k);
  std::vector<RematClone> clones(order.size());
  for (size_t k = 0; k < order.size(); ++k)
    clones[k] = moved.clones[order[k]];
  moved.clones = std::move(clones);
  for (RematRedirect &redirect : moved.redirects) {
    redirect.clone = newIndex[redirect.clone];
    if (redirect.reader >= numTasks)
      redirect.reader = numTasks + newIndex[redirect.reader - numTasks];
  }
  return moved;
}

/// Moves the clones that run at the peak of \p plan earlier, while that
/// lowers the peak: a copy made right before its first late reader is live
/// with whatever the tasks just before that reader made (the backward of a
/// convolution computes the input's gradient, then recomputes the padded
/// input for the weight's gradient: made before the input's gradient, the
/// padded input no longer meets it). The recomputation is unchanged, so the
/// plan costs the same time. Tries the kHoistReach tasks before each
/// group's insertion point; every trial is expanded and simulated, within
/// a work limit of its own.
RematPlan hoistClonesAtPeak(const Problem &problem, RematPlan plan,
                            bool escapingWhole) {
  constexpr int32_t kHoistReach = 16;
  // Work limit in task simulations (at least one move's trials): 370
  // trials at 2.7k tasks (resnet50 at `min` makes 4 moves of up to 16),
  // 16 at 100k.
  constexpr int64_t kHoistWork = 1'000'000;
  int32_t numTasks = static_cast<int32_t>(problem.numTasks());
  int64_t trialsLeft = std::max<int64_t>(
      kHoistReach, kHoistWork / std::max<int32_t>(1, numTasks));
  ExpansionLists lists(problem);
  RematExpansion expansion;
  auto measure = [&](const RematPlan &candidate,
                     int32_t *peakClone) -> std::optional<int64_t> {
    if (!expandWithLists(problem, lists, candidate, expansion,
                         /*error=*/nullptr, /*outOfOrder=*/nullptr))
      return std::nullopt;
    std::optional<MemoryProfile> profile =
        simulateRematExpansion(expansion, escapingWhole);
    if (!profile)
      return std::nullopt;
    if (peakClone) {
      // Expanded ids are positions: the clones inserted before a task run
      // right before it, in list order.
      *peakClone = -1;
      int32_t position = 0;
      size_t k = 0;
      for (TaskId t = 0; t < numTasks; ++t, ++position)
        for (; k < candidate.clones.size() &&
               candidate.clones[k].insertBefore == t;
             ++k, ++position)
          if (position == profile->peakStep)
            *peakClone = static_cast<int32_t>(k);
    }
    return profile->peakTransientBytes;
  };
  int32_t peakClone = -1;
  std::optional<int64_t> peak = measure(plan, &peakClone);
  while (peak && peakClone >= 0 && trialsLeft > 0) {
    TaskId from = plan.clones[peakClone].insertBefore;
    std::optional<RematPlan> best;
    int64_t bestPeak = *peak;
    for (TaskId to = from - 1;
         to >= 0 && to >= from - kHoistReach && trialsLeft > 0; --to) {
      std::optional<RematPlan> moved = moveCloneGroup(plan, from, to, numTasks);
      if (!moved)
        continue;
      --trialsLeft;
      std::optional<int64_t> movedPeak = measure(*moved, nullptr);
      // Earlier still, a clone would read a copy before it is made.
      if (!movedPeak)
        break;
      if (*movedPeak < bestPeak) {
        bestPeak = *movedPeak;
        best = std::move(moved);
      }
    }
    if (!best)
      break;
    plan = std::move(*best);
    peak = measure(plan, &peakClone);
  }
  plan.peakTransientAfter = peak ? *peak : plan.peakTransientAfter;
  return plan;
}
} // namespace

std::optional<RematAlgorithm>
mlir::memsched::scheduling::parseRematAlgorithm(const std::string &name) {
  if (name == "auto")
    return RematAlgorithm::Auto;
  if (name == "greedy")
    return RematAlgorithm::Greedy;
  if (name == "chen")
    return RematAlgorithm::Chen;
  if (name == "sequential")
    return RematAlgorithm::Sequential;
  return std::nullopt;
}

const char *mlir::memsched::scheduling::getRematAlgorithmNames() {
  return "auto, greedy, chen, sequential";
}

const char *
mlir::memsched::scheduling::getRematAlgorithmName(RematAlgorithm algorithm) {
  switch (algorithm) {
  case RematAlgorithm::Auto:
    return "auto";
  case RematAlgorithm::Greedy:
    return "greedy";
  case RematAlgorithm::Chen:
    return "chen";
  case RematAlgorithm::Sequential:
    return "sequential";
  }
  return "?";
}

std::optional<RematPlan> mlir::memsched::scheduling::planRemat(
    const Problem &problem, const RematOptions &options, std::string *error) {
  Clock::time_point start = Clock::now();
  if (options.budgetTransientBytes < 0 || options.segments < 0 ||
      options.localSearchWork < 0) {
    if (error)
      *error = "the budget, the segment count and the local search's work "
               "must not be negative";
    return std::nullopt;
  }
  std::string why;
  if (!problem.verify(error ? error : &why))
    return std::nullopt;
  RematContext context(problem, options.singleRecompute, options.escapingWhole);
  int64_t budget = options.budgetTransientBytes;
  std::optional<Evaluation> none = context.evaluate(
      std::vector<char>(context.candidates.size(), 0), budget, error);
  if (!none)
    return std::nullopt;
  // Each context's search evaluates at most this many plans.
  int64_t maxEvaluations = options.maxEvaluations;
  if (options.maxEvaluationWork > 0) {
    constexpr int64_t kFewestEvaluations = 16;
    int64_t byWork = std::max(kFewestEvaluations,
                              options.maxEvaluationWork /
                                  std::max<int64_t>(1, context.numTasks));
    maxEvaluations =
        maxEvaluations > 0 ? std::min(maxEvaluations, byWork) : byWork;
  }
  SearchLimit limit{context, maxEvaluations,
                    detail::Deadline(options.timeLimitSeconds)};

  // Local search from the greedy's plan (in the full plan space), the last
  // phase, with a work limit of its own: options.localSearchWork task
  // simulations, and at most one plan per 50 of them.
  auto polish = [&](DropPlan found) -> std::optional<RematPlan> {
    int64_t smallest = found.plan.smallestPeakTransient;
    int64_t evaluations = std::min(options.localSearchWork / 50,
                                   options.localSearchWork /
                                       std::max<int64_t>(1, context.numTasks));
    if (!options.singleRecompute && evaluations >= 8) {
      std::optional<DropPlan> improved =
          improveLocally(context, budget, std::move(found), evaluations,
                         limit.deadline, error);
      if (!improved)
        return std::nullopt;
      found = std::move(*improved);
    }
    found.plan.withinBudget = found.plan.peakTransientAfter <= budget;
    found.plan.smallestPeakTransient =
        std::min(smallest, found.plan.peakTransientAfter);
    return std::move(found.plan);
  };
  auto greedy = [&](const RematContext &space, const SearchLimit &spaceLimit,
                    GreedyVariants variants =
                        GreedyVariants::Shared) -> std::optional<DropPlan> {
    return planGreedy(space, budget, none->plan.peakTransientAfter, spaceLimit,
                      error, variants);
  };

  std::optional<RematPlan> plan;
  if (none->plan.withinBudget) {
    plan = none->plan;
    plan->smallestPeakTransient = plan->peakTransientAfter;
    plan->algorithm = getRematAlgorithmName(options.algorithm);
  } else {
    switch (options.algorithm) {
    case RematAlgorithm::Greedy:
      if (std::optional<DropPlan> found = greedy(context, limit))
        plan = polish(std::move(*found));
      break;
    case RematAlgorithm::Chen:
    case RematAlgorithm::Sequential:
      if (std::optional<DropPlan> found = planSegments(
              context, budget, options.segments,
              options.algorithm == RematAlgorithm::Sequential, limit, error))
        plan = std::move(found->plan);
      break;
    case RematAlgorithm::Auto: {
      // Chen's segments, and the same refined by the greedy's phases with a
      // work limit of their own: drops until the budget is met where the
      // segments miss it (they reach lower peaks on deep networks, where
      // the greedy's single drops each land a recomputation in the
      // backward's high region), then un-drops of what the budget does not
      // need. Lowers \p smallest to the lowest peak seen.
      auto segmentPlan = [&](const RematContext &space,
                             const SearchLimit &spaceLimit,
                             int64_t &smallest) -> std::optional<RematPlan> {
        std::optional<DropPlan> segments =
            planSegments(space, budget, options.segments,
                         /*pytorchSplit=*/false, spaceLimit, error);
        if (!segments)
          return std::nullopt;
        RematPlan chen = segments->plan;
        chen.algorithm = "chen";
        smallest = std::min(smallest, chen.smallestPeakTransient);
        SearchLimit refineLimit{space, space.numEvaluations + maxEvaluations,
                                limit.deadline};
        std::vector<char> dropped = segments->dropped;
        int64_t peak = INT64_MAX;
        std::optional<DropPlan> refined =
            segments->plan.withinBudget
                ? std::optional<DropPlan>(*segments)
                : dropUntilBudget(space, budget, dropped, peak, refineLimit,
                                  error);
        if (!refined)
          return std::nullopt;
        smallest = std::min(smallest, peak);
        if (!refined->plan.withinBudget)
          return chen;
        refined = undropUnneeded(space, budget, std::move(*refined),
                                 refineLimit, error);
        if (!refined)
          return std::nullopt;
        refined->plan.algorithm = "chen+greedy";
        return isBetter(refined->plan, chen) ? refined->plan : chen;
      };
      auto consider = [&](std::optional<RematPlan> candidate) {
        if (!plan || isBetter(*candidate, *plan))
          plan = std::move(candidate);
      };

      std::optional<DropPlan> found = greedy(context, limit);
      if (!found)
        return std::nullopt;
      int64_t smallest = found->plan.smallestPeakTransient;
      std::optional<RematPlan> chen = segmentPlan(context, limit, smallest);
      if (!chen)
        return std::nullopt;
      // The greedy in the smaller plan space too: its myopic path can end
      // lower there, and auto is then never worse than before the space
      // grew.
      std::optional<RematPlan> single;
      if (!options.singleRecompute) {
        RematContext singleContext(problem, /*singleRecompute=*/true,
                                   options.escapingWhole);
        SearchLimit singleLimit{singleContext, maxEvaluations, limit.deadline};
        std::optional<DropPlan> singlePlan = greedy(singleContext, singleLimit);
        if (!singlePlan)
          return std::nullopt;
        single = std::move(singlePlan->plan);
        single->algorithm = "greedy";
        smallest = std::min(smallest, single->smallestPeakTransient);
        context.numEvaluations += singleContext.numEvaluations;
      }
      // Runs the greedy over \p space once per (variants, name) in \p runs,
      // each within the limit \p makeLimit gives, and keeps the best plan
      // in \p best; false on an internal error.
      using GreedyRuns = std::vector<std::pair<GreedyVariants, const char *>>;
      auto keepBestGreedy = [&](const RematContext &space, auto makeLimit,
                                const GreedyRuns &runs,
                                std::optional<RematPlan> &best) {
        for (auto [variants, name] : runs) {
          std::optional<DropPlan> run = greedy(space, makeLimit(), variants);
          if (!run)
            return false;
          run->plan.algorithm = name;
          smallest = std::min(smallest, run->plan.smallestPeakTransient);
          if (!best || isBetter(run->plan, *best))
            best = std::move(run->plan);
        }
        return true;
      };
      // Where nothing met the budget yet, the greedy again with every gap
      // that has a privateInputs variant dropped only as that one: where
      // recomputations chain (the backward of a block recomputes its
      // forward, whose inputs other gaps' copies hold), the greedy's cheaper
      // choice makes those copies early and keeps them across the high
      // stretch between the readers, and its path ends high (at `min`,
      // mobilenet_v2 795.75 MiB against 528.16 this way, resnet50 991.37
      // against 798.43). It costs recomputation, so it is not tried where a
      // budget is met without it. It runs twice: with those gaps' early
      // variants allowed too, and without (GreedyVariants).
      std::optional<RematPlan> privatePlan;
      bool metAlready = found->plan.withinBudget || chen->withinBudget ||
                        (single && single->withinBudget);
      if (!options.singleRecompute && !metAlready &&
          std::find(context.hasPrivateVariant.begin(),
                    context.hasPrivateVariant.end(),
                    1) != context.hasPrivateVariant.end()) {
        // The second run differs only where such a gap has early variants.
        GreedyRuns runs{{GreedyVariants::Private, "greedy-private"}};
        for (size_t c = 0; c < context.candidates.size(); ++c)
          if (context.hasPrivateVariant[c] && context.isEarlyVariant(c)) {
            runs.push_back(
                {GreedyVariants::PrivateOrEarly, "greedy-private-early"});
            break;
          }
        auto privateLimit = [&] {
          return SearchLimit{context, context.numEvaluations + maxEvaluations,
                             limit.deadline};
        };
        if (!keepBestGreedy(context, privateLimit, runs, privatePlan))
          return std::nullopt;
      }
      // Where nothing met the budget, both greedies again with groups of up
      // to kDeepGroupSize buffers: a deep network's backward then
      // recomputes long chains from fewer kept activations (resnet50 at min:
      // 783.0 -> 680.6 MiB, greedy-private-deep), at recomputation only the
      // smallest footprints buy.
      std::optional<RematPlan> deepPlan;
      if (!options.singleRecompute && !metAlready &&
          !(privatePlan && privatePlan->withinBudget)) {
        RematContext deepContext(problem, /*singleRecompute=*/false,
                                 options.escapingWhole,
                                 RematContext::kDeepGroupSize);
        SearchLimit deepLimit{deepContext, maxEvaluations, limit.deadline};
        if (!keepBestGreedy(
                deepContext, [&] { return deepLimit; },
                {{GreedyVariants::Shared, "greedy-deep"},
                 {GreedyVariants::Private, "greedy-private-deep"}},
                deepPlan))
          return std::nullopt;
        context.numEvaluations += deepContext.numEvaluations;
      }
      // Local search last, with a work limit of its own.
      std::optional<RematPlan> polished = polish(std::move(*found));
      if (!polished)
        return std::nullopt;
      polished->algorithm = "greedy";
      smallest = std::min(smallest, polished->smallestPeakTransient);
      consider(std::move(polished));
      consider(std::move(chen));
      if (single)
        consider(std::move(single));
      if (privatePlan)
        consider(std::move(privatePlan));
      if (deepPlan)
        consider(std::move(deepPlan));
      // Small plan spaces are searched whole.
      if (!options.singleRecompute && options.exhaustiveWork > 0 &&
          isSmallPlanSpace(context, options.exhaustiveWork)) {
        std::optional<DropPlan> exact =
            searchExhaustively(context, budget, smallest, error);
        if (!exact)
          return std::nullopt;
        exact->plan.algorithm = "exhaustive";
        consider(std::move(exact->plan));
      }
      // Rotor's nested segments where the problem is a chain.
      if (!options.singleRecompute && options.rotorMaxStages > 0 &&
          options.rotorMaxStages <= kMaxRotorStages)
        if (std::optional<RematPlan> rotor = detail::planRematByRotor(
                problem, budget, options.rotorMaxStages,
                options.rotorMemorySlots, options.escapingWhole)) {
          smallest = std::min(smallest, rotor->peakTransientAfter);
          consider(std::move(rotor));
        }
      // Checkmate's schedule space, exactly, where the problem is small and
      // of its shape.
      if (!options.singleRecompute && options.ilpMaxTasks > 0 &&
          context.numTasks <= options.ilpMaxTasks)
        if (std::optional<RematPlan> ilp = detail::planRematByIlp(
                problem, budget, options.ilpMaxNodes,
                options.ilpTimeLimitSeconds,
                plan && plan->withinBudget ? &*plan : nullptr,
                options.escapingWhole)) {
          smallest = std::min(smallest, ilp->peakTransientAfter);
          consider(std::move(ilp));
        }
      plan->smallestPeakTransient = smallest;
      break;
    }
    }
    if (!plan)
      return std::nullopt;
    if (plan->algorithm.empty())
      plan->algorithm = getRematAlgorithmName(options.algorithm);
    // Over the budget, the clones at the peak may run earlier for free.
    if (!plan->withinBudget && options.hoistClones &&
        !options.singleRecompute) {
      RematPlan hoisted =
          hoistClonesAtPeak(problem, *plan, options.escapingWhole);
      if (hoisted.peakTransientAfter < plan->peakTransientAfter) {
        hoisted.withinBudget = hoisted.peakTransientAfter <= budget;
        hoisted.smallestPeakTransient =
            std::min(plan->smallestPeakTransient, hoisted.peakTransientAfter);
        plan = std::move(hoisted);
      }
    }
  }
  plan->peakTransientBefore = none->plan.peakTransientAfter;
  // Recomputing nothing is always possible.
  plan->smallestPeakTransient =
      std::min(plan->smallestPeakTransient, plan->peakTransientBefore);
  plan->firstImpureDefiner = context.firstImpureDefiner;
  plan->numCandidates = static_cast<int64_t>(context.candidates.size());
  plan->numEvaluations = context.numEvaluations;
  plan->solveSeconds = secondsSince(start);
  return plan;
}
