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

#include "mlir/IR/OpDefinition.h"

#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h.inc"

namespace mlir {
class DialectRegistry;
namespace memsched {

/// Attaches `CostOpInterface` external models to linalg structured ops, tensor
/// ops, and arith/math elementwise ops.
void registerCostOpInterfaceExternalModels(DialectRegistry &registry);

/// Returns the bytes one element of `elementType` occupies in memory (i1 and i8
/// take one byte, index eight, complex<T> twice T), or std::nullopt when the
/// type has no fixed storage size.
std::optional<int64_t> getElementStorageBytes(Type elementType);

/// Returns the bytes of a statically shaped tensor or memref type, or
/// std::nullopt for dynamic shapes and unsized element types. Scalars of an
/// integer, index or float type count as their element size.
std::optional<int64_t> getStorageBytes(Type type);

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDINTERFACES_H
