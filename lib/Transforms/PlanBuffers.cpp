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
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <variant>

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDPLANBUFFERSPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

namespace {
/// The allocations of one block, and those of the single-block bodies of
/// its ops, placed in one arena of the block's own.
struct BlockPlan {
  /// Each placed allocation and its offset in the arena.
  std::vector<std::pair<memref::AllocOp, int64_t>> placements;
  /// The deallocations of the placed allocations, which the arena replaces.
  std::vector<Operation *> deallocs;
  int64_t arenaBytes = 0;
  int64_t maxLiveBytes = 0;
  bool isOptimal = true;
  std::string algorithm;

  double fragmentation() const {
    return maxLiveBytes == 0 ? 1.0
                             : static_cast<double>(arenaBytes) /
                                   static_cast<double>(maxLiveBytes);
  }
};

/// Allocations left as they are, counted rather than remarked on one by one
/// (a training step returns hundreds of buffers).
struct Unplanned {
  int64_t count = 0;
  std::string firstReason;
  void add(StringRef reason) {
    if (!count++)
      firstReason = reason.str();
  }
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

/// The alignment a buffer of `type` needs: its element's size rounded up
/// to a power of two.
static int64_t getElementAlignment(MemRefType type) {
  return static_cast<int64_t>(llvm::PowerOf2Ceil(
      getElementStorageBytes(type.getElementType()).value_or(1)));
}

/// The results a device function copies out at its end are live from their
/// definition to the copy, and the memory model counts them apart from the
/// arena at their own size. Packed with the others at the arena's alignment
/// they may take more than that (the padding of small results); planned
/// apart, the others at the arena's alignment and the results stacked above
/// them at their element's alignment (largest first, so no padding between
/// them), the arena is at most the others' arena plus the results' bytes.
/// Returns that plan if it beats `packedBytes`, else std::nullopt (with
/// `error` set if planning failed).
static std::optional<sched::OffsetPlan>
planResultsAbove(const std::vector<sched::AllocationRequest> &requests,
                 ArrayRef<int64_t> resultAlignments, int64_t packedBytes,
                 const sched::OffsetPlanOptions &options, std::string *error) {
  std::vector<sched::AllocationRequest> others;
  std::vector<size_t> results;
  for (auto [index, request] : llvm::enumerate(requests)) {
    if (resultAlignments[index])
      results.push_back(index);
    else
      others.push_back(request);
  }
  if (results.empty())
    return std::nullopt;
  sched::OffsetPlan plan;
  if (!others.empty()) {
    std::optional<sched::OffsetPlan> planned =
        sched::planOffsets(others, options, error);
    if (!planned)
      return std::nullopt;
    plan = std::move(*planned);
  }
  llvm::stable_sort(results, [&](size_t a, size_t b) {
    return resultAlignments[a] > resultAlignments[b];
  });
  std::vector<int64_t> offsets(requests.size(), 0);
  size_t other = 0;
  for (auto [index, alignment] : llvm::enumerate(resultAlignments))
    if (!alignment)
      offsets[index] = plan.offsets[other++];
  int64_t top = plan.arenaBytes;
  for (size_t index : results) {
    top = llvm::alignTo(top, resultAlignments[index]);
    offsets[index] = top;
    top += requests[index].sizeBytes;
  }
  if (top >= packedBytes)
    return std::nullopt;
  plan.offsets = std::move(offsets);
  plan.arenaBytes = top;
  plan.maxLiveBytes = sched::computeMaxLiveBytes(requests);
  plan.isOptimal = top == plan.maxLiveBytes;
  plan.algorithm =
      plan.algorithm.empty() ? "results" : plan.algorithm + " + results above";
  return plan;
}

/// Plans the allocations of `block`. The bodies of an op with sequential
/// bodies (hasSequentialBodies) run while the op does, one run after
/// another, and a region's allocations that do not escape it are dead when
/// it ends: each single-block body is planned alone, the op's regions share
/// one nested arena (as large as the largest), and that arena is one
/// allocation of `block`, live at the op.
static std::optional<BlockPlan>
planBlock(Block &block, Attribute memorySpace,
          const sched::OffsetPlanOptions &options, Unplanned &unplanned,
          std::string *error) {
  DenseMap<Operation *, int64_t> steps = numberOps(block);
  std::vector<sched::AllocationRequest> requests;
  // Per request: the allocation, or the nested arena's plan.
  std::vector<std::variant<memref::AllocOp, BlockPlan>> items;
  BlockPlan result;
  // Per request: the alignment its element type needs if it is a result
  // copied out at the end (it may go above the others' arena), else 0.
  std::vector<int64_t> resultAlignments;
  for (Operation &op : block) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      std::string reason = checkPlannable(alloc, memorySpace);
      BufferUses uses;
      if (reason.empty()) {
        uses = computeBufferUses(alloc.getResult(), block, steps);
        reason = uses.escapeReason;
      }
      if (!reason.empty()) {
        unplanned.add(reason);
        continue;
      }
      if (!uses.isUsed())
        continue;
      requests.push_back({static_cast<int64_t>(items.size()), uses.firstStep,
                          uses.lastStep, *getStorageBytes(alloc.getType())});
      resultAlignments.push_back(
          uses.copiedOutAsResult ? getElementAlignment(alloc.getType()) : 0);
      items.push_back(alloc);
      llvm::append_range(result.deallocs, uses.deallocs);
      continue;
    }
    if (op.getNumRegions() == 0)
      continue;
    BlockPlan nested;
    for (Region &region : op.getRegions()) {
      if (!hasSequentialBodies(&op) || !region.hasOneBlock()) {
        region.walk([&](memref::AllocOp) {
          unplanned.add(hasSequentialBodies(&op)
                            ? "it is in a region of several blocks"
                            : "it is in a region of '" +
                                  op.getName().getStringRef().str() + "'");
        });
        continue;
      }
      std::optional<BlockPlan> body =
          planBlock(region.front(), memorySpace, options, unplanned, error);
      if (!body)
        return std::nullopt;
      llvm::append_range(nested.placements, body->placements);
      llvm::append_range(nested.deallocs, body->deallocs);
      nested.arenaBytes = std::max(nested.arenaBytes, body->arenaBytes);
      nested.isOptimal &= body->isOptimal;
    }
    if (nested.placements.empty())
      continue;
    int64_t step = steps.lookup(&op);
    requests.push_back(
        {static_cast<int64_t>(items.size()), step, step, nested.arenaBytes});
    resultAlignments.push_back(0);
    llvm::append_range(result.deallocs, nested.deallocs);
    items.push_back(std::move(nested));
  }
  // What a result is copied from (the source of a returned view, which
  // bufferization copies into a buffer of its own first) is counted apart
  // from the arena by the memory model too: it may go above as well.
  DenseMap<Operation *, size_t> requestOf;
  for (auto [index, item] : llvm::enumerate(items))
    if (auto *alloc = std::get_if<memref::AllocOp>(&item))
      requestOf[*alloc] = index;
  for (auto [index, item] : llvm::enumerate(items)) {
    auto *alloc = std::get_if<memref::AllocOp>(&item);
    if (!alloc || !resultAlignments[index])
      continue;
    for (Operation *user : alloc->getResult().getUsers()) {
      auto copy = dyn_cast<memref::CopyOp>(user);
      if (!copy || copy.getTarget() != alloc->getResult())
        continue;
      Value source = copy.getSource();
      while (auto view = source.getDefiningOp<ViewLikeOpInterface>())
        source = view.getViewSource();
      auto it = requestOf.find(source.getDefiningOp());
      if (it != requestOf.end() && !resultAlignments[it->second])
        resultAlignments[it->second] =
            getElementAlignment(cast<MemRefType>(source.getType()));
    }
  }
  if (requests.empty())
    return result;
  std::optional<sched::OffsetPlan> plan =
      sched::planOffsets(requests, options, error);
  if (!plan)
    return std::nullopt;
  // Results above the others are aligned to their elements only.
  int64_t verifiedAlignment = options.alignment;
  if (std::optional<sched::OffsetPlan> stacked = planResultsAbove(
          requests, resultAlignments, plan->arenaBytes, options, error)) {
    plan = std::move(stacked);
    verifiedAlignment = 1;
  } else if (!error->empty()) {
    return std::nullopt;
  }
  if (!sched::verifyOffsets(requests, plan->offsets, verifiedAlignment,
                            error)) {
    *error = "internal error: the plan is invalid: " + *error;
    return std::nullopt;
  }
  result.arenaBytes = plan->arenaBytes;
  result.maxLiveBytes = plan->maxLiveBytes;
  result.isOptimal = plan->isOptimal;
  result.algorithm = plan->algorithm;
  for (auto [item, offset] : llvm::zip_equal(items, plan->offsets)) {
    if (auto *alloc = std::get_if<memref::AllocOp>(&item)) {
      result.placements.push_back({*alloc, offset});
      continue;
    }
    auto &nested = std::get<BlockPlan>(item);
    result.isOptimal &= nested.isOptimal;
    for (auto [alloc, nestedOffset] : nested.placements)
      result.placements.push_back({alloc, offset + nestedOffset});
  }
  return result;
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
  uint64_t requiredAlignment = alignment;
  func.walk([&](memref::AllocOp alloc) {
    if (std::optional<uint64_t> own = alloc.getAlignment())
      requiredAlignment = std::max(requiredAlignment, *own);
  });
  sched::OffsetPlanOptions options;
  options.algorithm = *parsed;
  options.alignment = static_cast<int64_t>(requiredAlignment);
  options.timeLimitSeconds = static_cast<double>(timeLimitMs) / 1000.0;
  Unplanned unplanned;
  std::string error;
  std::optional<BlockPlan> plan =
      planBlock(block, space, options, unplanned, &error);
  if (!plan) {
    emitError(func.getLoc()) << "memsched-plan-buffers: " << error;
    return signalPassFailure();
  }
  if (plan->placements.empty())
    return markAllAnalysesPreserved();

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
  for (auto [alloc, offset] : plan->placements) {
    builder.setInsertionPoint(alloc);
    Value byteShift =
        arith::ConstantIndexOp::create(builder, alloc.getLoc(), offset);
    auto view =
        memref::ViewOp::create(builder, alloc.getLoc(), alloc.getType(),
                               arena.getResult(), byteShift, ValueRange());
    alloc.getResult().replaceAllUsesWith(view.getResult());
    alloc.erase();
  }
  for (Operation *dealloc : plan->deallocs)
    dealloc->erase();
  if (!plan->deallocs.empty()) {
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
                           builder.getI64IntegerAttr(plan->placements.size())),
      builder.getNamedAttr("unplanned_buffers",
                           builder.getI64IntegerAttr(unplanned.count)),
  };
  func->setAttr(kPlanAttrName, builder.getDictionaryAttr(fields));
  emitRemark(func.getLoc())
      << "memsched-plan-buffers: " << plan->placements.size()
      << " buffers in one arena of " << formatBytes(plan->arenaBytes)
      << " (max live " << formatBytes(plan->maxLiveBytes) << ", fragmentation "
      << llvm::formatv("{0:F3}", plan->fragmentation()).str() << "x, "
      << plan->algorithm << ")"
      << (unplanned.count ? ", " + std::to_string(unplanned.count) +
                                " left as they are (the first: " +
                                unplanned.firstReason + ")"
                          : std::string());
}
