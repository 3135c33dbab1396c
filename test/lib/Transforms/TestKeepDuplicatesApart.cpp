//===- TestKeepDuplicatesApart.cpp - Apply keepDuplicatesApart --*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// test-memsched-keep-duplicates-apart tags the ops that CSE would merge, as
// every candidate of the budget driver is tagged, so tests can check that
// canonicalize and CSE leave the function's footprint alone.
//
//===----------------------------------------------------------------------===//

#include "../../../lib/Transforms/PlanRewrite.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestKeepDuplicatesApartPass
    : public PassWrapper<TestKeepDuplicatesApartPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestKeepDuplicatesApartPass)
  StringRef getArgument() const final {
    return "test-memsched-keep-duplicates-apart";
  }
  StringRef getDescription() const final {
    return "Tag the ops CSE would merge, as the budget driver does";
  }
  void runOnOperation() override {
    memsched::keepDuplicatesApart(getOperation());
  }
};
} // namespace

namespace mlir::memsched::test {
void registerTestKeepDuplicatesApartPass() {
  PassRegistration<TestKeepDuplicatesApartPass>();
}
} // namespace mlir::memsched::test
