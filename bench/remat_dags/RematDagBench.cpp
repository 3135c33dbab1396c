//===- RematDagBench.cpp - memsched-remat's planner on general DAGs -------===//
//
// memsched-remat-dag-bench prints three Markdown tables:
//
//  (a) the planner memsched-remat uses (greedy, chen, sequential, auto)
//      against the exact optimum of Checkmate's ILP (CBC) on small DAGs:
//      synthetic training steps (a forward chain with skip connections, a
//      loss, activation and weight gradients) and random DAGs, at budgets of
//      0.5 .. 0.9 of the peak without recomputation. "extra" is the modelled
//      recomputation time (the ILP's total time minus one run of every node);
//      the ratio is ours over the ILP's where both meet the budget and the
//      ILP proved optimality. Both work in the same (topological) node order
//      and the same memory model: the node graph becomes a Problem through
//      expandSequence() and every plan is re-simulated;
//  (b) at equal peak, the extra time of Chen et al.'s sqrt(n) segments and
//      of checkpoint_sequential against the greedy run at the peak they
//      reach, on training steps of 16 .. 512 layers (chains and two-branch
//      layers);
//  (c) solve time of planRemat on training steps of about 1k and 10k tasks
//      at 0.7x and 0.5x;
//  (d) with --graph FILE, one external node graph (bench/moccasin_graphs.py
//      writes MOCCASIN's published graphs in this form) at budgets given as
//      fractions of its peak in the given order: auto's extra time as a
//      share of one run of every node (MOCCASIN's "TDI"), with the ILP under
//      a time limit beside it when --graph-ilp is given;
//  (e) DAGs of 25-200 nodes (training steps and random DAGs) at 0.9 .. 0.7
//      of the peak: auto against Checkmate's ILP started from auto's plan
//      under --ilp-seconds, with the bound CBC proves and its gap (not in
//      the default sections: up to 2 x 24 x the limit).
//
// Nothing is hard-coded: every figure comes from a solve and a simulation.
// Flags: --seed N, --ilp-seconds S (time limit per ILP solve of the
// baseline), --auto-ilp-nodes N (RematOptions::ilpMaxNodes of auto), --quick
// (smaller graphs only), --sections abce (which tables), --graph FILE
// --fractions F,F,.. --graph-ilp (table d only), --max-evaluations N and
// --local-search-work N (RematOptions of every plan).
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/CheckmateIlp.h"
#include "memsched/Scheduling/Footprint.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/Oracles/Generators.h"
#include "memsched/Scheduling/Remat.h"
#include "memsched/Scheduling/RematGraph.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir::memsched::scheduling;

namespace {

struct NamedGraph {
  std::string name;
  RematGraph graph;
};

/// A training step of \p layers layers in the node model: forward
/// activations f_i (f_i reads f_{i-1} and, with probability 1/3, f_{i-2}: a
/// skip connection), a loss, then per layer from the last an activation
/// gradient g_i (reads g_{i+1}, f_i and f_{i-1}) and a small weight
/// gradient w_i kept to the end (reads g_i and f_{i-1}). Sizes 4..16,
/// forward durations 1..5, backward twice the forward.
RematGraph makeTrainingGraph(int layers, std::mt19937 &rng) {
  RematGraph graph;
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(rng);
  };
  std::vector<NodeId> forward;
  std::vector<double> forwardTime;
  for (int i = 0; i < layers; ++i) {
    std::vector<NodeId> inputs;
    if (i > 0)
      inputs.push_back(forward[i - 1]);
    if (i > 1 && uniform(0, 2) == 0)
      inputs.push_back(forward[i - 2]);
    double time = uniform(1, 5);
    forwardTime.push_back(time);
    forward.push_back(static_cast<NodeId>(graph.nodes.size()));
    graph.nodes.push_back(
        makeRematNode("f" + std::to_string(i), uniform(4, 16), time, inputs));
  }
  NodeId upstream = static_cast<NodeId>(graph.nodes.size());
  graph.nodes.push_back(makeRematNode("loss", 1, 1, {forward.back()}));
  for (int i = layers - 1; i >= 0; --i) {
    std::vector<NodeId> inputs{upstream, forward[i]};
    if (i > 0)
      inputs.push_back(forward[i - 1]);
    NodeId gradient = static_cast<NodeId>(graph.nodes.size());
    graph.nodes.push_back(makeRematNode("g" + std::to_string(i), uniform(4, 16),
                                        2 * forwardTime[i], inputs));
    std::vector<NodeId> weightInputs{gradient};
    if (i > 0)
      weightInputs.push_back(forward[i - 1]);
    graph.nodes.push_back(makeRematNode("w" + std::to_string(i), uniform(1, 3),
                                        forwardTime[i], weightInputs,
                                        /*keepToEnd=*/true));
    upstream = gradient;
  }
  return graph;
}

/// A random DAG: every node but the first reads one to three earlier
/// nodes, sizes 1..10, durations 1..5, a third of the sinks kept to the end.
RematGraph makeRandomGraph(size_t numNodes, std::mt19937 &rng) {
  RematGraph graph;
  std::vector<bool> hasReader(numNodes, false);
  for (size_t v = 0; v < numNodes; ++v) {
    std::vector<NodeId> inputs;
    if (v > 0) {
      int numInputs = std::uniform_int_distribution<int>(1, 3)(rng);
      for (int k = 0; k < numInputs; ++k) {
        NodeId input = std::uniform_int_distribution<NodeId>(
            0, static_cast<NodeId>(v) - 1)(rng);
        if (std::find(inputs.begin(), inputs.end(), input) == inputs.end())
          inputs.push_back(input);
        hasReader[input] = true;
      }
    }
    graph.nodes.push_back(
        makeRematNode("n" + std::to_string(v),
                      std::uniform_int_distribution<int64_t>(1, 10)(rng),
                      std::uniform_int_distribution<int>(1, 5)(rng), inputs));
  }
  for (size_t v = 0; v < numNodes; ++v)
    if (!hasReader[v])
      graph.nodes[v].keepToEnd =
          std::uniform_int_distribution<int>(0, 2)(rng) == 0;
  return graph;
}

/// \p named's graph as a Problem in its own order, and the cost of that
/// order (its peak without recomputation); exits on an invalid graph.
std::pair<ExpandedSequence, SequenceCost>
expandInOrder(const NamedGraph &named) {
  std::string error;
  std::optional<ExpandedSequence> expanded =
      expandSequence(named.graph, identitySequence(named.graph), &error);
  std::optional<SequenceCost> storeAll =
      simulateSequence(named.graph, identitySequence(named.graph), &error);
  if (!expanded || !storeAll) {
    std::fprintf(stderr, "%s: %s\n", named.name.c_str(), error.c_str());
    std::exit(1);
  }
  return {std::move(*expanded), *storeAll};
}

/// RematOptions::ilpMaxNodes of auto's ILP phase, or -1 for the default.
int64_t autoIlpNodes = -1;
/// RematOptions::maxEvaluations and localSearchWork, or -1 for the default.
int64_t maxEvaluations = -1;
int64_t localSearchWork = -1;
/// RematOptions::ilpMaxTasks of "auto + ILP phase": every graph here.
constexpr int64_t kIlpPhaseTasks = 40;

/// planRemat on \p problem (checked by re-expansion and simulation).
std::optional<RematPlan> plan(const Problem &problem, RematAlgorithm algorithm,
                              int64_t budget, double timeLimit = 10.0,
                              int64_t segments = 0,
                              bool singleRecompute = false,
                              int64_t ilpMaxTasks = 0) {
  RematOptions options;
  options.ilpMaxTasks = ilpMaxTasks;
  options.singleRecompute = singleRecompute;
  options.algorithm = algorithm;
  options.budgetTransientBytes = budget;
  options.timeLimitSeconds = timeLimit;
  options.segments = segments;
  if (autoIlpNodes >= 0)
    options.ilpMaxNodes = autoIlpNodes;
  if (maxEvaluations >= 0)
    options.maxEvaluations = maxEvaluations;
  if (localSearchWork >= 0)
    options.localSearchWork = localSearchWork;
  std::string error;
  std::optional<RematPlan> result = planRemat(problem, options, &error);
  if (!result) {
    std::fprintf(stderr, "planRemat failed: %s\n", error.c_str());
    std::exit(1);
  }
  std::optional<RematExpansion> expansion =
      expandRematPlan(problem, *result, &error);
  std::optional<MemoryProfile> profile =
      expansion ? simulateMemory(expansion->problem, expansion->order, &error)
                : std::nullopt;
  if (!profile || profile->peakTransientBytes != result->peakTransientAfter) {
    std::fprintf(stderr, "a plan does not replay: %s\n", error.c_str());
    std::exit(1);
  }
  return result;
}

std::string extraOf(const RematPlan &plan) {
  if (!plan.withinBudget)
    return "not met";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.0f", plan.recomputeSeconds);
  return buffer;
}

/// The geometric mean of \p values (0 when empty).
double geometricMean(const std::vector<double> &values) {
  double logSum = 0;
  for (double value : values)
    logSum += std::log(value);
  return values.empty() ? 0.0 : std::exp(logSum / values.size());
}

/// The comparison of one variant of auto with the ILP over table (a).
struct AgainstIlp {
  int bothMet = 0, ilpOnly = 0, exactMatches = 0;
  std::vector<double> ratios, seconds;

  /// Counts \p plan at a budget the ILP solved with \p ilpExtra; returns
  /// the ratio cell.
  std::string add(const RematPlan &plan, const CheckmateResult &ilp,
                  double ilpExtra) {
    seconds.push_back(plan.solveSeconds);
    if (ilp.status != IlpStatus::Optimal)
      return "";
    if (!plan.withinBudget) {
      ++ilpOnly;
      return "";
    }
    ++bothMet;
    if (std::fabs(plan.recomputeSeconds - ilpExtra) < 1e-9)
      ++exactMatches;
    if (ilpExtra <= 0)
      return plan.recomputeSeconds == 0 ? "1 (both 0)" : "inf";
    double r = plan.recomputeSeconds / ilpExtra;
    ratios.push_back(r);
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.2f", r);
    return buffer;
  }

  void print(const char *name) {
    std::sort(ratios.begin(), ratios.end());
    std::sort(seconds.begin(), seconds.end());
    std::printf("%s: of the budgets the ILP proved feasible and optimal, %d "
                "met (%d at exactly the ILP's extra time), %d missed; extra "
                "time / ILP's over the %zu met with a positive optimum: "
                "geometric mean %.3f, median %.3f, max %.3f. Solve time per "
                "budget: median %.2f s, max %.2f s (one core).\n\n",
                name, bothMet, exactMatches, ilpOnly, ratios.size(),
                geometricMean(ratios),
                ratios.empty() ? 0.0 : ratios[ratios.size() / 2],
                ratios.empty() ? 0.0 : ratios.back(),
                seconds.empty() ? 0.0 : seconds[seconds.size() / 2],
                seconds.empty() ? 0.0 : seconds.back());
  }
};

void printIlpComparison(const std::vector<NamedGraph> &graphs,
                        double ilpSeconds) {
  std::printf("## (a) memsched-remat's planner against the exact ILP\n\n");
  std::printf(
      "| graph | nodes | budget | ILP | ILP extra | ILP (s) | greedy "
      "| chen | sequential | auto (one recompute) | auto | auto / ILP "
      "| auto + ILP phase | auto + ILP phase / ILP | its plan | its time (s) "
      "|\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
              "---|\n");
  AgainstIlp autoStats, phaseStats;
  int oneGapMet = 0;
  std::vector<double> oneGapRatios;
  for (const NamedGraph &named : graphs) {
    const RematGraph &graph = named.graph;
    std::string error;
    auto [expanded, storeAll] = expandInOrder(named);
    double base = graph.sumOfDurations();
    for (double fraction : {0.95, 0.9, 0.85, 0.8, 0.75, 0.7}) {
      int64_t budget =
          static_cast<int64_t>(std::floor(fraction * storeAll.peakBytes));
      CheckmateOptions options;
      options.timeLimitSeconds = ilpSeconds;
      std::optional<CheckmateResult> ilp =
          solveCheckmateIlp(graph, budget, options, &error);
      if (!ilp) {
        std::fprintf(stderr, "ILP failed: %s\n", error.c_str());
        std::exit(1);
      }
      bool ilpMet = ilp->status == IlpStatus::Optimal ||
                    ilp->status == IlpStatus::Feasible;
      double ilpExtra = ilpMet ? ilp->cost.time - base : 0;
      RematPlan greedy =
          *plan(expanded.problem, RematAlgorithm::Greedy, budget);
      RematPlan chen = *plan(expanded.problem, RematAlgorithm::Chen, budget);
      RematPlan sequential =
          *plan(expanded.problem, RematAlgorithm::Sequential, budget);
      RematPlan best = *plan(expanded.problem, RematAlgorithm::Auto, budget);
      RematPlan withIlp =
          *plan(expanded.problem, RematAlgorithm::Auto, budget, 10.0, 0,
                /*singleRecompute=*/false, kIlpPhaseTasks);
      RematPlan oneGap = *plan(expanded.problem, RematAlgorithm::Auto, budget,
                               10.0, 0, /*singleRecompute=*/true);
      if (oneGap.withinBudget) {
        ++oneGapMet;
        if (ilp->status == IlpStatus::Optimal && ilpExtra > 0)
          oneGapRatios.push_back(oneGap.recomputeSeconds / ilpExtra);
      }
      std::string ratio = autoStats.add(best, *ilp, ilpExtra);
      std::string phaseRatio = phaseStats.add(withIlp, *ilp, ilpExtra);
      std::printf(
          "| %s | %zu | %.2fx (%lld B) | %s | %s | %.2f | %s | %s | "
          "%s | %s | %s | %s | %s | %s | %s | %.2f |\n",
          named.name.c_str(), graph.nodes.size(), fraction,
          static_cast<long long>(budget), stringifyIlpStatus(ilp->status),
          ilpMet ? std::to_string(static_cast<int64_t>(ilpExtra)).c_str() : "",
          ilp->solveSeconds, extraOf(greedy).c_str(), extraOf(chen).c_str(),
          extraOf(sequential).c_str(), extraOf(oneGap).c_str(),
          extraOf(best).c_str(), ratio.c_str(), extraOf(withIlp).c_str(),
          phaseRatio.c_str(),
          withIlp.withinBudget ? withIlp.algorithm.c_str() : "",
          withIlp.solveSeconds);
      std::fflush(stdout);
    }
  }
  std::printf("\nauto in the earlier plan space (one recomputation per value, "
              "made at the first late reader): "
              "%d budgets met, extra time / ILP's over the %zu it meets "
              "where the ILP proved a positive optimum: geometric mean "
              "%.3f.\n\n",
              oneGapMet, oneGapRatios.size(), geometricMean(oneGapRatios));
  autoStats.print("auto (default options)");
  phaseStats.print("auto with the ILP phase (RematOptions::ilpMaxTasks = 40)");
}

/// Table (b). Both baselines run with k = round(sqrt(layers)) segments (n =
/// the layer count: a chain has one path activation per layer), then the
/// greedy is asked for the peak the baseline reached.
void printEqualPeak() {
  std::printf("## (b) At equal peak: sqrt(n) segments and "
              "checkpoint_sequential against the greedy\n\n");
  std::printf("| training step | tasks | baseline | baseline peak / "
              "no-remat | baseline extra (us) | greedy extra at that peak "
              "(us) | baseline / greedy | greedy solve (s) |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (int branches : {1, 2})
    for (int layers : {16, 64, 256, 512}) {
      Problem problem = makeTrainingStep(layers, branches, 7);
      RematPlan none = *plan(problem, RematAlgorithm::Greedy, INT64_MAX / 4);
      int64_t peak = none.peakTransientBefore;
      int64_t k = std::max<int64_t>(1, std::llround(std::sqrt(double(layers))));
      struct Baseline {
        const char *name;
        RematAlgorithm algorithm;
      };
      for (Baseline baseline :
           {Baseline{"chen sqrt(n)", RematAlgorithm::Chen},
            Baseline{"sequential", RematAlgorithm::Sequential}}) {
        // Run the baseline with a budget of zero: its single segment
        // count's plan comes back with its own peak.
        RematPlan fixed = *plan(problem, baseline.algorithm, 0, 10.0, k);
        RematPlan greedy = *plan(problem, RematAlgorithm::Greedy,
                                 fixed.peakTransientAfter, 60.0);
        char ratio[32] = "";
        if (greedy.withinBudget && greedy.recomputeSeconds > 0)
          std::snprintf(ratio, sizeof(ratio), "%.2f",
                        fixed.recomputeSeconds / greedy.recomputeSeconds);
        char greedyExtra[32] = "not met";
        if (greedy.withinBudget)
          std::snprintf(greedyExtra, sizeof(greedyExtra), "%.3g",
                        greedy.recomputeSeconds * 1e6);
        std::printf("| %d layers x %d | %zu | %s (k = %lld) | %.3f | %.3g | "
                    "%s | %s | %.2f |\n",
                    layers, branches, problem.numTasks(), baseline.name,
                    static_cast<long long>(k),
                    double(fixed.peakTransientAfter) / double(peak),
                    fixed.recomputeSeconds * 1e6, greedyExtra, ratio,
                    greedy.solveSeconds);
        std::fflush(stdout);
      }
    }
  std::printf("\n");
}

void printSolveTimes(bool quick) {
  std::printf("## (c) Solve time of planRemat\n\n");
  std::printf("| training step | tasks | candidates | budget | algorithm | "
              "met | recompute / step | evaluations | solve (s) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  std::vector<std::pair<int, int>> shapes = {{100, 2}, {330, 2}};
  if (!quick)
    shapes.push_back({1000, 2});
  for (auto [layers, branches] : shapes) {
    Problem problem = makeTrainingStep(layers, branches, 11);
    double step = 0;
    for (size_t t = 0; t < problem.numTasks(); ++t)
      step += problem.task(static_cast<TaskId>(t)).duration;
    RematPlan none = *plan(problem, RematAlgorithm::Greedy, INT64_MAX / 4);
    for (double fraction : {0.7, 0.5})
      for (RematAlgorithm algorithm :
           {RematAlgorithm::Greedy, RematAlgorithm::Chen,
            RematAlgorithm::Auto}) {
        int64_t budget = static_cast<int64_t>(
            fraction * static_cast<double>(none.peakTransientBefore));
        RematPlan result = *plan(problem, algorithm, budget, 60.0);
        std::printf(
            "| %d layers x %d | %zu | %lld | %.1fx | %s | %s | %.4f | "
            "%lld | %.3f |\n",
            layers, branches, problem.numTasks(),
            static_cast<long long>(result.numCandidates), fraction,
            getRematAlgorithmName(algorithm),
            result.withinBudget ? "yes" : "no", result.recomputeSeconds / step,
            static_cast<long long>(result.numEvaluations), result.solveSeconds);
        std::fflush(stdout);
      }
  }
  std::printf("\n");
}

/// What a warm-started ILP solve of table (e) returns through its pipe.
struct LargeIlpOutcome {
  IlpStatus status = IlpStatus::Unknown;
  double time = 0, lowerBound = 0, seconds = 0;
};

/// solveCheckmateIlp in a child process killed after \p wallSeconds: CBC's
/// time limit is not checked while it solves the root LP or generates cuts,
/// which on 100-node graphs can take many minutes. std::nullopt when the
/// child was killed or failed.
std::optional<LargeIlpOutcome>
solveIlpWithDeadline(const RematGraph &graph, int64_t budget,
                     const CheckmateOptions &options, double wallSeconds) {
  int fds[2];
  if (pipe(fds) != 0)
    return std::nullopt;
  std::fflush(stdout);
  pid_t child = fork();
  if (child < 0)
    return std::nullopt;
  if (child == 0) {
    close(fds[0]);
    LargeIlpOutcome outcome;
    std::string error;
    if (std::optional<CheckmateResult> result =
            solveCheckmateIlp(graph, budget, options, &error)) {
      outcome.status = result->status;
      outcome.time = result->cost.time;
      outcome.lowerBound = result->lowerBound;
      outcome.seconds = result->solveSeconds;
      if (write(fds[1], &outcome, sizeof(outcome)) != sizeof(outcome))
        _exit(1);
    }
    _exit(0);
  }
  close(fds[1]);
  auto begin = std::chrono::steady_clock::now();
  int status = 0;
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
            .count() > wallSeconds) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      close(fds[0]);
      return std::nullopt;
    }
    usleep(100'000);
  }
  LargeIlpOutcome outcome;
  bool received = read(fds[0], &outcome, sizeof(outcome)) == sizeof(outcome);
  close(fds[0]);
  if (!received)
    return std::nullopt;
  return outcome;
}

/// Table (e): DAGs of 25-200 nodes, where the ILP rarely proves optimality.
/// CBC starts from auto's plan and runs under \p ilpSeconds; what it returns
/// bounds how far auto is from the optimum: auto / the ILP's bound is an
/// upper bound on auto's ratio to the optimal extra time.
void printLargeIlpComparison(std::mt19937 &rng, double ilpSeconds) {
  std::printf("## (e) DAGs of 25-200 nodes: auto against the ILP under a "
              "time limit of %.0f s, started from auto's plan\n\n",
              ilpSeconds);
  std::printf("| graph | nodes | budget | auto extra | auto (s) | ILP | ILP "
              "extra | ILP bound on extra | gap %% | ILP (s) | auto / ILP "
              "bound |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::vector<NamedGraph> graphs;
  for (int layers : {8, 16, 33, 66})
    graphs.push_back({"training, " + std::to_string(layers) + " layers",
                      makeTrainingGraph(layers, rng)});
  for (size_t n : {25, 50, 100, 200})
    graphs.push_back({"random", makeRandomGraph(n, rng)});
  int proven = 0, improved = 0, rows = 0, autoMissed = 0;
  std::vector<double> boundRatios;
  for (const NamedGraph &named : graphs) {
    const RematGraph &graph = named.graph;
    auto [expanded, storeAll] = expandInOrder(named);
    double base = graph.sumOfDurations();
    for (double fraction : {0.9, 0.8, 0.7}) {
      ++rows;
      int64_t budget =
          static_cast<int64_t>(std::floor(fraction * storeAll.peakBytes));
      RematPlan best =
          *plan(expanded.problem, RematAlgorithm::Auto, budget, 60.0);
      CheckmateOptions options;
      options.timeLimitSeconds = ilpSeconds;
      options.maxNodes = 0;
      if (best.withinBudget) {
        RematExpansion expansion = *expandRematPlan(expanded.problem, best);
        std::vector<NodeId> sequence;
        for (TaskId task : expansion.order)
          sequence.push_back(expanded.nodeOf[expansion.originOf[task]]);
        options.startSequences.push_back(std::move(sequence));
      } else {
        ++autoMissed;
      }
      std::optional<LargeIlpOutcome> ilp =
          solveIlpWithDeadline(graph, budget, options, 2 * ilpSeconds + 30);
      std::string status = "no answer (killed)", extra, bound, gap, seconds,
                  ratio;
      char buffer[64];
      if (ilp) {
        status = stringifyIlpStatus(ilp->status);
        std::snprintf(buffer, sizeof(buffer), "%.1f", ilp->seconds);
        seconds = buffer;
        bool hasSolution = ilp->status == IlpStatus::Optimal ||
                           ilp->status == IlpStatus::Feasible;
        double boundExtra = std::max(0.0, ilp->lowerBound - base);
        if (ilp->status == IlpStatus::Optimal)
          ++proven;
        if (hasSolution) {
          std::snprintf(buffer, sizeof(buffer), "%.0f", ilp->time - base);
          extra = buffer;
          if (best.withinBudget &&
              ilp->time - base < best.recomputeSeconds - 1e-9)
            ++improved;
          if (ilp->time - base > 0) {
            std::snprintf(buffer, sizeof(buffer), "%.1f",
                          100.0 * (ilp->time - base - boundExtra) /
                              (ilp->time - base));
            gap = buffer;
          }
        }
        if (ilp->status != IlpStatus::Infeasible) {
          std::snprintf(buffer, sizeof(buffer), "%.1f", boundExtra);
          bound = buffer;
          if (best.withinBudget && boundExtra > 0) {
            boundRatios.push_back(best.recomputeSeconds / boundExtra);
            std::snprintf(buffer, sizeof(buffer), "%.2f",
                          best.recomputeSeconds / boundExtra);
            ratio = buffer;
          } else if (best.withinBudget && best.recomputeSeconds == 0) {
            ratio = "1 (both 0)";
          }
        }
      }
      std::printf("| %s | %zu | %.2fx (%lld B) | %s | %.2f | %s | %s | %s | "
                  "%s | %s | %s |\n",
                  named.name.c_str(), graph.nodes.size(), fraction,
                  static_cast<long long>(budget), extraOf(best).c_str(),
                  best.solveSeconds, status.c_str(), extra.c_str(),
                  bound.c_str(), gap.c_str(), seconds.c_str(), ratio.c_str());
    }
  }
  std::printf("\n%d budgets: the ILP proved %d optimal and improved on "
              "auto's plan in %d; auto missed %d. auto / the ILP's bound "
              "(an upper bound on auto / optimum) over the %zu with a "
              "positive bound: geometric mean %.3f, max %.3f.\n\n",
              rows, proven, improved, autoMissed, boundRatios.size(),
              geometricMean(boundRatios),
              boundRatios.empty()
                  ? 0.0
                  : *std::max_element(boundRatios.begin(), boundRatios.end()));
}

/// Reads a node graph written one node per line, nodes in run order:
/// "<bytes> <duration> <number of inputs> <input index>...", inputs earlier.
std::optional<RematGraph> readGraphFile(const std::string &path,
                                        std::string *error) {
  FILE *file = std::fopen(path.c_str(), "r");
  if (!file) {
    *error = "cannot open " + path;
    return std::nullopt;
  }
  RematGraph graph;
  long long bytes = 0, numInputs = 0;
  double duration = 0;
  while (std::fscanf(file, "%lld %lf %lld", &bytes, &duration, &numInputs) ==
         3) {
    std::vector<NodeId> inputs;
    for (long long k = 0; k < numInputs; ++k) {
      long long input = -1;
      if (std::fscanf(file, "%lld", &input) != 1)
        break;
      inputs.push_back(static_cast<NodeId>(input));
    }
    graph.nodes.push_back(makeRematNode(
        "n" + std::to_string(graph.nodes.size()), bytes, duration, inputs));
  }
  std::fclose(file);
  if (graph.nodes.empty()) {
    *error = path + " has no nodes";
    return std::nullopt;
  }
  if (!graph.verify(error))
    return std::nullopt;
  return graph;
}

/// Table (d): auto (and optionally the ILP under a time limit) on one
/// external graph at budgets ceil(fraction x the peak of its order), as
/// MOCCASIN sets them. The floor is computeFootprintFloor()'s: the largest
/// working set of one node (its inputs and its output).
void printExternalGraph(const std::string &path,
                        const std::vector<double> &fractions, bool withIlp,
                        double ilpSeconds) {
  std::string error;
  std::optional<RematGraph> graph = readGraphFile(path, &error);
  std::optional<ExpandedSequence> expanded =
      graph ? expandSequence(*graph, identitySequence(*graph), &error)
            : std::nullopt;
  std::optional<SequenceCost> storeAll =
      graph ? simulateSequence(*graph, identitySequence(*graph), &error)
            : std::nullopt;
  if (!expanded || !storeAll) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
    std::exit(1);
  }
  int64_t floor = computeFootprintFloor(expanded->problem).bytes();
  size_t edges = 0;
  for (const RematNode &node : graph->nodes)
    edges += node.inputs.size();
  double base = graph->sumOfDurations();
  std::printf("## (d) %s: %zu nodes, %zu edges, peak in its order %lld, "
              "floor %lld (%.3fx), one run of every node %.0f\n\n",
              path.c_str(), graph->nodes.size(), edges,
              static_cast<long long>(storeAll->peakBytes),
              static_cast<long long>(floor),
              double(floor) / double(storeAll->peakBytes), base);
  std::printf("| fraction | budget | auto met | auto peak | auto extra | auto "
              "TDI %% | smallest / peak | plan | solve (s) | ILP | ILP TDI "
              "%% | ILP bound TDI %% | ILP (s) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (double fraction : fractions) {
    int64_t budget =
        static_cast<int64_t>(std::ceil(fraction * double(storeAll->peakBytes)));
    RematPlan best =
        *plan(expanded->problem, RematAlgorithm::Auto, budget, 600.0);
    char autoTdi[32] = "";
    if (best.withinBudget)
      std::snprintf(autoTdi, sizeof(autoTdi), "%.2f",
                    100.0 * best.recomputeSeconds / base);
    std::string ilpStatus, ilpTdi, ilpBound, ilpTime;
    if (withIlp) {
      CheckmateOptions options;
      options.timeLimitSeconds = ilpSeconds;
      std::optional<CheckmateResult> ilp =
          solveCheckmateIlp(*graph, budget, options, &error);
      if (!ilp) {
        std::fprintf(stderr, "ILP failed: %s\n", error.c_str());
        std::exit(1);
      }
      char buffer[64];
      ilpStatus = stringifyIlpStatus(ilp->status);
      if (ilp->status == IlpStatus::Optimal ||
          ilp->status == IlpStatus::Feasible) {
        std::snprintf(buffer, sizeof(buffer), "%.2f",
                      100.0 * (ilp->cost.time - base) / base);
        ilpTdi = buffer;
      }
      if (ilp->lowerBound > 0) {
        std::snprintf(buffer, sizeof(buffer), "%.2f",
                      100.0 * std::max(0.0, ilp->lowerBound - base) / base);
        ilpBound = buffer;
      }
      std::snprintf(buffer, sizeof(buffer), "%.1f", ilp->solveSeconds);
      ilpTime = buffer;
    }
    std::printf(
        "| %.2f | %lld | %s | %lld | %s | %s | %.3f | %s | %.2f | %s "
        "| %s | %s | %s |\n",
        fraction, static_cast<long long>(budget),
        best.withinBudget ? "yes" : "no",
        static_cast<long long>(best.peakTransientAfter), extraOf(best).c_str(),
        autoTdi,
        double(best.smallestPeakTransient) / double(storeAll->peakBytes),
        best.withinBudget ? best.algorithm.c_str() : "", best.solveSeconds,
        ilpStatus.c_str(), ilpTdi.c_str(), ilpBound.c_str(), ilpTime.c_str());
    std::fflush(stdout);
  }
  std::printf("\n");
}
} // namespace

int main(int argc, char **argv) {
  uint64_t seed = 2024;
  double ilpSeconds = 20.0;
  bool quick = false;
  std::string sections = "abc";
  std::string graphPath;
  std::vector<double> fractions = {0.9, 0.8};
  bool graphIlp = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (!std::strcmp(argv[i], "--ilp-seconds") && i + 1 < argc) {
      ilpSeconds = std::strtod(argv[++i], nullptr);
    } else if (!std::strcmp(argv[i], "--auto-ilp-nodes") && i + 1 < argc) {
      autoIlpNodes = std::strtoll(argv[++i], nullptr, 10);
    } else if (!std::strcmp(argv[i], "--sections") && i + 1 < argc) {
      sections = argv[++i];
    } else if (!std::strcmp(argv[i], "--graph") && i + 1 < argc) {
      graphPath = argv[++i];
    } else if (!std::strcmp(argv[i], "--fractions") && i + 1 < argc) {
      fractions.clear();
      for (char *item = std::strtok(argv[++i], ","); item;
           item = std::strtok(nullptr, ","))
        fractions.push_back(std::strtod(item, nullptr));
    } else if (!std::strcmp(argv[i], "--max-evaluations") && i + 1 < argc) {
      maxEvaluations = std::strtoll(argv[++i], nullptr, 10);
    } else if (!std::strcmp(argv[i], "--local-search-work") && i + 1 < argc) {
      localSearchWork = std::strtoll(argv[++i], nullptr, 10);
    } else if (!std::strcmp(argv[i], "--graph-ilp")) {
      graphIlp = true;
    } else if (!std::strcmp(argv[i], "--quick")) {
      quick = true;
    } else {
      std::fprintf(
          stderr,
          "usage: %s [--seed N] [--ilp-seconds S] [--auto-ilp-nodes N] "
          "[--max-evaluations N] [--local-search-work N] [--quick] [--sections "
          "abce] [--graph FILE "
          "[--fractions F,F,..] [--graph-ilp]]\n",
          argv[0]);
      return 2;
    }
  }
  if (!graphPath.empty()) {
    printExternalGraph(graphPath, fractions, graphIlp, ilpSeconds);
    return 0;
  }
  std::mt19937 rng(static_cast<std::mt19937::result_type>(seed));
  std::vector<NamedGraph> graphs;
  for (int layers : {4, 5, 6})
    graphs.push_back({"training, " + std::to_string(layers) + " layers",
                      makeTrainingGraph(layers, rng)});
  for (size_t n : {12, 16, 20})
    graphs.push_back({"random", makeRandomGraph(n, rng)});
  if (!quick) {
    graphs.push_back({"training, 8 layers", makeTrainingGraph(8, rng)});
    graphs.push_back({"random", makeRandomGraph(24, rng)});
  }
  std::printf("# memsched-remat's planner on general DAGs (seed %llu)\n\n",
              static_cast<unsigned long long>(seed));
  if (sections.find('a') != std::string::npos)
    printIlpComparison(graphs, ilpSeconds);
  if (sections.find('b') != std::string::npos)
    printEqualPeak();
  if (sections.find('c') != std::string::npos)
    printSolveTimes(quick);
  if (sections.find('e') != std::string::npos)
    printLargeIlpComparison(rng, ilpSeconds);
  return 0;
}
