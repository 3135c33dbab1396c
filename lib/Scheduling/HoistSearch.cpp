//===- HoistSearch.cpp - Moving a value's making away from the peak -------===//
//
// Part of the memsched project.
//
// The windowed search re-orders a few consecutive positions; a small value
// made from large ones (a mask from an activation, a statistic from a
// tensor) may instead need all of its making, tens of ops, moved to where
// little else is live, so that only the small value is held across the peak.
// Each round takes a task at or just after a peak step and moves it with its
// ancestors among the positions before it, in their order, to one earlier
// position, the one of lowest peak; the other tasks keep their order. The
// moved tasks and their position lie inside one range whose boundary stays
// fixed, so only the range's steps change, and a move is kept only where
// every step of the range is below the peak.
//
//===----------------------------------------------------------------------===//

#include "ScheduleGraph.h"
#include "SubsetSearch.h"
#include "memsched/Scheduling/Reorder.h"

#include <algorithm>

using namespace mlir::memsched::scheduling;
using namespace mlir::memsched::scheduling::detail;

std::vector<TaskId> mlir::memsched::scheduling::improveByHoisting(
    const Problem &problem, std::vector<TaskId> taskOrder,
    const HoistSearchOptions &options) {
  if (!problem.isTopologicalOrder(taskOrder) || options.reach < 2)
    return taskOrder;
  ScheduleGraph graph(problem);
  std::vector<int32_t> order(taskOrder.begin(), taskOrder.end());
  int32_t n = static_cast<int32_t>(order.size());
  int32_t reach = std::min(options.reach, kMaxLocalTasks);
  int64_t workLeft = options.maxWork;

  for (int round = 0; round < options.maxRounds && workLeft > 0; ++round) {
    std::vector<int64_t> stepPeaks = computeStepPeaks(graph, order);
    if (stepPeaks.empty())
      break;
    int64_t peak = *std::max_element(stepPeaks.begin(), stepPeaks.end());
    OrderIndex index(graph, order);
    bool moved = false;
    int peakSteps = 0;
    for (int32_t pos = 0;
         pos < n && !moved && workLeft > 0 && peakSteps < options.peakSteps;
         ++pos) {
      if (stepPeaks[pos] != peak)
        continue;
      ++peakSteps;
      for (int32_t target = pos; target < std::min(n, pos + options.targets) &&
                                 !moved && workLeft > 0;
           ++target) {
        int32_t end = target + 1;
        int32_t begin = std::max(0, end - reach);
        LocalProblem local = makeRangeProblem(graph, order, index, begin, end);
        int32_t size = end - begin;
        int32_t last = size - 1;
        // The target's ancestors inside the range (local predecessors come
        // earlier in the range).
        std::vector<char> ancestor(size, 0);
        ancestor[last] = 1;
        for (int32_t i = last; i >= 0; --i)
          if (ancestor[i])
            for (int32_t pred : local.preds[i])
              ancestor[pred] = 1;
        int64_t best = peak;
        int32_t bestInsert = -1;
        std::vector<int32_t> candidate(size);
        for (int32_t insert = last - 1; insert >= 0 && workLeft > 0; --insert) {
          // Moving before an ancestor is moving before the next position.
          if (ancestor[insert])
            continue;
          int32_t next = 0;
          for (int32_t i = 0; i < insert; ++i)
            candidate[next++] = i;
          for (int32_t i = insert; i < size; ++i)
            if (ancestor[i])
              candidate[next++] = i;
          for (int32_t i = insert; i < size; ++i)
            if (!ancestor[i])
              candidate[next++] = i;
          workLeft -= size + static_cast<int64_t>(local.buffers.size());
          int64_t candidatePeak = computeLocalPeak(local, candidate);
          if (candidatePeak < best) {
            best = candidatePeak;
            bestInsert = insert;
          }
        }
        if (bestInsert < 0)
          continue;
        std::vector<int32_t> tasks(order.begin() + begin, order.begin() + end);
        int32_t next = begin;
        for (int32_t i = 0; i < bestInsert; ++i)
          order[next++] = tasks[i];
        for (int32_t i = bestInsert; i < size; ++i)
          if (ancestor[i])
            order[next++] = tasks[i];
        for (int32_t i = bestInsert; i < size; ++i)
          if (!ancestor[i])
            order[next++] = tasks[i];
        moved = true;
      }
    }
    if (!moved)
      break;
  }
  return std::vector<TaskId>(order.begin(), order.end());
}
