//===- ExactScheduler.cpp - Minimum-peak orders, exactly ------------------===//
//
// The exact solver first splits the problem at cut tasks. Everything before
// a cut runs before it and everything after runs after it, so each part sees
// a fixed boundary and the peak of an order is the largest peak of its
// parts: optimising the parts one by one is exact. Parts are solved by the
// down-set search, hardest first; a part whose current peak is already
// below what the others (or the lower bound) force is left as it is.
//
//===----------------------------------------------------------------------===//

#include "ScheduleGraph.h"
#include "SubsetSearch.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/Reorder.h"

#include <algorithm>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail;

ExactResult
mlir::memsched::scheduling::solveExact(const Problem &problem,
                                       const ExactOptions &options) {
  ReducedProblem reduced = removeFreeSources(problem);
  if (reduced.isReduced()) {
    ExactOptions inner = options;
    if (options.upperBoundOrder &&
        problem.isTopologicalOrder(*options.upperBoundOrder))
      inner.upperBoundOrder = restrictOrder(reduced, *options.upperBoundOrder);
    else
      inner.upperBoundOrder.reset();
    ExactResult result = solveExact(reduced.problem, inner);
    if (!result.order.empty())
      result.order = expandOrder(problem, reduced, result.order);
    return result;
  }

  ExactResult result;
  ScheduleGraph graph(problem);
  Deadline deadline(options.timeLimitSeconds);

  std::vector<int32_t> order;
  if (options.upperBoundOrder &&
      problem.isTopologicalOrder(*options.upperBoundOrder)) {
    order.assign(options.upperBoundOrder->begin(),
                 options.upperBoundOrder->end());
  } else {
    // A good starting point makes the search prune more.
    order = graph.topologicalOrder();
    for (const std::vector<TaskId> &candidate :
         {scheduleXlaList(problem), scheduleInductorLpmf(problem)})
      if (computePeak(graph, candidate) < computePeak(graph, order))
        order.assign(candidate.begin(), candidate.end());
  }

  std::vector<std::pair<int32_t, int32_t>> components =
      findComponents(graph, order);
  OrderIndex index(graph, order);
  std::vector<int64_t> stepPeaks = computeStepPeaks(graph, order);
  struct Part {
    int32_t begin, end;
    int64_t peak;
  };
  std::vector<Part> parts;
  for (auto [begin, end] : components) {
    int64_t peak = 0;
    for (int32_t pos = begin; pos < end; ++pos)
      peak = std::max(peak, stepPeaks[pos]);
    parts.push_back({begin, end, peak});
  }
  std::stable_sort(
      parts.begin(), parts.end(),
      [](const Part &a, const Part &b) { return a.peak > b.peak; });

  int64_t forced = computeLowerBoundTransientBytes(problem);
  for (const Part &part : parts) {
    if (part.peak <= forced)
      continue;
    int64_t budget = options.maxStates - result.statesVisited;
    LocalProblem local =
        makeRangeProblem(graph, order, index, part.begin, part.end);
    LocalResult solved =
        searchDownSets(local, part.peak, forced, budget, deadline);
    result.statesVisited += solved.statesVisited;
    if (!solved.complete) {
      result.limitReason = solved.limitReason + " on a part of " +
                           std::to_string(part.end - part.begin) +
                           " tasks after " +
                           std::to_string(result.statesVisited) + " states";
      result.order.assign(order.begin(), order.end());
      if (!options.upperBoundOrder)
        result.order.clear();
      result.peakTransientBytes =
          result.order.empty() ? 0 : computePeak(graph, order);
      return result;
    }
    if (solved.found) {
      std::vector<int32_t> tasks(order.begin() + part.begin,
                                 order.begin() + part.end);
      for (size_t i = 0; i < solved.order.size(); ++i)
        order[part.begin + i] = tasks[solved.order[i]];
      forced = std::max(forced, solved.peak);
    } else {
      forced = std::max(forced, part.peak);
    }
  }
  result.isOptimal = true;
  result.order.assign(order.begin(), order.end());
  result.peakTransientBytes = computePeak(graph, order);
  return result;
}
