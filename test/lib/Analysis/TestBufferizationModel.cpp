//===- TestBufferizationModel.cpp - Model vs real bufferization -*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// A test pass that checks memsched's tensor-level memory model against what
// one-shot bufferization really allocates: it bufferizes a copy of the
// module, computes max-live over the resulting allocations in program order
// (views alias their source), and compares it with the prediction. A
// mismatch is a bug in the model.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::memsched;

/// Max over program points of the bytes of allocations that are live, where
/// an allocation lives from its first use to its last use (or to the end if
/// it is returned), uses of any view of it included.
static int64_t computeAllocMaxLive(func::FuncOp func) {
  Block &block = func.getBody().front();
  struct Allocation {
    int64_t bytes = 0;
    int64_t start = -1;
    int64_t end = -1;
  };
  std::vector<Allocation> allocations;
  DenseMap<Value, size_t> allocationOf;
  int64_t numSteps = 0;
  for (Operation &op : block) {
    int64_t step = numSteps++;
    if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
      allocationOf[op.getResult(0)] = allocations.size();
      allocations.push_back(
          {getStorageBytes(op.getResult(0).getType()).value_or(0), -1, -1});
      continue;
    }
    if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
      auto it = allocationOf.find(view.getViewSource());
      if (it != allocationOf.end())
        for (Value result : op.getResults())
          allocationOf[result] = it->second;
      continue;
    }
    if (isa<memref::DeallocOp, bufferization::DeallocOp>(op))
      continue;
    bool isReturn = op.hasTrait<OpTrait::ReturnLike>();
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        auto it = allocationOf.find(operand);
        if (it == allocationOf.end())
          continue;
        Allocation &allocation = allocations[it->second];
        if (allocation.start < 0)
          allocation.start = step;
        allocation.end = isReturn ? std::numeric_limits<int64_t>::max() : step;
      }
    });
  }
  std::vector<int64_t> delta(numSteps + 1, 0);
  for (const Allocation &allocation : allocations) {
    if (allocation.start < 0)
      continue;
    delta[allocation.start] += allocation.bytes;
    delta[std::min(allocation.end, numSteps - 1) + 1] -= allocation.bytes;
  }
  int64_t live = 0, maxLive = 0;
  for (int64_t step = 0; step < numSteps; ++step) {
    live += delta[step];
    maxLive = std::max(maxLive, live);
  }
  return maxLive;
}

namespace {
struct TestBufferizationModelPass
    : public PassWrapper<TestBufferizationModelPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestBufferizationModelPass)
  StringRef getArgument() const final {
    return "test-memsched-check-bufferization-model";
  }
  StringRef getDescription() const final {
    return "Check predicted max-live against one-shot bufferization";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<bufferization::BufferizationDialect, memref::MemRefDialect>();
  }
  void runOnOperation() override;
};
} // namespace

void TestBufferizationModelPass::runOnOperation() {
  ModuleOp module = getOperation();
  CostModel costModel(*DeviceSpec::getPreset("h100"));
  std::vector<FunctionReport> reports;
  module.walk([&](func::FuncOp func) {
    if (!func.isExternal())
      reports.push_back(analyzeFunction(func, costModel));
  });

  OwningOpRef<ModuleOp> bufferized = module.clone();
  PassManager pm(&getContext());
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(options));
  if (failed(pm.run(*bufferized))) {
    module.emitError() << "one-shot bufferization failed";
    return signalPassFailure();
  }

  for (const FunctionReport &report : reports) {
    if (report.status != TensorGraphStatus::Built)
      continue;
    auto func = bufferized->lookupSymbol<func::FuncOp>(report.name);
    int64_t actual = computeAllocMaxLive(func);
    llvm::outs() << "bufferization-model @" << report.name << " predicted "
                 << report.maxLiveBytes << " bufferized " << actual << "\n";
    if (actual != report.maxLiveBytes) {
      module.lookupSymbol(report.name)->emitError()
          << "memory model predicts " << report.maxLiveBytes
          << " bytes max-live but one-shot bufferization allocates " << actual;
      signalPassFailure();
    }
  }
  markAllAnalysesPreserved();
}

namespace mlir::memsched::test {
void registerTestBufferizationModelPass() {
  PassRegistration<TestBufferizationModelPass>();
}
} // namespace mlir::memsched::test
