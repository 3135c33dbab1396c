//===- CostOpInterfaceImpl.cpp - Cost models of upstream ops ----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file attaches memsched's cost interface to upstream ops: linalg
// structured ops (work from the iteration domain), tensor ops (views are free,
// copies move bytes) and arith/math elementwise ops.
//
//===----------------------------------------------------------------------===//

#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::memsched;

/// Bytes of `value`'s type; unsized or dynamic types count as zero because the
/// analyses reject them before costs matter.
static int64_t bytesOf(Value value) {
  return getStorageBytes(value.getType()).value_or(0);
}

/// Number of elements of a shaped type, or one for a scalar.
static int64_t elementsOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.hasStaticShape() ? shaped.getNumElements() : 0;
  return 1;
}

/// Sum of the bytes of all operands and results: what an op without reuse of
/// its inputs reads plus what it writes.
static int64_t operandAndResultBytes(Operation *op) {
  int64_t bytes = 0;
  for (Value operand : op->getOperands())
    bytes += bytesOf(operand);
  for (Value result : op->getResults())
    bytes += bytesOf(result);
  return bytes;
}

namespace {

/// Linalg structured ops: one body evaluation per point of the iteration
/// domain; inputs are read once, inits are read when the body uses them and
/// written once.
template <typename OpTy>
struct LinalgCostModel
    : public CostOpInterface::ExternalModel<LinalgCostModel<OpTy>, OpTy> {
  int64_t getFlops(Operation *op) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    int64_t points = 1;
    for (int64_t range : linalgOp.getStaticLoopRanges()) {
      if (ShapedType::isDynamic(range))
        return 0;
      points *= range;
    }
    int64_t bodyOps = 0;
    for (Operation &bodyOp : linalgOp.getBlock()->without_terminator()) {
      (void)bodyOp;
      ++bodyOps;
    }
    // A body that only forwards a value (copies, transposes, broadcasts)
    // still costs one move per point.
    return points * std::max<int64_t>(bodyOps, 1);
  }

  int64_t getBytesMoved(Operation *op) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    int64_t bytes = 0;
    for (OpOperand *input : linalgOp.getDpsInputOperands())
      bytes += bytesOf(input->get());
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      int64_t initBytes = bytesOf(init.get());
      bytes += initBytes;
      if (linalgOp.payloadUsesValueFromOperand(&init))
        bytes += initBytes;
    }
    return bytes;
  }
};

/// Tensor ops that bufferize to views of their source: no work, no traffic.
template <typename OpTy>
struct ViewCostModel
    : public CostOpInterface::ExternalModel<ViewCostModel<OpTy>, OpTy> {
  int64_t getFlops(Operation *) const { return 0; }
  int64_t getBytesMoved(Operation *) const { return 0; }
};

/// Tensor ops that allocate or copy: no arithmetic, every tensor operand read
/// and every result written.
template <typename OpTy>
struct CopyCostModel
    : public CostOpInterface::ExternalModel<CopyCostModel<OpTy>, OpTy> {
  int64_t getFlops(Operation *) const { return 0; }
  int64_t getBytesMoved(Operation *op) const {
    return operandAndResultBytes(op);
  }
};

/// `tensor.insert_slice` reads its source and writes it into the
/// destination's buffer; the rest of the destination is untouched. A source
/// computed in its own slice of the destination is already there.
struct InsertSliceCostModel
    : public CostOpInterface::ExternalModel<InsertSliceCostModel,
                                            tensor::InsertSliceOp> {
  int64_t getFlops(Operation *) const { return 0; }
  int64_t getBytesMoved(Operation *op) const {
    auto insert = cast<tensor::InsertSliceOp>(op);
    if (getInPlaceSliceSource(insert))
      return 0;
    return 2 * bytesOf(insert.getSource());
  }
};

/// `tensor.empty` allocates lazily: no work of its own.
struct EmptyCostModel
    : public CostOpInterface::ExternalModel<EmptyCostModel, tensor::EmptyOp> {
  int64_t getFlops(Operation *) const { return 0; }
  int64_t getBytesMoved(Operation *) const { return 0; }
};

/// Elementwise arith/math ops, on scalars or whole tensors: one operation per
/// element. Constants are resident data and cost nothing to run.
template <typename OpTy>
struct ElementwiseCostModel
    : public CostOpInterface::ExternalModel<ElementwiseCostModel<OpTy>, OpTy> {
  int64_t getFlops(Operation *op) const {
    if (std::is_same_v<OpTy, arith::ConstantOp> || op->getNumResults() == 0)
      return 0;
    return elementsOf(op->getResult(0).getType());
  }
  int64_t getBytesMoved(Operation *op) const {
    if (std::is_same_v<OpTy, arith::ConstantOp>)
      return 0;
    // Scalars live in registers; only tensors move through memory.
    int64_t bytes = 0;
    for (Value value : op->getOperands())
      if (isa<ShapedType>(value.getType()))
        bytes += bytesOf(value);
    for (Value value : op->getResults())
      if (isa<ShapedType>(value.getType()))
        bytes += bytesOf(value);
    return bytes;
  }
};

template <template <typename> class Model, typename... Ops>
struct ModelAttacher {
  static void attach(MLIRContext *ctx) {
    (Ops::template attachInterface<Model<Ops>>(*ctx), ...);
  }
};

} // namespace

void mlir::memsched::registerCostOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    ModelAttacher<LinalgCostModel,
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
                  >::attach(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    ModelAttacher<ViewCostModel, tensor::CollapseShapeOp, tensor::ExpandShapeOp,
                  tensor::ExtractSliceOp, tensor::CastOp, tensor::ReshapeOp,
                  tensor::BitcastOp>::attach(ctx);
    ModelAttacher<CopyCostModel, tensor::PadOp, tensor::ConcatOp,
                  tensor::ExtractOp, tensor::InsertOp, tensor::FromElementsOp,
                  tensor::GenerateOp, tensor::SplatOp, tensor::GatherOp,
                  tensor::ScatterOp>::attach(ctx);
    tensor::InsertSliceOp::attachInterface<InsertSliceCostModel>(*ctx);
    tensor::EmptyOp::attachInterface<EmptyCostModel>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    ModelAttacher<ElementwiseCostModel,
#define GET_OP_LIST
#include "mlir/Dialect/Arith/IR/ArithOps.cpp.inc"
                  >::attach(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    ModelAttacher<ElementwiseCostModel,
#define GET_OP_LIST
#include "mlir/Dialect/Math/IR/MathOps.cpp.inc"
                  >::attach(ctx);
  });
}
