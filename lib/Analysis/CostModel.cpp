//===- CostModel.cpp - Roofline cost of ops ---------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/CostModel.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::memsched;

/// Element type that decides which peak applies: the first shaped result's,
/// else the first shaped operand's.
static Type getComputeElementType(Operation *op) {
  for (Type type : op->getResultTypes())
    if (auto shaped = dyn_cast<ShapedType>(type))
      return shaped.getElementType();
  for (Type type : op->getOperandTypes())
    if (auto shaped = dyn_cast<ShapedType>(type))
      return shaped.getElementType();
  return op->getNumResults() ? op->getResult(0).getType() : Type();
}

/// Contractions and convolutions run on tensor cores where the device has
/// them; everything else runs at the vector-unit rate.
static bool runsOnMatrixUnits(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return false;
  return linalg::isaContractionOpInterface(linalgOp) ||
         linalg::isaConvolutionOpInterface(linalgOp);
}

OpCost CostModel::getCost(Operation *op) const {
  OpCost cost;
  if (auto costOp = dyn_cast<CostOpInterface>(op)) {
    cost.flops = costOp.getFlops();
    cost.bytesMoved = costOp.getBytesMoved();
    cost.workspaceBytes = costOp.getWorkspaceBytes();
  } else {
    cost.isEstimate = true;
    for (Type type : op->getResultTypes()) {
      if (auto shaped = dyn_cast<ShapedType>(type);
          shaped && shaped.hasStaticShape())
        cost.flops += shaped.getNumElements();
    }
    for (Value value : op->getOperands())
      cost.bytesMoved += getStorageBytes(value.getType()).value_or(0);
    for (Value value : op->getResults())
      cost.bytesMoved += getStorageBytes(value.getType()).value_or(0);
  }
  if (auto work = op->getAttrOfType<DictionaryAttr>(kWorkAttrName)) {
    cost.flops = getNonNegativeInteger(work.get("flops")).value_or(cost.flops);
    cost.bytesMoved =
        getNonNegativeInteger(work.get("bytes")).value_or(cost.bytesMoved);
    cost.isEstimate = false;
  }
  if (std::optional<int64_t> workspace =
          getNonNegativeInteger(op->getAttr(kWorkspaceAttrName)))
    cost.workspaceBytes = *workspace;

  if (Attribute measured = op->getAttr(kCostAttrName)) {
    cost.isMeasured = true;
    if (auto floatAttr = dyn_cast<FloatAttr>(measured))
      cost.seconds = floatAttr.getValueAsDouble();
    else if (std::optional<int64_t> seconds = getNonNegativeInteger(measured))
      cost.seconds = static_cast<double>(*seconds);
    return cost;
  }
  // Views and lazily allocated tensors launch no kernel.
  if (cost.flops == 0 && cost.bytesMoved == 0)
    return cost;
  double peak =
      device.getPeakFlops(getComputeElementType(op), runsOnMatrixUnits(op));
  double computeTime = peak > 0 ? double(cost.flops) / peak : 0.0;
  double memoryTime = device.memoryBandwidth > 0
                          ? double(cost.bytesMoved) / device.memoryBandwidth
                          : 0.0;
  cost.seconds = std::max(computeTime, memoryTime) + device.launchLatency;
  return cost;
}
