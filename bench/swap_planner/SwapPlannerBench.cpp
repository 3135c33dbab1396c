//===- SwapPlannerBench.cpp - Swap planner benchmark ------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// Three tables, all on the scheduling model (no IR):
//  (a) `planned` and `size-idle` against the exhaustive optimum
//      (planSwapExhaustive) on small random DAGs and training steps, at the
//      smallest budget the optimum reaches and halfway to the peak:
//      how often each meets the budget, and its makespan over the optimum's;
//  (b) the share of copy time `planned` hides on training steps whose link
//      is fast enough for the swapped volume to fit under the compute it
//      overlaps, against `everything` (vDNN) and `size-idle`;
//  (c) `planned`'s solve time on training steps of 1k to 100k tasks.
//
// Usage: memsched-swap-bench [--quick]
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Oracles/Generators.h"
#include "memsched/Scheduling/SplitMix64.h"
#include "memsched/Scheduling/Swap.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace mlir::memsched::scheduling;

namespace {

LinkSpec makeLink(double bandwidth) {
  LinkSpec link;
  link.hostToDeviceBytesPerSecond = bandwidth;
  link.deviceToHostBytesPerSecond = bandwidth;
  return link;
}

void randomizeDurations(Problem &problem, uint64_t seed) {
  SplitMix64 rng(seed);
  for (size_t t = 0; t < problem.numTasks(); ++t)
    problem.task(static_cast<TaskId>(t)).duration =
        rng.uniformReal(0.25e-6, 2e-6);
}

struct Tally {
  int cases = 0;
  int met = 0;
  double logRatioSum = 0;
  double worstRatio = 1;
  void add(const SwapPlan &plan, const SwapPlan &optimum) {
    ++cases;
    if (!plan.withinBudget)
      return;
    ++met;
    double ratio = plan.after.makespanSeconds / optimum.after.makespanSeconds;
    logRatioSum += std::log(ratio);
    worstRatio = std::max(worstRatio, ratio);
  }
  void print(const char *name) const {
    std::printf("| %s | %d of %d | %.4f | %.4f |\n", name, met, cases,
                met ? std::exp(logRatioSum / met) : 0.0, worstRatio);
  }
};

void tableAgainstExhaustive(bool quick) {
  std::printf("\n(a) Against the exhaustive optimum (every subset of up to 8 "
              "candidate gaps, every prefetch and stall position)\n\n");
  std::printf("| planner | budgets met | makespan / optimum (geo mean) | "
              "worst |\n|---|---|---|---|\n");
  Tally planned, sizeIdle;
  int seeds = quick ? 8 : 24;
  for (int seed = 1; seed <= seeds + 2; ++seed) {
    Problem problem = seed <= seeds
                          ? makeRandomDag(10, static_cast<uint64_t>(seed))
                          : makeTrainingStep(3, 1, seed - seeds);
    randomizeDurations(problem, 1000 + static_cast<uint64_t>(seed));
    std::vector<TaskId> order = problem.programOrder();
    for (double bandwidth : {3e7, 1e8, 1e9}) {
      SwapOptions options;
      options.link = makeLink(bandwidth);
      options.budgetTransientBytes = 0;
      std::optional<SwapPlan> floor =
          planSwapExhaustive(problem, order, options, 8);
      if (!floor)
        continue;
      int64_t peak = floor->before.peakTransientBytes;
      int64_t smallest = floor->smallestPeakTransient;
      if (smallest >= peak)
        continue;
      for (int64_t budget : {smallest, (smallest + peak) / 2}) {
        options.budgetTransientBytes = budget;
        std::optional<SwapPlan> optimum =
            planSwapExhaustive(problem, order, options, 8);
        if (!optimum || !optimum->withinBudget)
          continue;
        options.algorithm = SwapAlgorithm::Planned;
        planned.add(*planSwap(problem, order, options), *optimum);
        options.algorithm = SwapAlgorithm::SizeIdle;
        sizeIdle.add(*planSwap(problem, order, options), *optimum);
      }
    }
  }
  planned.print("planned");
  sizeIdle.print("size-idle");
}

void tableHidden(bool quick) {
  std::printf("\n(b) Hidden share of copy time on training steps (8 layers, "
              "2 branches, 1 MiB activations, op times 0.25-2 us), link fast "
              "enough that all of everything's copies fit under the step's "
              "compute\n\n");
  std::printf("| budget | planned: met, hidden, time | size-idle: met, "
              "hidden, time | everything: peak, hidden, time |\n"
              "|---|---|---|---|\n");
  int seeds = quick ? 2 : 6;
  for (double fraction : {0.9, 0.8, 0.7, 0.6}) {
    double hidden[3] = {0, 0, 0}, time[3] = {0, 0, 0}, peakRatio = 0;
    int met[2] = {0, 0};
    for (int seed = 1; seed <= seeds; ++seed) {
      Problem problem = makeTrainingStep(8, 2, static_cast<uint64_t>(seed));
      randomizeDurations(problem, static_cast<uint64_t>(seed));
      std::vector<TaskId> order = problem.programOrder();
      SwapOptions options;
      options.algorithm = SwapAlgorithm::Everything;
      options.link = makeLink(1e15);
      std::optional<SwapPlan> all = planSwap(problem, order, options);
      // Total copy volume over compute time: the bandwidth at which every
      // copy of `everything` fits under the step's compute.
      double bandwidth = static_cast<double>(all->after.swapBytes) /
                         all->before.computeSeconds;
      options.link = makeLink(bandwidth);
      options.budgetTransientBytes = static_cast<int64_t>(
          fraction * static_cast<double>(all->before.peakTransientBytes));
      SwapAlgorithm algorithms[] = {SwapAlgorithm::Planned,
                                    SwapAlgorithm::SizeIdle,
                                    SwapAlgorithm::Everything};
      for (int i = 0; i < 3; ++i) {
        options.algorithm = algorithms[i];
        std::optional<SwapPlan> plan = planSwap(problem, order, options);
        hidden[i] += plan->after.hiddenFraction();
        time[i] += plan->after.makespanSeconds / plan->before.makespanSeconds;
        if (i < 2)
          met[i] += plan->withinBudget;
        else
          peakRatio += double(plan->after.peakTransientBytes) /
                       double(plan->before.peakTransientBytes);
      }
    }
    std::printf("| %.1fx | %d/%d, %.3f, %.3f | %d/%d, %.3f, %.3f | %.2fx, "
                "%.3f, %.3f |\n",
                fraction, met[0], seeds, hidden[0] / seeds, time[0] / seeds,
                met[1], seeds, hidden[1] / seeds, time[1] / seeds,
                peakRatio / seeds, hidden[2] / seeds, time[2] / seeds);
  }
}

void tableSolveTime(bool quick) {
  std::printf("\n(c) Solve time of planned (budget 0.8x of the peak, link "
              "as in (b))\n\n| tasks | swaps | evaluations | seconds | "
              "within budget |\n|---|---|---|---|---|\n");
  std::vector<int> layerCounts = {250, 2500, 25000};
  if (quick)
    layerCounts.pop_back();
  for (int layers : layerCounts) {
    Problem problem = makeTrainingStep(layers, 1, 7);
    randomizeDurations(problem, 7);
    std::vector<TaskId> order = problem.programOrder();
    SwapOptions options;
    options.algorithm = SwapAlgorithm::Everything;
    options.link = makeLink(1e15);
    std::optional<SwapPlan> all = planSwap(problem, order, options);
    options.algorithm = SwapAlgorithm::Planned;
    options.link = makeLink(static_cast<double>(all->after.swapBytes) /
                            all->before.computeSeconds);
    options.timeLimitSeconds = 10;
    options.budgetTransientBytes =
        static_cast<int64_t>(0.8 * double(all->before.peakTransientBytes));
    auto start = std::chrono::steady_clock::now();
    std::optional<SwapPlan> plan = planSwap(problem, order, options);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    std::printf("| %zu | %zu | %lld | %.3f | %s |\n", problem.numTasks(),
                plan->swaps.size(),
                static_cast<long long>(plan->numEvaluations), seconds,
                plan->withinBudget ? "yes" : "no");
  }
}

} // namespace

int main(int argc, char **argv) {
  bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  tableAgainstExhaustive(quick);
  tableHidden(quick);
  tableSolveTime(quick);
  return 0;
}
