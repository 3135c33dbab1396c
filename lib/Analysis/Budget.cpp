//===- Budget.cpp - Memory budgets given as options -------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/Budget.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

#include <cmath>

using namespace mlir;
using namespace mlir::memsched;

int64_t Budget::resolve(int64_t plannedBefore) const {
  if (!isRelative)
    return bytes;
  return static_cast<int64_t>(
      std::floor(fraction * static_cast<double>(plannedBefore)));
}

std::optional<Budget> mlir::memsched::parseBudget(StringRef text,
                                                  std::string &error) {
  StringRef trimmed = text.trim();
  if (trimmed.empty()) {
    error = "a budget is required (e.g. budget=16GiB, budget=0.5x or "
            "budget=min)";
    return std::nullopt;
  }
  if (trimmed == "min") {
    Budget budget;
    budget.isMinimum = true;
    return budget;
  }
  size_t unitStart = trimmed.find_first_not_of("0123456789.eE+-");
  // An exponent sign or letter belongs to the number only when digits follow.
  StringRef number = trimmed.take_front(unitStart);
  StringRef unit = trimmed.drop_front(number.size()).trim();
  while (!number.empty() && (number.back() == 'e' || number.back() == 'E')) {
    unit = trimmed.drop_front(number.size() - 1).trim();
    number = number.drop_back();
  }
  double value = 0;
  if (number.empty() || number.getAsDouble(value) || !std::isfinite(value) ||
      value < 0) {
    error = ("'" + trimmed +
             "' is not a budget: expected min or a non-negative "
             "number followed by x, B, KB, MB, GB, TB, KiB, MiB, "
             "GiB or TiB")
                .str();
    return std::nullopt;
  }
  Budget budget;
  if (unit.equals_insensitive("x")) {
    budget.isRelative = true;
    budget.fraction = value;
    return budget;
  }
  // Units are read case-insensitively (`300mb`, `12gib`): budgets are bytes,
  // never bits.
  std::string lowered = unit.lower();
  std::optional<double> scale =
      llvm::StringSwitch<std::optional<double>>(lowered)
          .Case("", 1.0)
          .Case("b", 1.0)
          .Case("kb", 1e3)
          .Case("mb", 1e6)
          .Case("gb", 1e9)
          .Case("tb", 1e12)
          .Case("kib", 1024.0)
          .Case("mib", 1024.0 * 1024)
          .Case("gib", 1024.0 * 1024 * 1024)
          .Case("tib", 1024.0 * 1024 * 1024 * 1024)
          .Default(std::nullopt);
  if (!scale) {
    error = ("unknown budget unit '" + unit +
             "': expected B, KB, MB, GB, TB, KiB, MiB, GiB, TiB or x")
                .str();
    return std::nullopt;
  }
  if (unit.empty() && value != std::floor(value)) {
    error = ("'" + trimmed + "' is not a whole number of bytes; write '" +
             number + "x' for a fraction of the planned bytes")
                .str();
    return std::nullopt;
  }
  double bytes = value * *scale;
  if (bytes >= 9.2e18) {
    error = ("budget '" + trimmed + "' is too large").str();
    return std::nullopt;
  }
  budget.bytes = static_cast<int64_t>(std::floor(bytes));
  return budget;
}

std::optional<Budget>
mlir::memsched::parseBudgetOrEmitError(StringRef text, Operation *op,
                                       StringRef passName) {
  std::string error;
  std::optional<Budget> budget = parseBudget(text, error);
  if (!budget)
    emitError(op->getLoc()) << passName << ": " << error;
  return budget;
}
