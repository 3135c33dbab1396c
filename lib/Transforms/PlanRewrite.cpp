//===- PlanRewrite.cpp - Applying swap plans to functions -------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "PlanRewrite.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Dialect/Memsched/IR/MemschedOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

void mlir::memsched::layOutTasks(func::FuncOp func, const TensorGraph &graph,
                                 ArrayRef<sched::TaskId> order) {
  Block &block = func.getBody().front();
  Operation *terminator = block.getTerminator();
  for (Operation *op : graph.getFreeOps())
    op->moveBefore(terminator);
  for (sched::TaskId task : order)
    if (task != graph.getReturnTask())
      for (Operation *op : graph.getOps(task))
        op->moveBefore(terminator);
}

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
    for (Operation *op : graph.getOps(static_cast<sched::TaskId>(task)))
      positionOf[mapping.lookup(op)] = static_cast<sched::TaskId>(task);
  // Swaps go after a task's last op (the views of its results included).
  auto lastOpOf = [&](sched::TaskId task) {
    return mapping.lookup(graph.getOps(task).back());
  };

  SmallVector<Value> hostCopies;
  // A view several copies brought back replaced is listed once.
  SetVector<Operation *> deadViews;
  // The values of each buffer: a swapped buffer's views are among them.
  const sched::Problem &problem = graph.getProblem();
  std::vector<SmallVector<sched::ValueId, 2>> valuesOfBuffer(
      problem.numBuffers());
  for (size_t id = 0; id < problem.numValues(); ++id)
    valuesOfBuffer[problem.value(static_cast<sched::ValueId>(id)).buffer]
        .push_back(static_cast<sched::ValueId>(id));
  for (const sched::SwapDecision &swap : swaps) {
    Value value = mapping.lookup(graph.getValue(swap.value));
    Operation *definer = lastOpOf(swap.issueAfter);
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
  // A planned stall waits right before the release task: after the
  // previous task and the swap-outs it issues, before the swap-ins issued
  // there (they take their buffers once the stall has freed memory).
  for (auto [index, swap] : llvm::enumerate(swaps)) {
    if (swap.releaseBefore == sched::kNoId)
      continue;
    Value value = mapping.lookup(graph.getValue(swap.value));
    Operation *previous =
        mapping.lookup(graph.getOps(swap.releaseBefore).front());
    do
      previous = previous->getPrevNode();
    while (previous && !positionOf.count(previous));
    auto build = [&](OpBuilder &builder) {
      return SwapWaitOp::create(builder, value.getLoc(), hostCopies[index])
          .getOperation();
    };
    // Never before the swap-out it waits for: where the ops of the issuing
    // task reach past the release task's first op (a view of its result
    // used later), the wait follows the swap-out.
    Operation *swapOut = hostCopies[index].getDefiningOp();
    Operation *release =
        mapping.lookup(graph.getOps(swap.releaseBefore).front());
    Operation *anchor = previous ? previous : release;
    if (anchor->getBlock() == swapOut->getBlock() &&
        !swapOut->isBeforeInBlock(anchor) && (previous || swapOut != anchor)) {
      OpBuilder builder(swapOut->getContext());
      builder.setInsertionPointAfter(swapOut);
      build(builder);
    } else if (previous) {
      insertAfter(previous, build);
    } else {
      OpBuilder builder(release);
      build(builder);
    }
  }
  // A write over a swapped value: its last early use, after the wait
  // above, writes its result into the value's buffer.
  for (const sched::SwapDecision &swap : swaps) {
    sched::ValueId input = sched::getWriteOverInput(problem, swap);
    if (input == sched::kNoId)
      continue;
    auto result =
        cast<OpResult>(mapping.lookup(graph.getValue(swap.writeOver)));
    getTiedInit(result)->set(mapping.lookup(graph.getValue(input)));
  }
  // Brings the value of `swap` back from host copy `index` after task
  // `prefetchTask`; the reads of tasks in [firstRead, endRead) read it.
  auto bringBack = [&](size_t index, const sched::SwapDecision &swap,
                       sched::TaskId prefetchTask, sched::TaskId firstRead,
                       sched::TaskId endRead) {
    Value value = mapping.lookup(graph.getValue(swap.value));
    Operation *prefetch = lastOpOf(prefetchTask);
    Operation *in = insertAfter(prefetch, [&](OpBuilder &builder) {
      return SwapInOp::create(builder, value.getLoc(), value.getType(),
                              hostCopies[index])
          .getOperation();
    });
    Block *block = in->getBlock();
    auto isLate = [&](OpOperand &use) {
      Operation *reader = block->findAncestorOpInBlock(*use.getOwner());
      auto it = reader ? positionOf.find(reader) : positionOf.end();
      return it != positionOf.end() && it->second >= firstRead &&
             it->second < endRead;
    };
    value.replaceUsesWithIf(in->getResult(0), isLate);
    // Late reads of views of the value read the same views of the copy
    // brought back, made anew right after the swap-in.
    OpBuilder viewBuilder(in->getContext());
    viewBuilder.setInsertionPointAfter(in);
    for (sched::ValueId viewId : valuesOfBuffer[swap.buffer]) {
      if (viewId == swap.value ||
          sched::getViewRoot(problem, viewId) != swap.value)
        continue;
      Value view = mapping.lookup(graph.getValue(viewId));
      if (!llvm::any_of(view.getUses(), isLate))
        continue;
      SmallVector<sched::ValueId> chain;
      for (sched::ValueId step = viewId; step != swap.value;
           step = problem.value(step).viewOf)
        chain.push_back(step);
      IRMapping copies;
      copies.map(value, in->getResult(0));
      Operation *copy = nullptr;
      for (sched::ValueId step : llvm::reverse(chain)) {
        Operation *op = mapping.lookup(graph.getValue(step)).getDefiningOp();
        copy = viewBuilder.clone(*op, copies);
        viewBuilder.setInsertionPointAfter(copy);
      }
      view.replaceUsesWithIf(copies.lookup(view), isLate);
      deadViews.insert(view.getDefiningOp());
    }
  };
  // The first copy of each swap serves the reads up to its first refetch;
  // the refetches' copies follow, issued after every first one (the order
  // of the plan's evaluation, makeSwapCopies).
  constexpr sched::TaskId kEnd = std::numeric_limits<sched::TaskId>::max();
  for (auto [index, swap] : llvm::enumerate(swaps))
    bringBack(index, swap, swap.prefetchAfter, swap.firstLateUse,
              swap.refetches.empty() ? kEnd : swap.refetches[0].firstUse);
  for (auto [index, swap] : llvm::enumerate(swaps))
    for (auto [k, refetch] : llvm::enumerate(swap.refetches))
      bringBack(index, swap, refetch.prefetchAfter, refetch.firstUse,
                k + 1 < swap.refetches.size() ? swap.refetches[k + 1].firstUse
                                              : kEnd);
  // Views every read of which now reads the copy go (with what only they
  // read), so that they keep nothing alive.
  for (Operation *op : deadViews) {
    while (op && op->use_empty() && isMemoryEffectFree(op)) {
      Operation *source = op->getNumOperands() != 0
                              ? op->getOperand(0).getDefiningOp()
                              : nullptr;
      op->erase();
      op = deadViews.contains(source) ? nullptr : source;
    }
  }
}

bool mlir::memsched::hasSwapOps(func::FuncOp func) {
  // The copies of memsched-offload's calling convention (a swap-in of a
  // host argument, a swap-out returned by memsched.host_result) are not
  // planned swaps.
  auto isPlannedSwap = [](Operation *op) {
    if (isa<SwapWaitOp>(op))
      return true;
    if (auto in = dyn_cast<SwapInOp>(op))
      return !in.getSource().getDefiningOp<HostArgumentOp>();
    if (auto out = dyn_cast<SwapOutOp>(op))
      return !llvm::all_of(out->getUsers(), llvm::IsaPred<HostResultOp>);
    return false;
  };
  return func
      .walk([&](Operation *op) {
        return isPlannedSwap(op) ? WalkResult::interrupt()
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

void mlir::memsched::applyRematPlan(const TensorGraph &graph,
                                    const sched::RematPlan &plan,
                                    const IRMapping &mapping) {
  int32_t numTasks = static_cast<int32_t>(graph.getNumTasks());
  auto workOp = [&](sched::TaskId task) {
    return mapping.lookup(graph.getOps(task).front());
  };
  // Each clone run copies every op of its task; `copies[k]` maps the work
  // function's values to the copies clone `k` made.
  SmallVector<IRMapping> copies;
  auto copyOf = [&](int32_t k, sched::ValueId v) -> Value {
    return copies[k].lookup(mapping.lookup(graph.getValue(v)));
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
    for (Operation *op : graph.getOps(clone.task)) {
      Operation *original = mapping.lookup(op);
      // A recomputation writes into an allocation of its own: sharing the
      // original's empty would let bufferization give both one buffer that
      // lives across the gap the plan freed.
      if (auto dps = dyn_cast<DestinationStyleOpInterface>(original))
        for (OpOperand &init : dps.getDpsInitsMutable())
          if (auto empty = init.get().getDefiningOp<tensor::EmptyOp>();
              empty && !operands.contains(init.get()))
            operands.map(init.get(), builder.clone(*empty)->getResult(0));
      Operation *copy = builder.clone(*original, operands);
      copy->setAttr(kRecomputeAttrName,
                    builder.getI64IntegerAttr(static_cast<int64_t>(index)));
    }
    copies.push_back(std::move(operands));
  }
  for (const sched::RematRedirect &redirect : plan.redirects) {
    if (redirect.reader >= numTasks)
      continue;
    Value original = mapping.lookup(graph.getValue(redirect.value));
    Value copy = copyOf(redirect.clone, redirect.value);
    // Any op of the reading task may read it, payload regions included
    // (tensor.extract).
    for (Operation *reader : graph.getOps(redirect.reader)) {
      Operation *workReader = mapping.lookup(reader);
      original.replaceUsesWithIf(copy, [&](OpOperand &use) {
        return workReader->isAncestor(use.getOwner());
      });
    }
  }
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

void mlir::memsched::keepDuplicatesApart(func::FuncOp func) {
  // CSE merges equal constants first, then ops equal up to them: an op's
  // operands (and the values its regions capture) are compared through
  // their representative constant.
  DenseMap<Value, Value> representative;
  auto canonical = [&](Value value) {
    Value found = representative.lookup(value);
    return found ? found : value;
  };
  DenseMap<unsigned, SmallVector<Operation *, 1>> buckets;
  auto findEquivalent = [&](Operation *op, unsigned hash) -> Operation * {
    for (Operation *other : buckets[hash]) {
      DenseMap<Value, Value> inside;
      auto check = [&](Value lhs, Value rhs) {
        return success(canonical(lhs) == canonical(rhs) ||
                       inside.lookup(lhs) == rhs);
      };
      auto mark = [&](Value lhs, Value rhs) { inside[lhs] = rhs; };
      if (OperationEquivalence::isEquivalentTo(
              op, other, check, mark, OperationEquivalence::IgnoreLocations))
        return other;
    }
    return nullptr;
  };
  int64_t instance = 0;
  Builder builder(func.getContext());
  for (Operation &op : func.getBody().front().without_terminator()) {
    if (op.getNumResults() == 0 || !isMemoryEffectFree(&op))
      continue;
    // Merged empties and views share no more memory than apart (an empty
    // allocates at each write, a view is its source's buffer), and neither
    // do scalars: CSE may merge them, so they stand for their
    // representative like constants. Ops over them (two fills of merged
    // empties) are the duplicates to keep apart.
    bool isRepresented =
        op.hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(op) ||
        isa<ViewLikeOpInterface>(op) ||
        !llvm::any_of(op.getResultTypes(), llvm::IsaPred<ShapedType>);
    unsigned hash = static_cast<unsigned>(OperationEquivalence::computeHash(
        &op, [&](Value value) { return hash_value(canonical(value)); },
        OperationEquivalence::ignoreHashValue,
        OperationEquivalence::IgnoreLocations));
    Operation *equivalent = findEquivalent(&op, hash);
    if (!equivalent) {
      buckets[hash].push_back(&op);
      continue;
    }
    if (isRepresented) {
      for (auto [result, same] :
           llvm::zip(op.getResults(), equivalent->getResults()))
        representative[result] = canonical(same);
      continue;
    }
    op.setAttr(kInstanceAttrName, builder.getI64IntegerAttr(instance++));
  }
}

void mlir::memsched::recordSwapDictionary(func::FuncOp func,
                                          StringRef algorithm,
                                          int64_t swappedValues,
                                          const FunctionReport &report) {
  Builder builder(func.getContext());
  NamedAttribute fields[] = {
      builder.getNamedAttr("algorithm", builder.getStringAttr(algorithm)),
      builder.getNamedAttr("swapped_values",
                           builder.getI64IntegerAttr(swappedValues)),
      builder.getNamedAttr("swap_bytes",
                           builder.getI64IntegerAttr(report.swapBytes)),
      builder.getNamedAttr("swap_transfer_time_s",
                           builder.getF64FloatAttr(report.swapTransferSeconds)),
      builder.getNamedAttr("swap_exposed_time_s",
                           builder.getF64FloatAttr(report.swapExposedSeconds)),
      builder.getNamedAttr("swap_hidden_fraction",
                           builder.getF64FloatAttr(report.swapHiddenFraction)),
  };
  func->setAttr(kSwapAttrName, builder.getDictionaryAttr(fields));
}
