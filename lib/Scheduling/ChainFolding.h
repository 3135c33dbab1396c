//===- ChainFolding.h - Exact merging of tasks that can run together -*- C++
//-*-//
//
// This file declares a reduction of a scheduling problem that keeps its
// minimum peak: a task is merged with its only predecessor (or its only
// successor) when moving it next to that task can never raise any step's
// live bytes. Imported graphs are mostly such chains (a convolution, its
// normalisation and activation, the fill of an output), so the exact search
// sees a few times fewer tasks.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_SCHEDULING_CHAINFOLDING_H
#define MEMSCHED_LIB_SCHEDULING_CHAINFOLDING_H

#include "memsched/Scheduling/Problem.h"

#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {
namespace detail {

/// A problem whose tasks are groups of the original tasks that some optimal
/// order runs back to back. Every order of `problem` unfolds to an order of
/// the original problem with the same peak, and the original problem has an
/// optimal order that folds to an order of `problem` with the same peak, so
/// both have the same minimum peak.
///
/// A task v joins its only predecessor u (v runs right after u) when
///   - every transient buffer v touches is internal (used only by u and v,
///     not escaping), produced by v (every other user is a successor of v),
///     or also used by u;
///   - v produces at most as many bytes as its internal buffers free, so
///     moving v earlier never raises the live bytes of the tasks it passes;
///   - v's outputs and workspace fit in u's workspace plus what u surely
///     frees, so v's step stays below u's.
/// A task u joins its only successor v (u runs right before v) in the mirror
/// case: u never frees more than it allocates, whether u frees a buffer does
/// not depend on the order, and u's step stays below v's.
/// Fences are never merged.
struct FoldedProblem {
  Problem problem;
  /// The original tasks of each folded task, in the order they run.
  std::vector<std::vector<TaskId>> members;
  /// Whether any tasks were merged.
  bool isFolded() const;
};

/// Folds a verified problem until no rule applies. Runs in time linear in
/// the problem's size times the largest number of users per buffer (buffers
/// with more than a fixed number of users are never classified).
FoldedProblem foldChains(const Problem &problem);

/// foldChains() plus an approximate rule: a task u also joins its only
/// successor v when users of u's buffers may run before or after u, as long
/// as what u may free exceeds what it surely allocates by at most the
/// fraction `excess` (> 0; small: an elementwise op reading a shared scale
/// or an input other tasks read too; 1: also the adds of a sum, which free
/// two operands). The merged step covers both steps at their worst. The
/// result's minimum peak may differ from the original's; its orders are
/// candidates to be evaluated on the original problem, not proofs.
FoldedProblem coarsenChains(const Problem &problem, double excess);

/// Maps an order of the folded problem to an order of the original one with
/// the same peak.
std::vector<TaskId> unfoldOrder(const FoldedProblem &folded,
                                const std::vector<TaskId> &order);

/// Maps a topological order of the original problem to one of the folded
/// problem: groups in the order of their first members, repaired to respect
/// the folded dependences. The peak may differ from the original order's.
std::vector<TaskId> foldOrder(const FoldedProblem &folded,
                              const std::vector<TaskId> &order);

} // namespace detail
} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_LIB_SCHEDULING_CHAINFOLDING_H
