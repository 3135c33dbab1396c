//===- LaunchesToLoops.cpp - memsched-launches-to-loops pass ----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file runs GPU launches as sequential host loops. Kernels made from
// linalg ops by memsched-linalg-to-gpu have no barriers and no two threads
// write the same element, so any execution order of their threads gives
// the result the GPU gives; running them in order on the CPU checks the
// tiling, the guards and the memory plan of the GPU lowering by execution.
//
//===----------------------------------------------------------------------===//

#include "memsched/Conversion/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDLAUNCHESTOLOOPSPASS
#include "memsched/Conversion/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct LaunchesToLoopsPass
    : public memsched::impl::MemschedLaunchesToLoopsPassBase<
          LaunchesToLoopsPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Whether the threads of `launch` may depend on each other's progress.
static bool needsConcurrentThreads(gpu::LaunchOp launch) {
  if (!launch.getWorkgroupAttributions().empty() ||
      !launch.getPrivateAttributions().empty() || launch.hasClusterSize() ||
      launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return true;
  WalkResult walk = launch.getBody().walk([](Operation *op) {
    return isa<gpu::BarrierOp, gpu::ShuffleOp, gpu::AllReduceOp,
               gpu::SubgroupReduceOp>(op)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return walk.wasInterrupted();
}

void LaunchesToLoopsPass::runOnOperation() {
  SmallVector<gpu::LaunchOp> launches;
  getOperation().walk(
      [&](gpu::LaunchOp launch) { launches.push_back(launch); });
  for (gpu::LaunchOp launch : launches) {
    if (needsConcurrentThreads(launch)) {
      emitError(launch.getLoc())
          << "memsched-launches-to-loops: this launch uses "
             "barriers, shuffles, shared memory, clusters or "
             "async tokens; its threads cannot run one after "
             "another";
      return signalPassFailure();
    }
    if (!launch.getBody().hasOneBlock()) {
      emitError(launch.getLoc())
          << "memsched-launches-to-loops: the launch body has "
             "several blocks";
      return signalPassFailure();
    }
  }
  for (gpu::LaunchOp launch : launches) {
    OpBuilder builder(launch);
    Location loc = launch.getLoc();
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    IRMapping mapping;
    gpu::KernelDim3 gridArgs = launch.getGridSize();
    gpu::KernelDim3 blockArgs = launch.getBlockSize();
    mapping.map(gridArgs.x, grid.x);
    mapping.map(gridArgs.y, grid.y);
    mapping.map(gridArgs.z, grid.z);
    mapping.map(blockArgs.x, block.x);
    mapping.map(blockArgs.y, block.y);
    mapping.map(blockArgs.z, block.z);
    gpu::KernelDim3 blockIds = launch.getBlockIds();
    gpu::KernelDim3 threadIds = launch.getThreadIds();
    // Outermost first: block z, y, x, then thread z, y, x.
    std::pair<Value, Value> loops[] = {
        {blockIds.z, grid.z},   {blockIds.y, grid.y},   {blockIds.x, grid.x},
        {threadIds.z, block.z}, {threadIds.y, block.y}, {threadIds.x, block.x}};
    for (auto [id, bound] : loops) {
      auto loop = scf::ForOp::create(builder, loc, zero, bound, one);
      mapping.map(id, loop.getInductionVar());
      builder.setInsertionPoint(loop.getBody()->getTerminator());
    }
    for (Operation &op : launch.getBody().front().without_terminator())
      builder.clone(op, mapping);
    launch.erase();
  }
}
