//===- Remat.cpp - memsched-remat pass --------------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the rematerialization pass. The plan comes from
// lib/Scheduling (planRemat on the function's tensor graph); the pass clones
// the ops it names, redirects the late reads to the clones, and checks the
// budget on the graph rebuilt from the rewritten function. The rewrite is
// made on a copy of the function, so a plan that fails the check leaves the
// input untouched.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Remat.h"
#include "SwapRewrite.h"
#include "memsched/Analysis/Budget.h"
#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDREMATPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

void mlir::memsched::applyRematPlan(const TensorGraph &graph,
                                    const sched::RematPlan &plan,
                                    const IRMapping &mapping) {
  int32_t numTasks = static_cast<int32_t>(graph.getNumTasks());
  auto workOp = [&](sched::TaskId task) {
    return mapping.lookup(graph.getOp(task));
  };
  // The copy of value `v` made by clone `k`: the clone's result at the
  // position of `v` among its original's results.
  SmallVector<Operation *> clones;
  auto copyOf = [&](int32_t k, sched::ValueId v) -> Value {
    auto result = cast<OpResult>(graph.getValue(v));
    return clones[k]->getResult(result.getResultNumber());
  };
  SmallVector<SmallVector<const sched::RematRedirect *>> cloneReads(
      plan.clones.size());
  for (const sched::RematRedirect &redirect : plan.redirects)
    if (redirect.reader >= numTasks)
      cloneReads[redirect.reader - numTasks].push_back(&redirect);

  for (auto [index, clone] : llvm::enumerate(plan.clones)) {
    IRMapping operands;
    for (const sched::RematRedirect *redirect : cloneReads[index])
      operands.map(mapping.lookup(graph.getValue(redirect->value)),
                   copyOf(redirect->clone, redirect->value));
    OpBuilder builder(workOp(clone.insertBefore));
    Operation *copy = builder.clone(*workOp(clone.task), operands);
    copy->setAttr(kRecomputeAttrName,
                  builder.getI64IntegerAttr(static_cast<int64_t>(index)));
    clones.push_back(copy);
  }
  for (const sched::RematRedirect &redirect : plan.redirects) {
    if (redirect.reader >= numTasks)
      continue;
    Operation *reader = workOp(redirect.reader);
    Value original = mapping.lookup(graph.getValue(redirect.value));
    // Payload regions may read the value too (tensor.extract).
    original.replaceUsesWithIf(
        copyOf(redirect.clone, redirect.value),
        [&](OpOperand &use) { return reader->isAncestor(use.getOwner()); });
  }
}

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
  std::optional<sched::RematAlgorithm> parsedAlgorithm =
      sched::parseRematAlgorithm(algorithm);
  if (!parsedAlgorithm) {
    func.emitError() << "memsched-remat: unknown algorithm '" << algorithm
                     << "'; expected one of: "
                     << sched::getRematAlgorithmNames();
    return signalPassFailure();
  }
  std::string error;
  std::optional<Budget> parsedBudget = parseBudget(budget, error);
  if (!parsedBudget) {
    func.emitError() << "memsched-remat: " << error;
    return signalPassFailure();
  }
  if (timeLimitMs < 0 || segments < 0) {
    func.emitError() << "memsched-remat: time-limit-ms and segments must not "
                        "be negative";
    return signalPassFailure();
  }
  FailureOr<DeviceSpec> spec =
      DeviceSpec::lookupOrEmitError(device, func, "memsched-remat");
  if (failed(spec))
    return signalPassFailure();
  CostModel costModel(*spec);

  std::optional<TensorGraph> built =
      TensorGraph::buildOrEmitError(func, costModel, "memsched-remat");
  if (!built)
    return signalPassFailure();
  const TensorGraph &graph = *built;
  const sched::Problem &problem = graph.getProblem();
  std::optional<sched::MemoryProfile> profile =
      sched::simulateMemory(problem, problem.programOrder(), &error);
  if (!profile) {
    func.emitError() << "memsched-remat: " << error;
    return signalPassFailure();
  }
  int64_t resident = profile->residentBytes;
  int64_t before = profile->peakBytes();
  int64_t budgetBytes = parsedBudget->resolve(before);
  if (budgetBytes < resident) {
    func.emitError() << "memsched-remat: the budget of "
                     << formatBytes(budgetBytes) << " (" << budgetBytes
                     << " B) is below the resident memory of '@"
                     << func.getSymName() << "', " << formatBytes(resident)
                     << " (" << resident
                     << " B of arguments and constants), which no "
                        "recomputation can free";
    return signalPassFailure();
  }

  sched::RematOptions options;
  options.algorithm = *parsedAlgorithm;
  options.timeLimitSeconds = static_cast<double>(timeLimitMs) / 1000.0;
  options.segments = segments;
  options.budgetTransientBytes = budgetBytes - resident;

  // The graph of the rewritten function may decide in-place writes
  // differently from the plan's model; tighten the target by the difference
  // and plan again (a few times at most) before giving up.
  std::optional<sched::RematPlan> plan;
  std::optional<int64_t> after;
  func::FuncOp work;
  for (int attempt = 0; attempt < 4; ++attempt) {
    if (work)
      work.erase();
    work = nullptr;
    plan = sched::planRemat(problem, options, &error);
    if (!plan) {
      func.emitError() << "memsched-remat: internal error: " << error;
      return signalPassFailure();
    }
    if (!plan->withinBudget)
      break;
    IRMapping mapping;
    work = func.clone(mapping);
    applyRematPlan(graph, *plan, mapping);
    after = computeModelPeak(work, costModel);
    if (after && *after <= budgetBytes)
      break;
    int64_t overshoot = after ? *after - budgetBytes : 0;
    if (!after || overshoot <= 0 || options.budgetTransientBytes <= overshoot) {
      plan->withinBudget = false;
      break;
    }
    options.budgetTransientBytes -= overshoot;
    plan->withinBudget = false;
  }
  if (!plan->withinBudget) {
    if (work)
      work.erase();
    int64_t smallest = resident + plan->smallestPeakTransient;
    InFlightDiagnostic diag = func.emitError();
    diag << "memsched-remat: cannot meet the budget of "
         << formatBytes(budgetBytes) << " (" << budgetBytes << " B) for '@"
         << func.getSymName() << "'; the smallest peak " << plan->algorithm
         << " reaches is " << formatBytes(smallest) << " (" << smallest
         << " B: resident " << resident << " B + transient "
         << plan->smallestPeakTransient << " B)";
    if (plan->firstImpureDefiner != sched::kNoId)
      diag.attachNote(graph.getOp(plan->firstImpureDefiner)->getLoc())
          << "values defined by this op are not recomputed because it has "
             "side effects";
    return signalPassFailure();
  }

  if (work) {
    func.getBody().takeBody(work.getBody());
    work.erase();
    numberAllocations(func);
  } else {
    after = before;
  }

  Builder builder(&getContext());
  NamedAttribute fields[] = {
      builder.getNamedAttr("algorithm", builder.getStringAttr(algorithm)),
      builder.getNamedAttr("chosen", builder.getStringAttr(plan->algorithm)),
      builder.getNamedAttr("budget_bytes",
                           builder.getI64IntegerAttr(budgetBytes)),
      builder.getNamedAttr("peak_before_bytes",
                           builder.getI64IntegerAttr(before)),
      builder.getNamedAttr("peak_after_bytes",
                           builder.getI64IntegerAttr(*after)),
      builder.getNamedAttr("recompute_time_s",
                           builder.getF64FloatAttr(plan->recomputeSeconds)),
      builder.getNamedAttr(
          "recomputed_ops",
          builder.getI64IntegerAttr(static_cast<int64_t>(plan->clones.size()))),
      builder.getNamedAttr("dropped_buffers",
                           builder.getI64IntegerAttr(static_cast<int64_t>(
                               plan->droppedBuffers.size()))),
      builder.getNamedAttr(
          "solve_time_ms",
          builder.getF64FloatAttr(std::round(plan->solveSeconds * 1e6) / 1e3)),
  };
  func->setAttr(kRematAttrName, builder.getDictionaryAttr(fields));

  InFlightDiagnostic remark = func.emitRemark();
  remark << "memsched-remat: peak " << formatBytes(before) << " -> "
         << formatBytes(*after) << " within " << formatBytes(budgetBytes);
  if (plan->clones.empty())
    remark << "; no recomputation needed";
  else
    remark << " by recomputing " << plan->clones.size() << " ops ("
           << llvm::formatv("{0:e3}", plan->recomputeSeconds).str()
           << " s) with " << plan->algorithm;
}

void mlir::memsched::numberAllocations(func::FuncOp func) {
  // CSE would merge identical empty tensors, making a dropped buffer and a
  // later one share an allocation again; number them apart.
  int64_t allocation = 0;
  MLIRContext *context = func.getContext();
  func.walk([&](tensor::EmptyOp empty) {
    empty->setAttr(
        kAllocationAttrName,
        IntegerAttr::get(IntegerType::get(context, 64), allocation++));
  });
}
