//===- TestPasses.cpp - Registration of memsched test passes ----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

namespace mlir::memsched::test {
void registerTestTensorGraphPasses();
void registerTestBufferizationModelPass();

void registerTestPasses() {
  registerTestTensorGraphPasses();
  registerTestBufferizationModelPass();
}
} // namespace mlir::memsched::test
