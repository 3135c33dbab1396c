//===- TensorGraph.cpp - Func body as a scheduling problem ------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// Buffers follow one-shot bufferization: a destination-style result reuses its
// init's buffer when no later op reads that buffer (the read-after-write
// conflict rule, evaluated in the current op order), view ops alias their
// source, `tensor.empty` allocates at the first write, and arguments and
// constants are resident. The model is checked against real bufferization by
// `test-memsched-check-bufferization-model`.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"
#include "memsched/Dialect/Memsched/IR/MemschedOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::memsched;
using scheduling::Buffer;
using scheduling::BufferId;
using scheduling::BufferKind;
using scheduling::kNoId;
using scheduling::Problem;
using scheduling::Task;
using scheduling::TaskId;
using scheduling::ValueId;

TaskId TensorGraph::getTask(Operation *op) const {
  auto it = taskOfOp.find(op);
  return it == taskOfOp.end() ? kNoId : it->second;
}

ValueId TensorGraph::getValueId(Value value) const {
  auto it = valueIds.find(value);
  return it == valueIds.end() ? kNoId : it->second;
}

/// Returns the source whose buffer `op`'s results alias, for ops that
/// bufferize to views; null otherwise.
static Value getViewSource(Operation *op) {
  if (auto view = dyn_cast<ViewLikeOpInterface>(op))
    return view.getViewSource();
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
          [](auto reshape) { return reshape.getSrc(); })
      .Case<tensor::ExtractSliceOp, tensor::CastOp, tensor::ReshapeOp,
            tensor::BitcastOp>([](auto viewOp) { return viewOp.getSource(); })
      .Default([](Operation *) { return Value(); });
}

/// Returns true if `op` reads the buffer of `initValue`'s init through another
/// operand in a way that forbids writing in place: one-shot bufferization only
/// allows it when every access is elementwise (all loops parallel, every
/// access to the shared buffer by the identity map).
static bool readsInitBufferElsewhere(Operation *op, OpOperand *init,
                                     BufferId initBuffer,
                                     function_ref<BufferId(Value)> bufferOf) {
  // A tensor read inside the payload (tensor.extract) is read at arbitrary
  // positions, so one-shot bufferization never writes it in place.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  if (llvm::any_of(captured, [&](Value value) {
        return isa<ShapedType>(value.getType()) &&
               bufferOf(value) == initBuffer;
      }))
    return true;
  bool aliasedElsewhere =
      llvm::any_of(op->getOpOperands(), [&](OpOperand &use) {
        return &use != init && isa<ShapedType>(use.get().getType()) &&
               bufferOf(use.get()) == initBuffer;
      });
  if (!aliasedElsewhere)
    return false;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return true;
  // As one-shot bufferization's bufferizesToElementwiseAccess: all loops
  // parallel and every access to the shared buffer (the init included) by
  // the identity map; other operands (e.g. a broadcast bias) may use any
  // map.
  if (linalgOp.getNumLoops() != linalgOp.getNumParallelLoops())
    return true;
  for (OpOperand &use : op->getOpOperands()) {
    if (!isa<ShapedType>(use.get().getType()))
      continue;
    if (&use != init && bufferOf(use.get()) != initBuffer)
      continue;
    if (!linalgOp.getMatchingIndexingMap(&use).isIdentity())
      return true;
  }
  return false;
}

/// Ops whose regions are payloads evaluated as part of the op itself.
static bool hasPayloadRegionsOnly(Operation *op) {
  return isa<linalg::LinalgOp, tensor::PadOp, tensor::GenerateOp>(op);
}

/// Returns a description of the first type in `types` that the memory model
/// cannot size, or std::nullopt.
static std::optional<Type> findUnsizedType(TypeRange types) {
  for (Type type : types) {
    if (isa<ShapedType>(type) && !getStorageBytes(type))
      return type;
  }
  return std::nullopt;
}

namespace mlir::memsched {

/// Walks a function body once, in order, and fills a TensorGraph.
class TensorGraphBuilder {
public:
  TensorGraphBuilder(TensorGraph &graph, func::FuncOp func,
                     const CostModel &costModel)
      : graph(graph), func(func), costModel(costModel) {}

  void run();

private:
  /// Per-buffer state needed to decide in-place writes.
  struct BufferState {
    /// Last position (op index) at which any value of the buffer is used.
    int64_t lastUse = -1;
    /// Tasks that read the buffer since its last in-place write; a new
    /// in-place write must follow them.
    SmallVector<TaskId> readersSinceWrite;
    /// Constants are read-only; writes to them always get a new buffer.
    bool isReadOnly = false;
  };

  LogicalResult checkStructure();
  BufferId addBuffer(Value root, BufferKind kind, bool isReadOnly);
  ValueId addValue(Value value, BufferId buffer, TaskId producer);
  void addResults(Operation *op, TaskId task, int64_t position);

  TensorGraph &graph;
  func::FuncOp func;
  const CostModel &costModel;
  Problem &problem = graph.problem;
  std::vector<BufferState> bufferStates;
  DenseMap<Value, int64_t> lastUse;
};

} // namespace mlir::memsched

LogicalResult TensorGraphBuilder::checkStructure() {
  Region &body = func.getBody();
  if (!body.hasOneBlock()) {
    graph.failureReason = "function has " +
                          std::to_string(body.getBlocks().size()) +
                          " blocks; memsched handles single-block functions";
    func.emitError() << "memsched cannot analyze '@" << func.getSymName()
                     << "': it has " << body.getBlocks().size()
                     << " blocks, only single-block functions are supported";
    graph.status = TensorGraphStatus::Failed;
    return failure();
  }
  if (std::optional<Type> type = findUnsizedType(func.getArgumentTypes())) {
    graph.failureReason = "dynamic or unsized argument type";
    func.emitRemark() << "memsched leaves '@" << func.getSymName()
                      << "' unchanged: argument type " << *type
                      << " has no static size";
    graph.status = TensorGraphStatus::Skipped;
    return failure();
  }
  for (Operation &op : body.front()) {
    if (op.getNumRegions() != 0 && !hasPayloadRegionsOnly(&op)) {
      graph.failureReason = "op with regions";
      op.emitError() << "memsched cannot schedule an op with regions (only "
                        "linalg, tensor.pad and tensor.generate payloads are "
                        "supported)";
      graph.status = TensorGraphStatus::Failed;
      return failure();
    }
    std::optional<Type> type = findUnsizedType(op.getOperandTypes());
    if (!type)
      type = findUnsizedType(op.getResultTypes());
    if (type) {
      graph.failureReason = "dynamic or unsized tensor type";
      op.emitRemark() << "memsched leaves '@" << func.getSymName()
                      << "' unchanged: " << *type << " has no static size";
      graph.status = TensorGraphStatus::Skipped;
      return failure();
    }
  }
  return success();
}

BufferId TensorGraphBuilder::addBuffer(Value root, BufferKind kind,
                                       bool isReadOnly) {
  Buffer buffer;
  buffer.sizeBytes = getStorageBytes(root.getType()).value_or(0);
  // Scalars live in registers, not in buffers.
  if (!isa<ShapedType>(root.getType()))
    buffer.sizeBytes = 0;
  buffer.kind = kind;
  BufferId id = problem.addBuffer(std::move(buffer));
  BufferState state;
  state.isReadOnly = isReadOnly;
  bufferStates.push_back(std::move(state));
  return id;
}

ValueId TensorGraphBuilder::addValue(Value value, BufferId buffer,
                                     TaskId producer) {
  scheduling::Value problemValue;
  problemValue.sizeBytes = problem.buffer(buffer).sizeBytes;
  problemValue.buffer = buffer;
  problemValue.producer = producer;
  if (Operation *def = value.getDefiningOp())
    problemValue.definedBy = graph.getTask(def);
  ValueId id = problem.addValue(std::move(problemValue));
  graph.values.push_back(value);
  graph.valueIds[value] = id;
  BufferState &state = bufferStates[buffer];
  state.lastUse = std::max(state.lastUse, lastUse.lookup(value));
  return id;
}

void TensorGraphBuilder::addResults(Operation *op, TaskId task,
                                    int64_t position) {
  if (Value source = getViewSource(op)) {
    BufferId buffer = problem.value(graph.getValueId(source)).buffer;
    for (Value result : op->getResults())
      addValue(result, buffer, kNoId);
    return;
  }
  bool isConstant = op->hasTrait<OpTrait::ConstantLike>();
  auto dpsOp = dyn_cast<DestinationStyleOpInterface>(op);
  for (OpResult result : op->getResults()) {
    if (isConstant) {
      addValue(result,
               addBuffer(result,
                         isa<ShapedType>(result.getType())
                             ? BufferKind::Resident
                             : BufferKind::Transient,
                         /*isReadOnly=*/true),
               task);
      continue;
    }
    if (isa<tensor::EmptyOp>(op)) {
      // Allocated by the first op that writes it, not here.
      addValue(result,
               addBuffer(result, BufferKind::Transient, /*isReadOnly=*/false),
               kNoId);
      continue;
    }
    if (dpsOp && isa<RankedTensorType>(result.getType())) {
      OpOperand *init = dpsOp.getTiedOpOperand(result);
      BufferId initBuffer = problem.value(graph.getValueId(init->get())).buffer;
      BufferState &state = bufferStates[initBuffer];
      // One-shot bufferization writes in place unless a later op still reads
      // the buffer's old contents (or the buffer is read-only).
      auto bufferOf = [&](Value value) {
        return problem.value(graph.getValueId(value)).buffer;
      };
      if (!state.isReadOnly && state.lastUse <= position &&
          !readsInitBufferElsewhere(op, init, initBuffer, bufferOf)) {
        for (TaskId reader : state.readersSinceWrite)
          if (reader != task)
            problem.addDependence(reader, task);
        state.readersSinceWrite.clear();
        addValue(result, initBuffer, task);
        continue;
      }
    }
    addValue(result,
             addBuffer(result, BufferKind::Transient, /*isReadOnly=*/false),
             task);
  }
}

/// The values `op` reads: its operands, then the values defined outside its
/// regions that the regions use, each once.
static llvm::SetVector<Value> usedValues(Operation &op) {
  llvm::SetVector<Value> used(op.operand_begin(), op.operand_end());
  if (op.getNumRegions() != 0)
    getUsedValuesDefinedAbove(op.getRegions(), used);
  return used;
}

void TensorGraphBuilder::run() {
  if (failed(checkStructure()))
    return;
  Block &block = func.getBody().front();
  Operation *terminator = block.getTerminator();

  int64_t position = 0;
  for (Operation &op : block) {
    for (Value used : usedValues(op))
      lastUse[used] = position;
    ++position;
  }

  for (BlockArgument argument : block.getArguments())
    addValue(argument,
             addBuffer(argument, BufferKind::Resident, /*isReadOnly=*/false),
             kNoId);

  position = 0;
  for (Operation &op : block.without_terminator()) {
    OpCost cost = costModel.getCost(&op);
    if (cost.isEstimate)
      op.emitRemark() << "memsched has no cost model for '" << op.getName()
                      << "'; estimated as " << cost.flops << " operations and "
                      << cost.bytesMoved << " bytes";
    bool isFence = !isMemoryEffectFree(&op) || isa<CallOpInterface>(&op);
    // Swaps are ordered by design (their position is the copy's issue
    // point); only other side effects are worth a remark.
    if (isFence && !isa<SwapOutOp, SwapInOp>(&op))
      op.emitRemark() << "memsched keeps '" << op.getName()
                      << "' in place relative to other side-effecting ops";

    Task task;
    task.name = op.getName().getStringRef().str();
    task.duration = cost.seconds;
    task.workspaceBytes = cost.workspaceBytes;
    task.isFence = isFence;
    TaskId taskId = problem.addTask(std::move(task));
    graph.ops.push_back(&op);
    graph.taskOfOp[&op] = taskId;
    graph.costs.push_back(cost);

    // Values captured by payload regions (a scalar, or a tensor read with
    // tensor.extract inside a linalg.generic) are read like operands.
    for (Value operand : usedValues(op)) {
      ValueId valueId = graph.getValueId(operand);
      problem.addConsumer(valueId, taskId);
      const scheduling::Value &value = problem.value(valueId);
      bufferStates[value.buffer].readersSinceWrite.push_back(taskId);
      // Values that no task writes (empty tensors, views) still order their
      // defining op before their users.
      if (Operation *def = operand.getDefiningOp()) {
        TaskId defTask = graph.getTask(def);
        if (value.producer != defTask && defTask != kNoId)
          problem.addDependence(defTask, taskId);
      }
    }
    addResults(&op, taskId, position);
    ++position;
  }

  for (Value returned : terminator->getOperands()) {
    ValueId valueId = graph.getValueId(returned);
    problem.value(valueId).liveToEnd = true;
    // A returned value that no op writes (an empty tensor, or a view of one)
    // is still allocated where it is defined, and must be counted from there.
    Operation *def = returned.getDefiningOp();
    if (problem.value(valueId).producer == kNoId && def &&
        graph.getTask(def) != kNoId)
      problem.addConsumer(valueId, graph.getTask(def));
  }

  std::string error;
  if (!problem.verify(&error)) {
    func.emitError() << "memsched built an invalid scheduling problem for '@"
                     << func.getSymName() << "': " << error;
    graph.failureReason = error;
    graph.status = TensorGraphStatus::Failed;
    return;
  }
  graph.status = TensorGraphStatus::Built;
}

TensorGraph TensorGraph::build(func::FuncOp func, const CostModel &costModel) {
  TensorGraph graph;
  TensorGraphBuilder(graph, func, costModel).run();
  return graph;
}

std::optional<TensorGraph>
TensorGraph::buildOrEmitError(func::FuncOp func, const CostModel &costModel,
                              StringRef passName) {
  TensorGraph graph = build(func, costModel);
  if (graph.getStatus() == TensorGraphStatus::Skipped)
    func.emitError() << passName << " cannot bound the memory of '@"
                     << func.getSymName() << "': " << graph.getFailureReason();
  if (graph.getStatus() != TensorGraphStatus::Built)
    return std::nullopt;
  return graph;
}
