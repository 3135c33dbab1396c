//===- Pipelines.h - memsched pass pipelines --------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the pipelines users type: lowering to executable CPU
// code (how tests prove a transformation changes no result), and later the
// GPU lowering and the budget-driven optimize pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_PIPELINES_PIPELINES_H
#define MEMSCHED_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::memsched {

/// Options of `memsched-to-cpu-pipeline`.
struct ToCPUPipelineOptions : public PassPipelineOptions<ToCPUPipelineOptions> {
  PassOptions::Option<bool> deallocate{
      *this, "deallocate",
      llvm::cl::desc("Insert deallocations after bufferization"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> planBuffers{
      *this, "plan-buffers",
      llvm::cl::desc("Place the static allocations of every function in one "
                     "arena (memsched-plan-buffers)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> planAlgorithm{
      *this, "plan-algorithm",
      llvm::cl::desc("Offset planner of memsched-plan-buffers"),
      llvm::cl::init("auto")};
};

/// Builds `memsched-to-cpu-pipeline`: linalg on tensors to LLVM dialect that
/// `mlir-runner` executes with the runner utility libraries.
void buildToCPUPipeline(OpPassManager &pm, const ToCPUPipelineOptions &options);

/// The options of `memsched-optimize`, shared by the pipelines that run it
/// first (CRTP, as PassPipelineOptions requires).
template <typename Derived>
struct OptimizeOptionsBase : public PassPipelineOptions<Derived> {
  ::mlir::detail::PassOptions::Option<std::string> budget{
      *this, "budget",
      llvm::cl::desc("Device memory bound on resident + arena: bytes with a "
                     "unit or a fraction of the unoptimised peak (0.5x); "
                     "empty: no budget (memsched-optimize then only "
                     "reorders and writes in place)"),
      llvm::cl::init("")};
  ::mlir::detail::PassOptions::Option<std::string> device{
      *this, "device",
      llvm::cl::desc("Device preset or .json file; empty: the device each "
                     "function records, else h100"),
      llvm::cl::init("")};
  ::mlir::detail::PassOptions::Option<bool> allowRemat{
      *this, "allow-remat", llvm::cl::desc("Consider recomputation"),
      llvm::cl::init(true)};
  ::mlir::detail::PassOptions::Option<bool> allowSwap{
      *this, "allow-swap", llvm::cl::desc("Consider swapping to host memory"),
      llvm::cl::init(true)};
  ::mlir::detail::PassOptions::Option<bool> allowSplit{
      *this, "allow-split",
      llvm::cl::desc("memsched-fit's allow-split: where the budget is not "
                     "met (or is min), also plan the function with the ops "
                     "setting its floor split (memsched-split)"),
      llvm::cl::init(true)};
  ::mlir::detail::PassOptions::Option<bool> allowFuse{
      *this, "allow-fuse",
      llvm::cl::desc("memsched-fit's allow-fuse: where the budget is not met "
                     "(or is min), also plan the function after "
                     "memsched-fuse"),
      llvm::cl::init(true)};
  ::mlir::detail::PassOptions::ListOption<std::string> offload{
      *this, "offload",
      llvm::cl::desc("Resident state that may stay in host memory "
                     "(memsched-offload): a comma-separated subset of "
                     "params, grads, optimizer, inputs; empty: none. With a "
                     "budget planned both ways and the better kept; "
                     "without, offloaded")};
  ::mlir::detail::PassOptions::Option<int64_t> ilpMaxTasks{
      *this, "ilp-max-tasks",
      llvm::cl::desc("Recomputation also solves Checkmate's ILP on "
                     "functions of at most this many tasks without in-place "
                     "chains (memsched-fit's ilp-max-tasks; 0: off)"),
      llvm::cl::init(0)};
  ::mlir::detail::PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("memsched-reorder also plans the function after "
                     "upstream elementwise fusion and keeps it where its "
                     "peak is lower (with a budget, memsched-reorder then "
                     "runs before memsched-fit)"),
      llvm::cl::init(false)};
  ::mlir::detail::PassOptions::Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write a JSON report of the result to this file ('-' "
                     "for standard output); empty: no report"),
      llvm::cl::init("")};
};

/// Options of `memsched-optimize`.
struct OptimizePipelineOptions
    : public OptimizeOptionsBase<OptimizePipelineOptions> {};

/// Builds `memsched-optimize`: memsched-annotate-calls; with a budget
/// memsched-fit planning the function reordered and as given (and
/// offloaded), without one memsched-reorder and memsched-inplace; then
/// optionally memsched-report.
void buildOptimizePipeline(OpPassManager &pm,
                           const OptimizePipelineOptions &options);

/// Options of `memsched-to-gpu-pipeline`: the target, and those of
/// `memsched-optimize` run first.
struct ToGPUPipelineOptions : public OptimizeOptionsBase<ToGPUPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target GPU (sm_90 for H100 and H200)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("Target features: the PTX version (+ptx80)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("isa (PTX, compiled by the driver when loaded; needs no "
                     "ptxas), bin (cubin, needs ptxas) or fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<int> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Optimization level of the device code (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<bool> optimize{
      *this, "optimize",
      llvm::cl::desc("Run memsched-optimize first (implied by budget=)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> planAlgorithm{
      *this, "plan-algorithm",
      llvm::cl::desc("Offset planner of memsched-plan-buffers"),
      llvm::cl::init("auto")};
  PassOptions::Option<bool> stopAtLaunches{
      *this, "stop-at-launches",
      llvm::cl::desc("Stop after memsched-linalg-to-gpu: the device program "
                     "with one gpu.launch per kernel, before kernels are "
                     "compiled or emulated (to inspect or count them)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> emulateKernels{
      *this, "emulate-kernels",
      llvm::cl::desc("Run the kernels as host loops (memsched-launches-to-"
                     "loops) instead of compiling them: with a runtime over "
                     "host memory, the device program runs on a CPU"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> threadsX{
      *this, "threads-x",
      llvm::cl::desc("Threads per block over the innermost dimension"),
      llvm::cl::init(32)};
  PassOptions::Option<int64_t> threadsY{
      *this, "threads-y",
      llvm::cl::desc("Threads per block over the second dimension"),
      llvm::cl::init(8)};
  PassOptions::Option<int64_t> microX{
      *this, "micro-x",
      llvm::cl::desc("Outputs per thread over the innermost dimension of "
                     "ops with reductions"),
      llvm::cl::init(4)};
  PassOptions::Option<int64_t> microY{
      *this, "micro-y",
      llvm::cl::desc("Outputs per thread over the second dimension of ops "
                     "with reductions"),
      llvm::cl::init(4)};
  PassOptions::Option<int64_t> threads1D{
      *this, "threads-1d",
      llvm::cl::desc("Threads per block of one-dimensional ops"),
      llvm::cl::init(256)};
};

/// Builds `memsched-to-gpu-pipeline`: linalg on tensors to LLVM dialect with
/// embedded GPU binaries, calling the `mgpu*` runtime ABI (docs/gpu.md).
void buildToGPUPipeline(OpPassManager &pm, const ToGPUPipelineOptions &options);

/// Registers every memsched pipeline with the global pass registry.
void registerMemschedPipelines();

} // namespace mlir::memsched

#endif // MEMSCHED_PIPELINES_PIPELINES_H
