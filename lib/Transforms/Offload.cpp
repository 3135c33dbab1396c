//===- Offload.cpp - memsched-offload pass ----------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements memsched-offload: the resident state of a training
// step (its parameters, the gradients it returns) stays in host memory. A
// parameter is brought in by a memsched.swap_in per group of readers and
// freed after the group; a gradient is copied out as soon as it is made and
// its device buffer freed when the copy ends. The step's other tensor
// arguments (its inputs) may stay in host memory the way parameters do. The
// calling convention says which arguments and results are host memory
// (memsched.host_memory).
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedOps.h"
#include "memsched/Transforms/BudgetPlanning.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <numeric>

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDOFFLOADPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {

/// What to keep in host memory.
struct OffloadSelection {
  bool params = false;
  bool grads = false;
  bool optimizer = false;
  /// The arguments after the updated ones (the batch, labels).
  bool inputs = false;
};

/// The decision for one function: which arguments move (the leading ones
/// are each updated by result i + 1, or are its parameter; the others are
/// inputs), which updates are copied out, and each moved argument's reader
/// groups in program order.
struct OffloadPlan {
  /// The leading arguments the results after the loss update.
  unsigned numParams = 0;
  /// Per argument: whether it moves to host memory.
  std::vector<bool> movesArgument;
  /// Per leading argument: whether its update (result i + 1) is copied out.
  std::vector<bool> copiesOutResult;
  /// Per argument: groups of readers (ops of the entry block), each group
  /// reading one swap-in.
  std::vector<std::vector<SmallVector<Operation *>>> readerGroups;
  /// Per argument and group: the op before which the swap-in is issued,
  /// early enough for the copy to end under the compute before the group,
  /// behind the copies issued before it.
  std::vector<std::vector<Operation *>> issueBefore;
  /// Per argument and group: when the copy is meant to start, in modelled
  /// compute time; swap-ins before the same op are issued in this order,
  /// which is the order the link runs them in.
  std::vector<std::vector<double>> issueStart;
};

struct OffloadPass
    : public memsched::impl::MemschedOffloadPassBase<OffloadPass> {
  using Base::Base;
  void runOnOperation() override;
};

} // namespace

/// Parses the `offload` list; emits an error naming an unknown entry.
static FailureOr<OffloadSelection> parseSelection(ArrayRef<std::string> names,
                                                  func::FuncOp func) {
  OffloadSelection selection;
  for (const std::string &name : names) {
    if (name == "params")
      selection.params = true;
    else if (name == "grads")
      selection.grads = true;
    else if (name == "optimizer")
      selection.optimizer = true;
    else if (name == "inputs")
      selection.inputs = true;
    else
      return emitError(func.getLoc())
             << "memsched-offload: unknown offload entry '" << name
             << "'; expected a comma-separated subset of params, grads, "
                "optimizer, inputs";
  }
  return selection;
}

/// The number of leading arguments whose types are those of the results
/// after the first: memsched.torch's `(params...) -> (loss, grads...)`.
static unsigned countParameters(func::FuncOp func) {
  FunctionType type = func.getFunctionType();
  if (type.getNumResults() < 2 ||
      type.getNumInputs() < type.getNumResults() - 1)
    return 0;
  for (unsigned i = 0; i + 1 < type.getNumResults(); ++i)
    if (type.getInput(i) != type.getResult(i + 1) ||
        !isa<RankedTensorType>(type.getInput(i)))
      return 0;
  return type.getNumResults() - 1;
}

/// Moves the optimizer's update of each parameter to right after the last
/// op of the step before the optimizer that it reads (its gradient, for
/// Adam and SGD): an exporter that updates every parameter after the
/// backward pass (torch.optim's order) leaves the state's copies for the end,
/// where no compute hides them. The optimizer's ops are those from the first
/// one reading (through any chain) an optimizer state argument to the end;
/// each connected group of them (def-use among them, constants and empties
/// aside) moves as one, its ops in their order, if none has side effects.
/// Operand-free ops of that stretch then sit right before their first user.
/// Returns the number of groups moved.
static int64_t hoistOptimizerUpdates(func::FuncOp func, unsigned firstState,
                                     unsigned numState) {
  if (numState == 0)
    return 0;
  Block &entry = func.getBody().front();
  SmallVector<Operation *> ops;
  DenseMap<Operation *, size_t> positionOf;
  for (Operation &op : entry.without_terminator()) {
    positionOf[&op] = ops.size();
    ops.push_back(&op);
  }
  // Where the optimizer starts: the first op reading optimizer state.
  DenseSet<Operation *> readsState;
  size_t start = ops.size();
  for (auto [position, op] : llvm::enumerate(ops)) {
    for (Value value : getUsedValues(*op)) {
      auto argument = dyn_cast<BlockArgument>(value);
      bool isState = argument && argument.getOwner() == &entry &&
                     argument.getArgNumber() >= firstState &&
                     argument.getArgNumber() < firstState + numState;
      Operation *def = value.getDefiningOp();
      if (isState || (def && readsState.contains(def))) {
        readsState.insert(op);
        break;
      }
    }
    if (readsState.contains(op) && start == ops.size())
      start = position;
  }
  if (start == ops.size())
    return 0;
  // Groups of the optimizer's ops with operands, by union-find.
  size_t count = ops.size() - start;
  std::vector<size_t> parent(count);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](size_t i) {
    while (parent[i] != i)
      i = parent[i] = parent[parent[i]];
    return i;
  };
  auto inStretch = [&](Operation *op) {
    auto it = positionOf.find(op);
    return it != positionOf.end() && it->second >= start &&
           op->getNumOperands() > 0;
  };
  // The latest op before the stretch each group reads, and whether all its
  // ops are free of side effects.
  std::vector<int64_t> anchor(count, -1);
  std::vector<bool> movable(count, true);
  for (size_t i = 0; i < count; ++i) {
    Operation *op = ops[start + i];
    if (op->getNumOperands() == 0)
      continue;
    for (Value value : getUsedValues(*op)) {
      Operation *def = value.getDefiningOp();
      if (def && inStretch(def))
        parent[find(i)] = find(positionOf.lookup(def) - start);
    }
  }
  for (size_t i = 0; i < count; ++i) {
    Operation *op = ops[start + i];
    if (op->getNumOperands() == 0)
      continue;
    size_t group = find(i);
    if (!isMemoryEffectFree(op))
      movable[group] = false;
    for (Value value : getUsedValues(*op)) {
      Operation *def = value.getDefiningOp();
      if (!def || def->getBlock() != &entry)
        continue;
      size_t position = positionOf.lookup(def);
      if (position < start)
        anchor[group] = std::max<int64_t>(anchor[group], position);
    }
  }
  // Groups move in the order of their first ops, each after the ops moved
  // behind the same anchor before it.
  DenseMap<Operation *, Operation *> lastMovedAfter;
  int64_t moved = 0;
  std::vector<bool> done(count, false);
  for (size_t i = 0; i < count; ++i) {
    size_t group = find(i);
    if (done[group] || ops[start + i]->getNumOperands() == 0)
      continue;
    done[group] = true;
    if (!movable[group] || anchor[group] < 0)
      continue;
    Operation *after = ops[anchor[group]];
    Operation *&insertAfter = lastMovedAfter[after];
    if (!insertAfter)
      insertAfter = after;
    for (size_t j = i; j < count; ++j) {
      Operation *op = ops[start + j];
      if (op->getNumOperands() == 0 || find(j) != group)
        continue;
      op->moveAfter(insertAfter);
      insertAfter = op;
    }
    ++moved;
  }
  if (moved == 0)
    return 0;
  for (size_t i = 0; i < count; ++i) {
    Operation *op = ops[start + i];
    if (op->getNumOperands() != 0 || op->use_empty())
      continue;
    Operation *first = nullptr;
    for (Operation *user : op->getUsers()) {
      Operation *inEntry = entry.findAncestorOpInBlock(*user);
      if (inEntry && (!first || inEntry->isBeforeInBlock(first)))
        first = inEntry;
    }
    if (first)
      op->moveBefore(first);
  }
  return moved;
}

/// Whether \p use hands the argument's buffer itself on as memory the
/// function may write: the caller would see such a write, and an offloaded
/// argument's host copy would miss it. A tensor op writing into the
/// argument (its destination) does not: value semantics leave the argument
/// as it was.
static bool exposesBuffer(OpOperand &use) {
  auto toBuffer = dyn_cast<bufferization::ToBufferOp>(use.getOwner());
  return toBuffer && !toBuffer.getReadOnly();
}

/// Decides the plan, or emits why the function cannot be offloaded.
static FailureOr<OffloadPlan> planOffload(func::FuncOp func,
                                          const OffloadSelection &selection,
                                          const CostModel &costs) {
  OffloadPlan plan;
  plan.numParams = countParameters(func);
  // Inputs alone need no parameters told apart.
  bool movesState = selection.params || selection.grads || selection.optimizer;
  if (plan.numParams == 0 && movesState)
    return emitError(func.getLoc())
           << "memsched-offload: cannot tell the parameters of '@"
           << func.getSymName()
           << "': expected (params..., other arguments...) -> (loss, "
              "grads...) with each gradient of its parameter's type";
  // Which of them are parameters and which optimizer state: the exporter
  // says; without it, all are parameters.
  unsigned numWeights = plan.numParams, numState = 0;
  if (auto step = func->getAttrOfType<DictionaryAttr>(kTrainingStepAttrName)) {
    numWeights = step.getAs<IntegerAttr>("parameters").getInt();
    numState = step.getAs<IntegerAttr>("optimizer_state").getInt();
    if (numWeights + numState != plan.numParams)
      return emitError(func.getLoc())
             << "memsched-offload: '@" << func.getSymName() << "' says it has "
             << numWeights << " parameters and " << numState
             << " optimizer state tensors, but " << plan.numParams
             << " leading arguments are updated by its results";
  }
  if (selection.optimizer && numState == 0)
    return emitError(func.getLoc())
           << "memsched-offload: '@" << func.getSymName()
           << "' has no optimizer state (export the step with "
              "memsched.torch's optimizer=)";
  for (unsigned i = 0; i < plan.numParams; ++i) {
    bool isState = i >= numWeights;
    plan.movesArgument.push_back(isState ? selection.optimizer
                                         : selection.params);
    plan.copiesOutResult.push_back(isState ? selection.optimizer
                                           : selection.grads);
  }
  Block &entry = func.getBody().front();
  Operation *terminator = entry.getTerminator();
  // Inputs move where they are statically shaped tensors the function
  // neither returns nor exposes as writable memory: a scalar or a dynamic
  // shape has no copy to plan, a returned one would need a device copy of
  // its own, and one written through memory would need its host copy
  // updated. An op writing into an argument (its destination) writes into
  // the swapped-in copy instead.
  auto staysUnchanged = [&](BlockArgument argument) {
    return llvm::none_of(argument.getUses(), [&](OpOperand &use) {
      return entry.findAncestorOpInBlock(*use.getOwner()) == terminator ||
             exposesBuffer(use);
    });
  };
  for (unsigned i = plan.numParams; i < func.getNumArguments(); ++i) {
    BlockArgument argument = func.getArgument(i);
    auto type = dyn_cast<RankedTensorType>(argument.getType());
    plan.movesArgument.push_back(selection.inputs && type &&
                                 type.hasStaticShape() && !type.getEncoding() &&
                                 staysUnchanged(argument));
  }
  // Each op's position and the modelled compute before it, once: every
  // gap and prefetch distance below is a difference of two of these.
  SmallVector<Operation *> ops;
  DenseMap<Operation *, size_t> positionOf;
  SmallVector<double> computeBefore = {0.0};
  for (Operation &op : entry) {
    positionOf[&op] = ops.size();
    ops.push_back(&op);
    computeBefore.push_back(computeBefore.back() + costs.getCost(&op).seconds);
  }
  // One host-to-device copy per reader group, placed once all are known.
  struct PlannedCopy {
    unsigned param;
    size_t group;
    /// Modelled compute before the group's first reader.
    double deadline;
    double seconds;
  };
  std::vector<PlannedCopy> copies;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    BlockArgument param = func.getArgument(i);
    plan.issueBefore.emplace_back();
    plan.issueStart.emplace_back();
    if (i >= plan.numParams) {
      if (plan.movesArgument[i] && func.getArgAttr(i, kHostMemoryAttrName))
        return emitError(func.getLoc())
               << "memsched-offload: '@" << func.getSymName()
               << "' is offloaded already (argument #" << i
               << " is in host memory)";
    } else {
      auto type = cast<RankedTensorType>(param.getType());
      if (!type.hasStaticShape() || type.getEncoding())
        return emitError(func.getLoc())
               << "memsched-offload: parameter #" << i << " of '@"
               << func.getSymName() << "' has type " << type
               << "; only statically shaped tensors without an encoding move";
      if (func.getArgAttr(i, kHostMemoryAttrName) ||
          func.getResultAttr(i + 1, kHostMemoryAttrName))
        return emitError(func.getLoc())
               << "memsched-offload: '@" << func.getSymName()
               << "' is offloaded already (argument #" << i << " or result #"
               << i + 1 << " is in host memory)";
      if (plan.copiesOutResult[i] &&
          isa<BlockArgument>(terminator->getOperand(i + 1)))
        return emitError(func.getLoc())
               << "memsched-offload: gradient #" << i << " of '@"
               << func.getSymName() << "' is an argument, not a value the "
               << "function makes";
    }
    if (!plan.movesArgument[i]) {
      plan.readerGroups.emplace_back();
      continue;
    }
    // The readers in program order (an op writing into the parameter, its
    // destination, among them: it writes into the group's copy); returning
    // it or writing it through memory would not leave it in host memory
    // unchanged (such an input stays on the device, above).
    SmallVector<Operation *> readers;
    for (OpOperand &use : param.getUses()) {
      Operation *reader = entry.findAncestorOpInBlock(*use.getOwner());
      if (reader == terminator)
        return emitError(func.getLoc())
               << "memsched-offload: parameter #" << i << " of '@"
               << func.getSymName() << "' is returned; an offloaded "
               << "parameter stays in host memory";
      if (exposesBuffer(use))
        return emitError(use.getOwner()->getLoc())
               << "memsched-offload: parameter #" << i << " of '@"
               << func.getSymName() << "' is exposed as writable memory by '"
               << use.getOwner()->getName()
               << "'; an offloaded parameter's host copy would miss what the "
                  "function writes there";
      if (!llvm::is_contained(readers, reader))
        readers.push_back(reader);
    }
    llvm::sort(readers, [&](Operation *a, Operation *b) {
      return positionOf.lookup(a) < positionOf.lookup(b);
    });
    const DeviceSpec &device = costs.getDevice();
    double copySeconds =
        device.copyLatency +
        static_cast<double>(*getStorageBytes(param.getType())) /
            std::max(device.hostToDeviceBandwidth, 1.0);
    // A new group where the compute between two readers would hide a
    // second copy twice over: holding the copy that long costs memory for
    // nothing.
    std::vector<SmallVector<Operation *>> groups;
    for (Operation *reader : readers) {
      if (groups.empty() ||
          computeBefore[positionOf.lookup(reader)] -
                  computeBefore[positionOf.lookup(groups.back().back()) + 1] >
              2 * copySeconds)
        groups.emplace_back();
      groups.back().push_back(reader);
    }
    for (auto [g, group] : llvm::enumerate(groups))
      copies.push_back(
          {i, g, computeBefore[positionOf.lookup(group.front())], copySeconds});
    plan.readerGroups.push_back(std::move(groups));
    plan.issueBefore.back().resize(plan.readerGroups.back().size());
    plan.issueStart.back().resize(plan.readerGroups.back().size());
  }
  // Prefetch: the host-to-device link runs one copy at a time, in issue
  // order. Backwards from the last deadline (the modelled compute before a
  // group's first reader), each copy is to end by its deadline and before
  // the next copy starts, so a large copy is moved ahead of the small ones
  // it would otherwise delay. It is issued before the latest op whose
  // modelled start is not after its start, without reaching back into the
  // previous group of the same parameter.
  llvm::stable_sort(copies, [](const PlannedCopy &a, const PlannedCopy &b) {
    return a.deadline > b.deadline;
  });
  double linkFree = std::numeric_limits<double>::infinity();
  for (const PlannedCopy &copy : copies) {
    double start = std::min(copy.deadline, linkFree) - copy.seconds;
    linkFree = start;
    const auto &groups = plan.readerGroups[copy.param];
    size_t first = positionOf.lookup(groups[copy.group].front());
    size_t earliest =
        copy.group == 0 ? 0
                        : positionOf.lookup(groups[copy.group - 1].back()) + 1;
    size_t point = first;
    while (point > earliest && computeBefore[point] > start)
      --point;
    plan.issueBefore[copy.param][copy.group] = ops[point];
    plan.issueStart[copy.param][copy.group] = start;
  }
  return plan;
}

/// Rewrites `func` as `plan` says.
static void applyOffload(func::FuncOp func, const OffloadPlan &plan) {
  Block &entry = func.getBody().front();
  Operation *terminator = entry.getTerminator();
  MLIRContext *context = func.getContext();
  OpBuilder atStart = OpBuilder::atBlockBegin(&entry);
  SmallVector<Value> hostOf(plan.movesArgument.size());
  // Swap-ins in the order the link is to run them: those issued before the
  // same op then stand in that order.
  SmallVector<std::tuple<double, unsigned, size_t>> copies;
  for (unsigned i = 0; i < plan.movesArgument.size(); ++i) {
    if (!plan.movesArgument[i])
      continue;
    BlockArgument param = func.getArgument(i);
    func.setArgAttr(i, kHostMemoryAttrName, UnitAttr::get(context));
    auto hostType =
        HostTensorType::get(context, cast<RankedTensorType>(param.getType()));
    hostOf[i] =
        HostArgumentOp::create(atStart, param.getLoc(), hostType, param);
    for (size_t g = 0; g < plan.readerGroups[i].size(); ++g)
      copies.emplace_back(plan.issueStart[i][g], i, g);
  }
  llvm::stable_sort(copies, [](const auto &a, const auto &b) {
    return std::get<0>(a) < std::get<0>(b);
  });
  for (auto [start, i, g] : copies) {
    BlockArgument param = func.getArgument(i);
    OpBuilder before(plan.issueBefore[i][g]);
    Value copy =
        SwapInOp::create(before, param.getLoc(), param.getType(), hostOf[i]);
    for (Operation *reader : plan.readerGroups[i][g])
      param.replaceUsesWithIf(copy, [&](OpOperand &use) {
        return reader->isAncestor(use.getOwner());
      });
  }
  DenseMap<Value, Value> hostCopyOf;
  for (unsigned i = 0; i < plan.numParams; ++i) {
    if (!plan.copiesOutResult[i])
      continue;
    unsigned index = i + 1;
    Value grad = terminator->getOperand(index);
    Value &host = hostCopyOf[grad];
    if (!host) {
      // Copied out as soon as it is made.
      OpBuilder after(context);
      after.setInsertionPointAfter(grad.getDefiningOp());
      host = SwapOutOp::create(
                 after, grad.getLoc(),
                 HostTensorType::get(context,
                                     cast<RankedTensorType>(grad.getType())),
                 grad)
                 .getResult();
    }
    OpBuilder beforeReturn(terminator);
    Value returned =
        HostResultOp::create(beforeReturn, grad.getLoc(), grad.getType(), host);
    terminator->setOperand(index, returned);
    func.setResultAttr(index, kHostMemoryAttrName, UnitAttr::get(context));
  }
}

bool mlir::memsched::isOffloadable(func::FuncOp func) {
  return !func.isExternal() && !func.isPrivate() &&
         !func->hasAttr(kHostAttrName);
}

FailureOr<int64_t> mlir::memsched::applyResidentOffload(
    func::FuncOp func, ArrayRef<std::string> names, const CostModel &costs) {
  FailureOr<OffloadSelection> selection = parseSelection(names, func);
  if (failed(selection))
    return failure();
  if (!func.getBody().hasOneBlock())
    return emitError(func.getLoc()) << "memsched-offload handles single-block "
                                       "functions only";
  FailureOr<OffloadPlan> plan = planOffload(func, *selection, costs);
  if (failed(plan))
    return failure();
  // What the input planned: budget fractions refer to it.
  int64_t plannedBefore =
      getInputPlannedBytes(func, analyzeFunction(func, costs).plannedBytes());
  // The copies are planned in program order: the optimizer's updates first
  // move next to their gradients (once the function is known to offload,
  // so that a refusal leaves it as it was).
  if (auto step = func->getAttrOfType<DictionaryAttr>(kTrainingStepAttrName))
    if (hoistOptimizerUpdates(
            func, step.getAs<IntegerAttr>("parameters").getInt(),
            step.getAs<IntegerAttr>("optimizer_state").getInt()) > 0) {
      plan = planOffload(func, *selection, costs);
      if (failed(plan))
        return failure();
    }
  applyOffload(func, *plan);
  int64_t moved = 0;
  unsigned movedArguments = 0, copiedResults = 0;
  for (unsigned i = 0; i < plan->movesArgument.size(); ++i) {
    bool copiesOut = i < plan->numParams && plan->copiesOutResult[i];
    if (!plan->movesArgument[i] && !copiesOut)
      continue;
    int64_t bytes = *getStorageBytes(func.getArgument(i).getType());
    moved += bytes * (plan->movesArgument[i] + copiesOut);
    movedArguments += plan->movesArgument[i];
    copiedResults += copiesOut;
  }
  Builder builder(func.getContext());
  func->setAttr(
      kOffloadAttrName,
      builder.getDictionaryAttr(
          {builder.getNamedAttr("params",
                                builder.getBoolAttr(selection->params)),
           builder.getNamedAttr("grads", builder.getBoolAttr(selection->grads)),
           builder.getNamedAttr("optimizer",
                                builder.getBoolAttr(selection->optimizer)),
           builder.getNamedAttr("inputs",
                                builder.getBoolAttr(selection->inputs)),
           builder.getNamedAttr("arguments",
                                builder.getI64IntegerAttr(movedArguments)),
           builder.getNamedAttr("results",
                                builder.getI64IntegerAttr(copiedResults)),
           builder.getNamedAttr("moved_bytes",
                                builder.getI64IntegerAttr(moved)),
           builder.getNamedAttr("planned_before_bytes",
                                builder.getI64IntegerAttr(plannedBefore))}));
  return moved;
}

void OffloadPass::runOnOperation() {
  func::FuncOp func = getOperation();
  // Host glue (memsched-exec-harness's main) is not a training step.
  if (!isOffloadable(func) || offload.empty())
    return markAllAnalysesPreserved();
  FailureOr<DeviceSpec> spec =
      DeviceSpec::resolveOrEmitError(device, func, "memsched-offload");
  if (failed(spec))
    return signalPassFailure();
  FailureOr<int64_t> moved =
      applyResidentOffload(func, offload, CostModel(*spec));
  if (failed(moved))
    return signalPassFailure();
  DeviceSpec::record(device, func);
  auto dict = func->getAttrOfType<DictionaryAttr>(kOffloadAttrName);
  emitRemark(func.getLoc())
      << "memsched-offload: " << dict.getAs<IntegerAttr>("arguments").getInt()
      << " arguments in host memory, "
      << dict.getAs<IntegerAttr>("results").getInt() << " results copied out; "
      << formatBytes(*moved) << " no longer resident on the device";
}
