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
/// stages are merged beyond that). The forward part ends
/// where the live bytes in program order peak; a stage ends where one value
/// (its output x^l) is the only one the rest of the forward part reads from
/// it; a backward task belongs to the earliest stage whose saved values it
/// reads (one later for a stage's output read alone, but, with
/// \p lastReaderOwnsOutput, for the output's last reader), never later than
/// the task before it. std::nullopt, with the reason, when fewer than two
/// stages are found.
std::optional<TaskChain> findTaskChain(const Problem &problem,
                                       int32_t maxStages,
                                       std::string *reason = nullptr,
                                       bool lastReaderOwnsOutput = true);

/// The cheapest plan found by solving Rotor's program on findTaskChain's
/// chains (both readings of \p lastReaderOwnsOutput) with \p memorySlots
/// slots, a few times, the memory limit corrected
/// by each plan's simulated transient peak against \p budget. std::nullopt
/// when the problem is not a chain or no plan within the budget is found;
/// plan fields as in planRemat, `algorithm` "rotor". \p escapingWhole as in
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
