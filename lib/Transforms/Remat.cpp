//===- Remat.cpp - memsched-remat pass --------------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the rematerialization pass: the budget driver with
// recomputation as its only lever (BudgetPlanning.h). The plans come from
// lib/Scheduling (planRemat on the function's planning graph); clones of
// the recomputed tasks are marked so that CSE cannot merge them back.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Transforms/BudgetPlanning.h"
#include "memsched/Transforms/Passes.h"

#include "llvm/ADT/ScopeExit.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDREMATPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

namespace {
struct RematPass : public memsched::impl::MemschedRematPassBase<RematPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void RematPass::runOnOperation() {
  func::FuncOp func = getOperation();
  // Host glue (memsched-exec-harness's main) is not a training step.
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  std::optional<Budget> parsedBudget =
      parseBudgetOrEmitError(budget, func, "memsched-remat");
  if (!parsedBudget)
    return signalPassFailure();
  if (timeLimitMs < 0 || segments < 0 || ilpMaxTasks < 0 ||
      localSearchWork < 0 || rotorMaxStages < 0 ||
      rotorMaxStages > scheduling::kMaxRotorStages) {
    emitError(func.getLoc())
        << "memsched-remat: time-limit-ms, segments, ilp-max-tasks and "
           "local-search-work must not be negative, and rotor-max-stages "
           "must be in [0, "
        << scheduling::kMaxRotorStages << "]";
    return signalPassFailure();
  }
  FailureOr<DeviceSpec> spec =
      DeviceSpec::resolveOrEmitError(device, func, "memsched-remat");
  if (failed(spec))
    return signalPassFailure();
  // The device is recorded once the pass has succeeded; a failed pass leaves
  // the function as it was.
  llvm::scope_exit recordDevice([&] {
    if (!getPassState().irAndPassFailed.getInt())
      DeviceSpec::record(device, func);
  });

  BudgetPassConfig config;
  config.passName = "memsched-remat";
  config.budget = *parsedBudget;
  config.allowSwap = false;
  config.remat.algorithm = algorithm;
  config.remat.segments = segments;
  config.remat.singleRecompute = recomputeOnce;
  config.remat.timeLimitSeconds = static_cast<double>(timeLimitMs) / 1000.0;
  config.remat.ilpMaxTasks = ilpMaxTasks;
  config.remat.rotorMaxStages = static_cast<int32_t>(rotorMaxStages);
  config.remat.localSearchWork = localSearchWork;
  config.reorderAfterRemat = reorderAfter;
  if (failed(runBudgetPlanning(func, CostModel(*spec), config)))
    signalPassFailure();
}
