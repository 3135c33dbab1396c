//===- MemschedDialect.h - memsched dialect ---------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the memsched dialect and the names of the discardable
// attributes it verifies.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDDIALECT_H
#define MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDDIALECT_H

#include "mlir/IR/Dialect.h"

#include "memsched/Dialect/Memsched/IR/MemschedOpsDialect.h.inc"

namespace mlir::memsched {

/// Name of the attribute holding a measured op time in seconds.
inline constexpr llvm::StringLiteral kCostAttrName = "memsched.cost";
/// Unit attribute on a function argument or result: the calling convention
/// passes it in host memory (offloaded resident state).
inline constexpr llvm::StringLiteral kHostMemoryAttrName =
    "memsched.host_memory";
/// Name of the attribute holding an op's workspace in bytes.
inline constexpr llvm::StringLiteral kWorkspaceAttrName = "memsched.workspace";
/// Unit attribute memsched-annotate-calls sets on a call whose callee can
/// call itself again: its workspace counts one level of the recursion, and
/// what the device holds depends on a depth that is not known.
inline constexpr llvm::StringLiteral kRecursiveCallAttrName =
    "memsched.recursive";
/// `{flops = F, bytes = B}`: the work a device kernel for the op does, when
/// its linalg form does more (e.g. a scatter-add written as a reduction).
inline constexpr llvm::StringLiteral kWorkAttrName = "memsched.work";
/// Dictionary a function carries after memsched-reorder: what the pass chose
/// and the peaks before and after (read back by memsched-report).
inline constexpr llvm::StringLiteral kReorderAttrName = "memsched.reorder";
/// Dictionary a function carries after memsched-plan-buffers: the arena,
/// max-live and fragmentation figures of its plan.
inline constexpr llvm::StringLiteral kPlanAttrName = "memsched.plan";
/// Dictionary a function carries after memsched-remat: the budget, the peaks
/// before and after, and what recomputation costs (read by memsched-report).
inline constexpr llvm::StringLiteral kRematAttrName = "memsched.remat";
/// Dictionary a function carries after memsched-swap (or memsched-fit):
/// the budget, the peaks before and after, and the swap figures.
inline constexpr llvm::StringLiteral kSwapAttrName = "memsched.swap";
/// `{parameters = N, optimizer_state = M}` on a training step exported by
/// memsched.torch: its first N arguments are parameters and the next M
/// optimizer state, and results 1..N+M are their updates (or, without an
/// optimizer, the gradients of the parameters).
inline constexpr llvm::StringLiteral kTrainingStepAttrName =
    "memsched.training_step";
/// Dictionary a function carries after memsched-offload: what moved to host
/// memory and the planned bytes before (which budget fractions refer to).
inline constexpr llvm::StringLiteral kOffloadAttrName = "memsched.offload";
/// Dictionary a function carries after memsched-fit: the plan chosen among
/// remat-only, swap-only and the joint ones, with the modelled times.
inline constexpr llvm::StringLiteral kFitAttrName = "memsched.fit";
/// Dictionary a function carries after memsched-split: the floors before and
/// after, what was split, and the planned bytes before (which budget
/// fractions refer to).
inline constexpr llvm::StringLiteral kSplitAttrName = "memsched.split";
/// Dictionary a function carries after memsched-fuse: what was fused, the
/// floors before and after, and the planned bytes before (which budget
/// fractions refer to).
inline constexpr llvm::StringLiteral kFuseAttrName = "memsched.fuse";
/// Integer marking an op memsched-remat cloned to recompute a value. Each
/// clone has its own number, so CSE cannot merge it with its original or
/// with another clone.
inline constexpr llvm::StringLiteral kRecomputeAttrName = "memsched.recompute";
/// Integer making a `tensor.empty` distinct from every other one, so that CSE
/// cannot merge two allocations whose lifetimes memsched planned apart
/// (merged, both writers would share one buffer for the union of their
/// lifetimes).
inline constexpr llvm::StringLiteral kAllocationAttrName =
    "memsched.allocation";
/// Integer making an op distinct from an equivalent earlier op of its block
/// (same operands, attributes and regions), so that CSE cannot merge two
/// values a memory plan keeps apart (merged, one buffer would live across
/// both lifetimes).
inline constexpr llvm::StringLiteral kInstanceAttrName = "memsched.instance";
/// Integer on the `tensor.empty` whose slices memsched-concat-in-place has
/// a concatenation's pieces computed in: unique in its function, so that CSE
/// cannot merge it with another empty (merged, the pieces would no longer
/// write into a buffer of their own and the memory model would count
/// copies).
inline constexpr llvm::StringLiteral kConcatResultAttrName = "memsched.concat";
/// Unit attribute marking the allocation that holds a planned arena.
inline constexpr llvm::StringLiteral kArenaAttrName = "memsched.arena";
/// Unit attribute on a function that stays on the host when the module is
/// lowered to the GPU (memsched-exec-harness's main function has it).
inline constexpr llvm::StringLiteral kHostAttrName = "memsched.host";
/// Dictionary on a function memsched-device-boundary rewrote to run on the
/// device: its resident bytes (argument and constant copies) and counts.
inline constexpr llvm::StringLiteral kDeviceAttrName = "memsched.device";
/// String attribute on a function (or module): the device preset or .json
/// file its plan is made for. A pass given `device=` records it on the
/// function; a pass or report given no `device=` reads it.
inline constexpr llvm::StringLiteral kTargetDeviceAttrName =
    "memsched.target_device";
/// Unit attribute on a host allocation inside a device function (a result
/// copied out); memsched-device-allocations leaves it in host memory.
inline constexpr llvm::StringLiteral kHostBufferAttrName =
    "memsched.host_buffer";
/// String attribute naming the GPU kernel an op becomes; the runtime's
/// profile reports kernel times by this name (memsched-tag-kernels).
inline constexpr llvm::StringLiteral kKernelAttrName = "memsched.kernel";

/// Returns the value of an integer attribute that holds a non-negative number
/// that fits in int64_t (unsigned types read as unsigned), else std::nullopt.
std::optional<int64_t> getNonNegativeInteger(Attribute attr);

} // namespace mlir::memsched

#endif // MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDDIALECT_H
