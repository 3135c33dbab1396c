//===- PlanRewrite.h - Writing memory plans into functions ------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// Shared by the budget passes (memsched-remat, memsched-swap, memsched-fit)
// and memsched-inplace: writing recomputation, swap and in-place decisions
// into a function. The decisions come from lib/Scheduling.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_TRANSFORMS_PLANREWRITE_H
#define MEMSCHED_LIB_TRANSFORMS_PLANREWRITE_H

#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Scheduling/Remat.h"
#include "memsched/Scheduling/Swap.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::memsched {

/// Inserts the swaps of \p swaps into \p work, a copy of the function
/// \p graph was built from (in program order); \p mapping maps the
/// original's values and ops to the copy's.
void applySwapDecisions(const TensorGraph &graph,
                        const std::vector<scheduling::SwapDecision> &swaps,
                        const IRMapping &mapping);

/// Clones and redirects as \p plan says in \p work, a copy of the function
/// \p graph was built from (defined in Remat.cpp).
void applyRematPlan(const TensorGraph &graph, const scheduling::RematPlan &plan,
                    const IRMapping &mapping);

/// Gives every tensor.empty of \p func a distinct memsched.allocation
/// number, so CSE cannot merge allocations planned apart.
void numberAllocations(func::FuncOp func);

/// Moves the ops of \p func's block into \p order of \p graph's tasks: free
/// ops first (in block order), then every task's ops together (folded fills,
/// the computation, views of its results). With the program order this lays
/// each task out contiguously, which rewrites that insert before or after a
/// task rely on. \p order must be a topological order of the tasks.
void layOutTasks(func::FuncOp func, const TensorGraph &graph,
                 ArrayRef<scheduling::TaskId> order);

/// Lets elementwise linalg ops of \p func whose payload ignores their init
/// write into a dead input of the same type instead (one-shot bufferization
/// then reuses that buffer); \p graph is \p func's. Arguments are written
/// only with \p donateArguments; a slice of a larger buffer only where no
/// step of the program order then holds more bytes than the highest one
/// before. Returns the number of ops rewritten.
int64_t applyInplaceRewrites(func::FuncOp func, const TensorGraph &graph,
                             bool donateArguments);

/// Moves, ahead of an elementwise op of \p func that could write into an
/// input but for readers of that input's buffer after it, those readers (and
/// what they need that comes after the op) where that is legal and costs no
/// step any bytes: the readers are free of side effects, none depends on the
/// op, and the bytes they make plus their workspace are at most what the write
/// saves (then no step of the order, in-place writes taken, holds more).
/// \p graph is \p func's. Returns the number of writes made possible (build
/// the graph again before using it if any).
int64_t moveReadersAheadOfInPlaceWrites(func::FuncOp func,
                                        const TensorGraph &graph);

/// What writeInPlace did.
struct InPlaceWrites {
  /// Writes made possible by running readers first.
  int64_t readersMoved = 0;
  /// Ops rewritten to write into a dead input.
  int64_t rewritten = 0;
};

/// memsched-inplace's rewrite of \p func, whose graph \p graph is: the
/// readers-first moves where \p moveReaders, then applyInplaceRewrites.
/// \p graph is built again (with \p costModel) when readers moved.
InPlaceWrites writeInPlace(func::FuncOp func, TensorGraph &graph,
                           const CostModel &costModel, bool donateArguments,
                           bool moveReaders);

/// memsched-inplace with its defaults on \p func (no donated arguments,
/// readers first), where \p func is inside the model; else nothing.
void takeInPlaceWrites(func::FuncOp func, const CostModel &costModel);

/// Numbers (memsched.instance) every op of \p func's block without memory
/// effects that is equivalent to an earlier one, so that CSE after a pass
/// cannot merge what a plan measured apart.
void keepDuplicatesApart(func::FuncOp func);

/// By ValueId of \p graph: whether the value has a host form (a ranked
/// tensor without an encoding), i.e. may be swapped.
std::vector<bool> getSwappableValues(const TensorGraph &graph);

/// Sets the `memsched.swap` dictionary of \p func, whose swaps planned by
/// \p algorithm are measured by \p report.
void recordSwapDictionary(func::FuncOp func, StringRef algorithm,
                          int64_t swappedValues, const FunctionReport &report);

/// Whether \p func already contains swap ops.
bool hasSwapOps(func::FuncOp func);

} // namespace mlir::memsched

#endif // MEMSCHED_LIB_TRANSFORMS_PLANREWRITE_H
