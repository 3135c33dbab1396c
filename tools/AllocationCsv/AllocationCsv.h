//===- AllocationCsv.h - Allocation benchmarks in CSV -----------*- C++ -*-===//
//
// This file declares the reader of allocation benchmarks in MiniMalloc's CSV
// format, shared by memsched-plan-offsets and the offset benchmark. It lives
// with the tools, not in the scheduling core: the core plans offsets for
// requests, whatever file they came from.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TOOLS_ALLOCATIONCSV_H
#define MEMSCHED_TOOLS_ALLOCATIONCSV_H

#include "memsched/Scheduling/OffsetPlanner.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// Reads `id,lower,upper,size` rows (a header row is skipped; MiniMalloc's
/// format, where a buffer is live in [lower, upper), i.e. upper is
/// exclusive). Returns std::nullopt and explains the line in \p error on a
/// malformed row.
std::optional<std::vector<AllocationRequest>>
readAllocationCsv(std::istream &input, std::string *error = nullptr);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_TOOLS_ALLOCATIONCSV_H
