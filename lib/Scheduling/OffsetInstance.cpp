//===- OffsetInstance.cpp - The instance offsets are planned on ----------===//
//
// This file builds the offset planner's instance (lifetimes compressed to
// ranks with one radix sort) and computes its live statistics and its
// partitions into groups of overlapping lifetimes.
//
//===----------------------------------------------------------------------===//

#include "OffsetInstance.h"

#include <algorithm>
#include <numeric>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail::offsets;

/// Sorts (key, value) pairs by key, 11 bits per pass, as many passes as
/// the largest key needs.
static void radixSort(std::vector<std::pair<uint64_t, int32_t>> &items) {
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

Instance::Instance(const std::vector<AllocationRequest> &requests,
                   int64_t alignment)
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

LiveStats detail::offsets::computeLiveStats(const Instance &instance,
                                            const std::vector<int32_t> *items) {
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

std::vector<std::vector<int32_t>>
detail::offsets::splitIntoPartitions(const Instance &instance) {
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
