//===- OffsetExact.cpp - Exact offset planning ---------------------------===//
//
// This file implements the offset planner's exact search: MiniMalloc's
// depth-first search over canonical solutions with its section inference,
// dominance and decomposition, a bisection on the arena around it, and the
// search over the partitions of an instance.
//
//===----------------------------------------------------------------------===//

#include "OffsetInstance.h"
#include "memsched/Scheduling/RangeMaxTree.h"

#include <algorithm>
#include <memory>
#include <numeric>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail;
using namespace mlir::memsched::scheduling::detail::offsets;

namespace {

/// A depth-first search over the canonical solutions of one partition,
/// after MiniMalloc (Moffitt, ASPLOS'23): decide() finds a plan whose
/// arena fits a capacity, or proves that none does.
///
/// Any plan can be compacted by moving buffers down while one can move, so
/// some optimal plan is compact: no buffer can move to a lower aligned
/// offset. Listed by increasing offset (ties in a fixed preorder), every
/// buffer of a compact plan sits at its "minimum offset": the aligned end
/// of the highest buffer placed before it whose lifetime intersects its
/// own, or 0. The search therefore only branches on which buffer comes
/// next, places it at its minimum offset, and keeps (offset, preorder)
/// increasing along a branch. It prunes
///  - dominated branches: placing a buffer at or above minOffset(u) +
///    size(u) for an unplaced u would leave u movable down, so the plan
///    would not be compact;
///  - by section inference: in every section (a time range with a fixed
///    live set) the unplaced buffers stack above the section's floor and
///    must fit under the capacity, all but the topmost with their padded
///    size. Floors are the current offset, the top of a buffer just placed
///    in the section, and the lowest minimum offset of its unplaced
///    buffers; each is checked when it rises, since section sums only
///    shrink along a branch;
///  - hatless buffers: when the buffer just tried has no unplaced buffer
///    overlapping it in time, placing it next was forced, so if that fails
///    no other choice at this node can succeed;
/// and it splits the remaining buffers into independent parts whenever no
/// unplaced lifetime crosses a section boundary (dynamic decomposition).
/// Preorders are tried round-robin under a doubling node limit.
class CanonicalSearch {
public:
  /// Aborted: one preorder's node limit was reached (the next gets more);
  /// LimitReached: the node budget of the call or the deadline was.
  enum class Status { Found, NotFound, Aborted, LimitReached };

  CanonicalSearch(const Instance &instance, const std::vector<int32_t> &items);

  /// Finds a plan of arena at most \p capacity, proves there is none, or
  /// stops after \p maxNodes search nodes (non-positive: no limit) or at
  /// the deadline. On Found, `solution` holds the offsets of the items (in
  /// the caller's order).
  Status decide(int64_t capacity, int64_t maxNodes, const Deadline &deadline);

  std::vector<int64_t> solution;
  /// Search nodes visited, over all calls.
  int64_t nodes = 0;

private:
  /// Unplaced buffers that only share sections in [sectionLo, sectionHi).
  struct Part {
    std::vector<int32_t> items;
    int32_t sectionLo, sectionHi;
  };

  Status search(const Part &part, int64_t offset, int32_t minRank);
  Status decompose(const Part &part, int32_t u, int64_t offset);
  /// Places u at `at`. Sets `covered` when an unplaced buffer overlaps it;
  /// returns false when section inference prunes the result (undo() still
  /// reverts it).
  bool place(const Part &part, int32_t u, int64_t at, bool &covered);
  void undo(int32_t u, size_t mark);
  /// Ranks \p items by the current preorder.
  void rankPart(const std::vector<int32_t> &items);

  const Instance &instance;
  int32_t numItems = 0;
  int32_t numSections = 0;
  /// Static data of the local items (in the caller's order).
  std::vector<int64_t> size, padded, width, area, total;
  std::vector<int32_t> sectionLo, sectionHi;
  std::vector<std::vector<int32_t>> conflicts, members;
  /// Per section: the padded bytes of its buffers and the largest padding.
  std::vector<int64_t> bytes, slack;
  /// The current preorder, as MiniMalloc's key letters, and each buffer's
  /// rank in it among the buffers of its part.
  const char *preorder = "";
  std::vector<int32_t> rank;

  /// Search state. The tree holds, per section, the padded bytes of its
  /// unplaced buffers minus the section's largest padding.
  int64_t capacity = 0;
  std::unique_ptr<RangeMaxTree> tree;
  std::vector<int64_t> minOffset;
  std::vector<char> placed;
  std::vector<int32_t> cuts;
  std::vector<std::pair<int32_t, int64_t>> trail;
  /// place()'s scratch: the section ranges of the buffers it raised.
  std::vector<std::pair<int32_t, int32_t>> raised;
  int64_t nodesLeft = 0;
  Deadline deadline;
};

CanonicalSearch::CanonicalSearch(const Instance &instance,
                                 const std::vector<int32_t> &items)
    : instance(instance), numItems(static_cast<int32_t>(items.size())) {
  int32_t m = numItems;
  // Sections: the time ranges between consecutive starts and ends.
  std::vector<int32_t> points;
  points.reserve(2 * m);
  for (int32_t i : items) {
    points.push_back(instance.startRank[i]);
    points.push_back(instance.endRank[i] + 1);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  numSections = static_cast<int32_t>(points.size()) - 1;
  auto sectionOf = [&](int32_t rank) {
    return static_cast<int32_t>(
        std::lower_bound(points.begin(), points.end(), rank) - points.begin());
  };
  members.assign(numSections, {});
  slack.assign(numSections, 0);
  bytes.assign(numSections, 0);
  for (int32_t u = 0; u < m; ++u) {
    int32_t i = items[u];
    size.push_back(instance.size[i]);
    padded.push_back(instance.padded[i]);
    width.push_back(instance.length(i));
    // Saturate: only the order matters.
    area.push_back(instance.length(i) > kInfinity / instance.size[i]
                       ? kInfinity
                       : instance.size[i] * instance.length(i));
    sectionLo.push_back(sectionOf(instance.startRank[i]));
    sectionHi.push_back(sectionOf(instance.endRank[i] + 1));
    for (int32_t s = sectionLo[u]; s < sectionHi[u]; ++s) {
      members[s].push_back(u);
      slack[s] = std::max(slack[s], padded[u] - size[u]);
      bytes[s] += padded[u];
    }
  }
  total.assign(m, 0);
  // Two buffers conflict exactly when they share a section.
  conflicts.assign(m, {});
  std::vector<int32_t> byStart(m);
  std::iota(byStart.begin(), byStart.end(), 0);
  std::sort(byStart.begin(), byStart.end(),
            [&](int32_t a, int32_t b) { return sectionLo[a] < sectionLo[b]; });
  std::vector<int32_t> active;
  for (int32_t u : byStart) {
    active.erase(
        std::remove_if(active.begin(), active.end(),
                       [&](int32_t v) { return sectionHi[v] <= sectionLo[u]; }),
        active.end());
    for (int32_t v : active) {
      conflicts[u].push_back(v);
      conflicts[v].push_back(u);
    }
    active.push_back(u);
  }
  solution.assign(m, 0);
}

void CanonicalSearch::rankPart(const std::vector<int32_t> &items) {
  // MiniMalloc's keys, all descending: W(idth of the lifetime), A(rea),
  // T(otal of the fullest section crossed, counting unplaced buffers
  // only); then size, then index.
  for (int32_t u : items)
    total[u] = tree->max(sectionLo[u], sectionHi[u]);
  std::vector<int32_t> order(items);
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    for (const char *key = preorder; *key; ++key) {
      const std::vector<int64_t> &values = *key == 'W'   ? width
                                           : *key == 'A' ? area
                                                         : total;
      if (values[a] != values[b])
        return values[a] > values[b];
    }
    if (size[a] != size[b])
      return size[a] > size[b];
    return a < b;
  });
  for (size_t pos = 0; pos < order.size(); ++pos)
    rank[order[pos]] = static_cast<int32_t>(pos);
}

bool CanonicalSearch::place(const Part &part, int32_t u, int64_t at,
                            bool &covered) {
  placed[u] = 1;
  solution[u] = at;
  int64_t top = at + padded[u];
  tree->add(sectionLo[u], sectionHi[u], -padded[u]);
  // Everything still unplaced in u's sections conflicts with u, so it
  // stacks above u; everything else in the part stacks above `at`.
  bool feasible = top + tree->max(sectionLo[u], sectionHi[u]) <= capacity &&
                  at + tree->max(part.sectionLo, part.sectionHi) <= capacity;
  covered = false;
  raised.clear();
  for (int32_t v : conflicts[u]) {
    if (placed[v])
      continue;
    covered = true;
    if (minOffset[v] >= top)
      continue;
    trail.emplace_back(v, minOffset[v]);
    minOffset[v] = top;
    raised.emplace_back(sectionLo[v], sectionHi[v]);
  }
  if (!feasible || raised.empty())
    return feasible;
  // A section of a raised buffer is at least as high as the lowest minimum
  // offset of its unplaced buffers; only sections that could go over the
  // capacity need that minimum. Each section of the union is checked once,
  // after every raise: the raised buffers share most of their sections, and
  // scanning them per buffer made this the search's whole cost.
  std::sort(raised.begin(), raised.end());
  int32_t lo = raised.front().first, hi = raised.front().second;
  auto check = [&](int32_t from, int32_t to) {
    tree->forEachAbove(from, to, capacity - top, [&](size_t s, int64_t value) {
      if (!feasible)
        return;
      int64_t lowest = kInfinity;
      for (int32_t w : members[s])
        if (!placed[w])
          lowest = std::min(lowest, minOffset[w]);
      if (lowest + value > capacity)
        feasible = false;
    });
  };
  for (const auto &[from, to] : raised) {
    if (from > hi) {
      check(lo, hi);
      lo = from;
    }
    hi = std::max(hi, to);
  }
  if (feasible)
    check(lo, hi);
  return feasible;
}

void CanonicalSearch::undo(int32_t u, size_t mark) {
  while (trail.size() > mark) {
    minOffset[trail.back().first] = trail.back().second;
    trail.pop_back();
  }
  tree->add(sectionLo[u], sectionHi[u], padded[u]);
  placed[u] = 0;
}

CanonicalSearch::Status
CanonicalSearch::search(const Part &part, int64_t offset, int32_t minRank) {
  if (--nodesLeft < 0)
    return Status::Aborted;
  if ((++nodes & 255) == 0 && deadline.expired())
    return Status::LimitReached;
  // The children search the part's unplaced buffers only, so that the
  // list shrinks along a branch instead of being rescanned whole.
  Part remaining;
  remaining.sectionLo = part.sectionLo;
  remaining.sectionHi = part.sectionHi;
  int64_t minHeight = kInfinity;
  for (int32_t u : part.items)
    if (!placed[u]) {
      remaining.items.push_back(u);
      minHeight = std::min(minHeight, minOffset[u] + size[u]);
    }
  if (remaining.items.empty())
    return Status::Found;
  // The buffers that may come next, by (minimum offset, rank): those at or
  // above the branch's (offset, rank) and below minHeight (placing one at
  // or above it would leave a gap some unplaced buffer could drop into),
  // filtered before sorting. The keys do not change while this node
  // iterates: every child restores the state.
  std::vector<int32_t> ordering;
  for (int32_t u : remaining.items) {
    int64_t at = minOffset[u];
    if (at < minHeight && (at > offset || (at == offset && rank[u] >= minRank)))
      ordering.push_back(u);
  }
  std::sort(ordering.begin(), ordering.end(), [&](int32_t a, int32_t b) {
    if (minOffset[a] != minOffset[b])
      return minOffset[a] < minOffset[b];
    return rank[a] < rank[b];
  });
  for (int32_t u : ordering) {
    int64_t at = minOffset[u];
    if (at + size[u] > capacity)
      continue;
    size_t mark = trail.size();
    bool covered = false;
    Status status = Status::NotFound;
    if (place(remaining, u, at, covered))
      status = decompose(remaining, u, at);
    undo(u, mark);
    if (status != Status::NotFound)
      return status;
    // Nothing unplaced overlaps u: it had to come next, so nothing else
    // can succeed here.
    if (!covered)
      break;
  }
  return Status::NotFound;
}

CanonicalSearch::Status CanonicalSearch::decompose(const Part &part, int32_t u,
                                                   int64_t offset) {
  // A boundary between sections no unplaced buffer crosses splits the
  // part into independent parts.
  std::vector<int32_t> cutpoints = {part.sectionLo};
  for (int32_t s = sectionLo[u]; s + 1 < sectionHi[u]; ++s)
    if (--cuts[s] == 0 && s + 1 > part.sectionLo && s + 1 < part.sectionHi)
      cutpoints.push_back(s + 1);
  Status status;
  if (cutpoints.size() == 1) {
    status = search(part, offset, rank[u]);
  } else {
    status = Status::Found;
    cutpoints.push_back(part.sectionHi);
    for (size_t c = 1; c < cutpoints.size() && status == Status::Found; ++c) {
      Part sub;
      sub.sectionLo = cutpoints[c - 1];
      sub.sectionHi = cutpoints[c];
      for (int32_t v : part.items)
        if (!placed[v] && sectionLo[v] < sub.sectionHi &&
            sub.sectionLo < sectionHi[v])
          sub.items.push_back(v);
      if (sub.items.empty())
        continue;
      // As MiniMalloc does, rank the part's buffers afresh by the sections
      // as they are now, and start its canonical order over: the part is a
      // problem of its own.
      std::vector<int32_t> saved;
      for (int32_t v : sub.items)
        saved.push_back(rank[v]);
      rankPart(sub.items);
      status = search(sub, 0, -1);
      for (size_t k = 0; k < sub.items.size(); ++k)
        rank[sub.items[k]] = saved[k];
    }
  }
  for (int32_t s = sectionLo[u]; s + 1 < sectionHi[u]; ++s)
    ++cuts[s];
  return status;
}

CanonicalSearch::Status CanonicalSearch::decide(int64_t limit, int64_t maxNodes,
                                                const Deadline &until) {
  capacity = limit;
  deadline = until;
  int64_t firstNode = nodes;
  int32_t m = numItems;
  Part root;
  root.items.resize(m);
  std::iota(root.items.begin(), root.items.end(), 0);
  root.sectionLo = 0;
  root.sectionHi = numSections;
  std::vector<int64_t> values(numSections);
  for (int32_t s = 0; s < numSections; ++s)
    values[s] = bytes[s] - slack[s];
  // MiniMalloc's preorders, round-robin under a doubling node limit: one
  // of them often finds a plan quickly where another gets lost.
  const char *const preorders[] = {"WAT", "TAW", "TWA"};
  for (int64_t limitNodes = 2 * std::max<int64_t>(m, 16);; limitNodes *= 2) {
    for (const char *keys : preorders) {
      preorder = keys;
      tree = std::make_unique<RangeMaxTree>(values);
      rank.assign(m, 0);
      rankPart(root.items);
      minOffset.assign(m, 0);
      placed.assign(m, 0);
      cuts.assign(std::max(numSections - 1, 0), 0);
      for (int32_t s = 0; s + 1 < numSections; ++s)
        for (int32_t u : members[s])
          cuts[s] += sectionHi[u] > s + 1;
      trail.clear();
      nodesLeft = limitNodes;
      if (maxNodes > 0) {
        int64_t budget = maxNodes - (nodes - firstNode);
        if (budget <= 0)
          return Status::LimitReached;
        nodesLeft = std::min(nodesLeft, budget);
      }
      // The root bound: the fullest section.
      Status status = tree->max(0, numSections) > capacity
                          ? Status::NotFound
                          : search(root, 0, -1);
      if (status != Status::Aborted)
        return status;
    }
  }
}

} // namespace

/// Minimises the arena of one partition by bisection over capacities in
/// [lowerBound, upperBound - 1], each settled by a decision search with
/// half the nodes (and time) left, the last with all of them (the first
/// probe, at the lower bound, often succeeds on its own). \p nodesLeft is
/// the node budget (non-positive: none), reduced by the nodes spent.
/// Returns whether the result is proven optimal; `offsets` receives the
/// best plan found, if any beats upperBound.
static bool minimiseArena(CanonicalSearch &search, int64_t lowerBound,
                          int64_t upperBound, int64_t &nodesLeft,
                          const Deadline &deadline,
                          std::vector<int64_t> &offsets,
                          const std::vector<int64_t> &sizes) {
  bool limited = nodesLeft > 0;
  int64_t lo = lowerBound, hi = upperBound - 1;
  bool proven = true, first = true;
  while (lo <= hi) {
    if (deadline.expired() || (limited && nodesLeft <= 0))
      return false;
    int64_t capacity = first ? lo : lo + (hi - lo) / 2;
    first = false;
    bool last = lo == hi;
    int64_t probeNodes = !limited ? 0
                         : last   ? nodesLeft
                                  : std::max<int64_t>(1, nodesLeft / 2);
    int64_t before = search.nodes;
    CanonicalSearch::Status status = search.decide(
        capacity, probeNodes, last ? deadline : deadline.halfway());
    if (limited)
      nodesLeft -= search.nodes - before;
    if (status == CanonicalSearch::Status::Found) {
      offsets = search.solution;
      int64_t arena = 0;
      for (size_t k = 0; k < offsets.size(); ++k)
        arena = std::max(arena, offsets[k] + sizes[k]);
      hi = arena - 1;
      continue;
    }
    // A probe out of nodes or time proves nothing: look higher, unproven.
    if (status != CanonicalSearch::Status::NotFound)
      proven = false;
    lo = capacity + 1;
  }
  return proven;
}

ExactOutcome detail::offsets::searchExact(const Instance &instance,
                                          const std::vector<int64_t> &start,
                                          int64_t lowerBound, int64_t maxNodes,
                                          const Deadline &deadline) {
  ExactOutcome outcome;
  bool limited = maxNodes > 0;
  int64_t nodesLeft = maxNodes;
  outcome.offsets = start;
  std::vector<std::vector<int32_t>> partitions = splitIntoPartitions(instance);
  auto arenaOf = [&](const std::vector<int32_t> &items) {
    int64_t arena = 0;
    for (int32_t i : items)
      arena = std::max(arena, outcome.offsets[i] + instance.size[i]);
    return arena;
  };
  // Largest first: the partitions that decide the arena raise the target
  // that lets the others stop early.
  std::vector<std::pair<int64_t, size_t>> byArena;
  for (size_t p = 0; p < partitions.size(); ++p)
    byArena.push_back({arenaOf(partitions[p]), p});
  std::sort(byArena.begin(), byArena.end(),
            [](const auto &a, const auto &b) { return a.first > b.first; });
  int64_t target = lowerBound;
  for (const auto &[heuristicArena, p] : byArena) {
    const std::vector<int32_t> &items = partitions[p];
    int64_t local = computeLiveStats(instance, &items).alignedLowerBound;
    int64_t stopAt = std::max(target, local);
    if (heuristicArena <= stopAt) {
      target = std::max(target, heuristicArena);
      continue;
    }
    if (static_cast<int64_t>(items.size()) > kMaxExactPartitionBuffers ||
        (limited && nodesLeft <= 0) || deadline.expired()) {
      outcome.tooLarge |=
          static_cast<int64_t>(items.size()) > kMaxExactPartitionBuffers;
      outcome.finished = false;
      target = std::max(target, heuristicArena);
      continue;
    }
    CanonicalSearch search(instance, items);
    std::vector<int64_t> offsets, sizes;
    for (int32_t i : items)
      sizes.push_back(instance.size[i]);
    // Unlimited searches pass a non-positive budget through unchanged.
    int64_t budget = limited ? nodesLeft : 0;
    if (!minimiseArena(search, stopAt, heuristicArena, budget, deadline,
                       offsets, sizes))
      outcome.finished = false;
    outcome.nodes += search.nodes;
    if (limited)
      nodesLeft = budget;
    int64_t arena = heuristicArena;
    if (!offsets.empty()) {
      outcome.improved = true;
      for (size_t k = 0; k < items.size(); ++k)
        outcome.offsets[items[k]] = offsets[k];
      arena = arenaOf(items);
    }
    target = std::max(target, arena);
  }
  outcome.arena = instance.arena(outcome.offsets);
  outcome.timedOut = !outcome.finished && deadline.expired();
  return outcome;
}
