//===- Remat.h - Rematerialization plans for general problems ---*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the rematerialization planner memsched-remat uses on a
// whole Problem (buffers, aliases, in-place chains, views). A plan drops
// buffers: a dropped buffer is freed after the last reader before the
// largest gap in its uses, and the ops that define its values are cloned
// right before the first reader after the gap, which reads the copy. Clones
// read the copies of other dropped buffers when those are dropped by then,
// so a chain of dropped activations is recomputed segment-wise from the
// nearest kept ones (Chen et al.'s segments, found on a DAG).
//
// Which buffers to drop is chosen by one of:
//  - `greedy`: at the peak step, drop the buffers live across it with the
//    least recompute time per byte they free (FLOP-aware, unlike XLA's
//    memory-only cost), re-simulate, repeat; then un-drop what the budget
//    does not need, most expensive first. It walks a fixed ladder of
//    budgets (k/20 of the peak without recomputation), warm-starting each
//    rung from the one above, and keeps the cheapest plan of any rung within
//    the budget: for budgets on the ladder the recompute time never drops as
//    the budget shrinks, and the smallest peak reported is the lowest any
//    rung reached;
//  - `chen`: Chen et al.'s segments: checkpoints among the candidates the
//    forward passes along (those another candidate's recomputation reads),
//    placed by Chen's memory-threshold rule, everything else before the last
//    checkpoint dropped; the segment count is searched from sqrt(n) out;
//  - `sequential`: PyTorch's checkpoint_sequential split (equal segments by
//    count along the same path, the last one not recomputed);
//  - `auto`: the cheapest of greedy and chen that meets the budget, of
//    every drop set where the plan space is small enough to search whole,
//    of Rotor's dynamic program where the problem reads as a chain of
//    stages (RematRotor.h), and, optionally, on small problems without
//    in-place chains, of Checkmate's ILP, whose schedule space recomputes
//    any value at any point (RematIlp.h).
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_REMAT_H
#define MEMSCHED_SCHEDULING_REMAT_H

#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/Problem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// The largest RematOptions::rotorMaxStages: the program's table grows with
/// the square of the stages times the slots.
constexpr int32_t kMaxRotorStages = 256;

/// How memsched-remat chooses the buffers to recompute.
enum class RematAlgorithm { Auto, Greedy, Chen, Sequential };

/// Parses `auto`, `greedy`, `chen` or `sequential`.
std::optional<RematAlgorithm> parseRematAlgorithm(const std::string &name);
/// The accepted algorithm names, comma-separated.
const char *getRematAlgorithmNames();
/// The name of \p algorithm.
const char *getRematAlgorithmName(RematAlgorithm algorithm);

/// Options of planRemat().
struct RematOptions {
  RematAlgorithm algorithm = RematAlgorithm::Auto;
  /// The bound on the peak of live transient bytes (resident excluded).
  int64_t budgetTransientBytes = 0;
  /// Work limit of every search phase (the greedy's drop and un-drop
  /// phases, the segment searches): plan evaluations (full re-simulations)
  /// of the whole call; once reached, the best plan found so far is
  /// returned. <= 0 means none. The plans of the benchmarks' training steps (up
  /// to 11k tasks, an evaluation costing about 25 ms there) need at most 170.
  int64_t maxEvaluations = 256;
  /// The same limit in simulated tasks, since an evaluation costs time
  /// linear in the tasks: above maxEvaluationWork / maxEvaluations tasks
  /// (8192 by default; the benchmark's 11k-task steps then get 190, more
  /// than they use) the
  /// limit falls to maxEvaluationWork / tasks, but not under 16
  /// evaluations, so that the search's cost stops growing with the problem
  /// (the zoo's lstm step, 24.6k tasks: 85 evaluations). <= 0 means none.
  int64_t maxEvaluationWork = int64_t(1) << 21;
  /// An optional wall-clock limit of the same searches, in seconds, on top
  /// of maxEvaluations; <= 0 (the default) means none, so that the plan
  /// depends only on the problem and the options.
  double timeLimitSeconds = 0.0;
  /// The earlier, smaller plan space, kept for comparison: one recompute
  /// per value (only the largest gap in a buffer's uses), its copy made at
  /// the first late reader, and an input read only where it is used at that
  /// reader or later. By default a value may be dropped in every gap of its
  /// uses, and a copy may be made earlier, right after an input's last use.
  bool singleRecompute = false;
  /// Whether the budget counts escaping buffers (values the function
  /// returns) from the first step, as the footprint does (see
  /// countEscapingFromStart()).
  bool escapingWhole = false;
  /// `auto` searches the whole plan space when it is small: every drop set
  /// (each gap of a buffer not dropped, or dropped with one of its copy
  /// placements), when their number times the tasks is at most this many
  /// task simulations; 0 turns the phase off.
  int64_t exhaustiveWork = 50'000;
  /// `auto` also solves Checkmate's ILP (with CBC) on problems of at most
  /// this many tasks where no transient buffer is written by two tasks, and
  /// adds its plan as a candidate; 0 (the default) turns the phase off: the
  /// solve takes up to seconds, and the budget driver plans a function many
  /// times.
  int64_t ilpMaxTasks = 0;
  /// Work limit of that solve: CBC branch-and-bound nodes; the best plan
  /// found within it is a candidate.
  int64_t ilpMaxNodes = 2000;
  /// Wall-clock limit of each solve, in seconds; <= 0 means none. Unlike the
  /// other phases, on by default: CBC's root alone takes up to 20 s on some
  /// 24-task DAGs, whatever the node limit. Where it binds, the ILP's
  /// candidate (and so auto's plan) can differ between runs.
  double ilpTimeLimitSeconds = 2.0;
  /// `auto` also reads the problem as a chain of at most this many stages
  /// (adjacent ones merged beyond it) and adds the plan of Rotor's dynamic
  /// program on that chain as a candidate (RematRotor.h); 0 turns the
  /// phase off. Its time grows with the cube of the stages.
  int32_t rotorMaxStages = 128;
  /// Memory slots of that program at the budget (its time grows linearly
  /// with them).
  int64_t rotorMemorySlots = 500;
  /// Work limit of the local search that ends `greedy` and `auto`, in task
  /// simulations (plan evaluations times tasks; at most one evaluation per
  /// 50): the default keeps a budget driver's many plans fast; raising it
  /// buys cheaper plans on DAGs of hundreds of tasks (MOCCASIN's random
  /// layered graphs: 20 times as much gives 4.85% extra time instead of
  /// 5.51% at 0.8x on 250 nodes, in 3 s instead of 0.2 s). 0 turns it off.
  int64_t localSearchWork = 200'000;
  /// Where a plan misses the budget, move the clones that run at its peak
  /// to run up to 16 tasks earlier when that lowers the peak (same
  /// recomputation, so the same time): a copy made right before its reader
  /// is otherwise live with what the tasks just before the reader made
  /// (resnet50 at `min`: 680.6 -> 643.9 MiB).
  bool hoistClones = true;
  /// Segment count of `chen` and `sequential`; 0 means round(sqrt(n)) for
  /// `sequential` and a search over counts for `chen`.
  int64_t segments = 0;
};

/// One cloned op run.
struct RematClone {
  /// The task whose op is cloned.
  TaskId task = kNoId;
  /// The clone runs right before this task; clones with the same
  /// insertion point run in the order of the clone list.
  TaskId insertBefore = kNoId;
};

/// A read that uses a recomputed copy instead of the original value.
struct RematRedirect {
  /// The reader: a task id, or numTasks + index into the clone list.
  int32_t reader = kNoId;
  /// The original value read.
  ValueId value = kNoId;
  /// Index into the clone list of the run that produces the copy.
  int32_t clone = kNoId;
};

/// A rematerialization decision and its modelled effect.
struct RematPlan {
  /// Clone runs in execution order.
  std::vector<RematClone> clones;
  /// Reads redirected to copies.
  std::vector<RematRedirect> redirects;
  /// The buffers dropped (freed early and recomputed).
  std::vector<BufferId> droppedBuffers;
  /// Peak transient bytes in the input order without recomputation.
  int64_t peakTransientBefore = 0;
  /// Peak transient bytes of the plan.
  int64_t peakTransientAfter = 0;
  /// Sum of the durations of the clone runs, in seconds.
  double recomputeSeconds = 0;
  /// Whether peakTransientAfter is within the budget.
  bool withinBudget = false;
  /// The smallest peak the chosen algorithm reached; when the budget is not
  /// met, the smallest budget it can meet.
  int64_t smallestPeakTransient = 0;
  /// The algorithm whose plan this is (auto names the winner).
  std::string algorithm;
  /// Buffers that would be candidates but are defined by a side-effecting
  /// (fence) task; the first such task, or kNoId.
  TaskId firstImpureDefiner = kNoId;
  /// Number of candidate buffers (recomputable, with a gap in their uses).
  int64_t numCandidates = 0;
  /// Number of plan evaluations (full re-simulations) made.
  int64_t numEvaluations = 0;
  /// Wall-clock time of planRemat, in seconds.
  double solveSeconds = 0;
};

/// Plans recomputation for \p problem in program order. Returns a plan even
/// when the budget cannot be met (withinBudget false, smallestPeakTransient
/// set); std::nullopt with \p error only for invalid problems or options.
std::optional<RematPlan> planRemat(const Problem &problem,
                                   const RematOptions &options,
                                   std::string *error = nullptr);

/// The problem a plan yields: the input tasks plus one task per clone run,
/// one new buffer per copy (and per unread extra result of a clone), reads
/// redirected. `order` runs every clone right before its insertion point.
struct RematExpansion {
  Problem problem;
  std::vector<TaskId> order;
  /// For each task of `problem`: the input task it runs (a clone's
  /// original).
  std::vector<TaskId> originOf;
  /// For each input task: its id in `problem`.
  std::vector<TaskId> idOfInputTask;
};

/// Applies \p plan to \p problem; std::nullopt with \p error if the plan does
/// not fit the problem. \p outOfOrder, when given, is set when the reason is
/// that a clone would read a value before it is computed (a drop set the
/// planners must reject, not an internal error).
std::optional<RematExpansion> expandRematPlan(const Problem &problem,
                                              const RematPlan &plan,
                                              std::string *error = nullptr,
                                              bool *outOfOrder = nullptr);

/// The memory profile of \p expansion as the recomputation planners measure
/// plans: with the in-place writes memsched-inplace makes on the rewritten
/// function (applyInPlaceWrites, which moves values of
/// `expansion.problem`), escaping buffers counted from the first step where
/// \p escapingWhole (countEscapingFromStart). \p expansion is as
/// expandRematPlan made it, which checked its order; std::nullopt with
/// \p error where its references are invalid.
std::optional<MemoryProfile>
simulateRematExpansion(RematExpansion &expansion, bool escapingWhole,
                       std::string *error = nullptr);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_REMAT_H
