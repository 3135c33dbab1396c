//===- memsched-opt.cpp - memsched optimizer driver -------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with every upstream dialect and pass, plus memsched's dialect,
// passes, pipelines and test passes.
//
//===----------------------------------------------------------------------===//

#include "memsched/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::memsched::test {
// Defined in the test directory; no public header.
void registerTestPasses();
} // namespace mlir::memsched::test

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::memsched::registerAllMemschedPasses();
  mlir::memsched::test::registerTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::memsched::registerAllMemschedDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "memsched optimizer driver\n", registry));
}
