//===- Passes.h - memsched passes -------------------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_PASSES_H
#define MEMSCHED_TRANSFORMS_PASSES_H

#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Scheduling/Remat.h"
#include "memsched/Scheduling/Swap.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::memsched {

/// What memsched-report writes.
enum class ReportFormat { Text, Json };

#define GEN_PASS_DECL
#include "memsched/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "memsched/Transforms/Passes.h.inc"

} // namespace mlir::memsched

#endif // MEMSCHED_TRANSFORMS_PASSES_H
