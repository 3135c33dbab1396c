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

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
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

bool mlir::memsched::isOnlyReadBy(Value value, Operation *reader) {
  auto insert = dyn_cast<tensor::InsertSliceOp>(reader);
  return llvm::all_of(value.getUsers(), [&](Operation *user) {
    if (user == reader)
      return true;
    // The slice a piece computed in place starts from, when `reader`
    // inserts that piece into `value`.
    auto extract = dyn_cast<tensor::ExtractSliceOp>(user);
    return extract && insert && insert.getDest() == value &&
           getInPlaceSliceSource(insert) == extract;
  });
}

tensor::ExtractSliceOp
mlir::memsched::getInPlaceSliceSource(tensor::InsertSliceOp insert,
                                      SmallVectorImpl<Operation *> *writers) {
  Block *block = insert->getBlock();
  Value dest = insert.getDest();
  Value value = insert.getSource();
  // A tensor inserted into itself is no piece (and would make
  // isOnlyReadBy ask about this insertion again).
  if (value == dest)
    return {};
  // Walk the chain back from the stored value through the inits it was
  // written into; each value is read by the next op only (an elementwise op
  // may also read its init as an input).
  Operation *reader = insert;
  SmallVector<Operation *> chain;
  while (isOnlyReadBy(value, reader)) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != block)
      return {};
    if (auto extract = dyn_cast<tensor::ExtractSliceOp>(def)) {
      bool sameSlice =
          extract.getSource() == dest &&
          extract.getType() == insert.getSourceType() &&
          isEqualConstantIntOrValueArray(extract.getMixedOffsets(),
                                         insert.getMixedOffsets()) &&
          isEqualConstantIntOrValueArray(extract.getMixedSizes(),
                                         insert.getMixedSizes()) &&
          isEqualConstantIntOrValueArray(extract.getMixedStrides(),
                                         insert.getMixedStrides());
      bool destUsedOnlyHere =
          llvm::all_of(dest.getUsers(), [&](Operation *user) {
            return user == insert || user == extract;
          });
      if (!sameSlice || !destUsedOnlyHere)
        return {};
      if (writers)
        writers->append(chain.begin(), chain.end());
      return extract;
    }
    // Reshapes of the piece (a grouped convolution's result collapsed to
    // the piece's rank) are views on the way.
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def)) {
      value = def->getOperand(0);
      reader = def;
      continue;
    }
    auto dps = dyn_cast<DestinationStyleOpInterface>(def);
    auto result = dyn_cast<OpResult>(value);
    if (!dps || !result)
      return {};
    OpOperand *init = dps.getTiedOpOperand(result);
    if (!init)
      return {};
    chain.push_back(def);
    value = init->get();
    reader = def;
  }
  return {};
}
