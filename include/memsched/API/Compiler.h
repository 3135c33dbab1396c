//===- Compiler.h - Coarse string-level API to memsched ---------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the small facade the Python module and the C API use:
// whole modules in and out as text, diagnostics collected as text.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_API_COMPILER_H
#define MEMSCHED_API_COMPILER_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
namespace memsched::api {

/// Creates a context with every upstream and memsched dialect and extension
/// registered, and makes sure every pass and pipeline is registered.
std::unique_ptr<MLIRContext> createContext();

/// What a call produced: its output, and every diagnostic as
/// "<location>: <severity>: <message>" lines.
struct CallResult {
  bool succeeded = false;
  std::string output;
  std::string diagnostics;
};

/// Parses `moduleText`, runs the textual pass pipeline `pipeline` (for
/// example "builtin.module(memsched-report{format=json})" or
/// "memsched-to-cpu-pipeline") on it, and returns the printed module.
CallResult runPipeline(StringRef moduleText, StringRef pipeline);

/// Parses `moduleText` and returns the JSON report of its functions on
/// `device` (a preset name or a .json path); with `includeTimeline`, each
/// function also gets its per-step timeline.
CallResult analyze(StringRef moduleText, StringRef device,
                   bool includeTimeline);

/// Parses `moduleText` and returns, as JSON, the memory-vs-time curve of
/// each function: for every budget of `budgets` (the `budget=` forms), the
/// footprint and modelled time memsched-fit reaches, or the smallest
/// reachable footprint when the budget is out of reach. `device` as for
/// analyze (empty: each function's recorded device, else h100).
CallResult sweep(StringRef moduleText, ArrayRef<std::string> budgets,
                 StringRef device, bool allowRemat, bool allowSwap);

} // namespace memsched::api
} // namespace mlir

#endif // MEMSCHED_API_COMPILER_H
