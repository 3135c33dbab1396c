//===- MemschedInterfaces.cpp - memsched op interfaces ----------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the cost op interface and the storage-size helpers
// that define how many bytes a tensor occupies in memsched's memory model.
//
//===----------------------------------------------------------------------===//

#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::memsched;

#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.cpp.inc"

std::optional<int64_t> mlir::memsched::getElementStorageBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (auto intType = dyn_cast<IntegerType>(type))
    return std::max<int64_t>(1, llvm::divideCeil(intType.getWidth(), 8));
  if (auto floatType = dyn_cast<FloatType>(type))
    return std::max<int64_t>(1, llvm::divideCeil(floatType.getWidth(), 8));
  if (auto complexType = dyn_cast<ComplexType>(type)) {
    std::optional<int64_t> part =
        getElementStorageBytes(complexType.getElementType());
    if (part)
      return 2 * *part;
  }
  return std::nullopt;
}

std::optional<int64_t> mlir::memsched::getStorageBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return getElementStorageBytes(type);
  if (!shaped.hasRank() || !shaped.hasStaticShape())
    return std::nullopt;
  std::optional<int64_t> elementBytes =
      getElementStorageBytes(shaped.getElementType());
  if (!elementBytes)
    return std::nullopt;
  return shaped.getNumElements() * *elementBytes;
}
