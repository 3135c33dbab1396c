//===- CostModel.h - Roofline cost of ops -----------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares CostModel: the modelled time of one op on a device,
// max(flops / peak, bytes / bandwidth) + launch latency, from the op's
// CostOpInterface, or from a measured `memsched.cost` attribute.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_COSTMODEL_H
#define MEMSCHED_ANALYSIS_COSTMODEL_H

#include "memsched/Analysis/DeviceSpec.h"

#include "mlir/IR/Operation.h"

namespace mlir::memsched {

/// What the cost model knows about one op.
struct OpCost {
  /// Arithmetic operations.
  int64_t flops = 0;
  /// Bytes read plus bytes written.
  int64_t bytesMoved = 0;
  /// Scratch bytes live while the op runs.
  int64_t workspaceBytes = 0;
  /// Modelled (or measured) run time in seconds.
  double seconds = 0;
  /// The time comes from a `memsched.cost` attribute.
  bool isMeasured = false;
  /// The op has no cost interface; the figures are a conservative estimate.
  bool isEstimate = false;

  /// Adds `other`, run after this: work and time add up (saturating),
  /// workspace is the larger, the flags combine.
  void add(const OpCost &other);
};

/// Whether `op` is structured control flow memsched plans as one task
/// (scf.for, scf.forall, scf.if, scf.while, scf.execute_region,
/// scf.index_switch): its cost is its bodies', a loop's times its constant
/// trip count (scf.forall's iterations run one after another).
bool isStructuredControlFlow(Operation *op);

/// Computes op costs for one device.
class CostModel {
public:
  explicit CostModel(DeviceSpec device) : device(std::move(device)) {}

  /// Returns the cost of `op`. Ops without a cost interface are estimated as
  /// one operation per result element plus all operand and result bytes, and
  /// flagged with `isEstimate`.
  OpCost getCost(Operation *op) const;

  /// The cost of copying `bytes` within device memory (each byte read and
  /// written once): what bufferization's copies take.
  OpCost getCopyCost(int64_t bytes) const;

  /// Returns the device this model times ops for.
  const DeviceSpec &getDevice() const { return device; }

private:
  /// The time of `cost`'s work: compute or memory bound, whichever is
  /// slower, plus a launch.
  double getSeconds(const OpCost &cost, double peakFlops) const;
  /// The cost of one of isStructuredControlFlow's ops: its bodies' ops
  /// summed (the costlier branch of a choice), times a loop's constant trip
  /// count; an estimate where the count is not a constant.
  OpCost getControlFlowCost(Operation *op) const;

  DeviceSpec device;
};

} // namespace mlir::memsched

#endif // MEMSCHED_ANALYSIS_COSTMODEL_H
