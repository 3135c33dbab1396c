//===- LinalgToGpu.cpp - memsched-linalg-to-gpu pass ------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file maps the linalg ops of device functions to GPU launches with the
// upstream transforms: generalization, loop interchange, linalg to parallel
// loops, parallel-loop tiling and the parallel-loops-to-GPU conversion. Tiles
// become thread blocks, so a matmul or a convolution runs as blocks of
// threads over tiles of its output rather than as one thread per block.
//
// Each output element keeps its reduction order (the reduction loops stay
// sequential, innermost, in their original order), which is what keeps GPU
// results bit-identical to the CPU lowering for ops without transcendental
// functions.
//
//===----------------------------------------------------------------------===//

#include "KernelTags.h"
#include "memsched/Conversion/Passes.h"

#include "mlir/Conversion/SCFToGPU/SCFToGPU.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDLINALGTOGPUPASS
#include "memsched/Conversion/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct LinalgToGpuPass
    : public memsched::impl::MemschedLinalgToGpuPassBase<LinalgToGpuPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Turns `op` into a mapped, tiled scf.parallel; returns the outer loop.
  FailureOr<scf::ParallelOp> mapOp(RewriterBase &rewriter, linalg::LinalgOp op);
  /// The kernel of an op with reductions whose parallel loops come first:
  /// each thread accumulates a micro-tile of outputs in registers.
  FailureOr<scf::ParallelOp> mapReduction(RewriterBase &rewriter,
                                          linalg::GenericOp op,
                                          size_t numParallel);
  /// Replaces the mapped loops of `func` by named gpu.launch ops.
  LogicalResult convertFunction(func::FuncOp func,
                                llvm::StringSet<> &usedNames);
};
} // namespace

static gpu::ParallelLoopDimMappingAttr getMapping(MLIRContext *context,
                                                  gpu::Processor processor) {
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  return gpu::ParallelLoopDimMappingAttr::get(context, processor, identity,
                                              identity);
}

/// The mapping attributes of an outer loop whose dimensions have
/// `blockCounts` tiles each (dynamic when unknown): from the innermost, to
/// blocks in x, y, z; a dimension with more tiles than the grid allows in
/// the next free grid dimension (2^31 - 1 in x, 65535 in y and z), and
/// every one beyond three, runs sequentially in each thread.
static SmallVector<gpu::ParallelLoopDimMappingAttr>
getBlockMapping(MLIRContext *context, ArrayRef<int64_t> blockCounts) {
  const std::pair<gpu::Processor, int64_t> grid[] = {
      {gpu::Processor::BlockX, std::numeric_limits<int32_t>::max()},
      {gpu::Processor::BlockY, 65535},
      {gpu::Processor::BlockZ, 65535}};
  size_t next = 0;
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping(blockCounts.size());
  for (size_t dim = blockCounts.size(); dim-- > 0;) {
    int64_t count = blockCounts[dim];
    bool fits = next < 3 &&
                (ShapedType::isDynamic(count) || count <= grid[next].second);
    mapping[dim] = getMapping(context, fits ? grid[next++].first
                                            : gpu::Processor::Sequential);
  }
  return mapping;
}

/// Tiles of `tile` over a dimension of `extent` (dynamic stays dynamic).
static int64_t getTileCount(int64_t extent, int64_t tile) {
  return ShapedType::isDynamic(extent) ? ShapedType::kDynamic
                                       : llvm::divideCeil(extent, tile);
}

FailureOr<scf::ParallelOp> LinalgToGpuPass::mapReduction(RewriterBase &rewriter,
                                                         linalg::GenericOp op,
                                                         size_t numParallel) {
  MLIRContext *context = op.getContext();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  size_t numLoops = op.getNumLoops();
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };

  // Threads and outputs per thread over the innermost parallel dimension (x)
  // and the next (y). A thread's outputs are a block's thread count apart,
  // so that neighbouring threads touch neighbouring elements.
  size_t dimX = numParallel - 1;
  std::optional<size_t> dimY;
  if (numParallel >= 2)
    dimY = numParallel - 2;
  auto split = [](int64_t extent, int64_t threads, int64_t micro) {
    int64_t t = std::max<int64_t>(1, std::min(threads, extent));
    int64_t m = std::max<int64_t>(
        1, std::min<int64_t>(micro, llvm::divideCeil(extent, t)));
    return std::make_pair(t, m);
  };
  auto [threadsOnX, microOnX] =
      split(extents[dimX], numParallel == 1 ? threads1D : threadsX, microX);
  auto [threadsOnY, microOnY] = dimY ? split(extents[*dimY], threadsY, microY)
                                     : std::make_pair(int64_t(1), int64_t(1));

  // Block tiles over the parallel dimensions.
  Value zero = constant(0), one = constant(1);
  SmallVector<Value> lowers(numParallel, zero), uppers, steps;
  for (size_t dim = 0; dim < numParallel; ++dim) {
    uppers.push_back(constant(extents[dim]));
    int64_t step = dim == dimX            ? threadsOnX * microOnX
                   : dimY && dim == *dimY ? threadsOnY * microOnY
                                          : 1;
    steps.push_back(constant(step));
  }
  auto blocks = scf::ParallelOp::create(rewriter, loc, lowers, uppers, steps);
  rewriter.setInsertionPoint(blocks.getBody()->getTerminator());
  SmallVector<Value> threadUppers = {constant(threadsOnX)};
  if (dimY)
    threadUppers.insert(threadUppers.begin(), constant(threadsOnY));
  auto threads = scf::ParallelOp::create(
      rewriter, loc, SmallVector<Value>(threadUppers.size(), zero),
      threadUppers, SmallVector<Value>(threadUppers.size(), one));
  rewriter.setInsertionPoint(threads.getBody()->getTerminator());
  SmallVector<Value> blockIvs(blocks.getInductionVars());
  SmallVector<Value> threadIvs(threads.getInductionVars());
  Value threadX = threadIvs.back();
  Value threadY = dimY ? threadIvs.front() : Value();

  // One micro-tile element: its parallel indices (clamped into range, so
  // that loads stay in bounds) and whether it exists.
  struct Element {
    SmallVector<Value> indices;
    Value inBounds;
  };
  SmallVector<Element> elements;
  auto indexOf = [&](size_t dim, Value thread, int64_t micro, int64_t count) {
    Value offset = arith::AddIOp::create(
        rewriter, loc, blockIvs[dim],
        arith::AddIOp::create(rewriter, loc, thread, constant(micro * count)));
    Value inBounds =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, offset,
                              constant(extents[dim]));
    Value clamped = arith::MinUIOp::create(rewriter, loc, offset,
                                           constant(extents[dim] - 1));
    return std::make_pair(clamped, inBounds);
  };
  for (int64_t y = 0; y < microOnY; ++y) {
    for (int64_t x = 0; x < microOnX; ++x) {
      Element element;
      element.indices = blockIvs;
      auto [indexX, inX] = indexOf(dimX, threadX, x, threadsOnX);
      element.indices[dimX] = indexX;
      element.inBounds = inX;
      if (dimY) {
        auto [indexY, inY] = indexOf(*dimY, threadY, y, threadsOnY);
        element.indices[*dimY] = indexY;
        element.inBounds =
            arith::AndIOp::create(rewriter, loc, inX, inY).getResult();
      }
      elements.push_back(element);
    }
  }

  // The indices of operand `operand` at the loop indices `ivs`.
  auto indicesOf = [&](OpBuilder &b, OpOperand &operand, ArrayRef<Value> ivs) {
    SmallVector<OpFoldResult> folded =
        affine::makeComposedFoldedMultiResultAffineApply(
            b, loc, op.getMatchingIndexingMap(&operand),
            getAsOpFoldResult(ValueRange(ivs)));
    return getValueOrCreateConstantIndexOp(b, loc, folded);
  };
  auto load = [&](OpBuilder &b, OpOperand &operand, ArrayRef<Value> ivs) {
    return memref::LoadOp::create(b, loc, operand.get(),
                                  indicesOf(b, operand, ivs))
        .getResult();
  };
  // The loop indices of `element` in the reduction loops' iteration
  // `reductionIvs`, or at their start when it is empty.
  auto fullIndices = [&](const Element &element,
                         ArrayRef<Value> reductionIvs) -> SmallVector<Value> {
    SmallVector<Value> ivs = element.indices;
    for (size_t dim = numParallel; dim < numLoops; ++dim)
      ivs.push_back(reductionIvs.empty() ? zero
                                         : reductionIvs[dim - numParallel]);
    return ivs;
  };

  // Accumulators start from the outputs' current values.
  SmallVector<Value> accumulators;
  for (const Element &element : elements)
    for (OpOperand &init : op.getDpsInitsMutable())
      accumulators.push_back(load(rewriter, init, fullIndices(element, {})));

  // The reduction loops, outermost first, in the op's order; each output
  // element is combined with its inputs in that order, as on the CPU.
  SmallVector<Value> reductionIvs;
  SmallVector<scf::ForOp> reductionLoops;
  for (size_t dim = numParallel; dim < numLoops; ++dim) {
    auto loop = scf::ForOp::create(rewriter, loc, zero, constant(extents[dim]),
                                   one, accumulators);
    if (!reductionLoops.empty())
      scf::YieldOp::create(rewriter, loc, loop.getResults());
    reductionLoops.push_back(loop);
    reductionIvs.push_back(loop.getInductionVar());
    accumulators.assign(loop.getRegionIterArgs().begin(),
                        loop.getRegionIterArgs().end());
    rewriter.setInsertionPointToStart(loop.getBody());
  }
  Block *payload = op.getBlock();
  size_t numInits = op.getNumDpsInits();
  SmallVector<Value> updated;
  for (auto [index, element] : llvm::enumerate(elements)) {
    SmallVector<Value> ivs = fullIndices(element, reductionIvs);
    IRMapping mapping;
    for (OpOperand *input : op.getDpsInputOperands())
      mapping.map(payload->getArgument(input->getOperandNumber()),
                  load(rewriter, *input, ivs));
    for (size_t init = 0; init < numInits; ++init)
      mapping.map(payload->getArgument(op.getNumDpsInputs() + init),
                  accumulators[index * numInits + init]);
    for (Operation &payloadOp : payload->without_terminator()) {
      if (auto indexOp = dyn_cast<linalg::IndexOp>(payloadOp)) {
        mapping.map(indexOp.getResult(), ivs[indexOp.getDim()]);
        continue;
      }
      rewriter.clone(payloadOp, mapping);
    }
    for (Value yielded : payload->getTerminator()->getOperands())
      updated.push_back(mapping.lookupOrDefault(yielded));
  }
  scf::YieldOp::create(rewriter, loc, updated);
  rewriter.setInsertionPointAfter(reductionLoops.front());
  ValueRange results = reductionLoops.front().getResults();

  // Only elements in range are written.
  for (auto [index, element] : llvm::enumerate(elements)) {
    auto guard = scf::IfOp::create(rewriter, loc, element.inBounds,
                                   /*withElseRegion=*/false);
    OpBuilder::InsertionGuard insertion(rewriter);
    rewriter.setInsertionPointToStart(guard.thenBlock());
    SmallVector<Value> ivs = fullIndices(element, {});
    for (auto [init, operand] : llvm::enumerate(op.getDpsInitsMutable()))
      memref::StoreOp::create(rewriter, loc, results[index * numInits + init],
                              operand.get(), indicesOf(rewriter, operand, ivs));
  }
  rewriter.eraseOp(op);

  SmallVector<int64_t> blockCounts;
  for (size_t dim = 0; dim < numParallel; ++dim)
    blockCounts.push_back(getTileCount(
        extents[dim], dim == dimX            ? threadsOnX * microOnX
                      : dimY && dim == *dimY ? threadsOnY * microOnY
                                             : 1));
  if (failed(
          gpu::setMappingAttr(blocks, getBlockMapping(context, blockCounts))))
    return failure();
  SmallVector<gpu::ParallelLoopDimMappingAttr> threadMapping = {
      getMapping(context, gpu::Processor::ThreadX)};
  if (dimY)
    threadMapping.insert(threadMapping.begin(),
                         getMapping(context, gpu::Processor::ThreadY));
  if (failed(gpu::setMappingAttr(threads, threadMapping)))
    return failure();
  return blocks;
}

FailureOr<scf::ParallelOp> LinalgToGpuPass::mapOp(RewriterBase &rewriter,
                                                  linalg::LinalgOp op) {
  MLIRContext *context = op.getContext();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  // An empty iteration space computes nothing (outputs keep their values):
  // no kernel, and no launch of an empty grid, which CUDA refuses.
  if (llvm::is_contained(op.getStaticLoopRanges(), 0)) {
    rewriter.eraseOp(op);
    return scf::ParallelOp();
  }
  // An op without parallel loops runs in a single thread of a single block.
  if (op.getNumParallelLoops() == 0) {
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto wrapper = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                           ValueRange{one}, ValueRange{one});
    op->moveBefore(wrapper.getBody()->getTerminator());
    rewriter.setInsertionPoint(op);
    if (failed(linalg::linalgOpToLoops(rewriter, op)))
      return emitError(op.getLoc())
             << "memsched-linalg-to-gpu: cannot lower this op "
                "to loops";
    rewriter.eraseOp(op);
    if (failed(gpu::setMappingAttr(
            wrapper, {getMapping(context, gpu::Processor::BlockX)})))
      return failure();
    return wrapper;
  }

  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    FailureOr<linalg::GenericOp> generalized =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generalized))
      return emitError(op.getLoc())
             << "memsched-linalg-to-gpu: cannot generalize "
                "this op";
    generic = *generalized;
  }
  // Parallel loops first; reductions keep their relative order innermost.
  SmallVector<unsigned> order;
  for (auto [index, type] : llvm::enumerate(generic.getIteratorTypesArray()))
    if (type == utils::IteratorType::parallel)
      order.push_back(index);
  size_t numParallel = order.size();
  for (auto [index, type] : llvm::enumerate(generic.getIteratorTypesArray()))
    if (type != utils::IteratorType::parallel)
      order.push_back(index);
  if (!llvm::equal(order, llvm::seq<unsigned>(0, order.size()))) {
    FailureOr<linalg::GenericOp> interchanged =
        linalg::interchangeGenericOp(rewriter, generic, order);
    if (failed(interchanged))
      return emitError(generic.getLoc())
             << "memsched-linalg-to-gpu: cannot move the "
                "parallel loops of this op outermost";
    generic = *interchanged;
  }
  if (numParallel < generic.getNumLoops() && microX * microY > 1 &&
      !generic.hasDynamicShape())
    return mapReduction(rewriter, generic, numParallel);
  SmallVector<int64_t> extents = generic.getStaticLoopRanges();
  rewriter.setInsertionPoint(generic);
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, generic);
  if (failed(loops) || loops->empty())
    return emitError(generic.getLoc())
           << "memsched-linalg-to-gpu: cannot lower this "
              "op to parallel loops";
  auto parallel = dyn_cast<scf::ParallelOp>(loops->front());
  if (!parallel || parallel.getNumLoops() != numParallel)
    return emitError(generic.getLoc())
           << "memsched-linalg-to-gpu: expected one "
              "parallel loop nest over the op's "
           << numParallel << " parallel dimensions";
  rewriter.eraseOp(generic);

  // Tiles: x over the innermost dimension, y over the next, 1 elsewhere.
  SmallVector<int64_t> tileSizes(numParallel, 1);
  auto clampToExtent = [&](size_t dim, int64_t tile) {
    int64_t extent = extents[dim];
    return ShapedType::isDynamic(extent)
               ? tile
               : std::max<int64_t>(1, std::min(tile, extent));
  };
  if (numParallel == 1) {
    tileSizes[0] = clampToExtent(0, threads1D);
  } else {
    tileSizes[numParallel - 1] = clampToExtent(numParallel - 1, threadsX);
    tileSizes[numParallel - 2] = clampToExtent(numParallel - 2, threadsY);
  }
  auto [outer, inner] =
      scf::tileParallelLoop(parallel, tileSizes, /*noMinMaxBounds=*/true);

  const gpu::Processor threads[] = {gpu::Processor::ThreadX,
                                    gpu::Processor::ThreadY,
                                    gpu::Processor::ThreadZ};
  SmallVector<int64_t> blockCounts;
  for (size_t dim = 0; dim < numParallel; ++dim)
    blockCounts.push_back(getTileCount(extents[dim], tileSizes[dim]));
  SmallVector<gpu::ParallelLoopDimMappingAttr> outerMapping =
      getBlockMapping(context, blockCounts);
  SmallVector<gpu::ParallelLoopDimMappingAttr> innerMapping;
  for (size_t dim = 0; dim < numParallel; ++dim) {
    size_t fromInnermost = numParallel - 1 - dim;
    // Only the tiled dimensions have threads; the others iterate once.
    bool tiled = fromInnermost < 2 && (numParallel > 1 || fromInnermost == 0);
    innerMapping.push_back(getMapping(
        context, tiled ? threads[fromInnermost] : gpu::Processor::Sequential));
  }
  if (failed(gpu::setMappingAttr(outer, outerMapping)) ||
      failed(gpu::setMappingAttr(inner, innerMapping)))
    return failure();
  return outer;
}

LogicalResult LinalgToGpuPass::convertFunction(func::FuncOp func,
                                               llvm::StringSet<> &usedNames) {
  MLIRContext *context = func.getContext();
  SmallVector<linalg::LinalgOp> ops;
  func.walk<WalkOrder::PreOrder>([&](linalg::LinalgOp op) {
    ops.push_back(op);
    return WalkResult::skip();
  });

  IRRewriter rewriter(context);
  DenseMap<Operation *, std::string> kernelNames;
  for (linalg::LinalgOp op : ops) {
    std::string name;
    if (auto tag = op->getAttrOfType<StringAttr>(kKernelAttrName))
      name = sanitizeKernelName(tag.getValue());
    else
      name = sanitizeKernelName(
          (func.getSymName() + "_" + op->getName().stripDialect()).str());
    std::string unique = name;
    for (int suffix = 1; usedNames.contains(unique); ++suffix)
      unique = name + "_" + std::to_string(suffix);
    usedNames.insert(unique);
    FailureOr<scf::ParallelOp> outer = mapOp(rewriter, op);
    if (failed(outer))
      return failure();
    if (*outer)
      kernelNames[*outer] = unique;
  }

  // The conversion replaces every outermost mapped loop by one gpu.launch at
  // the same place, so the walk orders before and after line up.
  SmallVector<std::string> names;
  func.walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
    auto it = kernelNames.find(loop);
    names.push_back(it == kernelNames.end() ? std::string() : it->second);
    return WalkResult::skip();
  });
  RewritePatternSet patterns(context);
  populateParallelLoopToGPUPatterns(patterns);
  ConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  configureParallelLoopToGPULegality(target);
  if (failed(applyPartialConversion(func, target, std::move(patterns))))
    return emitError(func.getLoc())
           << "memsched-linalg-to-gpu: the parallel loops of "
              "'@"
           << func.getSymName() << "' cannot become launches";
  finalizeParallelLoopToGPUConversion(func);

  SmallVector<gpu::LaunchOp> launches;
  func.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
  if (launches.size() != names.size())
    return emitError(func.getLoc())
           << "memsched-linalg-to-gpu: internal error: " << names.size()
           << " mapped loops became " << launches.size() << " launches";
  auto moduleName = FlatSymbolRefAttr::get(
      context, sanitizeKernelName((func.getSymName() + "_kernels").str()));
  for (auto [launch, name] : llvm::zip_equal(launches, names)) {
    // The conversion's bookkeeping marker; nothing reads it afterwards.
    launch->removeAttr("SCFToGPU_visited");
    if (name.empty())
      continue;
    launch->setAttr(launch.getFunctionAttrName(),
                    FlatSymbolRefAttr::get(context, name));
    launch->setAttr(launch.getModuleAttrName(), moduleName);
  }
  return success();
}

void LinalgToGpuPass::runOnOperation() {
  if (microX <= 0 || microY <= 0) {
    getOperation().emitError()
        << "memsched-linalg-to-gpu: micro-x and micro-y must be positive";
    return signalPassFailure();
  }
  if (threadsX <= 0 || threadsY <= 0 || threads1D <= 0 ||
      threadsX * threadsY > 1024 || threads1D > 1024) {
    getOperation().emitError()
        << "memsched-linalg-to-gpu: thread tiles must be positive with at "
           "most 1024 threads per block (threads-x * threads-y = "
        << threadsX.getValue() * threadsY.getValue()
        << ", threads-1d = " << threads1D.getValue() << ")";
    return signalPassFailure();
  }
  llvm::StringSet<> usedNames;
  getOperation().walk(
      [&](SymbolOpInterface symbol) { usedNames.insert(symbol.getName()); });
  for (auto func : getOperation().getOps<func::FuncOp>()) {
    if (func.isExternal() || !func->hasAttr(kDeviceAttrName))
      continue;
    if (failed(convertFunction(func, usedNames)))
      return signalPassFailure();
  }
}
