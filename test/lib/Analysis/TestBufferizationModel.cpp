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

#include "memsched/Analysis/BufferLiveness.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Conversion/Passes.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"
#include "memsched/Scheduling/OffsetPlanner.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::memsched;

/// Whether the results of `op` are what its regions yield (not a loop's
/// carried values).
static bool yieldsResults(Operation *op) {
  return isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(op);
}

/// The value `value` is a view (or cast) of, through every view.
static Value getViewRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    value = view.getViewSource();
  }
  return value;
}

/// Whether `value` is an allocation made in `region`'s block and yielded
/// (or a view of it) as a result of its op.
static bool isYieldedAllocation(Region &region, Value value) {
  return yieldsResults(region.getParentOp()) &&
         llvm::any_of(region, [&](Block &block) {
           return llvm::any_of(
               block.getTerminator()->getOperands(),
               [&](Value yielded) { return getViewRoot(yielded) == value; });
         });
}

static int64_t computeNestedAllocBytes(Operation *op);

/// Whether bufferized function `callee` writes into its argument `index`
/// (or a view of it), or passes it to a call.
static bool writesArgument(func::FuncOp callee, unsigned index) {
  if (callee.isExternal())
    return true;
  SmallVector<Value> aliases = {callee.getArgument(index)};
  while (!aliases.empty()) {
    Value value = aliases.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<CallOpInterface>(user))
        return true;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == value)
          aliases.append(user->result_begin(), user->result_end());
        continue;
      }
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects || effects.getEffectOnValue<MemoryEffects::Write>(value))
        return true;
    }
  }
  return false;
}

/// Whether `op` allocates a copy of a call's operand, one the callee writes
/// into or one with the argument's identity layout: every use copies into
/// it or passes it to a call, which writes it or has the copied value's
/// type as the argument's. The model counts it in the call's workspace. (A
/// copy made for another reason, a result aliasing the operand written
/// later, counts in max-live.)
static bool isCallOperandCopy(Operation *op) {
  if (!isa<memref::AllocOp>(op))
    return false;
  bool copiesStridedView = false;
  SmallVector<OpOperand *> callUses;
  for (OpOperand &use : op->getResult(0).getUses()) {
    if (auto copy = dyn_cast<memref::CopyOp>(use.getOwner());
        copy && copy.getTarget() == use.get()) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      copiesStridedView |= source && !source.getLayout().isIdentity();
      continue;
    }
    if (!isa<func::CallOp>(use.getOwner()))
      return false;
    callUses.push_back(&use);
  }
  for (OpOperand *use : callUses) {
    auto call = cast<func::CallOp>(use->getOwner());
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || (!copiesStridedView &&
                    !writesArgument(callee, use->getOperandNumber())))
      return false;
  }
  return !callUses.empty();
}

/// The bytes of the operand copies `call` is passed (isCallOperandCopy).
static int64_t computeCallOperandCopyBytes(func::CallOp call) {
  int64_t bytes = 0;
  for (Value operand : call.getOperands())
    if (Operation *def = operand.getDefiningOp(); def && isCallOperandCopy(def))
      bytes += getStorageBytes(operand.getType()).value_or(0);
  return bytes;
}

/// The bytes one run of `block`, a single-block body, holds: its
/// allocations placed by lifetime (memref-level liveness, as
/// memsched-plan-buffers) with nested bodies at their op, and the
/// allocations that escape the block (yielded by a loop, passed into nested
/// control flow) beside them for the whole run.
static int64_t computeBlockAllocBytes(Block &block) {
  Region &region = *block.getParent();
  DenseMap<Operation *, int64_t> steps = numberOps(block);
  std::vector<scheduling::AllocationRequest> requests;
  int64_t unplanned = 0;
  for (Operation &op : block) {
    if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
      Value buffer = op.getResult(0);
      int64_t bytes = getStorageBytes(buffer.getType()).value_or(0);
      // A yielded allocation lives on as the op's result.
      if (isYieldedAllocation(region, buffer))
        continue;
      BufferUses uses = computeBufferUses(buffer, block, steps);
      if (uses.escapes())
        unplanned += bytes;
      else if (uses.isUsed())
        requests.push_back({0, uses.firstStep, uses.lastStep, bytes});
      continue;
    }
    if (op.getNumRegions() != 0)
      if (int64_t bytes = computeNestedAllocBytes(&op))
        requests.push_back({0, steps.lookup(&op), steps.lookup(&op), bytes});
  }
  std::optional<scheduling::OffsetPlan> plan =
      scheduling::planOffsets(requests, {});
  return (plan ? plan->arenaBytes : 0) + unplanned;
}

/// The bytes control-flow op `op`'s bodies allocate: each single-block
/// body that memsched-plan-buffers plans (hasSequentialBodies) as
/// computeBlockAllocBytes, any other body all its allocations at once; a
/// choice runs its largest region.
static int64_t computeNestedAllocBytes(Operation *op) {
  bool isChoice = isa<scf::IfOp, scf::IndexSwitchOp>(op);
  int64_t total = 0;
  for (Region &region : op->getRegions()) {
    int64_t bytes = 0;
    if (region.hasOneBlock() && hasSequentialBodies(op)) {
      bytes = computeBlockAllocBytes(region.front());
    } else {
      region.walk([&](Operation *nested) {
        if (isa<memref::AllocOp, memref::AllocaOp>(nested) &&
            !(nested->getParentRegion() == &region &&
              isYieldedAllocation(region, nested->getResult(0))))
          bytes += getStorageBytes(nested->getResult(0).getType()).value_or(0);
      });
    }
    total = isChoice ? std::max(total, bytes) : total + bytes;
  }
  return total;
}

/// Max over program points of the bytes of allocations that are live, where
/// an allocation lives from its first use to its last use (or to the end if
/// it is returned), uses of any view of it included, and a loop's result
/// is its init's allocation when the body yields that allocation back.
/// Allocations inside control flow are compared apart (the model counts
/// them as the op's workspace, which max-live leaves out).
static int64_t computeAllocMaxLive(func::FuncOp func,
                                   const DenseSet<Operation *> &inWorkspace) {
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
    // Counted in the call's workspace, which max-live leaves out.
    if (inWorkspace.contains(&op))
      continue;
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
    if (isa<func::CallOp>(op)) {
      // The callee allocates what it returns; the caller holds it from the
      // call on, read or not.
      for (Value result : op.getResults()) {
        if (!isa<BaseMemRefType>(result.getType()))
          continue;
        allocationOf[result] = allocations.size();
        allocations.push_back(
            {getStorageBytes(result.getType()).value_or(0), step, step});
      }
    }
    if (yieldsResults(&op)) {
      // A result some region allocates is an allocation from here on.
      for (OpResult result : op.getResults()) {
        bool allocated = llvm::any_of(op.getRegions(), [&](Region &region) {
          return llvm::any_of(region, [&](Block &block) {
            Value yielded = getViewRoot(
                block.getTerminator()->getOperand(result.getResultNumber()));
            return yielded.getDefiningOp<memref::AllocOp>() &&
                   yielded.getParentRegion() == &region;
          });
        });
        if (!allocated)
          continue;
        allocationOf[result] = allocations.size();
        allocations.push_back(
            {getStorageBytes(result.getType()).value_or(0), -1, -1});
      }
    }
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
      for (auto [index, result] : llvm::enumerate(forOp.getResults())) {
        auto it = allocationOf.find(forOp.getInitArgs()[index]);
        if (it != allocationOf.end() &&
            yield.getOperand(index) == forOp.getRegionIterArgs()[index])
          allocationOf[result] = it->second;
      }
    }
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
  TestBufferizationModelPass() = default;
  TestBufferizationModelPass(const TestBufferizationModelPass &pass)
      : PassWrapper(pass) {}
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

  Option<bool> upperBound{
      *this, "upper-bound",
      llvm::cl::desc("Fail only when the prediction is below what "
                     "bufferization allocates (for control flow, which "
                     "the model bounds from above)"),
      llvm::cl::init(false)};
  Option<bool> explicitCopies{
      *this, "explicit-copies",
      llvm::cl::desc("Run memsched-explicit-copies before bufferization, as "
                     "the lowering pipelines do (false: bufferization's "
                     "own decisions)"),
      llvm::cl::init(true)};
  Option<bool> regionResultsOutside{
      *this, "region-results-outside",
      llvm::cl::desc("Run memsched-region-results-outside on loops too, as "
                     "the device pipeline does (false: on branches only, as "
                     "the CPU pipeline does)"),
      llvm::cl::init(false)};
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
  options.allowReturnAllocsFromLoops = true;
  options.unknownTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // What the lowering pipelines run before bufferization: the CPU
  // pipeline's by default.
  if (explicitCopies)
    pm.addNestedPass<func::FuncOp>(createMemschedExplicitCopiesPass());
  MemschedRegionResultsOutsidePassOptions resultsOptions;
  resultsOptions.loops = regionResultsOutside;
  pm.addNestedPass<func::FuncOp>(
      createMemschedRegionResultsOutsidePass(resultsOptions));
  pm.addPass(bufferization::createOneShotBufferizePass(options));
  if (failed(pm.run(*bufferized))) {
    module.emitError() << "one-shot bufferization failed";
    return signalPassFailure();
  }

  for (const FunctionReport &report : reports) {
    if (report.status != TensorGraphStatus::Built)
      continue;
    auto func = bufferized->lookupSymbol<func::FuncOp>(report.name);
    // Control flow, k-th op against k-th op (bufferization keeps their
    // order): what its bodies allocate against the model's workspace.
    auto original = module.lookupSymbol<func::FuncOp>(report.name);
    TensorGraph graph = TensorGraph::build(original, costModel);
    SmallVector<Operation *> modelled, allocated;
    for (Operation &op : original.getBody().front())
      if (isStructuredControlFlow(&op))
        modelled.push_back(&op);
    for (Operation &op : func.getBody().front())
      if (isStructuredControlFlow(&op))
        allocated.push_back(&op);
    for (auto [model, real] : llvm::zip(modelled, allocated)) {
      int64_t predicted = graph.getCost(graph.getTask(model)).workspaceBytes;
      int64_t actual = computeNestedAllocBytes(real);
      llvm::outs() << "bufferization-model @" << report.name << " "
                   << model->getName() << " body predicted " << predicted
                   << " bufferized " << actual << "\n";
      if (upperBound ? actual > predicted : actual != predicted) {
        model->emitError() << "memory model predicts " << predicted
                           << " bytes inside this op but one-shot "
                              "bufferization allocates "
                           << actual;
        signalPassFailure();
      }
    }
    // Calls, k-th against k-th: the operands copied for the callee's
    // writes. Where the model's workspace of the call holds them, they are
    // left out of max-live (as the workspace is); where it does not, they
    // count in max-live as any allocation.
    SmallVector<CallOpInterface> modelledCalls;
    SmallVector<func::CallOp> bufferizedCalls;
    original.walk([&](CallOpInterface call) { modelledCalls.push_back(call); });
    func.walk([&](func::CallOp call) { bufferizedCalls.push_back(call); });
    DenseSet<Operation *> inWorkspace;
    for (auto [model, real] : llvm::zip(modelledCalls, bufferizedCalls)) {
      int64_t predicted = getCallOperandCopyBytes(model);
      int64_t actual = computeCallOperandCopyBytes(real);
      if (!predicted && !actual)
        continue;
      llvm::outs() << "bufferization-model @" << report.name << " call @"
                   << real.getCallee() << " operand copies predicted "
                   << predicted << " bufferized " << actual << "\n";
      if (actual > predicted || real->getBlock() != &func.getBody().front())
        continue;
      for (Value operand : real.getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && isCallOperandCopy(def))
          inWorkspace.insert(def);
    }
    int64_t actual = computeAllocMaxLive(func, inWorkspace);
    llvm::outs() << "bufferization-model @" << report.name << " predicted "
                 << report.maxLiveBytes << " bufferized " << actual << "\n";
    if (upperBound ? actual > report.maxLiveBytes
                   : actual != report.maxLiveBytes) {
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
