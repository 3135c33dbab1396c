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
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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

bool mlir::memsched::isStructuredControlFlow(Operation *op) {
  return isa<scf::ForOp, scf::ForallOp, scf::IfOp, scf::WhileOp,
             scf::ExecuteRegionOp, scf::IndexSwitchOp>(op);
}

/// Work figures saturate rather than wrap: a loop's trip count times its
/// body's work can exceed 64 bits.
static int64_t saturatingMul(int64_t value, int64_t factor) {
  int64_t product;
  if (llvm::MulOverflow(value, factor, product))
    return std::numeric_limits<int64_t>::max();
  return product;
}
static int64_t saturatingAdd(int64_t value, int64_t other) {
  int64_t sum;
  if (llvm::AddOverflow(value, other, sum))
    return std::numeric_limits<int64_t>::max();
  return sum;
}

/// The trip count of a loop dimension with constant bounds and a positive
/// step; std::nullopt otherwise.
static std::optional<int64_t> getTripCount(OpFoldResult lowerBound,
                                           OpFoldResult upperBound,
                                           OpFoldResult stepSize) {
  std::optional<int64_t> lower = getConstantIntValue(lowerBound);
  std::optional<int64_t> upper = getConstantIntValue(upperBound);
  std::optional<int64_t> step = getConstantIntValue(stepSize);
  int64_t span;
  if (!lower || !upper || !step || *step <= 0 ||
      llvm::SubOverflow(*upper, *lower, span))
    return std::nullopt;
  return span > 0 ? llvm::divideCeil(span, *step) : 0;
}

void OpCost::add(const OpCost &other) {
  flops = saturatingAdd(flops, other.flops);
  bytesMoved = saturatingAdd(bytesMoved, other.bytesMoved);
  seconds += other.seconds;
  workspaceBytes = std::max(workspaceBytes, other.workspaceBytes);
  isMeasured |= other.isMeasured;
  isEstimate |= other.isEstimate;
}

OpCost CostModel::getControlFlowCost(Operation *op) const {
  SmallVector<OpCost> regionCosts;
  bool isEstimate = isa<scf::WhileOp>(op);
  for (Region &region : op->getRegions()) {
    OpCost regionCost;
    for (Block &block : region)
      for (Operation &nested : block.without_terminator())
        regionCost.add(getCost(&nested));
    regionCosts.push_back(regionCost);
  }
  OpCost total;
  // A choice runs one of its regions: the costliest bounds it. A loop's
  // regions (scf.while's condition and body) all run, each iteration.
  bool isChoice = isa<scf::IfOp, scf::IndexSwitchOp>(op);
  for (const OpCost &cost : regionCosts) {
    if (!isChoice) {
      total.add(cost);
      continue;
    }
    total.workspaceBytes = std::max(total.workspaceBytes, cost.workspaceBytes);
    total.isEstimate |= cost.isEstimate;
    total.isMeasured |= cost.isMeasured;
    if (cost.seconds >= total.seconds) {
      total.seconds = cost.seconds;
      total.flops = cost.flops;
      total.bytesMoved = cost.bytesMoved;
    }
  }
  // A loop runs its body once per trip: an scf.for its trip count (signed
  // bounds; an unsigned loop's is estimated as one trip), an scf.forall the
  // product over its dimensions (its iterations one after another, as the
  // lowerings run them).
  std::optional<int64_t> trips;
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    trips = forOp.getUnsignedCmp()
                ? std::nullopt
                : getTripCount(forOp.getLowerBound(), forOp.getUpperBound(),
                               forOp.getStep());
  } else if (auto forallOp = dyn_cast<scf::ForallOp>(op)) {
    trips = 1;
    for (auto [lower, upper, step] :
         llvm::zip(forallOp.getMixedLowerBound(), forallOp.getMixedUpperBound(),
                   forallOp.getMixedStep())) {
      std::optional<int64_t> dimTrips = getTripCount(lower, upper, step);
      if (!dimTrips) {
        isEstimate = true;
        continue;
      }
      trips = saturatingMul(*trips, *dimTrips);
    }
  }
  if (isa<scf::ForOp, scf::ForallOp>(op)) {
    isEstimate |= !trips;
    int64_t factor = trips.value_or(1);
    total.flops = saturatingMul(total.flops, factor);
    total.bytesMoved = saturatingMul(total.bytesMoved, factor);
    total.seconds *= static_cast<double>(factor);
  }
  total.isEstimate |= isEstimate;
  return total;
}

OpCost CostModel::getCost(Operation *op) const {
  // Control flow is timed by its bodies; the attributes below still apply.
  bool isControlFlow = isStructuredControlFlow(op);
  OpCost cost;
  if (isControlFlow) {
    cost = getControlFlowCost(op);
  } else if (auto costOp = dyn_cast<CostOpInterface>(op)) {
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
  auto work = op->getAttrOfType<DictionaryAttr>(kWorkAttrName);
  if (work && !isControlFlow) {
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
  if (isControlFlow || (cost.flops == 0 && cost.bytesMoved == 0))
    return cost;
  cost.seconds = getSeconds(cost, device.getPeakFlops(getComputeElementType(op),
                                                      runsOnMatrixUnits(op)));
  return cost;
}

double CostModel::getSeconds(const OpCost &cost, double peakFlops) const {
  double computeTime = peakFlops > 0 ? double(cost.flops) / peakFlops : 0.0;
  double memoryTime = device.memoryBandwidth > 0
                          ? double(cost.bytesMoved) / device.memoryBandwidth
                          : 0.0;
  return std::max(computeTime, memoryTime) + device.launchLatency;
}

OpCost CostModel::getCopyCost(int64_t bytes) const {
  OpCost cost;
  cost.bytesMoved = saturatingAdd(bytes, bytes);
  cost.seconds = getSeconds(cost, /*peakFlops=*/0.0);
  return cost;
}
