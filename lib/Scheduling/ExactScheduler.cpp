//===- ExactScheduler.cpp - Minimum-peak orders, exactly ------------------===//
//
// The exact solver first removes free sources and folds chains (both keep
// the minimum peak), then splits the problem at cut tasks. Everything before
// a cut runs before it and everything after runs after it, so each part sees
// a fixed boundary and the peak of an order is the largest peak of its
// parts: optimising the parts one by one is exact. Parts are solved by the
// down-set search, hardest first; a part whose current peak is already
// below what the others (or the lower bound) force is left as it is.
//
//===----------------------------------------------------------------------===//

#include "ChainFolding.h"
#include "ScheduleGraph.h"
#include "SubsetSearch.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/Reorder.h"

#include <algorithm>
#include <iterator>

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

  FoldedProblem folded = options.coarsenExcess > 0.0
                             ? coarsenChains(problem, options.coarsenExcess)
                             : foldChains(problem);
  if (folded.isFolded()) {
    bool hasBound = options.upperBoundOrder &&
                    problem.isTopologicalOrder(*options.upperBoundOrder);
    ExactOptions inner = options;
    inner.upperBoundOrder.reset();
    if (hasBound)
      inner.upperBoundOrder = foldOrder(folded, *options.upperBoundOrder);
    ExactResult result = solveExact(folded.problem, inner);
    if (options.coarsenExcess > 0.0) {
      // The coarse problem's optimum says nothing exact about this one.
      result.isOptimal = false;
      result.lowerBoundTransientBytes = 0;
      if (result.limitReason.empty())
        result.limitReason = "coarsened";
    }
    ScheduleGraph graph(problem);
    if (!result.order.empty()) {
      result.order = unfoldOrder(folded, result.order);
      result.peakTransientBytes = computePeak(graph, result.order);
    }
    // Folding the bound's order may have raised its peak.
    if (!result.isOptimal && hasBound) {
      int64_t boundPeak = computePeak(graph, *options.upperBoundOrder);
      if (result.order.empty() || boundPeak < result.peakTransientBytes) {
        result.order = *options.upperBoundOrder;
        result.peakTransientBytes = boundPeak;
      }
    }
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
  // Local problems depend on which tasks each part holds, not on their
  // order inside it, so they are built once (and again after a part is
  // reordered, since local orders index its tasks as they are).
  std::vector<LocalProblem> locals;
  for (const Part &part : parts)
    locals.push_back(
        makeRangeProblem(graph, order, index, part.begin, part.end));
  auto reorderPart = [&](size_t p, const std::vector<int32_t> &localOrder,
                         int64_t peak) {
    Part &part = parts[p];
    std::vector<int32_t> tasks(order.begin() + part.begin,
                               order.begin() + part.end);
    for (size_t i = 0; i < localOrder.size(); ++i)
      order[part.begin + i] = tasks[localOrder[i]];
    part.peak = peak;
    locals[p] = makeRangeProblem(graph, order, OrderIndex(graph, order),
                                 part.begin, part.end);
  };
  // The peak of an order is the largest peak of its parts, so only the part
  // with the largest peak is worth improving at any time.
  auto highestPart = [&]() {
    size_t highest = 0;
    for (size_t p = 1; p < parts.size(); ++p)
      if (parts[p].peak > parts[highest].peak)
        highest = p;
    return highest;
  };

  // `forced` is a proven lower bound on the whole problem's optimum: a part
  // at or below it is optimal as it is.
  int64_t forced = computeLowerBoundTransientBytes(problem);

  // Beams first: cheap, and their peaks bound the exact search. Each try on
  // the highest part uses the next ranking, then the next width; the phase
  // ends when that part cannot be improved within the widths or three
  // quarters of the work limit (the beams find the orders, the exact search
  // mostly proves bounds).
  constexpr int64_t kMaxBeamWidth = 4096;
  constexpr BeamRanking kRankings[] = {BeamRanking::Live,
                                       BeamRanking::LiveAndPeak};
  int64_t beamStates = options.beamWidth > 0 ? options.maxStates / 4 * 3 : 0;
  std::vector<int64_t> width(parts.size(), options.beamWidth);
  std::vector<size_t> ranking(parts.size(), 0);
  while (!parts.empty() && result.statesVisited < beamStates) {
    size_t p = highestPart();
    if (parts[p].peak <= forced || width[p] > kMaxBeamWidth)
      break;
    LocalResult beamed = beamSearchDownSets(
        locals[p], parts[p].peak, width[p], kRankings[ranking[p]],
        beamStates - result.statesVisited, deadline);
    result.statesVisited += beamed.statesVisited;
    if (++ranking[p] == std::size(kRankings)) {
      ranking[p] = 0;
      width[p] *= 4;
    }
    if (beamed.found)
      reorderPart(p, beamed.order, beamed.peak);
    else if (!beamed.limitReason.empty())
      break;
  }

  // Then the exact search, highest part first, with all the work left; the
  // first part it cannot finish bounds the optimum from below and leaves
  // the lower parts irrelevant.
  int64_t lowerBound = forced;
  bool complete = true;
  while (!parts.empty()) {
    size_t p = highestPart();
    Part &part = parts[p];
    if (part.peak <= forced)
      break;
    LocalResult solved =
        searchDownSets(locals[p], part.peak, forced,
                       options.maxStates - result.statesVisited, deadline);
    result.statesVisited += solved.statesVisited;
    if (solved.found)
      reorderPart(p, solved.order, solved.peak);
    if (solved.complete) {
      // Optimal: nothing below this peak exists, for the part or the whole.
      forced = std::max(forced, part.peak);
      lowerBound = std::max(lowerBound, part.peak);
      continue;
    }
    complete = false;
    lowerBound = std::max(lowerBound, solved.lowerBound);
    result.limitReason = solved.limitReason + " on a part of " +
                         std::to_string(part.end - part.begin) +
                         " tasks after " +
                         std::to_string(result.statesVisited) + " states";
    break;
  }
  result.isOptimal = complete;
  result.order.assign(order.begin(), order.end());
  result.peakTransientBytes = computePeak(graph, order);
  result.lowerBoundTransientBytes =
      complete ? result.peakTransientBytes
               : std::min(lowerBound, result.peakTransientBytes);
  return result;
}
