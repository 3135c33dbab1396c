//===- OffsetPlanner.cpp - Static offsets for buffers in one arena --------===//
//
// This file implements the offset planner: TFLite's greedy by size, XLA's
// global decreasing-size best fit in its two orders, MiniMalloc's search
// over canonical solutions (bisecting on the arena), and `auto`, which runs
// the heuristics and more greedy orders, improves the best with
// squeaky-wheel reordering, then searches exactly with the time left, and
// keeps the smallest arena.
//
// Greedy placements cost O(n log n + sum of h log h) for h placed buffers
// meeting each one in time, with an index of lifetimes by length class
// (PlacedIndex); verification is an O(n log n) sweep.
//
// Every planner works on aligned sizes: with offsets that are multiples of
// the alignment, a buffer of size s blocks the aligned slots up to
// alignUp(offset + s), so placed buffers occupy [offset, offset + padded)
// and the arena is max(offset + size) with the real size.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/OffsetPlanner.h"
#include "NameTable.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <istream>
#include <iterator>
#include <limits>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>

using namespace mlir::memsched::scheduling;

namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kInfinity = std::numeric_limits<int64_t>::max();
constexpr int64_t kNoEnd = std::numeric_limits<int64_t>::min();
/// The largest request size accepted: 2^48 bytes (256 TiB).
constexpr int64_t kMaxSizeBytes = int64_t(1) << 48;

using AlgorithmName = detail::NamedValue<OffsetAlgorithm>;

constexpr AlgorithmName kAlgorithmNames[] = {
    {OffsetAlgorithm::Auto, "auto"},
    {OffsetAlgorithm::GreedyBySize, "greedy-by-size"},
    {OffsetAlgorithm::BestFitBySize, "best-fit-by-size"},
    {OffsetAlgorithm::BestFitByLifetime, "best-fit-by-lifetime"},
    {OffsetAlgorithm::XlaBest, "xla-best"},
    {OffsetAlgorithm::Exact, "exact"},
};

/// Short spellings accepted on input.
constexpr AlgorithmName kAliases[] = {
    {OffsetAlgorithm::GreedyBySize, "greedy"},
    {OffsetAlgorithm::XlaBest, "xla"},
};

void setError(std::string *error, const std::string &message) {
  if (error)
    *error = message;
}

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int64_t alignUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

/// "request 3 (id 7)", for messages.
std::string describe(const std::vector<AllocationRequest> &requests,
                     size_t index) {
  return "request " + std::to_string(index) + " (id " +
         std::to_string(requests[index].id) + ")";
}

//===----------------------------------------------------------------------===//
// The instance the planners work on.
//===----------------------------------------------------------------------===//

/// Sorts (key, value) pairs by key, 11 bits per pass, as many passes as
/// the largest key needs.
void radixSort(std::vector<std::pair<uint64_t, int32_t>> &items) {
  uint64_t largest = 0;
  for (const auto &item : items)
    largest = std::max(largest, item.first);
  std::vector<std::pair<uint64_t, int32_t>> buffer(items.size());
  constexpr int kBits = 11;
  constexpr size_t kBuckets = size_t(1) << kBits;
  for (int shift = 0; shift < 64 && (largest >> shift) != 0; shift += kBits) {
    size_t count[kBuckets + 1] = {};
    for (const auto &item : items)
      ++count[((item.first >> shift) & (kBuckets - 1)) + 1];
    for (size_t b = 1; b <= kBuckets; ++b)
      count[b] += count[b - 1];
    for (const auto &item : items)
      buffer[count[(item.first >> shift) & (kBuckets - 1)]++] = item;
    items.swap(buffer);
  }
}

/// The requests of nonzero size (zero-size ones never conflict and get
/// offset 0), with their aligned sizes and their lifetimes compressed to
/// ranks (the positions of their starts and ends among all starts and ends,
/// which keeps every intersection), so time-indexed arrays stay O(n).
struct Instance {
  std::vector<int32_t> request;
  std::vector<int64_t> start, end, size, padded;
  std::vector<int32_t> startRank, endRank;
  int32_t numRanks = 0;
  int64_t alignment = 1;

  Instance(const std::vector<AllocationRequest> &requests, int64_t alignment)
      : alignment(alignment) {
    for (size_t i = 0; i < requests.size(); ++i) {
      const AllocationRequest &r = requests[i];
      if (r.sizeBytes == 0)
        continue;
      request.push_back(static_cast<int32_t>(i));
      start.push_back(r.start);
      end.push_back(r.end);
      size.push_back(r.sizeBytes);
      padded.push_back(alignUp(r.sizeBytes, alignment));
    }
    // Sort the 2n times once (radix sort: plans of 100k buffers spend a
    // good part of their time here otherwise) and number distinct values.
    int32_t n = numItems();
    std::vector<std::pair<uint64_t, int32_t>> times(2 * static_cast<size_t>(n));
    int64_t earliest = n ? *std::min_element(start.begin(), start.end()) : 0;
    for (int32_t i = 0; i < n; ++i) {
      times[2 * i] = {static_cast<uint64_t>(start[i]) -
                          static_cast<uint64_t>(earliest),
                      2 * i};
      times[2 * i + 1] = {static_cast<uint64_t>(end[i]) -
                              static_cast<uint64_t>(earliest),
                          2 * i + 1};
    }
    radixSort(times);
    startRank.resize(n);
    endRank.resize(n);
    int32_t rank = -1;
    for (size_t k = 0; k < times.size(); ++k) {
      if (k == 0 || times[k].first != times[k - 1].first)
        ++rank;
      int32_t slot = times[k].second;
      (slot % 2 ? endRank : startRank)[slot / 2] = rank;
    }
    numRanks = rank + 1;
  }
  int32_t numItems() const { return static_cast<int32_t>(request.size()); }
  int64_t length(int32_t item) const { return end[item] - start[item] + 1; }
  /// max(offset + size) of a plan of the items.
  int64_t arena(const std::vector<int64_t> &offsets) const {
    int64_t arena = 0;
    for (int32_t i = 0; i < numItems(); ++i)
      arena = std::max(arena, offsets[i] + size[i]);
    return arena;
  }
};

/// Statistics of the live sets over time.
struct LiveStats {
  /// max over steps of the live bytes.
  int64_t maxLiveBytes = 0;
  /// max over steps of the most buffers live together.
  int64_t peakCount = 0;
  /// A lower bound on any aligned arena: at each step the live buffers are
  /// stacked at aligned offsets, so all but the topmost take their padded
  /// size, i.e. sum(padded) - max(padded - size). Rounding the live bytes up
  /// to the alignment would not be a bound: the topmost buffer is not padded.
  int64_t alignedLowerBound = 0;
};

/// Computes the statistics of \p items (all of \p instance when null) with
/// difference arrays over the ranks they span. O(n log n).
LiveStats computeLiveStats(const Instance &instance,
                           const std::vector<int32_t> *items = nullptr) {
  std::vector<int32_t> all;
  if (!items) {
    all.resize(instance.numItems());
    std::iota(all.begin(), all.end(), 0);
    items = &all;
  }
  LiveStats stats;
  if (items->empty())
    return stats;
  int32_t first = instance.numRanks, last = 0;
  for (int32_t i : *items) {
    first = std::min(first, instance.startRank[i]);
    last = std::max(last, instance.endRank[i]);
  }
  size_t width = static_cast<size_t>(last - first) + 1;
  std::vector<int64_t> live(width + 1, 0), padded(width + 1, 0);
  std::vector<int32_t> count(width + 1, 0);
  for (int32_t i : *items) {
    size_t lo = instance.startRank[i] - first, hi = instance.endRank[i] - first;
    live[lo] += instance.size[i];
    live[hi + 1] -= instance.size[i];
    padded[lo] += instance.padded[i];
    padded[hi + 1] -= instance.padded[i];
    ++count[lo];
    --count[hi + 1];
  }
  // The largest slack live at each rank: paint ranks with slacks in
  // decreasing order, skipping painted ranks with a union-find, O(n log n).
  std::vector<int64_t> slack(width, 0);
  if (instance.alignment > 1) {
    std::vector<int32_t> bySlack(*items);
    auto slackOf = [&](int32_t i) {
      return instance.padded[i] - instance.size[i];
    };
    std::sort(bySlack.begin(), bySlack.end(),
              [&](int32_t a, int32_t b) { return slackOf(a) > slackOf(b); });
    std::vector<int32_t> next(width + 1);
    std::iota(next.begin(), next.end(), 0);
    auto find = [&](int32_t r) {
      int32_t root = r;
      while (next[root] != root)
        root = next[root];
      while (next[r] != root) {
        int32_t up = next[r];
        next[r] = root;
        r = up;
      }
      return root;
    };
    for (int32_t i : bySlack) {
      int32_t hi = instance.endRank[i] - first;
      if (slackOf(i) == 0)
        break;
      for (int32_t r = find(instance.startRank[i] - first); r <= hi;
           r = find(r)) {
        slack[r] = slackOf(i);
        next[r] = r + 1;
      }
    }
  }
  int64_t liveBytes = 0, paddedBytes = 0, liveCount = 0;
  for (size_t r = 0; r < width; ++r) {
    liveBytes += live[r];
    paddedBytes += padded[r];
    liveCount += count[r];
    if (liveCount == 0)
      continue;
    stats.maxLiveBytes = std::max(stats.maxLiveBytes, liveBytes);
    stats.peakCount = std::max(stats.peakCount, liveCount);
    stats.alignedLowerBound =
        std::max(stats.alignedLowerBound, paddedBytes - slack[r]);
  }
  return stats;
}

//===----------------------------------------------------------------------===//
// Greedy placement in a given order (TFLite and XLA).
//===----------------------------------------------------------------------===//

/// Finds the placed items whose lifetimes intersect a query interval, as
/// byte ranges sorted by offset.
///
/// Items are grouped by lifetime length in ranks into power-of-two classes;
/// in class c (lengths in [2^c, 2^(c+1))) only items starting in
/// [start - maxLength + 1, end] can intersect [start, end], and at least
/// the items of that window starting within 2^c of `start` do. Each class
/// is sorted by start with an index of its items by start bucket of width
/// 2^c, so a query scans contiguous arrays in time linear in the items
/// around it, with no search. Classes of lifetimes longer than a quarter of
/// the timeline are instead kept sorted by offset as they are placed: a
/// query meets most of them anyway, and this way they need no sorting.
/// A query costs O(classes + hits + h log h) for h hits among short-lived
/// items.
class PlacedIndex {
public:
  using Range = std::pair<int64_t, int64_t>;

  explicit PlacedIndex(const Instance &instance) : numRanks(instance.numRanks) {
    int32_t n = instance.numItems();
    std::vector<int> itemClass(n);
    for (int32_t i = 0; i < n; ++i) {
      int c = 0;
      for (int32_t length = instance.endRank[i] - instance.startRank[i] + 1;
           length > 1; length >>= 1)
        ++c;
      itemClass[i] = c;
    }
    std::vector<int32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
      if (itemClass[a] != itemClass[b])
        return itemClass[a] < itemClass[b];
      return instance.startRank[a] < instance.startRank[b];
    });
    slot.resize(n);
    for (int32_t i : order) {
      if (classes.empty() || itemClass[i] != classes.back().id) {
        classes.emplace_back();
        classes.back().id = itemClass[i];
      }
      Class &c = classes.back();
      slot[i] = {static_cast<int32_t>(classes.size() - 1),
                 static_cast<int32_t>(c.start.size())};
      c.maxLength = std::max(c.maxLength,
                             instance.endRank[i] - instance.startRank[i] + 1);
      c.start.push_back(instance.startRank[i]);
      c.end.push_back(instance.endRank[i]);
      c.offset.push_back(-1);
      c.top.push_back(0);
    }
    for (Class &c : classes) {
      c.byOffset = 4 * static_cast<int64_t>(c.maxLength) >= numRanks;
      int32_t width = int32_t(1) << c.id;
      c.bucketStart.assign(numRanks / width + 2, 0);
      size_t pos = 0;
      for (size_t b = 0; b < c.bucketStart.size(); ++b) {
        while (pos < c.start.size() &&
               c.start[pos] < static_cast<int64_t>(b) * width)
          ++pos;
        c.bucketStart[b] = static_cast<int32_t>(pos);
      }
    }
  }

  /// Forgets every placement.
  void reset() {
    for (Class &c : classes) {
      std::fill(c.offset.begin(), c.offset.end(), -1);
      c.placed.clear();
    }
  }

  /// Records that \p item occupies [offset, top).
  void place(int32_t item, int64_t offset, int64_t top) {
    auto [c, pos] = slot[item];
    Class &cls = classes[c];
    cls.offset[pos] = offset;
    cls.top[pos] = top;
    if (cls.byOffset) {
      Placed placed = {offset, top, cls.start[pos], cls.end[pos]};
      cls.placed.insert(std::upper_bound(cls.placed.begin(), cls.placed.end(),
                                         placed,
                                         [](const Placed &a, const Placed &b) {
                                           return a.offset < b.offset;
                                         }),
                        placed);
    }
  }

  /// Sets \p out to the byte ranges of the placed items live at some rank
  /// of [start, end], sorted.
  void collect(int32_t start, int32_t end, std::vector<Range> &out) {
    out.clear();
    shortLived.clear();
    for (const Class &c : classes) {
      if (c.byOffset) {
        size_t middle = out.size();
        for (const Placed &p : c.placed)
          if (p.end >= start && p.start <= end)
            out.push_back({p.offset, p.top});
        std::inplace_merge(out.begin(), out.begin() + middle, out.end());
        continue;
      }
      int32_t from = std::max(start - (c.maxLength - 1), 0);
      size_t lo = c.bucketStart[from >> c.id];
      size_t hi = c.bucketStart[(end >> c.id) + 1];
      for (size_t pos = lo; pos < hi; ++pos)
        if (c.offset[pos] >= 0 && c.end[pos] >= start && c.start[pos] <= end)
          shortLived.push_back({c.offset[pos], c.top[pos]});
    }
    std::sort(shortLived.begin(), shortLived.end());
    size_t middle = out.size();
    out.insert(out.end(), shortLived.begin(), shortLived.end());
    std::inplace_merge(out.begin(), out.begin() + middle, out.end());
  }

private:
  struct Placed {
    int64_t offset, top;
    int32_t start, end;
  };
  struct Class {
    int id = 0;
    int32_t maxLength = 1;
    /// Whether placed items are kept in `placed`, sorted by offset.
    bool byOffset = false;
    std::vector<int32_t> start, end;
    std::vector<int64_t> offset, top;
    /// Position of the first item starting at or after b * 2^id.
    std::vector<int32_t> bucketStart;
    std::vector<Placed> placed;
  };
  int32_t numRanks;
  std::vector<Class> classes;
  /// (class, position) of each item.
  std::vector<std::pair<int32_t, int32_t>> slot;
  std::vector<Range> shortLived;
};

/// How a greedy placement picks among the gaps that fit.
enum class Fit {
  /// The lowest offset (TFLite Micro's greedy planner).
  First,
  /// The smallest gap, lowest offset on ties (XLA's best fit, and TFLite's
  /// GPU greedy by size).
  Best,
};

/// Places the items one by one in \p order, each in a gap between the
/// already placed items whose lifetimes intersect its own, or above them
/// all when no gap fits. O(sum over items of k log k) for k intersecting
/// placed items.
std::vector<int64_t> placeGreedily(const Instance &instance, PlacedIndex &index,
                                   const std::vector<int32_t> &order, Fit fit) {
  std::vector<int64_t> offsets(instance.numItems(), 0);
  index.reset();
  std::vector<PlacedIndex::Range> busy;
  for (int32_t item : order) {
    index.collect(instance.startRank[item], instance.endRank[item], busy);
    // Placed offsets and padded ends are aligned, so every gap starts at
    // an aligned offset and fits the item if it holds its real size.
    int64_t size = instance.size[item];
    int64_t top = 0, bestOffset = -1, bestGap = kInfinity;
    for (const auto &[offset, end] : busy) {
      if (offset >= top + size && offset - top < bestGap) {
        bestOffset = top;
        bestGap = offset - top;
        if (fit == Fit::First)
          break;
      }
      top = std::max(top, end);
    }
    offsets[item] = bestOffset >= 0 ? bestOffset : top;
    index.place(item, offsets[item], offsets[item] + instance.padded[item]);
  }
  return offsets;
}

/// The items sorted by \p less, ties broken by request order.
template <typename Less>
std::vector<int32_t> sortedItems(const Instance &instance, Less less) {
  std::vector<int32_t> order(instance.numItems());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    if (less(a, b))
      return true;
    if (less(b, a))
      return false;
    return a < b;
  });
  return order;
}

/// Size descending, then longer lifetime (XLA's spatial order; TFLite's
/// greedy by size sorts the same way).
std::vector<int32_t> orderBySize(const Instance &instance) {
  return sortedItems(instance, [&](int32_t a, int32_t b) {
    if (instance.size[a] != instance.size[b])
      return instance.size[a] > instance.size[b];
    return instance.length(a) > instance.length(b);
  });
}

/// Lifetime length descending, then size (XLA's temporal order).
std::vector<int32_t> orderByLifetime(const Instance &instance) {
  return sortedItems(instance, [&](int32_t a, int32_t b) {
    if (instance.length(a) != instance.length(b))
      return instance.length(a) > instance.length(b);
    return instance.size[a] > instance.size[b];
  });
}

/// Area (size x lifetime) descending: big long-lived buffers first.
std::vector<int32_t> orderByArea(const Instance &instance) {
  return sortedItems(instance, [&](int32_t a, int32_t b) {
    // Doubles: the product of a size and a length may not fit in 64 bits.
    double areaA = static_cast<double>(instance.size[a]) *
                   static_cast<double>(instance.length(a));
    double areaB = static_cast<double>(instance.size[b]) *
                   static_cast<double>(instance.length(b));
    if (areaA != areaB)
      return areaA > areaB;
    return instance.size[a] > instance.size[b];
  });
}

/// Start time, then size descending (the program order IREE packs in).
std::vector<int32_t> orderByStart(const Instance &instance) {
  return sortedItems(instance, [&](int32_t a, int32_t b) {
    if (instance.start[a] != instance.start[b])
      return instance.start[a] < instance.start[b];
    return instance.size[a] > instance.size[b];
  });
}

//===----------------------------------------------------------------------===//
// Exact search.
//===----------------------------------------------------------------------===//

/// Splits the items into groups of overlapping lifetimes: no lifetime
/// crosses the boundary between two groups, so each can be planned alone
/// and the arena is the largest of theirs.
std::vector<std::vector<int32_t>>
splitIntoPartitions(const Instance &instance) {
  std::vector<int32_t> order(instance.numItems());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return instance.start[a] < instance.start[b];
  });
  std::vector<std::vector<int32_t>> partitions;
  int64_t reach = kNoEnd;
  for (int32_t item : order) {
    if (partitions.empty() || instance.start[item] > reach)
      partitions.emplace_back();
    partitions.back().push_back(item);
    reach = std::max(reach, instance.end[item]);
  }
  return partitions;
}

/// The most buffers a partition may have for the exact search: its depth-
/// first search keeps an ordering per level, O(n^2) memory on deep paths.
constexpr int32_t kMaxExactPartitionBuffers = 4096;

/// A segment tree over sections with range add, range max, and a walk over
/// the values above a threshold.
class SectionTree {
public:
  explicit SectionTree(const std::vector<int64_t> &values) {
    while (leaves < values.size())
      leaves <<= 1;
    best.assign(2 * leaves, kNone);
    pending.assign(2 * leaves, 0);
    for (size_t i = 0; i < values.size(); ++i)
      best[leaves + i] = values[i];
    for (size_t node = leaves - 1; node > 0; --node)
      best[node] = std::max(best[2 * node], best[2 * node + 1]);
  }
  /// Adds \p delta to every value in [lo, hi).
  void add(size_t lo, size_t hi, int64_t delta) {
    add(1, 0, leaves, lo, hi, delta);
  }
  /// The largest value in [lo, hi).
  int64_t max(size_t lo, size_t hi) const { return max(1, 0, leaves, lo, hi); }
  /// Calls \p fn(section, value) for the values in [lo, hi) above
  /// \p threshold.
  template <typename Fn>
  void forEachAbove(size_t lo, size_t hi, int64_t threshold, Fn fn) const {
    forEachAbove(1, 0, leaves, lo, hi, threshold, 0, fn);
  }

private:
  static constexpr int64_t kNone = std::numeric_limits<int64_t>::min() / 4;

  void add(size_t node, size_t nodeLo, size_t nodeHi, size_t lo, size_t hi,
           int64_t delta) {
    if (hi <= nodeLo || nodeHi <= lo)
      return;
    if (lo <= nodeLo && nodeHi <= hi) {
      best[node] += delta;
      pending[node] += delta;
      return;
    }
    size_t mid = (nodeLo + nodeHi) / 2;
    add(2 * node, nodeLo, mid, lo, hi, delta);
    add(2 * node + 1, mid, nodeHi, lo, hi, delta);
    best[node] = std::max(best[2 * node], best[2 * node + 1]) + pending[node];
  }
  int64_t max(size_t node, size_t nodeLo, size_t nodeHi, size_t lo,
              size_t hi) const {
    if (hi <= nodeLo || nodeHi <= lo)
      return kNone;
    if (lo <= nodeLo && nodeHi <= hi)
      return best[node];
    size_t mid = (nodeLo + nodeHi) / 2;
    return std::max(max(2 * node, nodeLo, mid, lo, hi),
                    max(2 * node + 1, mid, nodeHi, lo, hi)) +
           pending[node];
  }
  template <typename Fn>
  void forEachAbove(size_t node, size_t nodeLo, size_t nodeHi, size_t lo,
                    size_t hi, int64_t threshold, int64_t above, Fn &fn) const {
    if (hi <= nodeLo || nodeHi <= lo || best[node] + above <= threshold)
      return;
    if (node >= leaves) {
      fn(node - leaves, best[node] + above);
      return;
    }
    size_t mid = (nodeLo + nodeHi) / 2;
    above += pending[node];
    forEachAbove(2 * node, nodeLo, mid, lo, hi, threshold, above, fn);
    forEachAbove(2 * node + 1, mid, nodeHi, lo, hi, threshold, above, fn);
  }

  size_t leaves = 1;
  std::vector<int64_t> best, pending;
};

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
  enum class Status { Found, NotFound, Aborted, TimedOut };

  CanonicalSearch(const Instance &instance, const std::vector<int32_t> &items);

  /// Finds a plan of arena at most \p capacity, proves there is none, or
  /// runs out of time. On Found, `solution` holds the offsets of the items
  /// (in the caller's order).
  Status decide(int64_t capacity, Clock::time_point deadline, bool hasDeadline);

  std::vector<int64_t> solution;
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
  std::unique_ptr<SectionTree> tree;
  std::vector<int64_t> minOffset;
  std::vector<char> placed;
  std::vector<int32_t> cuts;
  std::vector<std::pair<int32_t, int64_t>> trail;
  int64_t nodesLeft = 0;
  Clock::time_point deadline;
  bool hasDeadline = false;
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
  for (int32_t v : conflicts[u]) {
    if (placed[v])
      continue;
    covered = true;
    if (minOffset[v] >= top)
      continue;
    trail.push_back({v, minOffset[v]});
    minOffset[v] = top;
    if (!feasible)
      continue;
    // A section of v is at least as high as the lowest minimum offset of
    // its unplaced buffers; only sections v could push over the capacity
    // need that minimum.
    tree->forEachAbove(sectionLo[v], sectionHi[v], capacity - top,
                       [&](size_t s, int64_t value) {
                         if (!feasible)
                           return;
                         int64_t lowest = kInfinity;
                         for (int32_t w : members[s])
                           if (!placed[w])
                             lowest = std::min(lowest, minOffset[w]);
                         if (lowest + value > capacity)
                           feasible = false;
                       });
  }
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
  if ((++nodes & 255) == 0 && hasDeadline && Clock::now() >= deadline)
    return Status::TimedOut;
  // Unplaced buffers by (minimum offset, rank). The keys do not change
  // while this node iterates: every child restores the state.
  std::vector<int32_t> ordering;
  int64_t minHeight = kInfinity;
  for (int32_t u : part.items)
    if (!placed[u]) {
      ordering.push_back(u);
      minHeight = std::min(minHeight, minOffset[u] + size[u]);
    }
  if (ordering.empty())
    return Status::Found;
  std::sort(ordering.begin(), ordering.end(), [&](int32_t a, int32_t b) {
    if (minOffset[a] != minOffset[b])
      return minOffset[a] < minOffset[b];
    return rank[a] < rank[b];
  });
  for (int32_t u : ordering) {
    int64_t at = minOffset[u];
    if (at < offset || (at == offset && rank[u] < minRank))
      continue;
    // Placing u here would leave a gap some unplaced buffer could drop
    // into; the ordering is by offset, so every later one would too.
    if (at >= minHeight)
      break;
    if (at + size[u] > capacity)
      continue;
    size_t mark = trail.size();
    bool covered = false;
    Status status = Status::NotFound;
    if (place(part, u, at, covered))
      status = decompose(part, u, at);
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

CanonicalSearch::Status
CanonicalSearch::decide(int64_t limit, Clock::time_point until, bool limited) {
  capacity = limit;
  deadline = until;
  hasDeadline = limited;
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
      tree = std::make_unique<SectionTree>(values);
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
      // The root bound: the fullest section.
      Status status = tree->max(0, numSections) > capacity
                          ? Status::NotFound
                          : search(root, 0, -1);
      if (status != Status::Aborted)
        return status;
    }
  }
}

//===----------------------------------------------------------------------===//
// Planning.
//===----------------------------------------------------------------------===//

/// Collects candidate plans and keeps the smallest arena.
class Portfolio {
public:
  Portfolio(const Instance &instance, OffsetPlan &plan)
      : instance(instance), plan(plan) {}

  /// Records \p offsets as candidate \p name; returns its arena.
  int64_t add(const std::string &name, std::vector<int64_t> offsets) {
    int64_t arena = instance.arena(offsets);
    plan.candidates.push_back({name, arena});
    if (!hasBest || arena < bestArena) {
      hasBest = true;
      bestArena = arena;
      best = std::move(offsets);
      plan.algorithm = name;
    }
    return arena;
  }

  const Instance &instance;
  OffsetPlan &plan;
  std::vector<int64_t> best;
  int64_t bestArena = 0;
  bool hasBest = false;
};

/// Outcome of the exact search over all partitions.
struct ExactOutcome {
  std::vector<int64_t> offsets;
  int64_t arena = 0;
  /// Every partition was solved to optimality (or to the target).
  bool finished = true;
  bool improved = false;
  /// Some partition has more than kMaxExactPartitionBuffers buffers.
  bool tooLarge = false;
};

/// Minimises the arena of one partition by bisection over capacities in
/// [lowerBound, upperBound - 1], each settled by a decision search with
/// half the time left (the first probe, at the lower bound, often succeeds
/// on its own). Returns whether the result is proven optimal; `offsets`
/// receives the best plan found, if any beats upperBound.
bool minimiseArena(CanonicalSearch &search, int64_t lowerBound,
                   int64_t upperBound, Clock::time_point deadline,
                   bool hasDeadline, std::vector<int64_t> &offsets,
                   const std::vector<int64_t> &sizes) {
  int64_t lo = lowerBound, hi = upperBound - 1;
  bool proven = true, first = true;
  while (lo <= hi) {
    Clock::time_point now = Clock::now();
    if (hasDeadline && now >= deadline)
      return false;
    int64_t capacity = first ? lo : lo + (hi - lo) / 2;
    first = false;
    Clock::time_point until =
        !hasDeadline || lo == hi ? deadline : now + (deadline - now) / 2;
    CanonicalSearch::Status status =
        search.decide(capacity, until, hasDeadline);
    if (status == CanonicalSearch::Status::Found) {
      offsets = search.solution;
      int64_t arena = 0;
      for (size_t k = 0; k < offsets.size(); ++k)
        arena = std::max(arena, offsets[k] + sizes[k]);
      hi = arena - 1;
      continue;
    }
    // A probe out of time proves nothing: look higher, unproven.
    if (status != CanonicalSearch::Status::NotFound)
      proven = false;
    lo = capacity + 1;
  }
  return proven;
}

/// Improves \p start (a plan of every item) partition by partition until
/// each is optimal or the deadline passes. A partition stops as soon as it
/// is no larger than the largest arena found elsewhere or \p lowerBound,
/// since the arena is the largest over partitions anyway.
ExactOutcome searchExact(const Instance &instance,
                         const std::vector<int64_t> &start, int64_t lowerBound,
                         Clock::time_point deadline, bool hasDeadline) {
  ExactOutcome outcome;
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
        (hasDeadline && Clock::now() >= deadline)) {
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
    if (!minimiseArena(search, stopAt, heuristicArena, deadline, hasDeadline,
                       offsets, sizes))
      outcome.finished = false;
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
  return outcome;
}

/// A named heuristic of the portfolio.
struct Heuristic {
  const char *name;
  std::vector<int32_t> (*order)(const Instance &);
  Fit fit;
};

const Heuristic kBestFitBySize = {"best-fit-by-size", orderBySize, Fit::Best};
const Heuristic kBestFitByLifetime = {"best-fit-by-lifetime", orderByLifetime,
                                      Fit::Best};
const Heuristic kGreedyBySize = {"greedy-by-size", orderBySize, Fit::First};

/// Iterations of each squeaky-wheel chain in auto.
constexpr int kSqueakyWheelRounds = 64;

/// More orders auto tries after the named heuristics.
const Heuristic kExtraHeuristics[] = {
    {"best-fit-by-area", orderByArea, Fit::Best},
    {"best-fit-by-start", orderByStart, Fit::Best},
    {"first-fit-by-lifetime", orderByLifetime, Fit::First},
};

std::vector<int64_t> runHeuristic(const Instance &instance, PlacedIndex &index,
                                  const Heuristic &heuristic) {
  return placeGreedily(instance, index, heuristic.order(instance),
                       heuristic.fit);
}

/// Squeaky-wheel optimisation (Joslin and Clements, JAIR 1999) of greedy
/// placements: place in an order, find the items ending above the target
/// (the "squeaky wheels"), move them earlier in the order, place again.
/// Items placed earlier land lower, so the ones that made the arena too
/// high get first pick of the low offsets. Two ways to move them, which
/// suit different instances: halfway to the front (a gentle change that
/// keeps the rest of a good order), and all to the front.
class SqueakyWheel {
public:
  enum class Move { Halfway, ToFront };

  SqueakyWheel(const Instance &instance, PlacedIndex &index)
      : instance(instance), index(index), critical(instance.numItems()) {}

  void addChain(std::vector<int32_t> order, Fit fit, Move move) {
    chains.push_back({std::move(order), fit, move});
  }

  /// Runs the chains round-robin, \p rounds iterations each at most, until
  /// one reaches \p target or the deadline passes. Returns the arena of
  /// the best plan found (kInfinity if none ran) and keeps the plan.
  int64_t run(int64_t target, int rounds, Clock::time_point deadline,
              bool hasDeadline) {
    for (int round = 0; round < rounds; ++round) {
      for (Chain &chain : chains) {
        if (bestArena <= target || (hasDeadline && Clock::now() >= deadline))
          return bestArena;
        std::vector<int64_t> offsets =
            placeGreedily(instance, index, chain.order, chain.fit);
        int64_t arena = instance.arena(offsets);
        if (arena < bestArena) {
          bestArena = arena;
          best = offsets;
        }
        if (arena > target)
          reorder(chain, offsets, target);
      }
    }
    return bestArena;
  }

  std::vector<int64_t> best;
  int64_t bestArena = kInfinity;

private:
  struct Chain {
    std::vector<int32_t> order;
    Fit fit;
    Move move;
  };

  void reorder(Chain &chain, const std::vector<int64_t> &offsets,
               int64_t target) {
    for (int32_t i = 0; i < instance.numItems(); ++i)
      critical[i] = offsets[i] + instance.size[i] > target;
    if (chain.move == Move::ToFront) {
      std::stable_partition(chain.order.begin(), chain.order.end(),
                            [&](int32_t i) { return critical[i] != 0; });
      return;
    }
    // An item at position p moves to just before position p / 2.
    keyed.clear();
    for (size_t pos = 0; pos < chain.order.size(); ++pos) {
      int32_t i = chain.order[pos];
      keyed.push_back({critical[i] ? pos / 2.0 - 0.25 : double(pos), i});
    }
    std::stable_sort(
        keyed.begin(), keyed.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    for (size_t pos = 0; pos < keyed.size(); ++pos)
      chain.order[pos] = keyed[pos].second;
  }

  const Instance &instance;
  PlacedIndex &index;
  std::vector<Chain> chains;
  std::vector<char> critical;
  std::vector<std::pair<double, int32_t>> keyed;
};

bool validate(const std::vector<AllocationRequest> &requests, int64_t alignment,
              std::string *error) {
  if (alignment <= 0 || (alignment & (alignment - 1)) != 0) {
    setError(error, "alignment must be a positive power of two, got " +
                        std::to_string(alignment));
    return false;
  }
  if (requests.size() >
      static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    setError(error, "too many requests");
    return false;
  }
  for (size_t i = 0; i < requests.size(); ++i) {
    const AllocationRequest &r = requests[i];
    if (r.sizeBytes < 0) {
      setError(error, describe(requests, i) + " has negative size " +
                          std::to_string(r.sizeBytes));
      return false;
    }
    // Offsets and arenas are sums of sizes: keep them far from overflow.
    if (r.sizeBytes > kMaxSizeBytes) {
      setError(error, describe(requests, i) + " is too large (" +
                          std::to_string(r.sizeBytes) + " bytes; at most " +
                          std::to_string(kMaxSizeBytes) + ")");
      return false;
    }
    if (r.start > r.end) {
      setError(error, describe(requests, i) + " starts after it ends (" +
                          std::to_string(r.start) + " > " +
                          std::to_string(r.end) + ")");
      return false;
    }
  }
  return true;
}

/// Parses a whole field as a 64-bit integer.
bool parseInteger(const std::string &text, int64_t &value) {
  if (text.empty())
    return false;
  size_t pos = 0;
  bool negative = false;
  if (text[0] == '-' || text[0] == '+') {
    negative = text[0] == '-';
    pos = 1;
  }
  if (pos == text.size())
    return false;
  uint64_t magnitude = 0;
  uint64_t limit = negative ? uint64_t(1) << 63 : (uint64_t(1) << 63) - 1;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (c < '0' || c > '9')
      return false;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (limit - digit) / 10)
      return false;
    magnitude = magnitude * 10 + digit;
  }
  value = negative ? static_cast<int64_t>(0 - magnitude)
                   : static_cast<int64_t>(magnitude);
  return true;
}

std::string trim(const std::string &text) {
  size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])))
    ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])))
    --end;
  return text.substr(begin, end - begin);
}

std::vector<std::string> splitFields(const std::string &line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream stream(line);
  while (std::getline(stream, field, ','))
    fields.push_back(trim(field));
  if (!line.empty() && line.back() == ',')
    fields.push_back("");
  return fields;
}
} // namespace

//===----------------------------------------------------------------------===//
// Public API.
//===----------------------------------------------------------------------===//

const char *
mlir::memsched::scheduling::getOffsetAlgorithmName(OffsetAlgorithm algorithm) {
  return detail::nameOf(kAlgorithmNames, algorithm);
}

std::optional<OffsetAlgorithm>
mlir::memsched::scheduling::parseOffsetAlgorithm(const std::string &name) {
  return detail::parseName(kAlgorithmNames, kAliases, name);
}

std::string mlir::memsched::scheduling::getOffsetAlgorithmNames() {
  return detail::joinNames(kAlgorithmNames);
}

int64_t mlir::memsched::scheduling::computeMaxLiveBytes(
    const std::vector<AllocationRequest> &requests) {
  std::vector<AllocationRequest> valid;
  valid.reserve(requests.size());
  for (const AllocationRequest &r : requests)
    if (r.sizeBytes > 0 && r.start <= r.end)
      valid.push_back(r);
  return computeLiveStats(Instance(valid, 1)).maxLiveBytes;
}

std::optional<OffsetPlan> mlir::memsched::scheduling::planOffsets(
    const std::vector<AllocationRequest> &requests,
    const OffsetPlanOptions &options, std::string *error) {
  auto begin = Clock::now();
  if (!validate(requests, options.alignment, error))
    return std::nullopt;
  bool hasDeadline = options.timeLimitSeconds > 0;
  Clock::time_point deadline =
      begin +
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
          hasDeadline ? options.timeLimitSeconds : 0.0));

  Instance instance(requests, options.alignment);
  LiveStats stats = computeLiveStats(instance);
  OffsetPlan plan;
  plan.maxLiveBytes = stats.maxLiveBytes;
  Portfolio portfolio(instance, plan);
  auto finish = [&]() -> std::optional<OffsetPlan> {
    plan.offsets.assign(requests.size(), 0);
    for (int32_t i = 0; i < instance.numItems(); ++i)
      plan.offsets[instance.request[i]] = portfolio.best[i];
    plan.arenaBytes = portfolio.bestArena;
    if (plan.arenaBytes <= stats.alignedLowerBound)
      plan.isOptimal = true;
    plan.seconds = secondsSince(begin);
    return plan;
  };
  // Built on first use: it serves every heuristic.
  std::unique_ptr<PlacedIndex> index;
  auto run = [&](const Heuristic &heuristic) {
    if (!index)
      index = std::make_unique<PlacedIndex>(instance);
    return portfolio.add(heuristic.name,
                         runHeuristic(instance, *index, heuristic));
  };
  auto exactTooLarge = [&]() {
    return stats.peakCount > options.exactMaxBuffers;
  };

  switch (options.algorithm) {
  case OffsetAlgorithm::GreedyBySize:
    run(kGreedyBySize);
    return finish();
  case OffsetAlgorithm::BestFitBySize:
    run(kBestFitBySize);
    return finish();
  case OffsetAlgorithm::BestFitByLifetime:
    run(kBestFitByLifetime);
    return finish();
  case OffsetAlgorithm::XlaBest:
    run(kBestFitBySize);
    run(kBestFitByLifetime);
    return finish();
  case OffsetAlgorithm::Auto:
  case OffsetAlgorithm::Exact: {
    bool exact = options.algorithm == OffsetAlgorithm::Exact;
    if (exact && exactTooLarge()) {
      setError(error, "exact offset planning supports at most " +
                          std::to_string(options.exactMaxBuffers) +
                          " buffers live at the same step, but " +
                          std::to_string(stats.peakCount) +
                          " are; use 'auto' or raise the limit");
      return std::nullopt;
    }
    // Heuristics first: the exact search starts from the best of them, and
    // the search is over when one meets the lower bound.
    auto atBound = [&]() {
      return portfolio.bestArena <= stats.alignedLowerBound;
    };
    auto finishExact = [&](bool optimal) {
      std::optional<OffsetPlan> result = finish();
      if (optimal)
        result->isOptimal = true;
      if (exact)
        result->algorithm = "exact";
      return result;
    };
    for (const Heuristic *heuristic :
         {&kBestFitBySize, &kBestFitByLifetime, &kGreedyBySize}) {
      run(*heuristic);
      if (atBound())
        return finishExact(true);
    }
    if (!exact) {
      // The named heuristics always run, so auto is never worse than any;
      // the other orders only while time is left.
      for (const Heuristic &heuristic : kExtraHeuristics) {
        if (hasDeadline && Clock::now() >= deadline)
          break;
        run(heuristic);
        if (atBound())
          return finishExact(true);
      }
      // Improve the XLA orders with the squeaky wheel, leaving half of the
      // time to the exact search when it can run.
      bool exactRuns = !exactTooLarge();
      for (const std::vector<int32_t> &partition :
           splitIntoPartitions(instance))
        exactRuns &=
            static_cast<int64_t>(partition.size()) <= kMaxExactPartitionBuffers;
      Clock::time_point improveUntil =
          exactRuns ? begin + (deadline - begin) / 2 : deadline;
      SqueakyWheel wheel(instance, *index);
      for (SqueakyWheel::Move move :
           {SqueakyWheel::Move::Halfway, SqueakyWheel::Move::ToFront}) {
        wheel.addChain(orderBySize(instance), Fit::Best, move);
        wheel.addChain(orderByLifetime(instance), Fit::Best, move);
      }
      wheel.run(stats.alignedLowerBound, kSqueakyWheelRounds, improveUntil,
                hasDeadline);
      if (!wheel.best.empty())
        portfolio.add("squeaky-wheel", std::move(wheel.best));
      if (atBound())
        return finishExact(true);
      if (!exactRuns)
        return finishExact(false);
    }
    ExactOutcome outcome =
        searchExact(instance, portfolio.best, stats.alignedLowerBound, deadline,
                    hasDeadline);
    if (exact && outcome.tooLarge) {
      setError(error, "exact offset planning supports at most " +
                          std::to_string(kMaxExactPartitionBuffers) +
                          " buffers whose lifetimes chain together; use "
                          "'auto'");
      return std::nullopt;
    }
    if (exact && !outcome.finished) {
      setError(error, "exact offset planning ran out of time after " +
                          std::to_string(secondsSince(begin)) +
                          " s (best arena " + std::to_string(outcome.arena) +
                          ", lower bound " +
                          std::to_string(stats.alignedLowerBound) + ")");
      return std::nullopt;
    }
    // A search that timed out still keeps the partitions it improved.
    if (outcome.finished || outcome.improved)
      portfolio.add("exact", std::move(outcome.offsets));
    return finishExact(outcome.finished);
  }
  }
  setError(error, "unknown offset algorithm");
  return std::nullopt;
}

bool mlir::memsched::scheduling::verifyOffsets(
    const std::vector<AllocationRequest> &requests,
    const std::vector<int64_t> &offsets, int64_t alignment, std::string *why) {
  if (alignment <= 0 || (alignment & (alignment - 1)) != 0) {
    setError(why, "alignment must be a positive power of two, got " +
                      std::to_string(alignment));
    return false;
  }
  if (offsets.size() != requests.size()) {
    setError(why, "expected " + std::to_string(requests.size()) +
                      " offsets, got " + std::to_string(offsets.size()));
    return false;
  }
  std::vector<int32_t> live;
  for (size_t i = 0; i < requests.size(); ++i) {
    const AllocationRequest &r = requests[i];
    if (r.sizeBytes < 0 || r.start > r.end) {
      setError(why, describe(requests, i) + " is invalid (size " +
                        std::to_string(r.sizeBytes) + ", lifetime [" +
                        std::to_string(r.start) + ", " + std::to_string(r.end) +
                        "])");
      return false;
    }
    if (offsets[i] < 0) {
      setError(why, describe(requests, i) + " has negative offset " +
                        std::to_string(offsets[i]));
      return false;
    }
    if (offsets[i] % alignment != 0) {
      setError(why, describe(requests, i) + ": offset " +
                        std::to_string(offsets[i]) +
                        " is not a multiple of the alignment " +
                        std::to_string(alignment));
      return false;
    }
    if (offsets[i] > kInfinity - r.sizeBytes) {
      setError(why, describe(requests, i) + ": offset " +
                        std::to_string(offsets[i]) + " plus size overflows");
      return false;
    }
    if (r.sizeBytes > 0)
      live.push_back(static_cast<int32_t>(i));
  }

  // Sweep over time keeping the byte ranges of the live requests ordered by
  // offset; they are disjoint as long as no violation was found, so a new
  // range overlaps one of them exactly when it overlaps a neighbour.
  std::vector<int32_t> byStart(live), byEnd(live);
  std::sort(byStart.begin(), byStart.end(), [&](int32_t a, int32_t b) {
    return requests[a].start < requests[b].start;
  });
  std::sort(byEnd.begin(), byEnd.end(), [&](int32_t a, int32_t b) {
    return requests[a].end < requests[b].end;
  });
  std::set<std::pair<int64_t, int32_t>> active;
  auto overlap = [&](int32_t a, int32_t b, int64_t step) {
    const AllocationRequest &ra = requests[a], &rb = requests[b];
    setError(why, describe(requests, a) + " at [" + std::to_string(offsets[a]) +
                      ", " + std::to_string(offsets[a] + ra.sizeBytes) +
                      ") overlaps " + describe(requests, b) + " at [" +
                      std::to_string(offsets[b]) + ", " +
                      std::to_string(offsets[b] + rb.sizeBytes) +
                      ") while both are live at step " + std::to_string(step));
    return false;
  };
  size_t e = 0;
  for (int32_t i : byStart) {
    int64_t step = requests[i].start;
    for (; e < byEnd.size() && requests[byEnd[e]].end < step; ++e)
      active.erase({offsets[byEnd[e]], byEnd[e]});
    auto next = active.lower_bound({offsets[i], -1});
    if (next != active.end() &&
        next->first < offsets[i] + requests[i].sizeBytes)
      return overlap(i, next->second, step);
    if (next != active.begin()) {
      auto prev = std::prev(next);
      if (prev->first + requests[prev->second].sizeBytes > offsets[i])
        return overlap(i, prev->second, step);
    }
    active.insert({offsets[i], i});
  }
  return true;
}

std::optional<std::vector<AllocationRequest>>
mlir::memsched::scheduling::readAllocationCsv(std::istream &input,
                                              std::string *error) {
  std::vector<AllocationRequest> requests;
  // Column positions; a header may name them in any order and add others
  // (e.g. the offset column written by memsched-plan-offsets).
  size_t columns[4] = {0, 1, 2, 3};
  const char *const names[4] = {"id", "lower", "upper", "size"};
  bool first = true;
  std::string line;
  int64_t lineNumber = 0;
  auto fail = [&](const std::string &message) {
    setError(error, "line " + std::to_string(lineNumber) + ": " + message);
    return std::nullopt;
  };
  while (std::getline(input, line)) {
    ++lineNumber;
    line = trim(line);
    if (line.empty())
      continue;
    std::vector<std::string> fields = splitFields(line);
    int64_t ignored;
    if (first && !parseInteger(fields[0], ignored)) {
      first = false;
      for (size_t c = 0; c < 4; ++c) {
        auto it = std::find_if(
            fields.begin(), fields.end(), [&](const std::string &field) {
              std::string lower = field;
              for (char &ch : lower)
                ch = static_cast<char>(
                    std::tolower(static_cast<unsigned char>(ch)));
              return lower == names[c];
            });
        if (it == fields.end())
          return fail("the header '" + line +
                      "' must name the columns id, lower, upper and size");
        columns[c] = static_cast<size_t>(it - fields.begin());
      }
      continue;
    }
    first = false;
    size_t needed = *std::max_element(columns, columns + 4) + 1;
    if (fields.size() < needed)
      return fail("expected " + std::to_string(needed) +
                  " comma-separated fields (id,lower,upper,size), got " +
                  std::to_string(fields.size()));
    int64_t values[4];
    for (size_t c = 0; c < 4; ++c)
      if (!parseInteger(fields[columns[c]], values[c]))
        return fail("the " + std::string(names[c]) + " field '" +
                    fields[columns[c]] + "' is not an integer");
    auto [id, lower, upper, size] = values;
    if (upper <= lower)
      return fail("upper (" + std::to_string(upper) +
                  ") must be greater than lower (" + std::to_string(lower) +
                  "): the lifetime [lower, upper) is empty");
    if (size < 0)
      return fail("negative size " + std::to_string(size));
    requests.push_back({id, lower, upper - 1, size});
  }
  if (input.bad()) {
    setError(error, "could not read the input");
    return std::nullopt;
  }
  return requests;
}
