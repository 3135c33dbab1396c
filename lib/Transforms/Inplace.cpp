//===- Inplace.cpp - memsched-inplace pass ----------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the in-place pass: an elementwise linalg op whose
// payload ignores its init can take any input of the same type as its init
// without changing its result, and if that input's buffer is dead after the
// op, one-shot bufferization then reuses it instead of allocating.
//
//===----------------------------------------------------------------------===//

#include "PlanRewrite.h"
#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedOps.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/ScopeExit.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDINPLACEPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

int64_t mlir::memsched::applyInplaceRewrites(func::FuncOp func,
                                             const TensorGraph &graph,
                                             bool donateArguments) {
  const sched::Problem &problem = graph.getProblem();

  // Last step reading or writing each buffer (-1 if none does), and which
  // buffers must survive the function.
  std::vector<int64_t> lastUse(problem.numBuffers(), -1);
  std::vector<bool> escaping = problem.escapingBuffers();
  for (size_t id = 0; id < problem.numValues(); ++id) {
    const sched::Value &value = problem.value(static_cast<sched::ValueId>(id));
    if (value.producer != sched::kNoId)
      lastUse[value.buffer] =
          std::max<int64_t>(lastUse[value.buffer], value.producer);
    for (sched::TaskId consumer : value.consumers)
      lastUse[value.buffer] =
          std::max<int64_t>(lastUse[value.buffer], consumer);
  }
  // The buffer each value lives in; rewritten results move to their input's.
  DenseMap<Value, sched::BufferId> bufferOf;
  auto getBuffer = [&](Value value) -> sched::BufferId {
    auto it = bufferOf.find(value);
    if (it != bufferOf.end())
      return it->second;
    sched::ValueId id = graph.getValueId(value);
    return id == sched::kNoId ? sched::kNoId : problem.value(id).buffer;
  };

  llvm::DenseSet<sched::BufferId> argumentBuffers;
  for (BlockArgument argument : func.getArguments())
    argumentBuffers.insert(getBuffer(argument));

  // A buffer being copied to host memory is read by the copy engine until
  // the copy ends; nothing may write over it.
  llvm::DenseSet<sched::BufferId> swappedOut;
  func.walk([&](SwapOutOp swapOut) {
    swappedOut.insert(getBuffer(swapOut.getSource()));
  });

  int64_t rewritten = 0;
  for (sched::TaskId task = 0;
       task < static_cast<sched::TaskId>(graph.getNumTasks()); ++task) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(graph.getOp(task));
    if (!linalgOp)
      continue;
    // An argument's buffer holds the argument or what was written into it
    // since (a donated argument's in-place chain continues).
    auto mayOverwrite = [&](sched::BufferId buffer) {
      return donateArguments && argumentBuffers.contains(buffer);
    };
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      Value result = linalgOp.getTiedOpResult(&init);
      for (OpOperand *input : linalgOp.getDpsInputOperands()) {
        Value candidate = input->get();
        if (!isInPlaceCandidate(graph, linalgOp, init, *input, getBuffer,
                                mayOverwrite))
          continue;
        sched::BufferId buffer = getBuffer(candidate);
        if (escaping[buffer] || lastUse[buffer] != task ||
            swappedOut.contains(buffer))
          continue;
        sched::BufferId resultBuffer = getBuffer(result);
        init.set(candidate);
        bufferOf[result] = buffer;
        // The result's readers now read the input's buffer.
        if (resultBuffer != sched::kNoId) {
          lastUse[buffer] = std::max(lastUse[buffer], lastUse[resultBuffer]);
          if (escaping[resultBuffer])
            escaping[buffer] = true;
        }
        ++rewritten;
        break;
      }
    }
  }
  return rewritten;
}

namespace {
struct InplacePass
    : public memsched::impl::MemschedInplacePassBase<InplacePass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void InplacePass::runOnOperation() {
  func::FuncOp func = getOperation();
  // Host glue (memsched-exec-harness's main) is not a training step.
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  FailureOr<DeviceSpec> spec =
      DeviceSpec::resolveOrEmitError(device, func, "memsched-inplace");
  if (failed(spec))
    return signalPassFailure();
  // The device is recorded once the pass has succeeded; a failed pass leaves
  // the function as it was.
  llvm::scope_exit recordDevice([&] {
    if (!getPassState().irAndPassFailed.getInt())
      DeviceSpec::record(device, func);
  });
  CostModel costModel(*spec);
  TensorGraph graph = TensorGraph::build(func, costModel);
  graph.emitStatus("memsched-inplace");
  if (graph.getStatus() == TensorGraphStatus::Skipped)
    return markAllAnalysesPreserved();
  if (graph.getStatus() == TensorGraphStatus::Failed)
    return signalPassFailure();
  std::optional<int64_t> before = computeModelPeak(func, costModel);
  int64_t rewritten = applyInplaceRewrites(func, graph, donateArguments);
  if (rewritten == 0)
    return markAllAnalysesPreserved();
  std::optional<int64_t> after = computeModelPeak(func, costModel);
  InFlightDiagnostic remark = emitRemark(func.getLoc());
  remark << "memsched-inplace: " << rewritten << " ops write into a dead input";
  if (before && after)
    remark << "; peak " << formatBytes(*before) << " -> "
           << formatBytes(*after);
}
