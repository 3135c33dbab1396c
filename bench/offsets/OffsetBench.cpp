//===- OffsetBench.cpp - Quality and speed of the offset planners ---------===//
//
// memsched-offset-bench prints Markdown tables:
//
//  (a) arena / max-live of every offset planner on synthetic families
//      (random intervals with Zipf-like sizes; DNN-like lifetimes, many short
//      activations and a few huge long-lived buffers) of 100, 1k and 10k
//      buffers, over seeds: geometric mean, worst case, and the share of
//      instances within 1.01 x max-live (the P1 target);
//  (b) the time planOffsets() takes for auto, greedy-by-size and xla-best on
//      10k and 100k buffers (median of three runs);
//  (c) with --csv FILE..., the same for each CSV instance (MiniMalloc's
//      `id,lower,upper,size` format).
//
// `auto` and `exact` run with planOffsets()'s default work limits, so the
// arenas are the same on every machine; --time-limit S adds a wall-clock
// limit and --exact-max-nodes N (0: none) replaces the node limit.
//
// Flags: --quick (fewer sizes and seeds), --seed N (the first seed; each
// family uses consecutive seeds from it), --alignment N (alignment of the
// CSV runs, 1 by default as in MiniMalloc; the synthetic families use 64 and
// 256), --csv FILE... (plan CSV instances instead), --time-limit S,
// --exact-max-nodes N.
//
//===----------------------------------------------------------------------===//

#include "AllocationCsv.h"
#include "memsched/Scheduling/OffsetPlanner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace mlir::memsched::scheduling;

namespace {

struct Settings {
  bool quick = false;
  uint64_t seed = 1;
  int64_t csvAlignment = 1;
  std::vector<std::string> csvFiles;
  /// Wall-clock limit of auto and exact (0: none, the default).
  double timeLimit = 0.0;
  /// Node limit of the exact search (negative: the default).
  int64_t exactMaxNodes = -1;
};

/// Options of auto and exact under \p settings' limits.
OffsetPlanOptions limitedOptions(const Settings &settings) {
  OffsetPlanOptions options;
  // Each run plans: the planner is what is measured.
  options.reusePlans = false;
  options.timeLimitSeconds = settings.timeLimit;
  if (settings.exactMaxNodes >= 0)
    options.exactMaxNodes = settings.exactMaxNodes;
  return options;
}

//===----------------------------------------------------------------------===//
// Synthetic families.
//===----------------------------------------------------------------------===//

/// Random lifetimes over about n steps, log-uniform lengths of 1 to 64
/// steps, and Zipf-like sizes: rank r in 1..256 with probability ~ 1/r, size
/// 16 KiB x r with +-25% jitter in bytes (so sizes are rarely aligned).
std::vector<AllocationRequest> makeRandomIntervals(int n, uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 1);
  std::vector<double> weights;
  for (int r = 1; r <= 256; ++r)
    weights.push_back(1.0 / r);
  std::discrete_distribution<int> rank(weights.begin(), weights.end());
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<AllocationRequest> requests;
  for (int i = 0; i < n; ++i) {
    int64_t start = static_cast<int64_t>(unit(rng) * n);
    int64_t length = static_cast<int64_t>(std::exp(unit(rng) * std::log(64.0)));
    int64_t base = 16384 * static_cast<int64_t>(rank(rng) + 1);
    int64_t size = static_cast<int64_t>(base * (0.75 + 0.5 * unit(rng)));
    requests.push_back({i, start, start + std::max<int64_t>(length, 1) - 1,
                        std::max<int64_t>(size, 1)});
  }
  return requests;
}

/// A DNN-like step of n buffers over about 0.9 n ops: each op writes an
/// activation read by the next 1 to 3 ops (10% are skip connections live
/// for up to 32 ops), activations shrink in bytes stage by stage as in a
/// CNN, some ops take a one-step workspace, and a few huge buffers (n / 200,
/// 2 to 64: weight gradients, saved activations) live for a quarter to the
/// whole step.
std::vector<AllocationRequest> makeDnnLike(int n, uint64_t seed) {
  std::mt19937_64 rng(seed * 0xD1B54A32D192ED03ull + 7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int huge = std::clamp(n / 200, 2, 64);
  int ops = std::max(1, (n - huge) * 9 / 10);
  int workspaces = n - huge - ops;
  std::vector<AllocationRequest> requests;
  int64_t id = 0;
  const int stages = 8;
  auto stageBytes = [&](int64_t op) {
    int stage = static_cast<int>(op * stages / ops);
    // 8 MiB at the input down to 1 MiB, with +-10% jitter per tensor.
    double base = 8.0 * 1048576.0 / std::pow(1.35, stage);
    return static_cast<int64_t>(base * (0.9 + 0.2 * unit(rng)));
  };
  for (int op = 0; op < ops; ++op) {
    int64_t length = unit(rng) < 0.1 ? 4 + static_cast<int64_t>(unit(rng) * 28)
                                     : 1 + static_cast<int64_t>(unit(rng) * 3);
    requests.push_back({id++, op, op + length, stageBytes(op)});
  }
  for (int w = 0; w < workspaces; ++w) {
    int64_t op = static_cast<int64_t>(unit(rng) * ops);
    requests.push_back(
        {id++, op, op, static_cast<int64_t>(stageBytes(op) * unit(rng) / 2)});
  }
  for (int h = 0; h < huge; ++h) {
    int64_t length = static_cast<int64_t>((0.25 + 0.75 * unit(rng)) * ops);
    int64_t start = static_cast<int64_t>(unit(rng) * (ops - length + 1));
    int64_t size = static_cast<int64_t>((8 + 24 * unit(rng)) * 1048576.0);
    requests.push_back({id++, start, start + length, size});
  }
  return requests;
}

struct Family {
  std::string name;
  std::function<std::vector<AllocationRequest>(int, uint64_t)> make;
};

const Family kFamilies[] = {
    {"random-zipf", makeRandomIntervals},
    {"dnn-like", makeDnnLike},
};

//===----------------------------------------------------------------------===//
// Measurement.
//===----------------------------------------------------------------------===//

enum Column {
  ColGreedy,
  ColBestFitBySize,
  ColBestFitByLifetime,
  ColXlaBest,
  ColAuto,
  ColExact,
  NumColumns,
};

const OffsetAlgorithm kColumnAlgorithms[NumColumns] = {
    OffsetAlgorithm::GreedyBySize,
    OffsetAlgorithm::BestFitBySize,
    OffsetAlgorithm::BestFitByLifetime,
    OffsetAlgorithm::XlaBest,
    OffsetAlgorithm::Auto,
    OffsetAlgorithm::Exact};

/// Ratios of one column over a set of instances.
struct Stats {
  double logSum = 0.0;
  double worst = 0.0;
  int count = 0;
  int within = 0;
  int missing = 0;
  int optimal = 0;
  void add(std::optional<double> ratio, bool isOptimal = false) {
    if (!ratio) {
      ++missing;
      return;
    }
    logSum += std::log(*ratio);
    worst = std::max(worst, *ratio);
    ++count;
    within += *ratio <= 1.01 + 1e-12;
    optimal += isOptimal;
  }
  void merge(const Stats &other) {
    logSum += other.logSum;
    worst = std::max(worst, other.worst);
    count += other.count;
    within += other.within;
    missing += other.missing;
    optimal += other.optimal;
  }
  std::string str() const {
    if (count == 0)
      return "-";
    char text[96];
    std::snprintf(text, sizeof(text), "%.4f / %.4f / %d%%",
                  std::exp(logSum / count), worst, 100 * within / count);
    std::string result = text;
    if (missing)
      result += " (" + std::to_string(missing) + " n/a)";
    return result;
  }
};

/// The aligned lower bound auto proves optimality against, recomputed by
/// an independent sweep: at each step the live buffers stack at aligned
/// offsets, so all but the topmost take their padded size.
int64_t alignedLowerBound(const std::vector<AllocationRequest> &reqs,
                          int64_t alignment) {
  // (step, +1 start / -1 after the end, index); ends sort first.
  std::vector<std::tuple<int64_t, int, size_t>> events;
  for (size_t i = 0; i < reqs.size(); ++i) {
    if (reqs[i].sizeBytes == 0)
      continue;
    events.push_back({reqs[i].start, 1, i});
    events.push_back({reqs[i].end + 1, -1, i});
  }
  std::sort(events.begin(), events.end());
  std::multiset<int64_t> slacks;
  int64_t padded = 0, bound = 0;
  for (size_t e = 0; e < events.size(); ++e) {
    auto [step, kind, i] = events[e];
    int64_t size = reqs[i].sizeBytes;
    int64_t pad = (size + alignment - 1) / alignment * alignment;
    if (kind > 0) {
      padded += pad;
      slacks.insert(pad - size);
    } else {
      padded -= pad;
      slacks.erase(slacks.find(pad - size));
    }
    if (e + 1 == events.size() || std::get<0>(events[e + 1]) != step)
      if (!slacks.empty())
        bound = std::max(bound, padded - *slacks.rbegin());
  }
  return bound;
}

double ratio(int64_t arena, int64_t maxLive) {
  return maxLive == 0
             ? 1.0
             : static_cast<double>(arena) / static_cast<double>(maxLive);
}

/// Plans with one column's algorithm and checks the plan; std::nullopt if
/// the planner declined (exact over its limits). A wrong plan aborts the
/// benchmark: a ratio must never flatter an invalid plan.
std::optional<OffsetPlan> runColumn(const std::vector<AllocationRequest> &reqs,
                                    Column column, int64_t alignment,
                                    const Settings &settings,
                                    int64_t exactMaxBuffers = 64) {
  OffsetPlanOptions options = limitedOptions(settings);
  options.algorithm = kColumnAlgorithms[column];
  options.alignment = alignment;
  options.exactMaxBuffers = exactMaxBuffers;
  std::string error;
  std::optional<OffsetPlan> plan = planOffsets(reqs, options, &error);
  if (!plan) {
    if (column == ColExact)
      return std::nullopt;
    std::fprintf(stderr, "error: %s failed: %s\n",
                 getOffsetAlgorithmName(options.algorithm), error.c_str());
    std::exit(1);
  }
  std::string why;
  if (!verifyOffsets(reqs, plan->offsets, alignment, &why)) {
    std::fprintf(stderr, "error: invalid %s plan: %s\n",
                 getOffsetAlgorithmName(options.algorithm), why.c_str());
    std::exit(1);
  }
  return plan;
}

void printQualityTable(const Settings &settings) {
  int seeds = settings.quick ? 2 : 5;
  std::vector<int> sizes = settings.quick ? std::vector<int>{100, 1000}
                                          : std::vector<int>{100, 1000, 10000};
  std::vector<int64_t> alignments = {64, 256};

  std::printf("## Arena quality\n\n");
  std::printf(
      "arena / max-live over %d seeds (from %llu) and alignments 64 and "
      "256, as `geomean / worst / share of instances <= 1.01`. `auto` and "
      "`exact` run with the default work limits%s; `exact` runs at 100 "
      "buffers only (`n/a`: instances where it reached its limits). `LB`: "
      "the aligned lower bound over max-live; `opt`: instances auto proved "
      "optimal; `nodes`: the most exact-search nodes auto visited.\n\n",
      seeds, static_cast<unsigned long long>(settings.seed),
      settings.timeLimit > 0 || settings.exactMaxNodes >= 0
          ? " (overridden on the command line)"
          : "");
  std::printf("| family | buffers |");
  for (int c = 0; c < NumColumns; ++c)
    std::printf(" %s |", getOffsetAlgorithmName(kColumnAlgorithms[c]));
  std::printf(" LB | opt | auto ms (median) | nodes |\n|---|---|");
  for (int c = 0; c < NumColumns + 4; ++c)
    std::printf("---|");
  std::printf("\n");

  Stats total[NumColumns];
  Stats totalBound;
  int totalInstances = 0, totalOptimal = 0;
  for (const Family &family : kFamilies) {
    for (int n : sizes) {
      Stats stats[NumColumns];
      Stats bound;
      int instances = 0, optimal = 0;
      std::vector<double> autoMs;
      int64_t nodes = 0;
      for (int s = 0; s < seeds; ++s) {
        std::vector<AllocationRequest> reqs =
            family.make(n, settings.seed + static_cast<uint64_t>(s));
        int64_t maxLive = computeMaxLiveBytes(reqs);
        for (int64_t alignment : alignments) {
          ++instances;
          for (int c = 0; c < NumColumns; ++c) {
            if (c == ColExact && n > 100)
              continue;
            std::optional<OffsetPlan> plan =
                runColumn(reqs, static_cast<Column>(c), alignment, settings);
            if (!plan) {
              stats[c].add(std::nullopt);
              continue;
            }
            stats[c].add(ratio(plan->arenaBytes, maxLive), plan->isOptimal);
            if (c == ColAuto) {
              autoMs.push_back(plan->seconds * 1e3);
              optimal += plan->isOptimal;
              nodes = std::max(nodes, plan->exactNodes);
            }
          }
          bound.add(ratio(alignedLowerBound(reqs, alignment), maxLive));
        }
      }
      std::sort(autoMs.begin(), autoMs.end());
      std::printf("| %s | %d |", family.name.c_str(), n);
      for (int c = 0; c < NumColumns; ++c) {
        std::printf(" %s |", stats[c].str().c_str());
        total[c].merge(stats[c]);
      }
      std::printf(" %s | %d/%d | %.1f | %lld |\n", bound.str().c_str(), optimal,
                  instances, autoMs.empty() ? 0.0 : autoMs[autoMs.size() / 2],
                  static_cast<long long>(nodes));
      totalBound.merge(bound);
      totalInstances += instances;
      totalOptimal += optimal;
    }
  }
  std::printf("| **all** | |");
  for (int c = 0; c < NumColumns; ++c)
    std::printf(" %s |", total[c].str().c_str());
  std::printf(" %s | %d/%d | | |\n\n", totalBound.str().c_str(), totalOptimal,
              totalInstances);
}

void printSpeedTable(const Settings &settings) {
  std::vector<int> sizes = settings.quick ? std::vector<int>{10000}
                                          : std::vector<int>{10000, 100000};
  struct Row {
    const char *name;
    OffsetAlgorithm algorithm;
    /// Wall-clock limit on top of the work limits (0: none).
    double timeLimit;
  };
  const Row rows[] = {
      {"auto", OffsetAlgorithm::Auto, settings.timeLimit},
      {"auto (50 ms wall clock)", OffsetAlgorithm::Auto, 0.05},
      {"greedy-by-size", OffsetAlgorithm::GreedyBySize, 0.0},
      {"xla-best", OffsetAlgorithm::XlaBest, 0.0},
  };
  std::printf("## Planner speed\n\n");
  std::printf("Milliseconds planOffsets() takes (median of 3; alignment "
              "256), and arena / max-live. Auto runs the three named greedy "
              "heuristics, then, while the plan is above the lower bound, "
              "three more orders, the squeaky wheel and the exact search, "
              "within their work limits (and the wall-clock limit if "
              "given).\n\n");
  std::printf("| family | buffers |");
  for (const Row &row : rows)
    std::printf(" %s |", row.name);
  std::printf("\n|---|---|");
  for (size_t i = 0; i < std::size(rows); ++i)
    std::printf("---|");
  std::printf("\n");
  for (const Family &family : kFamilies) {
    for (int n : sizes) {
      std::vector<AllocationRequest> reqs = family.make(n, settings.seed);
      int64_t maxLive = computeMaxLiveBytes(reqs);
      std::printf("| %s | %d |", family.name.c_str(), n);
      for (const Row &row : rows) {
        OffsetPlanOptions options = limitedOptions(settings);
        options.algorithm = row.algorithm;
        options.alignment = 256;
        options.timeLimitSeconds = row.timeLimit;
        std::vector<double> ms;
        int64_t arena = 0;
        for (int run = 0; run < 3; ++run) {
          auto begin = std::chrono::steady_clock::now();
          std::optional<OffsetPlan> plan = planOffsets(reqs, options);
          ms.push_back(std::chrono::duration<double, std::milli>(
                           std::chrono::steady_clock::now() - begin)
                           .count());
          if (!plan) {
            std::fprintf(stderr, "error: %s failed\n", row.name);
            std::exit(1);
          }
          arena = plan->arenaBytes;
        }
        std::sort(ms.begin(), ms.end());
        std::printf(" %.1f ms (%.4f) |", ms[1], ratio(arena, maxLive));
      }
      std::printf("\n");
    }
  }
  std::printf("\n");
}

int runCsv(const Settings &settings) {
  std::printf("## CSV instances\n\n");
  std::printf("arena / max-live with alignment %lld. `auto` runs with the "
              "default work limits%s and runs the exact search whatever the "
              "number of buffers live together; `opt`: proven optimal.\n\n",
              static_cast<long long>(settings.csvAlignment),
              settings.timeLimit > 0 || settings.exactMaxNodes >= 0
                  ? " (overridden on the command line)"
                  : "");
  std::printf("| file | buffers | max-live |");
  for (int c = 0; c < ColExact; ++c)
    std::printf(" %s |", getOffsetAlgorithmName(kColumnAlgorithms[c]));
  std::printf(" auto arena | auto ms | opt | auto kept |\n|---|---|---|");
  for (int c = 0; c < ColExact + 4; ++c)
    std::printf("---|");
  std::printf("\n");
  for (const std::string &file : settings.csvFiles) {
    std::ifstream input(file);
    if (!input) {
      std::fprintf(stderr, "error: cannot open '%s'\n", file.c_str());
      return 2;
    }
    std::string error;
    std::optional<std::vector<AllocationRequest>> reqs =
        readAllocationCsv(input, &error);
    if (!reqs) {
      std::fprintf(stderr, "error: %s: %s\n", file.c_str(), error.c_str());
      return 2;
    }
    int64_t maxLive = computeMaxLiveBytes(*reqs);
    std::string name = file.substr(file.find_last_of('/') + 1);
    std::printf("| %s | %zu | %lld |", name.c_str(), reqs->size(),
                static_cast<long long>(maxLive));
    std::optional<OffsetPlan> autoPlan;
    for (int c = 0; c < ColExact; ++c) {
      std::optional<OffsetPlan> plan =
          runColumn(*reqs, static_cast<Column>(c), settings.csvAlignment,
                    settings, std::numeric_limits<int64_t>::max());
      std::printf(" %.4f |", ratio(plan->arenaBytes, maxLive));
      if (c == ColAuto)
        autoPlan = plan;
    }
    std::printf(" %lld | %.1f | %s | %s |\n",
                static_cast<long long>(autoPlan->arenaBytes),
                autoPlan->seconds * 1e3, autoPlan->isOptimal ? "yes" : "no",
                autoPlan->algorithm.c_str());
  }
  std::printf("\n");
  return 0;
}

bool parseUnsigned(const char *text, uint64_t &value) {
  char *end = nullptr;
  value = std::strtoull(text, &end, 10);
  return end && *end == '\0' && *text != '\0' && *text != '-';
}
} // namespace

int main(int argc, char **argv) {
  Settings settings;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    uint64_t value = 0;
    if (arg == "--quick") {
      settings.quick = true;
    } else if (arg == "--seed" && i + 1 < argc &&
               parseUnsigned(argv[i + 1], value)) {
      settings.seed = value;
      ++i;
    } else if (arg == "--alignment" && i + 1 < argc &&
               parseUnsigned(argv[i + 1], value) && value > 0 &&
               (value & (value - 1)) == 0) {
      settings.csvAlignment = static_cast<int64_t>(value);
      ++i;
    } else if (arg == "--time-limit" && i + 1 < argc) {
      char *end = nullptr;
      settings.timeLimit = std::strtod(argv[++i], &end);
      if (!end || *end != '\0' || settings.timeLimit < 0) {
        std::fprintf(stderr, "error: --time-limit needs seconds >= 0\n");
        return 2;
      }
    } else if (arg == "--exact-max-nodes" && i + 1 < argc &&
               parseUnsigned(argv[i + 1], value)) {
      settings.exactMaxNodes = static_cast<int64_t>(value);
      ++i;
    } else if (arg == "--csv") {
      for (++i; i < argc && std::strncmp(argv[i], "--", 2) != 0; ++i)
        settings.csvFiles.push_back(argv[i]);
      --i;
      if (settings.csvFiles.empty()) {
        std::fprintf(stderr, "error: --csv needs at least one file\n");
        return 2;
      }
    } else {
      std::fprintf(stderr,
                   "usage: %s [--quick] [--seed N] [--alignment N] "
                   "[--time-limit S] [--exact-max-nodes N] [--csv FILE...]\n",
                   argv[0]);
      return 2;
    }
  }
  std::printf("# Offset planning benchmark\n\n");
  if (!settings.csvFiles.empty())
    return runCsv(settings);
  printQualityTable(settings);
  printSpeedTable(settings);
  return 0;
}
