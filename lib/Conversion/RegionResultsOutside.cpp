//===- RegionResultsOutside.cpp - memsched-region-results-outside -*- C++ -*-//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the step that keeps one-shot bufferization from
// returning buffers allocated inside structured control flow: each yielded
// tensor is materialized into a destination that lives outside the region
// (the loop's iteration argument, or an empty tensor made before a branch).
// The device lowering needs it: memsched-plan-buffers plans the buffers of
// a region that it frees itself, and device memory has no other allocator.
//
//===----------------------------------------------------------------------===//

#include "memsched/Conversion/Passes.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDREGIONRESULTSOUTSIDEPASS
#include "memsched/Conversion/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct RegionResultsOutsidePass
    : public memsched::impl::MemschedRegionResultsOutsidePassBase<
          RegionResultsOutsidePass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

static bool isStaticTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

/// Replaces operand `index` of `yield` by its value materialized in `dest`.
static void yieldInto(Operation *yield, unsigned index, Value dest) {
  Value yielded = yield->getOperand(index);
  // A whole slice (or cast) of the destination is the destination itself;
  // materializing it there would copy a buffer onto itself, which one-shot
  // bufferization refuses as a read-after-write conflict.
  Value viewed = yielded;
  while (viewed != dest && viewed.getType() == dest.getType()) {
    Operation *def = viewed.getDefiningOp();
    if (auto slice = dyn_cast_or_null<tensor::ExtractSliceOp>(def))
      viewed = slice.getSource();
    else if (auto cast = dyn_cast_or_null<tensor::CastOp>(def))
      viewed = cast.getSource();
    else
      break;
  }
  if (viewed == dest) {
    yield->setOperand(index, dest);
    return;
  }
  OpBuilder builder(yield);
  auto materialized = bufferization::MaterializeInDestinationOp::create(
      builder, yield->getLoc(), yielded, dest);
  yield->setOperand(index, materialized.getResult());
}

/// Where `yielded` is computed in `block` by a destination-style op into an
/// empty tensor nothing else uses, makes the op compute it in `dest`
/// instead: the branch then allocates nothing for it and copies nothing,
/// which is how the memory model counts a branch's own result.
static bool computeIntoDestination(Value yielded, Value dest, Block &block) {
  auto result = dyn_cast<OpResult>(yielded);
  if (!result || result.getOwner()->getBlock() != &block)
    return false;
  auto dpsOp = dyn_cast<DestinationStyleOpInterface>(result.getOwner());
  if (!dpsOp)
    return false;
  OpOperand *init = dpsOp.getTiedOpOperand(result);
  auto empty = init->get().getDefiningOp<tensor::EmptyOp>();
  if (!empty || !empty->hasOneUse() || empty.getType() != dest.getType())
    return false;
  init->set(dest);
  return true;
}

/// A loop's value is written into its carried buffer at the end of each
/// iteration.
static void placeLoopResults(scf::ForOp loop) {
  Operation *yield = loop.getBody()->getTerminator();
  for (auto [index, iterArg] : llvm::enumerate(loop.getRegionIterArgs()))
    if (isStaticTensor(iterArg.getType()))
      yieldInto(yield, index, iterArg);
}

/// Every branch writes its value into one tensor made before the op.
static void placeBranchResults(Operation *op) {
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    if (!isStaticTensor(result.getType()))
      continue;
    OpBuilder builder(op);
    auto type = cast<RankedTensorType>(result.getType());
    Value dest =
        tensor::EmptyOp::create(builder, op->getLoc(), type.getShape(),
                                type.getElementType(), type.getEncoding());
    for (Region &region : op->getRegions()) {
      if (region.empty())
        continue;
      Operation *yield = region.front().getTerminator();
      if (!computeIntoDestination(yield->getOperand(index), dest,
                                  region.front()))
        yieldInto(yield, index, dest);
    }
  }
}

void RegionResultsOutsidePass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  // Inner ops first: an inner op's destination is then defined in the
  // region of the outer one.
  func.walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (loops)
        placeLoopResults(loop);
    } else if (isa<scf::IfOp, scf::IndexSwitchOp>(op))
      placeBranchResults(op);
  });
}
