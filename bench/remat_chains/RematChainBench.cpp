//===- RematChainBench.cpp - Optimal checkpointing of chains --------------===//
//
// memsched-remat-chain-bench prints three Markdown tables:
//
//  (a) for homogeneous chains (L = 16, 64, 256), random heterogeneous chains
//      (L = 32, 128) and a ResNet-like chain of alternating cheap and
//      expensive stages: the recomputation time ("extra", time minus the sum
//      of forward and backward times) of Chen et al.'s sqrt(n) segments and
//      of checkpoint_sequential with round(sqrt(L)) segments at their own
//      simulated peaks, and of Rotor's optimum at the same peak (with the
//      default memory slots and exactly), with the ratios and Rotor's solve
//      time;
//  (b) Rotor's extra time for budgets of 0.3 .. 0.9 of the store-all peak;
//  (c) binomial checkpointing's closed form against its recurrence and its
//      generated schedule;
//  (d) memsched-remat's planner (planRemat, auto) on the same chains as
//      planning problems (makeChainProblem) against Rotor's optimum at
//      budgets of 0.4 .. 0.9 of the store-all peak.
//
// Every schedule is replayed by simulateChain(); nothing is hard-coded.
// Flags: --seed N (random chains), --slots N (Rotor's memory slots),
// --ilp-max-tasks N (the planner's ILP phase in the last table; 0: off),
// --emit-mlir DIR (instead of the tables: the chains of at most 128 stages
// as IR in DIR and their budgets with Rotor's optimum as JSON, for
// bench/remat_chain_pass.py).
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/ChainRemat.h"
#include "memsched/Scheduling/Oracles/Revolve.h"
#include "memsched/Scheduling/Remat.h"
#include "memsched/Scheduling/SplitMix64.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace mlir::memsched::scheduling;

namespace {

constexpr int64_t kMiB = int64_t(1) << 20;

struct NamedChain {
  std::string name;
  Chain chain;
};

ChainStage makeStage(double forward, double backward, int64_t outputMiB,
                     int64_t savedMiB, int64_t gradMiB,
                     int64_t forwardOverheadMiB, int64_t backwardOverheadMiB) {
  ChainStage stage;
  stage.forwardTime = forward;
  stage.backwardTime = backward;
  stage.outputBytes = outputMiB * kMiB;
  stage.savedBytes = savedMiB * kMiB;
  stage.gradBytes = gradMiB * kMiB;
  stage.forwardOverhead = forwardOverheadMiB * kMiB;
  stage.backwardOverhead = backwardOverheadMiB * kMiB;
  return stage;
}

/// Identical stages: forward 1, backward 2, 4 MiB activations and
/// gradients, 12 MiB saved for the backward.
Chain homogeneousChain(int32_t length) {
  Chain chain;
  chain.inputBytes = 4 * kMiB;
  for (int32_t l = 0; l < length; ++l)
    chain.stages.push_back(makeStage(1, 2, 4, 12, 4, 0, 0));
  return chain;
}

/// Random stages: forward time in [0.5, 4], backward 1-2.5 times that,
/// activations of 1-32 MiB, saved values 1-4 times the activation,
/// gradients as large as the activation, overheads up to half of it.
Chain randomChain(int32_t length, uint64_t seed) {
  SplitMix64 rng(seed);
  Chain chain;
  chain.inputBytes = rng.uniform(1, 32) * kMiB;
  for (int32_t l = 0; l < length; ++l) {
    double forward = rng.uniformReal(0.5, 4.0);
    int64_t output = rng.uniform(1, 32);
    chain.stages.push_back(
        makeStage(forward, forward * rng.uniformReal(1.0, 2.5), output,
                  output * rng.uniform(1, 4), output,
                  rng.uniform(0, output / 2), rng.uniform(0, output / 2)));
  }
  return chain;
}

/// Four groups of twelve stages alternating an expensive convolution
/// (forward 4, backward 8, saves only its output) and a cheap
/// normalization + activation (forward 0.5, backward 1, saves twice its
/// output); activations halve from 32 MiB at each group while the work per
/// stage stays, as in ResNet's stages. The last stage is the loss.
Chain resnetLikeChain() {
  Chain chain;
  chain.inputBytes = 16 * kMiB;
  for (int32_t group = 0; group < 4; ++group) {
    int64_t size = int64_t(32) >> group;
    for (int32_t i = 0; i < 6; ++i) {
      chain.stages.push_back(makeStage(4, 8, size, size, size, size / 2, size));
      chain.stages.push_back(makeStage(0.5, 1, size, 2 * size, size, 0, 0));
    }
  }
  // The loss: scalar output and seed.
  chain.stages.push_back(makeStage(0.1, 0.1, 0, 0, 0, 0, 0));
  return chain;
}

double mib(int64_t bytes) { return double(bytes) / double(kMiB); }

ChainReplay replay(const Chain &chain, const std::vector<ChainOp> &ops) {
  std::string error;
  std::optional<ChainReplay> result =
      simulateChain(chain, ops, kUnlimitedMemory, &error);
  if (!result) {
    std::fprintf(stderr, "error: a baseline does not replay: %s\n",
                 error.c_str());
    std::exit(1);
  }
  return *result;
}

/// Rotor's extra time at \p limit (infinity if infeasible), checked by
/// replaying its schedule in bytes; \p milliseconds gets the solve time.
double rotorExtra(const Chain &chain, int64_t limit,
                  const RotorOptions &options, double *milliseconds = nullptr) {
  auto start = std::chrono::steady_clock::now();
  std::string error;
  std::optional<RotorSolution> solution =
      solveRotor(chain, limit, options, &error);
  auto end = std::chrono::steady_clock::now();
  if (milliseconds)
    *milliseconds =
        std::chrono::duration<double, std::milli>(end - start).count();
  if (!solution) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    std::exit(1);
  }
  if (!solution->feasible)
    return std::numeric_limits<double>::infinity();
  std::optional<ChainReplay> check =
      simulateChain(chain, solution->ops, limit, &error);
  if (!check || std::abs(check->time - solution->time) >
                    1e-9 * std::max(1.0, solution->time)) {
    std::fprintf(stderr, "error: Rotor's schedule does not replay: %s\n",
                 error.c_str());
    std::exit(1);
  }
  return solution->time - chain.computeTime();
}

std::string format(double value, const char *pattern = "%.2f") {
  if (std::isinf(value))
    return "infeasible";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), pattern, value);
  return buffer;
}

std::string ratio(double baseline, double rotor) {
  if (std::isinf(rotor))
    return "-";
  if (rotor <= 1e-12)
    return baseline <= 1e-12 ? "1.00" : "inf";
  return format(baseline / rotor);
}

void printComparison(const std::vector<NamedChain> &chains,
                     int64_t memorySlots) {
  std::printf("## Rotor vs the baselines at the baseline's own peak\n\n");
  std::printf(
      "Extra = schedule time - sum(forward + backward) (time units of the "
      "stage costs). Baseline peaks come from simulateChain; Rotor runs "
      "solveRotor at that peak with %lld memory slots (sizes rounded up to "
      "ceil(M/%lld) bytes) and, exactly, with 1-MiB slots (every size here "
      "is whole MiB); its schedule is replayed within the peak. Solve time: "
      "wall clock of the %lld-slot solveRotor call.\n\n",
      static_cast<long long>(memorySlots), static_cast<long long>(memorySlots),
      static_cast<long long>(memorySlots));
  std::printf("| chain | L | sum(fw+bw) | store-all peak (MiB) | baseline | "
              "peak (MiB) | baseline extra | Rotor extra | Rotor extra "
              "(exact) | baseline / Rotor | baseline / Rotor (exact) | Rotor "
              "solve (ms) |\n");
  std::printf("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
  RotorOptions slotted;
  slotted.memorySlots = memorySlots;
  RotorOptions exact;
  exact.slotBytes = kMiB;
  for (const NamedChain &named : chains) {
    const Chain &chain = named.chain;
    int32_t length = chain.length();
    int32_t segments = static_cast<int32_t>(std::lround(std::sqrt(length)));
    ChainReplay storeAll = replay(chain, storeAllSchedule(chain));
    struct Baseline {
      std::string name;
      std::vector<ChainOp> ops;
    };
    std::vector<Baseline> baselines = {
        {"Chen sqrt(n), " + std::to_string(segments) + " segments",
         chenSqrtSchedule(chain)},
        {"checkpoint_sequential(" + std::to_string(segments) + ")",
         checkpointSequentialSchedule(chain, segments)}};
    for (const Baseline &baseline : baselines) {
      ChainReplay measured = replay(chain, baseline.ops);
      double milliseconds = 0;
      double rotor =
          rotorExtra(chain, measured.peakBytes, slotted, &milliseconds);
      double rotorExact = rotorExtra(chain, measured.peakBytes, exact);
      std::printf("| %s | %d | %.2f | %.0f | %s | %.0f | %.2f | %s | %s | %s "
                  "| %s | %.1f |\n",
                  named.name.c_str(), length, chain.computeTime(),
                  mib(storeAll.peakBytes), baseline.name.c_str(),
                  mib(measured.peakBytes), measured.recomputeTime,
                  format(rotor).c_str(), format(rotorExact).c_str(),
                  ratio(measured.recomputeTime, rotor).c_str(),
                  ratio(measured.recomputeTime, rotorExact).c_str(),
                  milliseconds);
    }
  }
  std::printf("\n");
}

void printSweep(const std::vector<NamedChain> &chains, int64_t memorySlots) {
  const std::vector<double> fractions = {0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
  std::printf("## Rotor's extra time against the budget\n\n");
  std::printf("Budget M = fraction x store-all peak; one slot size per chain, "
              "ceil(store-all peak / %lld) bytes, so the optimum cannot grow "
              "with M. The last column is the least memory of any Rotor "
              "schedule (minimumRotorMemory, exact bytes) as a fraction of "
              "the store-all peak.\n\n",
              static_cast<long long>(memorySlots));
  std::printf("| chain |");
  for (double fraction : fractions)
    std::printf(" %.1f |", fraction);
  std::printf(" min memory |\n|---|");
  for (size_t i = 0; i <= fractions.size(); ++i)
    std::printf("---:|");
  std::printf("\n");
  for (const NamedChain &named : chains) {
    const Chain &chain = named.chain;
    ChainReplay storeAll = replay(chain, storeAllSchedule(chain));
    RotorOptions options;
    options.slotBytes = (storeAll.peakBytes + memorySlots - 1) / memorySlots;
    std::printf("| %s, L=%d |", named.name.c_str(), chain.length());
    double previous = std::numeric_limits<double>::infinity();
    for (double fraction : fractions) {
      int64_t limit = static_cast<int64_t>(fraction * storeAll.peakBytes);
      double extra = rotorExtra(chain, limit, options);
      if (extra > previous) {
        std::fprintf(stderr, "error: the optimum grew with the budget\n");
        std::exit(1);
      }
      previous = extra;
      std::printf(" %s |", format(extra).c_str());
    }
    std::printf(" %.3f |\n",
                double(*minimumRotorMemory(chain)) / storeAll.peakBytes);
  }
  std::printf("\n");
}

void printPlannerAgainstRotor(const std::vector<NamedChain> &chains,
                              int64_t ilpMaxTasks) {
  const std::vector<double> fractions = {0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
  std::printf("## memsched-remat's planner against Rotor on chains\n\n");
  std::printf(
      "Each chain as a planning problem (makeChainProblem: same memory model, "
      "its store-all peak unit-tested equal to Rotor's); planRemat (auto) "
      "with the budget M - x^0 of transient bytes, against Rotor exactly "
      "(1-MiB slots; every size here is whole MiB) at M. Cells: planner "
      "extra / Rotor extra, or `miss` where Rotor meets M and the planner "
      "does not (`-`: neither). Rotor is optimal among its persistent "
      "schedules, in which a stage's input stays while the values saved for "
      "its backward do; the planner may drop that input and recompute it "
      "(cells below 1.00).\n\n");
  std::printf("| chain |");
  for (double fraction : fractions)
    std::printf(" %.1f |", fraction);
  std::printf(" solve (s, max) |\n|---|");
  for (size_t i = 0; i <= fractions.size(); ++i)
    std::printf("---:|");
  std::printf("\n");
  RotorOptions exact;
  exact.slotBytes = kMiB;
  double logSum = 0;
  int ratios = 0, equal = 0, misses = 0, rotorMet = 0;
  for (const NamedChain &named : chains) {
    const Chain &chain = named.chain;
    if (chain.length() > 128)
      continue;
    ChainReplay storeAll = replay(chain, storeAllSchedule(chain));
    Problem problem = makeChainProblem(chain);
    std::printf("| %s, L=%d |", named.name.c_str(), chain.length());
    double slowest = 0;
    for (double fraction : fractions) {
      int64_t limit = static_cast<int64_t>(fraction * storeAll.peakBytes);
      double rotor = rotorExtra(chain, limit, exact);
      RematOptions options;
      options.budgetTransientBytes = limit - chain.inputBytes;
      options.ilpMaxTasks = ilpMaxTasks;
      std::string error;
      std::optional<RematPlan> plan = planRemat(problem, options, &error);
      if (!plan) {
        std::fprintf(stderr, "error: %s\n", error.c_str());
        std::exit(1);
      }
      slowest = std::max(slowest, plan->solveSeconds);
      if (std::isinf(rotor)) {
        std::printf(" %s |", plan->withinBudget ? "met (Rotor not)" : "-");
        continue;
      }
      ++rotorMet;
      if (!plan->withinBudget) {
        ++misses;
        std::printf(" miss |");
        continue;
      }
      double extra = plan->recomputeSeconds;
      if (rotor > 1e-12) {
        logSum += std::log(extra / rotor);
        ++ratios;
        equal += std::abs(extra - rotor) <= 1e-9 * rotor;
      }
      std::printf(" %s |", ratio(extra, rotor).c_str());
    }
    std::printf(" %.3f |\n", slowest);
  }
  std::printf("\nRotor meets %d budgets; the planner misses %d of them. "
              "Planner / Rotor extra time over the %d met by both with a "
              "positive optimum: geometric mean %.3f (%d equal).\n\n",
              rotorMet, misses, ratios,
              ratios ? std::exp(logSum / ratios) : 1.0, equal);
}

void printRevolve() {
  std::printf("## Binomial checkpointing (Revolve)\n\n");
  std::printf("t(l, c): forward steps to reverse l steps with c slots. Closed "
              "form r l - C(c + r, c + 1); recurrence min_j j + T(l - j, "
              "c - 1) + T(j, c) by dynamic programming; the generated "
              "schedule's count from replayRevolveSchedule.\n\n");
  std::printf("| l | c | closed form | recurrence | schedule | slots used |"
              " recurrence (ms) |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|\n");
  const std::pair<int64_t, int64_t> points[] = {
      {16, 3}, {64, 4}, {100, 5}, {256, 4}, {1000, 3}, {1000, 10}};
  for (auto [steps, slots] : points) {
    auto start = std::chrono::steady_clock::now();
    int64_t recurrence = *revolveForwardStepsByRecurrence(steps, slots);
    double milliseconds = std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - start)
                              .count();
    std::optional<RevolveReplay> schedule =
        replayRevolveSchedule(*revolveSchedule(steps, slots), steps, slots);
    std::printf("| %lld | %lld | %lld | %lld | %lld | %lld | %.1f |\n",
                static_cast<long long>(steps), static_cast<long long>(slots),
                static_cast<long long>(*revolveForwardSteps(steps, slots)),
                static_cast<long long>(recurrence),
                static_cast<long long>(schedule ? schedule->forwardSteps : -1),
                static_cast<long long>(schedule ? schedule->maxSlotsUsed : -1),
                milliseconds);
  }
  std::printf("\n");
}
/// A chain size in MiB scaled to KiB, at least one.
int64_t scaleToKiB(int64_t bytes) {
  return std::max<int64_t>(1, bytes / kMiB) * 1024;
}

/// \p seconds exactly, as an MLIR float attribute.
std::string formatSeconds(double seconds) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.17e", seconds);
  return buffer;
}

/// Writes \p chain (sizes in whole KiB, scaleChainToKiB()) as a training
/// step in linalg on tensors (tensor<R x 256 x f32> for R KiB), every op
/// timed by `memsched.cost` (one time unit = one second): the seed d^L from
/// the input x^0 (the function's argument), per stage F_l (x^l and, when
/// xbar^l is larger, the rest of xbar^l, both from x^{l-1}, in one op with
/// workspace forwardOverhead), per stage B_l (d^{l-1}
/// from d^l, x^l, the rest and x^{l-1}, workspace backwardOverhead); d^0 is
/// returned. Every op adds up rows of its inputs, so values are real.
std::string chainToMlir(const Chain &chain) {
  std::string text;
  auto rowsOf = [](int64_t bytes) {
    return std::max<int64_t>(1, bytes / 1024);
  };
  auto type = [](int64_t rows) {
    return "tensor<" + std::to_string(rows) + "x256xf32>";
  };
  int32_t counter = 0;
  // An op writing `rows` rows; each input's rows are summed (one reduction
  // dimension per input), so any row counts combine.
  // An op writing each result's rows; each input's rows are summed (one
  // reduction dimension per input), so any row counts combine. With two
  // results, each one's rows are a reduction dimension of the other's.
  using Operands = std::vector<std::pair<std::string, int64_t>>;
  auto op = [&](const Operands &results, const Operands &inputs, double seconds,
                int64_t workspaceBytes) {
    size_t k = inputs.size(), n = results.size();
    // d0: the first result's rows, d1: the columns, d2: the second
    // result's rows, then the inputs' rows.
    size_t firstInput = n == 1 ? 2 : 3;
    std::string dims = "d0, d1";
    for (size_t i = 2; i < firstInput + k; ++i)
      dims += ", d" + std::to_string(i);
    std::string maps, ins, types, args, outs, outTypes, yields, yieldTypes;
    std::string iterators = n == 1
                                ? "\"parallel\", \"parallel\""
                                : "\"reduction\", \"parallel\", \"reduction\"";
    for (size_t i = 0; i < k; ++i) {
      maps += "affine_map<(" + dims + ") -> (d" +
              std::to_string(firstInput + i) + ", d1)>, ";
      ins += (i ? ", " : "") + inputs[i].first;
      types += (i ? ", " : "") + type(inputs[i].second);
      args += "%a" + std::to_string(i) + ": f32, ";
      iterators += ", \"reduction\"";
    }
    std::string sum = "%a0", body;
    for (size_t i = 1; i < k; ++i) {
      std::string next = "%s" + std::to_string(i);
      body += "    " + next + " = arith.addf " + sum + ", %a" +
              std::to_string(i) + " : f32\n";
      sum = next;
    }
    std::string names;
    for (size_t r = 0; r < n; ++r) {
      std::string empty = "%e" + std::to_string(counter++);
      text += "  " + empty + " = tensor.empty() : " + type(results[r].second) +
              "\n";
      maps += std::string(r ? ", " : "") + "affine_map<(" + dims + ") -> (d" +
              (r ? "2" : "0") + ", d1)>";
      names += (r ? ", " : "") + results[r].first;
      outs += (r ? ", " : "") + empty;
      outTypes += (r ? ", " : "") + type(results[r].second);
      args += "%o" + std::to_string(r) + ": f32" + (r + 1 < n ? ", " : "");
      yields += (r ? ", " : "") + sum;
      yieldTypes += std::string(r ? ", " : "") + "f32";
    }
    text += "  " + names + " = linalg.generic {indexing_maps = [" + maps +
            "], iterator_types = [" + iterators + "]} ins(" + ins + " : " +
            types + ") outs(" + outs + " : " + outTypes + ") attrs = {" +
            "memsched.cost = " + formatSeconds(seconds) + " : f64";
    if (workspaceBytes > 0)
      text +=
          ", memsched.workspace = " + std::to_string(workspaceBytes) + " : i64";
    text += "} {\n  ^bb0(" + args + "):\n" + body + "    linalg.yield " +
            yields + " : " + yieldTypes + "\n  } -> " +
            (n == 1 ? outTypes : "(" + outTypes + ")") + "\n";
  };
  int32_t length = chain.length();
  auto x = [](int32_t l) { return "%x" + std::to_string(l); };
  auto rest = [](int32_t l) { return "%xbar" + std::to_string(l); };
  auto d = [](int32_t l) { return "%d" + std::to_string(l); };
  std::vector<int64_t> xRows(length + 1), restRows(length + 1, 0),
      dRows(length + 1);
  xRows[0] = rowsOf(chain.inputBytes);
  dRows[0] = rowsOf(chain.inputGradBytes);
  for (int32_t l = 1; l <= length; ++l) {
    const ChainStage &stage = chain.stage(l);
    xRows[l] = rowsOf(stage.outputBytes);
    if (stage.savedBytes > stage.outputBytes)
      restRows[l] = rowsOf(stage.savedBytes - stage.outputBytes);
    dRows[l] = rowsOf(stage.gradBytes);
  }
  text += "func.func @chain(%x0: " + type(xRows[0]) + ") -> " + type(dRows[0]) +
          " {\n";
  op({{d(length), dRows[length]}}, {{x(0), xRows[0]}}, 0.0, 0);
  for (int32_t l = 1; l <= length; ++l) {
    const ChainStage &stage = chain.stage(l);
    Operands results = {{x(l), xRows[l]}};
    if (restRows[l] > 0)
      results.push_back({rest(l), restRows[l]});
    op(results, {{x(l - 1), xRows[l - 1]}}, stage.forwardTime,
       stage.forwardOverhead);
  }
  for (int32_t l = length; l >= 1; --l) {
    const ChainStage &stage = chain.stage(l);
    Operands inputs = {{d(l), dRows[l]}, {x(l), xRows[l]}};
    if (restRows[l] > 0)
      inputs.push_back({rest(l), restRows[l]});
    if (l > 1)
      inputs.push_back({x(l - 1), xRows[l - 1]});
    op({{d(l - 1), dRows[l - 1]}}, inputs, stage.backwardTime,
       stage.backwardOverhead);
  }
  text += "  return " + d(0) + " : " + type(dRows[0]) + "\n}\n";
  return text;
}

/// \p chain with its sizes (whole MiB) scaled to KiB, each at least one
/// (overheads may be zero).
Chain scaleChainToKiB(const Chain &chain) {
  Chain scaled = chain;
  scaled.inputBytes = scaleToKiB(chain.inputBytes);
  scaled.inputGradBytes = scaleToKiB(chain.inputGradBytes);
  for (ChainStage &stage : scaled.stages) {
    int64_t output = scaleToKiB(stage.outputBytes);
    int64_t rest = stage.savedBytes > stage.outputBytes
                       ? scaleToKiB(stage.savedBytes - stage.outputBytes)
                       : 0;
    stage.outputBytes = output;
    stage.savedBytes = output + rest;
    stage.gradBytes = scaleToKiB(stage.gradBytes);
    stage.forwardOverhead = stage.forwardOverhead / kMiB * 1024;
    stage.backwardOverhead = stage.backwardOverhead / kMiB * 1024;
  }
  return scaled;
}

/// Writes every chain of at most 128 stages as DIR/chain-K.mlir and, to
/// stdout, a JSON list of the budgets 0.4 .. 0.9 of its store-all peak with
/// Rotor's exact optimum (1-KiB slots) of the chain as emitted, for
/// bench/remat_chain_pass.py to run through memsched-remat. Budgets are in
/// the pass's terms (planned bytes): Rotor's limit plus d^0, which the
/// footprint counts whole.
void emitMlir(const std::vector<NamedChain> &chains, const std::string &dir) {
  const std::vector<double> fractions = {0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
  RotorOptions exact;
  exact.slotBytes = 1024;
  std::printf("[\n");
  bool first = true;
  for (size_t i = 0; i < chains.size(); ++i) {
    if (chains[i].chain.length() > 128)
      continue;
    Chain chain = scaleChainToKiB(chains[i].chain);
    std::string file = dir + "/chain-" + std::to_string(i) + ".mlir";
    FILE *out = std::fopen(file.c_str(), "w");
    if (!out) {
      std::fprintf(stderr, "error: cannot write %s\n", file.c_str());
      std::exit(1);
    }
    std::fputs(chainToMlir(chain).c_str(), out);
    std::fclose(out);
    ChainReplay storeAll = replay(chain, storeAllSchedule(chain));
    for (double fraction : fractions) {
      int64_t limit = static_cast<int64_t>(fraction * storeAll.peakBytes);
      double rotor = rotorExtra(chain, limit, exact);
      std::printf("%s  {\"file\": \"%s\", \"chain\": \"%s, L=%d\", "
                  "\"fraction\": %.1f, \"budget_bytes\": %lld, "
                  "\"rotor_extra_s\": %s}",
                  first ? "" : ",\n", file.c_str(), chains[i].name.c_str(),
                  chain.length(), fraction,
                  static_cast<long long>(limit + chain.inputGradBytes),
                  std::isinf(rotor) ? "null" : formatSeconds(rotor).c_str());
      first = false;
    }
  }
  std::printf("\n]\n");
}
} // namespace

int main(int argc, char **argv) {
  uint64_t seed = 2024;
  int64_t memorySlots = 500;
  // RematOptions::ilpMaxTasks of the planner in the last table (0: off).
  int64_t ilpMaxTasks = 0;
  // With --emit-mlir: the chains as IR and their budgets, nothing else.
  std::string emitDir;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (!std::strcmp(argv[i], "--slots") && i + 1 < argc) {
      memorySlots = std::max<int64_t>(1, std::strtoll(argv[++i], nullptr, 10));
    } else if (!std::strcmp(argv[i], "--ilp-max-tasks") && i + 1 < argc) {
      ilpMaxTasks = std::max<int64_t>(0, std::strtoll(argv[++i], nullptr, 10));
    } else if (!std::strcmp(argv[i], "--emit-mlir") && i + 1 < argc) {
      emitDir = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: %s [--seed N] [--slots N] [--ilp-max-tasks N] "
                   "[--emit-mlir DIR]\n",
                   argv[0]);
      return 2;
    }
  }
  std::vector<NamedChain> chains = {
      {"homogeneous", homogeneousChain(16)},
      {"homogeneous", homogeneousChain(64)},
      {"homogeneous", homogeneousChain(256)},
      {"random (seed " + std::to_string(seed) + ")", randomChain(32, seed)},
      {"random (seed " + std::to_string(seed + 1) + ")",
       randomChain(128, seed + 1)},
      {"ResNet-like", resnetLikeChain()},
  };
  if (!emitDir.empty()) {
    emitMlir(chains, emitDir);
    return 0;
  }
  std::printf("# Optimal checkpointing of chains (Rotor) against sqrt(n) "
              "segments and checkpoint_sequential\n\n");
  printComparison(chains, memorySlots);
  printSweep(chains, memorySlots);
  printRevolve();
  printPlannerAgainstRotor(chains, ilpMaxTasks);
  return 0;
}
