//===- MemschedInterfaces.h - memsched op interfaces ------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the cost op interface and the function that attaches it
// to upstream ops as external models.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDINTERFACES_H
#define MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDINTERFACES_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/OpDefinition.h"

#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h.inc"

namespace mlir {
class DialectRegistry;
namespace memsched {

/// Attaches `CostOpInterface` external models to linalg structured ops, tensor
/// ops, and arith/math elementwise ops.
void registerCostOpInterfaceExternalModels(DialectRegistry &registry);

/// The largest byte count memsched plans with (2^62): every sum of buffer
/// sizes of a function stays within 64 bits.
inline constexpr int64_t kMaxStorageBytes = int64_t(1) << 62;

/// Returns the bytes one element of `elementType` occupies in memory, as the
/// LLVM lowering allocates it (the data layouts of x86-64 and NVPTX agree on
/// these): an integer of N bits takes ceil(N/8) bytes rounded up to its
/// alignment, the next power of two up to 16 (i1 and i8 one byte, i17 and i24
/// four, i33 and i48 eight, i65 sixteen); f16/bf16 2, f32 4, f64 8, f80 and
/// f128 16; index 8; complex<T> twice T. std::nullopt for types without a
/// fixed storage size and for float types the lowering does not support
/// (the f8, f6 and f4 families, tf32).
std::optional<int64_t> getElementStorageBytes(Type elementType);

/// Returns the bytes of a statically shaped tensor or memref type, or
/// std::nullopt for dynamic shapes, unsized element types and sizes above
/// kMaxStorageBytes. Scalars of an integer, index or float type count as
/// their element size.
std::optional<int64_t> getStorageBytes(Type type);

/// Whether `type` is statically shaped with a sized element type but holds
/// more than kMaxStorageBytes bytes (a size memsched refuses).
bool exceedsStorageLimit(Type type);

/// If `insert` stores a value computed in its own slice of the destination,
/// returns the `tensor.extract_slice` of that slice: destination-style ops
/// chained through their inits, and reshapes (`collapse_shape`,
/// `expand_shape`) of the values between them, each value read by the next
/// op only (isOnlyReadBy), all in `insert`'s block, from an extract_slice of
/// `insert`'s destination with the same offsets, sizes and strides; the
/// destination read by only that slice and `insert`. One-shot bufferization
/// then writes the chain into the destination's buffer and the insertion copies
/// nothing (the copy of a subview onto itself folds away). Null otherwise.
/// With `writers`, adds the destination-style ops of the chain (the ops
/// that write into the slice) to it when there is one.
tensor::ExtractSliceOp
getInPlaceSliceSource(tensor::InsertSliceOp insert,
                      SmallVectorImpl<Operation *> *writers = nullptr);

/// Whether nothing but `reader` reads `value`, the next op of a chain that
/// computes a piece in place: besides `reader`, only the slice that starts
/// a piece `reader` inserts into `value` in place (so a concatenation can
/// itself be a piece, e.g. computed in the interior of a padded tensor).
bool isOnlyReadBy(Value value, Operation *reader);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDINTERFACES_H
