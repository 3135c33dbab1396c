//===- Budget.h - Memory budgets given as options ---------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the parser of the `budget=` option every budget-driven
// pass takes: an absolute size (`16GiB`, `512MB`, `1.5e9`) or a fraction of
// the function's peak before the pass (`0.5x`).
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_BUDGET_H
#define MEMSCHED_ANALYSIS_BUDGET_H

#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::memsched {

/// A device-memory budget (resident + transient bytes).
struct Budget {
  /// Whether the budget is a fraction of the peak before the pass.
  bool isRelative = false;
  /// The fraction, when relative.
  double fraction = 1.0;
  /// The bytes, when absolute.
  int64_t bytes = 0;

  /// The budget in bytes for a function whose peak before the pass is
  /// \p peakBefore (relative budgets round down).
  int64_t resolve(int64_t peakBefore) const;
};

/// Parses a budget: a non-negative number followed by nothing or `B` (bytes),
/// `KB`/`MB`/`GB`/`TB` (powers of 1000), `KiB`/`MiB`/`GiB`/`TiB` (powers of
/// 1024), or `x` (a fraction of the peak). Returns std::nullopt and explains
/// in \p error for anything else.
std::optional<Budget> parseBudget(StringRef text, std::string &error);

} // namespace mlir::memsched

#endif // MEMSCHED_ANALYSIS_BUDGET_H
