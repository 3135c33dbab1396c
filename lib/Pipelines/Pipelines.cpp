//===- Pipelines.cpp - memsched pass pipelines ------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/Pipelines/Pipelines.h"
#include "memsched/Conversion/Passes.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::memsched;

/// One-shot bufferization of function boundaries too, with identity
/// layouts, so that a whole step becomes one memref function a runner (or
/// the device boundary) can call.
static void addWholeProgramBufferization(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A loop whose body yields a new tensor each iteration (not one written
  // in place) returns a new buffer.
  bufferizeOptions.allowReturnAllocsFromLoops = true;
  // Control flow's results get identity layouts too (not fully dynamic
  // ones, which returning would copy).
  bufferizeOptions.unknownTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  // The constants it creates come in an order (and with uniqued names) that
  // changes from run to run; fix both.
  pm.addPass(createMemschedOrderGlobalsPass());
}

/// Lowers loops, memrefs and scalars to the LLVM dialect for the host;
/// with `withGpuCalls`, GPU runtime ops (allocations, copies, waits) become
/// mgpu* calls too.
static void addHostLoweringPasses(OpPassManager &pm, bool withGpuCalls) {
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  if (withGpuCalls)
    pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::memsched::buildToCPUPipeline(OpPassManager &pm,
                                        const ToCPUPipelineOptions &options) {
  // Function boundaries are bufferized too so that a whole training step
  // becomes one memref function with identity layouts the runner can call.
  // Swaps become host-arena copies on tensors, before bufferization.
  pm.addPass(createMemschedCheckElementTypesPass());
  // Copies where the memory model makes them (on the IR it reports on), not
  // where bufferization's own analysis would.
  pm.addNestedPass<func::FuncOp>(createMemschedExplicitCopiesPass());
  MemschedLowerSwapsPassOptions lowerSwapsOptions;
  lowerSwapsOptions.target = SwapLoweringTarget::Cpu;
  pm.addPass(createMemschedLowerSwapsPass(lowerSwapsOptions));
  // A branch's result in a tensor of its own, as the memory model counts it.
  MemschedRegionResultsOutsidePassOptions branchOptions;
  branchOptions.loops = false;
  pm.addNestedPass<func::FuncOp>(
      createMemschedRegionResultsOutsidePass(branchOptions));
  addWholeProgramBufferization(pm);
  // Planning comes before deallocation: the arena is then one allocation
  // among the others for the deallocation pipeline, and no dealloc of a
  // planned buffer has to be removed.
  if (options.planBuffers) {
    MemschedPlanBuffersPassOptions planOptions;
    planOptions.algorithm = options.planAlgorithm;
    pm.addNestedPass<func::FuncOp>(createMemschedPlanBuffersPass(planOptions));
  }
  if (options.deallocate) {
    bufferization::buildBufferDeallocationPipeline(pm);
    // Deallocation clones buffers a function returns but does not own (an
    // argument, a constant); the clones become allocations and copies here.
    pm.addPass(createConvertBufferizationToMemRefPass());
  }
  // Plain loops keep every op's floating-point evaluation order fixed, which
  // is what makes bit-for-bit comparisons between two programs meaningful.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  addHostLoweringPasses(pm, /*withGpuCalls=*/false);
}

void mlir::memsched::buildOptimizePipeline(
    OpPassManager &pm, const OptimizePipelineOptions &options) {
  // Calls first: what a callee holds while it runs becomes the call's
  // workspace, which the function passes below count.
  pm.addPass(createMemschedAnnotateCallsPass());
  // With a budget, memsched-fit reorders copies of the function itself and
  // also plans the input's order (and the offloaded function, with
  // offload=), keeping the best: the order of the smallest peak is not
  // always the one recomputation does best from. Without a budget there is
  // nothing to weigh an offload against: it is applied first, so that the
  // order is made for the offloaded function.
  bool fitReorders = !options.budget.empty();
  if (!options.offload.empty() && !fitReorders) {
    MemschedOffloadPassOptions offloadOptions;
    offloadOptions.offload.assign(options.offload.begin(),
                                  options.offload.end());
    offloadOptions.device = options.device;
    pm.addNestedPass<func::FuncOp>(createMemschedOffloadPass(offloadOptions));
  }
  // Fusion is an identity rewrite memsched-fit does not weigh: with a
  // budget, the function memsched-reorder kept (fused or not) is what
  // memsched-fit plans, reordered again and as it is.
  if (!fitReorders || options.fuseElementwise) {
    MemschedReorderPassOptions reorderOptions;
    reorderOptions.device = options.device;
    reorderOptions.fuseElementwise = options.fuseElementwise;
    pm.addNestedPass<func::FuncOp>(createMemschedReorderPass(reorderOptions));
  }
  if (!options.budget.empty()) {
    MemschedFitPassOptions fitOptions;
    fitOptions.budget = options.budget;
    fitOptions.device = options.device;
    fitOptions.allowRemat = options.allowRemat;
    fitOptions.allowSwap = options.allowSwap;
    fitOptions.allowSplit = options.allowSplit;
    fitOptions.allowFuse = options.allowFuse;
    fitOptions.ilpMaxTasks = options.ilpMaxTasks;
    fitOptions.offload.assign(options.offload.begin(), options.offload.end());
    if (fitReorders)
      fitOptions.reorder = "auto";
    pm.addNestedPass<func::FuncOp>(createMemschedFitPass(fitOptions));
  } else {
    // Without a budget, in-place writes are the last step; with one,
    // memsched-fit takes them on every candidate it measures, so that
    // nothing after it changes the footprint it bounded.
    MemschedInplacePassOptions inplaceOptions;
    inplaceOptions.device = options.device;
    pm.addNestedPass<func::FuncOp>(createMemschedInplacePass(inplaceOptions));
  }
  if (!options.report.empty()) {
    MemschedReportPassOptions reportOptions;
    reportOptions.format = ReportFormat::Json;
    reportOptions.output = options.report;
    reportOptions.device = options.device;
    pm.addPass(createMemschedReportPass(reportOptions));
  }
}

void mlir::memsched::buildToGPUPipeline(OpPassManager &pm,
                                        const ToGPUPipelineOptions &options) {
  MemschedCheckGpuTargetPassOptions targetOptions;
  targetOptions.chip = options.chip;
  targetOptions.features = options.features;
  targetOptions.format = options.format;
  targetOptions.checkToolkit = !options.emulateKernels;
  pm.addPass(createMemschedCheckGpuTargetPass(targetOptions));
  pm.addPass(createMemschedCheckElementTypesPass());
  // Kernel names are positions in the program as given, before any
  // reordering, so that a profile of it can be read back.
  pm.addPass(createMemschedTagKernelsPass());
  if (options.optimize || !options.budget.empty() || !options.offload.empty()) {
    OptimizePipelineOptions optimizeOptions;
    optimizeOptions.budget = options.budget;
    optimizeOptions.device = options.device;
    optimizeOptions.allowRemat = options.allowRemat;
    optimizeOptions.allowSwap = options.allowSwap;
    optimizeOptions.offload = ArrayRef<std::string>(options.offload);
    optimizeOptions.ilpMaxTasks = options.ilpMaxTasks;
    optimizeOptions.fuseElementwise = options.fuseElementwise;
    optimizeOptions.report = options.report;
    buildOptimizePipeline(pm, optimizeOptions);
  }
  pm.addNestedPass<func::FuncOp>(createMemschedExplicitCopiesPass());
  MemschedLowerSwapsPassOptions lowerSwapsOptions;
  lowerSwapsOptions.target = SwapLoweringTarget::Gpu;
  lowerSwapsOptions.device = options.device;
  pm.addPass(createMemschedLowerSwapsPass(lowerSwapsOptions));
  // Device memory has no allocator but the planned arena: no region may
  // return a buffer it allocates.
  pm.addNestedPass<func::FuncOp>(createMemschedRegionResultsOutsidePass());
  addWholeProgramBufferization(pm);
  // Results are copied out before planning so that they are planned too;
  // the arena then holds every buffer the function allocates on the device.
  pm.addPass(createMemschedDeviceBoundaryPass());
  MemschedPlanBuffersPassOptions planOptions;
  planOptions.algorithm = options.planAlgorithm;
  pm.addNestedPass<func::FuncOp>(createMemschedPlanBuffersPass(planOptions));
  // No deallocation pipeline: device buffers are freed by
  // memsched-device-allocations, and results belong to the caller.
  pm.addNestedPass<func::FuncOp>(createMemschedDeviceAllocationsPass());
  MemschedLinalgToGpuPassOptions kernelOptions;
  kernelOptions.threadsX = options.threadsX;
  kernelOptions.threadsY = options.threadsY;
  kernelOptions.threads1D = options.threads1D;
  kernelOptions.microX = options.microX;
  kernelOptions.microY = options.microY;
  pm.addPass(createMemschedLinalgToGpuPass(kernelOptions));
  if (options.stopAtLaunches)
    return;
  if (options.emulateKernels)
    pm.addNestedPass<func::FuncOp>(createMemschedLaunchesToLoopsPass());
  // What is left of linalg is host code (memsched-exec-harness's main).
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  if (options.emulateKernels) {
    addHostLoweringPasses(pm, /*withGpuCalls=*/true);
    return;
  }
  pm.addPass(createGpuKernelOutliningPass());
  gpu::GPUToNVVMPipelineOptions nvvmOptions;
  nvvmOptions.cubinChip = options.chip;
  nvvmOptions.cubinFeatures = options.features;
  nvvmOptions.cubinFormat = options.format;
  nvvmOptions.optLevel = options.optLevel;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvmOptions);
}

void mlir::memsched::registerMemschedPipelines() {
  PassPipelineRegistration<ToGPUPipelineOptions>(
      "memsched-to-gpu-pipeline",
      "Lower linalg on tensors to NVVM/PTX and host code calling the mgpu* "
      "runtime, with one planned device arena per function",
      buildToGPUPipeline);
  PassPipelineRegistration<OptimizePipelineOptions>(
      "memsched-optimize",
      "Fit a training step in budget= with the least modelled time: reorder, "
      "recompute and swap chosen jointly, in-place writes, report",
      buildOptimizePipeline);
  PassPipelineRegistration<ToCPUPipelineOptions>(
      "memsched-to-cpu-pipeline",
      "Lower linalg on tensors to LLVM for execution with mlir-runner",
      buildToCPUPipeline);
}
