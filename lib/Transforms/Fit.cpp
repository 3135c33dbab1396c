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
#include "memsched/Analysis/MemoryReport.h"
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
  std::optional<Budget> parsedBudget =
      parseBudgetOrEmitError(budget, func, "memsched-fit");
  if (!parsedBudget)
    return signalPassFailure();
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
  config.reorderAfterRemat = reorderAfter;
  config.swap.timeLimitSeconds = seconds;
  CostModel costModel(*spec);
  if (!reorder.empty() && !scheduling::parseReorderAlgorithm(reorder)) {
    emitError(func.getLoc())
        << "memsched-fit: unknown reorder algorithm '" << reorder
        << "'; expected one of: " << scheduling::getReorderAlgorithmNames();
    return signalPassFailure();
  }
  if (offload.empty() && reorder.empty() && !allowSplit && !allowFuse) {
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
  /// Whether the copy was split (memsched-split) before it was planned.
  bool split = false;
  /// Whether the copy was fused (memsched-fuse) before it was planned.
  bool fused = false;
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
  auto addWay = [&](func::FuncOp source, bool offloaded) -> PlannedCopy & {
    ways.push_back(std::make_unique<PlannedCopy>());
    ways.back()->copy = source.clone();
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
  // The ways of planning `source` with `selection` offloaded, added to
  // `ways`.
  auto addOffloadedWaysOf =
      [&](func::FuncOp source,
          ArrayRef<std::string> selection) -> LogicalResult {
    auto addOffloadedWay = [&]() -> PlannedCopy * {
      PlannedCopy &with = addWay(source, true);
      // An offload the function refuses (no parameters, ...) is an error of
      // the option, whatever the plan without it would give. It is emitted
      // once the hold has ended (emitted under it, it was held again and
      // lost).
      LogicalResult offloaded = failure();
      {
        ThreadDiagnostics hold(context, &with.diagnostics);
        offloaded = applyResidentOffload(with.copy, selection, costModel);
      }
      if (failed(offloaded)) {
        with.emitDiagnostics(context);
        return nullptr;
      }
      return &with;
    };
    PlannedCopy *with = addOffloadedWay();
    if (!with)
      return failure();
    // The offloaded copy is planned in an order made for it: without its
    // resident state the best order differs (on ResNet-34 at ResNet-18's
    // memory, 1.08x the step time against 1.27x in the order made for the
    // input). Without `reorder=`, an order memsched-reorder made for the
    // function is made again for the offloaded copy only.
    if (!reorder.empty()) {
      reorderCopy(*with, reorder);
      // As without offload, the offloaded copy is planned as given too: the
      // order of least peak may leave a large value for the end (a GPT
      // step's tied embedding gradient, whose 1.5 GiB logits gradient is
      // then swapped back in at the end of the backward pass).
      if (with->reordered && !addOffloadedWay())
        return failure();
    } else if (auto recorded =
                   source->getAttrOfType<DictionaryAttr>(kReorderAttrName)) {
      if (auto name = recorded.getAs<StringAttr>("algorithm"))
        reorderCopy(*with, name.getValue());
    }
    return success();
  };
  // The ways of planning `source`, added to `ways`.
  auto addWaysOf = [&](func::FuncOp source) -> LogicalResult {
    // The order with the smallest peak is not always the best one to plan:
    // recomputation may reach less from the input's order (a GPT step whose
    // gradients are accumulated: 7.51 GiB at min reordered, 5.49 GiB as
    // given). With `reorder=`, the function is planned both ways.
    if (!reorder.empty()) {
      reorderCopy(addWay(source, false), reorder);
      if (ways.back()->reordered)
        addWay(source, false);
    } else {
      addWay(source, false);
    }
    if (offload.empty() || !isOffloadable(func))
      return success();
    // With the inputs and resident state both selected, the state is also
    // offloaded alone: the planners are heuristics, and a batch fetched
    // late can take a plan off its floor (vgg11 at min: 715.7 MiB with the
    // batch offloaded, 704.4 MiB without).
    SmallVector<std::string> withoutInputs;
    for (const std::string &name : offload)
      if (name != "inputs")
        withoutInputs.push_back(name);
    SmallVector<ArrayRef<std::string>, 2> selections = {offload};
    if (!withoutInputs.empty() && withoutInputs.size() < offload.size())
      selections.push_back(withoutInputs);
    for (ArrayRef<std::string> selection : selections)
      if (failed(addOffloadedWaysOf(source, selection)))
        return failure();
    return success();
  };
  auto plan = [&](PlannedCopy &way) {
    ThreadDiagnostics hold(context, &way.diagnostics);
    // A split way's remark is the pass's own (its figures before are the
    // input's, not the split function's).
    way.succeeded =
        succeeded(runBudgetPlanning(way.copy, costModel, config, &way.outcome,
                                    /*quiet=*/way.split || way.fused));
  };
  // Plans the ways from `first` on. The copies are detached functions,
  // planned side by side as the functions of a module are. Threads of their
  // own, not the context's pool: a pass waiting on the pool may run another
  // function's pass meanwhile, which takes this thread's place in the order
  // that keeps diagnostics deterministic.
  auto planWays = [&](size_t first) {
    if (context->isMultithreadingEnabled()) {
      std::vector<std::thread> others;
      for (size_t i = first + 1; i < ways.size(); ++i)
        others.emplace_back([&plan, way = ways[i].get()] { plan(*way); });
      plan(*ways[first]);
      for (std::thread &other : others)
        other.join();
    } else {
      for (size_t i = first; i < ways.size(); ++i)
        plan(*ways[i]);
    }
  };
  if (failed(addWaysOf(func)))
    return failure();
  planWays(0);
  // Where no way meets the budget (or for `min`), the ways again from the
  // function fused (memsched-fuse), and from that with the ops setting its
  // floor split: a budget under the floor is out of reach of every other
  // lever.
  bool anyMet = llvm::any_of(ways, [](const std::unique_ptr<PlannedCopy> &way) {
    return way->succeeded;
  });
  size_t unloweredWays = ways.size();
  if ((allowSplit || allowFuse) && (config.budget.isMinimum || !anyMet)) {
    func::FuncOp fused = allowFuse ? func.clone() : func::FuncOp();
    llvm::scope_exit eraseFused([&] {
      if (fused)
        fused.erase();
    });
    // Fusion is a way of its own where generators fused into their readers
    // lower the floor (a one-hot gradient no longer held beside the
    // softmax); elementwise chains alone are memsched-reorder's
    // `fuse-elementwise`, which keeps the input's ops by default.
    std::optional<FuseOutcome> fusion =
        fused ? fuseToLowerFloor(fused, costModel, FuseOptions())
              : std::nullopt;
    bool anyFused =
        fusion && fusion->floorAfterGeneratorsBytes < fusion->floorBeforeBytes;
    if (anyFused) {
      size_t first = ways.size();
      if (failed(addWaysOf(fused)))
        return failure();
      for (size_t i = first; i < ways.size(); ++i)
        ways[i]->fused = true;
    }
    func::FuncOp split = (anyFused ? fused : func).clone();
    llvm::scope_exit eraseSplit([&] { split.erase(); });
    Budget lowest;
    lowest.isMinimum = true;
    if (allowSplit && splitToFloor(split, costModel, lowest,
                                   MemschedSplitPassOptions().maxPieces)) {
      size_t first = ways.size();
      if (failed(addWaysOf(split)))
        return failure();
      for (size_t i = first; i < ways.size(); ++i) {
        ways[i]->split = true;
        ways[i]->fused = anyFused;
      }
    }
    if (ways.size() > unloweredWays)
      planWays(unloweredWays);
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
  // A split or fused copy was planned from the rewritten function; its
  // figures before are the input's, so that the time the pieces cost shows.
  std::optional<FunctionReport> input;
  if (chosen->split || chosen->fused)
    input = analyzeFunction(func, costModel);
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
    if (allowSplit)
      entries.set("split", BoolAttr::get(context, chosen->split));
    if (allowFuse)
      entries.set("fused", BoolAttr::get(context, chosen->fused));
    if (input) {
      Builder builder(context);
      entries.set("planned_before_bytes",
                  builder.getI64IntegerAttr(input->plannedBytes()));
      entries.set("time_before_s",
                  builder.getF64FloatAttr(input->modeledTimeSeconds));
      // The rewritten way was planned quietly: its remark, with the input's
      // figures before and what the rewrites did.
      auto integer = [&](StringRef attrName, StringRef name) {
        auto fields = func->getAttrOfType<DictionaryAttr>(attrName);
        auto value = fields ? fields.getAs<IntegerAttr>(name) : IntegerAttr();
        return value ? value.getInt() : 0;
      };
      std::string rewrites;
      int64_t floorBefore = 0, floorAfter = 0;
      if (chosen->fused) {
        rewrites = "fusing";
        floorBefore = integer(kFuseAttrName, "floor_before_bytes");
        floorAfter = integer(kFuseAttrName, "floor_after_bytes");
      }
      if (chosen->split) {
        rewrites += llvm::formatv("{0}splitting {1} ops",
                                  rewrites.empty() ? "" : " and ",
                                  integer(kSplitAttrName, "ops_split"))
                        .str();
        if (!chosen->fused)
          floorBefore = integer(kSplitAttrName, "floor_before_bytes");
        floorAfter = integer(kSplitAttrName, "floor_after_bytes");
      }
      auto chosenName = dyn_cast_or_null<StringAttr>(entries.get("chosen"));
      const scheduling::BudgetResult &result = chosen->outcome.result;
      emitBudgetRemark(
          func, "memsched-fit", input->plannedBytes(),
          result.chosen.footprintBytes, result.budgetBytes,
          llvm::formatv("{0} after {1} (floor {2} -> {3})",
                        chosenName ? chosenName.getValue() : StringRef("?"),
                        rewrites, formatBytes(floorBefore),
                        formatBytes(floorAfter))
              .str(),
          input->modeledTimeSeconds, result.chosen.timeSeconds);
    }
    func->setAttr(kFitAttrName, entries.getDictionary(context));
  }
  return success();
}
