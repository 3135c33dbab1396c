//===- PlanBuffers.cpp - memsched-plan-buffers pass -------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements buffer planning at the memref level: the static
// allocations of a function become views into one arena at offsets chosen by
// the offset planner of lib/Scheduling, so that buffers never live at the
// same time share bytes.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/BufferLiveness.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"
#include "memsched/Scheduling/OffsetPlanner.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDPLANBUFFERSPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

namespace {
/// An allocation the planner places.
struct PlannedBuffer {
  memref::AllocOp alloc;
  int64_t bytes;
  BufferUses uses;
};

struct PlanBuffersPass
    : public memsched::impl::MemschedPlanBuffersPassBase<PlanBuffersPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Why `alloc` cannot be planned into an arena of `memorySpace`, or empty.
static std::string checkPlannable(memref::AllocOp alloc,
                                  Attribute memorySpace) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape())
    return "it has a dynamic size";
  if (!type.getLayout().isIdentity())
    return "it has a non-identity layout";
  if (type.getMemorySpace() != memorySpace)
    return "it is in another memory space";
  if (!getStorageBytes(type))
    return "its element type has no known size";
  if (!alloc.getSymbolOperands().empty())
    return "it has symbol operands";
  return "";
}

void PlanBuffersPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal())
    return;
  std::optional<sched::OffsetAlgorithm> parsed =
      sched::parseOffsetAlgorithm(algorithm);
  if (!parsed) {
    emitError(func.getLoc())
        << "memsched-plan-buffers: unknown algorithm '" << algorithm
        << "'; expected one of: " << sched::getOffsetAlgorithmNames();
    return signalPassFailure();
  }
  if (alignment <= 0 || !llvm::isPowerOf2_64(alignment)) {
    emitError(func.getLoc())
        << "memsched-plan-buffers: alignment must be a positive "
           "power of two, got "
        << static_cast<int64_t>(alignment);
    return signalPassFailure();
  }
  if (timeLimitMs < 0) {
    emitError(func.getLoc())
        << "memsched-plan-buffers: time-limit-ms must not be "
           "negative";
    return signalPassFailure();
  }
  Attribute space;
  if (!memorySpace.empty()) {
    std::string parseError;
    {
      // Report the parser's message on the function, not at a location in
      // the option string.
      ScopedDiagnosticHandler capture(&getContext(), [&](Diagnostic &diag) {
        parseError = diag.str();
        return success();
      });
      space = parseAttribute(memorySpace, &getContext());
    }
    if (!space) {
      emitError(func.getLoc())
          << "memsched-plan-buffers: cannot parse memory space '" << memorySpace
          << "': " << parseError;
      return signalPassFailure();
    }
  }
  if (!func.getBody().hasOneBlock()) {
    emitRemark(func.getLoc())
        << "memsched-plan-buffers leaves '@" << func.getSymName()
        << "' unchanged: it has several blocks";
    return markAllAnalysesPreserved();
  }

  Block &block = func.getBody().front();
  DenseMap<Operation *, int64_t> steps = numberOps(block);
  std::vector<PlannedBuffer> buffers;
  int64_t unplanned = 0;
  std::string firstUnplannedReason;
  uint64_t requiredAlignment = alignment;
  func.walk([&](memref::AllocOp alloc) {
    // Unplanned allocations are counted, not remarked on one by one: a
    // training step returns hundreds of buffers.
    if (alloc->getBlock() != &block) {
      if (!unplanned++)
        firstUnplannedReason = "it is in a nested region";
      return;
    }
    std::string reason = checkPlannable(alloc, space);
    BufferUses uses;
    if (reason.empty()) {
      uses = computeBufferUses(alloc.getResult(), block, steps);
      reason = uses.escapeReason;
    }
    if (!reason.empty()) {
      if (!unplanned++)
        firstUnplannedReason = reason;
      return;
    }
    if (!uses.isUsed())
      return;
    if (std::optional<uint64_t> own = alloc.getAlignment())
      requiredAlignment = std::max(requiredAlignment, *own);
    buffers.push_back({alloc, *getStorageBytes(alloc.getType()), uses});
  });
  if (buffers.empty())
    return markAllAnalysesPreserved();

  std::vector<sched::AllocationRequest> requests;
  for (auto [index, buffer] : llvm::enumerate(buffers))
    requests.push_back({static_cast<int64_t>(index), buffer.uses.firstStep,
                        buffer.uses.lastStep, buffer.bytes});
  sched::OffsetPlanOptions options;
  options.algorithm = *parsed;
  options.alignment = static_cast<int64_t>(requiredAlignment);
  options.timeLimitSeconds = static_cast<double>(timeLimitMs) / 1000.0;
  std::string error;
  std::optional<sched::OffsetPlan> plan =
      sched::planOffsets(requests, options, &error);
  if (!plan) {
    emitError(func.getLoc()) << "memsched-plan-buffers: " << error;
    return signalPassFailure();
  }
  if (!sched::verifyOffsets(requests, plan->offsets, options.alignment,
                            &error)) {
    emitError(func.getLoc())
        << "memsched-plan-buffers: internal error: the plan "
           "is invalid: "
        << error;
    return signalPassFailure();
  }

  // The arena comes first so that it dominates every view.
  OpBuilder builder(&getContext());
  builder.setInsertionPointToStart(&block);
  Location loc = func.getLoc();
  auto arenaType = MemRefType::get({std::max<int64_t>(plan->arenaBytes, 1)},
                                   builder.getI8Type(), AffineMap(), space);
  auto arena = memref::AllocOp::create(
      builder, loc, arenaType, ValueRange(), ValueRange(),
      builder.getI64IntegerAttr(static_cast<int64_t>(requiredAlignment)));
  arena->setAttr(kArenaAttrName, builder.getUnitAttr());
  bool anyDeallocated = false;
  for (auto [buffer, offset] : llvm::zip_equal(buffers, plan->offsets)) {
    builder.setInsertionPoint(buffer.alloc);
    Value byteShift =
        arith::ConstantIndexOp::create(builder, buffer.alloc.getLoc(), offset);
    auto view = memref::ViewOp::create(
        builder, buffer.alloc.getLoc(), buffer.alloc.getType(),
        arena.getResult(), byteShift, ValueRange());
    buffer.alloc.getResult().replaceAllUsesWith(view.getResult());
    buffer.alloc.erase();
    for (Operation *dealloc : buffer.uses.deallocs) {
      dealloc->erase();
      anyDeallocated = true;
    }
  }
  if (anyDeallocated) {
    builder.setInsertionPoint(block.getTerminator());
    memref::DeallocOp::create(builder, loc, arena.getResult());
  }

  NamedAttribute fields[] = {
      builder.getNamedAttr("algorithm", builder.getStringAttr(plan->algorithm)),
      builder.getNamedAttr("alignment",
                           builder.getI64IntegerAttr(options.alignment)),
      builder.getNamedAttr("arena_bytes",
                           builder.getI64IntegerAttr(plan->arenaBytes)),
      builder.getNamedAttr("fragmentation",
                           builder.getF64FloatAttr(
                               std::round(plan->fragmentation() * 1e4) / 1e4)),
      builder.getNamedAttr("max_live_bytes",
                           builder.getI64IntegerAttr(plan->maxLiveBytes)),
      builder.getNamedAttr("optimal", builder.getBoolAttr(plan->isOptimal)),
      builder.getNamedAttr("planned_buffers",
                           builder.getI64IntegerAttr(buffers.size())),
      builder.getNamedAttr("unplanned_buffers",
                           builder.getI64IntegerAttr(unplanned)),
  };
  func->setAttr(kPlanAttrName, builder.getDictionaryAttr(fields));
  emitRemark(func.getLoc())
      << "memsched-plan-buffers: " << buffers.size()
      << " buffers in one arena of " << formatBytes(plan->arenaBytes)
      << " (max live " << formatBytes(plan->maxLiveBytes) << ", fragmentation "
      << llvm::formatv("{0:F3}", plan->fragmentation()).str() << "x, "
      << plan->algorithm << ")"
      << (unplanned ? ", " + std::to_string(unplanned) +
                          " left as they are (the first: " +
                          firstUnplannedReason + ")"
                    : std::string());
}
