//===- Fit.cpp - memsched-fit pass ------------------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements memsched-fit, the budget step of memsched-optimize:
// the budget driver (BudgetPlanning.h) with every lever allowed, i.e.
// recomputation alone, swapping alone, and joint plans (recompute part of the
// way, swap the rest: POFO's combination). The fastest candidate whose
// footprint, measured on the rewritten function and after cleanup, fits is
// kept.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Transforms/BudgetPlanning.h"
#include "memsched/Transforms/Passes.h"

#include "llvm/ADT/ScopeExit.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDFITPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct FitPass : public memsched::impl::MemschedFitPassBase<FitPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void FitPass::runOnOperation() {
  func::FuncOp func = getOperation();
  // Host glue (memsched-exec-harness's main) is not a training step.
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  std::string error;
  std::optional<Budget> parsedBudget = parseBudget(budget, error);
  if (!parsedBudget) {
    emitError(func.getLoc()) << "memsched-fit: " << error;
    return signalPassFailure();
  }
  if (timeLimitMs < 0) {
    emitError(func.getLoc())
        << "memsched-fit: time-limit-ms must not be negative";
    return signalPassFailure();
  }
  FailureOr<DeviceSpec> spec =
      DeviceSpec::resolveOrEmitError(device, func, "memsched-fit");
  if (failed(spec))
    return signalPassFailure();
  // The device is recorded once the pass has succeeded; a failed pass leaves
  // the function as it was.
  llvm::scope_exit recordDevice([&] {
    if (!getPassState().irAndPassFailed.getInt())
      DeviceSpec::record(device, func);
  });

  BudgetPassConfig config;
  config.passName = "memsched-fit";
  config.budget = *parsedBudget;
  config.allowRemat = allowRemat;
  config.allowSwap = allowSwap;
  double seconds = static_cast<double>(timeLimitMs) / 1000.0;
  config.remat.timeLimitSeconds = seconds;
  config.swap.timeLimitSeconds = seconds;
  if (failed(runBudgetPlanning(func, CostModel(*spec), config)))
    signalPassFailure();
}
