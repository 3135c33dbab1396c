//===- Reorder.cpp - Choosing and combining the schedulers ----------------===//
//
// This file implements reorder(), the entry point behind the
// memsched-reorder pass: it runs the requested scheduler, or for `auto` the
// portfolio (program order, Liu on trees, every baseline heuristic, the
// exact search where the parts between cut tasks are small, and the windowed
// search otherwise), and keeps the order of lowest peak.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Reorder.h"
#include "ChainFolding.h"
#include "NameTable.h"
#include "ScheduleGraph.h"
#include "SetError.h"
#include "SubsetSearch.h"
#include "memsched/Scheduling/MemorySimulator.h"

#include <algorithm>
#include <chrono>
#include <functional>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail;

namespace {
using AlgorithmName = detail::NamedValue<ReorderAlgorithm>;

constexpr AlgorithmName kAlgorithmNames[] = {
    {ReorderAlgorithm::Auto, "auto"},
    {ReorderAlgorithm::Program, "program"},
    {ReorderAlgorithm::Exact, "exact"},
    {ReorderAlgorithm::Liu, "liu"},
    {ReorderAlgorithm::LiuPostorder, "liu-postorder"},
    {ReorderAlgorithm::Postorder, "postorder"},
    {ReorderAlgorithm::XlaList, "xla-list"},
    {ReorderAlgorithm::XlaDfs, "xla-dfs"},
    {ReorderAlgorithm::InductorLpmf, "inductor-lpmf"},
    {ReorderAlgorithm::InductorBfs, "inductor-bfs"},
    {ReorderAlgorithm::InductorDfs, "inductor-dfs"},
    {ReorderAlgorithm::XlaBest, "xla"},
    {ReorderAlgorithm::InductorBest, "inductor"},
};

/// Short spellings accepted on input.
constexpr AlgorithmName kAliases[] = {
    {ReorderAlgorithm::XlaList, "list"},
    {ReorderAlgorithm::XlaDfs, "dfs"},
    {ReorderAlgorithm::InductorLpmf, "lpmf"},
    {ReorderAlgorithm::InductorBfs, "bfs"},
};

/// auto searches coarsened problems (ExactOptions::coarsenExcess) when the
/// largest part left by the exact reductions has more tasks than this; the
/// exact search alone proves smaller parts optimal quickly.
constexpr int32_t kCoarsenAbove = 64;

/// The single heuristics, XLA's first (in the order XLA tries them).
struct Heuristic {
  ReorderAlgorithm algorithm;
  std::vector<TaskId> (*schedule)(const Problem &);
  bool isXla;
};

const Heuristic kHeuristics[] = {
    {ReorderAlgorithm::XlaList, scheduleXlaList, true},
    {ReorderAlgorithm::XlaDfs, scheduleXlaDfs, true},
    {ReorderAlgorithm::Postorder, schedulePostorder, true},
    {ReorderAlgorithm::InductorLpmf, scheduleInductorLpmf, false},
    {ReorderAlgorithm::InductorBfs, scheduleInductorBfs, false},
    {ReorderAlgorithm::InductorDfs, scheduleInductorDfs, false},
};

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Runs schedulers, records each as a candidate and keeps the best order.
class Portfolio {
public:
  Portfolio(const ScheduleGraph &graph, ReorderResult &result)
      : graph(graph), result(result) {}

  /// Runs `scheduler` as candidate `name`; returns its peak.
  int64_t run(const std::string &name,
              const std::function<std::vector<TaskId>()> &scheduler) {
    auto start = std::chrono::steady_clock::now();
    std::vector<TaskId> order = scheduler();
    return add(name, std::move(order), secondsSince(start));
  }

  /// Records an order computed elsewhere.
  int64_t add(const std::string &name, std::vector<TaskId> order,
              double seconds) {
    std::vector<int32_t> dense(order.begin(), order.end());
    int64_t peak = computePeak(graph, dense);
    result.candidates.push_back({name, peak, seconds});
    if (result.order.empty() || peak < result.peakTransientBytes) {
      result.order = std::move(order);
      result.peakTransientBytes = peak;
      result.chosenAlgorithm = name;
    }
    return peak;
  }

private:
  const ScheduleGraph &graph;
  ReorderResult &result;
};

/// Size of the largest part between cut tasks, free sources left out (as
/// the exact search does).
int32_t largestComponent(const Problem &problem,
                         const std::vector<TaskId> &order) {
  ReducedProblem reduced = removeFreeSources(problem);
  if (reduced.isReduced())
    return largestComponent(reduced.problem, restrictOrder(reduced, order));
  FoldedProblem folded = foldChains(problem);
  if (folded.isFolded())
    return largestComponent(folded.problem, foldOrder(folded, order));
  ScheduleGraph graph(problem);
  std::vector<int32_t> dense(order.begin(), order.end());
  int32_t largest = 0;
  for (auto [begin, end] : findComponents(graph, dense))
    largest = std::max(largest, end - begin);
  return largest;
}

} // namespace

const char *mlir::memsched::scheduling::getReorderAlgorithmName(
    ReorderAlgorithm algorithm) {
  return detail::nameOf(kAlgorithmNames, algorithm);
}

std::optional<ReorderAlgorithm>
mlir::memsched::scheduling::parseReorderAlgorithm(const std::string &name) {
  return detail::parseName(kAlgorithmNames, kAliases, name);
}

std::string mlir::memsched::scheduling::getReorderAlgorithmNames() {
  return detail::joinNames(kAlgorithmNames);
}

std::optional<ReorderResult> mlir::memsched::scheduling::reorder(
    const Problem &problem, const ReorderOptions &options, std::string *error) {
  std::string why;
  if (!problem.verify(&why)) {
    setError(error, "invalid scheduling problem: " + why);
    return std::nullopt;
  }
  if (options.objective == ReorderObjective::Planned) {
    ReorderOptions peakOptions = options;
    peakOptions.objective = ReorderObjective::Peak;
    return reorder(problem.withEscapingResident(), peakOptions, error);
  }
  // Liu's traversal, the lower bound and the exact search know nothing of
  // in-place writes.
  bool modelsWrites = false;
  for (size_t task = 0; task < problem.numTasks() && !modelsWrites; ++task)
    modelsWrites =
        !problem.task(static_cast<TaskId>(task)).inPlaceWrites.empty();
  if (modelsWrites && !options.modelInPlaceWrites) {
    Problem withoutWrites = problem;
    for (size_t task = 0; task < problem.numTasks(); ++task)
      withoutWrites.task(static_cast<TaskId>(task)).inPlaceWrites.clear();
    return reorder(withoutWrites, options, error);
  }
  auto start = std::chrono::steady_clock::now();
  Deadline deadline(options.timeLimitSeconds);
  ScheduleGraph graph(problem);
  ReorderResult result;
  result.lowerBoundTransientBytes = computeLowerBoundTransientBytes(problem);
  if (modelsWrites) {
    // A task's step may be spared its writes' result buffers, each once:
    // the bound is then each step's footprint less those, or the escaping
    // buffers, which coexist at the end.
    int64_t bound = 0, escaping = 0;
    for (int32_t buffer = 0; buffer < graph.numBuffers(); ++buffer)
      if (graph.escapes(buffer))
        escaping += graph.bufferBytes(buffer);
    for (int32_t task = 0; task < graph.numTasks(); ++task)
      bound = std::max(
          bound, graph.footprint(task) -
                     mostBytesSparedInPlace(graph.inPlaceWrites(task),
                                            [&](int32_t buffer) {
                                              return graph.bufferBytes(buffer);
                                            }));
    result.lowerBoundTransientBytes = std::max(bound, escaping);
  }
  std::vector<TaskId> program(graph.topologicalOrder().begin(),
                              graph.topologicalOrder().end());
  if (problem.isTopologicalOrder(problem.programOrder()))
    program = problem.programOrder();

  Portfolio portfolio(graph, result);
  result.programPeakTransientBytes = portfolio.add("program", program, 0.0);
  auto finish = [&]() -> std::optional<ReorderResult> {
    result.seconds = secondsSince(start);
    return result;
  };

  auto runTree = [&](ReorderAlgorithm algorithm) -> bool {
    bool optimal = algorithm == ReorderAlgorithm::Liu;
    std::optional<std::vector<TaskId>> order;
    auto begin = std::chrono::steady_clock::now();
    order =
        optimal ? scheduleLiuOptimal(problem) : scheduleLiuPostorder(problem);
    if (!order)
      return false;
    portfolio.add(getReorderAlgorithmName(algorithm), std::move(*order),
                  secondsSince(begin));
    // Liu's traversal is optimal, so it also ties with anything else.
    if (optimal) {
      result.isOptimal = true;
      result.chosenAlgorithm = "liu";
    }
    return true;
  };

  auto runFamily = [&](bool fromXla) {
    for (const Heuristic &heuristic : kHeuristics)
      if (heuristic.isXla == fromXla)
        portfolio.run(getReorderAlgorithmName(heuristic.algorithm),
                      [&] { return heuristic.schedule(problem); });
  };
  auto runXla = [&]() { runFamily(true); };
  auto runInductor = [&]() { runFamily(false); };

  // Single schedulers replace the program order even when worse: the user
  // asked for them by name. With the order cleared, the portfolio keeps the
  // next candidate whatever its peak (the input stays among the candidates).
  auto only = [&](const char *name,
                  const std::function<std::vector<TaskId>()> &scheduler) {
    result.order.clear();
    portfolio.run(name, scheduler);
  };
  // The exact search from the best order so far, recorded as a candidate.
  auto runExact = [&](double seconds, int64_t maxStates) {
    ExactOptions exact;
    exact.maxStates = maxStates;
    exact.timeLimitSeconds = seconds;
    exact.upperBoundOrder = result.order;
    auto begin = std::chrono::steady_clock::now();
    ExactResult solved = solveExact(problem, exact);
    result.statesVisited += solved.statesVisited;
    result.lowerBoundTransientBytes = std::max(result.lowerBoundTransientBytes,
                                               solved.lowerBoundTransientBytes);
    // Within its limits the search returns its best order, never worse than
    // the bound it started from.
    portfolio.add(solved.isOptimal ? "exact" : "exact-partial", solved.order,
                  secondsSince(begin));
    if (solved.isOptimal) {
      result.isOptimal = true;
      result.chosenAlgorithm = "exact";
    }
    return solved;
  };

  switch (options.algorithm) {
  case ReorderAlgorithm::Program:
    return finish();
  case ReorderAlgorithm::Liu:
  case ReorderAlgorithm::LiuPostorder: {
    result.order.clear();
    if (!runTree(options.algorithm)) {
      setError(error, std::string("algorithm '") +
                          getReorderAlgorithmName(options.algorithm) +
                          "' needs an in-tree or out-tree: every buffer "
                          "used by one task or by a task and its only "
                          "successor (or predecessor)");
      return std::nullopt;
    }
    return finish();
  }
  case ReorderAlgorithm::Postorder:
  case ReorderAlgorithm::XlaList:
  case ReorderAlgorithm::XlaDfs:
  case ReorderAlgorithm::InductorLpmf:
  case ReorderAlgorithm::InductorBfs:
  case ReorderAlgorithm::InductorDfs:
    for (const Heuristic &heuristic : kHeuristics)
      if (heuristic.algorithm == options.algorithm)
        only(getReorderAlgorithmName(heuristic.algorithm),
             [&] { return heuristic.schedule(problem); });
    return finish();
  case ReorderAlgorithm::XlaBest:
    // XLA picks among its own three, not against the input order.
    result.order.clear();
    runXla();
    return finish();
  case ReorderAlgorithm::InductorBest:
    runInductor();
    return finish();
  case ReorderAlgorithm::Exact: {
    if (modelsWrites) {
      setError(error, "algorithm 'exact' does not model in-place writes");
      return std::nullopt;
    }
    int32_t largest = largestComponent(problem, program);
    if (largest > options.exactMaxTasks) {
      setError(error,
               "algorithm 'exact' handles parts of at most " +
                   std::to_string(options.exactMaxTasks) +
                   " tasks between cut tasks, but this problem has a part "
                   "of " +
                   std::to_string(largest) + " tasks (use 'auto')");
      return std::nullopt;
    }
    runXla();
    runInductor();
    ExactResult solved = runExact(
        deadline.isEnabled() ? std::max(deadline.secondsLeft(), 1e-9) : 0.0,
        options.exactMaxStates);
    if (!solved.isOptimal) {
      setError(error, "exact search did not finish: " + solved.limitReason);
      return std::nullopt;
    }
    return finish();
  }
  case ReorderAlgorithm::Auto:
    break;
  }

  if (modelsWrites) {
    // The tree algorithms' orders as candidates, never as proven optima.
    std::optional<std::vector<TaskId>> tree = scheduleLiuOptimal(problem);
    if (tree)
      portfolio.add("liu", std::move(*tree), 0.0);
  } else if (runTree(ReorderAlgorithm::Liu)) {
    return finish();
  }
  runXla();
  runInductor();
  if (!modelsWrites &&
      result.peakTransientBytes <= result.lowerBoundTransientBytes) {
    result.isOptimal = true;
    return finish();
  }
  auto runWindows = [&](double seconds) {
    WindowSearchOptions windows;
    windows.maxStates = options.windowMaxStates;
    windows.timeLimitSeconds = seconds;
    auto begin = std::chrono::steady_clock::now();
    std::string base = result.chosenAlgorithm;
    std::vector<TaskId> improved =
        improveByWindows(problem, result.order, windows, &result.statesVisited);
    portfolio.add("windows(" + base + ")", std::move(improved),
                  secondsSince(begin));
  };
  // Whole makings moved off the peak, beyond the windows' reach.
  auto runHoisting = [&]() {
    auto begin = std::chrono::steady_clock::now();
    std::string base = result.chosenAlgorithm;
    portfolio.add("hoist(" + base + ")",
                  improveByHoisting(problem, result.order),
                  secondsSince(begin));
  };
  // The work limits decide the order; a wall-clock limit, if any, is split
  // as before (a fifth to the windows when the exact search follows). The
  // searches read 0 as no limit, so a passed deadline leaves them a tick.
  auto seconds = [&](double share) {
    return deadline.isEnabled() ? std::max(deadline.secondsLeft() * share, 1e-9)
                                : 0.0;
  };
  int32_t largest = modelsWrites ? 0 : largestComponent(problem, result.order);
  if (!modelsWrites && largest <= options.exactMaxTasks) {
    // The windowed search is cheap on small graphs and tightens the upper
    // bound, which is what prunes the exact search.
    runWindows(seconds(0.2));
    runHoisting();
    ExactResult solved = runExact(seconds(0.6), options.exactMaxStates);
    // Where the exact search could not finish a large part, searches of
    // coarsened problems, from its best order, with up to a quarter of its
    // work each: the coarsest often finishes where the exact search cannot.
    if (!solved.isOptimal && largest > kCoarsenAbove) {
      auto begin = std::chrono::steady_clock::now();
      std::vector<TaskId> best = result.order;
      for (double excess : {1.0, 1.0 / 32}) {
        ExactOptions exact;
        exact.maxStates = options.exactMaxStates / 4;
        exact.timeLimitSeconds = seconds(0.5);
        exact.upperBoundOrder = best;
        exact.coarsenExcess = excess;
        ExactResult coarse = solveExact(problem, exact);
        result.statesVisited += coarse.statesVisited;
        // Never worse than the order it started from.
        best = std::move(coarse.order);
      }
      portfolio.add("exact-coarse", std::move(best), secondsSince(begin));
    }
    return finish();
  }
  if (!deadline.expired())
    runWindows(seconds(1.0));
  runHoisting();
  return finish();
}
