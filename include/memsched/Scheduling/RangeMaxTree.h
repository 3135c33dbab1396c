//===- RangeMaxTree.h - Range additions and maxima --------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_RANGEMAXTREE_H
#define MEMSCHED_SCHEDULING_RANGEMAXTREE_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// Values over positions 0..n-1 (an arena's sections, a task order's steps)
/// with range additions and range maxima in O(log n), and a walk over the
/// values above a threshold: a segment tree with lazy additions.
class RangeMaxTree {
public:
  explicit RangeMaxTree(const std::vector<int64_t> &values) {
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
  /// Calls \p fn(position, value) for the values in [lo, hi) above
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

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_RANGEMAXTREE_H
