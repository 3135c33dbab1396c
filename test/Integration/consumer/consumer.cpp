//===- consumer.cpp - A compiler that embeds memsched -----------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// Registers memsched into its own registry (not all of MLIR), parses the file
// given as argument, and runs memsched-report on it.
//
//===----------------------------------------------------------------------===//

#include "memsched/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: consumer-opt FILE.mlir\n";
    return 2;
  }
  mlir::memsched::registerAllMemschedPasses();
  mlir::DialectRegistry registry;
  mlir::memsched::registerAllMemschedDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context);
  if (mlir::failed(mlir::parsePassPipeline("memsched-report{format=json}", pm,
                                           llvm::errs())))
    return 1;
  return mlir::failed(pm.run(*module)) ? 1 : 0;
}
