//===- LowerSwaps.cpp - memsched-lower-swaps pass ---------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file lowers memsched.swap_out / memsched.swap_in to copies into a
// host arena, before bufferization: synchronous copies on CPU (results stay
// bit-identical and bufferization frees each device buffer after its last
// use), asynchronous gpu.memcpy on the copy streams with tokens on GPU.
// The arena is a global with a slot per swap-out, so a function that calls
// itself between a swap-out and its swap-in would overwrite its own slot;
// memsched's functions are training steps that do not recurse.
//
//===----------------------------------------------------------------------===//

#include "GpuCalls.h"
#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Conversion/Passes.h"
#include "memsched/Dialect/Memsched/IR/MemschedOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDLOWERSWAPSPASS
#include "memsched/Conversion/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

/// Host slots are aligned for vector loads and DMA.
static constexpr int64_t kHostSlotAlignment = 64;

namespace {
struct LowerSwapsPass
    : public memsched::impl::MemschedLowerSwapsPassBase<LowerSwapsPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult lowerFunction(func::FuncOp func, SymbolTable &symbols,
                              bool toGpu);
  /// Times ops to place the end of each swap-out on GPU.
  std::optional<CostModel> costs;
};
} // namespace

/// The memref type a slot is viewed as: the tensor's shape and element type,
/// identity layout.
/// \p source and what may view its buffer (getViewCandidateSource: slices,
/// casts, reshapes), transitively.
static SetVector<Value> getViews(Value source) {
  SetVector<Value> views;
  views.insert(source);
  for (size_t next = 0; next < views.size(); ++next)
    for (Operation *user : views[next].getUsers())
      if (getViewCandidateSource(user) == views[next])
        views.insert(user->result_begin(), user->result_end());
  return views;
}

/// Whether \p op (or an op inside it) writes into the buffer of \p views
/// (getViews): a destination operand among them, which bufferization
/// writes in place. A copy out of that buffer must have ended before.
static bool writesInto(Operation *op, const SetVector<Value> &views) {
  return op
      ->walk([&](DestinationStyleOpInterface dps) {
        for (OpOperand &init : dps.getDpsInitsMutable())
          if (views.contains(init.get()))
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

static MemRefType getSlotType(RankedTensorType type) {
  return MemRefType::get(type.getShape(), type.getElementType());
}

/// A copy of tensor `source` in a new tensor (a new buffer once
/// bufferized): how the CPU lowering reads host memory back.
static Value copyIntoNewTensor(OpBuilder &b, Location at, Value source) {
  auto type = cast<RankedTensorType>(source.getType());
  Value empty =
      tensor::EmptyOp::create(b, at, type.getShape(), type.getElementType());
  return linalg::CopyOp::create(b, at, source, empty).getResult(0);
}

/// Lowers `in` to an asynchronous copy from host memory `source` into a
/// new device buffer, waited for right before the first reader.
static void lowerSwapInToGpu(SwapInOp in, Value source, Block &entry) {
  OpBuilder b(in);
  Location at = in.getLoc();
  RankedTensorType type = in.getType();
  // A plain allocation: buffer planning places it in the arena from here
  // to its last reader.
  Value buffer = memref::AllocOp::create(b, at, getSlotType(type));
  Value copied = gpu::MemcpyOp::create(
                     b, at, gpu::AsyncTokenType::get(in.getContext()),
                     ValueRange{createStreamToken(b, at)}, buffer, source)
                     .getAsyncToken();
  // Compute waits for the copy only right before the first reader.
  Operation *firstReader = nullptr;
  for (Operation *user : in.getResult().getUsers()) {
    Operation *reader = entry.findAncestorOpInBlock(*user);
    if (reader && (!firstReader || reader->isBeforeInBlock(firstReader)))
      firstReader = reader;
  }
  OpBuilder waitBuilder(firstReader ? firstReader : entry.getTerminator());
  gpu::WaitOp::create(waitBuilder, at, Type(), ValueRange{copied});
  auto tensor = bufferization::ToTensorOp::create(waitBuilder, at, type, buffer,
                                                  /*restrict=*/true,
                                                  /*writable=*/true);
  in.getResult().replaceAllUsesWith(tensor.getResult());
}

LogicalResult LowerSwapsPass::lowerFunction(func::FuncOp func,
                                            SymbolTable &symbols, bool toGpu) {
  SmallVector<SwapOutOp> outs;
  SmallVector<SwapInOp> ins;
  SmallVector<SwapWaitOp> waits;
  SmallVector<HostArgumentOp> hostArguments;
  SmallVector<HostResultOp> hostResults;
  func.walk([&](Operation *op) {
    if (auto out = dyn_cast<SwapOutOp>(op))
      outs.push_back(out);
    else if (auto in = dyn_cast<SwapInOp>(op))
      ins.push_back(in);
    else if (auto wait = dyn_cast<SwapWaitOp>(op))
      waits.push_back(wait);
    else if (auto argument = dyn_cast<HostArgumentOp>(op))
      hostArguments.push_back(argument);
    else if (auto result = dyn_cast<HostResultOp>(op))
      hostResults.push_back(result);
  });
  Block &entry = func.getBody().front();
  // Offloaded arguments. On the CPU, host memory is where every tensor
  // lives: a copy in is a copy of the argument. On the GPU, the caller's
  // buffer is pinned for the call and copied from asynchronously.
  DenseMap<Operation *, Value> argumentBufferOf;
  if (toGpu) {
    OpBuilder atEntry = OpBuilder::atBlockBegin(&entry);
    OpBuilder atExit(entry.getTerminator());
    for (HostArgumentOp argument : hostArguments) {
      Location at = argument.getLoc();
      Value buffer = bufferization::ToBufferOp::create(
          atEntry, at, getSlotType(argument.getSource().getType()),
          argument.getSource(), /*readOnly=*/true);
      auto unranked = UnrankedMemRefType::get(
          argument.getSource().getType().getElementType(), 0);
      gpu::HostRegisterOp::create(
          atEntry, at, memref::CastOp::create(atEntry, at, unranked, buffer));
      gpu::HostUnregisterOp::create(
          atExit, at, memref::CastOp::create(atExit, at, unranked, buffer));
      argumentBufferOf[argument] = buffer;
    }
  }
  for (SwapInOp &in : ins) {
    auto argument = in.getSource().getDefiningOp<HostArgumentOp>();
    if (!argument)
      continue;
    if (toGpu) {
      lowerSwapInToGpu(in, argumentBufferOf.lookup(argument), entry);
    } else {
      OpBuilder b(in);
      in.getResult().replaceAllUsesWith(
          copyIntoNewTensor(b, in.getLoc(), argument.getSource()));
    }
    in.erase();
    in = nullptr;
  }
  llvm::erase(ins, nullptr);
  for (HostArgumentOp argument : hostArguments)
    argument.erase();
  // On the CPU every buffer below the tensor level is plain memory: the
  // convention has done its work. The GPU's device boundary reads it on
  // arguments (not to copy them in); a result in host memory is a view of
  // the host arena, which the boundary copies out like any result.
  if (!toGpu)
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      func.removeArgAttr(i, kHostMemoryAttrName);
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    func.removeResultAttr(
        i, StringAttr::get(func.getContext(), kHostMemoryAttrName));
  if (outs.empty())
    return success();
  // One slot per swap-out for the whole call: the host arena is cheap next
  // to device memory, and slots never alias.
  DenseMap<Operation *, int64_t> offsetOf;
  int64_t arenaBytes = 0;
  for (SwapOutOp out : outs) {
    // Sized by the check before any rewrite.
    int64_t bytes = *getStorageBytes(out.getSource().getType());
    offsetOf[out] = arenaBytes;
    arenaBytes +=
        llvm::alignTo(std::max<int64_t>(bytes, 1), kHostSlotAlignment);
  }

  MLIRContext *context = func.getContext();
  Location loc = func.getLoc();
  auto arenaType = MemRefType::get({arenaBytes}, IntegerType::get(context, 8));
  OpBuilder moduleBuilder(func);
  auto global = memref::GlobalOp::create(
      moduleBuilder, loc, ("__memsched_host_arena_" + func.getSymName()).str(),
      moduleBuilder.getStringAttr("private"), arenaType, Attribute(),
      /*constant=*/false, moduleBuilder.getI64IntegerAttr(kHostSlotAlignment));
  symbols.insert(global);

  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  Value arena =
      memref::GetGlobalOp::create(builder, loc, arenaType, global.getSymName());
  if (toGpu) {
    // Pinned memory, so that the copies are truly asynchronous.
    auto unranked = UnrankedMemRefType::get(IntegerType::get(context, 8), 0);
    Value cast = memref::CastOp::create(builder, loc, unranked, arena);
    gpu::HostRegisterOp::create(builder, loc, cast);
  }
  auto viewSlot = [&](OpBuilder &b, Location at, SwapOutOp out) {
    Value offset = arith::ConstantIndexOp::create(b, at, offsetOf.lookup(out));
    return memref::ViewOp::create(b, at, getSlotType(out.getSource().getType()),
                                  arena, offset, ValueRange())
        .getResult();
  };

  auto tokenType = gpu::AsyncTokenType::get(context);
  // The first swap-in of each swap-out (several may read one host copy):
  // the copy out must be complete before any of them starts.
  DenseMap<Operation *, SwapInOp> inOf;
  for (SwapInOp in : ins) {
    SwapInOp &first = inOf[in.getSource().getDefiningOp()];
    if (!first || in->isBeforeInBlock(first))
      first = in;
  }
  // The first planned stall of each swap-out.
  DenseMap<Operation *, SwapWaitOp> waitOf;
  for (SwapWaitOp wait : waits) {
    SwapWaitOp &first = waitOf[wait.getSource().getDefiningOp()];
    if (!first || wait->isBeforeInBlock(first))
      first = wait;
  }
  for (SwapOutOp out : outs) {
    OpBuilder b(out);
    Location at = out.getLoc();
    Value slot = viewSlot(b, at, out);
    if (!toGpu) {
      auto copy = bufferization::MaterializeInDestinationOp::create(
          b, at, TypeRange(), out.getSource(), slot);
      copy.setRestrict(true);
      copy.setWritable(true);
      continue;
    }
    Value source = bufferization::ToBufferOp::create(
        b, at, getSlotType(out.getSource().getType()), out.getSource(),
        /*readOnly=*/true);
    Value copied = gpu::MemcpyOp::create(b, at, tokenType,
                                         ValueRange{createStreamToken(b, at)},
                                         slot, source)
                       .getAsyncToken();
    // The device buffer is free once the copy is done: wait for it where the
    // time model says it has ended, so that buffer planning reuses the
    // buffer from there on (it keeps a buffer live until the wait), and at
    // the latest at a planned stall, right before the swap-in, or right
    // before an op writing into the tensor (a write over a swapped value
    // follows a planned stall; this also holds where later passes moved
    // ops).
    double copySeconds =
        costs->getDevice().copyLatency +
        static_cast<double>(*getStorageBytes(out.getSource().getType())) /
            std::max(costs->getDevice().deviceToHostBandwidth, 1.0);
    Operation *swapIn = inOf.lookup(out);
    Operation *stall = waitOf.lookup(out);
    Operation *release = out->getNextNode();
    SetVector<Value> views = getViews(out.getSource());
    for (double elapsed = 0;
         release != swapIn && release != stall && elapsed < copySeconds &&
         !isa<HostResultOp>(release) &&
         !release->hasTrait<OpTrait::IsTerminator>() &&
         !writesInto(release, views);
         release = release->getNextNode())
      elapsed += costs->getCost(release).seconds;
    OpBuilder releaseBuilder(release);
    gpu::WaitOp::create(releaseBuilder, at, Type(), ValueRange{copied});
  }
  for (SwapInOp in : ins) {
    OpBuilder b(in);
    Location at = in.getLoc();
    Value slot = viewSlot(b, at, in.getSource().getDefiningOp<SwapOutOp>());
    RankedTensorType type = in.getType();
    if (!toGpu) {
      Value host = bufferization::ToTensorOp::create(b, at, type, slot,
                                                     /*restrict=*/true);
      in.getResult().replaceAllUsesWith(copyIntoNewTensor(b, at, host));
      continue;
    }
    lowerSwapInToGpu(in, slot, entry);
  }
  // A gradient returned in host memory: its copy out of the device, read
  // back into the returned tensor (host memory on both targets once the
  // device boundary has copied results out).
  for (HostResultOp result : hostResults) {
    OpBuilder b(result);
    Location at = result.getLoc();
    Value slot = viewSlot(b, at, result.getSource().getDefiningOp<SwapOutOp>());
    RankedTensorType type = result.getType();
    Value host = bufferization::ToTensorOp::create(b, at, type, slot,
                                                   /*restrict=*/true);
    // On the GPU the slot is returned as it is: the device boundary copies
    // it into the caller's buffer, host to host, once the copy out (waited
    // for above, at the latest here) has ended.
    result.getResult().replaceAllUsesWith(
        toGpu ? host : copyIntoNewTensor(b, at, host));
    result.erase();
  }
  // On CPU the copies are synchronous: a stall has nothing to wait for.
  for (SwapWaitOp wait : waits)
    wait.erase();
  for (SwapInOp in : ins)
    in.erase();
  for (SwapOutOp out : outs)
    out.erase();
  return success();
}

void LowerSwapsPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<DeviceSpec> spec =
      DeviceSpec::resolveOrEmitError(device, module, "memsched-lower-swaps");
  if (failed(spec))
    return signalPassFailure();
  costs.emplace(*spec);
  SymbolTable symbols(module);
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  // Check every function before rewriting any, so a failure leaves the
  // module unchanged.
  bool supported = true;
  for (func::FuncOp func : funcs) {
    WalkResult swaps = func.walk([](Operation *op) {
      return isa<SwapOutOp, SwapInOp, SwapWaitOp, HostArgumentOp, HostResultOp>(
                 op)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (swaps.wasInterrupted() && !func.getBody().hasOneBlock()) {
      emitError(func.getLoc()) << "memsched-lower-swaps handles single-block "
                                  "functions only";
      supported = false;
    }
    func.walk([&](SwapOutOp out) {
      if (!getStorageBytes(out.getSource().getType())) {
        emitError(out.getLoc())
            << "memsched-lower-swaps cannot size " << out.getSource().getType();
        supported = false;
      }
    });
  }
  if (!supported)
    return signalPassFailure();
  for (func::FuncOp func : funcs)
    if (failed(lowerFunction(func, symbols, target == SwapLoweringTarget::Gpu)))
      return signalPassFailure();
}
