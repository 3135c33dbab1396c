//===- Memsched.cpp - C API of memsched -------------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched-c/Memsched.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::memsched;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Memsched, memsched,
                                      mlir::memsched::MemschedDialect)

void memschedRegisterAllDialects(MlirDialectRegistry registry) {
  registerAllMemschedDialects(*unwrap(registry));
}

void memschedRegisterAllPasses(void) { registerAllMemschedPasses(); }

MlirLogicalResult memschedAnalyzeModule(MlirModule module, MlirStringRef device,
                                        MlirStringCallback callback,
                                        void *userData) {
  ModuleOp moduleOp = unwrap(module);
  FailureOr<std::vector<FunctionReport>> reports =
      analyzeModule(moduleOp, unwrap(device), "memsched");
  if (failed(reports))
    return mlirLogicalResultFailure();
  detail::CallbackOstream stream(callback, userData);
  stream << llvm::formatv("{0:2}", toJSON(*reports));
  stream.flush();
  return mlirLogicalResultSuccess();
}
