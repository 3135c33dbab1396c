//===- ChainRematTest.cpp - Tests for checkpointing heterogeneous chains --===//
//
// This file tests the chain game's simulator on hand-computed schedules,
// Rotor's dynamic program against the exhaustive search on short chains
// with small integer sizes (where 1-byte slots make the program exact), the
// rebuilt schedules through the simulator, and the baselines.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/ChainRemat.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/Oracles/Revolve.h"
#include "memsched/Scheduling/SplitMix64.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

using namespace mlir::memsched::scheduling;

namespace {

ChainStage makeStage(double forward, double backward, int64_t output,
                     int64_t saved, int64_t grad, int64_t forwardOverhead = 0,
                     int64_t backwardOverhead = 0) {
  ChainStage stage;
  stage.forwardTime = forward;
  stage.backwardTime = backward;
  stage.outputBytes = output;
  stage.savedBytes = saved;
  stage.gradBytes = grad;
  stage.forwardOverhead = forwardOverhead;
  stage.backwardOverhead = backwardOverhead;
  return stage;
}

/// A chain with integer times and small integer sizes: every time sum is
/// exact, so optima compare with ==.
Chain randomChain(SplitMix64 &rng, int32_t length, int64_t maxBytes = 3) {
  Chain chain;
  chain.inputBytes = rng.uniform(0, maxBytes);
  chain.inputGradBytes = rng.uniform(0, 2);
  for (int32_t l = 0; l < length; ++l) {
    int64_t output = rng.uniform(0, maxBytes);
    chain.stages.push_back(
        makeStage(double(rng.uniform(1, 5)), double(rng.uniform(1, 5)), output,
                  output + rng.uniform(0, maxBytes), rng.uniform(0, maxBytes),
                  rng.uniform(0, 2), rng.uniform(0, 2)));
  }
  return chain;
}

/// Every step costs 1 forward and 0 backward; activations and saved values
/// are one byte, gradients and overheads free: the homogeneous chain of
/// binomial checkpointing, with memory counting states.
Chain revolveChain(int32_t length) {
  Chain chain;
  chain.inputBytes = 1;
  for (int32_t l = 0; l < length; ++l)
    chain.stages.push_back(makeStage(1, 0, 1, 1, 0));
  return chain;
}

/// The two-stage chain of the hand-computed tests.
Chain twoStageChain() {
  Chain chain;
  chain.inputBytes = 2;
  chain.inputGradBytes = 1;
  chain.stages = {makeStage(1, 2, 3, 5, 3, 1, 2),
                  makeStage(3, 4, 1, 2, 1, 0, 1)};
  return chain;
}

ChainReplay replayOrDie(const Chain &chain, const std::vector<ChainOp> &ops,
                        int64_t limit = kUnlimitedMemory) {
  std::string error;
  std::optional<ChainReplay> replay = simulateChain(chain, ops, limit, &error);
  EXPECT_TRUE(replay.has_value()) << error;
  return replay.value_or(ChainReplay());
}

RotorSolution solveExact(const Chain &chain, int64_t limit) {
  RotorOptions options;
  options.slotBytes = 1;
  std::string error;
  std::optional<RotorSolution> solution =
      solveRotor(chain, limit, options, &error);
  EXPECT_TRUE(solution.has_value()) << error;
  return solution.value_or(RotorSolution());
}

ChainSearchResult search(const Chain &chain, int64_t limit,
                         bool persistent = true, bool allowFree = false) {
  ChainSearchOptions options;
  options.persistentCheckpoints = persistent;
  options.allowFree = allowFree;
  std::string error;
  std::optional<ChainSearchResult> result =
      solveChainExhaustive(chain, limit, options, &error);
  EXPECT_TRUE(result.has_value()) << error;
  return result.value_or(ChainSearchResult());
}

/// A feasible solution's schedule must replay within the limit in the time
/// the program computed.
void expectReplays(const Chain &chain, const RotorSolution &solution,
                   int64_t limit) {
  ASSERT_TRUE(solution.feasible);
  std::string error;
  std::optional<ChainReplay> replay =
      simulateChain(chain, solution.ops, limit, &error);
  ASSERT_TRUE(replay.has_value()) << error;
  EXPECT_LE(replay->peakBytes, limit);
  EXPECT_NEAR(replay->time, solution.time, 1e-9 * solution.time);
}

std::string opsText(const std::vector<ChainOp> &ops) {
  std::string text;
  for (const ChainOp &op : ops)
    text += (text.empty() ? "" : " ") + describeChainOp(op);
  return text;
}

TEST(ChainRematTest, StoreAllByHand) {
  Chain chain = twoStageChain();
  // Start: x^0 (2) + d^2 (1) = 3. Fall_1: 3 + 5 + 1 = 9, then 8. Fall_2:
  // 8 + 2 = 10. B_2: 10 + d^1 (3) + 1 = 14, then 10 + 3 - 1 - 2 = 10.
  // B_1: 10 + d^0 (1) + 2 = 13.
  ChainReplay replay = replayOrDie(chain, storeAllSchedule(chain));
  EXPECT_EQ(replay.peakBytes, 14);
  EXPECT_DOUBLE_EQ(replay.time, 10);
  EXPECT_DOUBLE_EQ(chain.computeTime(), 10);
  EXPECT_DOUBLE_EQ(replay.recomputeTime, 0);
  EXPECT_EQ(replay.forwardOps, 2);
  EXPECT_EQ(opsText(storeAllSchedule(chain)), "Fall_1 Fall_2 B_2 B_1");
}

TEST(ChainRematTest, RecomputationByHand) {
  Chain chain = twoStageChain();
  // Fck_1: 3 + 3 + 1 = 7, then 6 with x^1 kept. Fall_2: 6 + 2 = 8. B_2:
  // 8 + 3 + 1 = 12, then 8 + 3 - 1 - 2 - 3 = 5 (x^1 freed). Fall_1:
  // 5 + 5 + 1 = 11, then 10. B_1: 10 + 1 + 2 = 13.
  std::vector<ChainOp> ops = {{ChainOpKind::ForwardCheckpoint, 1},
                              {ChainOpKind::ForwardAll, 2},
                              {ChainOpKind::Backward, 2},
                              {ChainOpKind::ForwardAll, 1},
                              {ChainOpKind::Backward, 1}};
  ChainReplay replay = replayOrDie(chain, ops, 13);
  EXPECT_EQ(replay.peakBytes, 13);
  EXPECT_DOUBLE_EQ(replay.time, 11);
  EXPECT_DOUBLE_EQ(replay.recomputeTime, 1);
  EXPECT_EQ(replay.forwardOps, 3);
  // The same with F0_1, F0_2 first: F0_2 frees x^1 (7, then 4), Fall_1 at
  // 4 + 5 + 1 = 10, Fall_2 replaces the stored x^2 (9 + 2 = 11, then 10).
  ops = {{ChainOpKind::ForwardNone, 1}, {ChainOpKind::ForwardNone, 2},
         {ChainOpKind::ForwardAll, 1},  {ChainOpKind::ForwardAll, 2},
         {ChainOpKind::Backward, 2},    {ChainOpKind::Backward, 1}};
  replay = replayOrDie(chain, ops);
  EXPECT_EQ(replay.peakBytes, 14);
  EXPECT_DOUBLE_EQ(replay.recomputeTime, 4);
  // Only B_2 reaches 14; at 13 it is rejected.
  std::string error;
  EXPECT_FALSE(simulateChain(chain, ops, 13, &error));
  EXPECT_NE(error.find("operation #4 (B_2): needs 14 bytes"), std::string::npos)
      << error;
}

TEST(ChainRematTest, SimulatorRejectsInvalidSchedules) {
  Chain chain = twoStageChain();
  auto expectRejected = [&](const std::vector<ChainOp> &ops,
                            const std::string &fragment,
                            int64_t limit = kUnlimitedMemory) {
    std::string error;
    EXPECT_FALSE(simulateChain(chain, ops, limit, &error));
    EXPECT_NE(error.find(fragment), std::string::npos) << error;
  };
  const ChainOp f0_1{ChainOpKind::ForwardNone, 1};
  const ChainOp fall1{ChainOpKind::ForwardAll, 1};
  const ChainOp fall2{ChainOpKind::ForwardAll, 2};
  const ChainOp b1{ChainOpKind::Backward, 1};
  const ChainOp b2{ChainOpKind::Backward, 2};
  expectRejected({b2}, "x^1 is not available");
  expectRejected({fall1, b2}, "xbar^2 is not stored");
  expectRejected({fall2}, "x^1 is not available");
  expectRejected({f0_1, f0_1}, "x^1 is already available");
  expectRejected({fall1, f0_1}, "x^1 is already available");
  expectRejected({fall1, fall1}, "xbar^1 is already stored");
  expectRejected({fall1, b1}, "d^1 is not stored");
  expectRejected({{ChainOpKind::ForwardNone, 3}}, "out of range");
  expectRejected({{ChainOpKind::Free, 0, ChainValue::Activation}},
                 "cannot be freed");
  expectRejected({{ChainOpKind::Free, 1, ChainValue::Saved}}, "not stored");
  // After B_2 frees d^2, xbar^2 and x^1, B_2 cannot run again.
  expectRejected({fall1, fall2, b2, b2}, "d^2 is not stored");
  expectRejected({fall1, fall2, b2}, "ends before d^0");
  expectRejected({fall1, fall2, b2, b1, f0_1}, "already complete");
  expectRejected(storeAllSchedule(chain), "over the 13-byte limit", 13);
  expectRejected({}, "alone need 3 bytes", 2);
  // Dropping xbar^1 before B_1 makes it unavailable.
  expectRejected(
      {fall1, fall2, b2, {ChainOpKind::Free, 1, ChainValue::Saved}, b1},
      "xbar^1 is not stored");
}

TEST(ChainRematTest, DynamicProgramMatchesExhaustiveSearch) {
  SplitMix64 rng(1);
  int compared = 0, infeasible = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Chain chain = randomChain(rng, static_cast<int32_t>(rng.uniform(1, 5)));
    ChainReplay storeAll = replayOrDie(chain, storeAllSchedule(chain));
    std::optional<int64_t> minimum = minimumRotorMemory(chain);
    ASSERT_TRUE(minimum.has_value());
    for (int64_t limit = 0; limit <= storeAll.peakBytes + 1; ++limit) {
      SCOPED_TRACE("trial " + std::to_string(trial) + ", limit " +
                   std::to_string(limit));
      RotorSolution solution = solveExact(chain, limit);
      ChainSearchResult oracle = search(chain, limit);
      ASSERT_EQ(solution.feasible, oracle.feasible);
      EXPECT_EQ(solution.feasible, limit >= *minimum);
      ++compared;
      if (!oracle.feasible) {
        ++infeasible;
        continue;
      }
      EXPECT_EQ(solution.time, oracle.time)
          << "program: " << opsText(solution.ops)
          << "\nsearch: " << opsText(oracle.ops);
      expectReplays(chain, solution, limit);
      ChainReplay replay = replayOrDie(chain, oracle.ops, limit);
      EXPECT_EQ(replay.time, oracle.time);
      if (limit >= storeAll.peakBytes) {
        EXPECT_EQ(solution.time, chain.computeTime());
      }
    }
  }
  // Both regimes were exercised.
  EXPECT_GT(infeasible, 100);
  EXPECT_GT(compared - infeasible, 1000);
}

TEST(ChainRematTest, UnrestrictedSearchIsNeverWorse) {
  // Without the persistence restriction, and with Free, the search plays a
  // larger game: its optimum can only be lower.
  SplitMix64 rng(2);
  for (int trial = 0; trial < 25; ++trial) {
    Chain chain = randomChain(rng, static_cast<int32_t>(rng.uniform(2, 4)));
    ChainReplay storeAll = replayOrDie(chain, storeAllSchedule(chain));
    for (int64_t limit = 0; limit <= storeAll.peakBytes; ++limit) {
      SCOPED_TRACE("trial " + std::to_string(trial) + ", limit " +
                   std::to_string(limit));
      RotorSolution solution = solveExact(chain, limit);
      for (bool allowFree : {false, true}) {
        ChainSearchResult free = search(chain, limit, false, allowFree);
        if (solution.feasible) {
          ASSERT_TRUE(free.feasible);
        }
        EXPECT_LE(free.time, solution.time);
        if (free.feasible) {
          EXPECT_EQ(replayOrDie(chain, free.ops, limit).time, free.time);
        }
      }
    }
  }
}

TEST(ChainRematTest, NonPersistentSchedulesCanBeatRotor) {
  // Found by the exhaustive search: at 10 bytes, the best schedule keeps x^1
  // for the first backward stage only (Fck_2 keeps it, the later F0_2
  // consumes it) and recomputes stage 1 for the last two; the dynamic
  // program keeps every checkpoint until its segment's backward ends, and
  // runs the expensive stage 1 three times instead of twice.
  Chain chain;
  chain.inputBytes = 3;
  chain.stages = {makeStage(5, 2, 1, 1, 3), makeStage(3, 5, 2, 3, 0, 1),
                  makeStage(3, 5, 0, 1, 3, 1), makeStage(1, 3, 1, 1, 2, 1)};
  RotorSolution solution = solveExact(chain, 10);
  expectReplays(chain, solution, 10);
  EXPECT_EQ(solution.time, 46);
  EXPECT_EQ(search(chain, 10).time, 46);
  ChainSearchResult free = search(chain, 10, /*persistent=*/false);
  EXPECT_EQ(free.time, 41);
  EXPECT_EQ(opsText(free.ops),
            "F0_1 Fck_2 F0_3 Fall_4 B_4 F0_2 Fall_3 B_3 Fall_1 Fall_2 B_2 B_1");
}

TEST(ChainRematTest, DiscretizedSolutionsReplay) {
  SplitMix64 rng(3);
  for (int32_t length : {8, 20, 40}) {
    Chain chain = randomChain(rng, length, 1000000);
    ChainReplay storeAll = replayOrDie(chain, storeAllSchedule(chain));
    int64_t minimum = *minimumRotorMemory(chain);
    for (double fraction : {0.2, 0.35, 0.5, 0.7, 0.9, 1.0, 2.0}) {
      int64_t limit = static_cast<int64_t>(fraction * storeAll.peakBytes);
      SCOPED_TRACE("L " + std::to_string(length) + ", limit " +
                   std::to_string(limit));
      std::string error;
      std::optional<RotorSolution> solution =
          solveRotor(chain, limit, RotorOptions(), &error);
      ASSERT_TRUE(solution.has_value()) << error;
      // Rounding only loses schedules.
      if (limit < minimum) {
        EXPECT_FALSE(solution->feasible);
      }
      if (!solution->feasible)
        continue;
      expectReplays(chain, *solution, limit);
      EXPECT_GE(solution->time, chain.computeTime());
      if (fraction >= 2.0) {
        EXPECT_EQ(solution->time, chain.computeTime());
      }
    }
  }
}

TEST(ChainRematTest, OptimumIsMonotoneInMemory) {
  SplitMix64 rng(4);
  for (int trial = 0; trial < 3; ++trial) {
    Chain chain = randomChain(rng, 30, 10);
    ChainReplay storeAll = replayOrDie(chain, storeAllSchedule(chain));
    int64_t minimum = *minimumRotorMemory(chain);
    EXPECT_FALSE(solveExact(chain, minimum - 1).feasible);
    double previous = std::numeric_limits<double>::infinity();
    for (int64_t limit = minimum; limit <= storeAll.peakBytes; limit += 3) {
      RotorSolution solution = solveExact(chain, limit);
      ASSERT_TRUE(solution.feasible) << "limit " << limit;
      EXPECT_LE(solution.time, previous) << "limit " << limit;
      previous = solution.time;
    }
    EXPECT_EQ(solveExact(chain, storeAll.peakBytes).time, chain.computeTime());
    // A fixed slot size of 4 bytes keeps the optimum monotone too.
    RotorOptions coarse;
    coarse.slotBytes = 4;
    previous = std::numeric_limits<double>::infinity();
    for (int64_t limit = minimum; limit <= 2 * storeAll.peakBytes; limit += 5) {
      std::optional<RotorSolution> solution = solveRotor(chain, limit, coarse);
      ASSERT_TRUE(solution.has_value());
      if (!solution->feasible) {
        EXPECT_EQ(previous, std::numeric_limits<double>::infinity());
        continue;
      }
      expectReplays(chain, *solution, limit);
      EXPECT_LE(solution->time, previous);
      previous = solution->time;
    }
    EXPECT_EQ(previous, chain.computeTime());
  }
}

TEST(ChainRematTest, UnlimitedMemoryStoresEverything) {
  SplitMix64 rng(5);
  for (int32_t length : {1, 2, 7, 50}) {
    Chain chain = randomChain(rng, length, 1 << 20);
    std::optional<RotorSolution> solution = solveRotor(chain, kUnlimitedMemory);
    ASSERT_TRUE(solution.has_value());
    ASSERT_TRUE(solution->feasible);
    EXPECT_EQ(solution->time, chain.computeTime());
    EXPECT_EQ(solution->ops, storeAllSchedule(chain));
    ChainReplay replay = replayOrDie(chain, storeAllSchedule(chain));
    EXPECT_EQ(replay.time, chain.computeTime());
    EXPECT_EQ(replay.forwardOps, length);
  }
}

TEST(ChainRematTest, BaselineSchedules) {
  Chain chain = revolveChain(10);
  // Chen: round(sqrt(10)) = 3 segments of 4, 3, 3 stages, all recomputed.
  EXPECT_EQ(opsText(chenSqrtSchedule(chain)),
            "Fck_1 F0_2 F0_3 F0_4 Fck_5 F0_6 F0_7 Fck_8 F0_9 F0_10 "
            "Fall_8 Fall_9 Fall_10 B_10 B_9 B_8 "
            "Fall_5 Fall_6 Fall_7 B_7 B_6 B_5 "
            "Fall_1 Fall_2 Fall_3 Fall_4 B_4 B_3 B_2 B_1");
  // checkpoint_sequential(segments=3): 10 // 3 = 3 stages in each of the
  // first two segments, the last four stored.
  EXPECT_EQ(opsText(checkpointSequentialSchedule(chain, 3)),
            "Fck_1 F0_2 F0_3 Fck_4 F0_5 F0_6 Fall_7 Fall_8 Fall_9 Fall_10 "
            "B_10 B_9 B_8 B_7 Fall_4 Fall_5 Fall_6 B_6 B_5 B_4 "
            "Fall_1 Fall_2 Fall_3 B_3 B_2 B_1");
  EXPECT_EQ(checkpointSequentialSchedule(chain, 1), storeAllSchedule(chain));

  SplitMix64 rng(6);
  for (int32_t length = 1; length <= 40; ++length) {
    Chain random = randomChain(rng, length, 100);
    ChainReplay chen = replayOrDie(random, chenSqrtSchedule(random));
    EXPECT_EQ(chen.forwardOps, 2 * length);
    for (int32_t segments : {1, 2, 5, length, length + 3}) {
      ChainReplay replay =
          replayOrDie(random, chenSqrtSchedule(random, segments));
      EXPECT_EQ(replay.forwardOps, 2 * length);
      int32_t k = std::min(segments, length);
      replay = replayOrDie(random, checkpointSequentialSchedule(random, k));
      EXPECT_EQ(replay.forwardOps, length + (k - 1) * (length / k));
    }
  }
}

TEST(ChainRematTest, RotorIsNoWorseThanBaselines) {
  SplitMix64 rng(7);
  for (int trial = 0; trial < 25; ++trial) {
    int32_t length = static_cast<int32_t>(rng.uniform(2, 40));
    Chain chain = randomChain(rng, length, 6);
    int32_t segments = static_cast<int32_t>(std::lround(std::sqrt(length)));
    for (const std::vector<ChainOp> &baseline :
         {chenSqrtSchedule(chain),
          checkpointSequentialSchedule(chain, segments),
          storeAllSchedule(chain)}) {
      ChainReplay replay = replayOrDie(chain, baseline);
      RotorSolution solution = solveExact(chain, replay.peakBytes);
      expectReplays(chain, solution, replay.peakBytes);
      EXPECT_LE(solution.time, replay.time + 1e-9) << opsText(baseline);
    }
  }
}

/// The chain operations of a binomial schedule on revolveChain(): an
/// advance from a stored state keeps it (Fck), other advances consume their
/// input (F0), a turn is Fall then B.
std::vector<ChainOp> revolveToChain(const std::vector<RevolveAction> &actions) {
  std::set<int64_t> stored;
  std::vector<ChainOp> ops;
  for (const RevolveAction &action : actions) {
    int32_t step = static_cast<int32_t>(action.step);
    switch (action.kind) {
    case RevolveActionKind::Advance:
      for (int64_t i = action.step; i < action.to; ++i)
        ops.push_back({i == action.step && stored.count(i)
                           ? ChainOpKind::ForwardCheckpoint
                           : ChainOpKind::ForwardNone,
                       static_cast<int32_t>(i + 1)});
      break;
    case RevolveActionKind::Takeshot:
      stored.insert(action.step);
      break;
    case RevolveActionKind::Restore:
      break;
    case RevolveActionKind::FirstTurn:
    case RevolveActionKind::YouTurn:
      ops.push_back({ChainOpKind::ForwardAll, step + 1});
      ops.push_back({ChainOpKind::Backward, step + 1});
      stored.erase(stored.lower_bound(action.step), stored.end());
      break;
    }
  }
  return ops;
}

TEST(ChainRematTest, HomogeneousChainAndRevolve) {
  // On revolveChain(l), a binomial schedule with c slots is a chain schedule
  // of time t(l, c) + l (each adjoint runs its step once more) whose memory
  // is at most c stored states + the current one + the one being computed.
  // Rotor with those c + 2 bytes is at least as fast: it may also keep a
  // saved value (as large as a state here) and skip that adjoint's forward
  // step, which binomial checkpointing does not model.
  for (int64_t slots = 1; slots <= 4; ++slots) {
    for (int32_t steps = 1; steps <= 25; ++steps) {
      SCOPED_TRACE("l " + std::to_string(steps) + ", c " +
                   std::to_string(slots));
      Chain chain = revolveChain(steps);
      int64_t count = *revolveForwardSteps(steps, slots);
      std::vector<ChainOp> ops = revolveToChain(*revolveSchedule(steps, slots));
      ChainReplay replay = replayOrDie(chain, ops, slots + 2);
      EXPECT_EQ(replay.time, double(count + steps));
      RotorSolution solution = solveExact(chain, slots + 2);
      expectReplays(chain, solution, slots + 2);
      EXPECT_LE(solution.time, double(count + steps));
    }
  }
}

TEST(ChainRematTest, MinimumMemoryIsTight) {
  SplitMix64 rng(8);
  for (int trial = 0; trial < 30; ++trial) {
    Chain chain =
        randomChain(rng, static_cast<int32_t>(rng.uniform(6, 25)), 20);
    std::optional<int64_t> minimum = minimumRotorMemory(chain);
    ASSERT_TRUE(minimum.has_value());
    EXPECT_FALSE(solveExact(chain, *minimum - 1).feasible);
    RotorSolution solution = solveExact(chain, *minimum);
    expectReplays(chain, solution, *minimum);
    EXPECT_EQ(replayOrDie(chain, solution.ops).peakBytes, *minimum);
  }
}

TEST(ChainRematTest, InvalidInputs) {
  std::string error;
  Chain chain;
  EXPECT_FALSE(chain.verify(&error));
  EXPECT_FALSE(solveRotor(chain, 100, RotorOptions(), &error));
  EXPECT_NE(error.find("at least one stage"), std::string::npos);
  chain = twoStageChain();
  chain.stages[1].savedBytes = 0;
  EXPECT_FALSE(minimumRotorMemory(chain, &error));
  EXPECT_NE(error.find("fewer bytes than its output"), std::string::npos);
  chain = twoStageChain();
  chain.stages[0].forwardTime = -1;
  EXPECT_FALSE(simulateChain(chain, {}, kUnlimitedMemory, &error));
  EXPECT_NE(error.find("negative or non-finite time"), std::string::npos);
  chain = twoStageChain();
  EXPECT_FALSE(solveRotor(chain, -1, RotorOptions(), &error));
  RotorOptions options;
  options.memorySlots = 0;
  EXPECT_FALSE(solveRotor(chain, 100, options, &error));
  options.slotBytes = 1;
  EXPECT_FALSE(solveRotor(revolveChain(2000), 1 << 20, options, &error));
  EXPECT_NE(error.find("table entries"), std::string::npos);
  EXPECT_FALSE(solveChainExhaustive(revolveChain(7), 100, {}, &error));
  EXPECT_NE(error.find("at most 6 stages"), std::string::npos);
  // Below the input and the seed, nothing is feasible.
  std::optional<RotorSolution> solution = solveRotor(chain, 2, options);
  ASSERT_TRUE(solution.has_value());
  EXPECT_FALSE(solution->feasible);
}

} // namespace

// The chain as a planning problem (makeChainProblem) has, in program order
// and without recomputation, the peak of Rotor's store-all schedule: the
// two memory models agree, so the planners can be measured against Rotor
// on it. Sizes are at least one byte (the problem pads zero-byte values).
TEST(ChainRematTest, ChainProblemPeakIsTheStoreAllPeak) {
  SplitMix64 rng(91);
  for (int trial = 0; trial < 200; ++trial) {
    Chain chain;
    chain.inputBytes = rng.uniform(1, 1000);
    chain.inputGradBytes = rng.uniform(1, 1000);
    int32_t length = static_cast<int32_t>(rng.uniform(1, 12));
    for (int32_t l = 0; l < length; ++l) {
      int64_t output = rng.uniform(1, 1000);
      chain.stages.push_back(
          makeStage(double(rng.uniform(1, 5)), double(rng.uniform(1, 5)),
                    output, output + rng.uniform(0, 1000), rng.uniform(1, 1000),
                    rng.uniform(0, 500), rng.uniform(0, 500)));
    }
    Problem problem = makeChainProblem(chain);
    std::string error;
    ASSERT_TRUE(problem.verify(&error)) << error;
    std::optional<MemoryProfile> profile =
        simulateMemory(problem, problem.programOrder());
    ASSERT_TRUE(profile);
    ChainReplay storeAll = replayOrDie(chain, storeAllSchedule(chain));
    EXPECT_EQ(profile->peakBytes(), storeAll.peakBytes) << "trial " << trial;
  }
}
