//===- SwapRewrite.cpp - Applying swap plans to functions -------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "SwapRewrite.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Dialect/Memsched/IR/MemschedOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

void mlir::memsched::applySwapDecisions(
    const TensorGraph &graph, const std::vector<sched::SwapDecision> &swaps,
    const IRMapping &mapping) {
  // Swaps anchored at one op run in plan order, swap-outs first, right after
  // it: remember the last op inserted after each anchor.
  DenseMap<Operation *, Operation *> lastInserted;
  auto insertAfter = [&](Operation *anchor, auto build) {
    Operation *&last = lastInserted[anchor];
    OpBuilder builder(anchor->getContext());
    builder.setInsertionPointAfter(last ? last : anchor);
    last = build(builder);
    return last;
  };
  DenseMap<Operation *, sched::TaskId> positionOf;
  for (size_t task = 0; task < graph.getNumTasks(); ++task)
    positionOf[mapping.lookup(graph.getOp(static_cast<sched::TaskId>(task)))] =
        static_cast<sched::TaskId>(task);

  SmallVector<Value> hostCopies;
  for (const sched::SwapDecision &swap : swaps) {
    Value value = mapping.lookup(graph.getValue(swap.value));
    Operation *definer = mapping.lookup(graph.getOp(swap.issueAfter));
    auto tensorType = cast<RankedTensorType>(value.getType());
    Operation *out = insertAfter(definer, [&](OpBuilder &builder) {
      return SwapOutOp::create(
                 builder, value.getLoc(),
                 HostTensorType::get(tensorType.getContext(), tensorType),
                 value)
          .getOperation();
    });
    hostCopies.push_back(out->getResult(0));
  }
  for (auto [index, swap] : llvm::enumerate(swaps)) {
    Value value = mapping.lookup(graph.getValue(swap.value));
    Operation *prefetch = mapping.lookup(graph.getOp(swap.prefetchAfter));
    Operation *in = insertAfter(prefetch, [&](OpBuilder &builder) {
      return SwapInOp::create(builder, value.getLoc(), value.getType(),
                              hostCopies[index])
          .getOperation();
    });
    sched::TaskId firstLate = swap.firstLateUse;
    Block *block = in->getBlock();
    value.replaceUsesWithIf(in->getResult(0), [&](OpOperand &use) {
      Operation *reader = block->findAncestorOpInBlock(*use.getOwner());
      auto it = reader ? positionOf.find(reader) : positionOf.end();
      return it != positionOf.end() && it->second >= firstLate;
    });
  }
}

LogicalResult mlir::memsched::checkBudgetIsAboveWorkingSets(
    func::FuncOp func, const TensorGraph &graph, int64_t residentBytes,
    int64_t budgetBytes, StringRef passName) {
  if (budgetBytes < residentBytes) {
    func.emitError() << passName << ": the budget of "
                     << formatBytes(budgetBytes) << " (" << budgetBytes
                     << " B) is below the resident memory of '@"
                     << func.getSymName() << "', " << formatBytes(residentBytes)
                     << " (" << residentBytes
                     << " B of arguments and constants)";
    return failure();
  }
  const sched::Problem &problem = graph.getProblem();
  int64_t largest = -1;
  sched::TaskId largestTask = sched::kNoId;
  for (size_t task = 0; task < problem.numTasks(); ++task) {
    auto id = static_cast<sched::TaskId>(task);
    int64_t bytes = problem.task(id).workspaceBytes;
    for (sched::BufferId buffer : problem.buffersUsedBy(id))
      if (problem.buffer(buffer).kind == sched::BufferKind::Transient)
        bytes += problem.buffer(buffer).sizeBytes;
    if (bytes > largest) {
      largest = bytes;
      largestTask = id;
    }
  }
  if (largestTask != sched::kNoId && residentBytes + largest > budgetBytes) {
    int64_t needed = residentBytes + largest;
    InFlightDiagnostic diag = func.emitError();
    diag << passName << ": the budget of " << formatBytes(budgetBytes) << " ("
         << budgetBytes << " B) is below the largest single op's working set: "
         << formatBytes(needed) << " (" << needed << " B: resident "
         << residentBytes << " B + " << largest
         << " B of operands, results and workspace)";
    diag.attachNote(graph.getOp(largestTask)->getLoc())
        << "this op needs all of its operands and results in device memory "
           "at once";
    return failure();
  }
  return success();
}

bool mlir::memsched::hasSwapOps(func::FuncOp func) {
  return func
      .walk([](Operation *op) {
        return isa<SwapOutOp, SwapInOp>(op) ? WalkResult::interrupt()
                                            : WalkResult::advance();
      })
      .wasInterrupted();
}

std::vector<bool> mlir::memsched::getSwappableValues(const TensorGraph &graph) {
  const sched::Problem &problem = graph.getProblem();
  std::vector<bool> swappable(problem.numValues(), false);
  for (size_t id = 0; id < problem.numValues(); ++id) {
    auto type = dyn_cast<RankedTensorType>(
        graph.getValue(static_cast<sched::ValueId>(id)).getType());
    swappable[id] = type && type.hasStaticShape() && !type.getEncoding();
  }
  return swappable;
}
