//===- WindowSearch.cpp - Exact re-ordering of windows around the peak ----===//
//
// A large-neighbourhood search: the peak of an order is always reached at
// some step, and only the tasks near that step can lower it cheaply. Each
// round re-orders, exactly, a window of consecutive positions around a peak
// step while every other task keeps its position; since the window's
// boundary is fixed, only the window's steps change, so accepting a window
// whose highest step is below the peak never raises the peak elsewhere.
//
//===----------------------------------------------------------------------===//

#include "ScheduleGraph.h"
#include "SubsetSearch.h"
#include "memsched/Scheduling/Reorder.h"

#include <algorithm>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail;

std::vector<TaskId> mlir::memsched::scheduling::improveByWindows(
    const Problem &problem, std::vector<TaskId> taskOrder,
    const WindowSearchOptions &options, int64_t *statesVisited) {
  if (!problem.isTopologicalOrder(taskOrder))
    return taskOrder;
  ReducedProblem reduced = removeFreeSources(problem);
  if (reduced.isReduced()) {
    std::vector<TaskId> improved =
        improveByWindows(reduced.problem, restrictOrder(reduced, taskOrder),
                         options, statesVisited);
    return expandOrder(problem, reduced, improved);
  }
  ScheduleGraph graph(problem);
  Deadline deadline(options.timeLimitSeconds);
  std::vector<int32_t> order(taskOrder.begin(), taskOrder.end());
  int32_t n = static_cast<int32_t>(order.size());
  int32_t window = std::max(2, options.window);
  // The work limit: down-sets left to visit over all windows.
  bool limited = options.maxStates > 0;
  int64_t statesLeft = options.maxStates;
  auto outOfWork = [&] {
    return (limited && statesLeft <= 0) || deadline.expired();
  };

  while (n > 1 && !outOfWork()) {
    std::vector<int64_t> stepPeaks = computeStepPeaks(graph, order);
    int64_t peak = *std::max_element(stepPeaks.begin(), stepPeaks.end());
    OrderIndex index(graph, order);
    int32_t size = std::min(window, n);
    bool improved = false;
    for (int32_t pos = 0; pos < n && !improved && !outOfWork(); ++pos) {
      if (stepPeaks[pos] != peak)
        continue;
      for (int32_t begin : {pos - size / 2, pos - size + 1, pos}) {
        if (outOfWork())
          break;
        begin = std::clamp(begin, 0, n - size);
        LocalProblem local =
            makeRangeProblem(graph, order, index, begin, begin + size);
        int64_t budget = options.maxStatesPerWindow;
        if (limited)
          budget = std::min(budget, statesLeft);
        LocalResult solved = searchDownSets(local, peak, 0, budget, deadline);
        if (limited)
          statesLeft -= solved.statesVisited;
        if (statesVisited)
          *statesVisited += solved.statesVisited;
        if (!solved.found)
          continue;
        std::vector<int32_t> tasks(order.begin() + begin,
                                   order.begin() + begin + size);
        for (int32_t i = 0; i < size; ++i)
          order[begin + i] = tasks[solved.order[i]];
        improved = true;
        break;
      }
    }
    if (improved)
      continue;
    if (window >= options.maxWindow || size == n)
      break;
    window = std::min(options.maxWindow, window + 4);
  }
  return std::vector<TaskId>(order.begin(), order.end());
}
