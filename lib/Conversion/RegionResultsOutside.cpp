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

#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Conversion/Passes.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
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

/// Where `yielded` is an insertion in `block` into a tensor other than
/// `dest`, makes it an insertion into a copy of that tensor made in `dest`:
/// the region then allocates nothing for the value (the insertion writes in
/// place) where it would copy the tensor for the insertion and then copy
/// the value into `dest`.
static bool insertIntoDestination(Value yielded, Value dest, Block &block) {
  auto insert = yielded.getDefiningOp<tensor::InsertSliceOp>();
  if (!insert || insert->getBlock() != &block || insert.getDest() == dest ||
      insert.getType() != dest.getType())
    return false;
  OpBuilder builder(insert);
  auto copy =
      linalg::CopyOp::create(builder, insert.getLoc(), insert.getDest(), dest);
  insert.getDestMutable().assign(copy.getResult(0));
  return true;
}

/// Whether nothing in `block` after `op` but its terminator reads `value`
/// or a view of it: a write into it at `op` conflicts with no later read.
static bool isDeadAfter(Value value, Operation *op, Block &block) {
  SmallVector<Value> aliases = {value};
  while (!aliases.empty()) {
    Value alias = aliases.pop_back_val();
    for (Operation *user : alias.getUsers()) {
      Operation *ancestor = block.findAncestorOpInBlock(*user);
      if (!ancestor || ancestor == op)
        continue;
      if (ancestor == block.getTerminator() || op->isBeforeInBlock(ancestor))
        return false;
      if (getViewCandidateSource(user) == alias)
        aliases.append(user->result_begin(), user->result_end());
    }
  }
  return true;
}

/// Whether `op`, writing its result `result` into `dest`, reads `dest`
/// only element by element where it writes it (an all-parallel linalg op
/// reading it with the result's indexing), so that writing in place is
/// safe; any other read of `dest` or a view of it makes it unsafe.
static bool readsOnlyInPlace(Operation *op, OpResult result, Value dest) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  for (OpOperand &operand : op->getOpOperands()) {
    if (operand.get() != dest)
      continue;
    if (!linalgOp || !linalgOp.isDpsInput(&operand) ||
        linalgOp.getNumParallelLoops() != linalgOp.getNumLoops() ||
        linalgOp.getMatchingIndexingMap(&operand) !=
            linalgOp.getIndexingMapMatchingResult(result))
      return false;
  }
  // Through a view of `dest`, the op may read other elements than it
  // writes.
  return llvm::none_of(op->getOperands(), [&](Value operand) {
    Operation *def = operand.getDefiningOp();
    return def && getViewCandidateSource(def) == dest;
  });
}

/// A loop's value is written into its carried buffer: computed there where
/// the op making it writes into an empty tensor of its own and the carried
/// value is not read after it (no copy, no buffer of the body's own, the
/// loop as the memory model counts it at most), else copied there at the
/// end of each iteration.
static void placeLoopResults(scf::ForOp loop) {
  Block &body = *loop.getBody();
  Operation *yield = body.getTerminator();
  for (auto [index, iterArg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (!isStaticTensor(iterArg.getType()))
      continue;
    Value yielded = yield->getOperand(index);
    // The ops writing the value in place, last first, back to the one
    // writing into an empty tensor (a write in place into a value computed
    // just before, as memsched-inplace makes them, is followed).
    SmallVector<OpResult> chain;
    for (Value value = yielded;;) {
      auto result = dyn_cast<OpResult>(value);
      auto dpsOp =
          result ? dyn_cast<DestinationStyleOpInterface>(result.getOwner())
                 : DestinationStyleOpInterface();
      if (!dpsOp || dpsOp->getBlock() != &body)
        break;
      // A value written in place must be read by its writer only: a later
      // reader would make bufferization copy, and the loop then yield a
      // buffer of the body's own.
      if (!chain.empty() &&
          llvm::any_of(value.getUsers(), [&](Operation *user) {
            return user != chain.back().getOwner();
          }))
        break;
      chain.push_back(result);
      value = dpsOp.getTiedOpOperand(result)->get();
    }
    bool computedInPlace =
        !chain.empty() && llvm::count(yield->getOperands(), yielded) == 1 &&
        isDeadAfter(iterArg, chain.back().getOwner(), body) &&
        llvm::all_of(chain,
                     [&](OpResult result) {
                       return readsOnlyInPlace(result.getOwner(), result,
                                               iterArg);
                     }) &&
        computeIntoDestination(chain.back(), iterArg, body);
    // An insertion into another tensor: into a copy of it made in the
    // carried tensor, where the insertion's piece is not read from it.
    auto insert = yielded.getDefiningOp<tensor::InsertSliceOp>();
    bool insertedInPlace =
        !computedInPlace && insert && insert->getBlock() == &body &&
        llvm::count(yield->getOperands(), yielded) == 1 &&
        isDeadAfter(iterArg, insert, body) &&
        readsOnlyInPlace(insert, cast<OpResult>(yielded), iterArg) &&
        insertIntoDestination(yielded, iterArg, body);
    if (!computedInPlace && !insertedInPlace)
      yieldInto(yield, index, iterArg);
  }
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
      Value yielded = yield->getOperand(index);
      if (!computeIntoDestination(yielded, dest, region.front()) &&
          !insertIntoDestination(yielded, dest, region.front()))
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
