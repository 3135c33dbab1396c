//===- RematRotor.h - Rotor's chain program as a plan of memsched-remat -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// `auto`'s chain phase. The drop-set searches do not find the nested
// segments that are optimal on chains (Revolve's binomial nesting, Rotor's
// persistent schedules). Where a problem's task graph reads as a chain of
// stages (a forward part that single values cut into stages, and a backward
// part that visits the stages in reverse), Rotor's dynamic program plans the
// chain, its schedule becomes clone runs inserted before each stage's
// backward tasks, and planRemat checks the plan by re-simulation like any
// other. The chain's sizes and times are read off the tasks; where they
// misjudge the problem's memory (values outside the chain, workspaces), the
// program is solved again under a corrected limit.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_SCHEDULING_REMATROTOR_H
#define MEMSCHED_LIB_SCHEDULING_REMATROTOR_H

#include "memsched/Scheduling/ChainRemat.h"
#include "memsched/Scheduling/Remat.h"
#include "memsched/Scheduling/RematGraph.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {
namespace detail {

/// A problem read as a chain: Rotor's model and, per stage l (index l - 1),
/// the tasks its forward operations run again.
struct TaskChain {
  Chain chain;
  /// F0_l and Fck_l: the stage's tasks x^l depends on, in program order.
  std::vector<std::vector<TaskId>> outputTasks;
  /// Fall_l: the stage's tasks x^l and the values its backward reads depend
  /// on, in program order.
  std::vector<std::vector<TaskId>> savedTasks;
  /// The first task of the backward part that belongs to stage l or an
  /// earlier one (numTasks if none): recomputation for B_l runs before it.
  std::vector<TaskId> backwardStart;
};

/// Reads \p problem as a chain of at most \p maxStages stages (adjacent
/// stages are merged beyond that). A stage ends where one value (its output
/// x^l) is the only one the rest of the forward part reads from it; the
/// forward part's end is chosen where the backward tasks read the stages in
/// reverse best (docs/remat.md). A backward task belongs to the earliest
/// stage whose saved values it reads, never later than the task before it;
/// one that reads only a stage's output belongs to the next stage, except
/// that output's last reader, which belongs to the stage itself (first
/// reading) or also to the next (second reading, returned only where it
/// differs). Empty, with the reason, when fewer than two stages are found.
std::vector<TaskChain> findTaskChains(const Problem &problem, int32_t maxStages,
                                      std::string *reason = nullptr);

/// The cheapest plan found by solving Rotor's program on findTaskChains'
/// readings with \p memorySlots slots, a few times, the memory limit corrected
/// by each plan's simulated transient peak against \p budget. Where none is
/// within the budget, the plan of the smallest simulated peak among the
/// program's schedules under its least limits (withinBudget false unless
/// that peak is within it; the same plan whatever the budget). std::nullopt
/// when the problem is not a chain or the program finds no schedule; plan
/// fields as in planRemat, `algorithm` "rotor". \p escapingWhole as in
/// RematOptions.
std::optional<RematPlan> planRematByRotor(const Problem &problem,
                                          int64_t budget, int32_t maxStages,
                                          int64_t memorySlots,
                                          bool escapingWhole = false);

} // namespace detail
} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_LIB_SCHEDULING_REMATROTOR_H
