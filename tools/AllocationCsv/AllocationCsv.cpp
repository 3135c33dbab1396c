//===- AllocationCsv.cpp - Allocation benchmarks in CSV -------------------===//
//
// This file implements the reader of MiniMalloc's `id,lower,upper,size`
// CSV format.
//
//===----------------------------------------------------------------------===//

#include "AllocationCsv.h"

#include <algorithm>
#include <cctype>
#include <istream>
#include <sstream>

using namespace mlir::memsched::scheduling;

static void setError(std::string *error, const std::string &message) {
  if (error)
    *error = message;
}

/// Parses a whole field as a 64-bit integer.
static bool parseInteger(const std::string &text, int64_t &value) {
  if (text.empty())
    return false;
  size_t pos = 0;
  bool negative = false;
  if (text[0] == '-' || text[0] == '+') {
    negative = text[0] == '-';
    pos = 1;
  }
  if (pos == text.size())
    return false;
  uint64_t magnitude = 0;
  uint64_t limit = negative ? uint64_t(1) << 63 : (uint64_t(1) << 63) - 1;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (c < '0' || c > '9')
      return false;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (limit - digit) / 10)
      return false;
    magnitude = magnitude * 10 + digit;
  }
  value = negative ? static_cast<int64_t>(0 - magnitude)
                   : static_cast<int64_t>(magnitude);
  return true;
}

static std::string trim(const std::string &text) {
  size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])))
    ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])))
    --end;
  return text.substr(begin, end - begin);
}

static std::vector<std::string> splitFields(const std::string &line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream stream(line);
  while (std::getline(stream, field, ','))
    fields.push_back(trim(field));
  if (!line.empty() && line.back() == ',')
    fields.push_back("");
  return fields;
}
std::optional<std::vector<AllocationRequest>>
mlir::memsched::scheduling::readAllocationCsv(std::istream &input,
                                              std::string *error) {
  std::vector<AllocationRequest> requests;
  // Column positions; a header may name them in any order and add others
  // (e.g. the offset column written by memsched-plan-offsets).
  size_t columns[4] = {0, 1, 2, 3};
  const char *const names[4] = {"id", "lower", "upper", "size"};
  bool first = true;
  std::string line;
  int64_t lineNumber = 0;
  auto fail = [&](const std::string &message) {
    setError(error, "line " + std::to_string(lineNumber) + ": " + message);
    return std::nullopt;
  };
  while (std::getline(input, line)) {
    ++lineNumber;
    line = trim(line);
    if (line.empty())
      continue;
    std::vector<std::string> fields = splitFields(line);
    int64_t ignored;
    if (first && !parseInteger(fields[0], ignored)) {
      first = false;
      for (size_t c = 0; c < 4; ++c) {
        auto it = std::find_if(
            fields.begin(), fields.end(), [&](const std::string &field) {
              std::string lower = field;
              for (char &ch : lower)
                ch = static_cast<char>(
                    std::tolower(static_cast<unsigned char>(ch)));
              return lower == names[c];
            });
        if (it == fields.end())
          return fail("the header '" + line +
                      "' must name the columns id, lower, upper and size");
        columns[c] = static_cast<size_t>(it - fields.begin());
      }
      continue;
    }
    first = false;
    size_t needed = *std::max_element(columns, columns + 4) + 1;
    if (fields.size() < needed)
      return fail("expected " + std::to_string(needed) +
                  " comma-separated fields (id,lower,upper,size), got " +
                  std::to_string(fields.size()));
    int64_t values[4];
    for (size_t c = 0; c < 4; ++c)
      if (!parseInteger(fields[columns[c]], values[c]))
        return fail("the " + std::string(names[c]) + " field '" +
                    fields[columns[c]] + "' is not an integer");
    auto [id, lower, upper, size] = values;
    if (upper <= lower)
      return fail("upper (" + std::to_string(upper) +
                  ") must be greater than lower (" + std::to_string(lower) +
                  "): the lifetime [lower, upper) is empty");
    if (size < 0)
      return fail("negative size " + std::to_string(size));
    requests.push_back({id, lower, upper - 1, size});
  }
  if (input.bad()) {
    setError(error, "could not read the input");
    return std::nullopt;
  }
  return requests;
}
