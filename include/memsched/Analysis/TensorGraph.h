//===- TensorGraph.h - Func body as a scheduling problem --------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares TensorGraph, the only place where IR becomes a
// scheduling problem, the planning graph: tasks are the computations the user
// wrote, tensor values are grouped into the buffers that one-shot
// bufferization will create, and arguments and constants become resident
// buffers (the memory model of the project guide).
//
// Bookkeeping ops are not tasks of their own. They are folded into the
// computation they serve, so that a tree written in destination-passing style
// is a tree:
//  - free ops, which compute nothing and allocate nothing where they stand:
//    constants, `tensor.empty` used only as a destination, and views of
//    arguments, constants or other free ops. They belong to no task; passes
//    that move ops put them at the start of the body;
//  - fills of an empty destination whose only reader is one computation: part
//    of that computation's task, before it;
//  - views of a task's results: part of that task, after it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_TENSORGRAPH_H
#define MEMSCHED_ANALYSIS_TENSORGRAPH_H

#include "memsched/Analysis/CostModel.h"
#include "memsched/Scheduling/Problem.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"

#include <optional>
#include <string>

namespace mlir::memsched {

/// How TensorGraph::build ended.
enum class TensorGraphStatus {
  /// The graph describes the function.
  Built,
  /// The function is outside the model but valid (dynamic shapes): passes
  /// leave it alone.
  Skipped,
  /// The function cannot be handled (several blocks, region ops, ...).
  Failed,
};

/// A function body as a scheduling problem, plus the mapping back to IR.
class TensorGraph {
public:
  /// Builds the graph of `func` in its current op order. Emits nothing:
  /// analyses run on many candidate copies, so the pass that owns the
  /// function says why a graph could not be built (emitStatus).
  static TensorGraph build(func::FuncOp func, const CostModel &costModel);

  /// Builds the graph of `func` for a pass that must bound its memory:
  /// std::nullopt when it cannot, with an error naming `passName` at the
  /// location concerned (for skipped functions too).
  static std::optional<TensorGraph> buildOrEmitError(func::FuncOp func,
                                                     const CostModel &costModel,
                                                     StringRef passName);

  /// Emits why the graph was not built, once, at the location concerned: an
  /// error for Failed, a remark for Skipped (an error when `skipIsError`),
  /// prefixed with `passName`. Nothing when Built.
  void emitStatus(StringRef passName, bool skipIsError = false) const;
  /// How the build ended; the rest is meaningful only when Built.
  TensorGraphStatus getStatus() const { return status; }
  /// Why the function was skipped or failed.
  StringRef getFailureReason() const { return failureReason; }

  /// The scheduling problem; task ids follow the current op order.
  const scheduling::Problem &getProblem() const { return problem; }
  /// The computation of a task (its anchor op).
  Operation *getOp(scheduling::TaskId task) const { return ops[task]; }
  /// Every op of a task in block order: folded fills, the computation, then
  /// views of its results. Moving or cloning a task moves or clones these,
  /// except the return task's terminator, which stays last.
  ArrayRef<Operation *> getOps(scheduling::TaskId task) const {
    return taskOps[task];
  }
  /// Ops that belong to no task (constants, destination-only empties, views
  /// of those or of arguments), in block order.
  ArrayRef<Operation *> getFreeOps() const { return freeOps; }
  /// The task an op belongs to, or kNoId for free ops, the terminator (but
  /// see getReturnTask) and ops outside the function's block.
  scheduling::TaskId getTask(Operation *op) const;
  /// The task of the function's return where it copies returned views
  /// (one-shot bufferization copies a returned view whose layout is not the
  /// identity into a new buffer right before the return): the last task,
  /// after every other, whose op is the terminator. kNoId when the return
  /// copies nothing.
  scheduling::TaskId getReturnTask() const { return returnTask; }
  /// The IR value of a problem value (for the copy the return makes of a
  /// returned view, that operand).
  Value getValue(scheduling::ValueId value) const { return values[value]; }
  /// The problem value of an IR value, or kNoId.
  scheduling::ValueId getValueId(Value value) const;
  /// The cost of each task: the sum over its ops.
  const OpCost &getCost(scheduling::TaskId task) const { return costs[task]; }
  /// Number of tasks.
  size_t getNumTasks() const { return ops.size(); }
  /// Number of ops of the block (the terminator excluded) whose cost is an
  /// estimate (no cost interface).
  int64_t getNumEstimatedOps() const { return numEstimatedOps; }

private:
  TensorGraphStatus status = TensorGraphStatus::Failed;
  std::string failureReason;
  /// Where the failure is and the full message emitStatus prints.
  std::optional<Location> failureLoc;
  std::string failureMessage;
  scheduling::Problem problem;
  SmallVector<Operation *> ops;
  std::vector<SmallVector<Operation *, 1>> taskOps;
  SmallVector<Operation *> freeOps;
  DenseMap<Operation *, scheduling::TaskId> taskOfOp;
  scheduling::TaskId returnTask = scheduling::kNoId;
  int64_t numEstimatedOps = 0;
  SmallVector<Value> values;
  DenseMap<Value, scheduling::ValueId> valueIds;
  std::vector<OpCost> costs;

  friend class TensorGraphBuilder;
};

/// The planning problem of one single-block body of structured control
/// flow, under the memory model's body rule (docs/memory-model.md): each op
/// of the block but the terminator is a task, each allocation a buffer
/// from its op to the last op using it (views and writes in place
/// included), what leaves the block live to its end, nested bodies and
/// callees workspaces; the block's def-use edges (uses inside an op's
/// regions included) order the tasks.
struct BodyGraph {
  scheduling::Problem problem;
  /// The op of each task.
  std::vector<Operation *> ops;
};

/// Builds the graph of `block`; std::nullopt where an op of the block may
/// have side effects (its order is then kept) or the region has several
/// blocks.
std::optional<BodyGraph> buildBodyGraph(Block &block,
                                        const CostModel &costModel);

/// The bytes one run of `block`, a body of structured control flow, holds
/// at its peak in its current order: the workspace rule of the memory model.
int64_t getBodyPeakBytes(Block &block);

/// The values `op` reads: its operands, then the values defined outside its
/// regions that the regions use, each once.
llvm::SetVector<Value> getUsedValues(Operation &op);

/// The operand whose buffer a tensor result of a destination-style op or of
/// an `scf.for` is written into when the memory model writes it in place;
/// null for other results.
OpOperand *getTiedInit(OpResult result);

/// The tensor `op` may view (a slice, cast, reshape or other view-like op
/// reads nothing and may share its source's buffer); null for other ops.
Value getViewCandidateSource(Operation *op);

/// Whether one-shot bufferization copies `value` where it crosses a
/// function boundary (returned, or passed to a call): with identity layouts
/// there, a view with an offset or strides other than row-major is copied
/// into a new buffer (a view of unknown layout counts as copied), and so is
/// a choice's result whose type has a dynamic layout.
bool isCopiedAtFunctionBoundary(Value value);

/// Whether the result of `op` tied to `init` may be written into the buffer
/// of the input `input`, as far as the op itself tells: the op is
/// elementwise on tensors (every loop parallel), its payload does not read
/// `init`, the input and the init are read through identity maps, the input
/// has the result's type, and no other operand of the op is in the input's
/// buffer (`bufferOf` gives a value's buffer id, or a negative id for none).
/// memsched-inplace adds the order and ownership conditions; the floor of
/// the report uses it with `allowRepeatedInput`: other operands holding
/// the input itself through identity maps then do not count (each element
/// is read before it is written; a bound must not exclude what a rewrite
/// could do).
bool mayWriteIntoInput(Operation *op, OpOperand &init, OpOperand &input,
                       llvm::function_ref<int32_t(Value)> bufferOf,
                       bool allowRepeatedInput = false);

/// Whether memsched-inplace may make the result of `op` tied to `init` take
/// the buffer of `input`, as far as the op and the buffers' kinds go:
/// mayWriteIntoInput, the init (where it has a buffer) is transient and not
/// already one of the inputs' buffers, the input is not an insertion over its
/// whole destination (canonicalization folds it into its source) nor a call's
/// result (a call's results may alias each other or its arguments, which
/// one-shot bufferization does not see at the call), and it is transient or,
/// where `mayOverwrite` allows (donated arguments), resident. Whether anything
/// reads the input's buffer afterwards is the caller's to check:
/// memsched-inplace in the order, the recomputation planners' model
/// (Task::inPlaceWrites) in each plan's.
bool isInPlaceCandidate(const TensorGraph &graph, Operation *op,
                        OpOperand &init, OpOperand &input,
                        llvm::function_ref<int32_t(Value)> bufferOf,
                        llvm::function_ref<bool(int32_t)> mayOverwrite);

} // namespace mlir::memsched

#endif // MEMSCHED_ANALYSIS_TENSORGRAPH_H
