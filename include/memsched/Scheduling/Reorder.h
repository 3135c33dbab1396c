//===- Reorder.h - Topological orders that minimise peak memory -*- C++ -*-===//
//
// This file declares the memory-aware schedulers: the tree algorithms of Liu,
// the heuristics production compilers use (XLA's and Inductor's), an exact
// search over down-sets, a windowed exact improvement for large graphs, and
// `auto`, which combines them. Every scheduler returns a topological order of
// all tasks of a Problem; peaks are measured with simulateMemory().
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_REORDER_H
#define MEMSCHED_SCHEDULING_REORDER_H

#include "memsched/Scheduling/Problem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

//===----------------------------------------------------------------------===//
// Baseline heuristics. Each runs in O((tasks + uses + edges) log tasks) and
// accepts any valid problem; ties are broken by program order.
//===----------------------------------------------------------------------===//

/// Plain post-order DFS from the sinks, predecessors in program order (XLA's
/// PostOrderScheduler).
std::vector<TaskId> schedulePostorder(const Problem &problem);

/// XLA's ListMemoryScheduler: among ready tasks, pick the one maximising
/// (bytes freed - bytes newly allocated, number of successors).
std::vector<TaskId> scheduleXlaList(const Problem &problem);

/// XLA's DFSMemoryScheduler: post-order DFS from the sinks, visiting
/// predecessors by decreasing transitive extra users, then decreasing
/// transitive bytes.
std::vector<TaskId> scheduleXlaDfs(const Problem &problem);

/// Inductor's least-peak-memory-first sort: among ready tasks, pick the one
/// minimising (max(live + allocated + workspace, peak so far), allocated -
/// freed, program index).
std::vector<TaskId> scheduleInductorLpmf(const Problem &problem);

/// Inductor's BFS sort: ready tasks by the sorted (latest first) positions of
/// their predecessors, lexicographically smallest first.
std::vector<TaskId> scheduleInductorBfs(const Problem &problem);

/// Inductor's DFS sort: DFS over all tasks in ascending order of the bytes
/// they touch, predecessors first, also in ascending order of bytes.
std::vector<TaskId> scheduleInductorDfs(const Problem &problem);

//===----------------------------------------------------------------------===//
// Trees.
//===----------------------------------------------------------------------===//

/// The shape of a problem in the tree model of Liu: each transient buffer is
/// used by one task, or by a task and its unique successor (in-tree) or
/// predecessor (out-tree), and only the root's buffers may be live to the end.
enum class TreeKind { NotATree, InTree, OutTree };

/// Classifies \p problem. A forest counts as a tree (a virtual root joins the
/// roots). Out-trees may not have buffers live to the end.
TreeKind classifyTree(const Problem &problem);

/// Liu's optimal traversal (1987; hill-valley segments), exact for in- and
/// out-trees. Returns std::nullopt if the problem is not a tree.
std::optional<std::vector<TaskId>> scheduleLiuOptimal(const Problem &problem);

/// Liu's best post-order (1986): subtrees in non-increasing order of peak
/// minus residual. Returns std::nullopt if the problem is not a tree.
std::optional<std::vector<TaskId>> scheduleLiuPostorder(const Problem &problem);

//===----------------------------------------------------------------------===//
// Exact search.
//===----------------------------------------------------------------------===//

/// Limits of the exact search.
struct ExactOptions {
  /// Work limit: the search gives up after visiting this many down-sets,
  /// over all parts.
  int64_t maxStates = 2'000'000;
  /// An optional wall-clock limit in seconds on top of maxStates; <= 0 (the
  /// default) means none, so that the result depends only on the problem
  /// and the options.
  double timeLimitSeconds = 0.0;
  /// A known order (e.g. a heuristic's); the search only looks for strictly
  /// better ones and returns this one, proven optimal, if there is none.
  std::optional<std::vector<TaskId>> upperBoundOrder;
  /// Width of the beam search run on each part before the exact search (0:
  /// none). Its partial orders count towards maxStates.
  int64_t beamWidth = 64;
  /// > 0: search a coarsened problem instead (detail::coarsenChains with
  /// this excess: elementwise tasks merged into their consumer even where
  /// that may cost a little): fewer tasks, so larger graphs finish, but the
  /// order is only a candidate: never reported optimal, and no lower bound.
  double coarsenExcess = 0.0;
};

/// Outcome of the exact search.
struct ExactResult {
  /// Whether the returned order is proven optimal.
  bool isOptimal = false;
  /// Why the search stopped early (state or time limit); empty if optimal.
  std::string limitReason;
  /// The best order found: optimal if isOptimal, otherwise never worse than
  /// the upper bound order if one was given, or than the better of XLA's
  /// list and Inductor's LPMF heuristics.
  std::vector<TaskId> order;
  /// Peak transient bytes of `order`.
  int64_t peakTransientBytes = 0;
  /// A proven lower bound on the minimum peak: the peak itself if optimal,
  /// otherwise the largest of the order-independent bound and what the
  /// searches left open on each part.
  int64_t lowerBoundTransientBytes = 0;
  /// Down-sets visited.
  int64_t statesVisited = 0;
};

/// Minimises peak transient bytes exactly: free sources are removed and
/// chains folded (both keep the minimum), the problem is split at cut tasks
/// (tasks ordered with respect to every other task), which is exact in this
/// memory model, and each part is solved by a beam search followed by a
/// best-first search over down-sets with bottleneck costs and admissible
/// bounds. Within its limits it returns the best order found and a lower
/// bound.
ExactResult solveExact(const Problem &problem, const ExactOptions &options);

//===----------------------------------------------------------------------===//
// Improvement of a given order.
//===----------------------------------------------------------------------===//

/// Limits of the windowed search.
struct WindowSearchOptions {
  /// Number of consecutive positions re-optimised exactly at a time; grows by
  /// 4 up to maxWindow when a window size stops helping.
  int window = 12;
  int maxWindow = 24;
  /// Down-sets visited per window before it is abandoned.
  int64_t maxStatesPerWindow = 200'000;
  /// Work limit: down-sets visited over all windows, after which the search
  /// stops with the best order so far; <= 0 means none.
  int64_t maxStates = 4'000'000;
  /// An optional wall-clock limit in seconds on top of maxStates; <= 0 (the
  /// default) means none.
  double timeLimitSeconds = 0.0;
};

/// Lowers the peak of \p order by re-ordering, exactly, windows of
/// consecutive positions around the peak steps; the tasks outside a window
/// keep their positions, so only steps inside it change. Never returns a
/// worse order. Adds the down-sets visited to \p statesVisited if given.
std::vector<TaskId> improveByWindows(const Problem &problem,
                                     std::vector<TaskId> order,
                                     const WindowSearchOptions &options,
                                     int64_t *statesVisited = nullptr);

struct HoistSearchOptions {
  /// Positions before a task among which its ancestors are moved, and the
  /// range that holds them (at most kMaxLocalTasks).
  int reach = 256;
  /// Tasks tried per peak step: the one at the step and those right after.
  int targets = 4;
  /// Peak steps tried per round, and rounds (one move each).
  int peakSteps = 4;
  int maxRounds = 32;
  /// Work limit: tasks and buffers simulated over all trials.
  int64_t maxWork = 64'000'000;
};

/// Lowers the peak of \p order by moving a task at or just after a peak
/// step, with its ancestors among the reach positions before it, to the
/// earlier position where the steps in between peak lowest (HoistSearch.cpp).
/// Never returns a worse order.
std::vector<TaskId> improveByHoisting(const Problem &problem,
                                      std::vector<TaskId> order,
                                      const HoistSearchOptions &options = {});

//===----------------------------------------------------------------------===//
// The user-facing entry point.
//===----------------------------------------------------------------------===//

/// Algorithms users can ask for by name.
enum class ReorderAlgorithm {
  /// Exact if small, Liu on trees, otherwise the best of every candidate
  /// plus windowed search; never worse than program order.
  Auto,
  Program,
  Exact,
  Liu,
  LiuPostorder,
  Postorder,
  XlaList,
  XlaDfs,
  InductorLpmf,
  InductorBfs,
  InductorDfs,
  /// XLA's DefaultMemoryScheduler: the best of list, DFS and post-order.
  XlaBest,
  /// Inductor's reorder_for_peak_memory: the best of LPMF, BFS, DFS and the
  /// program order.
  InductorBest,
};

/// The name users type for \p algorithm (e.g. "xla-list").
const char *getReorderAlgorithmName(ReorderAlgorithm algorithm);
/// Parses a name produced by getReorderAlgorithmName().
std::optional<ReorderAlgorithm> parseReorderAlgorithm(const std::string &name);
/// All names, comma-separated, for diagnostics and help texts.
std::string getReorderAlgorithmNames();

/// What a reorder minimises.
enum class ReorderObjective {
  /// The peak of live transient bytes (GUIDE §3).
  Peak,
  /// The arena's live peak, so the planned bytes (Footprint): buffers that
  /// escape are allocated whole apart whatever the order, so they count
  /// from the start. A training step's gradients fill the end of the
  /// backward pass, where the transient peak then is; the arena's peak may
  /// be anywhere.
  Planned,
};

/// Options of reorder().
struct ReorderOptions {
  ReorderAlgorithm algorithm = ReorderAlgorithm::Auto;
  /// Peak figures of the result (ReorderResult, CandidateResult) are of this
  /// objective: with Planned, live transient bytes less those that escape.
  ReorderObjective objective = ReorderObjective::Peak;
  /// An optional wall-clock limit of `auto` and `exact`, in seconds, on top
  /// of the work limits below; <= 0 (the default) means none, so that the
  /// order depends only on the problem and the options, not on the machine
  /// or its load.
  double timeLimitSeconds = 0.0;
  /// `auto` runs the part search (beam, then exact) only when every part
  /// between cut tasks has at most this many tasks after free sources are
  /// removed and chains folded; `exact` fails above it. At most 512.
  int64_t exactMaxTasks = 512;
  /// Work limit of the part search: partial orders created by the beams
  /// (at most half) and down-sets visited by the exact search, over all
  /// parts; `exact` fails when the search has not finished within it. On
  /// the RandWire benchmark (parts of 150-320 tasks) 10^6 states take
  /// about 2 seconds.
  int64_t exactMaxStates = 1'000'000;
  /// Work limit of `auto`'s windowed search: down-sets visited, over all
  /// windows (WindowSearchOptions::maxStates). Every window search of the
  /// reorder benchmark ends before it (the largest visits 0.6M); each
  /// round also re-simulates the order, so on 10^5 tasks the search takes
  /// about a second.
  int64_t windowMaxStates = 4'000'000;
  /// Whether the peak counts the in-place writes the order allows
  /// (Task::inPlaceWrites): a task that reads the last use of a buffer and
  /// writes a new one of its size holds one buffer for both, as
  /// memsched-inplace rewrites it after the order. For an order taken with
  /// its in-place writes; off, the peak is that of the order as it is. With
  /// it, the exact part search is not run and no order is called optimal.
  bool modelInPlaceWrites = false;
};

/// Peak of one candidate order that reorder() evaluated.
struct CandidateResult {
  std::string algorithm;
  int64_t peakTransientBytes = 0;
  double seconds = 0.0;
};

/// Result of reorder().
struct ReorderResult {
  std::vector<TaskId> order;
  /// The algorithm whose order was kept.
  std::string chosenAlgorithm;
  int64_t peakTransientBytes = 0;
  int64_t programPeakTransientBytes = 0;
  /// computeLowerBoundTransientBytes() of the problem.
  int64_t lowerBoundTransientBytes = 0;
  /// Whether `order` is proven optimal (exact search or Liu on a tree).
  bool isOptimal = false;
  /// Down-sets visited by the exact and windowed searches (see the work
  /// limits of ReorderOptions).
  int64_t statesVisited = 0;
  /// Every candidate evaluated, in evaluation order.
  std::vector<CandidateResult> candidates;
  double seconds = 0.0;
};

/// Computes an order with \p options.algorithm. Fails, explaining in
/// \p error, if the problem is invalid, if `liu`/`liu-postorder` is asked for
/// on a non-tree, or if `exact` is asked for above exactMaxTasks or cannot
/// finish within its limits.
std::optional<ReorderResult> reorder(const Problem &problem,
                                     const ReorderOptions &options,
                                     std::string *error = nullptr);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_REORDER_H
