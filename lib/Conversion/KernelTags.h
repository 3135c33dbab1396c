//===- KernelTags.h - Names of the kernels tensor ops become ----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// Shared by memsched-tag-kernels and memsched-import-profile, so that a
// profile's kernel names find their ops again.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_CONVERSION_KERNELTAGS_H
#define MEMSCHED_LIB_CONVERSION_KERNELTAGS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::memsched {

/// Keeps identifier characters only (others become '_'), so that a name is
/// a valid PTX symbol and the profile's kernel names equal the tags.
std::string sanitizeKernelName(StringRef name);

/// Gives every linalg op in the block of `func` that has no
/// `memsched.kernel` name the name `<function>_<position>_<op>`.
void tagKernels(func::FuncOp func);

} // namespace mlir::memsched

#endif // MEMSCHED_LIB_CONVERSION_KERNELTAGS_H
