//===- NameTable.h - Names users type for algorithm enums -------*- C++ -*-===//
//
// This file declares the lookups shared by the algorithm enums of the
// schedulers and the planners: a table of canonical names, plus aliases
// accepted on input only.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_LIB_SCHEDULING_NAMETABLE_H
#define MEMSCHED_LIB_SCHEDULING_NAMETABLE_H

#include <optional>
#include <string>

namespace mlir {
namespace memsched {
namespace scheduling {
namespace detail {

template <typename Enum>
struct NamedValue {
  Enum value;
  const char *name;
};

/// The canonical name of `value`, or "unknown".
template <typename Enum, size_t N>
const char *nameOf(const NamedValue<Enum> (&names)[N], Enum value) {
  for (const NamedValue<Enum> &entry : names)
    if (entry.value == value)
      return entry.name;
  return "unknown";
}

/// The value named `name` in `names`, then in `aliases`.
template <typename Enum, size_t N, size_t M>
std::optional<Enum> parseName(const NamedValue<Enum> (&names)[N],
                              const NamedValue<Enum> (&aliases)[M],
                              const std::string &name) {
  for (const NamedValue<Enum> &entry : names)
    if (name == entry.name)
      return entry.value;
  for (const NamedValue<Enum> &entry : aliases)
    if (name == entry.name)
      return entry.value;
  return std::nullopt;
}

/// The canonical names, comma-separated.
template <typename Enum, size_t N>
std::string joinNames(const NamedValue<Enum> (&names)[N]) {
  std::string joined;
  for (const NamedValue<Enum> &entry : names) {
    if (!joined.empty())
      joined += ", ";
    joined += entry.name;
  }
  return joined;
}

} // namespace detail
} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_LIB_SCHEDULING_NAMETABLE_H
