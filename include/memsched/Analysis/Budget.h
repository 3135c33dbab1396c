//===- Budget.h - Memory budgets given as options ---------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the parser of the `budget=` option every budget-driven
// pass takes: an absolute size (`16GiB`, `16 GiB`, `512MB`, `1.5e9`), a
// fraction of the function's planned bytes before memsched rewrote it
// (`0.5x`), or `min`, the smallest footprint the levers reach.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_BUDGET_H
#define MEMSCHED_ANALYSIS_BUDGET_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::memsched {

/// A bound on a function's footprint (planned bytes: resident + arena +
/// escaping buffers).
struct Budget {
  /// `min`: the smallest reachable footprint.
  bool isMinimum = false;
  /// Whether the budget is a fraction of the planned bytes before memsched.
  bool isRelative = false;
  /// The fraction, when relative.
  double fraction = 1.0;
  /// The bytes, when absolute.
  int64_t bytes = 0;

  /// The budget in bytes for a function whose planned bytes before memsched
  /// are \p plannedBefore (relative budgets round down). Not for `min`.
  int64_t resolve(int64_t plannedBefore) const;
};

/// Parses a budget: `min`, or a non-negative number followed (spaces
/// allowed) by `x` (a fraction), `B`, `KB`/`MB`/`GB`/`TB` (powers of 1000) or
/// `KiB`/`MiB`/`GiB`/`TiB` (powers of 1024), or by nothing for a whole number
/// of bytes. A bare fraction (`0.8`) is refused with a hint to write `0.8x`.
/// Returns std::nullopt and explains in \p error for anything else.
std::optional<Budget> parseBudget(StringRef text, std::string &error);

/// parseBudget for a pass's `budget=` option: on a bad budget, an error at
/// \p op prefixed with \p passName, and std::nullopt.
std::optional<Budget> parseBudgetOrEmitError(StringRef text, Operation *op,
                                             StringRef passName);

} // namespace mlir::memsched

#endif // MEMSCHED_ANALYSIS_BUDGET_H
