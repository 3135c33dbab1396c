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

/// Options of `memsched-optimize`.
struct OptimizePipelineOptions
    : public PassPipelineOptions<OptimizePipelineOptions> {
  PassOptions::Option<std::string> budget{
      *this, "budget",
      llvm::cl::desc("Device memory bound on resident + arena: bytes with a "
                     "unit or a fraction of the unoptimised peak (0.5x); "
                     "empty: only reorder and in-place"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> device{
      *this, "device", llvm::cl::desc("Device preset or .json file"),
      llvm::cl::init("h100")};
  PassOptions::Option<bool> allowRemat{*this, "allow-remat",
                                       llvm::cl::desc("Consider recomputation"),
                                       llvm::cl::init(true)};
  PassOptions::Option<bool> allowSwap{
      *this, "allow-swap", llvm::cl::desc("Consider swapping to host memory"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write a JSON report of the result to this file ('-' "
                     "for standard output); empty: no report"),
      llvm::cl::init("")};
};

/// Builds `memsched-optimize`: memsched-reorder, then (with a budget)
/// memsched-fit, then memsched-inplace and optionally memsched-report.
void buildOptimizePipeline(OpPassManager &pm,
                           const OptimizePipelineOptions &options);

/// Registers every memsched pipeline with the global pass registry.
void registerMemschedPipelines();

} // namespace mlir::memsched

#endif // MEMSCHED_PIPELINES_PIPELINES_H
