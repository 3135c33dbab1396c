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
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::memsched;

#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.cpp.inc"

/// The allocation size LLVM gives a scalar of `bits` bits: its store size
/// rounded up to its alignment, the next power of two up to 16 bytes.
static int64_t getAllocBytes(unsigned bits) {
  int64_t bytes = std::max<int64_t>(1, llvm::divideCeil(bits, 8));
  int64_t alignment = std::min<int64_t>(llvm::PowerOf2Ceil(bytes), 16);
  return llvm::alignTo(bytes, alignment);
}

std::optional<int64_t> mlir::memsched::getElementStorageBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (auto intType = dyn_cast<IntegerType>(type))
    return getAllocBytes(intType.getWidth());
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
      type.isF80() || type.isF128())
    return getAllocBytes(cast<FloatType>(type).getWidth());
  if (auto complexType = dyn_cast<ComplexType>(type)) {
    std::optional<int64_t> part =
        getElementStorageBytes(complexType.getElementType());
    if (part)
      return 2 * *part;
  }
  return std::nullopt;
}

/// The element count and element size of a static shape, when both are
/// known; the count saturates at INT64_MAX.
static std::optional<std::pair<int64_t, int64_t>>
getElementsAndSize(ShapedType shaped) {
  if (!shaped.hasRank() || !shaped.hasStaticShape())
    return std::nullopt;
  std::optional<int64_t> elementBytes =
      getElementStorageBytes(shaped.getElementType());
  if (!elementBytes)
    return std::nullopt;
  int64_t elements = 1;
  for (int64_t size : shaped.getShape())
    if (llvm::MulOverflow(elements, size, elements))
      return std::make_pair(std::numeric_limits<int64_t>::max(), *elementBytes);
  return std::make_pair(elements, *elementBytes);
}

std::optional<int64_t> mlir::memsched::getStorageBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return getElementStorageBytes(type);
  std::optional<std::pair<int64_t, int64_t>> parts = getElementsAndSize(shaped);
  if (!parts)
    return std::nullopt;
  int64_t bytes = 0;
  if (llvm::MulOverflow(parts->first, parts->second, bytes) ||
      bytes > kMaxStorageBytes)
    return std::nullopt;
  return bytes;
}

bool mlir::memsched::exceedsStorageLimit(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return false;
  std::optional<std::pair<int64_t, int64_t>> parts = getElementsAndSize(shaped);
  int64_t bytes = 0;
  return parts && (llvm::MulOverflow(parts->first, parts->second, bytes) ||
                   bytes > kMaxStorageBytes);
}
