//===- GpuCalls.h - Blocking GPU allocations and copies ---------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// The GPU-to-LLVM lowering only lowers the asynchronous forms of gpu.alloc,
// gpu.memcpy and gpu.dealloc. These helpers emit each as an asynchronous op
// on a fresh stream followed by a wait, which is a blocking call for the
// host: ordered with every kernel launch (launches are blocking too), so no
// token threading is needed between them.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_CONVERSION_GPUCALLS_H
#define MEMSCHED_LIB_CONVERSION_GPUCALLS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::memsched {

/// A token for a new stream, for the first op of an asynchronous chain.
inline Value createStreamToken(OpBuilder &builder, Location loc) {
  return gpu::WaitOp::create(builder, loc,
                             gpu::AsyncTokenType::get(builder.getContext()),
                             ValueRange())
      .getAsyncToken();
}

/// Allocates device memory of `type`; returns once it is allocated.
inline Value createBlockingAlloc(OpBuilder &builder, Location loc,
                                 MemRefType type,
                                 ValueRange dynamicSizes = {}) {
  Value stream = createStreamToken(builder, loc);
  auto alloc = gpu::AllocOp::create(
      builder, loc, type, gpu::AsyncTokenType::get(builder.getContext()),
      ValueRange{stream}, dynamicSizes, ValueRange(), /*hostShared=*/false);
  gpu::WaitOp::create(builder, loc, Type(), ValueRange{alloc.getAsyncToken()});
  return alloc.getMemref();
}

/// Copies `source` into `target` (either side may be host or device memory);
/// returns once the copy is complete.
inline gpu::MemcpyOp createBlockingCopy(OpBuilder &builder, Location loc,
                                        Value target, Value source) {
  Value stream = createStreamToken(builder, loc);
  auto copy = gpu::MemcpyOp::create(
      builder, loc, gpu::AsyncTokenType::get(builder.getContext()),
      ValueRange{stream}, target, source);
  gpu::WaitOp::create(builder, loc, Type(), ValueRange{copy.getAsyncToken()});
  return copy;
}

/// Frees device memory; returns once it is freed.
inline void createBlockingFree(OpBuilder &builder, Location loc, Value memref) {
  Value stream = createStreamToken(builder, loc);
  Value done = gpu::DeallocOp::create(
                   builder, loc, gpu::AsyncTokenType::get(builder.getContext()),
                   ValueRange{stream}, memref)
                   .getAsyncToken();
  gpu::WaitOp::create(builder, loc, Type(), ValueRange{done});
}

} // namespace mlir::memsched

#endif // MEMSCHED_LIB_CONVERSION_GPUCALLS_H
