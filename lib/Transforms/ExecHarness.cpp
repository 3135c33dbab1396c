//===- ExecHarness.cpp - memsched-exec-harness pass -------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the pass that wraps a function in a main function
// with deterministic inputs and bit-exact printing of every result, so that
// an original and a transformed program can be run and compared bit for bit.
//
//===----------------------------------------------------------------------===//

#include "memsched/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDEXECHARNESSPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

static constexpr StringLiteral kMainName = "memsched_main";

/// Returns `value mod modulus` in [0, modulus).
static int64_t positiveMod(int64_t value, int64_t modulus) {
  return ((value % modulus) + modulus) % modulus;
}

static bool isSupportedElementType(Type type) {
  return type.isIntOrIndexOrFloat();
}

namespace {
struct ExecHarnessPass
    : public memsched::impl::MemschedExecHarnessPassBase<ExecHarnessPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Element `linearIndex` of argument `argIndex`, per the pass description.
  Value buildElement(ImplicitLocOpBuilder &b, Value linearIndex, Type type,
                     int64_t argIndex);
  /// A tensor of `type` filled by the input formula.
  Value buildTensorInput(ImplicitLocOpBuilder &b, RankedTensorType type,
                         int64_t argIndex);
  /// Prints one scalar's bit pattern on its own line.
  void printScalar(ImplicitLocOpBuilder &b, Value scalar);
  /// Prints a header and every element of one result.
  void printResult(ImplicitLocOpBuilder &b, Value result, int64_t index);
};
} // namespace

Value ExecHarnessPass::buildElement(ImplicitLocOpBuilder &b, Value linearIndex,
                                    Type type, int64_t argIndex) {
  Type i64 = b.getI64Type();
  Value k = arith::IndexCastOp::create(b, i64, linearIndex);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, i64, value);
  };
  if (auto floatType = dyn_cast<FloatType>(type)) {
    // Multiples of 1/128 in [-63/128, 63/128]: exact in every float type.
    Value scaled = arith::MulIOp::create(b, k, constant(26));
    Value shifted = arith::AddIOp::create(
        b, scaled, constant(positiveMod(31 * argIndex + seed, 127)));
    Value residue = arith::RemUIOp::create(b, shifted, constant(127));
    Value centered = arith::SubIOp::create(b, residue, constant(63));
    Value asFloat = arith::SIToFPOp::create(b, floatType, centered);
    Value denominator = arith::ConstantOp::create(
        b, floatType, b.getFloatAttr(floatType, 128.0));
    return arith::DivFOp::create(b, asFloat, denominator);
  }
  int64_t modulus = type.isInteger(1) ? 2 : int64_t(intModulus);
  Value scaled =
      type.isInteger(1) ? k : arith::MulIOp::create(b, k, constant(3));
  Value shifted =
      type.isInteger(1)
          ? scaled
          : arith::AddIOp::create(
                b, scaled, constant(positiveMod(argIndex + seed, modulus)));
  Value residue = arith::RemUIOp::create(b, shifted, constant(modulus));
  if (type.isIndex())
    return arith::IndexCastOp::create(b, type, residue);
  auto intType = cast<IntegerType>(type);
  if (intType.getWidth() < 64)
    return arith::TruncIOp::create(b, intType, residue);
  if (intType.getWidth() > 64)
    return arith::ExtUIOp::create(b, intType, residue);
  return residue;
}

Value ExecHarnessPass::buildTensorInput(ImplicitLocOpBuilder &b,
                                        RankedTensorType type,
                                        int64_t argIndex) {
  Value empty =
      tensor::EmptyOp::create(b, type.getShape(), type.getElementType());
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, TypeRange{type}, ValueRange{}, ValueRange{empty}, maps, iterators,
      [&](OpBuilder &nested, Location loc, ValueRange) {
        ImplicitLocOpBuilder body(loc, nested);
        Value linear = arith::ConstantIndexOp::create(body, 0);
        for (int64_t dim = 0; dim < rank; ++dim) {
          Value size =
              arith::ConstantIndexOp::create(body, type.getDimSize(dim));
          Value index = linalg::IndexOp::create(body, dim);
          linear = arith::AddIOp::create(
              body, arith::MulIOp::create(body, linear, size), index);
        }
        Value element =
            buildElement(body, linear, type.getElementType(), argIndex);
        linalg::YieldOp::create(body, element);
      });
  return generic.getResult(0);
}

void ExecHarnessPass::printScalar(ImplicitLocOpBuilder &b, Value scalar) {
  Type type = scalar.getType();
  if (auto floatType = dyn_cast<FloatType>(type))
    scalar = arith::BitcastOp::create(b, b.getIntegerType(floatType.getWidth()),
                                      scalar);
  else if (type.isIndex())
    scalar = arith::IndexCastOp::create(b, b.getI64Type(), scalar);
  vector::PrintOp::create(b, scalar);
}

void ExecHarnessPass::printResult(ImplicitLocOpBuilder &b, Value result,
                                  int64_t index) {
  std::string header;
  llvm::raw_string_ostream os(header);
  os << "memsched-result " << index << " " << result.getType() << "\n";
  vector::PrintOp::create(b, StringRef(header));
  auto tensorType = dyn_cast<RankedTensorType>(result.getType());
  if (!tensorType) {
    printScalar(b, result);
    return;
  }
  if (tensorType.getRank() == 0) {
    printScalar(b, tensor::ExtractOp::create(b, result, ValueRange{}));
    return;
  }
  Value flat = result;
  if (tensorType.getRank() > 1) {
    ReassociationIndices all;
    for (int64_t dim = 0; dim < tensorType.getRank(); ++dim)
      all.push_back(dim);
    flat = tensor::CollapseShapeOp::create(b, result,
                                           ArrayRef<ReassociationIndices>{all});
  }
  Value lower = arith::ConstantIndexOp::create(b, 0);
  Value upper = arith::ConstantIndexOp::create(b, tensorType.getNumElements());
  Value step = arith::ConstantIndexOp::create(b, 1);
  scf::ForOp::create(
      b, lower, upper, step, ValueRange{},
      [&](OpBuilder &nested, Location loc, Value iv, ValueRange) {
        ImplicitLocOpBuilder body(loc, nested);
        printScalar(body,
                    tensor::ExtractOp::create(body, flat, ValueRange{iv}));
        scf::YieldOp::create(body);
      });
}

void ExecHarnessPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto target = module.lookupSymbol<func::FuncOp>(funcName);
  if (!target || target.isExternal()) {
    emitError(module.getLoc())
        << "memsched-exec-harness: no function with a body "
           "named '@"
        << funcName << "'";
    return signalPassFailure();
  }
  if (module.lookupSymbol(kMainName)) {
    emitError(module.getLoc())
        << "memsched-exec-harness: the module already has a "
           "symbol named '@"
        << kMainName << "'";
    return signalPassFailure();
  }
  if (intModulus <= 0) {
    emitError(module.getLoc()) << "memsched-exec-harness: int-modulus must be "
                                  "positive, got "
                               << intModulus.getValue();
    return signalPassFailure();
  }
  for (auto [index, type] : llvm::enumerate(llvm::concat<const Type>(
           target.getArgumentTypes(), target.getResultTypes()))) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    Type elementType = tensorType ? tensorType.getElementType() : type;
    // An encoding (sparse, layouts) changes what a tensor's elements mean:
    // the dense generic that builds inputs would not verify.
    if ((tensorType && !tensorType.hasStaticShape()) ||
        (tensorType && tensorType.getEncoding()) ||
        (!tensorType && isa<ShapedType>(type)) ||
        !isSupportedElementType(elementType)) {
      emitError(target.getLoc())
          << "memsched-exec-harness: cannot build inputs or "
             "print results of type "
          << type
          << "; only static tensors without an encoding and scalars of "
             "integer, index and float types are supported";
      return signalPassFailure();
    }
  }

  ImplicitLocOpBuilder b(target.getLoc(), module.getBody(),
                         module.getBody()->end());
  auto mainFunc = func::FuncOp::create(b, kMainName, b.getFunctionType({}, {}));
  // The GPU lowering keeps it on the host: it prints from host memory.
  mainFunc->setAttr(kHostAttrName, b.getUnitAttr());
  b.setInsertionPointToStart(mainFunc.addEntryBlock());
  SmallVector<Value> arguments;
  for (auto [index, type] : llvm::enumerate(target.getArgumentTypes())) {
    if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
      arguments.push_back(buildTensorInput(b, tensorType, index));
      continue;
    }
    Value zero = arith::ConstantIndexOp::create(b, 0);
    arguments.push_back(buildElement(b, zero, type, index));
  }
  auto call = func::CallOp::create(b, target, arguments);
  for (auto [index, result] : llvm::enumerate(call.getResults()))
    printResult(b, result, index);
  func::ReturnOp::create(b);
}
