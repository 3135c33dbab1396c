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

#include "mlir/IR/Diagnostics.h"
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

private:
  /// Plans `func` as it is and with `offload`'s state in host memory, and
  /// keeps the better outcome.
  LogicalResult fitWithOrWithoutOffload(func::FuncOp func,
                                        const CostModel &costModel,
                                        const BudgetPassConfig &config);
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
  CostModel costModel(*spec);
  if (!reorder.empty() && !scheduling::parseReorderAlgorithm(reorder)) {
    emitError(func.getLoc())
        << "memsched-fit: unknown reorder algorithm '" << reorder
        << "'; expected one of: " << scheduling::getReorderAlgorithmNames();
    return signalPassFailure();
  }
  if (offload.empty()) {
    if (failed(runBudgetPlanning(func, costModel, config)))
      signalPassFailure();
    return;
  }
  if (failed(fitWithOrWithoutOffload(func, costModel, config)))
    signalPassFailure();
}

/// One way of planning `func`, on a copy: the outcome, and the diagnostics
/// it gave, held back until the better way is known.
struct PlannedCopy {
  func::FuncOp copy;
  BudgetPlanningOutcome outcome;
  bool succeeded = false;
  std::vector<Diagnostic> diagnostics;
  ~PlannedCopy() {
    if (copy)
      copy.erase();
  }
  void emitDiagnostics(MLIRContext *context) {
    ThreadDiagnostics::emit(context, diagnostics);
  }
};

LogicalResult FitPass::fitWithOrWithoutOffload(func::FuncOp func,
                                               const CostModel &costModel,
                                               const BudgetPassConfig &config) {
  MLIRContext *context = func.getContext();
  PlannedCopy without, with;
  without.copy = func.clone();
  with.copy = func.clone();
  {
    // An offload the function refuses (no parameters, ...) is an error of
    // the option, whatever the plan without it would give.
    ThreadDiagnostics hold(context, &with.diagnostics);
    if (failed(applyResidentOffload(with.copy, offload, costModel))) {
      with.emitDiagnostics(context);
      return failure();
    }
  }
  // Each way is planned in an order made for it: without its resident
  // state the best order differs (on ResNet-34 at ResNet-18's memory, 1.08x
  // the step time against 1.27x in the order made for the input). With
  // `reorder=`, both copies are reordered from the input's order (what
  // offloading then reordering gives); without it, an order
  // memsched-reorder made for the function is made again for the offloaded
  // copy only.
  auto reorderCopy = [&](func::FuncOp copy, StringRef name) {
    std::optional<scheduling::ReorderAlgorithm> algorithm =
        scheduling::parseReorderAlgorithm(name.str());
    if (!algorithm)
      return;
    // A copy that cannot be reordered is planned in the order it has; why
    // is of no use to the user.
    ThreadDiagnostics drop(context, nullptr);
    scheduling::ReorderOptions options;
    options.algorithm = *algorithm;
    (void)applyReorder(copy, costModel, name, options);
  };
  if (!reorder.empty()) {
    reorderCopy(without.copy, reorder);
    reorderCopy(with.copy, reorder);
  } else if (auto recorded =
                 func->getAttrOfType<DictionaryAttr>(kReorderAttrName)) {
    if (auto name = recorded.getAs<StringAttr>("algorithm"))
      reorderCopy(with.copy, name.getValue());
  }
  for (PlannedCopy *planned : {&without, &with}) {
    ThreadDiagnostics hold(context, &planned->diagnostics);
    planned->succeeded = succeeded(
        runBudgetPlanning(planned->copy, costModel, config, &planned->outcome));
  }
  bool takeOffload =
      with.outcome.decided &&
      (!without.outcome.decided ||
       isBetterBudgetOutcome(with.outcome.result, without.outcome.result,
                             config.budget.isMinimum));
  PlannedCopy &chosen = takeOffload ? with : without;
  chosen.emitDiagnostics(context);
  if (!chosen.succeeded)
    return failure();
  // The chosen copy becomes the function: body, argument and result
  // attributes (the calling convention), and the planners' dictionaries.
  func.getBody().takeBody(chosen.copy.getBody());
  func->setAttrs(chosen.copy->getAttrDictionary());
  if (auto fit = func->getAttrOfType<DictionaryAttr>(kFitAttrName)) {
    NamedAttrList entries(fit);
    entries.set("offload", BoolAttr::get(context, takeOffload));
    func->setAttr(kFitAttrName, entries.getDictionary(context));
  }
  return success();
}
