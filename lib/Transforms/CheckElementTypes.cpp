//===- CheckElementTypes.cpp - memsched-check-element-types -----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the check that opens the lowering pipelines: a float
// element type the LLVM lowering cannot store is refused up front, by name,
// instead of failing inside a conversion pattern (or being left behind in
// IR that is not LLVM dialect).
//
//===----------------------------------------------------------------------===//

#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDCHECKELEMENTTYPESPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

/// The float type in `type` (itself, or the element type of a shaped or
/// complex type) that the lowering cannot store, if any.
static std::optional<Type> findUnstorableFloat(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  if (auto complex = dyn_cast<ComplexType>(type))
    type = complex.getElementType();
  if (isa<FloatType>(type) && !getElementStorageBytes(type))
    return type;
  return std::nullopt;
}

namespace {
struct CheckElementTypesPass
    : public memsched::impl::MemschedCheckElementTypesPassBase<
          CheckElementTypesPass> {
  void runOnOperation() override {
    auto refuse = [&](Location loc, Type type) {
      emitError(loc) << "memsched-check-element-types: element type " << type
                     << " cannot be lowered (the LLVM lowering stores the "
                        "float types f16, bf16, f32, f64, f80 and f128)";
      signalPassFailure();
      return WalkResult::interrupt();
    };
    getOperation()->walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            if (std::optional<Type> type =
                    findUnstorableFloat(argument.getType()))
              return refuse(argument.getLoc(), *type);
      for (Type resultType : op->getResultTypes())
        if (std::optional<Type> type = findUnstorableFloat(resultType))
          return refuse(op->getLoc(), *type);
      return WalkResult::advance();
    });
    markAllAnalysesPreserved();
  }
};
} // namespace
