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

#include <thread>

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
  /// Plans copies of `func`: as it is and reordered with `reorder`'s
  /// algorithm, and with `offload`'s state in host memory; keeps the best
  /// outcome.
  LogicalResult fitEachWay(func::FuncOp func, const CostModel &costModel,
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
  if (timeLimitMs < 0 || ilpMaxTasks < 0) {
    emitError(func.getLoc())
        << "memsched-fit: time-limit-ms and ilp-max-tasks must not be "
           "negative";
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
  config.remat.ilpMaxTasks = ilpMaxTasks;
  config.swap.timeLimitSeconds = seconds;
  CostModel costModel(*spec);
  if (!reorder.empty() && !scheduling::parseReorderAlgorithm(reorder)) {
    emitError(func.getLoc())
        << "memsched-fit: unknown reorder algorithm '" << reorder
        << "'; expected one of: " << scheduling::getReorderAlgorithmNames();
    return signalPassFailure();
  }
  if (offload.empty() && reorder.empty()) {
    if (failed(runBudgetPlanning(func, costModel, config)))
      signalPassFailure();
    return;
  }
  if (failed(fitEachWay(func, costModel, config)))
    signalPassFailure();
}

/// One way of planning `func`, on a copy: the outcome, and the diagnostics
/// it gave, held back until the best way is known.
struct PlannedCopy {
  func::FuncOp copy;
  bool offloaded = false;
  bool reordered = false;
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

/// Every op of `func`, nested ones included, in order.
static SmallVector<Operation *> getOpSequence(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) { ops.push_back(op); });
  return ops;
}

LogicalResult FitPass::fitEachWay(func::FuncOp func, const CostModel &costModel,
                                  const BudgetPassConfig &config) {
  MLIRContext *context = func.getContext();
  std::vector<std::unique_ptr<PlannedCopy>> ways;
  auto addWay = [&](bool offloaded) -> PlannedCopy & {
    ways.push_back(std::make_unique<PlannedCopy>());
    ways.back()->copy = func.clone();
    ways.back()->offloaded = offloaded;
    return *ways.back();
  };
  // Reorders `way`'s copy with memsched-reorder's algorithm `name` and
  // records whether any op moved.
  auto reorderCopy = [&](PlannedCopy &way, StringRef name) {
    std::optional<scheduling::ReorderAlgorithm> algorithm =
        scheduling::parseReorderAlgorithm(name.str());
    if (!algorithm)
      return;
    // A copy that cannot be reordered is planned in the order it has; why
    // is of no use to the user.
    ThreadDiagnostics drop(context, nullptr);
    scheduling::ReorderOptions options;
    options.algorithm = *algorithm;
    SmallVector<Operation *> before = getOpSequence(way.copy);
    (void)applyReorder(way.copy, costModel, name, options);
    way.reordered = getOpSequence(way.copy) != before;
  };
  // The order with the smallest peak is not always the best one to plan:
  // recomputation may reach less from the input's order (a GPT step whose
  // gradients are accumulated: 7.51 GiB at min reordered, 5.49 GiB as
  // given). With `reorder=`, the function is planned both ways.
  if (!reorder.empty()) {
    reorderCopy(addWay(false), reorder);
    if (ways.back()->reordered)
      addWay(false);
  } else {
    addWay(false);
  }
  if (!offload.empty()) {
    PlannedCopy &with = addWay(true);
    {
      // An offload the function refuses (no parameters, ...) is an error of
      // the option, whatever the plan without it would give.
      ThreadDiagnostics hold(context, &with.diagnostics);
      if (failed(applyResidentOffload(with.copy, offload, costModel))) {
        with.emitDiagnostics(context);
        return failure();
      }
    }
    // The offloaded copy is planned in an order made for it: without its
    // resident state the best order differs (on ResNet-34 at ResNet-18's
    // memory, 1.08x the step time against 1.27x in the order made for the
    // input). Without `reorder=`, an order memsched-reorder made for the
    // function is made again for the offloaded copy only.
    if (!reorder.empty())
      reorderCopy(with, reorder);
    else if (auto recorded =
                 func->getAttrOfType<DictionaryAttr>(kReorderAttrName))
      if (auto name = recorded.getAs<StringAttr>("algorithm"))
        reorderCopy(with, name.getValue());
  }
  auto plan = [&](PlannedCopy &way) {
    ThreadDiagnostics hold(context, &way.diagnostics);
    way.succeeded =
        succeeded(runBudgetPlanning(way.copy, costModel, config, &way.outcome));
  };
  // The copies are detached functions, planned side by side as the
  // functions of a module are. Threads of their own, not the context's
  // pool: a pass waiting on the pool may run another function's pass
  // meanwhile, which takes this thread's place in the order that keeps
  // diagnostics deterministic.
  if (context->isMultithreadingEnabled()) {
    std::vector<std::thread> others;
    for (std::unique_ptr<PlannedCopy> &way : llvm::drop_begin(ways))
      others.emplace_back([&plan, &way] { plan(*way); });
    plan(*ways.front());
    for (std::thread &other : others)
      other.join();
  } else {
    for (std::unique_ptr<PlannedCopy> &way : ways)
      plan(*way);
  }
  // The first way wins ties, so that a reordered plan is kept where the
  // input's order does no better.
  PlannedCopy *chosen = ways.front().get();
  for (std::unique_ptr<PlannedCopy> &way : llvm::drop_begin(ways))
    if (way->outcome.decided &&
        (!chosen->outcome.decided ||
         isBetterBudgetOutcome(way->outcome.result, chosen->outcome.result,
                               config.budget.isMinimum)))
      chosen = way.get();
  chosen->emitDiagnostics(context);
  if (!chosen->succeeded)
    return failure();
  // The chosen copy becomes the function: body, argument and result
  // attributes (the calling convention), and the planners' dictionaries.
  func.getBody().takeBody(chosen->copy.getBody());
  func->setAttrs(chosen->copy->getAttrDictionary());
  if (auto fit = func->getAttrOfType<DictionaryAttr>(kFitAttrName)) {
    NamedAttrList entries(fit);
    if (!offload.empty())
      entries.set("offload", BoolAttr::get(context, chosen->offloaded));
    if (!reorder.empty())
      entries.set("reordered", BoolAttr::get(context, chosen->reordered));
    func->setAttr(kFitAttrName, entries.getDictionary(context));
  }
  return success();
}
