//===- ReorderTest.cpp - Tests for the memory-aware schedulers ------------===//
//
// This file tests the schedulers against a brute-force oracle that walks every
// topological order of small problems, and checks the heuristics, Liu's tree
// algorithms, the windowed search and reorder() for validity and the
// guarantees their documentation gives.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Reorder.h"
#include "ChainFolding.h"
#include "ScheduleGraph.h"
#include "SchedulingTestHelpers.h"
#include "memsched/Scheduling/Footprint.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/Oracles/Generators.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <unordered_map>

using namespace mlir::memsched::scheduling;
using mlir::memsched::scheduling::test::isChain;
using mlir::memsched::scheduling::test::peakOf;

namespace {

//===----------------------------------------------------------------------===//
// Brute-force oracle.
//===----------------------------------------------------------------------===//

/// Walks the topological orders of a problem of at most 64 tasks by
/// recursive DFS, tracking live transient bytes incrementally: a buffer
/// becomes live at the first task using it and dies after the last, unless it
/// escapes. It deliberately shares no code with the schedulers.
class BruteForce {
public:
  explicit BruteForce(const Problem &problem)
      : numTasks(static_cast<int>(problem.numTasks())) {
    EXPECT_LE(numTasks, 64);
    predMask.assign(numTasks, 0);
    uses.assign(numTasks, {});
    workspace.assign(numTasks, 0);
    size_t numBuffers = problem.numBuffers();
    size.assign(numBuffers, 0);
    remaining.assign(numBuffers, 0);
    escaping.assign(numBuffers, false);
    started.assign(numBuffers, false);
    for (size_t id = 0; id < numBuffers; ++id) {
      const Buffer &b = problem.buffer(static_cast<BufferId>(id));
      size[id] = b.sizeBytes;
      escaping[id] = b.liveToEnd;
    }
    for (size_t id = 0; id < problem.numValues(); ++id) {
      const Value &v = problem.value(static_cast<ValueId>(id));
      if (v.liveToEnd)
        escaping[v.buffer] = true;
    }
    for (int t = 0; t < numTasks; ++t) {
      workspace[t] = problem.task(t).workspaceBytes;
      for (TaskId pred : problem.predecessors(t))
        predMask[t] |= uint64_t(1) << pred;
      for (BufferId b : problem.buffersUsedBy(t)) {
        if (problem.buffer(b).kind != BufferKind::Transient)
          continue;
        uses[t].push_back(b);
        ++remaining[b];
      }
    }
  }

  /// Calls \p visit with every topological order and its peak.
  void enumerateAll(
      const std::function<void(const std::vector<TaskId> &, int64_t)> &visit) {
    std::vector<TaskId> order;
    enumerate(0, 0, order, visit);
  }

  /// The smallest peak over all topological orders. Branches whose peak so
  /// far reaches the best complete peak are cut, and so is reaching a
  /// down-set again with a peak no smaller than before: live memory depends
  /// only on the set of tasks done, so the rest of the walk would repeat.
  /// Both cuts keep the result exact.
  int64_t optimalPeak() {
    best = std::numeric_limits<int64_t>::max();
    seen.clear();
    search(0, 0, 0);
    return best;
  }

private:
  bool ready(uint64_t done, int t) const {
    return !(done >> t & 1) && (predMask[t] & ~done) == 0;
  }

  /// Runs \p t: returns the bytes live during its step and updates the
  /// live bytes after it.
  int64_t apply(int t) {
    for (BufferId b : uses[t])
      if (!started[b]) {
        started[b] = true;
        live += size[b];
      }
    int64_t during = live + workspace[t];
    for (BufferId b : uses[t])
      if (--remaining[b] == 0 && !escaping[b])
        live -= size[b];
    return during;
  }

  /// Exactly undoes apply(t); \p wasStarted says which buffers t started.
  void undo(int t, const std::vector<bool> &wasStarted) {
    for (BufferId b : uses[t])
      if (remaining[b]++ == 0 && !escaping[b])
        live += size[b];
    for (size_t i = 0; i < uses[t].size(); ++i)
      if (!wasStarted[i]) {
        started[uses[t][i]] = false;
        live -= size[uses[t][i]];
      }
  }

  std::vector<bool> startedFlags(int t) const {
    std::vector<bool> flags;
    for (BufferId b : uses[t])
      flags.push_back(started[b]);
    return flags;
  }

  void enumerate(
      uint64_t done, int64_t peak, std::vector<TaskId> &order,
      const std::function<void(const std::vector<TaskId> &, int64_t)> &visit) {
    if (static_cast<int>(order.size()) == numTasks) {
      visit(order, peak);
      return;
    }
    for (int t = 0; t < numTasks; ++t) {
      if (!ready(done, t))
        continue;
      std::vector<bool> flags = startedFlags(t);
      int64_t during = apply(t);
      order.push_back(t);
      enumerate(done | uint64_t(1) << t, std::max(peak, during), order, visit);
      order.pop_back();
      undo(t, flags);
    }
  }

  void search(uint64_t done, int depth, int64_t peak) {
    if (peak >= best)
      return;
    if (depth == numTasks) {
      best = peak;
      return;
    }
    auto [it, inserted] = seen.try_emplace(done, peak);
    if (!inserted) {
      if (it->second <= peak)
        return;
      it->second = peak;
    }
    for (int t = 0; t < numTasks; ++t) {
      if (!ready(done, t))
        continue;
      std::vector<bool> flags = startedFlags(t);
      int64_t during = apply(t);
      search(done | uint64_t(1) << t, depth + 1, std::max(peak, during));
      undo(t, flags);
    }
  }

  int numTasks;
  std::vector<uint64_t> predMask;
  std::vector<std::vector<BufferId>> uses;
  std::vector<int64_t> workspace;
  std::vector<int64_t> size;
  std::vector<int> remaining;
  std::vector<bool> escaping;
  std::vector<bool> started;
  int64_t live = 0;
  int64_t best = 0;
  std::unordered_map<uint64_t, int64_t> seen;
};

int64_t bruteForcePeak(const Problem &problem) {
  return BruteForce(problem).optimalPeak();
}

//===----------------------------------------------------------------------===//
// Helpers.
//===----------------------------------------------------------------------===//

::testing::AssertionResult isValidOrder(const Problem &problem,
                                        const std::vector<TaskId> &order) {
  std::string why;
  if (problem.isTopologicalOrder(order, &why))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << why;
}

/// Whether \p order is a post-order of the tree: every subtree occupies
/// consecutive positions, with its root last (in-tree) or first (out-tree).
::testing::AssertionResult isPostorder(const Problem &problem, TreeKind kind,
                                       const std::vector<TaskId> &order) {
  size_t n = problem.numTasks();
  std::vector<int> position(n);
  for (size_t pos = 0; pos < n; ++pos)
    position[order[pos]] = static_cast<int>(pos);
  std::vector<int> parent(n, -1), subtreeSize(n, 1);
  std::vector<int> first(n), last(n);
  for (size_t t = 0; t < n; ++t) {
    const std::vector<TaskId> &up = kind == TreeKind::InTree
                                        ? problem.successors(t)
                                        : problem.predecessors(t);
    if (up.size() > 1)
      return ::testing::AssertionFailure()
             << "task " << t << " has " << up.size() << " parents";
    if (!up.empty())
      parent[t] = up[0];
    first[t] = last[t] = position[t];
  }
  // Children before parents: ascending ids for in-trees, descending for
  // out-trees.
  for (size_t i = 0; i < n; ++i) {
    size_t t = kind == TreeKind::InTree ? i : n - 1 - i;
    if (parent[t] < 0)
      continue;
    subtreeSize[parent[t]] += subtreeSize[t];
    first[parent[t]] = std::min(first[parent[t]], first[t]);
    last[parent[t]] = std::max(last[parent[t]], last[t]);
  }
  for (size_t t = 0; t < n; ++t) {
    if (last[t] - first[t] + 1 != subtreeSize[t])
      return ::testing::AssertionFailure()
             << "the subtree of task " << t << " is not contiguous";
    int rootPosition = kind == TreeKind::InTree ? last[t] : first[t];
    if (position[t] != rootPosition)
      return ::testing::AssertionFailure()
             << "task " << t << " is not at the end of its subtree";
  }
  return ::testing::AssertionSuccess();
}

constexpr ReorderAlgorithm kAllAlgorithms[] = {
    ReorderAlgorithm::Auto,         ReorderAlgorithm::Program,
    ReorderAlgorithm::Exact,        ReorderAlgorithm::Liu,
    ReorderAlgorithm::LiuPostorder, ReorderAlgorithm::Postorder,
    ReorderAlgorithm::XlaList,      ReorderAlgorithm::XlaDfs,
    ReorderAlgorithm::InductorLpmf, ReorderAlgorithm::InductorBfs,
    ReorderAlgorithm::InductorDfs,  ReorderAlgorithm::XlaBest,
    ReorderAlgorithm::InductorBest,
};

struct Heuristic {
  const char *name;
  std::vector<TaskId> (*schedule)(const Problem &);
};

constexpr Heuristic kHeuristics[] = {
    {"postorder", schedulePostorder},
    {"xla-list", scheduleXlaList},
    {"xla-dfs", scheduleXlaDfs},
    {"inductor-lpmf", scheduleInductorLpmf},
    {"inductor-bfs", scheduleInductorBfs},
    {"inductor-dfs", scheduleInductorDfs},
};

std::optional<ReorderResult> runReorder(const Problem &problem,
                                        ReorderAlgorithm algorithm,
                                        std::string *error = nullptr,
                                        double timeLimit = 2.0) {
  ReorderOptions options;
  options.algorithm = algorithm;
  options.timeLimitSeconds = timeLimit;
  return reorder(problem, options, error);
}

/// A random DAG for test number \p i: 2..10 tasks and varied densities.
Problem smallDag(int i) {
  static constexpr double kDensities[] = {0.05, 0.3, 0.6, 0.95};
  return makeRandomDag(2 + i % 9, 7919u * i + 11, kDensities[i % 4],
                       i % 3 == 0 ? 10 : 100);
}

//===----------------------------------------------------------------------===//
// The oracle itself.
//===----------------------------------------------------------------------===//

TEST(ReorderTest, OracleMatchesSimulatorOnEveryOrder) {
  std::vector<Problem> problems;
  for (int i = 0; i < 60; ++i) {
    problems.push_back(makeRandomDag(1 + i % 7, 100 + i, 0.2 + 0.01 * i));
    problems.push_back(makeRandomInTree(1 + i % 7, 200 + i, 50, i % 2 == 0));
    problems.push_back(makeRandomOutTree(1 + i % 7, 300 + i, 50, i % 2 == 0));
  }
  problems.push_back(makePostorderCounterexample(1, 2, 100, 1));
  for (const Problem &problem : problems) {
    ASSERT_LE(problem.numTasks(), 7u);
    BruteForce oracle(problem);
    int64_t minimum = std::numeric_limits<int64_t>::max();
    int64_t orders = 0;
    oracle.enumerateAll([&](const std::vector<TaskId> &order, int64_t peak) {
      ++orders;
      EXPECT_EQ(peak, peakOf(problem, order));
      minimum = std::min(minimum, peak);
    });
    EXPECT_GE(orders, 1);
    EXPECT_EQ(oracle.optimalPeak(), minimum);
    // Running the pruned search again on the same object gives the same.
    EXPECT_EQ(oracle.optimalPeak(), minimum);
  }
}

//===----------------------------------------------------------------------===//
// Random DAGs.
//===----------------------------------------------------------------------===//

/// The arena's peak of \p order: live bytes of transient buffers that do not
/// escape, plus the step's workspace (what the planned objective minimises;
/// escaping buffers are allocated whole apart).
int64_t arenaPeakOf(const Problem &problem, const std::vector<TaskId> &order) {
  std::optional<MemoryProfile> profile = simulateMemory(problem, order);
  EXPECT_TRUE(profile.has_value());
  if (!profile)
    return -1;
  std::vector<bool> escaping = problem.escapingBuffers();
  std::vector<int64_t> live(order.size() + 1, 0);
  for (size_t id = 0; id < problem.numBuffers(); ++id) {
    const Buffer &buffer = problem.buffer(static_cast<BufferId>(id));
    const BufferLifetime &lifetime = profile->lifetimes[id];
    if (buffer.kind != BufferKind::Transient || escaping[id] ||
        !lifetime.isLive())
      continue;
    live[lifetime.start] += buffer.sizeBytes;
    live[lifetime.end + 1] -= buffer.sizeBytes;
  }
  int64_t running = 0, peak = 0;
  for (size_t step = 0; step < order.size(); ++step) {
    running += live[step];
    peak = std::max(peak, running + problem.task(order[step]).workspaceBytes);
  }
  return peak;
}

// With ReorderObjective::Planned, auto's order has the smallest arena peak
// of all orders (every order enumerated), and the peak it reports is that.
// Some buffers are made to escape, so that the two objectives differ.
TEST(ReorderTest, PlannedObjectiveMinimisesTheArenaPeak) {
  int differing = 0;
  for (int i = 0; i < 120; ++i) {
    Problem problem = makeRandomDag(2 + i % 6, 4000u + i, 0.2 + 0.005 * i);
    std::mt19937 rng(i);
    for (size_t id = 0; id < problem.numBuffers(); ++id)
      if (problem.buffer(static_cast<BufferId>(id)).kind ==
              BufferKind::Transient &&
          rng() % 3 == 0)
        problem.buffer(static_cast<BufferId>(id)).liveToEnd = true;
    ASSERT_TRUE(problem.verify(nullptr));
    SCOPED_TRACE("dag " + std::to_string(i));
    int64_t optimum = std::numeric_limits<int64_t>::max();
    BruteForce(problem).enumerateAll(
        [&](const std::vector<TaskId> &order, int64_t) {
          optimum = std::min(optimum, arenaPeakOf(problem, order));
        });
    ReorderOptions options;
    options.objective = ReorderObjective::Planned;
    std::string error;
    std::optional<ReorderResult> result = reorder(problem, options, &error);
    ASSERT_TRUE(result.has_value()) << error;
    EXPECT_TRUE(isValidOrder(problem, result->order));
    EXPECT_EQ(arenaPeakOf(problem, result->order), optimum);
    EXPECT_EQ(result->peakTransientBytes, optimum);
    options.objective = ReorderObjective::Peak;
    std::optional<ReorderResult> byPeak = reorder(problem, options, &error);
    ASSERT_TRUE(byPeak.has_value()) << error;
    if (arenaPeakOf(problem, byPeak->order) > optimum)
      ++differing;
  }
  // The test would not tell the objectives apart without such cases.
  EXPECT_GT(differing, 0);
}

TEST(ReorderTest, AlgorithmNamesRoundTrip) {
  std::string all = getReorderAlgorithmNames();
  for (ReorderAlgorithm algorithm : kAllAlgorithms) {
    std::string name = getReorderAlgorithmName(algorithm);
    EXPECT_FALSE(name.empty());
    std::optional<ReorderAlgorithm> parsed = parseReorderAlgorithm(name);
    ASSERT_TRUE(parsed.has_value()) << name;
    EXPECT_EQ(*parsed, algorithm) << name;
    EXPECT_NE(all.find(name), std::string::npos) << name;
  }
  EXPECT_FALSE(parseReorderAlgorithm("").has_value());
  EXPECT_FALSE(parseReorderAlgorithm("bogus").has_value());
  EXPECT_FALSE(parseReorderAlgorithm("xla-lst").has_value());
  EXPECT_FALSE(parseReorderAlgorithm("auto ").has_value());
}

TEST(ReorderTest, RandomDagsMatchBruteForce) {
  for (int i = 0; i < 300; ++i) {
    Problem problem = smallDag(i);
    SCOPED_TRACE("dag " + std::to_string(i) + " with " +
                 std::to_string(problem.numTasks()) + " tasks");
    ASSERT_TRUE(problem.verify(nullptr));
    int64_t optimum = bruteForcePeak(problem);
    int64_t program = peakOf(problem, problem.programOrder());
    ASSERT_LE(optimum, program);

    ExactResult exact = solveExact(problem, ExactOptions());
    EXPECT_TRUE(exact.isOptimal) << exact.limitReason;
    EXPECT_TRUE(isValidOrder(problem, exact.order));
    EXPECT_EQ(exact.peakTransientBytes, optimum);
    EXPECT_EQ(peakOf(problem, exact.order), optimum);

    ExactOptions bounded;
    bounded.upperBoundOrder = problem.programOrder();
    ExactResult fromBound = solveExact(problem, bounded);
    EXPECT_TRUE(fromBound.isOptimal) << fromBound.limitReason;
    EXPECT_EQ(fromBound.peakTransientBytes, optimum);
    EXPECT_EQ(peakOf(problem, fromBound.order), optimum);

    std::vector<int64_t> heuristicPeaks;
    for (const Heuristic &h : kHeuristics) {
      std::vector<TaskId> order = h.schedule(problem);
      EXPECT_TRUE(isValidOrder(problem, order)) << h.name;
      heuristicPeaks.push_back(peakOf(problem, order));
      EXPECT_GE(heuristicPeaks.back(), optimum) << h.name;
    }

    TreeKind kind = classifyTree(problem);
    std::optional<std::vector<TaskId>> liu = scheduleLiuOptimal(problem);
    std::optional<std::vector<TaskId>> liuPost = scheduleLiuPostorder(problem);
    EXPECT_EQ(liu.has_value(), kind != TreeKind::NotATree);
    EXPECT_EQ(liuPost.has_value(), kind != TreeKind::NotATree);
    if (liu) {
      EXPECT_TRUE(isValidOrder(problem, *liu));
      EXPECT_EQ(peakOf(problem, *liu), optimum);
    }
    if (liuPost) {
      EXPECT_TRUE(isValidOrder(problem, *liuPost));
    }

    WindowSearchOptions windows;
    std::vector<TaskId> improved =
        improveByWindows(problem, problem.programOrder(), windows);
    EXPECT_TRUE(isValidOrder(problem, improved));
    int64_t improvedPeak = peakOf(problem, improved);
    EXPECT_LE(improvedPeak, program);
    EXPECT_GE(improvedPeak, optimum);

    for (ReorderAlgorithm algorithm : kAllAlgorithms) {
      const char *name = getReorderAlgorithmName(algorithm);
      std::string error;
      std::optional<ReorderResult> result =
          runReorder(problem, algorithm, &error);
      bool isLiu = algorithm == ReorderAlgorithm::Liu ||
                   algorithm == ReorderAlgorithm::LiuPostorder;
      if (isLiu && kind == TreeKind::NotATree) {
        EXPECT_FALSE(result.has_value()) << name;
        EXPECT_FALSE(error.empty()) << name;
        continue;
      }
      ASSERT_TRUE(result.has_value()) << name << ": " << error;
      EXPECT_TRUE(isValidOrder(problem, result->order)) << name;
      EXPECT_EQ(result->peakTransientBytes, peakOf(problem, result->order))
          << name;
      EXPECT_EQ(result->programPeakTransientBytes, program) << name;
      // The searches may prove more than the order-independent bound.
      EXPECT_GE(result->lowerBoundTransientBytes,
                computeLowerBoundTransientBytes(problem))
          << name;
      EXPECT_GE(result->peakTransientBytes, optimum) << name;
      EXPECT_LE(result->lowerBoundTransientBytes, optimum) << name;
      switch (algorithm) {
      case ReorderAlgorithm::Auto:
        EXPECT_LE(result->peakTransientBytes, program);
        EXPECT_EQ(result->peakTransientBytes, optimum);
        EXPECT_TRUE(result->isOptimal);
        break;
      case ReorderAlgorithm::Exact:
        // The search proves its optimum.
        EXPECT_EQ(result->lowerBoundTransientBytes, optimum) << name;
        [[fallthrough]];
      case ReorderAlgorithm::Liu:
        EXPECT_EQ(result->peakTransientBytes, optimum) << name;
        EXPECT_TRUE(result->isOptimal) << name;
        break;
      case ReorderAlgorithm::Program:
        EXPECT_EQ(result->order, problem.programOrder());
        break;
      case ReorderAlgorithm::Postorder:
        EXPECT_EQ(result->peakTransientBytes, heuristicPeaks[0]);
        break;
      case ReorderAlgorithm::XlaList:
        EXPECT_EQ(result->peakTransientBytes, heuristicPeaks[1]);
        break;
      case ReorderAlgorithm::XlaDfs:
        EXPECT_EQ(result->peakTransientBytes, heuristicPeaks[2]);
        break;
      case ReorderAlgorithm::InductorLpmf:
        EXPECT_EQ(result->peakTransientBytes, heuristicPeaks[3]);
        break;
      case ReorderAlgorithm::InductorBfs:
        EXPECT_EQ(result->peakTransientBytes, heuristicPeaks[4]);
        break;
      case ReorderAlgorithm::InductorDfs:
        EXPECT_EQ(result->peakTransientBytes, heuristicPeaks[5]);
        break;
      case ReorderAlgorithm::XlaBest:
        EXPECT_EQ(result->peakTransientBytes,
                  std::min({heuristicPeaks[0], heuristicPeaks[1],
                            heuristicPeaks[2]}));
        break;
      case ReorderAlgorithm::InductorBest:
        EXPECT_EQ(result->peakTransientBytes,
                  std::min({heuristicPeaks[3], heuristicPeaks[4],
                            heuristicPeaks[5], program}));
        break;
      case ReorderAlgorithm::LiuPostorder:
        break;
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Trees.
//===----------------------------------------------------------------------===//

void checkSmallTree(const Problem &problem, TreeKind expected) {
  ASSERT_TRUE(problem.verify(nullptr));
  // A chain without escaping buffers is an in-tree as well as an out-tree.
  TreeKind kind = classifyTree(problem);
  if (expected == TreeKind::OutTree && isChain(problem))
    ASSERT_NE(kind, TreeKind::NotATree);
  else
    ASSERT_EQ(kind, expected);
  int64_t optimum = bruteForcePeak(problem);

  std::optional<std::vector<TaskId>> liu = scheduleLiuOptimal(problem);
  ASSERT_TRUE(liu.has_value());
  EXPECT_TRUE(isValidOrder(problem, *liu));
  EXPECT_EQ(peakOf(problem, *liu), optimum);

  std::optional<std::vector<TaskId>> post = scheduleLiuPostorder(problem);
  ASSERT_TRUE(post.has_value());
  EXPECT_TRUE(isValidOrder(problem, *post));
  EXPECT_GE(peakOf(problem, *post), optimum);
  EXPECT_TRUE(isPostorder(problem, expected, *post));

  ExactResult exact = solveExact(problem, ExactOptions());
  EXPECT_TRUE(exact.isOptimal) << exact.limitReason;
  EXPECT_EQ(exact.peakTransientBytes, optimum);
  EXPECT_EQ(peakOf(problem, exact.order), optimum);

  std::optional<ReorderResult> viaReorder =
      runReorder(problem, ReorderAlgorithm::Liu);
  ASSERT_TRUE(viaReorder.has_value());
  EXPECT_TRUE(viaReorder->isOptimal);
  EXPECT_EQ(viaReorder->peakTransientBytes, optimum);
}

TEST(ReorderTest, SmallInTreesMatchBruteForce) {
  for (int i = 0; i < 300; ++i) {
    int n = 1 + i % 12;
    SCOPED_TRACE("in-tree " + std::to_string(i) + " with " + std::to_string(n) +
                 " nodes");
    checkSmallTree(makeRandomInTree(n, 1000 + i, 100, i % 2 == 0),
                   TreeKind::InTree);
  }
}

TEST(ReorderTest, SmallOutTreesMatchBruteForce) {
  for (int i = 0; i < 300; ++i) {
    int n = 1 + i % 12;
    SCOPED_TRACE("out-tree " + std::to_string(i) + " with " +
                 std::to_string(n) + " nodes");
    checkSmallTree(makeRandomOutTree(n, 2000 + i, 100, i % 2 == 0),
                   TreeKind::OutTree);
  }
}

TEST(ReorderTest, PostorderCounterexampleRatioGrows) {
  const int64_t big = 1200, small = 1;
  for (int branching : {2, 3}) {
    double previousRatio = 1.0;
    for (int levels = 1; levels <= 4; ++levels) {
      SCOPED_TRACE("K=" + std::to_string(levels) +
                   " b=" + std::to_string(branching));
      Problem problem =
          makePostorderCounterexample(levels, branching, big, small);
      ASSERT_EQ(classifyTree(problem), TreeKind::InTree);
      int64_t postorderPeak =
          big + small + levels * (branching - 1) * (big / branching);
      int64_t optimalPeak = big + small + levels * (branching - 1) * small;

      std::optional<std::vector<TaskId>> post = scheduleLiuPostorder(problem);
      ASSERT_TRUE(post.has_value());
      EXPECT_TRUE(isPostorder(problem, TreeKind::InTree, *post));
      EXPECT_EQ(peakOf(problem, *post), postorderPeak);

      std::optional<std::vector<TaskId>> liu = scheduleLiuOptimal(problem);
      ASSERT_TRUE(liu.has_value());
      EXPECT_EQ(peakOf(problem, *liu), optimalPeak);
      if (problem.numTasks() <= 13) {
        EXPECT_EQ(bruteForcePeak(problem), optimalPeak);
      }

      double ratio = static_cast<double>(postorderPeak) / optimalPeak;
      EXPECT_GT(ratio, previousRatio);
      previousRatio = ratio;
    }
  }
}

TEST(ReorderTest, LargeTreesLiuBeatsPostorder) {
  for (int n : {1000, 10000})
    for (uint64_t seed : {1u, 2u})
      for (bool outTree : {false, true}) {
        SCOPED_TRACE(std::string(outTree ? "out" : "in") + "-tree of " +
                     std::to_string(n) + " nodes, seed " +
                     std::to_string(seed));
        Problem problem = outTree ? makeRandomOutTree(n, seed, 1000, true)
                                  : makeRandomInTree(n, seed, 1000, true);
        std::optional<std::vector<TaskId>> liu = scheduleLiuOptimal(problem);
        std::optional<std::vector<TaskId>> post = scheduleLiuPostorder(problem);
        ASSERT_TRUE(liu.has_value());
        ASSERT_TRUE(post.has_value());
        EXPECT_TRUE(isValidOrder(problem, *liu));
        EXPECT_TRUE(isValidOrder(problem, *post));
        EXPECT_TRUE(isPostorder(
            problem, outTree ? TreeKind::OutTree : TreeKind::InTree, *post));
        int64_t liuPeak = peakOf(problem, *liu);
        EXPECT_LE(liuPeak, peakOf(problem, *post));
        EXPECT_GE(liuPeak, computeLowerBoundTransientBytes(problem));
      }
}

//===----------------------------------------------------------------------===//
// Windowed improvement and reorder() on larger graphs.
//===----------------------------------------------------------------------===//

TEST(ReorderTest, WindowsNeverWorsenAndOftenImprove) {
  int runs = 0, improvements = 0;
  for (int n : {50, 100, 200, 300})
    for (uint64_t seed : {5u, 6u}) {
      Problem problem = makeRandomDag(n, seed * 31 + n, 0.4, 1000);
      std::vector<std::vector<TaskId>> starts = {problem.programOrder(),
                                                 scheduleInductorBfs(problem)};
      for (const std::vector<TaskId> &start : starts) {
        SCOPED_TRACE("dag of " + std::to_string(n) + " tasks, seed " +
                     std::to_string(seed));
        ASSERT_TRUE(isValidOrder(problem, start));
        WindowSearchOptions options;
        options.timeLimitSeconds = 0.25;
        std::vector<TaskId> improved =
            improveByWindows(problem, start, options);
        ASSERT_TRUE(isValidOrder(problem, improved));
        int64_t before = peakOf(problem, start);
        int64_t after = peakOf(problem, improved);
        EXPECT_LE(after, before);
        ++runs;
        if (after < before)
          ++improvements;
      }
    }
  // Random DAGs leave room around the peak step in most starting orders.
  EXPECT_GE(improvements * 2, runs)
      << improvements << " of " << runs << " runs improved";
}

// A mask made from a recomputed activation (as a ReLU6's backward makes
// one) beside the input gradient: the windows cannot move the 36 tasks of
// its making, the hoisting moves them before the gradient exists.
TEST(ReorderTest, HoistingMovesAMakingOffThePeak) {
  Problem problem;
  auto add = [&](int64_t bytes, std::vector<ValueId> inputs) {
    TaskId task = problem.addTask(Task{});
    for (ValueId input : inputs)
      problem.addConsumer(input, task);
    Value value;
    value.sizeBytes = bytes;
    value.buffer = problem.addBuffer({"", bytes, BufferKind::Transient});
    value.producer = task;
    return problem.addValue(value);
  };
  // What the gradient is made from, made first (else a free source the
  // windows would move).
  ValueId upstream = add(1, {});
  ValueId gradient = add(40, {upstream});
  ValueId padded = add(42, {gradient});
  ValueId inputGradient = add(40, {padded});
  // A ladder, not a chain (which the windows' search would fold into one
  // task).
  ValueId before = add(2, {});
  ValueId chain = add(2, {before});
  for (int i = 0; i < 30; ++i)
    std::tie(before, chain) = std::make_pair(chain, add(2, {chain, before}));
  ValueId activation = add(45, {chain});
  ValueId low = add(5, {activation});
  ValueId high = add(5, {activation});
  ValueId mask = add(5, {low, high});
  add(40, {mask, inputGradient});
  std::vector<TaskId> program = problem.programOrder();
  ASSERT_EQ(peakOf(problem, program), 95);
  WindowSearchOptions windows;
  EXPECT_EQ(peakOf(problem, improveByWindows(problem, program, windows)), 95);
  std::vector<TaskId> hoisted = improveByHoisting(problem, program);
  ASSERT_TRUE(isValidOrder(problem, hoisted));
  EXPECT_EQ(peakOf(problem, hoisted), 87);
}

TEST(ReorderTest, ReorderFailsWithAMessage) {
  // Liu on a non-tree.
  int checked = 0;
  for (int i = 0; i < 50 && checked < 3; ++i) {
    Problem problem = makeRandomDag(10, 500 + i, 0.8);
    if (classifyTree(problem) != TreeKind::NotATree)
      continue;
    ++checked;
    for (ReorderAlgorithm algorithm :
         {ReorderAlgorithm::Liu, ReorderAlgorithm::LiuPostorder}) {
      std::string error;
      EXPECT_FALSE(runReorder(problem, algorithm, &error).has_value());
      EXPECT_FALSE(error.empty());
    }
  }
  EXPECT_EQ(checked, 3);

  // Exact above its size limit (parts are measured after folding, so some
  // 10-task DAGs fit in 5).
  int refused = 0;
  std::string error;
  for (uint32_t seed = 42; seed < 62; ++seed) {
    Problem problem = makeRandomDag(10, seed, 0.5);
    ReorderOptions options;
    options.algorithm = ReorderAlgorithm::Exact;
    options.exactMaxTasks = 5;
    error.clear();
    if (reorder(problem, options, &error).has_value())
      continue;
    ++refused;
    EXPECT_NE(error.find("at most 5 tasks"), std::string::npos) << error;
    options.exactMaxTasks = 10;
    error.clear();
    EXPECT_TRUE(reorder(problem, options, &error).has_value()) << error;
  }
  EXPECT_GE(refused, 5);

  // An invalid problem.
  Problem cyclic = makeRandomDag(4, 1);
  cyclic.addDependence(3, 0);
  error.clear();
  EXPECT_FALSE(runReorder(cyclic, ReorderAlgorithm::Auto, &error).has_value());
  EXPECT_FALSE(error.empty());
}

void expectAutoBeatsBaselines(const Problem &problem) {
  ReorderOptions options;
  options.timeLimitSeconds = 0.5;
  std::string error;
  std::optional<ReorderResult> result = reorder(problem, options, &error);
  ASSERT_TRUE(result.has_value()) << error;
  ASSERT_TRUE(isValidOrder(problem, result->order));
  int64_t autoPeak = peakOf(problem, result->order);
  EXPECT_EQ(result->peakTransientBytes, autoPeak);
  EXPECT_LE(autoPeak, peakOf(problem, problem.programOrder()));
  EXPECT_GE(autoPeak, computeLowerBoundTransientBytes(problem));
  for (const Heuristic &h : kHeuristics)
    EXPECT_LE(autoPeak, peakOf(problem, h.schedule(problem))) << h.name;
  EXPECT_FALSE(result->candidates.empty());
}

TEST(ReorderTest, AutoBeatsBaselinesOnTrainingSteps) {
  for (uint64_t seed : {1u, 2u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    expectAutoBeatsBaselines(makeTrainingStep(8, 2, seed));
  }
}

TEST(ReorderTest, AutoBeatsBaselinesOnRandWire) {
  for (uint64_t seed : {1u, 2u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    expectAutoBeatsBaselines(makeRandWire(3, 16, 4, 0.75, seed));
  }
}

// XLA documents a counterexample for its list scheduler, but not precisely
// enough (sizes, tie-breaking) to rebuild it, so it is not reproduced here.

} // namespace

/// \p problem with \p numFree tasks that touch no memory (like tensor.empty
/// or a constant) put first, each ordered before two random tasks.
Problem withFreeSources(const Problem &problem, int numFree, uint64_t seed) {
  Problem result;
  for (int i = 0; i < numFree; ++i) {
    Task task;
    task.name = "free" + std::to_string(i);
    result.addTask(task);
  }
  TaskId shift = numFree;
  for (size_t id = 0; id < problem.numTasks(); ++id)
    result.addTask(problem.task(static_cast<TaskId>(id)));
  for (size_t id = 0; id < problem.numBuffers(); ++id)
    result.addBuffer(problem.buffer(static_cast<BufferId>(id)));
  for (size_t id = 0; id < problem.numValues(); ++id) {
    Value value = problem.value(static_cast<ValueId>(id));
    if (value.producer != kNoId)
      value.producer += shift;
    for (TaskId &consumer : value.consumers)
      consumer += shift;
    result.addValue(value);
  }
  for (auto [before, after] : problem.extraDependences())
    result.addDependence(before + shift, after + shift);
  uint64_t state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (int i = 0; i < numFree; ++i)
    for (int edge = 0; edge < 2 && problem.numTasks() > 0; ++edge) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      result.addDependence(
          i, shift + static_cast<TaskId>((state >> 33) % problem.numTasks()));
    }
  return result;
}

TEST(ReorderTest, FreeSourcesDoNotChangeTheOptimum) {
  for (int i = 0; i < 100; ++i) {
    Problem base = smallDag(i);
    Problem problem = withFreeSources(base, 1 + i % 4, i);
    SCOPED_TRACE("dag " + std::to_string(i));
    ASSERT_TRUE(problem.verify(nullptr));
    int64_t optimum = bruteForcePeak(problem);
    EXPECT_EQ(optimum, bruteForcePeak(base));
    ExactResult exact = solveExact(problem, ExactOptions());
    EXPECT_TRUE(exact.isOptimal) << exact.limitReason;
    EXPECT_TRUE(isValidOrder(problem, exact.order));
    EXPECT_EQ(peakOf(problem, exact.order), optimum);
    std::vector<TaskId> windows = improveByWindows(
        problem, problem.programOrder(), WindowSearchOptions());
    EXPECT_TRUE(isValidOrder(problem, windows));
    EXPECT_LE(peakOf(problem, windows),
              peakOf(problem, problem.programOrder()));
    std::optional<ReorderResult> result =
        runReorder(problem, ReorderAlgorithm::Auto);
    ASSERT_TRUE(result);
    EXPECT_EQ(peakOf(problem, result->order), optimum);
  }
}

//===----------------------------------------------------------------------===//
// Chain folding.
//===----------------------------------------------------------------------===//

namespace {
/// A random DAG shaped like imported graphs: mostly chains (each task reads
/// the previous task's value), some fan-out and fan-in, output fills read
/// only by the next task, escaping values, workspaces and a few fences.
Problem makeChainyDag(int numTasks, uint32_t seed) {
  std::mt19937 random(seed);
  auto chance = [&](double p) {
    return std::uniform_real_distribution<double>(0, 1)(random) < p;
  };
  auto pick = [&](int below) {
    return std::uniform_int_distribution<int>(0, below - 1)(random);
  };
  Problem problem;
  std::vector<ValueId> values;
  for (int t = 0; t < numTasks; ++t) {
    Task task;
    task.workspaceBytes = chance(0.3) ? 1 + pick(60) : 0;
    task.isFence = chance(0.04);
    TaskId id = problem.addTask(task);
    if (t > 0 && chance(0.7))
      problem.addConsumer(values[t - 1], id);
    if (t > 1 && chance(0.4))
      problem.addConsumer(values[pick(t - 1)], id);
    Value value;
    value.sizeBytes = 1 + pick(100);
    value.buffer = problem.addBuffer(
        {"", value.sizeBytes, BufferKind::Transient, chance(0.1)});
    value.producer = id;
    values.push_back(problem.addValue(value));
  }
  return problem;
}
} // namespace

/// Every order of `reduced` maps back to one of `original` with the same
/// peak, and both have the same minimum.
template <typename MapBack>
void expectSamePeaks(const Problem &original, const Problem &reduced,
                     MapBack mapBack) {
  std::string error;
  ASSERT_TRUE(reduced.verify(&error)) << error;
  EXPECT_EQ(bruteForcePeak(reduced), bruteForcePeak(original));
  BruteForce(reduced).enumerateAll(
      [&](const std::vector<TaskId> &order, int64_t peak) {
        std::vector<TaskId> back = mapBack(order);
        ASSERT_TRUE(isValidOrder(original, back));
        EXPECT_EQ(peakOf(original, back), peak);
      });
}

TEST(ReorderTest, ReductionsKeepTheOptimumAndThePeaks) {
  int removed = 0, folded = 0;
  for (uint32_t i = 0; i < 600; ++i) {
    // Chain-shaped DAGs, and the dense random DAGs of the other tests.
    Problem problem =
        i % 2 == 0 ? makeChainyDag(2 + i % 10, 1000 + i) : smallDag(i);
    SCOPED_TRACE("dag " + std::to_string(i));
    ASSERT_TRUE(problem.verify(nullptr));
    int64_t optimum = bruteForcePeak(problem);
    // Apply the reductions as the exact search does, until neither applies.
    Problem current = problem;
    for (int level = 0; level < 20; ++level) {
      SCOPED_TRACE("level " + std::to_string(level));
      detail::ReducedProblem reduced = detail::removeFreeSources(current);
      if (reduced.isReduced()) {
        removed += static_cast<int>(reduced.freeTasks.size());
        expectSamePeaks(current, reduced.problem,
                        [&](const std::vector<TaskId> &order) {
                          return detail::expandOrder(current, reduced, order);
                        });
        EXPECT_TRUE(isValidOrder(
            reduced.problem,
            detail::restrictOrder(reduced, current.programOrder())));
        current = reduced.problem;
        continue;
      }
      detail::FoldedProblem chains = detail::foldChains(current);
      if (!chains.isFolded())
        break;
      folded +=
          static_cast<int>(current.numTasks() - chains.problem.numTasks());
      expectSamePeaks(current, chains.problem,
                      [&](const std::vector<TaskId> &order) {
                        return detail::unfoldOrder(chains, order);
                      });
      EXPECT_TRUE(isValidOrder(
          chains.problem, detail::foldOrder(chains, current.programOrder())));
      current = chains.problem;
    }
    // The exact search applies them too.
    ExactResult exact = solveExact(problem, ExactOptions());
    EXPECT_TRUE(exact.isOptimal);
    EXPECT_TRUE(isValidOrder(problem, exact.order));
    EXPECT_EQ(peakOf(problem, exact.order), optimum);
    EXPECT_EQ(exact.peakTransientBytes, optimum);
    EXPECT_EQ(exact.lowerBoundTransientBytes, optimum);
  }
  // The rules fire often enough for the checks above to matter.
  EXPECT_GE(removed, 300);
  EXPECT_GE(folded, 300);
  std::printf("removed %d sources, folded %d tasks\n", removed, folded);
}

TEST(ReorderTest, CoarsenedProblemsNeverUnderestimateAPeak) {
  int merged = 0, exactFolds = 0;
  for (uint32_t i = 0; i < 400; ++i) {
    Problem problem =
        i % 2 == 0 ? makeChainyDag(2 + i % 10, 3000 + i) : smallDag(i);
    SCOPED_TRACE("dag " + std::to_string(i));
    int64_t optimum = bruteForcePeak(problem);
    for (double excess : {1.0 / 32, 1.0}) {
      detail::FoldedProblem coarse = detail::coarsenChains(problem, excess);
      std::string error;
      ASSERT_TRUE(coarse.problem.verify(&error)) << error;
      merged +=
          static_cast<int>(problem.numTasks() - coarse.problem.numTasks());
      exactFolds += static_cast<int>(
          problem.numTasks() - detail::foldChains(problem).problem.numTasks());
      // Every coarse order runs the original tasks in a valid order, whose
      // peak the coarse problem bounds from above.
      BruteForce(coarse.problem)
          .enumerateAll([&](const std::vector<TaskId> &order, int64_t peak) {
            std::vector<TaskId> back = detail::unfoldOrder(coarse, order);
            ASSERT_TRUE(isValidOrder(problem, back));
            EXPECT_LE(peakOf(problem, back), peak);
            EXPECT_GE(peakOf(problem, back), optimum);
          });
      // The search on the coarse problem: a valid order, its true peak,
      // never claimed optimal where anything was coarsened, never worse than
      // the order it starts from.
      ExactOptions options;
      options.coarsenExcess = excess;
      options.upperBoundOrder = problem.programOrder();
      ExactResult result = solveExact(problem, options);
      ASSERT_TRUE(isValidOrder(problem, result.order));
      EXPECT_EQ(peakOf(problem, result.order), result.peakTransientBytes);
      EXPECT_LE(result.peakTransientBytes,
                peakOf(problem, problem.programOrder()));
      EXPECT_GE(result.peakTransientBytes, optimum);
      if (result.isOptimal)
        EXPECT_EQ(result.peakTransientBytes, optimum);
    }
  }
  // The approximate rule merges more than the exact ones.
  EXPECT_GT(merged, exactFolds);
  std::printf("coarsened %d tasks (exact folding: %d)\n", merged, exactFolds);
}

TEST(ReorderTest, BeamOrdersAreValidAndTheirPeaksExact) {
  int found = 0, optimal = 0;
  for (uint32_t i = 0; i < 300; ++i) {
    Problem problem = i % 2 == 0 ? makeChainyDag(3 + i % 10, 5000 + i)
                                 : makeRandomDag(3 + i % 10, 6000 + i, 0.3);
    SCOPED_TRACE("dag " + std::to_string(i));
    detail::ScheduleGraph graph(problem);
    std::vector<int32_t> order = graph.topologicalOrder();
    detail::OrderIndex index(graph, order);
    detail::LocalProblem local = detail::makeRangeProblem(
        graph, order, index, 0, static_cast<int32_t>(order.size()));
    int64_t optimum = bruteForcePeak(problem);
    for (auto [width, ranking] :
         {std::pair(int64_t(1), detail::BeamRanking::Live),
          std::pair(int64_t(4), detail::BeamRanking::LiveAndPeak),
          std::pair(int64_t(64), detail::BeamRanking::Live),
          std::pair(int64_t(64), detail::BeamRanking::LiveAndPeak)}) {
      detail::LocalResult beamed = detail::beamSearchDownSets(
          local, std::numeric_limits<int64_t>::max(), width, ranking, 1'000'000,
          detail::Deadline());
      ASSERT_TRUE(beamed.found);
      ++found;
      std::vector<TaskId> tasks;
      for (int32_t position : beamed.order)
        tasks.push_back(order[position]);
      ASSERT_TRUE(isValidOrder(problem, tasks));
      EXPECT_EQ(detail::computeLocalPeak(local, beamed.order), beamed.peak);
      EXPECT_EQ(peakOf(problem, tasks), beamed.peak);
      EXPECT_GE(beamed.peak, optimum);
      optimal += beamed.peak == optimum;
      // Below the optimum there is nothing to find.
      detail::LocalResult none = detail::beamSearchDownSets(
          local, optimum, width, ranking, 1'000'000, detail::Deadline());
      EXPECT_FALSE(none.found);
    }
  }
  // Wide beams find the optimum of most small DAGs.
  EXPECT_GE(optimal * 10, found * 7) << optimal << " of " << found;
}

TEST(ReorderTest, StoppedSearchesKeepTheirBestOrderAndAValidBound) {
  int stopped = 0;
  for (uint32_t i = 0; i < 300; ++i) {
    Problem problem = i % 2 == 0 ? makeChainyDag(4 + i % 9, 7000 + i)
                                 : makeRandomDag(4 + i % 9, 8000 + i, 0.2);
    SCOPED_TRACE("dag " + std::to_string(i));
    int64_t optimum = bruteForcePeak(problem);
    int64_t program = peakOf(problem, problem.programOrder());
    for (int64_t maxStates : {0, 2, 8, 40}) {
      ExactOptions options;
      options.maxStates = maxStates;
      options.upperBoundOrder = problem.programOrder();
      ExactResult result = solveExact(problem, options);
      ASSERT_TRUE(isValidOrder(problem, result.order));
      EXPECT_EQ(peakOf(problem, result.order), result.peakTransientBytes);
      EXPECT_LE(result.peakTransientBytes, program);
      EXPECT_GE(result.peakTransientBytes, optimum);
      EXPECT_LE(result.lowerBoundTransientBytes, optimum);
      EXPECT_GE(result.lowerBoundTransientBytes,
                computeLowerBoundTransientBytes(problem));
      if (result.isOptimal) {
        EXPECT_EQ(result.peakTransientBytes, optimum);
      } else {
        ++stopped;
        EXPECT_FALSE(result.limitReason.empty());
      }
    }
  }
  EXPECT_GE(stopped, 200);
}

TEST(ReorderTest, HoistingNeverWorsens) {
  int runs = 0, improvements = 0;
  for (int n : {50, 200, 600})
    for (uint32_t seed : {3u, 4u, 5u}) {
      Problem problem = seed % 2 ? makeChainyDag(n, seed * 17 + n)
                                 : makeRandomDag(n, seed * 17 + n, 0.4, 1000);
      SCOPED_TRACE(std::to_string(n) + " tasks, seed " + std::to_string(seed));
      for (const std::vector<TaskId> &start :
           {problem.programOrder(), scheduleInductorBfs(problem)}) {
        std::vector<TaskId> hoisted = improveByHoisting(problem, start);
        ASSERT_TRUE(isValidOrder(problem, hoisted));
        int64_t before = peakOf(problem, start);
        int64_t after = peakOf(problem, hoisted);
        EXPECT_LE(after, before);
        ++runs;
        improvements += after < before;
      }
    }
  EXPECT_GE(improvements, 3) << improvements << " of " << runs;
}

TEST(ReorderTest, NoOrderGoesBelowTheFootprintFloor) {
  int tight = 0, problems = 0;
  for (uint32_t i = 0; i < 200; ++i) {
    Problem problem = i % 2 == 0 ? makeChainyDag(1 + i % 8, 9000 + i)
                                 : makeRandomDag(1 + i % 8, 9100 + i, 0.3);
    SCOPED_TRACE("dag " + std::to_string(i));
    FootprintFloor floor = computeFootprintFloor(problem);
    EXPECT_EQ(floor.residentBytes, problem.residentBytes());
    ASSERT_NE(floor.task, kNoId);
    int64_t best = std::numeric_limits<int64_t>::max();
    BruteForce(problem).enumerateAll(
        [&](const std::vector<TaskId> &order, int64_t) {
          std::optional<Footprint> footprint = computeFootprint(problem, order);
          ASSERT_TRUE(footprint);
          EXPECT_GE(footprint->plannedBytes(), floor.bytes());
          EXPECT_EQ(footprint->escapingBytes, floor.escapingBytes);
          best = std::min(best, footprint->plannedBytes());
        });
    ++problems;
    tight += best == floor.bytes();
  }
  // The floor is reached on some problems (one task's working set is the
  // whole story), so the check above could fail.
  EXPECT_GE(tight, 20) << tight << " of " << problems;
}

//===----------------------------------------------------------------------===//
// In-place writes in the reorder model.
//===----------------------------------------------------------------------===//

namespace {
/// \p problem with candidate in-place writes: each task may write each value
/// it makes over each value of the same size it reads (three in four).
Problem withCandidateWrites(Problem problem, uint32_t seed) {
  std::mt19937 rng(seed);
  for (size_t r = 0; r < problem.numValues(); ++r) {
    const Value &result = problem.value(static_cast<ValueId>(r));
    if (result.producer == kNoId)
      continue;
    for (size_t v = 0; v < problem.numValues(); ++v) {
      const Value &input = problem.value(static_cast<ValueId>(v));
      bool reads = std::find(input.consumers.begin(), input.consumers.end(),
                             result.producer) != input.consumers.end();
      if (reads && input.buffer != result.buffer &&
          problem.buffer(input.buffer).sizeBytes ==
              problem.buffer(result.buffer).sizeBytes &&
          rng() % 4 != 0)
        problem.task(result.producer)
            .inPlaceWrites.push_back(
                {static_cast<ValueId>(v), static_cast<ValueId>(r)});
    }
  }
  return problem;
}

/// Peak of \p order once the writes it allows are made, as memsched-inplace
/// makes them after the order.
int64_t writtenPeakOf(const Problem &problem,
                      const std::vector<TaskId> &order) {
  Problem written = problem;
  std::optional<MemoryProfile> profile = simulateMemory(written, order);
  EXPECT_TRUE(profile.has_value());
  if (!profile)
    return -1;
  applyInPlaceWrites(written, order, profile->lifetimes);
  return peakOf(written, order);
}
} // namespace

TEST(ReorderTest, InPlaceModelMatchesTheWrittenOrder) {
  // The reorder model with in-place writes against the simulation of each
  // order after its writes are made: every topological order of random
  // DAGs, the exact and beam searches, and reorder() with the writes
  // modelled.
  using namespace mlir::memsched::scheduling::detail;
  int withWrites = 0, lowered = 0;
  for (uint32_t i = 0; i < 300; ++i) {
    Problem problem = withCandidateWrites(
        makeRandomDag(2 + i % 7, 4400 + i, 0.2 + 0.002 * i, 2), 17 * i);
    SCOPED_TRACE("dag " + std::to_string(i));
    ScheduleGraph graph(problem);
    withWrites += graph.hasInPlaceWrites();
    int64_t best = std::numeric_limits<int64_t>::max();
    int64_t bestUnwritten = best;
    BruteForce(problem).enumerateAll(
        [&](const std::vector<TaskId> &order, int64_t peak) {
          int64_t written = writtenPeakOf(problem, order);
          std::vector<int32_t> dense(order.begin(), order.end());
          EXPECT_EQ(computePeak(graph, dense), written);
          OrderIndex index(graph, dense);
          int32_t n = static_cast<int32_t>(order.size());
          LocalProblem local = makeRangeProblem(graph, dense, index, 0, n);
          std::vector<int32_t> identity(n);
          for (int32_t k = 0; k < n; ++k)
            identity[k] = k;
          EXPECT_EQ(computeLocalPeak(local, identity), written);
          best = std::min(best, written);
          bestUnwritten = std::min(bestUnwritten, peak);
        });
    lowered += best < bestUnwritten;
    std::vector<TaskId> program = problem.programOrder();
    std::vector<int32_t> dense(program.begin(), program.end());
    OrderIndex index(graph, dense);
    LocalProblem local = makeRangeProblem(graph, dense, index, 0,
                                          static_cast<int32_t>(program.size()));
    LocalResult exact = searchDownSets(
        local, std::numeric_limits<int64_t>::max(), 0, 1'000'000, Deadline(0));
    ASSERT_TRUE(exact.complete && exact.found);
    EXPECT_EQ(exact.peak, best);
    LocalResult beam =
        beamSearchDownSets(local, std::numeric_limits<int64_t>::max(), 4,
                           BeamRanking::Live, 1'000'000, Deadline(0));
    ASSERT_TRUE(beam.found);
    std::vector<TaskId> beamOrder;
    for (int32_t k : beam.order)
      beamOrder.push_back(program[k]);
    EXPECT_EQ(beam.peak, writtenPeakOf(problem, beamOrder));

    ReorderOptions options;
    options.modelInPlaceWrites = true;
    std::string error;
    std::optional<ReorderResult> result = reorder(problem, options, &error);
    ASSERT_TRUE(result) << error;
    ASSERT_TRUE(isValidOrder(problem, result->order));
    EXPECT_EQ(result->peakTransientBytes,
              writtenPeakOf(problem, result->order));
    EXPECT_GE(result->peakTransientBytes, best);
    EXPECT_LE(result->lowerBoundTransientBytes, best);
    if (graph.hasInPlaceWrites())
      EXPECT_FALSE(result->isOptimal);
    // Without the option the writes are not counted.
    options.modelInPlaceWrites = false;
    result = reorder(problem, options, &error);
    ASSERT_TRUE(result) << error;
    EXPECT_EQ(result->peakTransientBytes, peakOf(problem, result->order));
  }
  std::printf("in-place model: %d of 300 DAGs with writes it takes, %d "
              "where they lower the optimum\n",
              withWrites, lowered);
  // The writes are there and change the optimum, so the checks can fail.
  EXPECT_GE(withWrites, 100) << withWrites;
  EXPECT_GE(lowered, 15) << lowered;
}

TEST(ReorderTest, InPlaceModelMakesTheWrittenChainLast) {
  // x is read by c and p; c can be written over x only where it reads x
  // last, so p first (x and p, then c over x: 200) beats c first (x, c and
  // p live at once: 300). Counted without the writes both hold 300.
  Problem problem;
  TaskId makeX = problem.addTask({"x"});
  TaskId makeC = problem.addTask({"c"});
  TaskId makeP = problem.addTask({"p"});
  TaskId sum = problem.addTask({"sum"});
  auto add = [&](const char *name, TaskId producer, int64_t bytes) {
    Value value;
    value.name = name;
    value.sizeBytes = bytes;
    value.buffer = problem.addBuffer({name, bytes, BufferKind::Transient});
    value.producer = producer;
    return problem.addValue(value);
  };
  ValueId x = add("x", makeX, 100), c = add("c", makeC, 100);
  ValueId p = add("p", makeP, 100), s = add("s", sum, 10);
  problem.addConsumer(x, makeC);
  problem.addConsumer(x, makeP);
  problem.addConsumer(c, sum);
  problem.addConsumer(p, sum);
  problem.value(s).liveToEnd = true;
  problem.task(makeC).inPlaceWrites = {{x, c}};
  ReorderOptions options;
  options.algorithm = ReorderAlgorithm::Auto;
  options.modelInPlaceWrites = true;
  std::optional<ReorderResult> result = reorder(problem, options);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->order, (std::vector<TaskId>{makeX, makeP, makeC, sum}));
  EXPECT_EQ(result->peakTransientBytes, 210);
  EXPECT_EQ(writtenPeakOf(problem, result->order), 210);
  EXPECT_EQ(writtenPeakOf(problem, problem.programOrder()), 300);
  options.modelInPlaceWrites = false;
  result = reorder(problem, options);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->peakTransientBytes, 300);
}
