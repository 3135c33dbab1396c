//===- ExplicitCopies.cpp - memsched-explicit-copies ------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the step before one-shot bufferization that makes
// each copy the memory model predicts an explicit allocation: the model
// decides where a write cannot be made in place, this pass applies the
// decision, and bufferization then has no conflict of its own to resolve
// differently.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDEXPLICITCOPIESPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct ExplicitCopiesPass
    : public memsched::impl::MemschedExplicitCopiesPassBase<
          ExplicitCopiesPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Whether the new buffer of a result written out of place must start as a
/// copy of `init`: it does unless the init has no contents yet or a linalg
/// payload never reads it.
static bool needsInitContents(OpOperand &init) {
  if (init.get().getDefiningOp<tensor::EmptyOp>())
    return false;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(init.getOwner()))
    return linalgOp.payloadUsesValueFromOperand(&init);
  return true;
}

void ExplicitCopiesPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return markAllAnalysesPreserved();
  // Which buffer a value is in does not depend on the device's speeds.
  CostModel costModel(*DeviceSpec::getPreset("h100"));
  TensorGraph graph = TensorGraph::build(func, costModel);
  if (graph.getStatus() != TensorGraphStatus::Built)
    return markAllAnalysesPreserved();
  const scheduling::Problem &problem = graph.getProblem();
  auto bufferOf = [&](Value value) -> std::optional<scheduling::BufferId> {
    scheduling::ValueId id = graph.getValueId(value);
    if (id == scheduling::kNoId)
      return std::nullopt;
    return problem.value(id).buffer;
  };

  SmallVector<OpOperand *> copiedInits;
  for (Operation &op : func.getBody().front()) {
    for (OpResult result : op.getResults()) {
      OpOperand *init = getTiedInit(result);
      if (!init)
        continue;
      std::optional<scheduling::BufferId> resultBuffer = bufferOf(result);
      std::optional<scheduling::BufferId> initBuffer = bufferOf(init->get());
      if (resultBuffer && initBuffer && *resultBuffer != *initBuffer)
        copiedInits.push_back(init);
    }
  }
  if (copiedInits.empty())
    return markAllAnalysesPreserved();

  for (OpOperand *init : copiedInits) {
    Operation *op = init->getOwner();
    OpBuilder builder(op);
    auto type = cast<RankedTensorType>(init->get().getType());
    Value contents = needsInitContents(*init) ? init->get() : Value();
    auto alloc = bufferization::AllocTensorOp::create(
        builder, op->getLoc(), type, /*dynamicSizes=*/ValueRange(), contents);
    init->set(alloc.getResult());
  }
}
