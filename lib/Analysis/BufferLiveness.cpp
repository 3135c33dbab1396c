//===- BufferLiveness.cpp - Lifetimes of memref allocations ---------------===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/BufferLiveness.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::memsched;

bool mlir::memsched::hasSequentialBodies(Operation *op) {
  return isa<scf::ForOp, scf::WhileOp, scf::IfOp, scf::IndexSwitchOp,
             scf::ExecuteRegionOp>(op);
}

DenseMap<Operation *, int64_t> mlir::memsched::numberOps(Block &block) {
  DenseMap<Operation *, int64_t> steps;
  int64_t step = 0;
  for (Operation &op : block)
    steps[&op] = step++;
  return steps;
}

BufferUses
mlir::memsched::computeBufferUses(Value root, Block &block,
                                  const DenseMap<Operation *, int64_t> &steps) {
  BufferUses uses;
  llvm::SetVector<Value> aliases;
  aliases.insert(root);
  auto record = [&](int64_t step) {
    uses.firstStep = uses.firstStep < 0 ? step : std::min(uses.firstStep, step);
    uses.lastStep = std::max(uses.lastStep, step);
  };
  for (size_t i = 0; i < aliases.size() && !uses.escapes(); ++i) {
    Value value = aliases[i];
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      Operation *ancestor = block.findAncestorOpInBlock(*user);
      if (!ancestor) {
        uses.escapeReason = "used outside its block";
        break;
      }
      if (isa<memref::DeallocOp>(user)) {
        if (user != ancestor) {
          uses.escapeReason = "deallocated inside a nested region";
          break;
        }
        uses.deallocs.push_back(user);
        continue;
      }
      if (user->hasTrait<OpTrait::IsTerminator>()) {
        // Yielded by structured control flow nested in the block: what the
        // op returns (or carries into its next iteration) may be the
        // buffer, so its results are aliases; it stays in the block.
        Operation *parent = user->getParentOp();
        if (hasSequentialBodies(parent) &&
            block.findAncestorOpInBlock(*parent)) {
          record(steps.lookup(ancestor));
          for (Value result : parent->getResults())
            if (isa<BaseMemRefType>(result.getType()))
              aliases.insert(result);
          continue;
        }
        uses.escapeReason = isa<FunctionOpInterface>(user->getParentOp())
                                ? "returned from the function"
                                : "yielded from a region";
        break;
      }
      if (isa<CallOpInterface>(user)) {
        uses.escapeReason = "passed to a call";
        break;
      }
      if (isa<bufferization::DeallocOp>(user)) {
        uses.escapeReason = "owned by a bufferization.dealloc";
        break;
      }
      // Structured control flow binds the buffer to block arguments (a
      // loop's carried value) whose uses are all inside the op, and its
      // results may alias it (they are followed below): the buffer is live
      // while the op runs and as long as a result is. Other ops with
      // regions (scf.forall's parallel bodies) are not followed.
      if (user->getNumRegions() != 0 && !isa<linalg::LinalgOp>(user) &&
          !hasSequentialBodies(user)) {
        uses.escapeReason = "passed into a region op ('" +
                            user->getName().getStringRef().str() + "')";
        break;
      }
      // A view touches no memory: its readers, followed below, use the
      // buffer (a view nothing reads does not keep it alive, as in the
      // tensor-level model).
      if (!isa<ViewLikeOpInterface>(user) || !isMemoryEffectFree(user) ||
          user->getNumRegions() != 0)
        record(steps.lookup(ancestor));
      if (auto copy = dyn_cast<gpu::MemcpyOp>(user);
          copy && copy.getSrc() == value) {
        Operation *destination = copy.getDst().getDefiningOp();
        if (destination && destination->hasAttr(kHostBufferAttrName))
          uses.copiedOutAsResult = true;
      }
      // An asynchronous op (a swap's gpu.memcpy) uses the buffer until the
      // ops waiting on its token have waited.
      if (auto async = dyn_cast<gpu::AsyncOpInterface>(user)) {
        SmallVector<Value> tokens;
        if (Value token = async.getAsyncToken())
          tokens.push_back(token);
        while (!tokens.empty()) {
          Value token = tokens.pop_back_val();
          for (Operation *waiter : token.getUsers()) {
            if (Operation *at = block.findAncestorOpInBlock(*waiter))
              record(steps.lookup(at));
            for (Value result : waiter->getResults())
              if (isa<gpu::AsyncTokenType>(result.getType()))
                tokens.push_back(result);
          }
        }
      }
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType()))
          aliases.insert(result);
    }
  }
  return uses;
}
