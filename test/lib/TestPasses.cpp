//===- TestPasses.cpp - Registration of memsched test passes ----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

namespace mlir::memsched::test {
void registerTestTensorGraphPasses();
void registerTestBufferizationModelPass();
void registerTestVerifyPlanPass();
void registerTestPrintPlanPasses();
void registerTestBudgetSweepPass();
void registerTestKeepDuplicatesApartPass();

void registerTestPasses() {
  registerTestTensorGraphPasses();
  registerTestBufferizationModelPass();
  registerTestVerifyPlanPass();
  registerTestPrintPlanPasses();
  registerTestBudgetSweepPass();
  registerTestKeepDuplicatesApartPass();
}
} // namespace mlir::memsched::test
