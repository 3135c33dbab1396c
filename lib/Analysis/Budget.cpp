//===- Budget.cpp - Memory budgets given as options -------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/Budget.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

#include <cmath>

using namespace mlir;
using namespace mlir::memsched;

int64_t Budget::resolve(int64_t peakBefore) const {
  if (!isRelative)
    return bytes;
  return static_cast<int64_t>(
      std::floor(fraction * static_cast<double>(peakBefore)));
}

std::optional<Budget> mlir::memsched::parseBudget(StringRef text,
                                                  std::string &error) {
  StringRef trimmed = text.trim();
  if (trimmed.empty()) {
    error = "a budget is required (e.g. budget=16GiB or budget=0.5x)";
    return std::nullopt;
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
             "' is not a budget: expected a non-negative "
             "number followed by B, KB, MB, GB, TB, KiB, MiB, "
             "GiB, TiB or x")
                .str();
    return std::nullopt;
  }
  Budget budget;
  if (unit == "x" || unit == "X") {
    budget.isRelative = true;
    budget.fraction = value;
    return budget;
  }
  std::optional<double> scale = llvm::StringSwitch<std::optional<double>>(unit)
                                    .Case("", 1.0)
                                    .Case("B", 1.0)
                                    .Case("KB", 1e3)
                                    .Case("MB", 1e6)
                                    .Case("GB", 1e9)
                                    .Case("TB", 1e12)
                                    .Case("KiB", 1024.0)
                                    .Case("MiB", 1024.0 * 1024)
                                    .Case("GiB", 1024.0 * 1024 * 1024)
                                    .Case("TiB", 1024.0 * 1024 * 1024 * 1024)
                                    .Default(std::nullopt);
  if (!scale) {
    error = ("unknown budget unit '" + unit +
             "': expected B, KB, MB, GB, TB, KiB, MiB, GiB, TiB or x")
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
