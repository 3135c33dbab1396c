//===- SetError.h - Optional error messages of the planners ----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// The planners report why they fail through an optional `std::string *`;
// this file declares the one helper that fills it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_SCHEDULING_SETERROR_H
#define MEMSCHED_LIB_SCHEDULING_SETERROR_H

#include <string>
#include <utility>

namespace mlir {
namespace memsched {
namespace scheduling {
namespace detail {

/// Stores \p message in \p error when the caller asked for one.
inline void setError(std::string *error, std::string message) {
  if (error)
    *error = std::move(message);
}

} // namespace detail
} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_LIB_SCHEDULING_SETERROR_H
