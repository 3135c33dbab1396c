//===- InitAll.cpp - Register everything memsched provides ------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/InitAll.h"
#include "memsched/Conversion/Passes.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"
#include "memsched/Pipelines/Pipelines.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::memsched::registerAllMemschedDialects(DialectRegistry &registry) {
  registry
      .insert<MemschedDialect, arith::ArithDialect,
              bufferization::BufferizationDialect, func::FuncDialect,
              linalg::LinalgDialect, math::MathDialect, memref::MemRefDialect,
              scf::SCFDialect, tensor::TensorDialect, vector::VectorDialect>();
  registerCostOpInterfaceExternalModels(registry);
  // gpu-module-to-binary translates GPU modules to LLVM IR inside the pass
  // pipeline, so the translations must be known to every tool that lowers.
  registerAllGPUToLLVMIRTranslations(registry);
}

void mlir::memsched::registerAllMemschedPasses() {
  registerMemschedPasses();
  registerMemschedConversionPasses();
  registerMemschedPipelines();
}
