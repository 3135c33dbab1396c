//===- RematIlp.h - Checkmate's ILP as a plan of memsched-remat -*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// `auto`'s exact phase on small problems. The drop-set searches recompute a
// buffer only in the gaps of its uses; Checkmate's schedule space recomputes
// any value at any stage, as often as it pays. Where a problem has one node
// per task (no transient buffer is written by two tasks), it is read as a
// RematGraph, the ILP is solved under the budget
// with a work limit, and its run sequence becomes clone runs and redirected
// reads that planRemat checks by re-simulation like any other plan.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_SCHEDULING_REMATILP_H
#define MEMSCHED_LIB_SCHEDULING_REMATILP_H

#include "memsched/Scheduling/Remat.h"
#include "memsched/Scheduling/RematGraph.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {
namespace detail {

/// The node graph of \p problem: node i is task i (tasks in program order by
/// id), sized by the transient buffers it defines; side-effecting tasks and
/// tasks writing resident state are never recomputed (keepToEnd, size 0).
/// std::nullopt, with the reason in \p reason, when the problem is not of
/// that shape.
std::optional<RematGraph> getTaskGraph(const Problem &problem,
                                       std::string *reason = nullptr);

/// The clone runs and redirected reads that run \p sequence, a run sequence
/// of getTaskGraph(problem) whose first runs of the nodes come in id order:
/// every later run is a clone inserted before the next first run, and every
/// read uses the latest run of the value's node. std::nullopt where a clone
/// would read an original value a later in-place write into its buffer has
/// overwritten by then. Only `clones`, `redirects`, `droppedBuffers` and
/// `recomputeSeconds` are set.
std::optional<RematPlan> getPlanOfSequence(const Problem &problem,
                                           const std::vector<NodeId> &sequence,
                                           std::string *error = nullptr);

/// Simulates \p plan on \p problem and sets its peakTransientAfter,
/// withinBudget (against \p budget) and smallestPeakTransient; with
/// \p escapingWhole escaping buffers count from the first step. False when
/// the plan does not expand or simulate.
bool measurePlan(const Problem &problem, RematPlan &plan, int64_t budget,
                 bool escapingWhole);

/// The cheapest plan of Checkmate's schedule space the ILP finds within
/// \p maxNodes branch-and-bound nodes and \p timeLimitSeconds (<= 0: none)
/// per solve whose simulated transient peak is at
/// most \p budget (the ILP does not see task workspaces: it is re-solved
/// under a budget lowered by the excess, a few times). std::nullopt when the
/// problem has no node graph or no such plan is found; plan fields as in
/// planRemat, `algorithm` "ilp". \p start, when given, is a plan the solve
/// starts from where it lies in the schedule space and fits. With
/// \p escapingWhole the peak counts escaping buffers from the first step
/// (RematOptions::escapingWhole), which the ILP does not see either: the
/// same re-solves under a lowered budget cover it.
std::optional<RematPlan> planRematByIlp(const Problem &problem, int64_t budget,
                                        int64_t maxNodes,
                                        double timeLimitSeconds,
                                        const RematPlan *start = nullptr,
                                        bool escapingWhole = false);

} // namespace detail
} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_LIB_SCHEDULING_REMATILP_H
