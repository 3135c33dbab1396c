//===- TensorGraph.h - Func body as a scheduling problem --------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares TensorGraph, the only place where IR becomes a
// scheduling problem: ops become tasks, tensor values are grouped into the
// buffers that one-shot bufferization will create, and arguments and
// constants become resident buffers (the memory model of the project guide).
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_TENSORGRAPH_H
#define MEMSCHED_ANALYSIS_TENSORGRAPH_H

#include "memsched/Analysis/CostModel.h"
#include "memsched/Scheduling/Problem.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace mlir::memsched {

/// How TensorGraph::build ended.
enum class TensorGraphStatus {
  /// The graph describes the function.
  Built,
  /// The function is outside the model but valid (dynamic shapes): it is left
  /// alone and a remark says why.
  Skipped,
  /// The function cannot be handled (several blocks, region ops, ...): an
  /// error was emitted.
  Failed,
};

/// A function body as a scheduling problem, plus the mapping back to IR.
class TensorGraph {
public:
  /// Builds the graph of `func` in its current op order. Diagnostics are
  /// emitted on the ops concerned: remarks for skipped functions, for ops
  /// without a cost model and for side-effecting ops that become fences;
  /// errors for unsupported structure.
  static TensorGraph build(func::FuncOp func, const CostModel &costModel);

  /// Builds the graph of `func` for a pass that must bound its memory:
  /// std::nullopt when it cannot, with an error naming `passName` for a
  /// skipped function (the builder reports failures itself).
  static std::optional<TensorGraph> buildOrEmitError(func::FuncOp func,
                                                     const CostModel &costModel,
                                                     StringRef passName);
  /// How the build ended; the rest is meaningful only when Built.
  TensorGraphStatus getStatus() const { return status; }
  /// Why the function was skipped or failed.
  StringRef getFailureReason() const { return failureReason; }

  /// The scheduling problem; task ids follow the current op order.
  const scheduling::Problem &getProblem() const { return problem; }
  /// The op of a task.
  Operation *getOp(scheduling::TaskId task) const { return ops[task]; }
  /// The task of an op, or kNoId for the terminator and unknown ops.
  scheduling::TaskId getTask(Operation *op) const;
  /// The IR value of a problem value.
  Value getValue(scheduling::ValueId value) const { return values[value]; }
  /// The problem value of an IR value, or kNoId.
  scheduling::ValueId getValueId(Value value) const;
  /// The cost of each task's op.
  const OpCost &getCost(scheduling::TaskId task) const { return costs[task]; }
  /// Number of ops that are tasks.
  size_t getNumTasks() const { return ops.size(); }

private:
  TensorGraphStatus status = TensorGraphStatus::Failed;
  std::string failureReason;
  scheduling::Problem problem;
  SmallVector<Operation *> ops;
  DenseMap<Operation *, scheduling::TaskId> taskOfOp;
  SmallVector<Value> values;
  DenseMap<Value, scheduling::ValueId> valueIds;
  std::vector<OpCost> costs;

  friend class TensorGraphBuilder;
};

} // namespace mlir::memsched

#endif // MEMSCHED_ANALYSIS_TENSORGRAPH_H
