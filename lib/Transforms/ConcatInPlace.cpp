//===- ConcatInPlace.cpp - memsched-concat-in-place pass --------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// A concatenation lowered as insertions into an empty tensor copies each
// piece into the result, so pieces and result coexist. Computing a piece
// directly in its slice of the result (an extract_slice as the init of its
// producer) lets one-shot bufferization write it in place: the insertion then
// stores the slice onto itself and the piece's own buffer disappears. The
// memory model recognises the pattern (getInPlaceSliceSource).
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"
#include "memsched/Dialect/Memsched/IR/MemschedOps.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopeExit.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDCONCATINPLACEPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {

/// One insertion of a concatenation chain and, if its piece can be computed
/// in place, the ops computing it (in block order) and the empty tensor they
/// start from.
struct Piece {
  tensor::InsertSliceOp insert;
  SmallVector<Operation *> producers;
  tensor::EmptyOp root;
};

/// The ops computing `piece` (read by `reader` only) into an empty tensor of
/// its own, in block order: destination-style, side-effect free,
/// single-result ops chained through their inits, and reshapes between them,
/// each value read by the next op only (isOnlyReadBy). With
/// `allowInsertions`, insertions into the chain's value too (a concatenation
/// as the piece). Empty if there are none.
static SmallVector<Operation *> getPieceProducers(Value piece,
                                                  Operation *reader,
                                                  tensor::EmptyOp &root,
                                                  bool allowInsertions) {
  SmallVector<Operation *> chain;
  Block *block = reader->getBlock();
  Value value = piece;
  while (isOnlyReadBy(value, reader)) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != block)
      return {};
    if (auto empty = dyn_cast<tensor::EmptyOp>(def)) {
      if (chain.empty() || !empty.getType().hasStaticShape())
        return {};
      root = empty;
      std::reverse(chain.begin(), chain.end());
      return chain;
    }
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def)) {
      chain.push_back(def);
      value = def->getOperand(0);
      reader = def;
      continue;
    }
    auto dps = dyn_cast<DestinationStyleOpInterface>(def);
    if (!dps || def->getNumResults() != 1 || !isMemoryEffectFree(def) ||
        (isa<tensor::InsertSliceOp>(def) && !allowInsertions))
      return {};
    chain.push_back(def);
    value = dps.getTiedOpOperand(cast<OpResult>(value))->get();
    reader = def;
  }
  return {};
}

/// Replaces `root` (the empty tensor a piece's chain starts from) by
/// `slice`, reshaped back through the reshapes among `producers`.
static void replaceRoot(OpBuilder &builder, tensor::EmptyOp root,
                        ArrayRef<Operation *> producers, Value slice) {
  for (Operation *op : llvm::reverse(producers)) {
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      slice = tensor::ExpandShapeOp::create(builder, op->getLoc(),
                                            collapse.getSrcType(), slice,
                                            collapse.getReassociationIndices());
    else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      slice = tensor::CollapseShapeOp::create(builder, op->getLoc(),
                                              expand.getSrcType(), slice,
                                              expand.getReassociationIndices());
  }
  root.getResult().replaceAllUsesWith(slice);
  root.erase();
}

/// A `tensor.pad` by a constant whose source can be computed in place: the
/// pad becomes a fill of the padded tensor, the source computed in its
/// interior, and an insertion that copies nothing.
static bool isPaddable(tensor::PadOp pad) {
  Attribute value;
  tensor::EmptyOp root;
  return pad.getResultType().hasStaticShape() && !pad.getNofold() &&
         pad.getSourceType().hasStaticShape() &&
         matchPattern(pad.getConstantPaddingValue(), m_Constant(&value)) &&
         llvm::all_of(pad.getStaticLow(),
                      [](int64_t low) { return low >= 0; }) &&
         pad.getLow().empty() && pad.getHigh().empty() &&
         !getPieceProducers(pad.getSource(), pad, root,
                            /*allowInsertions=*/true)
              .empty();
}

static void rewritePad(tensor::PadOp pad, int64_t instance) {
  tensor::EmptyOp root;
  SmallVector<Operation *> producers =
      getPieceProducers(pad.getSource(), pad, root, /*allowInsertions=*/true);
  Operation *first = nullptr;
  for (Operation *user : root->getUsers())
    if (!first || user->isBeforeInBlock(first))
      first = user;
  OpBuilder builder(first);
  Location loc = pad.getLoc();
  Attribute value;
  matchPattern(pad.getConstantPaddingValue(), m_Constant(&value));
  Value padding =
      arith::ConstantOp::create(builder, loc, cast<TypedAttr>(value));
  RankedTensorType type = pad.getResultType();
  auto empty = tensor::EmptyOp::create(builder, loc, type.getShape(),
                                       type.getElementType());
  empty->setAttr(kConcatResultAttrName, builder.getI64IntegerAttr(instance));
  Value filled =
      linalg::FillOp::create(builder, loc, padding, empty.getResult())
          .getResult(0);
  SmallVector<OpFoldResult> offsets = pad.getMixedLowPad();
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(pad.getContext(), pad.getSourceType().getShape());
  SmallVector<OpFoldResult> strides(offsets.size(), builder.getIndexAttr(1));
  auto slice = tensor::ExtractSliceOp::create(builder, loc, pad.getSourceType(),
                                              filled, offsets, sizes, strides);
  replaceRoot(builder, root, producers, slice.getResult());
  builder.setInsertionPoint(pad);
  Value inserted = tensor::InsertSliceOp::create(
      builder, loc, pad.getSource(), filled, offsets, sizes, strides);
  pad.getResult().replaceAllUsesWith(inserted);
  pad.erase();
}

/// Whether two static slices of one tensor certainly share no element: on
/// some dimension their index ranges do not meet.
static bool areDisjoint(tensor::InsertSliceOp a, tensor::InsertSliceOp b) {
  for (auto [offsetA, sizeA, strideA, offsetB, sizeB, strideB] :
       llvm::zip_equal(a.getStaticOffsets(), a.getStaticSizes(),
                       a.getStaticStrides(), b.getStaticOffsets(),
                       b.getStaticSizes(), b.getStaticStrides())) {
    if (sizeA == 0 || sizeB == 0)
      return true;
    int64_t lastA = offsetA + (sizeA - 1) * strideA;
    int64_t lastB = offsetB + (sizeB - 1) * strideB;
    if (lastA < offsetB || lastB < offsetA)
      return true;
  }
  return false;
}

static bool hasStaticSlice(tensor::InsertSliceOp insert) {
  return insert.getOffsets().empty() && insert.getSizes().empty() &&
         insert.getStrides().empty() &&
         llvm::all_of(insert.getStaticStrides(),
                      [](int64_t stride) { return stride > 0; });
}

/// The chain of insertions that starts at `first` (whose destination is an
/// empty tensor read by nothing else), if every slice is static and no two
/// overlap; empty otherwise.
static SmallVector<tensor::InsertSliceOp>
getConcatChain(tensor::InsertSliceOp first) {
  SmallVector<tensor::InsertSliceOp> chain;
  for (tensor::InsertSliceOp insert = first; insert;) {
    if (!hasStaticSlice(insert))
      return {};
    chain.push_back(insert);
    Value result = insert.getResult();
    auto next = result.hasOneUse()
                    ? dyn_cast<tensor::InsertSliceOp>(*result.user_begin())
                    : tensor::InsertSliceOp();
    insert = next && next.getDest() == result &&
                     next->getBlock() == first->getBlock()
                 ? next
                 : tensor::InsertSliceOp();
  }
  // Quadratic, but concatenations have few pieces; a long chain (an
  // unrolled stack) is left alone rather than checked for minutes.
  if (chain.size() > 4096)
    return {};
  for (size_t i = 0; i < chain.size(); ++i)
    for (size_t j = i + 1; j < chain.size(); ++j)
      if (!areDisjoint(chain[i], chain[j]))
        return {};
  return chain;
}

/// Rewrites one chain: of the pieces that can be computed in place, all but
/// the first `skip` in the order they are computed are. Returns how many
/// are (0: the IR is unchanged).
static int64_t rewriteChain(ArrayRef<tensor::InsertSliceOp> chain,
                            tensor::EmptyOp result, size_t skip,
                            int64_t instance, Value *concatenation) {
  SmallVector<Piece> inPlace, copied;
  for (tensor::InsertSliceOp insert : chain) {
    Piece piece{insert, {}, {}};
    piece.producers = getPieceProducers(insert.getSource(), insert, piece.root,
                                        /*allowInsertions=*/false);
    if (!piece.producers.empty())
      inPlace.push_back(std::move(piece));
    else
      copied.push_back(Piece{insert, {}, {}});
  }
  if (inPlace.size() <= skip)
    return 0;
  // Insert the pieces in the order they are computed.
  llvm::stable_sort(inPlace, [](const Piece &a, const Piece &b) {
    return a.producers.back()->isBeforeInBlock(b.producers.back());
  });
  // The result's buffer is live from the first piece in place on: the
  // earlier ones may rather stay copies.
  for (const Piece &piece : ArrayRef(inPlace).take_front(skip))
    copied.push_back(Piece{piece.insert, {}, {}});
  inPlace.erase(inPlace.begin(), inPlace.begin() + skip);

  Block *block = result->getBlock();
  // The result's empty tensor must dominate every slice taken of it.
  result->moveBefore(block, block->begin());
  OpBuilder builder(result.getContext());
  result->setAttr(kConcatResultAttrName, builder.getI64IntegerAttr(instance));
  Value current = result.getResult();
  Operation *previous = nullptr;
  auto insertInto = [&](Value dest, tensor::InsertSliceOp old) {
    return tensor::InsertSliceOp::create(
        builder, old.getLoc(), old.getSource(), dest, old.getMixedOffsets(),
        old.getMixedSizes(), old.getMixedStrides());
  };
  for (Piece &piece : inPlace) {
    Operation *last = piece.producers.back();
    // Producers that run before the previous insertion move after it, in
    // their order (they are read only along the chain).
    if (previous) {
      Operation *firstAfter = nullptr;
      for (Operation *op : piece.producers)
        if (!op->isBeforeInBlock(previous)) {
          firstAfter = op;
          break;
        }
      for (Operation *op : piece.producers) {
        if (op == firstAfter)
          break;
        op->moveBefore(firstAfter);
      }
    }
    builder.setInsertionPoint(piece.producers.front());
    auto slice = tensor::ExtractSliceOp::create(
        builder, piece.insert.getLoc(), piece.insert.getSourceType(), current,
        piece.insert.getMixedOffsets(), piece.insert.getMixedSizes(),
        piece.insert.getMixedStrides());
    replaceRoot(builder, piece.root, piece.producers, slice.getResult());
    builder.setInsertionPointAfter(last);
    previous = insertInto(current, piece.insert);
    current = previous->getResult(0);
  }
  // The other pieces are copied where the concatenation was.
  tensor::InsertSliceOp end = chain.back();
  builder.setInsertionPoint(end);
  for (Piece &piece : copied)
    current = insertInto(current, piece.insert).getResult();
  end.getResult().replaceAllUsesWith(current);
  for (tensor::InsertSliceOp insert : llvm::reverse(chain))
    insert.erase();
  *concatenation = current;
  return static_cast<int64_t>(inPlace.size());
}

/// How many pieces of `chain` can be computed in place.
static size_t countInPlacePieces(ArrayRef<tensor::InsertSliceOp> chain) {
  return llvm::count_if(chain, [](tensor::InsertSliceOp insert) {
    tensor::EmptyOp root;
    return !getPieceProducers(insert.getSource(), insert, root,
                              /*allowInsertions=*/false)
                .empty();
  });
}

/// Replaces every `tensor.concat` of `func` by upstream's decomposition: an
/// empty tensor and one insertion per input.
static void decomposeConcats(func::FuncOp func) {
  Block &block = func.getBody().front();
  SmallVector<tensor::ConcatOp> concats(block.getOps<tensor::ConcatOp>());
  for (tensor::ConcatOp concat : concats) {
    OpBuilder builder(concat);
    FailureOr<SmallVector<Value>> pieces = concat.decomposeOperation(builder);
    if (failed(pieces))
      continue;
    concat.getResult().replaceAllUsesWith(pieces->front());
    concat.erase();
  }
}

/// A concatenation (its chain of insertions into an empty tensor) or a pad
/// whose pieces can be computed in place.
struct Candidate {
  SmallVector<tensor::InsertSliceOp> chain;
  tensor::EmptyOp result;
  tensor::PadOp pad;

  size_t numPieces() const { return pad ? 1 : countInPlacePieces(chain); }
  /// Whether a pad reads the concatenation (a trial with the pad too then
  /// differs from one without).
  bool isPadded() const {
    Value concatenation = pad ? Value() : chain.back()->getResult(0);
    return concatenation && concatenation.hasOneUse() &&
           isa<tensor::PadOp>(*concatenation.user_begin());
  }
  /// Computes all but the first `skip` pieces in place; returns how many.
  /// With `padToo`, a concatenation is then itself computed in place in the
  /// interior of the pad that reads it, if any (one rewrite alone may save
  /// nothing where both do).
  int64_t rewrite(size_t skip, int64_t instance, bool padToo) const {
    if (pad) {
      rewritePad(pad, instance);
      return 1;
    }
    Value concatenation;
    int64_t pieces =
        rewriteChain(chain, result, skip, instance, &concatenation);
    if (padToo && pieces != 0 && concatenation.hasOneUse())
      if (auto reader = dyn_cast<tensor::PadOp>(*concatenation.user_begin());
          reader && isPaddable(reader)) {
        rewritePad(reader, instance + 1);
        ++pieces;
      }
    return pieces;
  }
};

/// The concatenations and pads of `func` with a piece that can be computed
/// in place (and none computed in place yet), in block order.
static SmallVector<Candidate> collectCandidates(func::FuncOp func) {
  Block &block = func.getBody().front();
  SmallVector<Candidate> candidates;
  for (Operation &op : block) {
    if (auto pad = dyn_cast<tensor::PadOp>(op)) {
      if (isPaddable(pad))
        candidates.push_back(Candidate{{}, {}, pad});
      continue;
    }
    auto empty = dyn_cast<tensor::EmptyOp>(op);
    if (!empty)
      continue;
    Value result = empty.getResult();
    if (!empty.getType().hasStaticShape() || !result.hasOneUse())
      continue;
    auto first = dyn_cast<tensor::InsertSliceOp>(*result.user_begin());
    if (!first || first.getDest() != result || first->getBlock() != &block)
      continue;
    SmallVector<tensor::InsertSliceOp> chain = getConcatChain(first);
    if (!chain.empty() && countInPlacePieces(chain) > 0)
      candidates.push_back(Candidate{std::move(chain), empty, {}});
  }
  return candidates;
}

struct ConcatInPlacePass
    : public memsched::impl::MemschedConcatInPlacePassBase<ConcatInPlacePass> {
  using Base::Base;
  void runOnOperation() override;
};

} // namespace

void ConcatInPlacePass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  FailureOr<DeviceSpec> spec =
      DeviceSpec::resolveOrEmitError(device, func, "memsched-concat-in-place");
  if (failed(spec))
    return signalPassFailure();
  llvm::scope_exit recordDevice([&] {
    if (!getPassState().irAndPassFailed.getInt())
      DeviceSpec::record(device, func);
  });
  CostModel costModel(*spec);
  {
    TensorGraph graph = TensorGraph::build(func, costModel);
    graph.emitStatus("memsched-concat-in-place");
    if (graph.getStatus() == TensorGraphStatus::Skipped)
      return markAllAnalysesPreserved();
    if (graph.getStatus() == TensorGraphStatus::Failed)
      return signalPassFailure();
  }
  // What a budget bounds (planned bytes) decides, then the peak, then the
  // live bytes of the other steps from the highest down: a rewrite that
  // lowers one of several equal peaks is kept, so that the next one can
  // lower the peak.
  using Figures = std::tuple<int64_t, int64_t, std::vector<int64_t>>;
  auto measure = [&] {
    FunctionReport report = analyzeFunction(func, costModel);
    std::vector<int64_t> live = report.profile.liveBytes;
    llvm::sort(live, std::greater<int64_t>());
    return Figures(report.plannedBytes(), report.peakBytes, std::move(live));
  };
  OwningOpRef<func::FuncOp> original = func.clone();
  // The decomposition alone may plan differently (offsets are planned
  // anew): the rewrites must beat the function as it came.
  Figures given = measure();
  decomposeConcats(func);
  // Each chain in turn, with each number of its first pieces left as
  // copies, evaluated in the current order; the best is kept if it saves.
  // The trials are bounded: at most 2M ops analysed beyond the first few.
  int64_t numOps = 0;
  func.walk([&](Operation *) { ++numOps; });
  int64_t trialsLeft =
      std::max<int64_t>(16, 2000000 / std::max<int64_t>(numOps, 1));
  Figures current = measure();
  // Numbers that tell the results apart from every other empty.
  int64_t instance = 0;
  func.walk([&](tensor::EmptyOp empty) {
    if (auto number = empty->getAttrOfType<IntegerAttr>(kConcatResultAttrName))
      instance = std::max(instance, number.getInt() + 1);
  });
  int64_t pieces = 0, candidatesRewritten = 0;
  for (size_t next = 0; trialsLeft > 0;) {
    SmallVector<Candidate> candidates = collectCandidates(func);
    if (next >= candidates.size())
      break;
    size_t numPieces = candidates[next].numPieces();
    bool isPadded = candidates[next].isPadded();
    std::optional<std::pair<size_t, bool>> bestChoice;
    Figures best = current;
    for (size_t skip = 0; skip < numPieces; ++skip) {
      for (bool padToo : {false, true}) {
        if ((padToo && !isPadded) || trialsLeft-- <= 0)
          continue;
        OwningOpRef<func::FuncOp> saved = func.clone();
        collectCandidates(func)[next].rewrite(skip, instance, padToo);
        Figures figures = measure();
        if (figures < best) {
          best = figures;
          bestChoice = {skip, padToo};
        }
        func.getBody().takeBody(saved->getBody());
      }
    }
    if (!bestChoice) {
      ++next;
      continue;
    }
    // Kept: the candidate leaves the list.
    pieces += collectCandidates(func)[next].rewrite(bestChoice->first, instance,
                                                    bestChoice->second);
    instance += 2;
    ++candidatesRewritten;
    current = best;
  }
  if (candidatesRewritten == 0 || !(current < given)) {
    func.getBody().takeBody(original->getBody());
    return markAllAnalysesPreserved();
  }
  emitRemark(func.getLoc())
      << "memsched-concat-in-place: " << pieces << " pieces of "
      << candidatesRewritten
      << " concatenations and pads computed in place; planned "
      << formatBytes(std::get<0>(given)) << " -> "
      << formatBytes(std::get<0>(current)) << ", peak "
      << formatBytes(std::get<1>(given)) << " -> "
      << formatBytes(std::get<1>(current));
}
