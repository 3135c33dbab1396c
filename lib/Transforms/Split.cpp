//===- Split.cpp - memsched-split pass --------------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the split pass (TSPLIT's lever): where one op's
// working set is the floor no recomputation or swap plan can go below, that
// op is computed in pieces along a parallel loop, with the producers only it
// reads, so that their large results exist one piece at a time. A piece is
// the op cloned onto slices along that loop, with everything else whole:
// upstream's tiling bounds the slice of an index like a pooling backward's
// `h + 1 - kh` from the corners of the tile, which is wrong for a negative
// coefficient. The pieces stand in straight-line code, so that every other
// memsched pass sees them as ordinary ops.
//
//===----------------------------------------------------------------------===//

#include "PlanRewrite.h"
#include "memsched/Analysis/Budget.h"
#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Transforms/BudgetPlanning.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "llvm/ADT/ScopeExit.h"

#include <deque>
#include <map>

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDSPLITPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

namespace {
/// A static slice of a ranked tensor.
struct StaticSlice {
  SmallVector<int64_t> offsets, sizes, strides;
};
} // namespace

static std::optional<StaticSlice> getStaticSlice(tensor::ExtractSliceOp op) {
  StaticSlice slice{llvm::to_vector(op.getStaticOffsets()),
                    llvm::to_vector(op.getStaticSizes()),
                    llvm::to_vector(op.getStaticStrides())};
  auto isDynamic = [](ArrayRef<int64_t> values) {
    return llvm::any_of(values, ShapedType::isDynamic);
  };
  if (isDynamic(slice.offsets) || isDynamic(slice.sizes) ||
      isDynamic(slice.strides) ||
      op.getSourceType().getRank() != op.getResultType().getRank())
    return std::nullopt;
  return slice;
}

/// Whether `slice` covers dimension `dim` of a tensor of shape `shape`.
static bool coversDim(const StaticSlice &slice, ArrayRef<int64_t> shape,
                      size_t dim) {
  return slice.offsets[dim] == 0 && slice.sizes[dim] == shape[dim] &&
         slice.strides[dim] == 1;
}

/// The position of `loop` among the results of `map` where it appears as
/// the bare loop.
static std::optional<unsigned> getLoopPosition(AffineMap map, unsigned loop) {
  for (auto [position, result] : llvm::enumerate(map.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(result);
        dim && dim.getPosition() == loop)
      return position;
  return std::nullopt;
}

/// Whether `op` can be computed in pieces along `loop`: a parallel loop of
/// static extent that every operand reads through at most one of its
/// dimensions, as the loop alone, and every result writes through one. The
/// pieces then read and write disjoint slices along that dimension and
/// everything else whole, and compute each element as `op` does.
static bool canSplitAlong(linalg::LinalgOp op, unsigned loop) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() == 0 ||
      op.getIteratorTypesArray()[loop] != utils::IteratorType::parallel ||
      ShapedType::isDynamic(op.getStaticLoopRanges()[loop]))
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!type) {
      if (op.isDpsInit(&operand))
        return false;
      continue;
    }
    if (!type.hasStaticShape())
      return false;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    int64_t uses = 0;
    for (AffineExpr result : map.getResults()) {
      if (!result.isFunctionOfDim(loop))
        continue;
      if (!isa<AffineDimExpr>(result) || ++uses > 1)
        return false;
    }
    if (op.isDpsInit(&operand) && uses != 1)
      return false;
  }
  return true;
}

/// The loop of `op` to split: the first splittable loop (canSplitAlong) of
/// extent at least 2 in the order of the first result's dimensions (the
/// batch of a convolution or a pooling backward).
static std::optional<unsigned> findSplitLoop(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() == 0)
    return std::nullopt;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  AffineMap resultMap = op.getIndexingMapMatchingResult(op->getResult(0));
  for (AffineExpr result : resultMap.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (dim && canSplitAlong(op, dim.getPosition()) &&
        extents[dim.getPosition()] >= 2)
      return dim.getPosition();
  }
  return std::nullopt;
}

/// The slice [begin, begin + size) of `value` along `dim`, whole elsewhere.
static tensor::ExtractSliceOp sliceAlong(OpBuilder &builder, Location loc,
                                         Value value, unsigned dim,
                                         int64_t begin, int64_t size) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> offsets(type.getRank(), 0);
  SmallVector<int64_t> sizes = llvm::to_vector(type.getShape());
  SmallVector<int64_t> strides(type.getRank(), 1);
  offsets[dim] = begin;
  sizes[dim] = size;
  MLIRContext *context = builder.getContext();
  return tensor::ExtractSliceOp::create(
      builder, loc, value, getAsIndexOpFoldResult(context, offsets),
      getAsIndexOpFoldResult(context, sizes),
      getAsIndexOpFoldResult(context, strides));
}

/// The piece of `op` (canSplitAlong `loop`) over [begin, begin + size) of
/// the loop: the operands read through it by their slices (the inits by
/// slices of `inits`), the others whole, and `linalg.index` of the loop
/// offset by `begin`. Appends the slices to `slices`.
static linalg::LinalgOp buildPiece(OpBuilder &builder, linalg::LinalgOp op,
                                   unsigned loop, int64_t begin, int64_t size,
                                   ValueRange inits,
                                   SmallVectorImpl<Operation *> &slices) {
  Location loc = op.getLoc();
  SmallVector<Value> operands;
  SmallVector<Type> resultTypes;
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    bool isInit = op.isDpsInit(&operand);
    if (isInit)
      value = inits[operand.getOperandNumber() - op.getNumDpsInputs()];
    std::optional<unsigned> position;
    if (isa<RankedTensorType>(value.getType()))
      position = getLoopPosition(op.getMatchingIndexingMap(&operand), loop);
    if (position) {
      auto slice = sliceAlong(builder, loc, value, *position, begin, size);
      slices.push_back(slice);
      value = slice;
    }
    operands.push_back(value);
    if (isInit)
      resultTypes.push_back(value.getType());
  }
  auto piece =
      cast<linalg::LinalgOp>(mlir::clone(builder, op, resultTypes, operands));
  SmallVector<OpFoldResult> offsets(op.getNumLoops());
  if (begin != 0)
    offsets[loop] = builder.getIndexAttr(begin);
  linalg::offsetIndices(builder, piece, offsets);
  return piece;
}

/// The dimension along which the slices partition `value` into disjoint
/// pieces, whole in every other dimension, if they are its only uses:
/// splitting its producer with them then computes each of its elements
/// once.
static std::optional<unsigned>
getPartitionDim(Value value, ArrayRef<tensor::ExtractSliceOp> slices) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || slices.size() < 2)
    return std::nullopt;
  llvm::SmallPtrSet<Operation *, 16> sliceOps;
  for (tensor::ExtractSliceOp slice : slices)
    sliceOps.insert(slice);
  if (llvm::any_of(value.getUsers(),
                   [&](Operation *user) { return !sliceOps.contains(user); }))
    return std::nullopt;
  std::optional<unsigned> splitDim;
  SmallVector<std::pair<int64_t, int64_t>> ranges;
  for (tensor::ExtractSliceOp op : slices) {
    std::optional<StaticSlice> slice = getStaticSlice(op);
    if (!slice)
      return std::nullopt;
    for (unsigned dim = 0; dim < slice->sizes.size(); ++dim) {
      if (coversDim(*slice, type.getShape(), dim))
        continue;
      if ((splitDim && *splitDim != dim) || slice->strides[dim] != 1)
        return std::nullopt;
      splitDim = dim;
      ranges.push_back(
          {slice->offsets[dim], slice->offsets[dim] + slice->sizes[dim]});
    }
  }
  if (!splitDim || ranges.size() != slices.size())
    return std::nullopt;
  llvm::sort(ranges);
  for (size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].first < ranges[i - 1].second)
      return std::nullopt;
  return splitDim;
}

/// Replaces each of `slices` of `value` by the same slice computed from
/// slices of its producer's operands, appending the new slices to
/// `created`. Fails, changing nothing, where the producer cannot be split
/// so.
static LogicalResult splitProducer(RewriterBase &rewriter, Value value,
                                   ArrayRef<tensor::ExtractSliceOp> slices,
                                   SmallVectorImpl<Operation *> &created) {
  Operation *producer = value.getDefiningOp();
  std::optional<unsigned> dim;
  if (!producer || producer->getNumResults() != 1 ||
      !(dim = getPartitionDim(value, slices)))
    return failure();
  auto getRange = [&](tensor::ExtractSliceOp slice) {
    StaticSlice range = *getStaticSlice(slice);
    return std::make_pair(range.offsets[*dim], range.sizes[*dim]);
  };

  if (isa<tensor::EmptyOp>(producer)) {
    for (tensor::ExtractSliceOp slice : slices) {
      rewriter.setInsertionPoint(slice);
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(
          slice, slice.getResultType().getShape(),
          slice.getResultType().getElementType());
    }
    rewriter.eraseOp(producer);
    return success();
  }

  if (auto insert = dyn_cast<tensor::InsertSliceOp>(producer)) {
    // A slice of an insertion that covers the split dimension is the
    // insertion of the source's slice into the destination's slice.
    auto destType = insert.getDestType();
    if (insert.getSourceType().getRank() != destType.getRank() ||
        llvm::any_of(insert.getStaticOffsets(), ShapedType::isDynamic) ||
        llvm::any_of(insert.getStaticSizes(), ShapedType::isDynamic) ||
        llvm::any_of(insert.getStaticStrides(), ShapedType::isDynamic))
      return failure();
    StaticSlice inserted{llvm::to_vector(insert.getStaticOffsets()),
                         llvm::to_vector(insert.getStaticSizes()),
                         llvm::to_vector(insert.getStaticStrides())};
    if (!coversDim(inserted, destType.getShape(), *dim))
      return failure();
    MLIRContext *context = rewriter.getContext();
    for (tensor::ExtractSliceOp slice : slices) {
      auto [begin, size] = getRange(slice);
      rewriter.setInsertionPoint(slice);
      Location loc = insert.getLoc();
      auto sourcePiece =
          sliceAlong(rewriter, loc, insert.getSource(), *dim, begin, size);
      auto destPiece =
          sliceAlong(rewriter, loc, insert.getDest(), *dim, begin, size);
      StaticSlice placed = inserted;
      placed.sizes[*dim] = size;
      auto piece = tensor::InsertSliceOp::create(
          rewriter, loc, sourcePiece, destPiece,
          getAsIndexOpFoldResult(context, placed.offsets),
          getAsIndexOpFoldResult(context, placed.sizes),
          getAsIndexOpFoldResult(context, placed.strides));
      created.push_back(sourcePiece);
      created.push_back(destPiece);
      rewriter.replaceOp(slice, piece.getResult());
    }
    rewriter.eraseOp(insert);
    return success();
  }

  if (auto pad = dyn_cast<tensor::PadOp>(producer)) {
    // A slice of a pad that does not pad the split dimension is the pad of
    // the source's slice, when the padding value is the same everywhere.
    Value paddingValue = pad.getConstantPaddingValue();
    if (!paddingValue || !pad.getSourceType().hasStaticShape() ||
        ShapedType::isDynamic(pad.getStaticLow()[*dim]) ||
        ShapedType::isDynamic(pad.getStaticHigh()[*dim]) ||
        pad.getStaticLow()[*dim] != 0 || pad.getStaticHigh()[*dim] != 0)
      return failure();
    // A constant yielded from inside the pad's region is made outside.
    if (Operation *constant = paddingValue.getDefiningOp();
        constant && pad->isProperAncestor(constant)) {
      rewriter.setInsertionPoint(slices.front());
      paddingValue = rewriter.clone(*constant)->getResult(0);
    }
    for (tensor::ExtractSliceOp slice : slices) {
      auto [begin, size] = getRange(slice);
      rewriter.setInsertionPoint(slice);
      auto sourcePiece = sliceAlong(rewriter, pad.getLoc(), pad.getSource(),
                                    *dim, begin, size);
      auto piece = tensor::PadOp::create(
          rewriter, pad.getLoc(), slice.getResultType(), sourcePiece,
          pad.getMixedLowPad(), pad.getMixedHighPad(), paddingValue,
          pad.getNofold());
      created.push_back(sourcePiece);
      rewriter.replaceOp(slice, piece.getResult());
    }
    rewriter.eraseOp(pad);
    return success();
  }

  // A linalg op writing the split dimension through a loop it can be split
  // along (a fill, an elementwise or broadcasting op, ...).
  auto linalgOp = dyn_cast<linalg::LinalgOp>(producer);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics())
    return failure();
  auto loop = dyn_cast<AffineDimExpr>(
      linalgOp.getIndexingMapMatchingResult(cast<OpResult>(value))
          .getResult(*dim));
  if (!loop || !canSplitAlong(linalgOp, loop.getPosition()))
    return failure();
  for (tensor::ExtractSliceOp slice : slices) {
    auto [begin, size] = getRange(slice);
    rewriter.setInsertionPoint(slice);
    linalg::LinalgOp piece =
        buildPiece(rewriter, linalgOp, loop.getPosition(), begin, size,
                   linalgOp.getDpsInits(), created);
    rewriter.replaceOp(slice, piece->getResult(0));
  }
  rewriter.eraseOp(producer);
  return success();
}

/// Splits `op` along `loop` into `pieces` ops over consecutive ranges of
/// it, each writing into its slice of the previous piece's result, then
/// splits with them the producers only they read. Returns the number of
/// ops split.
static int64_t splitOp(RewriterBase &rewriter, linalg::LinalgOp op,
                       unsigned loop, int64_t pieces) {
  Location loc = op.getLoc();
  Block *block = op->getBlock();
  rewriter.setInsertionPoint(op);
  int64_t extent = op.getStaticLoopRanges()[loop];
  int64_t step = llvm::divideCeil(extent, pieces);
  // Each piece writes into the previous piece's result, so that one-shot
  // bufferization writes every piece into one buffer.
  SmallVector<Value> results = op.getDpsInits();
  SmallVector<Operation *> inputSlices;
  for (int64_t begin = 0; begin < extent; begin += step) {
    int64_t size = std::min(step, extent - begin);
    SmallVector<Operation *> slices;
    linalg::LinalgOp piece =
        buildPiece(rewriter, op, loop, begin, size, results, slices);
    for (Operation *slice : slices) {
      auto extract = cast<tensor::ExtractSliceOp>(slice);
      if (!llvm::is_contained(results, extract.getSource()))
        inputSlices.push_back(slice);
    }
    for (auto [index, init] : llvm::enumerate(piece.getDpsInits())) {
      auto slice = init.getDefiningOp<tensor::ExtractSliceOp>();
      results[index] = tensor::InsertSliceOp::create(
          rewriter, loc, piece->getResult(index), results[index],
          slice.getMixedOffsets(), slice.getMixedSizes(),
          slice.getMixedStrides());
    }
  }
  rewriter.replaceOp(op, results);

  // Producers whose result only the pieces read, in the order their
  // slices appear (a producer's operands after it).
  int64_t split = 1;
  std::deque<Value> worklist;
  DenseSet<Value> tried;
  auto enqueueSources = [&](ArrayRef<Operation *> slices) {
    for (Operation *slice : slices) {
      Value source = cast<tensor::ExtractSliceOp>(slice).getSource();
      if (tried.insert(source).second)
        worklist.push_back(source);
    }
  };
  enqueueSources(inputSlices);
  while (!worklist.empty()) {
    Value source = worklist.front();
    worklist.pop_front();
    // The pieces stand in the split op's block; a slice elsewhere (in a
    // loop body) keeps the producer whole.
    SmallVector<tensor::ExtractSliceOp> slices;
    for (Operation *user : source.getUsers())
      if (auto sliceUser = dyn_cast<tensor::ExtractSliceOp>(user))
        slices.push_back(sliceUser);
    if (llvm::any_of(slices, [&](tensor::ExtractSliceOp slice) {
          return slice->getBlock() != block;
        }))
      continue;
    llvm::sort(slices, [](tensor::ExtractSliceOp a, tensor::ExtractSliceOp b) {
      return a->isBeforeInBlock(b);
    });
    // A piece reading the value twice (two operands) slices it twice the
    // same way: one slice, so that the producer's piece is computed once.
    SmallVector<tensor::ExtractSliceOp> distinct;
    for (tensor::ExtractSliceOp slice : slices) {
      auto same = llvm::find_if(distinct, [&](tensor::ExtractSliceOp other) {
        return other.getResultType() == slice.getResultType() &&
               other.getStaticOffsets() == slice.getStaticOffsets() &&
               other.getStaticSizes() == slice.getStaticSizes() &&
               other.getStaticStrides() == slice.getStaticStrides();
      });
      if (same == distinct.end()) {
        distinct.push_back(slice);
        continue;
      }
      rewriter.replaceOp(slice, same->getResult());
    }
    slices = std::move(distinct);
    SmallVector<Operation *> created;
    if (failed(splitProducer(rewriter, source, slices, created)))
      continue;
    ++split;
    enqueueSources(created);
  }
  return split;
}

/// The ops whose split can take `op`'s working set apart: `op`, and the one
/// op reading its result, which takes `op` with it as a producer (a pad, or
/// a large result read whole).
static SmallVector<linalg::LinalgOp> findSplitRoots(Operation *op) {
  SmallVector<linalg::LinalgOp> roots;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (linalgOp && findSplitLoop(linalgOp))
    roots.push_back(linalgOp);
  if (op->getNumResults() == 1 && !op->getResult(0).use_empty()) {
    Operation *user = *op->getResult(0).getUsers().begin();
    auto reader = dyn_cast<linalg::LinalgOp>(user);
    if (reader && findSplitLoop(reader) &&
        llvm::all_equal(op->getResult(0).getUsers()))
      roots.push_back(reader);
  }
  return roots;
}

namespace {
/// How many pieces each op is computed in, by the op's position in a walk
/// of the function as it came.
using SplitPlan = std::map<int64_t, int64_t>;

/// Records the position of the op each new op comes from.
class OriginListener : public RewriterBase::Listener {
public:
  explicit OriginListener(DenseMap<Operation *, int64_t> &origin)
      : origin(origin) {}
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    origin[op] = current;
  }
  DenseMap<Operation *, int64_t> &origin;
  int64_t current = -1;
};

/// A function with a split plan applied.
struct SplitFunction {
  /// For each op, the position of the op of the input it computes (part
  /// of).
  DenseMap<Operation *, int64_t> origin;
  /// Ops split, producers included.
  int64_t opsSplit = 0;
};

struct SplitPass : public memsched::impl::MemschedSplitPassBase<SplitPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Splits the ops of `plan` in `func` (as it came: positions refer to it).
static SplitFunction applySplitPlan(func::FuncOp func, const SplitPlan &plan) {
  SplitFunction result;
  SmallVector<Operation *> byPosition;
  func.walk([&](Operation *op) {
    result.origin[op] = static_cast<int64_t>(byPosition.size());
    byPosition.push_back(op);
  });
  OriginListener listener(result.origin);
  IRRewriter rewriter(func.getContext(), &listener);
  for (auto [position, pieces] : plan) {
    auto op = cast<linalg::LinalgOp>(byPosition[position]);
    listener.current = position;
    result.opsSplit += splitOp(rewriter, op, *findSplitLoop(op), pieces);
  }
  return result;
}

/// The floor of a function and the position of the op setting it, or
/// std::nullopt outside the model.
static std::optional<std::pair<sched::FootprintFloor, int64_t>>
computeFloor(func::FuncOp func, const CostModel &costModel,
             const SplitFunction &split) {
  TensorGraph graph = TensorGraph::build(func, costModel);
  if (graph.getStatus() != TensorGraphStatus::Built)
    return std::nullopt;
  sched::FootprintFloor floor = computeFunctionFloor(graph);
  int64_t position = -1;
  if (floor.task != sched::kNoId)
    position = split.origin.lookup_or(graph.getOp(floor.task), -1);
  return std::make_pair(floor, position);
}

std::optional<SplitOutcome>
mlir::memsched::splitToFloor(func::FuncOp func, const CostModel &costModel,
                             const Budget &budget, int64_t maxPieces) {
  FunctionReport before = analyzeFunction(func, costModel);
  if (before.status != TensorGraphStatus::Built)
    return std::nullopt;
  int64_t plannedBefore = getInputPlannedBytes(func, before.plannedBytes());
  int64_t target = budget.isMinimum ? 0 : budget.resolve(plannedBefore);

  // Each step doubles the pieces of an op (of the input) that takes the
  // working set setting the floor apart, recomputing everything from the
  // input: splitting a piece again would leave its sibling pieces as large.
  // A step is kept if the floor falls, or stays while another op sets it
  // (two equal layers).
  SplitPlan plan, bestPlan;
  std::optional<std::pair<sched::FootprintFloor, int64_t>> floor =
      computeFloor(func, costModel, applySplitPlan(func, {}));
  if (!floor)
    return std::nullopt;
  int64_t floorBefore = floor->first.bytes(), bestFloor = floorBefore;
  // `func` stays as it came during the search: positions are walked once.
  DenseMap<Operation *, int64_t> positions;
  SmallVector<Operation *> byPosition;
  func.walk([&](Operation *op) {
    positions[op] = static_cast<int64_t>(byPosition.size());
    byPosition.push_back(op);
  });
  while (floor->first.bytes() > target && floor->second >= 0) {
    // Double the pieces of each op that can take the working set apart;
    // keep the lowest floor.
    std::optional<SplitPlan> chosen;
    std::optional<std::pair<sched::FootprintFloor, int64_t>> chosenFloor;
    for (linalg::LinalgOp root : findSplitRoots(byPosition[floor->second])) {
      int64_t position = positions.lookup(root);
      auto planned = plan.find(position);
      int64_t pieces = (planned == plan.end() ? 1 : planned->second) * 2;
      if (pieces >
          std::min<int64_t>(maxPieces,
                            root.getStaticLoopRanges()[*findSplitLoop(root)]))
        continue;
      SplitPlan next = plan;
      next[position] = pieces;
      func::FuncOp copy = func.clone();
      llvm::scope_exit erase([&] { copy.erase(); });
      std::optional<std::pair<sched::FootprintFloor, int64_t>> split =
          computeFloor(copy, costModel, applySplitPlan(copy, next));
      if (!split || split->first.bytes() > floor->first.bytes() ||
          (split->first.bytes() == floor->first.bytes() &&
           split->second == position))
        continue;
      if (!chosen || split->first.bytes() < chosenFloor->first.bytes()) {
        chosen = std::move(next);
        chosenFloor = split;
      }
    }
    if (!chosen)
      break;
    plan = std::move(*chosen);
    floor = chosenFloor;
    if (floor->first.bytes() < bestFloor) {
      bestPlan = plan;
      bestFloor = floor->first.bytes();
    }
  }
  // Splits that left the floor where it was are not worth their pieces.
  if (bestPlan.empty())
    return std::nullopt;
  int64_t opsSplit = applySplitPlan(func, bestPlan).opsSplit;
  // Empties and equal pieces (fills of equal empties) stay apart under CSE:
  // merged, the pieces of two ops would write into slices of one buffer,
  // which bufferization then copies.
  numberAllocations(func);
  keepDuplicatesApart(func);
  int64_t pieceCount = 0;
  for (auto [position, pieces] : bestPlan)
    pieceCount += pieces;
  Builder builder(func.getContext());
  NamedAttribute fields[] = {
      builder.getNamedAttr("floor_before_bytes",
                           builder.getI64IntegerAttr(floorBefore)),
      builder.getNamedAttr("floor_after_bytes",
                           builder.getI64IntegerAttr(bestFloor)),
      builder.getNamedAttr("ops_split", builder.getI64IntegerAttr(opsSplit)),
      builder.getNamedAttr("pieces", builder.getI64IntegerAttr(pieceCount)),
      builder.getNamedAttr("planned_before_bytes",
                           builder.getI64IntegerAttr(plannedBefore)),
  };
  func->setAttr(kSplitAttrName, builder.getDictionaryAttr(fields));
  return SplitOutcome{floorBefore, bestFloor, opsSplit, pieceCount};
}

void SplitPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  std::optional<Budget> parsedBudget =
      parseBudgetOrEmitError(budget, func, "memsched-split");
  if (!parsedBudget)
    return signalPassFailure();
  if (maxPieces < 2) {
    emitError(func.getLoc()) << "memsched-split: max-pieces must be at least 2";
    return signalPassFailure();
  }
  FailureOr<DeviceSpec> spec =
      DeviceSpec::resolveOrEmitError(device, func, "memsched-split");
  if (failed(spec))
    return signalPassFailure();
  CostModel costModel(*spec);
  if (!TensorGraph::buildOrEmitError(func, costModel, "memsched-split"))
    return signalPassFailure();
  (void)splitToFloor(func, costModel, *parsedBudget, maxPieces);
  DeviceSpec::record(device, func);
}
