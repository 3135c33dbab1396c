//===- OffsetGreedy.cpp - Greedy offset placements -----------------------===//
//
// This file implements the greedy placements of the offset planner: the
// index of placed lifetimes, placement in a given order with first or best
// fit (TFLite's greedy by size, XLA's best fit), the orders the portfolio
// tries, and their squeaky-wheel improvement.
//
// A greedy placement costs O(n log n + sum of h log h) for h placed buffers
// meeting each one in time.
//
//===----------------------------------------------------------------------===//

#include "OffsetInstance.h"

#include <algorithm>
#include <numeric>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail::offsets;

//===----------------------------------------------------------------------===//
// PlacedIndex
//===----------------------------------------------------------------------===//

PlacedIndex::PlacedIndex(const Instance &instance)
    : numRanks(instance.numRanks) {
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
    c.maxLength =
        std::max(c.maxLength, instance.endRank[i] - instance.startRank[i] + 1);
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

void PlacedIndex::reset() {
  for (Class &c : classes)
    std::fill(c.offset.begin(), c.offset.end(), -1);
  longLived.clear();
}

void PlacedIndex::place(int32_t item, int64_t offset, int64_t top) {
  auto [c, pos] = slot[item];
  Class &cls = classes[c];
  cls.offset[pos] = offset;
  cls.top[pos] = top;
  if (cls.byOffset) {
    Placed placed = {offset, top, cls.start[pos], cls.end[pos]};
    longLived.insert(std::upper_bound(longLived.begin(), longLived.end(),
                                      placed,
                                      [](const Placed &a, const Placed &b) {
                                        return a.offset < b.offset;
                                      }),
                     placed);
  }
}

void PlacedIndex::collect(int32_t start, int32_t end, std::vector<Range> &out) {
  out.clear();
  shortLived.clear();
  // Sorted by offset (ties in placement order, which the gap search does
  // not depend on).
  for (const Placed &p : longLived)
    if (p.end >= start && p.start <= end)
      out.push_back({p.offset, p.top});
  for (const Class &c : classes) {
    if (c.byOffset)
      continue;
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

//===----------------------------------------------------------------------===//
// Placement and orders
//===----------------------------------------------------------------------===//

std::vector<int64_t>
detail::offsets::placeGreedily(const Instance &instance, PlacedIndex &index,
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
static std::vector<int32_t> sortedItems(const Instance &instance, Less less) {
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

std::vector<int32_t> detail::offsets::orderBySize(const Instance &instance) {
  return sortedItems(instance, [&](int32_t a, int32_t b) {
    if (instance.size[a] != instance.size[b])
      return instance.size[a] > instance.size[b];
    return instance.length(a) > instance.length(b);
  });
}

/// Lifetime length descending, then size (XLA's temporal order).
std::vector<int32_t>
detail::offsets::orderByLifetime(const Instance &instance) {
  return sortedItems(instance, [&](int32_t a, int32_t b) {
    if (instance.length(a) != instance.length(b))
      return instance.length(a) > instance.length(b);
    return instance.size[a] > instance.size[b];
  });
}

/// Area (size x lifetime) descending: big long-lived buffers first.
std::vector<int32_t> detail::offsets::orderByArea(const Instance &instance) {
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
std::vector<int32_t> detail::offsets::orderByStart(const Instance &instance) {
  return sortedItems(instance, [&](int32_t a, int32_t b) {
    if (instance.start[a] != instance.start[b])
      return instance.start[a] < instance.start[b];
    return instance.size[a] > instance.size[b];
  });
}

//===----------------------------------------------------------------------===//
// SqueakyWheel
//===----------------------------------------------------------------------===//

int64_t SqueakyWheel::run(int64_t target, int rounds, int64_t maxPlacements,
                          const Deadline &deadline) {
  int64_t n = instance.numItems();
  for (int round = 0; round < rounds; ++round) {
    for (Chain &chain : chains) {
      if (bestArena <= target ||
          (maxPlacements > 0 && placements + n > maxPlacements) ||
          deadline.expired())
        return bestArena;
      placements += n;
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

void SqueakyWheel::reorder(Chain &chain, const std::vector<int64_t> &offsets,
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
