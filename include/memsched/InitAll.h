//===- InitAll.h - Register everything memsched provides --------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the entry points another MLIR compiler calls to use
// memsched: the dialect with its external models, and the passes and
// pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_INITALL_H
#define MEMSCHED_INITALL_H

namespace mlir {
class DialectRegistry;
namespace memsched {

/// Adds the memsched dialect, the upstream dialects memsched's passes create
/// ops of, and the cost interface external models to `registry`.
void registerAllMemschedDialects(DialectRegistry &registry);

/// Registers every memsched pass and pipeline with the global registry.
void registerAllMemschedPasses();

} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_INITALL_H
