//===- OffsetPlanner.cpp - Static offsets for buffers in one arena --------===//
//
// This file implements planOffsets(): the named heuristics (TFLite's greedy
// by size, XLA's global decreasing-size best fit in its two orders), the
// exact search, and `auto`, a portfolio that runs the heuristics and more
// greedy orders, improves the best with squeaky-wheel reordering, then
// searches exactly, and keeps the smallest arena. The parts live in
// OffsetInstance.cpp, OffsetGreedy.cpp and OffsetExact.cpp. It also
// implements verifyOffsets(), an O(n log n) sweep.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/OffsetPlanner.h"
#include "NameTable.h"
#include "OffsetInstance.h"
#include "SetError.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <set>
#include <tuple>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail;
using namespace mlir::memsched::scheduling::detail::offsets;

namespace {

/// The largest request size accepted: 2^48 bytes (256 TiB).
constexpr int64_t kMaxSizeBytes = int64_t(1) << 48;

using AlgorithmName = detail::NamedValue<OffsetAlgorithm>;

constexpr AlgorithmName kAlgorithmNames[] = {
    {OffsetAlgorithm::Auto, "auto"},
    {OffsetAlgorithm::GreedyBySize, "greedy-by-size"},
    {OffsetAlgorithm::BestFitBySize, "best-fit-by-size"},
    {OffsetAlgorithm::BestFitByLifetime, "best-fit-by-lifetime"},
    {OffsetAlgorithm::XlaBest, "xla-best"},
    {OffsetAlgorithm::Exact, "exact"},
};

/// Short spellings accepted on input.
constexpr AlgorithmName kAliases[] = {
    {OffsetAlgorithm::GreedyBySize, "greedy"},
    {OffsetAlgorithm::XlaBest, "xla"},
};

} // namespace

static double secondsSince(Deadline::Clock::time_point start) {
  return std::chrono::duration<double>(Deadline::Clock::now() - start).count();
}

/// "request 3 (id 7)", for messages.
static std::string describe(const std::vector<AllocationRequest> &requests,
                            size_t index) {
  return "request " + std::to_string(index) + " (id " +
         std::to_string(requests[index].id) + ")";
}

namespace {

/// Collects candidate plans and keeps the smallest arena.
class Portfolio {
public:
  Portfolio(const Instance &instance, OffsetPlan &plan)
      : instance(instance), plan(plan) {}

  /// Records \p offsets as candidate \p name; returns its arena.
  int64_t add(const std::string &name, std::vector<int64_t> offsets) {
    int64_t arena = instance.arena(offsets);
    plan.candidates.push_back({name, arena});
    if (!hasBest || arena < bestArena) {
      hasBest = true;
      bestArena = arena;
      best = std::move(offsets);
      plan.algorithm = name;
    }
    return arena;
  }

  const Instance &instance;
  OffsetPlan &plan;
  std::vector<int64_t> best;
  int64_t bestArena = 0;
  bool hasBest = false;
};

/// A named heuristic of the portfolio.
struct Heuristic {
  const char *name;
  std::vector<int32_t> (*order)(const Instance &);
  Fit fit;
};

const Heuristic kBestFitBySize = {"best-fit-by-size", orderBySize, Fit::Best};
const Heuristic kBestFitByLifetime = {"best-fit-by-lifetime", orderByLifetime,
                                      Fit::Best};
const Heuristic kGreedyBySize = {"greedy-by-size", orderBySize, Fit::First};

/// Iterations of each squeaky-wheel chain in auto.
constexpr int kSqueakyWheelRounds = 64;
/// Auto's exact search gets kAutoExactWork / n nodes on n buffers (a node's
/// cost grows with them), at least kAutoExactMinNodes, at most the option.
constexpr int64_t kAutoExactWork = int64_t(1) << 24;
constexpr int64_t kAutoExactMinNodes = 4096;

/// More orders auto tries after the named heuristics.
const Heuristic kExtraHeuristics[] = {
    {"best-fit-by-area", orderByArea, Fit::Best},
    {"best-fit-by-start", orderByStart, Fit::Best},
    {"first-fit-by-lifetime", orderByLifetime, Fit::First},
};

} // namespace

static std::vector<int64_t> runHeuristic(const Instance &instance,
                                         PlacedIndex &index,
                                         const Heuristic &heuristic) {
  return placeGreedily(instance, index, heuristic.order(instance),
                       heuristic.fit);
}

static bool validate(const std::vector<AllocationRequest> &requests,
                     int64_t alignment, std::string *error) {
  if (alignment <= 0 || (alignment & (alignment - 1)) != 0) {
    setError(error, "alignment must be a positive power of two, got " +
                        std::to_string(alignment));
    return false;
  }
  if (requests.size() >
      static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    setError(error, "too many requests");
    return false;
  }
  for (size_t i = 0; i < requests.size(); ++i) {
    const AllocationRequest &r = requests[i];
    if (r.sizeBytes < 0) {
      setError(error, describe(requests, i) + " has negative size " +
                          std::to_string(r.sizeBytes));
      return false;
    }
    // Offsets and arenas are sums of sizes: keep them far from overflow.
    if (r.sizeBytes > kMaxSizeBytes) {
      setError(error, describe(requests, i) + " is too large (" +
                          std::to_string(r.sizeBytes) + " bytes; at most " +
                          std::to_string(kMaxSizeBytes) + ")");
      return false;
    }
    if (r.start > r.end) {
      setError(error, describe(requests, i) + " starts after it ends (" +
                          std::to_string(r.start) + " > " +
                          std::to_string(r.end) + ")");
      return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Public API.
//===----------------------------------------------------------------------===//

const char *
mlir::memsched::scheduling::getOffsetAlgorithmName(OffsetAlgorithm algorithm) {
  return detail::nameOf(kAlgorithmNames, algorithm);
}

std::optional<OffsetAlgorithm>
mlir::memsched::scheduling::parseOffsetAlgorithm(const std::string &name) {
  return detail::parseName(kAlgorithmNames, kAliases, name);
}

std::string mlir::memsched::scheduling::getOffsetAlgorithmNames() {
  return detail::joinNames(kAlgorithmNames);
}

int64_t mlir::memsched::scheduling::computeMaxLiveBytes(
    const std::vector<AllocationRequest> &requests) {
  std::vector<AllocationRequest> valid;
  valid.reserve(requests.size());
  for (const AllocationRequest &r : requests)
    if (r.sizeBytes > 0 && r.start <= r.end)
      valid.push_back(r);
  return computeLiveStats(Instance(valid, 1)).maxLiveBytes;
}

static std::optional<OffsetPlan>
computeOffsets(const std::vector<AllocationRequest> &requests,
               const OffsetPlanOptions &options, std::string *error);

namespace {
/// Plans already made, by their requests and options. The budget driver
/// measures many functions that differ in a few ops and share the rest (a
/// loop body the same in every candidate around it, a candidate measured
/// again after cleanup left it as it was); with work limits a plan depends
/// on nothing else, so it is made once.
class PlanCache {
public:
  static PlanCache &get() {
    static PlanCache cache;
    return cache;
  }
  static std::vector<int64_t>
  key(const std::vector<AllocationRequest> &requests,
      const OffsetPlanOptions &options) {
    std::vector<int64_t> key = {static_cast<int64_t>(options.algorithm),
                                options.alignment, options.improveMaxPlacements,
                                options.exactMaxNodes, options.exactMaxBuffers};
    key.reserve(key.size() + 4 * requests.size());
    for (const AllocationRequest &request : requests)
      key.insert(key.end(),
                 {request.id, request.start, request.end, request.sizeBytes});
    return key;
  }
  std::optional<OffsetPlan> find(const std::vector<int64_t> &key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = plans.find(key);
    if (it == plans.end())
      return std::nullopt;
    return it->second;
  }
  void insert(std::vector<int64_t> key, const OffsetPlan &plan) {
    std::lock_guard<std::mutex> lock(mutex);
    // Bounded: about 64 MiB of keys and offsets, then it starts over.
    int64_t size = static_cast<int64_t>(key.size() + plan.offsets.size());
    if (storedWords + size > (int64_t(1) << 23)) {
      plans.clear();
      storedWords = 0;
    }
    if (plans.emplace(std::move(key), plan).second)
      storedWords += size;
  }

private:
  std::mutex mutex;
  std::map<std::vector<int64_t>, OffsetPlan> plans;
  int64_t storedWords = 0;
};
} // namespace

std::optional<OffsetPlan> mlir::memsched::scheduling::planOffsets(
    const std::vector<AllocationRequest> &requests,
    const OffsetPlanOptions &options, std::string *error) {
  // The plan depends only on which lifetimes overlap and on the sizes: the
  // steps are ranked, and the requests taken in the order of their ranked
  // lifetimes and sizes, so that two numberings of one program (a tensor
  // body and its bufferized form) get one plan. Invalid requests are
  // reported as given.
  if (!validate(requests, options.alignment, error))
    return std::nullopt;
  std::vector<int64_t> times;
  times.reserve(2 * requests.size());
  for (const AllocationRequest &request : requests) {
    times.push_back(request.start);
    times.push_back(request.end);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  auto rank = [&](int64_t time) {
    return static_cast<int64_t>(
        std::lower_bound(times.begin(), times.end(), time) - times.begin());
  };
  std::vector<AllocationRequest> ranked(requests.size());
  for (size_t index = 0; index < requests.size(); ++index)
    ranked[index] = {0, rank(requests[index].start), rank(requests[index].end),
                     requests[index].sizeBytes};
  std::vector<size_t> order(requests.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_tuple(ranked[a].start, ranked[a].end,
                           ranked[a].sizeBytes) <
           std::make_tuple(ranked[b].start, ranked[b].end, ranked[b].sizeBytes);
  });
  std::vector<AllocationRequest> canonical(requests.size());
  for (size_t position = 0; position < order.size(); ++position) {
    canonical[position] = ranked[order[position]];
    canonical[position].id = static_cast<int64_t>(position);
  }
  auto restore = [&](OffsetPlan plan) {
    std::vector<int64_t> offsets(requests.size(), 0);
    for (size_t position = 0; position < order.size(); ++position)
      offsets[order[position]] = plan.offsets[position];
    plan.offsets = std::move(offsets);
    return plan;
  };
  // A wall-clock limit makes the plan depend on the machine: not kept.
  if (options.timeLimitSeconds > 0 || !options.reusePlans) {
    std::optional<OffsetPlan> plan = computeOffsets(canonical, options, error);
    return plan ? std::optional(restore(std::move(*plan))) : std::nullopt;
  }
  std::vector<int64_t> key = PlanCache::key(canonical, options);
  std::optional<OffsetPlan> plan = PlanCache::get().find(key);
  if (!plan) {
    plan = computeOffsets(canonical, options, error);
    if (!plan)
      return std::nullopt;
    PlanCache::get().insert(std::move(key), *plan);
  }
  return restore(std::move(*plan));
}

static std::optional<OffsetPlan>
computeOffsets(const std::vector<AllocationRequest> &requests,
               const OffsetPlanOptions &options, std::string *error) {
  auto begin = Deadline::Clock::now();
  // The work limits decide the plan; these only cut it short when the
  // caller asks for a wall-clock limit.
  Deadline deadline(options.timeLimitSeconds);
  Deadline improveDeadline(options.timeLimitSeconds / 2);
  // planOffsets validated the requests.
  Instance instance(requests, options.alignment);
  LiveStats stats = computeLiveStats(instance);
  OffsetPlan plan;
  plan.maxLiveBytes = stats.maxLiveBytes;
  Portfolio portfolio(instance, plan);
  auto finish = [&]() -> std::optional<OffsetPlan> {
    plan.offsets.assign(requests.size(), 0);
    for (int32_t i = 0; i < instance.numItems(); ++i)
      plan.offsets[instance.request[i]] = portfolio.best[i];
    plan.arenaBytes = portfolio.bestArena;
    if (plan.arenaBytes <= stats.alignedLowerBound)
      plan.isOptimal = true;
    plan.seconds = secondsSince(begin);
    return plan;
  };
  // Built on first use: it serves every heuristic.
  std::unique_ptr<PlacedIndex> index;
  auto run = [&](const Heuristic &heuristic) {
    if (!index)
      index = std::make_unique<PlacedIndex>(instance);
    return portfolio.add(heuristic.name,
                         runHeuristic(instance, *index, heuristic));
  };
  auto exactTooLarge = [&]() {
    return stats.peakCount > options.exactMaxBuffers;
  };

  switch (options.algorithm) {
  case OffsetAlgorithm::GreedyBySize:
    run(kGreedyBySize);
    return finish();
  case OffsetAlgorithm::BestFitBySize:
    run(kBestFitBySize);
    return finish();
  case OffsetAlgorithm::BestFitByLifetime:
    run(kBestFitByLifetime);
    return finish();
  case OffsetAlgorithm::XlaBest:
    run(kBestFitBySize);
    run(kBestFitByLifetime);
    return finish();
  case OffsetAlgorithm::Auto:
  case OffsetAlgorithm::Exact: {
    bool exact = options.algorithm == OffsetAlgorithm::Exact;
    if (exact && exactTooLarge()) {
      setError(error, "exact offset planning supports at most " +
                          std::to_string(options.exactMaxBuffers) +
                          " buffers live at the same step, but " +
                          std::to_string(stats.peakCount) +
                          " are; use 'auto' or raise the limit");
      return std::nullopt;
    }
    // Heuristics first: the exact search starts from the best of them, and
    // the search is over when one meets the lower bound.
    auto atBound = [&]() {
      return portfolio.bestArena <= stats.alignedLowerBound;
    };
    auto finishExact = [&](bool optimal) {
      std::optional<OffsetPlan> result = finish();
      if (optimal)
        result->isOptimal = true;
      if (exact)
        result->algorithm = "exact";
      return result;
    };
    for (const Heuristic *heuristic :
         {&kBestFitBySize, &kBestFitByLifetime, &kGreedyBySize}) {
      run(*heuristic);
      if (atBound())
        return finishExact(true);
    }
    if (!exact) {
      // The named heuristics always run, so auto is never worse than any;
      // the other orders unless a wall-clock limit has passed.
      for (const Heuristic &heuristic : kExtraHeuristics) {
        if (deadline.expired())
          break;
        run(heuristic);
        if (atBound())
          return finishExact(true);
      }
      // Where it can run, the exact search comes first (with half of a
      // wall-clock limit): on training steps' arenas it often reaches the
      // bound within a few thousand nodes, where the squeaky wheel leaves
      // 5-10%. The wheel improves the XLA orders where it did not.
      bool exactRuns = !exactTooLarge();
      for (const std::vector<int32_t> &partition :
           splitIntoPartitions(instance))
        exactRuns &=
            static_cast<int64_t>(partition.size()) <= kMaxExactPartitionBuffers;
      if (exactRuns) {
        int64_t maxNodes = options.exactMaxNodes;
        if (maxNodes > 0)
          maxNodes = std::min(
              maxNodes,
              std::max(kAutoExactMinNodes,
                       kAutoExactWork / std::max(1, instance.numItems())));
        ExactOutcome outcome =
            searchExact(instance, portfolio.best, stats.alignedLowerBound,
                        maxNodes, improveDeadline);
        plan.exactNodes = outcome.nodes;
        if (outcome.finished || outcome.improved)
          portfolio.add("exact", std::move(outcome.offsets));
        if (outcome.finished || atBound())
          return finishExact(true);
      }
      SqueakyWheel wheel(instance, *index);
      for (SqueakyWheel::Move move :
           {SqueakyWheel::Move::Halfway, SqueakyWheel::Move::ToFront}) {
        wheel.addChain(orderBySize(instance), Fit::Best, move);
        wheel.addChain(orderByLifetime(instance), Fit::Best, move);
      }
      wheel.run(stats.alignedLowerBound, kSqueakyWheelRounds,
                options.improveMaxPlacements, deadline);
      plan.improvePlacements = wheel.placements;
      if (!wheel.best.empty())
        portfolio.add("squeaky-wheel", std::move(wheel.best));
      return finishExact(atBound());
    }
    ExactOutcome outcome =
        searchExact(instance, portfolio.best, stats.alignedLowerBound,
                    options.exactMaxNodes, deadline);
    plan.exactNodes = outcome.nodes;
    if (outcome.tooLarge) {
      setError(error, "exact offset planning supports at most " +
                          std::to_string(kMaxExactPartitionBuffers) +
                          " buffers whose lifetimes chain together; use "
                          "'auto'");
      return std::nullopt;
    }
    if (!outcome.finished) {
      std::string limit = outcome.timedOut
                              ? "ran out of time after " +
                                    std::to_string(secondsSince(begin)) + " s"
                              : "reached its limit of " +
                                    std::to_string(options.exactMaxNodes) +
                                    " search nodes";
      setError(error, "exact offset planning " + limit + " (best arena " +
                          std::to_string(outcome.arena) + ", lower bound " +
                          std::to_string(stats.alignedLowerBound) + ")");
      return std::nullopt;
    }
    portfolio.add("exact", std::move(outcome.offsets));
    return finishExact(true);
  }
  }
  setError(error, "unknown offset algorithm");
  return std::nullopt;
}

bool mlir::memsched::scheduling::verifyOffsets(
    const std::vector<AllocationRequest> &requests,
    const std::vector<int64_t> &offsets, int64_t alignment, std::string *why) {
  if (alignment <= 0 || (alignment & (alignment - 1)) != 0) {
    setError(why, "alignment must be a positive power of two, got " +
                      std::to_string(alignment));
    return false;
  }
  if (offsets.size() != requests.size()) {
    setError(why, "expected " + std::to_string(requests.size()) +
                      " offsets, got " + std::to_string(offsets.size()));
    return false;
  }
  std::vector<int32_t> live;
  for (size_t i = 0; i < requests.size(); ++i) {
    const AllocationRequest &r = requests[i];
    if (r.sizeBytes < 0 || r.start > r.end) {
      setError(why, describe(requests, i) + " is invalid (size " +
                        std::to_string(r.sizeBytes) + ", lifetime [" +
                        std::to_string(r.start) + ", " + std::to_string(r.end) +
                        "])");
      return false;
    }
    if (offsets[i] < 0) {
      setError(why, describe(requests, i) + " has negative offset " +
                        std::to_string(offsets[i]));
      return false;
    }
    if (offsets[i] % alignment != 0) {
      setError(why, describe(requests, i) + ": offset " +
                        std::to_string(offsets[i]) +
                        " is not a multiple of the alignment " +
                        std::to_string(alignment));
      return false;
    }
    if (offsets[i] > kInfinity - r.sizeBytes) {
      setError(why, describe(requests, i) + ": offset " +
                        std::to_string(offsets[i]) + " plus size overflows");
      return false;
    }
    if (r.sizeBytes > 0)
      live.push_back(static_cast<int32_t>(i));
  }

  // Sweep over time keeping the byte ranges of the live requests ordered by
  // offset; they are disjoint as long as no violation was found, so a new
  // range overlaps one of them exactly when it overlaps a neighbour.
  std::vector<int32_t> byStart(live), byEnd(live);
  std::sort(byStart.begin(), byStart.end(), [&](int32_t a, int32_t b) {
    return requests[a].start < requests[b].start;
  });
  std::sort(byEnd.begin(), byEnd.end(), [&](int32_t a, int32_t b) {
    return requests[a].end < requests[b].end;
  });
  std::set<std::pair<int64_t, int32_t>> active;
  auto overlap = [&](int32_t a, int32_t b, int64_t step) {
    const AllocationRequest &ra = requests[a], &rb = requests[b];
    setError(why, describe(requests, a) + " at [" + std::to_string(offsets[a]) +
                      ", " + std::to_string(offsets[a] + ra.sizeBytes) +
                      ") overlaps " + describe(requests, b) + " at [" +
                      std::to_string(offsets[b]) + ", " +
                      std::to_string(offsets[b] + rb.sizeBytes) +
                      ") while both are live at step " + std::to_string(step));
    return false;
  };
  size_t e = 0;
  for (int32_t i : byStart) {
    int64_t step = requests[i].start;
    for (; e < byEnd.size() && requests[byEnd[e]].end < step; ++e)
      active.erase({offsets[byEnd[e]], byEnd[e]});
    auto next = active.lower_bound({offsets[i], -1});
    if (next != active.end() &&
        next->first < offsets[i] + requests[i].sizeBytes)
      return overlap(i, next->second, step);
    if (next != active.begin()) {
      auto prev = std::prev(next);
      if (prev->first + requests[prev->second].sizeBytes > offsets[i])
        return overlap(i, prev->second, step);
    }
    active.insert({offsets[i], i});
  }
  return true;
}
