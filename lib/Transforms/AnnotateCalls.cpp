//===- AnnotateCalls.cpp - memsched-annotate-calls --------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the module pass that records, on every call, what the
// callee holds while it runs, so that function passes, which may not look at
// other functions, count it as the call's workspace.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDANNOTATECALLSPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {
class CalleeMemory {
public:
  explicit CalleeMemory(const CostModel &costModel) : costModel(costModel) {}

  /// Annotates the calls in `func` (their callees first), then returns the
  /// peak of transient bytes of `func`.
  int64_t annotate(func::FuncOp func);

private:
  /// Every tensor `func` makes, at once: the bound where no order is known.
  static int64_t countEveryTensor(func::FuncOp func);

  const CostModel &costModel;
  DenseMap<Operation *, int64_t> peakOf;
  DenseSet<Operation *> active;
};
} // namespace

static int64_t getTensorBytes(Type type) {
  return isa<RankedTensorType>(type) ? getStorageBytes(type).value_or(0) : 0;
}

int64_t CalleeMemory::countEveryTensor(func::FuncOp func) {
  int64_t bytes = 0;
  func.walk([&](Operation *op) {
    // An empty tensor allocates at its first write, a constant is a global.
    if (isa<tensor::EmptyOp>(op) || op->hasTrait<OpTrait::ConstantLike>())
      return;
    for (Type type : op->getResultTypes())
      bytes += getTensorBytes(type);
  });
  return bytes;
}

int64_t CalleeMemory::annotate(func::FuncOp func) {
  if (auto known = peakOf.find(func); known != peakOf.end())
    return known->second;
  if (!active.insert(func).second)
    return countEveryTensor(func); // Recursion: no order to simulate.
  Builder builder(func.getContext());
  func.walk([&](CallOpInterface call) {
    auto callee = dyn_cast_or_null<func::FuncOp>(call.resolveCallable());
    if (!callee || callee.isExternal())
      return;
    int64_t bytes = annotate(callee);
    for (Type type : call->getResultTypes())
      bytes -= getTensorBytes(type);
    call->setAttr(kWorkspaceAttrName,
                  builder.getI64IntegerAttr(std::max<int64_t>(bytes, 0)));
  });
  int64_t peak = -1;
  TensorGraph graph = TensorGraph::build(func, costModel);
  if (graph.getStatus() == TensorGraphStatus::Built)
    if (std::optional<scheduling::MemoryProfile> profile =
            scheduling::simulateMemory(graph.getProblem(),
                                       graph.getProblem().programOrder()))
      peak = profile->peakTransientBytes;
  if (peak < 0)
    peak = countEveryTensor(func);
  active.erase(func);
  peakOf[func] = peak;
  return peak;
}

namespace {
struct MemschedAnnotateCallsPass
    : public memsched::impl::MemschedAnnotateCallsPassBase<
          MemschedAnnotateCallsPass> {
  void runOnOperation() override {
    // Sizes only: any device gives the same bytes.
    CostModel costModel(*DeviceSpec::getPreset("h100"));
    CalleeMemory memory(costModel);
    getOperation().walk([&](func::FuncOp func) {
      if (!func.isExternal())
        memory.annotate(func);
    });
  }
};
} // namespace
