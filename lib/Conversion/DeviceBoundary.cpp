//===- DeviceBoundary.cpp - memsched-device-boundary pass -------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the host/device boundary of a bufferized function:
// arguments and constants are copied to the device on entry, results are
// copied back to host buffers before the return, and the body then only
// touches device memory. Copying results out is what lets buffer planning put
// them in the arena: the device values no longer escape.
//
//===----------------------------------------------------------------------===//

#include "GpuCalls.h"
#include "memsched/Conversion/Passes.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDDEVICEBOUNDARYPASS
#include "memsched/Conversion/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct DeviceBoundaryPass
    : public memsched::impl::MemschedDeviceBoundaryPassBase<
          DeviceBoundaryPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Whether `func` is lowered for the device.
static bool isDeviceCandidate(func::FuncOp func) {
  return !func.isExternal() && !func->hasAttr(kHostAttrName);
}

/// Why a memref of `type` cannot cross the boundary, or empty.
static std::string checkBoundaryType(MemRefType type) {
  if (!type.hasStaticShape())
    return "has a dynamic shape";
  if (!type.getLayout().isIdentity())
    return "has a non-identity layout";
  if (type.getMemorySpace())
    return "is in a non-default memory space";
  if (!getStorageBytes(type))
    return "has an element type of unknown size";
  return "";
}

/// Whether `get` reads a constant global (copied to the device once).
static bool isConstantGlobal(memref::GetGlobalOp get) {
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  return global && global.getConstant();
}

/// Whether host memory `root` is only registered or copied from and to by
/// GPU copies (a swap's host arena), through views and casts.
static bool isOnlyCopied(Value root) {
  SmallVector<Value> worklist = {root};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      // A result returned in host memory is copied out by the boundary.
      if (isa<gpu::MemcpyOp, gpu::HostRegisterOp, gpu::HostUnregisterOp,
              func::ReturnOp>(user))
        continue;
      if (!isa<ViewLikeOpInterface>(user))
        return false;
      worklist.append(user->result_begin(), user->result_end());
    }
  }
  return true;
}

/// Checks that `func` can be rewritten; emits an error naming what cannot.
static LogicalResult checkFunction(func::FuncOp func) {
  auto fail = [&](const Twine &what) {
    return emitError(func.getLoc())
           << "memsched-device-boundary: cannot run '@" << func.getSymName()
           << "' on the device: " << what;
  };
  if (!func.getBody().hasOneBlock())
    return fail("it has several blocks");
  auto checkTypes = [&](TypeRange types, StringRef what) -> LogicalResult {
    for (auto [index, type] : llvm::enumerate(types)) {
      std::string why;
      if (isa<UnrankedMemRefType>(type))
        why = "is an unranked memref";
      else if (auto memref = dyn_cast<MemRefType>(type))
        why = checkBoundaryType(memref);
      if (!why.empty())
        return fail(what + " #" + Twine(index) + " " + why);
    }
    return success();
  };
  if (failed(checkTypes(func.getArgumentTypes(), "argument")) ||
      failed(checkTypes(func.getResultTypes(), "result")))
    return failure();
  WalkResult walk = func.walk([&](Operation *op) {
    if (isa<CallOpInterface>(op)) {
      emitError(op->getLoc())
          << "memsched-device-boundary: calls are not supported "
             "in a device function (the callee would copy its "
             "arguments from the host again); inline first";
      return WalkResult::interrupt();
    }
    if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
      if (std::string why = checkBoundaryType(global.getType()); !why.empty()) {
        emitError(op->getLoc()) << "memsched-device-boundary: global '@"
                                << global.getName() << "' " << why;
        return WalkResult::interrupt();
      }
      if (!isConstantGlobal(global) && !isOnlyCopied(global.getResult())) {
        emitError(op->getLoc())
            << "memsched-device-boundary: global '@" << global.getName()
            << "' is mutable host memory that device code would "
               "read or write; only constant globals are copied "
               "to the device";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Whether some op other than `filler` may write `root` or a view of it.
static bool mayBeWritten(Value root, Operation *filler) {
  llvm::SetVector<Value> aliases;
  aliases.insert(root);
  for (size_t i = 0; i < aliases.size(); ++i) {
    for (OpOperand &use : aliases[i].getUses()) {
      Operation *user = use.getOwner();
      if (user == filler)
        continue;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        aliases.insert(view.getViewDest());
        continue;
      }
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType()))
          aliases.insert(result);
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects)
        return true;
      if (effects.getEffectOnValue<MemoryEffects::Write>(aliases[i]))
        return true;
    }
  }
  return false;
}

static void rewriteFunction(func::FuncOp func) {
  MLIRContext *context = func.getContext();
  Block &block = func.getBody().front();
  Operation *terminator = block.getTerminator();
  Location loc = func.getLoc();
  OpBuilder entry = OpBuilder::atBlockBegin(&block);
  SmallVector<Value> deviceBuffers;
  int64_t argumentBytes = 0, constantBytes = 0, resultBytes = 0;

  // Arguments: copy in, and copy back what the body may write.
  SmallVector<std::pair<Value, Value>> copyBack;
  for (BlockArgument argument : block.getArguments()) {
    auto type = dyn_cast<MemRefType>(argument.getType());
    // An argument in host memory (offloaded) is only copied from, by the
    // body's own asynchronous copies.
    if (!type || argument.use_empty() ||
        func.getArgAttr(argument.getArgNumber(), kHostMemoryAttrName))
      continue;
    Value device = createBlockingAlloc(entry, loc, type);
    gpu::MemcpyOp copyIn = createBlockingCopy(entry, loc, device, argument);
    argument.replaceAllUsesExcept(device, copyIn);
    deviceBuffers.push_back(device);
    argumentBytes += *getStorageBytes(type);
    if (mayBeWritten(device, copyIn))
      copyBack.push_back({device, argument});
  }

  // Constants: one device copy per global, shared by every reader.
  llvm::MapVector<StringAttr, SmallVector<memref::GetGlobalOp>> globals;
  func.walk([&](memref::GetGlobalOp get) {
    if (isConstantGlobal(get))
      globals[get.getNameAttr().getAttr()].push_back(get);
  });
  for (auto &[name, gets] : globals) {
    MemRefType type = gets.front().getType();
    Value host = memref::GetGlobalOp::create(entry, loc, type, name);
    Value device = createBlockingAlloc(entry, loc, type);
    createBlockingCopy(entry, loc, device, host);
    for (memref::GetGlobalOp get : gets)
      get.getResult().replaceAllUsesWith(device);
    deviceBuffers.push_back(device);
    constantBytes += *getStorageBytes(type);
  }
  // Erased once `entry` inserts no more: its insertion point is the block's
  // first op as it was, which may be one of them.
  for (auto &[name, gets] : globals)
    for (memref::GetGlobalOp get : gets)
      get.erase();

  // Results: copy out into host buffers the caller owns.
  OpBuilder exit(terminator);
  for (OpOperand &operand : terminator->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    auto host = memref::AllocOp::create(exit, loc, type);
    host->setAttr(kHostBufferAttrName, UnitAttr::get(context));
    createBlockingCopy(exit, loc, host, operand.get());
    operand.set(host);
    resultBytes += *getStorageBytes(type);
  }
  for (auto [device, argument] : copyBack)
    createBlockingCopy(exit, loc, argument, device);
  for (Value device : deviceBuffers)
    createBlockingFree(exit, loc, device);

  Builder b(context);
  NamedAttribute fields[] = {
      b.getNamedAttr("argument_bytes", b.getI64IntegerAttr(argumentBytes)),
      b.getNamedAttr("constant_bytes", b.getI64IntegerAttr(constantBytes)),
      b.getNamedAttr("copied_back_arguments",
                     b.getI64IntegerAttr(copyBack.size())),
      b.getNamedAttr("resident_bytes",
                     b.getI64IntegerAttr(argumentBytes + constantBytes)),
      b.getNamedAttr("result_bytes", b.getI64IntegerAttr(resultBytes)),
  };
  func->setAttr(kDeviceAttrName, b.getDictionaryAttr(fields));
}

void DeviceBoundaryPass::runOnOperation() {
  SmallVector<func::FuncOp> functions;
  for (auto func : getOperation().getOps<func::FuncOp>())
    if (isDeviceCandidate(func) && !func->hasAttr(kDeviceAttrName))
      functions.push_back(func);
  // Check every function before rewriting any, so that an error leaves the
  // module unchanged.
  for (func::FuncOp func : functions)
    if (failed(checkFunction(func)))
      return signalPassFailure();
  for (func::FuncOp func : functions)
    rewriteFunction(func);
}
