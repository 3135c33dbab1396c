//===- DeviceAllocations.cpp - memsched-device-allocations pass -*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the step that puts a device function's buffers in
// device memory once buffer planning has placed them: the arena (and any
// buffer planning left alone) becomes one gpu.alloc, and copies between
// device buffers become device copies. It also refuses functions whose host
// code would dereference device memory.
//
//===----------------------------------------------------------------------===//

#include "GpuCalls.h"
#include "memsched/Analysis/BufferLiveness.h"
#include "memsched/Conversion/Passes.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDDEVICEALLOCATIONSPASS
#include "memsched/Conversion/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct DeviceAllocationsPass
    : public memsched::impl::MemschedDeviceAllocationsPassBase<
          DeviceAllocationsPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Whether host code may run `op` on device buffers: it only computes
/// addresses, allocates, copies, is a kernel-to-be, or is structured control
/// flow that passes buffers on to its regions and results (the ops inside
/// are checked on their own).
static bool runsOnDeviceBuffers(Operation *op) {
  // Views (subview, cast, reshapes, reinterpret_cast, view) only compute
  // addresses.
  return isa<linalg::LinalgOp, ViewLikeOpInterface, memref::AllocOp,
             memref::DeallocOp, memref::CopyOp, memref::DimOp,
             memref::GetGlobalOp, func::ReturnOp, scf::ConditionOp,
             scf::YieldOp>(op) ||
         hasSequentialBodies(op) || isa<gpu::GPUDialect>(op->getDialect());
}

static bool isContiguous(MemRefType type) {
  return type.hasStaticShape() && type.getLayout().isIdentity();
}

static LogicalResult checkFunction(func::FuncOp func) {
  WalkResult walk = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    // Linalg payloads compute on scalars in the kernel.
    if (isa<linalg::LinalgOp>(op))
      return WalkResult::skip();
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (alloc->getBlock() != &func.getBody().front() &&
          !alloc->hasAttr(kHostBufferAttrName)) {
        emitError(op->getLoc())
            << "memsched-device-allocations: an allocation in a "
               "nested region has no planned lifetime; it cannot "
               "be placed in device memory";
        return WalkResult::interrupt();
      }
      if (!alloc.getSymbolOperands().empty()) {
        emitError(op->getLoc())
            << "memsched-device-allocations: allocations with "
               "symbol operands are not supported";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    if (isa<memref::AllocaOp>(op)) {
      emitError(op->getLoc())
          << "memsched-device-allocations: a stack allocation is "
             "host memory that kernels cannot read";
      return WalkResult::interrupt();
    }
    bool touchesMemory =
        llvm::any_of(op->getOperandTypes(), llvm::IsaPred<BaseMemRefType>);
    if (touchesMemory && !runsOnDeviceBuffers(op)) {
      emitError(op->getLoc())
          << "memsched-device-allocations: '" << op->getName().getStringRef()
          << "' would access device memory from the host; only "
             "linalg ops, views, allocations, copies and GPU ops "
             "may use buffers in a device function";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

void DeviceAllocationsPass::runOnOperation() {
  func::FuncOp func = getOperation();
  auto device = func->getAttrOfType<DictionaryAttr>(kDeviceAttrName);
  if (!device || func.isExternal())
    return markAllAnalysesPreserved();
  if (failed(checkFunction(func)))
    return signalPassFailure();

  Block &block = func.getBody().front();
  Operation *terminator = block.getTerminator();
  int64_t allocatedBytes = 0;
  int64_t allocations = 0;
  SmallVector<memref::AllocOp> allocs;
  for (auto alloc : block.getOps<memref::AllocOp>())
    if (!alloc->hasAttr(kHostBufferAttrName))
      allocs.push_back(alloc);
  for (memref::AllocOp alloc : allocs) {
    OpBuilder builder(alloc);
    Location loc = alloc.getLoc();
    allocatedBytes += getStorageBytes(alloc.getType()).value_or(0);
    Value deviceBuffer = createBlockingAlloc(
        builder, alloc.getLoc(), alloc.getType(), alloc.getDynamicSizes());
    if (alloc->hasAttr(kArenaAttrName))
      deviceBuffer.getDefiningOp()->setAttr(kArenaAttrName,
                                            builder.getUnitAttr());
    bool freed = false;
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers())) {
      auto dealloc = dyn_cast<memref::DeallocOp>(user);
      if (!dealloc)
        continue;
      OpBuilder at(dealloc);
      createBlockingFree(at, dealloc.getLoc(), deviceBuffer);
      dealloc.erase();
      freed = true;
    }
    alloc.getResult().replaceAllUsesWith(deviceBuffer);
    alloc.erase();
    if (!freed) {
      OpBuilder at(terminator);
      createBlockingFree(at, loc, deviceBuffer);
    }
    ++allocations;
  }

  func.walk([&](memref::CopyOp copy) {
    // A value written in place into its destination (a loop's carried
    // buffer) is copied onto itself: nothing to do.
    if (copy.getSource() == copy.getTarget()) {
      copy.erase();
      return;
    }
    OpBuilder builder(copy);
    auto sourceType = dyn_cast<MemRefType>(copy.getSource().getType());
    auto targetType = dyn_cast<MemRefType>(copy.getTarget().getType());
    if (sourceType && targetType && isContiguous(sourceType) &&
        isContiguous(targetType))
      createBlockingCopy(builder, copy.getLoc(), copy.getTarget(),
                         copy.getSource());
    else
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
    copy.erase();
  });

  int64_t resident = 0;
  if (auto attr = device.getAs<IntegerAttr>("resident_bytes"))
    resident = attr.getInt();
  NamedAttrList fields(device);
  fields.set("device_bytes",
             IntegerAttr::get(IntegerType::get(&getContext(), 64),
                              resident + allocatedBytes));
  fields.set(
      "device_allocations",
      IntegerAttr::get(IntegerType::get(&getContext(), 64), allocations));
  func->setAttr(kDeviceAttrName, fields.getDictionary(&getContext()));
}
