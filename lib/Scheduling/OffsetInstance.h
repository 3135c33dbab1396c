//===- OffsetInstance.h - The offset planner's internals --------*- C++ -*-===//
//
// This file declares what the parts of the offset planner share: the
// instance they work on (requests of nonzero size with aligned sizes and
// lifetimes compressed to ranks) and its live statistics, the greedy
// placements and their squeaky-wheel improvement (OffsetGreedy.cpp), and the
// exact search over canonical solutions (OffsetExact.cpp). OffsetPlanner.cpp
// combines them into the portfolio behind planOffsets().
//
// Every planner works on aligned sizes: with offsets that are multiples of
// the alignment, a buffer of size s blocks the aligned slots up to
// alignUp(offset + s), so placed buffers occupy [offset, offset + padded)
// and the arena is max(offset + size) with the real size.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_SCHEDULING_OFFSETINSTANCE_H
#define MEMSCHED_LIB_SCHEDULING_OFFSETINSTANCE_H

#include "Deadline.h"
#include "memsched/Scheduling/OffsetPlanner.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {
namespace detail {
namespace offsets {

constexpr int64_t kInfinity = std::numeric_limits<int64_t>::max();
constexpr int64_t kNoEnd = std::numeric_limits<int64_t>::min();

inline int64_t alignUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

//===----------------------------------------------------------------------===//
// The instance.
//===----------------------------------------------------------------------===//

/// The requests of nonzero size (zero-size ones never conflict and get
/// offset 0), with their aligned sizes and their lifetimes compressed to
/// ranks (the positions of their starts and ends among all starts and ends,
/// which keeps every intersection), so time-indexed arrays stay O(n).
struct Instance {
  /// Index of each item's request.
  std::vector<int32_t> request;
  std::vector<int64_t> start, end, size, padded;
  std::vector<int32_t> startRank, endRank;
  int32_t numRanks = 0;
  int64_t alignment = 1;

  /// Builds the instance of \p requests, which must be valid.
  Instance(const std::vector<AllocationRequest> &requests, int64_t alignment);

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
                           const std::vector<int32_t> *items = nullptr);

/// Splits the items into groups of overlapping lifetimes: no lifetime
/// crosses the boundary between two groups, so each can be planned alone
/// and the arena is the largest of theirs.
std::vector<std::vector<int32_t>> splitIntoPartitions(const Instance &instance);

//===----------------------------------------------------------------------===//
// Greedy placement in a given order (TFLite and XLA), OffsetGreedy.cpp.
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

  explicit PlacedIndex(const Instance &instance);

  /// Forgets every placement.
  void reset();

  /// Records that \p item occupies [offset, top).
  void place(int32_t item, int64_t offset, int64_t top);

  /// Sets \p out to the byte ranges of the placed items live at some rank
  /// of [start, end], sorted.
  void collect(int32_t start, int32_t end, std::vector<Range> &out);

private:
  struct Placed {
    int64_t offset, top;
    int32_t start, end;
  };
  struct Class {
    int id = 0;
    int32_t maxLength = 1;
    /// Whether placed items are kept in `longLived` (the class's lifetimes
    /// span a quarter of the ranks or more: most of them meet any query).
    bool byOffset = false;
    std::vector<int32_t> start, end;
    std::vector<int64_t> offset, top;
    /// Position of the first item starting at or after b * 2^id.
    std::vector<int32_t> bucketStart;
  };
  int32_t numRanks;
  std::vector<Class> classes;
  /// The placed items of every byOffset class, sorted by offset: one list,
  /// so that a query's ranges come out sorted without a merge per class.
  std::vector<Placed> longLived;
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
                                   const std::vector<int32_t> &order, Fit fit);

/// Size descending, then longer lifetime (XLA's spatial order; TFLite's
/// greedy by size sorts the same way).
std::vector<int32_t> orderBySize(const Instance &instance);
/// Lifetime length descending, then size (XLA's temporal order).
std::vector<int32_t> orderByLifetime(const Instance &instance);
/// Area (size x lifetime) descending: big long-lived buffers first.
std::vector<int32_t> orderByArea(const Instance &instance);
/// Start time, then size descending (the program order IREE packs in).
std::vector<int32_t> orderByStart(const Instance &instance);

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

  /// Adds a chain that starts from \p order.
  void addChain(std::vector<int32_t> order, Fit fit, Move move) {
    chains.push_back({std::move(order), fit, move});
  }

  /// Runs the chains round-robin, \p rounds iterations each at most, until
  /// one reaches \p target, the next placement would take the buffers
  /// placed past \p maxPlacements (non-positive: no limit), or the
  /// deadline passes. Returns the arena of the best plan found (kInfinity if
  /// none ran) and keeps the plan.
  int64_t run(int64_t target, int rounds, int64_t maxPlacements,
              const Deadline &deadline);

  /// The best plan found and its arena.
  std::vector<int64_t> best;
  int64_t bestArena = kInfinity;
  /// Buffers placed so far, over all placements.
  int64_t placements = 0;

private:
  struct Chain {
    std::vector<int32_t> order;
    Fit fit;
    Move move;
  };

  void reorder(Chain &chain, const std::vector<int64_t> &offsets,
               int64_t target);

  const Instance &instance;
  PlacedIndex &index;
  std::vector<Chain> chains;
  std::vector<char> critical;
  std::vector<std::pair<double, int32_t>> keyed;
};

//===----------------------------------------------------------------------===//
// Exact search over canonical solutions, OffsetExact.cpp.
//===----------------------------------------------------------------------===//

/// The most buffers a partition may have for the exact search: its depth-
/// first search keeps an ordering per level, O(n^2) memory on deep paths.
constexpr int32_t kMaxExactPartitionBuffers = 4096;

/// Outcome of the exact search over all partitions.
struct ExactOutcome {
  std::vector<int64_t> offsets;
  int64_t arena = 0;
  /// Every partition was solved to optimality (or to the target).
  bool finished = true;
  bool improved = false;
  /// Some partition has more than kMaxExactPartitionBuffers buffers.
  bool tooLarge = false;
  /// The search stopped on the deadline (rather than on its node limit).
  bool timedOut = false;
  /// Search nodes visited.
  int64_t nodes = 0;
};

/// Improves \p start (a plan of every item) partition by partition until
/// each is optimal, \p maxNodes search nodes are spent (non-positive: no
/// limit), or the deadline passes. A partition stops as soon as it is no
/// larger than the largest arena found elsewhere or \p lowerBound, since
/// the arena is the largest over partitions anyway.
ExactOutcome searchExact(const Instance &instance,
                         const std::vector<int64_t> &start, int64_t lowerBound,
                         int64_t maxNodes, const Deadline &deadline);

} // namespace offsets
} // namespace detail
} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_LIB_SCHEDULING_OFFSETINSTANCE_H
