//===- OffsetPlannerTest.cpp - Tests for the offset planner ---------------===//
//
// This file tests the offset planners for validity on random instances,
// the exact search against a brute-force oracle that tries every placement
// order, and verifyOffsets() against a quadratic checker.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/OffsetPlanner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

using namespace mlir::memsched::scheduling;

namespace {

using Requests = std::vector<AllocationRequest>;

const OffsetAlgorithm kAllAlgorithms[] = {
    OffsetAlgorithm::Auto,          OffsetAlgorithm::GreedyBySize,
    OffsetAlgorithm::BestFitBySize, OffsetAlgorithm::BestFitByLifetime,
    OffsetAlgorithm::XlaBest,       OffsetAlgorithm::Exact,
};

const OffsetAlgorithm kHeuristics[] = {
    OffsetAlgorithm::GreedyBySize,
    OffsetAlgorithm::BestFitBySize,
    OffsetAlgorithm::BestFitByLifetime,
    OffsetAlgorithm::XlaBest,
};

//===----------------------------------------------------------------------===//
// Independent oracles. They share no code with the planner.
//===----------------------------------------------------------------------===//

int64_t roundUp(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

bool lifetimesIntersect(const AllocationRequest &a,
                        const AllocationRequest &b) {
  return a.start <= b.end && b.start <= a.end;
}

/// Max-live by walking every step.
int64_t naiveMaxLive(const Requests &requests) {
  if (requests.empty())
    return 0;
  int64_t first = requests[0].start, last = requests[0].end;
  for (const AllocationRequest &r : requests) {
    first = std::min(first, r.start);
    last = std::max(last, r.end);
  }
  int64_t best = 0;
  for (int64_t step = first; step <= last; ++step) {
    int64_t live = 0;
    for (const AllocationRequest &r : requests)
      if (r.start <= step && step <= r.end)
        live += r.sizeBytes;
    best = std::max(best, live);
  }
  return best;
}

/// Checks every pair.
bool naiveValid(const Requests &requests, const std::vector<int64_t> &offsets,
                int64_t alignment) {
  for (size_t i = 0; i < requests.size(); ++i) {
    if (offsets[i] < 0 || offsets[i] % alignment != 0)
      return false;
    for (size_t j = 0; j < i; ++j) {
      const AllocationRequest &a = requests[i], &b = requests[j];
      if (a.sizeBytes == 0 || b.sizeBytes == 0 || !lifetimesIntersect(a, b))
        continue;
      if (offsets[i] < offsets[j] + b.sizeBytes &&
          offsets[j] < offsets[i] + a.sizeBytes)
        return false;
    }
  }
  return true;
}

/// The optimal arena by brute force: every order of the buffers, each
/// placed at the lowest aligned offset where it fits among the buffers
/// placed before it whose lifetimes intersect its own. Some optimal plan is
/// reached this way (push buffers down while one can move, then list them
/// by offset), so the minimum over orders is the optimum.
int64_t bruteForceArena(const Requests &requests, int64_t alignment) {
  std::vector<int> order;
  for (size_t i = 0; i < requests.size(); ++i)
    if (requests[i].sizeBytes > 0)
      order.push_back(static_cast<int>(i));
  int64_t best = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> offsets(requests.size(), 0);
  do {
    int64_t arena = 0;
    for (size_t k = 0; k < order.size(); ++k) {
      const AllocationRequest &r = requests[order[k]];
      std::vector<int64_t> candidates = {0};
      for (size_t j = 0; j < k; ++j)
        if (lifetimesIntersect(r, requests[order[j]]))
          candidates.push_back(roundUp(
              offsets[order[j]] + requests[order[j]].sizeBytes, alignment));
      std::sort(candidates.begin(), candidates.end());
      for (int64_t candidate : candidates) {
        bool fits = true;
        for (size_t j = 0; j < k && fits; ++j) {
          const AllocationRequest &other = requests[order[j]];
          if (lifetimesIntersect(r, other) &&
              candidate < offsets[order[j]] + other.sizeBytes &&
              offsets[order[j]] < candidate + r.sizeBytes)
            fits = false;
        }
        if (fits) {
          offsets[order[k]] = candidate;
          break;
        }
      }
      arena = std::max(arena, offsets[order[k]] + r.sizeBytes);
    }
    best = std::min(best, arena);
  } while (std::next_permutation(order.begin(), order.end()));
  return order.empty() ? 0 : best;
}

//===----------------------------------------------------------------------===//
// Random instances.
//===----------------------------------------------------------------------===//

/// n buffers over `horizon` steps; sizes mix small odd byte counts, sizes
/// around the alignments, and large ones, with an occasional zero.
Requests makeRandom(std::mt19937_64 &rng, int n, int64_t horizon) {
  Requests requests;
  for (int i = 0; i < n; ++i) {
    int64_t start = static_cast<int64_t>(rng() % horizon);
    int64_t length =
        static_cast<int64_t>(rng() % std::max<int64_t>(1, horizon / 2 + 1));
    int64_t size = 0;
    switch (rng() % 8) {
    case 0:
      size = 0;
      break;
    case 1:
    case 2:
      size = 1 + static_cast<int64_t>(rng() % 100);
      break;
    case 3:
    case 4:
      size = 1 + static_cast<int64_t>(rng() % 600);
      break;
    default:
      size = 1 + static_cast<int64_t>(rng() % 5000);
      break;
    }
    requests.push_back({1000 + i, start, start + length, size});
  }
  return requests;
}

int64_t pickAlignment(std::mt19937_64 &rng) {
  const int64_t alignments[] = {1, 64, 256};
  return alignments[rng() % 3];
}

std::optional<OffsetPlan> plan(const Requests &requests,
                               OffsetAlgorithm algorithm, int64_t alignment,
                               double seconds = 0.0,
                               std::string *error = nullptr) {
  OffsetPlanOptions options;
  options.algorithm = algorithm;
  options.alignment = alignment;
  options.timeLimitSeconds = seconds;
  return planOffsets(requests, options, error);
}

/// The checks every plan must pass.
void expectValidPlan(const Requests &requests, const OffsetPlan &result,
                     int64_t alignment, const std::string &context) {
  std::string why;
  ASSERT_EQ(result.offsets.size(), requests.size()) << context;
  EXPECT_TRUE(verifyOffsets(requests, result.offsets, alignment, &why))
      << context << ": " << why;
  EXPECT_TRUE(naiveValid(requests, result.offsets, alignment)) << context;
  int64_t arena = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    arena = std::max(arena, result.offsets[i] + requests[i].sizeBytes);
    if (requests[i].sizeBytes == 0) {
      EXPECT_EQ(result.offsets[i], 0) << context;
    }
  }
  EXPECT_EQ(result.arenaBytes, arena) << context;
  int64_t maxLive = naiveMaxLive(requests);
  EXPECT_EQ(result.maxLiveBytes, maxLive) << context;
  EXPECT_GE(result.arenaBytes, maxLive) << context;
  EXPECT_FALSE(result.algorithm.empty()) << context;
  EXPECT_FALSE(result.candidates.empty()) << context;
  for (const auto &[name, candidateArena] : result.candidates)
    EXPECT_GE(candidateArena, result.arenaBytes) << context << " " << name;
}

//===----------------------------------------------------------------------===//
// Tests.
//===----------------------------------------------------------------------===//

TEST(OffsetPlannerTest, EveryAlgorithmGivesValidPlans) {
  std::mt19937_64 rng(1);
  for (int trial = 0; trial < 1000; ++trial) {
    int n = 1 + static_cast<int>(rng() % 40);
    Requests requests = makeRandom(rng, n, 1 + rng() % 30);
    int64_t alignment = pickAlignment(rng);
    for (OffsetAlgorithm algorithm : kAllAlgorithms) {
      std::string context = "trial " + std::to_string(trial) + " " +
                            getOffsetAlgorithmName(algorithm) + " alignment " +
                            std::to_string(alignment);
      // With the default node limit, exact may give up on the larger
      // instances.
      std::string error;
      std::optional<OffsetPlan> result =
          plan(requests, algorithm, alignment, 0.0, &error);
      if (algorithm == OffsetAlgorithm::Exact && !result) {
        EXPECT_NE(error.find("search nodes"), std::string::npos) << error;
        continue;
      }
      ASSERT_TRUE(result) << context << ": " << error;
      expectValidPlan(requests, *result, alignment, context);
      if (result->isOptimal && algorithm != OffsetAlgorithm::Auto &&
          algorithm != OffsetAlgorithm::Exact) {
        // Heuristics claim optimality only at the lower bound, which no
        // other algorithm can beat.
        std::optional<OffsetPlan> best =
            plan(requests, OffsetAlgorithm::Auto, alignment);
        EXPECT_LE(result->arenaBytes, best->arenaBytes) << context;
      }
    }
  }
}

TEST(OffsetPlannerTest, ExactMatchesBruteForce) {
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 2500; ++trial) {
    int n = 1 + static_cast<int>(rng() % 7);
    Requests requests = makeRandom(rng, n, 1 + rng() % 8);
    int64_t alignment = pickAlignment(rng);
    std::string context = "trial " + std::to_string(trial) + " alignment " +
                          std::to_string(alignment);
    int64_t optimum = bruteForceArena(requests, alignment);
    std::string error;
    std::optional<OffsetPlan> exact =
        plan(requests, OffsetAlgorithm::Exact, alignment, 60.0, &error);
    ASSERT_TRUE(exact) << context << ": " << error;
    expectValidPlan(requests, *exact, alignment, context);
    EXPECT_EQ(exact->arenaBytes, optimum) << context;
    EXPECT_TRUE(exact->isOptimal) << context;
    EXPECT_EQ(exact->algorithm, "exact") << context;
    std::optional<OffsetPlan> best =
        plan(requests, OffsetAlgorithm::Auto, alignment, 60.0);
    EXPECT_EQ(best->arenaBytes, optimum) << context;
    EXPECT_TRUE(best->isOptimal) << context;
    for (OffsetAlgorithm heuristic : kHeuristics) {
      std::optional<OffsetPlan> other = plan(requests, heuristic, alignment);
      EXPECT_LE(exact->arenaBytes, other->arenaBytes)
          << context << " " << getOffsetAlgorithmName(heuristic);
      if (other->isOptimal) {
        EXPECT_EQ(other->arenaBytes, optimum)
            << context << " " << getOffsetAlgorithmName(heuristic);
      }
    }
  }
}

TEST(OffsetPlannerTest, AutoIsNoWorseThanAnyHeuristic) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 150; ++trial) {
    int n = 20 + static_cast<int>(rng() % 300);
    Requests requests = makeRandom(rng, n, 10 + rng() % 200);
    int64_t alignment = pickAlignment(rng);
    std::string context = "trial " + std::to_string(trial);
    std::optional<OffsetPlan> best =
        plan(requests, OffsetAlgorithm::Auto, alignment, 0.01);
    ASSERT_TRUE(best);
    expectValidPlan(requests, *best, alignment, context);
    for (OffsetAlgorithm heuristic : kHeuristics) {
      std::optional<OffsetPlan> other = plan(requests, heuristic, alignment);
      expectValidPlan(requests, *other, alignment, context);
      EXPECT_LE(best->arenaBytes, other->arenaBytes)
          << context << " " << getOffsetAlgorithmName(heuristic);
    }
  }
}

TEST(OffsetPlannerTest, XlaBestIsTheBetterOrder) {
  std::mt19937_64 rng(4);
  for (int trial = 0; trial < 200; ++trial) {
    Requests requests = makeRandom(rng, 1 + rng() % 60, 1 + rng() % 40);
    int64_t alignment = pickAlignment(rng);
    std::optional<OffsetPlan> bySize =
        plan(requests, OffsetAlgorithm::BestFitBySize, alignment);
    std::optional<OffsetPlan> byLifetime =
        plan(requests, OffsetAlgorithm::BestFitByLifetime, alignment);
    std::optional<OffsetPlan> xla =
        plan(requests, OffsetAlgorithm::XlaBest, alignment);
    EXPECT_EQ(xla->arenaBytes,
              std::min(bySize->arenaBytes, byLifetime->arenaBytes));
    EXPECT_EQ(xla->candidates.size(), 2u);
  }
}

TEST(OffsetPlannerTest, ExactBeatsGreedyBySizeOnAHandMadeInstance) {
  // Greedy by size (and XLA's size order) places the size-4 buffer at 0,
  // then [2,4] above it at 4 and [0,2] in the gap below at 0, leaving [1,2]
  // no room under 7: arena 10. Putting [2,4] at 0 and the size-4 buffer
  // above it packs the three buffers live at step 2 tightly: arena 9 =
  // max-live.
  Requests requests = {
      {0, 3, 4, 4},
      {1, 2, 4, 3},
      {2, 1, 2, 3},
      {3, 0, 2, 3},
  };
  std::optional<OffsetPlan> greedy =
      plan(requests, OffsetAlgorithm::GreedyBySize, 1);
  std::optional<OffsetPlan> bySize =
      plan(requests, OffsetAlgorithm::BestFitBySize, 1);
  std::optional<OffsetPlan> exact = plan(requests, OffsetAlgorithm::Exact, 1);
  std::optional<OffsetPlan> best = plan(requests, OffsetAlgorithm::Auto, 1);
  ASSERT_TRUE(greedy && bySize && exact && best);
  EXPECT_EQ(greedy->arenaBytes, 10);
  EXPECT_EQ(greedy->offsets, (std::vector<int64_t>{0, 4, 7, 0}));
  EXPECT_FALSE(greedy->isOptimal);
  EXPECT_EQ(bySize->arenaBytes, 10);
  EXPECT_EQ(exact->arenaBytes, 9);
  EXPECT_EQ(exact->maxLiveBytes, 9);
  EXPECT_TRUE(exact->isOptimal);
  EXPECT_EQ(best->arenaBytes, 9);
  EXPECT_TRUE(best->isOptimal);
  expectValidPlan(requests, *exact, 1, "exact");
  EXPECT_EQ(bruteForceArena(requests, 1), 9);
}

TEST(OffsetPlannerTest, ExactSolvesIndependentPartitions) {
  // Two groups of lifetimes that never meet; the second decides the arena.
  Requests requests = {
      {0, 3, 4, 4},   {1, 2, 4, 3},   {2, 1, 2, 3},   {3, 0, 2, 3},
      {4, 10, 11, 8}, {5, 11, 12, 5}, {6, 12, 12, 2},
  };
  std::optional<OffsetPlan> exact = plan(requests, OffsetAlgorithm::Exact, 1);
  ASSERT_TRUE(exact);
  expectValidPlan(requests, *exact, 1, "partitions");
  EXPECT_EQ(exact->arenaBytes, 13);
  EXPECT_EQ(exact->arenaBytes, bruteForceArena(requests, 1));
}

TEST(OffsetPlannerTest, AlignmentPadsAllButTheTopBuffer) {
  // Two buffers of 10 bytes live together with 64-byte alignment: one at 0,
  // the other at 64, so the arena is 74, not 128 (the top one is not
  // padded) and not 20.
  Requests requests = {{0, 0, 1, 10}, {1, 1, 2, 10}};
  for (OffsetAlgorithm algorithm : kAllAlgorithms) {
    std::optional<OffsetPlan> result = plan(requests, algorithm, 64);
    ASSERT_TRUE(result);
    EXPECT_EQ(result->arenaBytes, 74) << getOffsetAlgorithmName(algorithm);
    EXPECT_EQ(result->maxLiveBytes, 20);
    EXPECT_TRUE(result->isOptimal) << getOffsetAlgorithmName(algorithm);
  }
}

TEST(OffsetPlannerTest, ZeroSizeAndEmptyRequests) {
  std::optional<OffsetPlan> empty = plan({}, OffsetAlgorithm::Auto, 256);
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->arenaBytes, 0);
  EXPECT_EQ(empty->maxLiveBytes, 0);
  EXPECT_TRUE(empty->isOptimal);
  EXPECT_EQ(empty->fragmentation(), 1.0);

  Requests requests = {{0, 0, 5, 0}, {1, 0, 5, 100}, {2, 2, 3, 0}};
  for (OffsetAlgorithm algorithm : kAllAlgorithms) {
    std::optional<OffsetPlan> result = plan(requests, algorithm, 64);
    ASSERT_TRUE(result);
    EXPECT_EQ(result->offsets, (std::vector<int64_t>{0, 0, 0}));
    EXPECT_EQ(result->arenaBytes, 100);
  }
  // A zero-size request never conflicts, wherever it sits.
  EXPECT_TRUE(verifyOffsets(requests, {64, 0, 0}, 64));
}

TEST(OffsetPlannerTest, RejectsInvalidInput) {
  std::string error;
  OffsetPlanOptions options;
  EXPECT_FALSE(planOffsets({{7, 0, 1, -5}}, options, &error));
  EXPECT_NE(error.find("id 7"), std::string::npos) << error;
  EXPECT_NE(error.find("negative size"), std::string::npos) << error;
  EXPECT_FALSE(planOffsets({{3, 4, 1, 5}}, options, &error));
  EXPECT_NE(error.find("starts after it ends"), std::string::npos) << error;
  for (int64_t alignment : {0, -64, 3, 96}) {
    options.alignment = alignment;
    EXPECT_FALSE(planOffsets({{0, 0, 1, 5}}, options, &error));
    EXPECT_NE(error.find("power of two"), std::string::npos) << error;
  }
}

TEST(OffsetPlannerTest, ExactRefusesTooManyLiveBuffers) {
  Requests requests;
  for (int i = 0; i < 10; ++i)
    requests.push_back({i, 0, 3, 100 + i});
  OffsetPlanOptions options;
  options.algorithm = OffsetAlgorithm::Exact;
  options.exactMaxBuffers = 9;
  std::string error;
  EXPECT_FALSE(planOffsets(requests, options, &error));
  EXPECT_NE(error.find("at most 9"), std::string::npos) << error;
  EXPECT_NE(error.find("10 are"), std::string::npos) << error;
  // Auto keeps the best heuristic instead.
  options.algorithm = OffsetAlgorithm::Auto;
  std::optional<OffsetPlan> result = planOffsets(requests, options, &error);
  ASSERT_TRUE(result);
  expectValidPlan(requests, *result, options.alignment, "auto");
}

TEST(OffsetPlannerTest, ExactRefusesLongChainsOfLifetimes) {
  // A small instance every named heuristic gets wrong (arena above 9 =
  // max-live; in the planner's canonical order of the requests), chained
  // to 4200 more buffers: one partition too large for the exact search,
  // though few buffers are ever live together.
  Requests requests = {{0, 2, 3, 3}, {1, 0, 2, 3}, {2, 0, 1, 2}, {3, 3, 4, 2},
                       {4, 2, 3, 2}, {5, 4, 4, 2}, {6, 3, 3, 2}};
  for (OffsetAlgorithm heuristic : kHeuristics)
    EXPECT_GT(plan(requests, heuristic, 1)->arenaBytes, 9);
  EXPECT_EQ(plan(requests, OffsetAlgorithm::Exact, 1)->arenaBytes, 9);
  for (int k = 0; k < 4200; ++k)
    requests.push_back({100 + k, 4 + k, 5 + k, 1});
  std::string error;
  EXPECT_FALSE(plan(requests, OffsetAlgorithm::Exact, 1, 10.0, &error));
  EXPECT_NE(error.find("at most 4096 buffers"), std::string::npos) << error;
  std::optional<OffsetPlan> best =
      plan(requests, OffsetAlgorithm::Auto, 1, 0.5, &error);
  ASSERT_TRUE(best) << error;
  expectValidPlan(requests, *best, 1, "chain");
}

TEST(OffsetPlannerTest, ExactReportsTheTimeLimit) {
  // Find an instance no heuristic solves to the lower bound (alignment 1,
  // so the bound is max-live), then give the exact search no time.
  std::mt19937_64 rng(5);
  for (int attempt = 0; attempt < 200; ++attempt) {
    Requests requests;
    for (int i = 0; i < 60; ++i) {
      int64_t start = static_cast<int64_t>(rng() % 60);
      requests.push_back({i, start, start + static_cast<int64_t>(rng() % 12),
                          1 + static_cast<int64_t>(rng() % 1000)});
    }
    OffsetPlanOptions options;
    options.alignment = 1;
    options.exactMaxBuffers = 0;
    std::optional<OffsetPlan> heuristic = planOffsets(requests, options);
    if (heuristic->isOptimal)
      continue;
    options.algorithm = OffsetAlgorithm::Exact;
    options.exactMaxBuffers = 64;
    options.timeLimitSeconds = 1e-9;
    std::string error;
    std::optional<OffsetPlan> result = planOffsets(requests, options, &error);
    if (result)
      continue; // Solved within the first batch of nodes.
    EXPECT_NE(error.find("ran out of time"), std::string::npos) << error;
    EXPECT_NE(error.find("lower bound"), std::string::npos) << error;
    return;
  }
  FAIL() << "no instance needed more than a few exact nodes";
}

TEST(OffsetPlannerTest, ExactReportsTheNodeLimit) {
  // An instance no heuristic solves to the lower bound, and an exact search
  // allowed a single node.
  std::mt19937_64 rng(5);
  for (int attempt = 0; attempt < 200; ++attempt) {
    Requests requests = makeRandom(rng, 60, 60);
    OffsetPlanOptions options;
    options.alignment = 1;
    options.exactMaxBuffers = 0;
    std::optional<OffsetPlan> heuristic = planOffsets(requests, options);
    if (heuristic->isOptimal)
      continue;
    options.algorithm = OffsetAlgorithm::Exact;
    options.exactMaxBuffers = 64;
    options.exactMaxNodes = 1;
    std::string error;
    EXPECT_FALSE(planOffsets(requests, options, &error));
    EXPECT_NE(error.find("reached its limit of 1 search nodes"),
              std::string::npos)
        << error;
    // Auto keeps the heuristics' plan and counts the node it spent.
    options.algorithm = OffsetAlgorithm::Auto;
    std::optional<OffsetPlan> result = planOffsets(requests, options);
    ASSERT_TRUE(result);
    EXPECT_FALSE(result->isOptimal);
    EXPECT_LE(result->exactNodes, 1);
    return;
  }
  FAIL() << "every instance was solved by a heuristic";
}

TEST(OffsetPlannerTest, LargeInstancesArePlannedQuickly) {
  // 20k buffers: a smoke test of the interval index (the benchmark
  // measures speed).
  std::mt19937_64 rng(6);
  Requests requests;
  for (int i = 0; i < 20000; ++i) {
    int64_t start = static_cast<int64_t>(rng() % 20000);
    requests.push_back({i, start, start + static_cast<int64_t>(rng() % 40),
                        1 + static_cast<int64_t>(rng() % 100000)});
  }
  for (OffsetAlgorithm algorithm : kHeuristics) {
    std::optional<OffsetPlan> result = plan(requests, algorithm, 256);
    ASSERT_TRUE(result);
    EXPECT_TRUE(verifyOffsets(requests, result->offsets, 256));
    EXPECT_GE(result->arenaBytes, result->maxLiveBytes);
    EXPECT_LT(result->fragmentation(), 1.5);
  }
  std::optional<OffsetPlan> result =
      plan(requests, OffsetAlgorithm::Auto, 256, 0.2);
  ASSERT_TRUE(result);
  EXPECT_TRUE(verifyOffsets(requests, result->offsets, 256));
  EXPECT_EQ(result->maxLiveBytes, computeMaxLiveBytes(requests));
}

TEST(OffsetPlannerTest, VerifyRejectsBadPlans) {
  Requests requests = {{10, 0, 4, 100}, {11, 4, 6, 50}, {12, 5, 9, 64}};
  std::string why;
  EXPECT_TRUE(verifyOffsets(requests, {0, 128, 0}, 64, &why)) << why;
  // Touching byte ranges are fine.
  EXPECT_TRUE(verifyOffsets(requests, {0, 128, 192}, 64, &why)) << why;

  EXPECT_FALSE(verifyOffsets(requests, {0, 64, 0}, 64, &why));
  EXPECT_NE(why.find("overlaps"), std::string::npos) << why;
  EXPECT_NE(why.find("id 10"), std::string::npos) << why;
  EXPECT_NE(why.find("id 11"), std::string::npos) << why;
  EXPECT_NE(why.find("step 4"), std::string::npos) << why;

  EXPECT_FALSE(verifyOffsets(requests, {0, 130, 0}, 64, &why));
  EXPECT_NE(why.find("not a multiple of the alignment 64"), std::string::npos)
      << why;
  EXPECT_FALSE(verifyOffsets(requests, {0, -128, 0}, 64, &why));
  EXPECT_NE(why.find("negative offset"), std::string::npos) << why;
  EXPECT_FALSE(verifyOffsets(requests, {0, 128}, 64, &why));
  EXPECT_NE(why.find("expected 3 offsets"), std::string::npos) << why;
  EXPECT_FALSE(verifyOffsets(requests, {0, 128, 0}, 48, &why));
  EXPECT_NE(why.find("power of two"), std::string::npos) << why;
  // Same offset, both live: an overlap even though neither contains the
  // other's start strictly.
  EXPECT_FALSE(verifyOffsets({{0, 0, 0, 8}, {1, 0, 0, 8}}, {0, 0}, 1, &why));
}

TEST(OffsetPlannerTest, VerifyAgreesWithPairwiseCheck) {
  std::mt19937_64 rng(7);
  int rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Requests requests = makeRandom(rng, 1 + rng() % 25, 1 + rng() % 20);
    int64_t alignment = pickAlignment(rng);
    std::optional<OffsetPlan> result =
        plan(requests, OffsetAlgorithm::BestFitBySize, alignment);
    std::vector<int64_t> offsets = result->offsets;
    // Corrupt some plans: move a buffer onto another, or off alignment.
    if (rng() % 2 && offsets.size() > 1) {
      size_t i = rng() % offsets.size(), j = rng() % offsets.size();
      offsets[i] = offsets[j] + (rng() % 3 == 0 ? 1 : 0) * alignment;
      if (rng() % 5 == 0)
        offsets[i] += 1;
    }
    bool expected = naiveValid(requests, offsets, alignment);
    std::string why;
    EXPECT_EQ(verifyOffsets(requests, offsets, alignment, &why), expected)
        << "trial " << trial << ": " << why;
    if (!expected) {
      EXPECT_FALSE(why.empty());
    }
    rejected += !expected;
  }
  EXPECT_GT(rejected, 300);
}

TEST(OffsetPlannerTest, ComputesMaxLive) {
  EXPECT_EQ(computeMaxLiveBytes({}), 0);
  EXPECT_EQ(computeMaxLiveBytes({{0, 0, 2, 5}, {1, 2, 3, 7}, {2, 3, 3, 1}}),
            12);
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 200; ++trial) {
    Requests requests = makeRandom(rng, rng() % 30, 1 + rng() % 30);
    EXPECT_EQ(computeMaxLiveBytes(requests), naiveMaxLive(requests));
  }
}

TEST(OffsetPlannerTest, AlgorithmNamesRoundTrip) {
  std::string names = getOffsetAlgorithmNames();
  for (OffsetAlgorithm algorithm : kAllAlgorithms) {
    std::string name = getOffsetAlgorithmName(algorithm);
    EXPECT_EQ(parseOffsetAlgorithm(name), algorithm) << name;
    EXPECT_NE(names.find(name), std::string::npos) << names;
  }
  EXPECT_EQ(std::string(getOffsetAlgorithmName(OffsetAlgorithm::Auto)), "auto");
  EXPECT_EQ(parseOffsetAlgorithm("greedy"), OffsetAlgorithm::GreedyBySize);
  EXPECT_EQ(parseOffsetAlgorithm("xla"), OffsetAlgorithm::XlaBest);
  EXPECT_FALSE(parseOffsetAlgorithm("best-fit"));
  EXPECT_FALSE(parseOffsetAlgorithm(""));
}

} // namespace
