//===- memsched-plan-offsets.cpp - Offset planning on CSV instances -------===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// Plans static offsets for the buffers of a CSV file in MiniMalloc's
// `id,lower,upper,size` format (a buffer is live in [lower, upper)), checks
// the plan, and prints its statistics as text or JSON; optionally writes
// the plan as `id,lower,upper,size,offset` rows. With --verify it instead
// checks the offset column of such a file (e.g. one written by this tool
// or by MiniMalloc).
//
// Exit codes: 0 on success, 1 when planning fails (exact search over its
// limits) or a plan does not verify, 2 for bad options or input.
//
//===----------------------------------------------------------------------===//

#include "AllocationCsv.h"
#include "memsched/Scheduling/OffsetPlanner.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace mlir::memsched::scheduling;

namespace {

constexpr const char *kUsage =
    "usage: memsched-plan-offsets FILE.csv [options]\n"
    "\n"
    "Plans offsets in one arena for the buffers of FILE.csv (columns\n"
    "id,lower,upper,size with an optional header; a buffer is live in\n"
    "[lower, upper)) and verifies the plan.\n"
    "\n"
    "options:\n"
    "  --algorithm=NAME        one of: %s (default auto)\n"
    "  --alignment=N           offsets are multiples of N, a power of two\n"
    "                          (default 256)\n"
    "  --exact-max-nodes=N     work limit of the exact search, in search\n"
    "                          nodes (default 100000; 0: no limit)\n"
    "  --improve-max-placements=N\n"
    "                          work limit of auto's squeaky-wheel\n"
    "                          improvement, in buffers placed (default\n"
    "                          1048576; 0: no limit)\n"
    "  --time-limit-ms=N       wall-clock limit of auto and exact on top of\n"
    "                          the work limits (default 0: none, so that the\n"
    "                          plan is the same on every machine)\n"
    "  --exact-max-buffers=N   exact search limit on buffers live together\n"
    "                          (default 4096)\n"
    "  --output=FILE           write id,lower,upper,size,offset rows\n"
    "  --json                  print the statistics as JSON\n"
    "  --verify                check the offset column of FILE.csv instead\n"
    "                          of planning\n"
    "\n"
    "exit codes: 0 success, 1 planning or verification failed, 2 bad\n"
    "options or input\n";

struct Options {
  std::string input;
  OffsetPlanOptions plan;
  std::optional<std::string> output;
  bool json = false;
  bool verify = false;
};

/// Bad input: the message says what is wrong with it.
int inputError(const std::string &message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return 2;
}

int usageError(const std::string &message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  std::fprintf(stderr, "run 'memsched-plan-offsets --help' for usage\n");
  return 2;
}

bool parseInt(const std::string &text, int64_t &value) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    return false;
  errno = 0;
  char *end = nullptr;
  long long parsed = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size())
    return false;
  value = parsed;
  return true;
}

/// Parses the command line; returns an exit code to stop with, or
/// std::nullopt to go on.
std::optional<int> parseOptions(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string name = arg, value;
    bool hasValue = false;
    size_t equals = arg.find('=');
    if (arg.rfind("--", 0) == 0 && equals != std::string::npos) {
      name = arg.substr(0, equals);
      value = arg.substr(equals + 1);
      hasValue = true;
    }
    auto needValue = [&]() -> bool {
      if (hasValue)
        return true;
      if (i + 1 < argc) {
        value = argv[++i];
        return true;
      }
      return false;
    };
    int64_t number = 0;
    if (name == "--help" || name == "-h") {
      std::printf(kUsage, getOffsetAlgorithmNames().c_str());
      return 0;
    }
    if (name == "--json" && !hasValue) {
      options.json = true;
    } else if (name == "--verify" && !hasValue) {
      options.verify = true;
    } else if (name == "--algorithm") {
      if (!needValue())
        return usageError("--algorithm needs a value");
      std::optional<OffsetAlgorithm> algorithm = parseOffsetAlgorithm(value);
      if (!algorithm)
        return usageError("unknown algorithm '" + value +
                          "'; expected one of: " + getOffsetAlgorithmNames());
      options.plan.algorithm = *algorithm;
    } else if (name == "--alignment") {
      if (!needValue() || !parseInt(value, number) || number <= 0 ||
          (number & (number - 1)) != 0)
        return usageError("--alignment needs a positive power of two, got '" +
                          value + "'");
      options.plan.alignment = number;
    } else if (name == "--time-limit-ms") {
      if (!needValue() || !parseInt(value, number) || number < 0)
        return usageError(
            "--time-limit-ms needs a non-negative integer, got '" + value +
            "'");
      options.plan.timeLimitSeconds = static_cast<double>(number) / 1000.0;
    } else if (name == "--exact-max-nodes") {
      if (!needValue() || !parseInt(value, number) || number < 0)
        return usageError(
            "--exact-max-nodes needs a non-negative integer, got '" + value +
            "'");
      options.plan.exactMaxNodes = number;
    } else if (name == "--improve-max-placements") {
      if (!needValue() || !parseInt(value, number) || number < 0)
        return usageError(
            "--improve-max-placements needs a non-negative integer, got '" +
            value + "'");
      options.plan.improveMaxPlacements = number;
    } else if (name == "--exact-max-buffers") {
      if (!needValue() || !parseInt(value, number) || number < 0)
        return usageError(
            "--exact-max-buffers needs a non-negative integer, got '" + value +
            "'");
      options.plan.exactMaxBuffers = number;
    } else if (name == "--output") {
      if (!needValue() || value.empty())
        return usageError("--output needs a file name");
      options.output = value;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return usageError("unknown option '" + arg + "'");
    } else if (options.input.empty()) {
      options.input = arg;
    } else {
      return usageError("more than one input file ('" + options.input +
                        "' and '" + arg + "')");
    }
  }
  if (options.input.empty())
    return usageError("no input file");
  if (options.verify && options.output)
    return usageError("--verify and --output cannot be combined");
  return std::nullopt;
}

std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char escaped[8];
        std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
        out += escaped;
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

std::string trim(const std::string &text) {
  size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos)
    return "";
  size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

/// Reads the `offset` column of a CSV file with a header, one value per
/// non-blank data row (the rows readAllocationCsv() returns, in order).
std::optional<std::vector<int64_t>> readOffsetColumn(const std::string &text,
                                                     std::string &error) {
  std::istringstream input(text);
  std::string line;
  int64_t lineNumber = 0;
  std::optional<size_t> column;
  std::vector<int64_t> offsets;
  while (std::getline(input, line)) {
    ++lineNumber;
    if (trim(line).empty())
      continue;
    std::vector<std::string> fields;
    std::stringstream row(line);
    std::string field;
    while (std::getline(row, field, ','))
      fields.push_back(trim(field));
    if (!column) {
      for (size_t c = 0; c < fields.size(); ++c) {
        std::string lower = fields[c];
        for (char &ch : lower)
          ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (lower == "offset")
          column = c;
      }
      if (!column) {
        error = "line " + std::to_string(lineNumber) +
                ": --verify needs a header naming an 'offset' column";
        return std::nullopt;
      }
      continue;
    }
    int64_t offset = 0;
    if (*column >= fields.size() || !parseInt(fields[*column], offset)) {
      error = "line " + std::to_string(lineNumber) +
              ": missing or non-integer offset";
      return std::nullopt;
    }
    offsets.push_back(offset);
  }
  return offsets;
}

void printVerified(const Options &options, size_t buffers, int64_t maxLive,
                   int64_t arena) {
  double ratio =
      maxLive == 0 ? 1.0
                   : static_cast<double>(arena) / static_cast<double>(maxLive);
  if (options.json) {
    std::printf("{\n  \"file\": %s,\n  \"buffers\": %zu,\n"
                "  \"alignment\": %lld,\n  \"max_live_bytes\": %lld,\n"
                "  \"arena_bytes\": %lld,\n  \"arena_over_max_live\": %.6f,\n"
                "  \"valid\": true\n}\n",
                jsonString(options.input).c_str(), buffers,
                static_cast<long long>(options.plan.alignment),
                static_cast<long long>(maxLive), static_cast<long long>(arena),
                ratio);
    return;
  }
  std::printf("buffers: %zu\nalignment: %lld\nmax-live: %lld\narena: %lld\n"
              "arena/max-live: %.4f\nvalid: yes\n",
              buffers, static_cast<long long>(options.plan.alignment),
              static_cast<long long>(maxLive), static_cast<long long>(arena),
              ratio);
}

void printPlan(const Options &options, size_t buffers, const OffsetPlan &plan) {
  if (options.json) {
    std::printf("{\n  \"file\": %s,\n  \"buffers\": %zu,\n"
                "  \"alignment\": %lld,\n  \"max_live_bytes\": %lld,\n"
                "  \"arena_bytes\": %lld,\n  \"arena_over_max_live\": %.6f,\n"
                "  \"algorithm\": %s,\n  \"optimal\": %s,\n"
                "  \"seconds\": %.6f,\n  \"improve_placements\": %lld,\n"
                "  \"exact_nodes\": %lld,\n  \"candidates\": [",
                jsonString(options.input).c_str(), buffers,
                static_cast<long long>(options.plan.alignment),
                static_cast<long long>(plan.maxLiveBytes),
                static_cast<long long>(plan.arenaBytes), plan.fragmentation(),
                jsonString(plan.algorithm).c_str(),
                plan.isOptimal ? "true" : "false", plan.seconds,
                static_cast<long long>(plan.improvePlacements),
                static_cast<long long>(plan.exactNodes));
    for (size_t i = 0; i < plan.candidates.size(); ++i)
      std::printf("%s\n    {\"algorithm\": %s, \"arena_bytes\": %lld}",
                  i ? "," : "", jsonString(plan.candidates[i].first).c_str(),
                  static_cast<long long>(plan.candidates[i].second));
    std::printf("%s]\n}\n", plan.candidates.empty() ? "" : "\n  ");
    return;
  }
  std::printf("buffers: %zu\nalignment: %lld\nmax-live: %lld\narena: %lld\n"
              "arena/max-live: %.4f\nalgorithm: %s\noptimal: %s\n"
              "time: %.3f ms\ncandidates:\n",
              buffers, static_cast<long long>(options.plan.alignment),
              static_cast<long long>(plan.maxLiveBytes),
              static_cast<long long>(plan.arenaBytes), plan.fragmentation(),
              plan.algorithm.c_str(), plan.isOptimal ? "yes" : "no",
              plan.seconds * 1e3);
  for (const auto &[name, arena] : plan.candidates)
    std::printf("  %s: %lld\n", name.c_str(), static_cast<long long>(arena));
}
} // namespace

int main(int argc, char **argv) {
  Options options;
  if (std::optional<int> exitCode = parseOptions(argc, argv, options))
    return *exitCode;

  std::ifstream file(options.input, std::ios::binary);
  if (!file)
    return inputError("cannot open '" + options.input + "'");
  std::stringstream contents;
  contents << file.rdbuf();
  std::string text = contents.str();
  std::istringstream input(text);
  std::string error;
  std::optional<std::vector<AllocationRequest>> requests =
      readAllocationCsv(input, &error);
  if (!requests)
    return inputError(options.input + ": " + error);

  if (options.verify) {
    std::optional<std::vector<int64_t>> offsets = readOffsetColumn(text, error);
    if (!offsets)
      return inputError(options.input + ": " + error);
    if (!verifyOffsets(*requests, *offsets, options.plan.alignment, &error)) {
      std::fprintf(stderr, "error: %s: invalid offsets: %s\n",
                   options.input.c_str(), error.c_str());
      return 1;
    }
    int64_t arena = 0;
    for (size_t i = 0; i < requests->size(); ++i)
      arena = std::max(arena, (*offsets)[i] + (*requests)[i].sizeBytes);
    printVerified(options, requests->size(), computeMaxLiveBytes(*requests),
                  arena);
    return 0;
  }

  std::optional<OffsetPlan> plan = planOffsets(*requests, options.plan, &error);
  if (!plan) {
    std::fprintf(stderr, "error: %s: %s\n", options.input.c_str(),
                 error.c_str());
    return 1;
  }
  // Always check: a wrong plan must never be reported as a result.
  if (!verifyOffsets(*requests, plan->offsets, options.plan.alignment,
                     &error)) {
    std::fprintf(stderr, "error: %s: the %s plan does not verify: %s\n",
                 options.input.c_str(), plan->algorithm.c_str(), error.c_str());
    return 1;
  }
  if (options.output) {
    std::ofstream out(*options.output);
    if (!out)
      return inputError("cannot write '" + *options.output + "'");
    out << "id,lower,upper,size,offset\n";
    for (size_t i = 0; i < requests->size(); ++i) {
      const AllocationRequest &r = (*requests)[i];
      out << r.id << ',' << r.start << ',' << r.end + 1 << ',' << r.sizeBytes
          << ',' << plan->offsets[i] << '\n';
    }
    out.close();
    if (!out)
      return inputError("cannot write '" + *options.output + "'");
  }
  printPlan(options, requests->size(), *plan);
  return 0;
}
