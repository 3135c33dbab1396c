//===- MemschedDialect.cpp - memsched dialect -------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the memsched dialect and the verification of its
// discardable attributes.
//
//===----------------------------------------------------------------------===//

#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Dialect/Memsched/IR/MemschedOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::memsched;

#include "memsched/Dialect/Memsched/IR/MemschedOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "memsched/Dialect/Memsched/IR/MemschedOpsTypes.cpp.inc"

#define GET_OP_CLASSES
#include "memsched/Dialect/Memsched/IR/MemschedOps.cpp.inc"

void MemschedDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "memsched/Dialect/Memsched/IR/MemschedOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "memsched/Dialect/Memsched/IR/MemschedOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// HostTensorType
//===----------------------------------------------------------------------===//

LogicalResult
HostTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                       RankedTensorType tensorType) {
  if (!tensorType.hasStaticShape())
    return emitError() << "!memsched.host needs a statically shaped tensor, "
                          "got "
                       << tensorType;
  if (tensorType.getEncoding())
    return emitError() << "!memsched.host does not take a tensor with an "
                          "encoding, got "
                       << tensorType;
  return success();
}

//===----------------------------------------------------------------------===//
// SwapOutOp / SwapInOp
//===----------------------------------------------------------------------===//

LogicalResult SwapOutOp::verify() {
  if (getResult().getType().getTensorType() != getSource().getType())
    return emitOpError() << "result " << getResult().getType()
                         << " does not hold the source type "
                         << getSource().getType();
  bool isReadBack = false;
  for (Operation *user : getResult().getUsers()) {
    if (isa<SwapWaitOp>(user))
      continue;
    if (!isa<SwapInOp, HostResultOp>(user))
      return emitOpError() << "result may only be read by memsched.swap_in, "
                              "memsched.host_result and memsched.swap_wait, "
                              "but '"
                           << user->getName() << "' reads it";
    isReadBack = true;
  }
  if (!isReadBack)
    return emitOpError() << "has no matching memsched.swap_in: the host copy "
                            "is never read back (nor returned by "
                            "memsched.host_result)";
  return success();
}

/// Checks that `op` reads a host copy made in its block: the result of a
/// memsched.swap_out, or also of a memsched.host_argument when
/// `allowHostArgument`.
static LogicalResult verifyReadsSwapOut(Operation *op, Value source,
                                        bool allowHostArgument = false) {
  Operation *def = source.getDefiningOp();
  bool isAccepted = isa_and_nonnull<SwapOutOp>(def) ||
                    (allowHostArgument && isa_and_nonnull<HostArgumentOp>(def));
  if (!isAccepted)
    return op->emitOpError()
           << "has no matching memsched.swap_out: its operand must be the "
              "result of a memsched.swap_out"
           << (allowHostArgument ? " or memsched.host_argument" : "");
  if (def->getBlock() != op->getBlock())
    return op->emitOpError()
           << "must be in the same block as its " << def->getName();
  return success();
}

LogicalResult SwapInOp::verify() {
  if (failed(verifyReadsSwapOut(*this, getSource(),
                                /*allowHostArgument=*/true)))
    return failure();
  if (getSource().getType().getTensorType() != getResult().getType())
    return emitOpError() << "result type " << getResult().getType()
                         << " differs from the swapped-out type "
                         << getSource().getType().getTensorType();
  return success();
}

LogicalResult SwapWaitOp::verify() {
  return verifyReadsSwapOut(*this, getSource());
}

//===----------------------------------------------------------------------===//
// HostArgumentOp / HostResultOp
//===----------------------------------------------------------------------===//

/// The function whose entry block defines `argument`, or null.
static func::FuncOp getEntryFunction(BlockArgument argument) {
  Block *block = argument.getOwner();
  auto func = dyn_cast_or_null<func::FuncOp>(block->getParentOp());
  return func && block->isEntryBlock() ? func : func::FuncOp();
}

LogicalResult HostArgumentOp::verify() {
  if (getResult().getType().getTensorType() != getSource().getType())
    return emitOpError() << "result " << getResult().getType()
                         << " does not hold the argument type "
                         << getSource().getType();
  auto argument = dyn_cast<BlockArgument>(getSource());
  func::FuncOp func = argument ? getEntryFunction(argument) : func::FuncOp();
  if (!func || !func.getArgAttr(argument.getArgNumber(), kHostMemoryAttrName))
    return emitOpError() << "operand must be an argument of the enclosing "
                            "function marked '"
                         << kHostMemoryAttrName << "'";
  return success();
}

LogicalResult HostResultOp::verify() {
  if (failed(verifyReadsSwapOut(*this, getSource())))
    return failure();
  if (getSource().getType().getTensorType() != getResult().getType())
    return emitOpError() << "result type " << getResult().getType()
                         << " differs from the swapped-out type "
                         << getSource().getType().getTensorType();
  auto func = (*this)->getParentOfType<func::FuncOp>();
  for (OpOperand &use : getResult().getUses()) {
    auto ret = dyn_cast<func::ReturnOp>(use.getOwner());
    if (!ret || !func ||
        !func.getResultAttr(use.getOperandNumber(), kHostMemoryAttrName))
      return emitOpError() << "result may only be returned, at a result "
                              "marked '"
                           << kHostMemoryAttrName << "'";
  }
  return success();
}

/// The function body a `memsched.host_memory` attribute of `op` constrains:
/// null when there is nothing to check (another attribute, an external
/// function), failure when the attribute is misplaced or malformed.
static FailureOr<func::FuncOp> getHostMemoryFunction(Operation *op,
                                                     unsigned region,
                                                     NamedAttribute attribute) {
  if (attribute.getName().getValue() != kHostMemoryAttrName)
    return func::FuncOp();
  auto func = dyn_cast<func::FuncOp>(op);
  if (!func || region != 0 || !isa<UnitAttr>(attribute.getValue()))
    return op->emitOpError() << "'" << kHostMemoryAttrName
                             << "' is a unit attribute of function arguments "
                                "and results";
  return func.isExternal() ? func::FuncOp() : func;
}

LogicalResult MemschedDialect::verifyRegionArgAttribute(
    Operation *op, unsigned region, unsigned index, NamedAttribute attribute) {
  FailureOr<func::FuncOp> func = getHostMemoryFunction(op, region, attribute);
  if (failed(func) || !*func)
    return failure(failed(func));
  BlockArgument argument = func->getArgument(index);
  // Once bufferized (for the GPU), the argument is the caller's host buffer
  // that the lowered copies read.
  if (isa<BaseMemRefType>(argument.getType()))
    return success();
  auto type = dyn_cast<RankedTensorType>(argument.getType());
  if (!type ||
      !HostTensorType::verifyInvariants([&] { return op->emitOpError(); }, type)
           .succeeded())
    return op->emitOpError()
           << "argument #" << index << " marked '" << kHostMemoryAttrName
           << "' must be a statically shaped tensor";
  // memsched-lower-swaps reads it through bufferization.to_buffer on the
  // way to the GPU.
  for (Operation *user : argument.getUsers())
    if (!isa<HostArgumentOp, bufferization::ToBufferOp>(user))
      return op->emitOpError() << "argument #" << index
                               << " is in host memory ('" << kHostMemoryAttrName
                               << "'): only memsched.host_argument may read "
                               << "it, but '" << user->getName() << "' does";
  return success();
}

LogicalResult MemschedDialect::verifyRegionResultAttribute(
    Operation *op, unsigned region, unsigned index, NamedAttribute attribute) {
  FailureOr<func::FuncOp> func = getHostMemoryFunction(op, region, attribute);
  if (failed(func) || !*func)
    return failure(failed(func));
  if (!isa<TensorType>(func->getResultTypes()[index]))
    return success();
  for (Block &block : func->getBody())
    if (auto ret = dyn_cast<func::ReturnOp>(block.getTerminator()))
      if (!ret.getOperand(index).getDefiningOp<HostResultOp>())
        return op->emitOpError()
               << "result #" << index << " is in host memory ('"
               << kHostMemoryAttrName
               << "'): it must be returned by memsched.host_result";
  return success();
}

// Swaps issue copies and return at once: no compute-stream work. A wait's
// time is the stall the time model computes, not a cost of its own.
int64_t SwapOutOp::getFlops() { return 0; }
int64_t SwapOutOp::getBytesMoved() { return 0; }
int64_t SwapInOp::getFlops() { return 0; }
int64_t SwapInOp::getBytesMoved() { return 0; }
int64_t SwapWaitOp::getFlops() { return 0; }
int64_t SwapWaitOp::getBytesMoved() { return 0; }
int64_t HostArgumentOp::getFlops() { return 0; }
int64_t HostArgumentOp::getBytesMoved() { return 0; }
int64_t HostResultOp::getFlops() { return 0; }
int64_t HostResultOp::getBytesMoved() { return 0; }

std::optional<int64_t> mlir::memsched::getNonNegativeInteger(Attribute attr) {
  auto intAttr = dyn_cast_or_null<IntegerAttr>(attr);
  if (!intAttr)
    return std::nullopt;
  const APInt &value = intAttr.getValue();
  bool isUnsigned = intAttr.getType().isUnsignedInteger();
  if ((!isUnsigned && value.isNegative()) || value.getActiveBits() > 63)
    return std::nullopt;
  return static_cast<int64_t>(value.getZExtValue());
}

/// Returns true if `attr` is a number that is not negative (and, for
/// integers, fits in 64 bits).
static bool isNonNegativeNumber(Attribute attr, bool allowFloat) {
  if (isa<IntegerAttr>(attr))
    return getNonNegativeInteger(attr).has_value();
  if (auto floatAttr = dyn_cast<FloatAttr>(attr); floatAttr && allowFloat) {
    double value = floatAttr.getValueAsDouble();
    return value >= 0.0 && std::isfinite(value);
  }
  return false;
}

/// Whether `attr` is a dictionary of exactly `keys`, each a non-negative
/// integer.
static bool isCountDictionary(Attribute attr, ArrayRef<StringRef> keys) {
  auto dictionary = dyn_cast<DictionaryAttr>(attr);
  return dictionary && dictionary.size() == keys.size() &&
         llvm::all_of(keys, [&](StringRef key) {
           Attribute value = dictionary.get(key);
           return value && isNonNegativeNumber(value, /*allowFloat=*/false);
         });
}

LogicalResult
MemschedDialect::verifyOperationAttribute(Operation *op,
                                          NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (name == kCostAttrName) {
    if (!isNonNegativeNumber(attribute.getValue(), /*allowFloat=*/true))
      return op->emitOpError()
             << "expects '" << kCostAttrName
             << "' to be a non-negative number of seconds, got "
             << attribute.getValue();
    return success();
  }
  if (name == kWorkAttrName) {
    if (!isCountDictionary(attribute.getValue(), {"flops", "bytes"}))
      return op->emitOpError()
             << "expects '" << kWorkAttrName
             << "' to be {flops = <integer>, bytes = <integer>} with "
                "non-negative values, got "
             << attribute.getValue();
    return success();
  }
  if (name == kWorkspaceAttrName) {
    if (!isNonNegativeNumber(attribute.getValue(), /*allowFloat=*/false))
      return op->emitOpError()
             << "expects '" << kWorkspaceAttrName
             << "' to be a non-negative integer number of bytes, got "
             << attribute.getValue();
    return success();
  }
  if (name == kRecursiveCallAttrName) {
    if (!isa<UnitAttr>(attribute.getValue()))
      return op->emitOpError()
             << "expects '" << kRecursiveCallAttrName
             << "' to be a unit attribute, got " << attribute.getValue();
    return success();
  }
  if (name == kRecomputeAttrName || name == kAllocationAttrName ||
      name == kInstanceAttrName || name == kConcatResultAttrName) {
    if (!isNonNegativeNumber(attribute.getValue(), /*allowFloat=*/false))
      return op->emitOpError() << "expects '" << name
                               << "' to be a non-negative integer number, got "
                               << attribute.getValue();
    return success();
  }
  if (name == kReorderAttrName || name == kPlanAttrName ||
      name == kRematAttrName || name == kSwapAttrName || name == kFitAttrName ||
      name == kSplitAttrName || name == kFuseAttrName ||
      name == kOffloadAttrName || name == kDeviceAttrName) {
    if (!isa<DictionaryAttr>(attribute.getValue()))
      return op->emitOpError()
             << "expects '" << name << "' to be a dictionary, got "
             << attribute.getValue();
    return success();
  }
  if (name == kArenaAttrName || name == kHostAttrName ||
      name == kHostBufferAttrName) {
    if (!isa<UnitAttr>(attribute.getValue()))
      return op->emitOpError()
             << "expects '" << name << "' to be a unit attribute";
    return success();
  }
  if (name == kTrainingStepAttrName) {
    if (!isa<FunctionOpInterface>(op) ||
        !isCountDictionary(attribute.getValue(),
                           {"parameters", "optimizer_state"}))
      return op->emitOpError()
             << "expects '" << kTrainingStepAttrName
             << "' on a function, as {parameters = <integer>, "
                "optimizer_state = <integer>}, got "
             << attribute.getValue();
    return success();
  }
  if (name == kKernelAttrName || name == kTargetDeviceAttrName) {
    if (!isa<StringAttr>(attribute.getValue()))
      return op->emitOpError()
             << "expects '" << name << "' to be a string, got "
             << attribute.getValue();
    return success();
  }
  return op->emitOpError() << "has unknown memsched attribute '" << name << "'";
}
