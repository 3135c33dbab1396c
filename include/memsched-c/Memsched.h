/*===- Memsched.h - C API of memsched ------------------------------*- C
-*-===*\
|*                                                                            *|
|* Part of the memsched project.                                              *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The C entry points other compilers (and ctypes) use to register memsched  *|
|* with an MLIR context and to get the memory report of a module.            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MEMSCHED_C_MEMSCHED_H
#define MEMSCHED_C_MEMSCHED_H

#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Memsched, memsched);

/// Adds the memsched dialect, the upstream dialects its passes create ops of,
/// and the cost interface models to `registry`.
MLIR_CAPI_EXPORTED void
memschedRegisterAllDialects(MlirDialectRegistry registry);

/// Registers every memsched pass and pipeline with the global registry, so
/// that textual pipelines can name them.
MLIR_CAPI_EXPORTED void memschedRegisterAllPasses(void);

/// Computes the JSON memory report of every function of `module` on `device`
/// (a preset name or a .json path) and passes it to `callback` in one or more
/// pieces. Diagnostics go to the context's handlers. Returns failure if the
/// device is unknown or a function cannot be analyzed.
MLIR_CAPI_EXPORTED MlirLogicalResult
memschedAnalyzeModule(MlirModule module, MlirStringRef device,
                      MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* MEMSCHED_C_MEMSCHED_H */
