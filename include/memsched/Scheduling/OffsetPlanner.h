//===- OffsetPlanner.h - Static offsets for buffers in one arena *- C++ -*-===//
//
// This file declares the offset planner: given buffers with fixed lifetimes
// (inclusive step ranges) and sizes, it assigns each an aligned offset in one
// arena so that no two buffers live at the same step overlap, minimising the
// arena (dynamic storage allocation). It is plain C++17, used by
// memsched-plan-buffers, by the report's arena prediction, and by the
// memsched-plan-offsets command-line tool on CSV benchmarks (which reads
// them with tools/AllocationCsv).
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_OFFSETPLANNER_H
#define MEMSCHED_SCHEDULING_OFFSETPLANNER_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// One buffer to place: live at every step in [start, end].
struct AllocationRequest {
  /// Caller's identifier (kept in order; not interpreted).
  int64_t id = 0;
  int64_t start = 0;
  int64_t end = 0;
  int64_t sizeBytes = 0;
};

/// Offset planning algorithms.
enum class OffsetAlgorithm {
  /// The best of every heuristic, then the exact search where it can run
  /// and, where that did not reach the aligned lower bound, squeaky-wheel
  /// reordering, within their work limits; stops as soon as a plan meets
  /// the bound.
  Auto,
  /// TFLite's greedy by size: largest first (ties: longer lifetime, then
  /// request order), each in the lowest gap that fits among the already
  /// placed buffers whose lifetimes intersect it (first fit, as TFLite
  /// Micro's planner; TFLite's GPU planner takes the smallest gap, which is
  /// what BestFitBySize does with the same order).
  GreedyBySize,
  /// XLA's global decreasing-size best-fit with the spatial (size) order.
  BestFitBySize,
  /// XLA's best-fit with the temporal order (longest lifetime first).
  BestFitByLifetime,
  /// The better of the two XLA orders (XLA's ChooseBestHeapAlgorithm).
  XlaBest,
  /// MiniMalloc's search over canonical solutions (each buffer at the
  /// lowest offset above the placed buffers it meets), bisecting on the
  /// arena from the aligned lower bound up to the best heuristic; proves
  /// optimality when it finishes.
  Exact,
};

/// The name users type for \p algorithm (e.g. "greedy-by-size").
const char *getOffsetAlgorithmName(OffsetAlgorithm algorithm);
/// Parses a name produced by getOffsetAlgorithmName().
std::optional<OffsetAlgorithm> parseOffsetAlgorithm(const std::string &name);
/// All names, comma-separated.
std::string getOffsetAlgorithmNames();

/// Options of planOffsets().
struct OffsetPlanOptions {
  OffsetAlgorithm algorithm = OffsetAlgorithm::Auto;
  /// Every offset is a multiple of this (a power of two, >= 1).
  int64_t alignment = 256;
  /// Work limit of Auto's squeaky-wheel improvement: buffers placed, over
  /// all its greedy placements (a placement of n buffers counts n; 256
  /// placements at most). Non-positive: no limit. The default allows every
  /// placement up to 4096 buffers, about 100 at 10^4 buffers and 10 at 10^5,
  /// which on the offset benchmark keeps the arenas a one-second wall-clock
  /// limit gave.
  int64_t improveMaxPlacements = int64_t(1) << 20;
  /// Work limit of the exact search of Auto and Exact: search nodes, over
  /// all partitions and bisection probes. Auto keeps the best plan found
  /// within it; Exact fails when the search has not finished. Non-positive:
  /// no limit. A node costs from tens of nanoseconds to a few microseconds
  /// depending on the partition; the default stays under about half a
  /// second on the offset benchmark and matches the arenas a one-second
  /// wall-clock limit gave there. Auto spends at most 2^24 / n of them on
  /// n buffers (at least 4096): a node's cost grows with the buffers.
  int64_t exactMaxNodes = 100'000;
  /// An optional wall-clock limit of Auto and Exact, in seconds, on top of
  /// the work limits. Non-positive (the default): none, so that the plan
  /// depends only on the requests and the options, never on the machine
  /// or its load. Auto always runs its heuristics, then improves and
  /// searches until a limit is reached or the plan is proven optimal.
  double timeLimitSeconds = 0.0;
  /// Auto runs the exact search only with at most this many buffers live
  /// together at the peak; Exact fails above it. (Either also skips, or
  /// fails on, a group of more than 4096 buffers whose lifetimes chain
  /// together.)
  int64_t exactMaxBuffers = 4096;
  /// Whether a plan made before in this process for the same requests (up
  /// to the numbering of their steps and their order) and options may be
  /// returned instead of planning again. Without a wall-clock limit the
  /// plan is the same either way; what the planner's time is measured on
  /// turns it off.
  bool reusePlans = true;
};

/// A plan.
struct OffsetPlan {
  /// Offset of each request, in request order.
  std::vector<int64_t> offsets;
  /// max over requests of offset + size.
  int64_t arenaBytes = 0;
  /// max over steps of the bytes live at that step (sizes not rounded): no
  /// plan can use less.
  int64_t maxLiveBytes = 0;
  /// The algorithm whose plan was kept.
  std::string algorithm;
  /// Whether arenaBytes is proven minimal (exact search finished, or the
  /// arena equals the aligned lower bound: max over steps of the live
  /// buffers' sizes rounded up to the alignment, but for the largest
  /// rounding, which the topmost buffer does not need).
  bool isOptimal = false;
  /// Arena of every algorithm tried, by name.
  std::vector<std::pair<std::string, int64_t>> candidates;
  /// Buffers placed by the squeaky-wheel improvement (see
  /// OffsetPlanOptions::improveMaxPlacements).
  int64_t improvePlacements = 0;
  /// Nodes visited by the exact search (see
  /// OffsetPlanOptions::exactMaxNodes).
  int64_t exactNodes = 0;
  double seconds = 0.0;
  /// arenaBytes / maxLiveBytes (1 when nothing is live).
  double fragmentation() const {
    return maxLiveBytes == 0 ? 1.0
                             : static_cast<double>(arenaBytes) /
                                   static_cast<double>(maxLiveBytes);
  }
};

/// Plans offsets. Fails, explaining in \p error, on negative sizes (or
/// sizes above 2^48), start > end, an alignment that is not a positive power
/// of two, or Exact above its limits (buffers, search nodes or time). With
/// the default (work) limits the plan is deterministic. Zero-size requests get
/// offset 0 and conflict with nothing.
std::optional<OffsetPlan> planOffsets(const std::vector<AllocationRequest> &,
                                      const OffsetPlanOptions &options,
                                      std::string *error = nullptr);

/// Checks a plan: every offset aligned and non-negative, and no two
/// requests whose lifetimes intersect overlap in [offset, offset + size).
/// Explains the first violation in \p why. O(n log n).
bool verifyOffsets(const std::vector<AllocationRequest> &requests,
                   const std::vector<int64_t> &offsets, int64_t alignment,
                   std::string *why = nullptr);

/// max over steps of the bytes live at that step.
int64_t computeMaxLiveBytes(const std::vector<AllocationRequest> &requests);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_OFFSETPLANNER_H
