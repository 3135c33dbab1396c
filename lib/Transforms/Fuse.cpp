//===- Fuse.cpp - memsched-fuse pass ---------------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// A generator is an elementwise op whose result is large and whose inputs are
// small: a fill, a broadcast, a one-hot mask of targets (a cross-entropy's
// backward scatters -1 into zeros of the logits' shape). Materialised, its
// result is an operand of each reader and so part of their working sets: the
// one-hot tensor and the softmax it is subtracted from set a language model's
// floor. Fused into each elementwise reader (upstream's elementwise fusion,
// one copy of the generator per reader, since a shared producer would stay
// materialised as an extra result), the tensor never exists: each element is
// computed by the same operations, in the same order, where it is read. A
// reduction reader whose loops only the generator spans gets a small
// placeholder operand giving their extents, so that fusion takes it too.
// Then upstream's elementwise fusion (producers with one reader), kept where
// it raises the floor by at most 1/64: a chain's intermediates (an
// exponential only a sum reads) then do not coexist with the chain's input.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Transforms/BudgetPlanning.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDFUSEPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

/// Bytes of a statically shaped tensor value; -1 for anything else.
static int64_t getTensorBytes(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() ||
      !type.getElementType().isIntOrIndexOrFloat())
    return -1;
  return type.getNumElements() *
         llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
}

/// Whether `op` computes a large tensor from small inputs, element by element
/// and free of side effects: one static tensor result, parallel loops only,
/// a permutation as the result's map, and tensor inputs (those its body
/// captures included) of at most 1/`inputRatio` of the result's bytes.
static bool isGenerator(linalg::LinalgOp op, int64_t inputRatio) {
  if (op->getNumResults() != 1 || !op.hasPureTensorSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops() ||
      !isMemoryEffectFree(op.getOperation()))
    return false;
  int64_t resultBytes = getTensorBytes(op->getResult(0));
  if (resultBytes <= 0 ||
      !op.getIndexingMapMatchingResult(op->getOpResult(0)).isPermutation())
    return false;
  int64_t inputBytes = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<ShapedType>(input->get().getType()))
      continue;
    int64_t bytes = getTensorBytes(input->get());
    if (bytes < 0)
      return false;
    inputBytes += bytes;
  }
  // The init is read only where the body uses it (a fill's is not).
  for (OpOperand &init : op.getDpsInitsMutable())
    if (op.payloadUsesValueFromOperand(&init))
      return false;
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  for (Value value : captured) {
    if (!isa<ShapedType>(value.getType()))
      continue;
    int64_t bytes = getTensorBytes(value);
    if (bytes < 0)
      return false;
    inputBytes += bytes;
  }
  return inputBytes * inputRatio <= resultBytes;
}

/// The first use of `op`'s result that elementwise fusion can take (an input
/// of a linalg.generic op of the same block) other than those in `failed`.
static OpOperand *getFusableUse(Operation *op,
                                const DenseSet<OpOperand *> &failed) {
  for (OpOperand &use : op->getResult(0).getUses()) {
    auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (consumer && consumer->getBlock() == op->getBlock() &&
        consumer.isDpsInput(&use) && !failed.contains(&use))
      return &use;
  }
  return nullptr;
}

/// Upstream's fusion needs each loop's extent from an operand of the fused
/// op, so a reduction whose loop only the generator spans (a one-hot mask's
/// row sum: the columns) does not take it. Builds `reader` again beside it
/// with a placeholder operand per such loop, an empty 1-D tensor of the
/// loop's extent that the body never reads (a 50257-element vector, where
/// the mask it stands in for is 8192 x 50257), so that fusion can take the
/// generator there too. Returns the operand of the new op standing for
/// `use`; null, and nothing built, where every loop has an extent already
/// or one that is needed is not static.
static OpOperand *addLoopExtentOperands(RewriterBase &rewriter,
                                        linalg::GenericOp reader,
                                        OpOperand *use) {
  unsigned numLoops = reader.getNumLoops();
  llvm::SmallBitVector spanned(numLoops);
  for (OpOperand &operand : reader->getOpOperands()) {
    if (&operand == use)
      continue;
    for (AffineExpr result :
         reader.getMatchingIndexingMap(&operand).getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(result))
        spanned.set(dim.getPosition());
  }
  SmallVector<int64_t> extents = reader.getStaticLoopRanges();
  SmallVector<unsigned> missing;
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    if (spanned.test(loop))
      continue;
    if (ShapedType::isDynamic(extents[loop]))
      return nullptr;
    missing.push_back(loop);
  }
  if (missing.empty())
    return nullptr;
  Location loc = reader.getLoc();
  Type elementType = getElementTypeOrSelf(use->get().getType());
  rewriter.setInsertionPoint(reader);
  SmallVector<Value> inputs(reader.getDpsInputs());
  SmallVector<AffineMap> maps;
  for (OpOperand *input : reader.getDpsInputOperands())
    maps.push_back(reader.getMatchingIndexingMap(input));
  for (unsigned loop : missing) {
    inputs.push_back(tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{extents[loop]}, elementType));
    maps.push_back(
        AffineMap::get(numLoops, 0, rewriter.getAffineDimExpr(loop)));
  }
  for (OpOperand &init : reader.getDpsInitsMutable())
    maps.push_back(reader.getMatchingIndexingMap(&init));
  auto rebuilt = linalg::GenericOp::create(
      rewriter, loc, reader->getResultTypes(), inputs, reader.getDpsInits(),
      maps, reader.getIteratorTypesArray());
  rebuilt->setDiscardableAttrs(reader->getDiscardableAttrDictionary());
  rewriter.cloneRegionBefore(reader.getRegion(), rebuilt.getRegion(),
                             rebuilt.getRegion().end());
  Block &body = rebuilt.getRegion().front();
  for (size_t i = 0; i < missing.size(); ++i)
    body.insertArgument(reader.getNumDpsInputs() + i, elementType, loc);
  return &rebuilt->getOpOperand(use->getOperandNumber());
}

/// Erases `rebuilt`, addLoopExtentOperands' copy of `original`, and the
/// placeholders it alone reads (its inputs past `original`'s).
static void eraseRebuiltReader(RewriterBase &rewriter,
                               linalg::GenericOp rebuilt,
                               linalg::GenericOp original) {
  SmallVector<Operation *> placeholders;
  for (OpOperand *input : llvm::drop_begin(rebuilt.getDpsInputOperands(),
                                           original.getNumDpsInputs()))
    placeholders.push_back(input->get().getDefiningOp());
  rewriter.eraseOp(rebuilt);
  for (Operation *placeholder : placeholders)
    if (placeholder && placeholder->use_empty())
      rewriter.eraseOp(placeholder);
}

/// Fuses a copy of `generator` into the reader of `use`; the fused op, or
/// null (the IR unchanged) where fusion does not apply.
static Operation *fuseCopyInto(RewriterBase &rewriter, Operation *generator,
                               OpOperand *use) {
  // A copy per reader: fused into its only reader, the copy leaves no
  // result behind (a shared producer would stay, as an extra result).
  rewriter.setInsertionPoint(generator);
  Operation *copy = rewriter.clone(*generator);
  if (!isa<linalg::GenericOp>(copy)) {
    // A fill or a broadcast becomes the generic op fusion takes.
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, cast<linalg::LinalgOp>(copy));
    if (failed(generic)) {
      rewriter.eraseOp(copy);
      return nullptr;
    }
    copy = *generic;
  }
  Operation *consumer = use->getOwner();
  rewriter.modifyOpInPlace(consumer, [&] { use->set(copy->getResult(0)); });
  // The reader fusion takes: the consumer, or a copy of it with the loop
  // extents the generator alone gave.
  Operation *reader = consumer;
  OpOperand *fusedUse = use;
  if (!linalg::areElementwiseOpsFusable(use))
    if (OpOperand *extended = addLoopExtentOperands(
            rewriter, cast<linalg::GenericOp>(consumer), use)) {
      reader = extended->getOwner();
      fusedUse = extended;
      // The copy's only reader, or fusion keeps its result.
      rewriter.modifyOpInPlace(consumer,
                               [&] { use->set(generator->getResult(0)); });
    }
  FailureOr<linalg::ElementwiseOpFusionResult> result = failure();
  if (linalg::areElementwiseOpsFusable(fusedUse)) {
    // The fused op takes the reader's place (its init is defined there).
    rewriter.setInsertionPoint(consumer);
    result = linalg::fuseElementwiseOps(rewriter, fusedUse);
  }
  if (failed(result)) {
    if (reader != consumer)
      eraseRebuiltReader(rewriter, cast<linalg::GenericOp>(reader),
                         cast<linalg::GenericOp>(consumer));
    rewriter.modifyOpInPlace(consumer,
                             [&] { use->set(generator->getResult(0)); });
    rewriter.eraseOp(copy);
    return nullptr;
  }
  for (auto [value, readerValue] :
       llvm::zip_equal(consumer->getResults(), reader->getResults()))
    if (Value replacement = result->replacements.lookup(readerValue))
      rewriter.replaceAllUsesWith(value, replacement);
  rewriter.eraseOp(consumer);
  if (reader != consumer)
    rewriter.eraseOp(reader);
  rewriter.eraseOp(copy);
  return result->fusedOp;
}

/// Fuses every generator of `func` into its elementwise readers; the number
/// of readers fused into.
static int64_t fuseAllGenerators(func::FuncOp func, int64_t inputRatio) {
  IRRewriter rewriter(func.getContext());
  int64_t fused = 0;
  for (Block &block : func.getBody()) {
    // Fused ops take their readers' places, after the generator, and may be
    // generators themselves (a fill scattered into, then scaled): the walk
    // goes on from the op before the generator, which fusion leaves as it
    // was.
    Operation *op = block.empty() ? nullptr : &block.front();
    while (op) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (!linalgOp || !isGenerator(linalgOp, inputRatio)) {
        op = op->getNextNode();
        continue;
      }
      Operation *before = op->getPrevNode();
      DenseSet<OpOperand *> failed;
      while (OpOperand *use = getFusableUse(op, failed)) {
        if (fuseCopyInto(rewriter, op, use))
          ++fused;
        else
          failed.insert(use);
      }
      Operation *next = op->getNextNode();
      if (op->use_empty()) {
        rewriter.eraseOp(op);
        next = before ? before->getNextNode() : &block.front();
      }
      op = next;
    }
  }
  return fused;
}

/// Elementwise fusion is kept where it raises the floor by at most
/// 1/kFloorSlack.
constexpr int64_t kFloorSlack = 64;

/// Upstream's elementwise fusion of producers with one reader (the control
/// of `-linalg-fuse-elementwise-ops`); whether any op was fused.
static bool fuseElementwiseChains(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  linalg::populateElementwiseOpsFusionPatterns(patterns, [](OpOperand *fused) {
    Operation *producer = fused->get().getDefiningOp();
    return producer && producer->hasOneUse();
  });
  int64_t before = 0, after = 0;
  func.walk([&](linalg::LinalgOp) { ++before; });
  (void)applyPatternsGreedily(func, std::move(patterns));
  func.walk([&](linalg::LinalgOp) { ++after; });
  return after < before;
}

std::optional<FuseOutcome>
mlir::memsched::fuseToLowerFloor(func::FuncOp func, const CostModel &costModel,
                                 const FuseOptions &options) {
  FunctionReport before = analyzeFunction(func, costModel);
  if (before.status != TensorGraphStatus::Built)
    return std::nullopt;
  int64_t plannedBefore = getInputPlannedBytes(func, before.plannedBytes());
  FuseOutcome outcome;
  outcome.floorBeforeBytes = before.floorBytes;
  outcome.generatorsFused = fuseAllGenerators(func, options.inputRatio);
  int64_t floor = outcome.generatorsFused > 0
                      ? analyzeFunction(func, costModel).floorBytes
                      : before.floorBytes;
  outcome.floorAfterGeneratorsBytes = floor;
  if (options.elementwise) {
    func::FuncOp chains = func.clone();
    llvm::scope_exit erase([&] { chains.erase(); });
    if (fuseElementwiseChains(chains)) {
      FunctionReport fused = analyzeFunction(chains, costModel);
      // A fused op reads its producer's inputs too (a row's maximum beside
      // the row): a floor a little higher is taken for the intermediates
      // the chains no longer hold, which plans go below far more.
      if (fused.status == TensorGraphStatus::Built &&
          fused.floorBytes <= floor + floor / kFloorSlack) {
        func.getBody().takeBody(chains.getBody());
        outcome.elementwiseFused = true;
        floor = fused.floorBytes;
      }
    }
  }
  if (outcome.generatorsFused == 0 && !outcome.elementwiseFused)
    return std::nullopt;
  outcome.floorAfterBytes = floor;
  Builder builder(func.getContext());
  NamedAttribute fields[] = {
      builder.getNamedAttr("elementwise",
                           builder.getBoolAttr(outcome.elementwiseFused)),
      builder.getNamedAttr("floor_after_bytes",
                           builder.getI64IntegerAttr(outcome.floorAfterBytes)),
      builder.getNamedAttr("floor_before_bytes",
                           builder.getI64IntegerAttr(outcome.floorBeforeBytes)),
      builder.getNamedAttr("generators",
                           builder.getI64IntegerAttr(outcome.generatorsFused)),
      builder.getNamedAttr("planned_before_bytes",
                           builder.getI64IntegerAttr(plannedBefore)),
  };
  func->setAttr(kFuseAttrName, builder.getDictionaryAttr(fields));
  return outcome;
}

namespace {
struct FusePass : public memsched::impl::MemschedFusePassBase<FusePass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void FusePass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  if (inputRatio < 1) {
    emitError(func.getLoc()) << "memsched-fuse: input-ratio must be at least 1";
    return signalPassFailure();
  }
  FailureOr<DeviceSpec> spec =
      DeviceSpec::resolveOrEmitError(device, func, "memsched-fuse");
  if (failed(spec))
    return signalPassFailure();
  CostModel costModel(*spec);
  if (!TensorGraph::buildOrEmitError(func, costModel, "memsched-fuse"))
    return signalPassFailure();
  FuseOptions options;
  options.inputRatio = inputRatio;
  options.elementwise = elementwise;
  if (!fuseToLowerFloor(func, costModel, options))
    return markAllAnalysesPreserved();
  DeviceSpec::record(device, func);
}
