//===- Passes.h - memsched conversion passes --------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the passes that lower memsched programs towards a
// target: swap ops to host-arena copies, and tensor programs to GPU kernels,
// device allocations and copies.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_CONVERSION_PASSES_H
#define MEMSCHED_CONVERSION_PASSES_H

#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::memsched {

/// What memsched-lower-swaps turns swap ops into: synchronous host copies
/// (CPU) or asynchronous device-to-host copies (GPU).
enum class SwapLoweringTarget { Cpu, Gpu };

#define GEN_PASS_DECL
#include "memsched/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "memsched/Conversion/Passes.h.inc"

} // namespace mlir::memsched

#endif // MEMSCHED_CONVERSION_PASSES_H
