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

#include "memsched/Transforms/Passes.h"

#include "mlir/Conversion/SCFToGPU/SCFToGPU.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDLINALGTOGPUPASS
#include "memsched/Transforms/Passes.h.inc"
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
  /// Replaces the mapped loops of `func` by named gpu.launch ops.
  LogicalResult convertFunction(func::FuncOp func,
                                llvm::StringSet<> &usedNames);
};
} // namespace

/// Keeps identifier characters only, so that names are valid PTX symbols.
static std::string sanitize(StringRef name) {
  std::string result;
  for (char c : name)
    result.push_back(llvm::isAlnum(c) ? c : '_');
  return result;
}

static gpu::ParallelLoopDimMappingAttr getMapping(MLIRContext *context,
                                                  gpu::Processor processor) {
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  return gpu::ParallelLoopDimMappingAttr::get(context, processor, identity,
                                              identity);
}

FailureOr<scf::ParallelOp> LinalgToGpuPass::mapOp(RewriterBase &rewriter,
                                                  linalg::LinalgOp op) {
  MLIRContext *context = op.getContext();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  // An op without parallel loops runs in a single thread of a single block.
  if (op.getNumParallelLoops() == 0) {
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto wrapper = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                           ValueRange{one}, ValueRange{one});
    op->moveBefore(wrapper.getBody()->getTerminator());
    rewriter.setInsertionPoint(op);
    if (failed(linalg::linalgOpToLoops(rewriter, op)))
      return op.emitError() << "memsched-linalg-to-gpu: cannot lower this op "
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
      return op.emitError() << "memsched-linalg-to-gpu: cannot generalize "
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
      return generic.emitError() << "memsched-linalg-to-gpu: cannot move the "
                                    "parallel loops of this op outermost";
    generic = *interchanged;
  }
  SmallVector<int64_t> extents = generic.getStaticLoopRanges();
  rewriter.setInsertionPoint(generic);
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, generic);
  if (failed(loops) || loops->empty())
    return generic.emitError() << "memsched-linalg-to-gpu: cannot lower this "
                                  "op to parallel loops";
  auto parallel = dyn_cast<scf::ParallelOp>(loops->front());
  if (!parallel || parallel.getNumLoops() != numParallel)
    return generic.emitError() << "memsched-linalg-to-gpu: expected one "
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

  const gpu::Processor blocks[] = {
      gpu::Processor::BlockX, gpu::Processor::BlockY, gpu::Processor::BlockZ};
  const gpu::Processor threads[] = {gpu::Processor::ThreadX,
                                    gpu::Processor::ThreadY,
                                    gpu::Processor::ThreadZ};
  SmallVector<gpu::ParallelLoopDimMappingAttr> outerMapping, innerMapping;
  for (size_t dim = 0; dim < numParallel; ++dim) {
    size_t fromInnermost = numParallel - 1 - dim;
    outerMapping.push_back(
        getMapping(context, fromInnermost < 3 ? blocks[fromInnermost]
                                              : gpu::Processor::Sequential));
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
      name = sanitize(tag.getValue());
    else
      name = sanitize(
          (func.getSymName() + "_" + op->getName().stripDialect()).str());
    std::string unique = name;
    for (int suffix = 1; usedNames.contains(unique); ++suffix)
      unique = name + "_" + std::to_string(suffix);
    usedNames.insert(unique);
    FailureOr<scf::ParallelOp> outer = mapOp(rewriter, op);
    if (failed(outer))
      return failure();
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
    return func.emitError() << "memsched-linalg-to-gpu: the parallel loops of "
                               "'@"
                            << func.getSymName() << "' cannot become launches";
  finalizeParallelLoopToGPUConversion(func);

  SmallVector<gpu::LaunchOp> launches;
  func.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
  if (launches.size() != names.size())
    return func.emitError()
           << "memsched-linalg-to-gpu: internal error: " << names.size()
           << " mapped loops became " << launches.size() << " launches";
  auto moduleName = FlatSymbolRefAttr::get(
      context, sanitize((func.getSymName() + "_kernels").str()));
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
