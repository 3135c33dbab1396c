//===- ReorderBench.cpp - Quality and speed of the schedulers -------------===//
//
// memsched-reorder-bench prints two Markdown tables:
//
//  (a) peak quality of every scheduler on synthetic families (random trees,
//      the post-order counterexample, random DAGs, RandWire networks and
//      training steps), as the geometric mean over seeds of
//      program peak / algorithm peak (higher is better), plus auto's gap to
//      the lower bound and auto against the best production heuristic;
//  (b) the time reorder() takes for auto, xla-best and inductor-best on
//      training steps and random DAGs of 1k, 10k and 100k tasks (median of
//      three runs).
//
// Flags: --quick (smaller sizes, fewer seeds, shorter exact limit) and
// --seed N (the first seed; each family uses consecutive seeds from it).
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/Oracles/Generators.h"
#include "memsched/Scheduling/Reorder.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace mlir::memsched::scheduling;

namespace {

struct Settings {
  bool quick = false;
  uint64_t seed = 1;
};

/// A family of problems in the quality table.
struct Family {
  std::string name;
  /// Builds the problem for one seed.
  std::function<Problem(uint64_t)> make;
  /// Number of seeds (1 for deterministic families).
  int seeds = 5;
};

/// Columns of the quality table, in order.
enum Column {
  ColProgram,
  ColPostorder,
  ColXlaList,
  ColXlaDfs,
  ColXlaBest,
  ColLpmf,
  ColBfs,
  ColDfs,
  ColInductorBest,
  ColLiu,
  ColLiuPostorder,
  ColExact,
  ColAuto,
  NumColumns,
};

const char *const kColumnNames[NumColumns] = {
    "program",       "postorder",     "xla-list",      "xla-dfs",
    "xla-best",      "inductor-lpmf", "inductor-bfs",  "inductor-dfs",
    "inductor-best", "liu",           "liu-postorder", "exact",
    "auto"};

/// The algorithm reorder() runs for each column (Program for the program
/// column, which is simulated directly).
const ReorderAlgorithm kColumnAlgorithms[NumColumns] = {
    ReorderAlgorithm::Program,      ReorderAlgorithm::Postorder,
    ReorderAlgorithm::XlaList,      ReorderAlgorithm::XlaDfs,
    ReorderAlgorithm::XlaBest,      ReorderAlgorithm::InductorLpmf,
    ReorderAlgorithm::InductorBfs,  ReorderAlgorithm::InductorDfs,
    ReorderAlgorithm::InductorBest, ReorderAlgorithm::Liu,
    ReorderAlgorithm::LiuPostorder, ReorderAlgorithm::Exact,
    ReorderAlgorithm::Auto};

double seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

/// a / b for peaks, treating 0 / 0 as 1.
double peakRatio(int64_t a, int64_t b) {
  if (b == 0)
    return a == 0 ? 1.0 : std::numeric_limits<double>::infinity();
  return static_cast<double>(a) / static_cast<double>(b);
}

/// Geometric mean of ratios; std::nullopt if any is missing.
struct GeoMean {
  double logSum = 0.0;
  int count = 0;
  bool missing = false;
  void add(std::optional<double> ratio) {
    if (!ratio) {
      missing = true;
      return;
    }
    logSum += std::log(*ratio);
    ++count;
  }
  std::string str() const {
    if (missing || count == 0)
      return "-";
    char text[32];
    std::snprintf(text, sizeof(text), "%.3f", std::exp(logSum / count));
    return text;
  }
};

std::optional<int64_t> peakOf(const Problem &problem,
                              const std::vector<TaskId> &order) {
  std::optional<MemoryProfile> profile = simulateMemory(problem, order);
  if (!profile)
    return std::nullopt;
  return profile->peakTransientBytes;
}

/// Runs one column's algorithm; std::nullopt when it does not apply or
/// fails. Reports peaks measured with the simulator, not the ones reorder()
/// states, so a wrong report cannot flatter an algorithm.
std::optional<int64_t> runColumn(const Problem &problem, Column column,
                                 double exactSeconds) {
  if (column == ColProgram)
    return peakOf(problem, problem.programOrder());
  ReorderOptions options;
  options.algorithm = kColumnAlgorithms[column];
  if (column == ColExact) {
    options.timeLimitSeconds = exactSeconds;
    options.exactMaxTasks = std::numeric_limits<int64_t>::max();
  }
  std::string error;
  std::optional<ReorderResult> result = reorder(problem, options, &error);
  if (!result)
    return std::nullopt;
  if (column == ColExact && !result->isOptimal)
    return std::nullopt;
  return peakOf(problem, result->order);
}

void printQualityTable(const Settings &settings) {
  int seeds = settings.quick ? 2 : 5;
  double exactSeconds = settings.quick ? 2.0 : 10.0;
  std::vector<Family> families;
  std::vector<int> treeSizes =
      settings.quick ? std::vector<int>{100, 300} : std::vector<int>{100, 1000};
  for (int n : treeSizes)
    families.push_back(
        {"in-tree n=" + std::to_string(n),
         [n](uint64_t s) { return makeRandomInTree(n, s, 1000, true); },
         seeds});
  for (int n : treeSizes)
    families.push_back(
        {"out-tree n=" + std::to_string(n),
         [n](uint64_t s) { return makeRandomOutTree(n, s, 1000, true); },
         seeds});
  int levels = settings.quick ? 3 : 4;
  families.push_back(
      {"post-order counterexample K=" + std::to_string(levels) + " b=3",
       [levels](uint64_t) {
         return makePostorderCounterexample(levels, 3, 3000, 1);
       },
       1});
  std::vector<int> dagSizes = settings.quick ? std::vector<int>{40, 200}
                                             : std::vector<int>{40, 200, 1000};
  for (int n : dagSizes)
    families.push_back(
        {"random DAG n=" + std::to_string(n),
         [n](uint64_t s) { return makeRandomDag(n, s, 0.3, 1000); }, seeds});
  families.push_back(
      {"RandWire 3x32 k=4 p=0.75",
       [](uint64_t s) { return makeRandWire(3, 32, 4, 0.75, s); }, seeds});
  std::vector<int> layerCounts =
      settings.quick ? std::vector<int>{16} : std::vector<int>{16, 64};
  for (int layers : layerCounts)
    for (int branches : {1, 3})
      families.push_back({"training L=" + std::to_string(layers) +
                              " B=" + std::to_string(branches),
                          [layers, branches](uint64_t s) {
                            return makeTrainingStep(layers, branches, s);
                          },
                          seeds});

  std::printf("## Peak quality\n\n");
  std::printf("Geometric mean over seeds of program peak / algorithm peak "
              "(higher is better; `-`: not a tree, or exact did not finish "
              "within %.0f s). `auto/LB`: auto's peak over the lower bound. "
              "`auto vs best`: min(xla-best, inductor-best) / auto.\n\n",
              exactSeconds);
  std::printf("| family | tasks | seeds |");
  for (int c = 0; c < NumColumns; ++c)
    std::printf(" %s |", kColumnNames[c]);
  std::printf(" auto/LB | auto vs best |\n|---|---:|---:|");
  for (int c = 0; c < NumColumns; ++c)
    std::printf("---:|");
  std::printf("---:|---:|\n");
  std::fflush(stdout);

  for (const Family &family : families) {
    GeoMean ratios[NumColumns];
    GeoMean gapToBound, versusBest;
    bool exactGaveUp = false;
    size_t minTasks = std::numeric_limits<size_t>::max(), maxTasks = 0;
    for (int i = 0; i < family.seeds; ++i) {
      Problem problem = family.make(settings.seed + i);
      problem.finalize();
      minTasks = std::min(minTasks, problem.numTasks());
      maxTasks = std::max(maxTasks, problem.numTasks());
      std::optional<int64_t> peaks[NumColumns];
      for (int c = 0; c < NumColumns; ++c) {
        // One failed exact search makes the family's mean undefined; do
        // not spend the time limit on the other seeds.
        if (c == ColExact && exactGaveUp)
          continue;
        peaks[c] = runColumn(problem, static_cast<Column>(c), exactSeconds);
        if (c == ColExact && !peaks[c])
          exactGaveUp = true;
      }
      for (int c = 0; c < NumColumns; ++c)
        ratios[c].add(peaks[c] && peaks[ColProgram]
                          ? std::optional<double>(
                                peakRatio(*peaks[ColProgram], *peaks[c]))
                          : std::nullopt);
      int64_t bound = computeLowerBoundTransientBytes(problem);
      std::optional<int64_t> autoPeak = peaks[ColAuto];
      gapToBound.add(autoPeak
                         ? std::optional<double>(peakRatio(*autoPeak, bound))
                         : std::nullopt);
      if (autoPeak && peaks[ColXlaBest] && peaks[ColInductorBest])
        versusBest.add(peakRatio(
            std::min(*peaks[ColXlaBest], *peaks[ColInductorBest]), *autoPeak));
      else
        versusBest.add(std::nullopt);
    }
    std::string tasks = std::to_string(minTasks);
    if (maxTasks != minTasks)
      tasks += "-" + std::to_string(maxTasks);
    std::printf("| %s | %s | %d |", family.name.c_str(), tasks.c_str(),
                family.seeds);
    for (int c = 0; c < NumColumns; ++c)
      std::printf(" %s |", ratios[c].str().c_str());
    std::printf(" %s | %s |\n", gapToBound.str().c_str(),
                versusBest.str().c_str());
    std::fflush(stdout);
  }
  std::printf("\n");
}

/// Median of three timed runs of reorder() with \p algorithm, in seconds,
/// and the peak of the last run's order.
std::pair<double, std::optional<int64_t>>
timeReorder(const Problem &problem, ReorderAlgorithm algorithm) {
  std::vector<double> times;
  std::optional<int64_t> peak;
  for (int run = 0; run < 3; ++run) {
    ReorderOptions options;
    options.algorithm = algorithm;
    auto start = std::chrono::steady_clock::now();
    std::optional<ReorderResult> result = reorder(problem, options);
    times.push_back(seconds(std::chrono::steady_clock::now() - start));
    peak = result ? peakOf(problem, result->order) : std::nullopt;
  }
  std::sort(times.begin(), times.end());
  return {times[1], peak};
}

/// The layer count that brings a training step with \p branches branches
/// closest to \p targetTasks tasks (its size grows linearly with layers).
int layersForTasks(int64_t targetTasks, int branches, uint64_t seed) {
  int64_t at10 =
      static_cast<int64_t>(makeTrainingStep(10, branches, seed).numTasks());
  int64_t at20 =
      static_cast<int64_t>(makeTrainingStep(20, branches, seed).numTasks());
  double perLayer = static_cast<double>(at20 - at10) / 10.0;
  double layers = 10.0 + static_cast<double>(targetTasks - at10) / perLayer;
  return std::max(1, static_cast<int>(std::lround(layers)));
}

void printTimeTable(const Settings &settings) {
  std::vector<int64_t> sizes = settings.quick
                                   ? std::vector<int64_t>{1000, 10000}
                                   : std::vector<int64_t>{1000, 10000, 100000};
  const ReorderAlgorithm algorithms[] = {ReorderAlgorithm::Auto,
                                         ReorderAlgorithm::XlaBest,
                                         ReorderAlgorithm::InductorBest};

  std::printf("## Compile time\n\n");
  std::printf("Seconds reorder() takes (median of 3, steady clock; auto with "
              "its default work limits), and program peak / peak.\n\n");
  std::printf("| problem | tasks | auto s | xla-best s | inductor-best s | "
              "auto ratio | xla-best ratio | inductor-best ratio |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
  std::fflush(stdout);

  const int branches = 2;
  for (int family = 0; family < 2; ++family)
    for (int64_t size : sizes) {
      Problem problem;
      std::string name;
      if (family == 0) {
        int layers = layersForTasks(size, branches, settings.seed);
        problem = makeTrainingStep(layers, branches, settings.seed);
        name = "training L=" + std::to_string(layers) +
               " B=" + std::to_string(branches);
      } else {
        problem =
            makeRandomDag(static_cast<int>(size), settings.seed, 0.3, 1000);
        name = "random DAG";
      }
      problem.finalize();
      std::optional<int64_t> program = peakOf(problem, problem.programOrder());
      std::printf("| %s | %zu |", name.c_str(), problem.numTasks());
      std::string ratioCells;
      for (ReorderAlgorithm algorithm : algorithms) {
        auto [time, peak] = timeReorder(problem, algorithm);
        std::printf(" %.3f |", time);
        char cell[32] = "-";
        if (peak && program)
          std::snprintf(cell, sizeof(cell), "%.3f", peakRatio(*program, *peak));
        ratioCells += std::string(" ") + cell + " |";
      }
      std::printf("%s\n", ratioCells.c_str());
      std::fflush(stdout);
    }
  std::printf("\n");
}

bool parseArguments(int argc, char **argv, Settings &settings) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      settings.quick = true;
    } else if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      const char *text = argv[++i];
      char *end = nullptr;
      settings.seed = std::strtoull(text, &end, 10);
      if (end == text || *end != '\0') {
        std::fprintf(stderr, "error: --seed needs a number\n");
        return false;
      }
    } else if (std::strcmp(argv[i], "--help") == 0 ||
               std::strcmp(argv[i], "-h") == 0) {
      std::printf("usage: %s [--quick] [--seed N]\n", argv[0]);
      std::exit(0);
    } else {
      std::fprintf(stderr, "error: unknown argument '%s'\n", argv[i]);
      return false;
    }
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Settings settings;
  if (!parseArguments(argc, argv, settings))
    return 2;
  std::printf("# memsched reorder benchmark%s (seed %llu)\n\n",
              settings.quick ? " (quick)" : "",
              static_cast<unsigned long long>(settings.seed));
  printQualityTable(settings);
  printTimeTable(settings);
  return 0;
}
