//===- BufferLiveness.h - Lifetimes of memref allocations -------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the memref-level liveness used by buffer planning and
// by its verifier: the steps (positions of the ops of a block: a function's,
// or a body's) at which an allocation or any alias of it is used, and
// whether it escapes the block's control (returned, passed to a call,
// yielded from a region).
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_BUFFERLIVENESS_H
#define MEMSCHED_ANALYSIS_BUFFERLIVENESS_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::memsched {

/// Where the memory of one allocation is used.
struct BufferUses {
  /// First and last step (position in the block) using the buffer or an
  /// alias of it; -1 if unused.
  int64_t firstStep = -1;
  int64_t lastStep = -1;
  /// `memref.dealloc` ops of the buffer or of an alias, in the block.
  SmallVector<Operation *> deallocs;
  /// Why the buffer cannot be planned; empty if it can.
  std::string escapeReason;
  /// Whether the buffer or an alias is copied into a host buffer the caller
  /// owns (a result memsched-device-boundary copies out before the return).
  bool copiedOutAsResult = false;

  bool escapes() const { return !escapeReason.empty(); }
  bool isUsed() const { return firstStep >= 0; }
};

/// Whether the regions of `op` run one at a time, each run ending before
/// the next starts, while `op` runs: scf.for, scf.while, scf.if,
/// scf.index_switch and scf.execute_region. memsched-plan-buffers places
/// the allocations of such an op's single-block regions in a nested arena
/// shared by every run; not those of scf.forall (whose iterations another
/// lowering may run in parallel) or of any other op.
bool hasSequentialBodies(Operation *op);

/// Numbers the ops of `block` in order.
DenseMap<Operation *, int64_t> numberOps(Block &block);

/// Follows every use of `root` (a value defined in `block`) and of the
/// values that may alias it: any memref result of an op using it. Uses
/// inside nested regions count at the step of their ancestor in `block`.
/// Conservative: aliasing is assumed rather than proven.
BufferUses computeBufferUses(Value root, Block &block,
                             const DenseMap<Operation *, int64_t> &steps);

} // namespace mlir::memsched

#endif // MEMSCHED_ANALYSIS_BUFFERLIVENESS_H
