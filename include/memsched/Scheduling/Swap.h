//===- Swap.h - Swap (offload) plans for general problems -------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the planner memsched-swap uses to move activations to
// host memory and back on the two-stream time model of TimeModel.h. A swap
// copies one value out right after the op that defines it (the copy runs on
// the device-to-host engine while compute goes on), frees the value's device
// buffer once the last reader before a gap in its uses has run and the copy
// has ended, and copies it back on the host-to-device engine, issued after a
// chosen "prefetch" task, before the first reader after the gap. Where the
// reads after the gap have gaps of their own, the copy brought back may be
// freed across one and the value brought back again from the same host copy
// (a refetch).
//
// Device memory is counted per step, conservatively in time: a swapped-out
// buffer is held through every step that starts (or follows an idle gap
// that starts) before its copy ends; a swapped-in buffer is held from the
// first step that ends after its copy starts. A swap may also stall
// compute: a chosen task waits for the copy out to end, and the buffer is
// free from that task on (vDNN's synchronisation, placed by cost); the
// value's last reader before the gap may so wait and then write its result
// over the value in place (SwapDecision::writeOver). The same rule decides
// simulateIssuedSwaps() on a problem whose swaps are tasks (the graph of a
// function that has memsched.swap_out/swap_in ops), and the planner's own
// evaluation never reports less than that simulation of the plan applied.
//
// Algorithms:
//  - `planned`: at the peak step, swap the live buffer whose copies hide best
//    behind compute (least estimated exposed copy time, stalls included, per
//    byte freed; the largest buffer among those that hide completely),
//    prefetched just in time, or make an earlier swap's copy out release
//    its buffer at the peak by stalling for it, or bring a swapped value
//    back once more; re-simulate; repeat until the budget holds. Then drop
//    swaps and refetches the budget does not need, move stalls later and
//    prefetches that stall compute earlier while the budget allows. Runs in
//    three nested plan spaces, then the largest with writes over swapped
//    values, and keeps the best plan (docs/swap.md).
//  - `size-idle`: the greedy rule of TFLMS/Capuchin-style planners: rank the
//    candidates by bytes times idle time and swap in that order until the
//    budget holds, prefetched just in time.
//  - `everything`: vDNN: swap every candidate idle across the peak step
//    (what the forward pass keeps for the backward pass), compute waiting
//    for each copy out right after the buffer's last early use, each
//    prefetched one task before its first late reader; ignores the budget.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_SWAP_H
#define MEMSCHED_SCHEDULING_SWAP_H

#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/Problem.h"
#include "memsched/Scheduling/TimeModel.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// How the swap planner chooses what to offload.
enum class SwapAlgorithm { Planned, SizeIdle, Everything };

/// Parses `planned`, `size-idle` or `everything`.
std::optional<SwapAlgorithm> parseSwapAlgorithm(const std::string &name);
/// The accepted algorithm names, comma-separated.
const char *getSwapAlgorithmNames();
/// The name of \p algorithm.
const char *getSwapAlgorithmName(SwapAlgorithm algorithm);

/// A further copy of a swapped value brought back from the same host copy,
/// across a later gap in the reads of the copy brought back before it: that
/// copy is freed after lastUseBefore, and a new one, issued when
/// prefetchAfter ends, serves the reads from firstUse on.
struct SwapRefetch {
  /// The last task reading the previous copy.
  TaskId lastUseBefore = kNoId;
  /// The copy in is issued when this task ends (lastUseBefore or a task
  /// between lastUseBefore and firstUse).
  TaskId prefetchAfter = kNoId;
  /// The first task reading this copy; it waits for the copy in.
  TaskId firstUse = kNoId;
};

/// One value moved to host memory across a gap in its buffer's uses.
struct SwapDecision {
  /// The buffer freed during the gap.
  BufferId buffer = kNoId;
  /// The value copied out and back; every read after the gap reads it or
  /// a view of it (Value::viewOf), which then reads a view of the copy.
  ValueId value = kNoId;
  /// The swap-out is issued when this task (the value's definer) ends.
  TaskId issueAfter = kNoId;
  /// The last task using the buffer before the gap.
  TaskId lastEarlyUse = kNoId;
  /// The swap-in is issued when this task ends; it is lastEarlyUse or a
  /// task between lastEarlyUse and firstLateUse.
  TaskId prefetchAfter = kNoId;
  /// The first task reading the value after the gap; it waits for the
  /// swap-in.
  TaskId firstLateUse = kNoId;
  /// The last task reading the value.
  TaskId lastLateUse = kNoId;
  /// kNoId, or a planned stall: this task (after lastEarlyUse, at or before
  /// prefetchAfter) does not start before the swap-out has ended, and the
  /// device buffer is free from it on. Without one the buffer is free only
  /// from the first task that starts after the copy out has ended. With
  /// writeOver, lastEarlyUse itself.
  TaskId releaseBefore = kNoId;
  /// kNoId, or a write over the value: lastEarlyUse, waiting for the copy
  /// out (releaseBefore == lastEarlyUse), writes this result of its own
  /// into the swapped buffer through one of its Task::inPlaceWrites (an
  /// input that is the value or a view of it), so that the result's own
  /// buffer, as large and first used there, is never allocated. The reads
  /// after the gap read the copy, so nothing reads the value there again.
  ValueId writeOver = kNoId;
  /// Further copies brought back, in order: each splits the reads from
  /// firstLateUse on at a later gap (firstLateUse <= lastUseBefore of the
  /// first, firstUse of each <= lastUseBefore of the next, firstUse of the
  /// last <= lastLateUse). One copy out serves them all.
  std::vector<SwapRefetch> refetches;
};

/// Options of planSwap().
struct SwapOptions {
  SwapAlgorithm algorithm = SwapAlgorithm::Planned;
  /// Bound on the peak of live transient bytes (resident excluded); ignored
  /// by `everything`.
  int64_t budgetTransientBytes = 0;
  /// Host link bandwidths and copy latency.
  LinkSpec link;
  /// Buffers smaller than this are never swapped.
  int64_t minBytes = 0;
  /// By ValueId, whether the value may be swapped (the caller's types may
  /// have no host form); empty means every value may.
  std::vector<bool> swappable;
  /// Work limit of the refinement of `planned`: plan evaluations (full
  /// re-simulations) of the whole call, the peak-directed phase included;
  /// once reached, the refinement stops with the plan so far. <= 0 means
  /// none.
  int64_t maxEvaluations = 1024;
  /// Whether `planned` may make compute wait for a swap-out (releaseBefore)
  /// where no copy could end in time otherwise; `everything` always stalls
  /// as vDNN does, `size-idle` never does.
  bool allowStalls = true;
  /// An optional wall-clock limit of the refinement, in seconds, on top of
  /// maxEvaluations; <= 0 (the default) means none, so that the plan
  /// depends only on the problem, the order and the options.
  double timeLimitSeconds = 0.0;
  /// Whether the budget counts escaping buffers (values the function
  /// returns) from the first step, as the footprint does (see
  /// countEscapingFromStart()).
  bool escapingWhole = false;
};

/// The modelled effect of a set of swaps in a fixed order.
struct SwapEvaluation {
  /// Transient bytes live per step (workspace included) with the swaps.
  std::vector<int64_t> liveBytes;
  int64_t peakTransientBytes = 0;
  int32_t peakStep = -1;
  /// Sum of the task durations.
  double computeSeconds = 0;
  /// End of the last task or copy.
  double makespanSeconds = 0;
  /// Sum of the copy durations, both directions.
  double transferSeconds = 0;
  /// Bytes copied, both directions.
  int64_t swapBytes = 0;
  /// Per swap: whether compute waits for its swap-in.
  std::vector<bool> stalls;
  /// Per swap and refetch: whether compute waits for that copy in.
  std::vector<std::vector<bool>> refetchStalls;
  /// Per swap: when its copy out ends.
  std::vector<double> outEnds;
  /// Per position of the order: when its task starts.
  std::vector<double> startAt;
  /// makespan - compute: copy time compute waited for (or that trails it).
  double exposedSeconds() const { return makespanSeconds - computeSeconds; }
  /// Share of the transfer time that is hidden behind compute; 1 when
  /// nothing is transferred.
  double hiddenFraction() const;
};

/// A swap plan and its modelled effect.
struct SwapPlan {
  std::vector<SwapDecision> swaps;
  /// The order the plan is for, and its figures without and with swaps.
  SwapEvaluation before;
  SwapEvaluation after;
  /// Whether after.peakTransientBytes is within the budget.
  bool withinBudget = false;
  /// The smallest peak the planner reached (the smallest budget it can meet
  /// when withinBudget is false).
  int64_t smallestPeakTransient = 0;
  /// Number of candidate values (with a gap in their buffer's uses).
  int64_t numCandidates = 0;
  /// Number of plan evaluations (full re-simulations) made.
  int64_t numEvaluations = 0;
  std::string algorithm;
  double solveSeconds = 0;
};

/// The value \p value is a view of (through Value::viewOf), or \p value.
ValueId getViewRoot(const Problem &problem, ValueId value);

/// The input of \p swap's write over its value (SwapDecision::writeOver):
/// the input of lastEarlyUse's in-place write of that result that is the
/// swapped value or a view of it; kNoId if there is none.
ValueId getWriteOverInput(const Problem &problem, const SwapDecision &swap);

/// The candidates in \p order: per transient, non-escaping buffer of at
/// least \p minBytes whose uses end with reads of one value, the swap across
/// its longest (by compute time) gap among those reads, prefetched right
/// before the first late reader.
std::vector<SwapDecision> findSwapCandidates(const Problem &problem,
                                             const std::vector<TaskId> &order,
                                             int64_t minBytes);

/// Evaluates \p swaps in \p order; std::nullopt with \p error if a decision
/// does not fit the problem (ids, positions) or the link is invalid.
std::optional<SwapEvaluation>
evaluateSwaps(const Problem &problem, const std::vector<TaskId> &order,
              const std::vector<SwapDecision> &swaps, const LinkSpec &link,
              std::string *error = nullptr);

/// The copies of \p swaps in \p order for simulateTime(): the swap-out of
/// decision i at index i, its swap-in at swaps.size() + i, then the copies
/// in of every refetch, decision by decision. A swap-in issued where compute
/// stalls for swap-outs (right before their release task) is issued after
/// the stall.
std::vector<CopyTask> makeSwapCopies(const Problem &problem,
                                     const std::vector<TaskId> &order,
                                     const std::vector<SwapDecision> &swaps);

/// Plans swaps for \p problem in \p order. Returns a plan even when the
/// budget cannot be met; std::nullopt with \p error for invalid input.
std::optional<SwapPlan> planSwap(const Problem &problem,
                                 const std::vector<TaskId> &order,
                                 const SwapOptions &options,
                                 std::string *error = nullptr);

/// The exact optimum over every subset of the first \p maxCandidates
/// candidates, every prefetch position of each, every set of refetches
/// across later gaps of its reads (each at every prefetch position) and,
/// with options.allowStalls, every stall position (or none): the least
/// makespan
/// within the budget, then the fewest bytes. For tests and benchmarks on
/// small problems; the work is exponential.
std::optional<SwapPlan> planSwapExhaustive(const Problem &problem,
                                           const std::vector<TaskId> &order,
                                           const SwapOptions &options,
                                           size_t maxCandidates = 8,
                                           std::string *error = nullptr);

/// A swap-out that is a task of the problem (a memsched.swap_out op).
struct IssuedSwapOut {
  /// The zero-duration task issuing the copy.
  TaskId task = kNoId;
  /// The device buffer read; held until the copy ends.
  BufferId buffer = kNoId;
  /// Bytes copied.
  int64_t bytes = 0;
  /// kNoId, or the zero-duration task (a memsched.swap_wait) before which
  /// compute waits for the copy; the buffer is free after it.
  TaskId release = kNoId;
};

/// A swap-in that is a task of the problem (a memsched.swap_in op).
struct IssuedSwapIn {
  /// The zero-duration task issuing the copy; it produces the new buffer.
  TaskId task = kNoId;
  /// Index of the swap-out whose host copy it reads.
  int32_t swapOut = -1;
  /// The first task reading the result, or kNoId.
  TaskId neededBy = kNoId;
  /// Bytes copied.
  int64_t bytes = 0;
};

/// Memory and time of a problem whose swaps are tasks.
struct IssuedSwapProfile {
  /// The step profile with every swapped-out buffer held until its copy
  /// ends (lifetimes extended to match).
  MemoryProfile profile;
  Timeline timeline;
  double transferSeconds = 0;
  int64_t swapBytes = 0;
  double hiddenFraction() const;
};

/// Simulates \p order with the copies of \p outs and \p ins.
std::optional<IssuedSwapProfile>
simulateIssuedSwaps(const Problem &problem, const std::vector<TaskId> &order,
                    const std::vector<IssuedSwapOut> &outs,
                    const std::vector<IssuedSwapIn> &ins, const LinkSpec &link,
                    std::string *error = nullptr);

/// \p problem with \p swaps applied as tasks, as memsched-swap rewrites a
/// function: a zero-duration swap-out task right after issueAfter, a
/// zero-duration wait task right before releaseBefore (if set), a swap-in
/// task right after prefetchAfter producing a new buffer, every late read
/// of the value redirected to it, and the values of a write over the value
/// moved into the swapped buffer.
struct AppliedSwaps {
  Problem problem;
  std::vector<TaskId> order;
  std::vector<IssuedSwapOut> outs;
  std::vector<IssuedSwapIn> ins;
};
std::optional<AppliedSwaps> applySwaps(const Problem &problem,
                                       const std::vector<TaskId> &order,
                                       const std::vector<SwapDecision> &swaps,
                                       std::string *error = nullptr);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_SWAP_H
