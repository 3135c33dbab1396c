//===- RematRotor.cpp - Rotor's chain program as a plan of memsched-remat -===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "RematRotor.h"

#include "RematIlp.h"
#include "SetError.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>

using namespace mlir::memsched::scheduling;
using mlir::memsched::scheduling::detail::setError;

namespace {

/// The transient buffers each task defines and, per buffer, its size and
/// the last task that reads it.
struct DefinedBuffers {
  struct Entry {
    BufferId buffer = kNoId;
    int64_t sizeBytes = 0;
    TaskId lastReader = kNoId;
    /// The last reader at or before the end of the forward part.
    TaskId lastForwardReader = kNoId;
  };
  std::vector<std::vector<Entry>> ofTask;
  /// Per buffer: its first writer and index in that task's entries.
  std::vector<std::pair<TaskId, int32_t>> where;

  /// The entry of \p buffer, or nullptr for buffers no task defines.
  const Entry *find(BufferId buffer) const {
    auto [task, index] = where[buffer];
    return task == kNoId ? nullptr : &ofTask[task][index];
  }
};

DefinedBuffers getDefinedBuffers(const Problem &problem, TaskId forwardEnd) {
  DefinedBuffers defined;
  defined.ofTask.resize(problem.numTasks());
  // Each buffer is counted at its first writer (an in-place chain's start).
  std::vector<TaskId> firstDefiner(problem.numBuffers(), kNoId);
  for (size_t v = 0; v < problem.numValues(); ++v) {
    const Value &value = problem.value(static_cast<ValueId>(v));
    if (value.definedBy != kNoId &&
        problem.buffer(value.buffer).kind == BufferKind::Transient &&
        (firstDefiner[value.buffer] == kNoId ||
         value.definedBy < firstDefiner[value.buffer]))
      firstDefiner[value.buffer] = value.definedBy;
  }
  defined.where.assign(problem.numBuffers(), {kNoId, -1});
  for (size_t v = 0; v < problem.numValues(); ++v) {
    const Value &value = problem.value(static_cast<ValueId>(v));
    TaskId task = firstDefiner[value.buffer];
    if (value.definedBy == kNoId || task == kNoId)
      continue;
    std::vector<DefinedBuffers::Entry> &entries = defined.ofTask[task];
    int32_t &index = defined.where[value.buffer].second;
    if (index < 0) {
      defined.where[value.buffer].first = task;
      index = static_cast<int32_t>(entries.size());
      entries.push_back(
          {value.buffer, problem.buffer(value.buffer).sizeBytes, task, kNoId});
    }
    DefinedBuffers::Entry &entry = entries[index];
    for (TaskId reader : value.consumers) {
      if (reader <= value.definedBy)
        continue;
      entry.lastReader = std::max(entry.lastReader, reader);
      if (reader <= forwardEnd)
        entry.lastForwardReader = std::max(entry.lastForwardReader, reader);
    }
  }
  return defined;
}

/// The tasks as nodes: the tasks whose values each reads (in-place chains
/// included), the bytes of the buffers it starts, and whether it must not
/// be recomputed (side effects, resident or escaping buffers written).
/// std::nullopt when a task reads a value defined after it.
std::optional<RematGraph> getChainGraph(const Problem &problem,
                                        const DefinedBuffers &defined) {
  size_t numTasks = problem.numTasks();
  RematGraph graph;
  graph.nodes.resize(numTasks);
  std::vector<bool> escaping = problem.escapingBuffers();
  for (size_t t = 0; t < numTasks; ++t) {
    graph.nodes[t].name = problem.task(static_cast<TaskId>(t)).name;
    graph.nodes[t].duration = problem.task(static_cast<TaskId>(t)).duration;
    graph.nodes[t].keepToEnd = problem.task(static_cast<TaskId>(t)).isFence;
  }
  for (size_t t = 0; t < numTasks; ++t)
    for (const DefinedBuffers::Entry &entry : defined.ofTask[t])
      graph.nodes[t].sizeBytes += entry.sizeBytes;
  for (size_t v = 0; v < problem.numValues(); ++v) {
    const Value &value = problem.value(static_cast<ValueId>(v));
    TaskId task = value.definedBy;
    if (task == kNoId)
      continue;
    const Buffer &buffer = problem.buffer(value.buffer);
    if (buffer.kind != BufferKind::Transient || escaping[value.buffer])
      graph.nodes[task].keepToEnd = true;
    if (buffer.kind != BufferKind::Transient)
      continue;
    for (TaskId reader : value.consumers) {
      if (reader == task)
        continue;
      if (reader < task)
        return std::nullopt;
      graph.nodes[reader].inputs.push_back(task);
    }
  }
  for (RematNode &node : graph.nodes) {
    std::sort(node.inputs.begin(), node.inputs.end());
    node.inputs.erase(std::unique(node.inputs.begin(), node.inputs.end()),
                      node.inputs.end());
  }
  return graph;
}

/// Where the forward part of a training step may end: from a little before
/// the first task after which the live bytes of buffers no escaping result
/// holds reach 90% of their peak, to the peak (a backward part that frees
/// as much as it makes keeps them flat well past its start).
std::pair<TaskId, TaskId> findForwardEnds(const DefinedBuffers &defined,
                                          const RematGraph &graph) {
  size_t numTasks = graph.nodes.size();
  if (numTasks == 0)
    return {0, 0};
  std::vector<int64_t> change(numTasks + 1, 0);
  for (size_t t = 0; t < numTasks; ++t) {
    if (graph.nodes[t].keepToEnd)
      continue;
    for (const DefinedBuffers::Entry &entry : defined.ofTask[t]) {
      // Live after task t until after its last reader.
      if (entry.lastReader <= static_cast<TaskId>(t))
        continue;
      change[t] += entry.sizeBytes;
      change[entry.lastReader] -= entry.sizeBytes;
    }
  }
  std::vector<int64_t> live(numTasks, 0);
  int64_t running = 0, peak = -1;
  TaskId peakAt = 0;
  for (size_t t = 0; t < numTasks; ++t) {
    running += change[t];
    live[t] = running;
    if (running > peak) {
      peak = running;
      peakAt = static_cast<TaskId>(t);
    }
  }
  constexpr TaskId kSlack = 16;
  TaskId first = peakAt;
  for (TaskId t = 0; t <= peakAt; ++t)
    if (live[t] * 10 >= peak * 9) {
      first = t;
      break;
    }
  return {std::max<TaskId>(0, first - kSlack), peakAt};
}

} // namespace

std::vector<detail::TaskChain> detail::findTaskChains(const Problem &problem,
                                                      int32_t maxStages,
                                                      std::string *reason) {
  // Buffers' last readers anywhere; with the forward part's end, below.
  DefinedBuffers readAnywhere = getDefinedBuffers(problem, kNoId);
  std::optional<RematGraph> chainGraph = getChainGraph(problem, readAnywhere);
  if (!chainGraph) {
    setError(reason, "a task reads a value defined after it");
    return {};
  }
  const RematGraph &graph = *chainGraph;
  const std::vector<RematNode> &nodes = graph.nodes;
  int32_t numTasks = static_cast<int32_t>(nodes.size());
  if (numTasks < 4 || maxStages < 2) {
    setError(reason, "too few tasks");
    return {};
  }
  std::vector<std::vector<TaskId>> readers(numTasks);
  for (TaskId t = 0; t < numTasks; ++t)
    for (NodeId input : nodes[t].inputs)
      readers[input].push_back(t);

  // Positions inside an in-place chain (between two writers of one buffer)
  // are no stage end: a recomputed writer needs its chain's earlier ones.
  std::vector<int32_t> insideChain(numTasks + 1, 0);
  std::vector<char> startsInPlaceChain(numTasks, 0);
  {
    std::vector<TaskId> firstWriter(problem.numBuffers(), kNoId),
        lastWriter(problem.numBuffers(), kNoId);
    for (size_t v = 0; v < problem.numValues(); ++v) {
      const Value &value = problem.value(static_cast<ValueId>(v));
      if (value.definedBy == kNoId)
        continue;
      TaskId &first = firstWriter[value.buffer];
      first =
          first == kNoId ? value.definedBy : std::min(first, value.definedBy);
      lastWriter[value.buffer] =
          std::max(lastWriter[value.buffer], value.definedBy);
    }
    for (size_t b = 0; b < problem.numBuffers(); ++b)
      if (firstWriter[b] != kNoId && firstWriter[b] < lastWriter[b]) {
        ++insideChain[firstWriter[b] + 1];
        --insideChain[lastWriter[b] + 1];
        startsInPlaceChain[firstWriter[b]] = 1;
      }
    for (int32_t p = 1; p <= numTasks; ++p)
      insideChain[p] += insideChain[p - 1];
  }

  // The forward part's stages if it ends at task `end`.
  struct Cuts {
    /// Forward tasks that recomputation may run: not kept, and not a source
    /// only the backward part reads (a gradient seed, a constant), which is
    /// outside the chain.
    std::vector<char> member;
    std::vector<TaskId> lastForwardReader;
    /// (end position, output task or kNoId) of each stage but the last.
    std::vector<std::pair<TaskId, TaskId>> cuts;
  };
  auto findCuts = [&](TaskId end, bool sourcesInChain) {
    Cuts found;
    found.member.assign(numTasks, 0);
    found.lastForwardReader.assign(numTasks, kNoId);
    for (TaskId t = 0; t <= end; ++t) {
      for (TaskId reader : readers[t])
        if (reader <= end)
          found.lastForwardReader[t] = reader;
      // A source starting an in-place chain (a fill a reduction
      // accumulates into) is recomputed with the chain's other writers.
      bool source = nodes[t].inputs.empty() && !startsInPlaceChain[t];
      found.member[t] =
          !nodes[t].keepToEnd &&
                  (!source ||
                   (sourcesInChain && found.lastForwardReader[t] != kNoId))
              ? 1
              : 0;
    }
    // Stage ends: positions p (between tasks p - 1 and p) that at most one
    // member task before p crosses with a read of the forward part at or
    // after p. A running sum of the crossing tasks' ids names the one.
    std::vector<int32_t> crossingCount(end + 2, 0);
    std::vector<int64_t> crossingIds(end + 2, 0);
    for (TaskId t = 0; t <= end; ++t)
      if (TaskId last = found.lastForwardReader[t];
          found.member[t] && last != kNoId) {
        ++crossingCount[t + 1];
        --crossingCount[last + 1];
        crossingIds[t + 1] += t;
        crossingIds[last + 1] -= t;
      }
    int32_t count = 0;
    int64_t ids = 0;
    TaskId stageBegin = 0, lastMember = kNoId;
    for (TaskId p = 1; p <= end; ++p) {
      count += crossingCount[p];
      ids += crossingIds[p];
      if (found.member[p - 1])
        lastMember = p - 1;
      if (count > 1 || lastMember < stageBegin || insideChain[p] > 0)
        continue;
      TaskId output = count == 1 ? static_cast<TaskId>(ids) : kNoId;
      if (output != kNoId && output < stageBegin)
        continue;
      found.cuts.push_back({p, output});
      stageBegin = p;
    }
    return found;
  };
  // How many backward tasks read only stages the backward part has already
  // left, for a forward part ending at `end` with `found`'s cuts (under the
  // assignment below, roughly): an end too early makes later forward tasks
  // backward ones, whose reads of early stages (skip connections) drag the
  // stage of every later task down.
  auto countMisplaced = [&](TaskId end, const Cuts &found) {
    std::vector<int32_t> stage(end + 1, 0);
    std::vector<TaskId> out(found.cuts.size() + 2, kNoId);
    int32_t l = 1;
    size_t next = 0;
    for (TaskId t = 0; t <= end; ++t) {
      while (next < found.cuts.size() && found.cuts[next].first <= t)
        out[l++] = found.cuts[next++].second;
      stage[t] = found.member[t] ? l : 0;
    }
    constexpr int32_t kNone = std::numeric_limits<int32_t>::max();
    int32_t current = l + 1, misplaced = 0;
    for (TaskId t = end + 1; t < numTasks; ++t) {
      int32_t own = kNone;
      for (NodeId input : nodes[t].inputs)
        if (input <= end && stage[input] > 0)
          own = std::min(own, input == out[stage[input]] ? stage[input] + 1
                                                         : stage[input]);
      if (own == kNone)
        continue;
      misplaced += own > current ? 1 : 0;
      current = std::min(current, own);
    }
    return misplaced;
  };
  // The end, and whether sources the forward part reads (a first layer on
  // the input, a mask all blocks read) are in the chain or kept outside it
  // (a source many stages read would cross every cut): the fewest misplaced
  // backward tasks, then the most stages, then the latest end.
  constexpr TaskId kMaxEndCandidates = 256;
  auto [firstEnd, lastEnd] = findForwardEnds(readAnywhere, graph);
  firstEnd = std::max(firstEnd, lastEnd - kMaxEndCandidates + 1);
  TaskId forwardEnd = lastEnd;
  Cuts chosen = findCuts(lastEnd, /*sourcesInChain=*/true);
  int32_t chosenMisplaced = countMisplaced(lastEnd, chosen);
  for (TaskId end = lastEnd; end >= firstEnd; --end)
    for (bool sourcesInChain : {true, false}) {
      Cuts found = findCuts(end, sourcesInChain);
      int32_t misplaced = countMisplaced(end, found);
      if (misplaced < chosenMisplaced ||
          (misplaced == chosenMisplaced &&
           found.cuts.size() > chosen.cuts.size())) {
        chosen = std::move(found);
        chosenMisplaced = misplaced;
        forwardEnd = end;
      }
    }
  DefinedBuffers defined = getDefinedBuffers(problem, forwardEnd);
  const std::vector<char> &member = chosen.member;
  const std::vector<TaskId> &lastForwardReader = chosen.lastForwardReader;
  std::vector<std::pair<TaskId, TaskId>> &cuts = chosen.cuts;
  // Adjacent stages merged, evenly, down to maxStages.
  if (static_cast<int32_t>(cuts.size()) + 1 > maxStages) {
    std::vector<std::pair<TaskId, TaskId>> kept;
    size_t stride = (cuts.size() + maxStages - 2) / (maxStages - 1);
    for (size_t i = stride - 1; i < cuts.size(); i += stride)
      kept.push_back(cuts[i]);
    cuts = std::move(kept);
  }
  int32_t length = static_cast<int32_t>(cuts.size()) + 1;
  if (length < 2) {
    setError(reason, "the forward part has no single-value cut");
    return {};
  }

  // Stage of every forward task (1-based), and each stage's bounds.
  std::vector<int32_t> stageOf(numTasks, 0);
  std::vector<TaskId> begin(length + 1), output(length + 1, kNoId);
  begin[1] = 0;
  for (int32_t l = 1; l < length; ++l) {
    begin[l + 1] = cuts[l - 1].first;
    output[l] = cuts[l - 1].second;
  }
  std::vector<TaskId> end(length + 1);
  for (int32_t l = 1; l <= length; ++l) {
    end[l] = l < length ? begin[l + 1] : forwardEnd + 1;
    for (TaskId t = begin[l]; t < end[l]; ++t)
      stageOf[t] = member[t] ? l : 0;
  }

  // The transient buffers each task writes or defines a value in.
  std::vector<std::vector<BufferId>> buffersWrittenBy(numTasks);
  for (size_t v = 0; v < problem.numValues(); ++v) {
    const Value &value = problem.value(static_cast<ValueId>(v));
    if (value.definedBy == kNoId ||
        problem.buffer(value.buffer).kind != BufferKind::Transient)
      continue;
    std::vector<BufferId> &list = buffersWrittenBy[value.definedBy];
    if (std::find(list.begin(), list.end(), value.buffer) == list.end())
      list.push_back(value.buffer);
  }
  // Backward tasks that read a buffer of a stage's output task that the
  // next stages do not (a saved value of that stage, not x^l).
  std::set<std::pair<TaskId, TaskId>> readsSavedOfOutput;
  for (size_t v = 0; v < problem.numValues(); ++v) {
    const Value &value = problem.value(static_cast<ValueId>(v));
    TaskId task = value.definedBy;
    if (task == kNoId || task > forwardEnd || stageOf[task] == 0 ||
        output[stageOf[task]] != task)
      continue;
    const DefinedBuffers::Entry *entry = defined.find(value.buffer);
    if (entry && entry->lastForwardReader < end[stageOf[task]])
      for (TaskId reader : value.consumers)
        if (reader > forwardEnd)
          readsSavedOfOutput.insert({reader, task});
  }
  // Each forward task's last backward reader, and the escaping buffers.
  std::vector<TaskId> lastBackwardReader(numTasks, kNoId);
  for (TaskId t = forwardEnd + 1; t < numTasks; ++t)
    for (NodeId input : nodes[t].inputs)
      if (input <= forwardEnd)
        lastBackwardReader[input] = t;
  std::vector<bool> escaping = problem.escapingBuffers();
  // The rest depends on how a backward task that reads only a stage's
  // output is read (see findTaskChains).
  auto readChain = [&](bool lastReaderOwnsOutput) -> std::optional<TaskChain> {
    // Backward tasks: the earliest stage whose saved values they read, the
    // stages never increasing in program order. A stage's output x^l is read
    // by the backward of the next stage and its own: a task reading only x^l
    // of stage l belongs to stage l + 1, but for x^l's last reader.
    std::vector<int32_t> backwardStage(numTasks, 0);
    int32_t current = length;
    for (TaskId t = forwardEnd + 1; t < numTasks; ++t) {
      for (NodeId input : nodes[t].inputs) {
        int32_t k = input <= forwardEnd ? stageOf[input] : 0;
        if (k == 0)
          continue;
        bool onlyOutput =
            input == output[k] &&
            !(lastReaderOwnsOutput && lastBackwardReader[input] == t) &&
            !readsSavedOfOutput.count({t, input});
        current = std::min(current, onlyOutput ? k + 1 : k);
      }
      backwardStage[t] = current;
    }

    TaskChain result;
    Chain &chain = result.chain;
    chain.stages.resize(length);
    result.outputTasks.resize(length);
    result.savedTasks.resize(length);
    result.backwardStart.assign(length, numTasks);
    for (TaskId t = numTasks - 1; t > forwardEnd; --t)
      for (int32_t l = backwardStage[t]; l <= length; ++l)
        result.backwardStart[l - 1] = t;

    // The stage's tasks the given ones depend on, in program order.
    auto ancestorsInStage = [&](int32_t l, const std::vector<char> &wanted) {
      std::vector<char> needed(wanted);
      for (TaskId t = end[l] - 1; t >= begin[l]; --t) {
        if (!needed[t - begin[l]])
          continue;
        for (NodeId input : nodes[t].inputs)
          if (input >= begin[l] && stageOf[input] == l)
            needed[input - begin[l]] = 1;
      }
      std::vector<TaskId> tasks;
      for (TaskId t = begin[l]; t < end[l]; ++t)
        if (needed[t - begin[l]] && stageOf[t] == l)
          tasks.push_back(t);
      return tasks;
    };
    for (int32_t l = 1; l <= length; ++l) {
      ChainStage &stage = chain.stages[l - 1];
      stage.name = problem.task(begin[l]).name;
      int32_t size = end[l] - begin[l];
      std::vector<char> outputWanted(size, 0), savedWanted(size, 0);
      // x^l: the output's buffers the next stages read (counted where the
      // stage starts them: an in-place chain's first writer); xbar^l adds
      // those of the stage the backward part reads.
      std::vector<BufferId> outputBuffers;
      if (TaskId out = output[l]; out != kNoId) {
        outputWanted[out - begin[l]] = savedWanted[out - begin[l]] = 1;
        outputBuffers = buffersWrittenBy[out];
      }
      std::vector<char> kept(size, 0);
      int64_t rest = 0;
      for (TaskId t = begin[l]; t < end[l]; ++t) {
        if (stageOf[t] != l)
          continue;
        for (const DefinedBuffers::Entry &entry : defined.ofTask[t]) {
          bool forwardLater = entry.lastForwardReader >= end[l];
          bool backward = entry.lastReader > forwardEnd;
          bool isOutput = forwardLater &&
                          std::find(outputBuffers.begin(), outputBuffers.end(),
                                    entry.buffer) != outputBuffers.end();
          if (isOutput) {
            stage.outputBytes += entry.sizeBytes;
          } else if (backward) {
            rest += entry.sizeBytes;
            savedWanted[t - begin[l]] = 1;
          }
          if (backward || forwardLater)
            kept[t - begin[l]] = 1;
        }
      }
      stage.savedBytes = stage.outputBytes + rest;
      result.outputTasks[l - 1] = ancestorsInStage(l, outputWanted);
      result.savedTasks[l - 1] = ancestorsInStage(l, savedWanted);
      for (TaskId t : result.savedTasks[l - 1])
        stage.forwardTime += nodes[t].duration;
      // The stage run alone, saving everything: its peak beyond xbar^l.
      int64_t live = 0, peak = 0;
      for (TaskId t = begin[l]; t < end[l]; ++t) {
        if (stageOf[t] != l)
          continue;
        live += nodes[t].sizeBytes;
        peak = std::max(peak, live + problem.task(t).workspaceBytes);
        for (NodeId input : nodes[t].inputs)
          if (input >= begin[l] && stageOf[input] == l &&
              !kept[input - begin[l]] && lastForwardReader[input] == t)
            live -= nodes[input].sizeBytes;
      }
      stage.forwardOverhead = std::max<int64_t>(0, peak - stage.savedBytes);
    }
    // Backward stages: times, the gradient each passes on (the bytes of its
    // tasks an earlier stage reads) and, as overhead, the peak of the rest of
    // what its tasks make (the stage's tasks are contiguous).
    std::vector<char> passedOn(numTasks, 0);
    for (TaskId t = forwardEnd + 1; t < numTasks; ++t)
      for (NodeId input : nodes[t].inputs)
        if (input > forwardEnd && backwardStage[input] > backwardStage[t])
          passedOn[input] = 1;
    for (TaskId t = forwardEnd + 1; t < numTasks; ++t)
      if (passedOn[t] && backwardStage[t] >= 2)
        chain.stages[backwardStage[t] - 2].gradBytes += nodes[t].sizeBytes;
    // d^L: what the backward part reads from the forward part's tasks
    // outside the chain (a gradient seed), live from the start.
    for (TaskId t = 0; t <= forwardEnd; ++t)
      if (!member[t] && !nodes[t].keepToEnd)
        for (const DefinedBuffers::Entry &entry : defined.ofTask[t])
          if (entry.lastReader > forwardEnd)
            chain.stages[length - 1].gradBytes += entry.sizeBytes;
    std::vector<int64_t> dyingAfter(numTasks, 0);
    for (TaskId t = forwardEnd + 1; t < numTasks; ++t)
      for (const DefinedBuffers::Entry &entry : defined.ofTask[t])
        if (!escaping[entry.buffer] &&
            backwardStage[entry.lastReader] == backwardStage[t])
          dyingAfter[entry.lastReader] += entry.sizeBytes;
    std::vector<int64_t> backwardPeak(length + 1, 0);
    int64_t live = 0;
    for (TaskId t = forwardEnd + 1; t < numTasks; ++t) {
      int32_t l = backwardStage[t];
      if (t > forwardEnd + 1 && backwardStage[t - 1] != l)
        live = 0;
      chain.stages[l - 1].backwardTime += nodes[t].duration;
      live += nodes[t].sizeBytes;
      backwardPeak[l] =
          std::max(backwardPeak[l], live + problem.task(t).workspaceBytes);
      live -= dyingAfter[t];
    }
    for (int32_t l = 1; l <= length; ++l) {
      int64_t passed = l >= 2 ? chain.stages[l - 2].gradBytes : 0;
      chain.stages[l - 1].backwardOverhead =
          std::max<int64_t>(0, backwardPeak[l] - passed);
    }
    std::string why;
    if (!chain.verify(&why)) {
      setError(reason, "the chain read off the tasks is invalid: " + why);
      return std::nullopt;
    }
    return result;
  };
  std::vector<TaskChain> readings;
  for (bool lastReaderOwnsOutput : {true, false}) {
    std::optional<TaskChain> reading = readChain(lastReaderOwnsOutput);
    if (!reading)
      return {};
    if (readings.empty() ||
        readings.front().backwardStart != reading->backwardStart)
      readings.push_back(std::move(*reading));
  }
  return readings;
}

namespace {

/// Rotor's table on \p taskChain for limits up to half again \p scale. Its
/// slots are the sizes' common divisor where that leaves few enough (sizes
/// are then exact but for those below a slot, a byte-sized gradient, which
/// round up to one), else scale / memorySlots.
std::optional<RotorTable> buildTable(const detail::TaskChain &taskChain,
                                     int64_t scale, int64_t memorySlots) {
  int64_t divisor = 0;
  for (const ChainStage &stage : taskChain.chain.stages)
    for (int64_t bytes : {stage.outputBytes, stage.savedBytes, stage.gradBytes,
                          stage.forwardOverhead, stage.backwardOverhead})
      if (bytes * memorySlots >= scale)
        divisor = std::gcd(divisor, bytes);
  RotorOptions rotorOptions;
  rotorOptions.slotBytes =
      divisor > 0 && scale / divisor <= 2 * memorySlots
          ? divisor
          : std::max<int64_t>(1, (scale + memorySlots - 1) / memorySlots);
  return RotorTable::build(taskChain.chain, scale + scale / 2, rotorOptions);
}

/// The plan of the table's schedule under the chain limit \p limit,
/// simulated against \p budget; std::nullopt where the program finds no
/// schedule or the plan cannot be simulated.
std::optional<RematPlan> planUnder(const Problem &problem,
                                   const detail::TaskChain &taskChain,
                                   const RotorTable &table, int64_t limit,
                                   int64_t budget, bool escapingWhole) {
  int32_t numTasks = static_cast<int32_t>(problem.numTasks());
  RotorSolution solution = table.solve(limit);
  if (!solution.feasible)
    return std::nullopt;
  // The first forward sweep is the program's own forward part; every
  // forward operation after the first backward one recomputes.
  std::vector<std::vector<TaskId>> runsBefore(numTasks);
  std::vector<TaskId> pending;
  bool backwardStarted = false;
  for (const ChainOp &op : solution.ops) {
    if (op.kind == ChainOpKind::Backward) {
      backwardStarted = true;
      if (TaskId at = taskChain.backwardStart[op.stage - 1]; at < numTasks)
        runsBefore[at].insert(runsBefore[at].end(), pending.begin(),
                              pending.end());
      pending.clear();
      continue;
    }
    if (!backwardStarted || op.kind == ChainOpKind::Free)
      continue;
    const std::vector<TaskId> &tasks =
        op.kind == ChainOpKind::ForwardAll
            ? taskChain.savedTasks[op.stage - 1]
            : taskChain.outputTasks[op.stage - 1];
    pending.insert(pending.end(), tasks.begin(), tasks.end());
  }
  std::vector<NodeId> sequence;
  for (TaskId t = 0; t < numTasks; ++t) {
    sequence.insert(sequence.end(), runsBefore[t].begin(), runsBefore[t].end());
    sequence.push_back(t);
  }
  std::optional<RematPlan> plan = detail::getPlanOfSequence(problem, sequence);
  if (!plan || !detail::measurePlan(problem, *plan, budget, escapingWhole))
    return std::nullopt;
  plan->algorithm = "rotor";
  return plan;
}

/// The cheapest plan within \p budget of Rotor's program on \p taskChain
/// (see planRematByRotor).
std::optional<RematPlan> planChain(const Problem &problem,
                                   const detail::TaskChain &taskChain,
                                   int64_t budget, int64_t memorySlots,
                                   bool escapingWhole) {
  // One table serves every limit the search below tries, up to half again
  // the budget.
  std::optional<RotorTable> table = buildTable(taskChain, budget, memorySlots);
  if (!table)
    return std::nullopt;

  // The chain leaves out values outside it and approximates the stages'
  // overheads: the limit is searched between one whose plan fits the
  // budget and one whose plan does not, starting at the budget and moving
  // by each plan's slack or miss (a limit is low when its plan fits or the
  // model finds none, high when its plan does not fit); the cheapest plan
  // within the budget is kept.
  constexpr int kMaxSolves = 10;
  std::optional<RematPlan> best;
  int64_t low = -1, high = -1;
  int64_t limit = budget;
  for (int solve = 0; solve < kMaxSolves && limit >= 0; ++solve) {
    std::optional<RematPlan> plan =
        planUnder(problem, taskChain, *table, limit, budget, escapingWhole);
    if (!plan) {
      // Infeasible for the model, which may overcount: more room.
      if (high >= 0 && limit >= high)
        break;
      low = std::max(low, limit);
      limit += std::max<int64_t>(budget / 8, 1);
      if (high >= 0)
        limit = std::min(limit, (low + high) / 2);
      continue;
    }
    int64_t peak = plan->peakTransientAfter;
    int64_t next;
    if (plan->withinBudget) {
      if (!best || plan->recomputeSeconds < best->recomputeSeconds)
        best = std::move(plan);
      low = limit;
      if (budget - peak <= budget / 1024 || best->recomputeSeconds <= 0)
        break;
      next = limit + (budget - peak);
    } else {
      high = high < 0 ? limit : std::min(high, limit);
      next = limit - (peak - budget);
    }
    if (high >= 0 && low >= 0) {
      if (high - low <= std::max<int64_t>(budget / 1024, 1))
        break;
      next = low + (high - low) / 2;
    }
    limit = next;
  }
  return best;
}

/// Whether \p a peaks lower than \p b, or as low and recomputes less.
bool hasSmallerPeak(const RematPlan &a, const RematPlan &b) {
  return a.peakTransientAfter < b.peakTransientAfter ||
         (a.peakTransientAfter == b.peakTransientAfter &&
          a.recomputeSeconds < b.recomputeSeconds);
}

/// The plan of the smallest simulated peak among Rotor's schedules under
/// the least limits of \p taskChain, measured against \p budget. It does
/// not depend on the budget, so that a budget set to its peak gets it
/// again (the budget driver's `min` asks for the smallest peak first, then
/// for a plan within it).
std::optional<RematPlan> planSmallestChain(const Problem &problem,
                                           const detail::TaskChain &taskChain,
                                           int64_t budget, int64_t memorySlots,
                                           bool escapingWhole) {
  std::optional<int64_t> least = minimumRotorMemory(taskChain.chain);
  if (!least || *least <= 0)
    return std::nullopt;
  // The least limit in the table's slots lies a little above the exact one;
  // the values outside the chain and the overheads the model approximates
  // make the simulated peak uneven in the limit, so a few limits up to a
  // quarter above it are tried.
  constexpr int kSteps = 8;
  int64_t maxLimit = *least + *least / 4;
  std::optional<RotorTable> table = buildTable(taskChain, *least, memorySlots);
  if (!table)
    return std::nullopt;
  std::optional<RematPlan> best;
  for (int step = 0; step <= kSteps; ++step) {
    int64_t limit = *least + (maxLimit - *least) * step / kSteps;
    std::optional<RematPlan> plan =
        planUnder(problem, taskChain, *table, limit, budget, escapingWhole);
    if (plan && (!best || hasSmallerPeak(*plan, *best)))
      best = std::move(plan);
  }
  return best;
}

} // namespace

std::optional<RematPlan> detail::planRematByRotor(const Problem &problem,
                                                  int64_t budget,
                                                  int32_t maxStages,
                                                  int64_t memorySlots,
                                                  bool escapingWhole) {
  // Both readings of the chain (findTaskChains); the cheaper plan.
  std::vector<TaskChain> chains = findTaskChains(problem, maxStages);
  std::optional<RematPlan> best;
  for (const TaskChain &taskChain : chains)
    if (std::optional<RematPlan> plan =
            planChain(problem, taskChain, budget, memorySlots, escapingWhole);
        plan && (!best || plan->recomputeSeconds < best->recomputeSeconds))
      best = std::move(plan);
  if (best)
    return best;
  // Nothing within the budget: the smallest peak the program's schedules
  // reach, which may be within it (the search above starts from the budget
  // and can miss it) or tell the caller how low the chain goes.
  for (const TaskChain &taskChain : chains)
    if (std::optional<RematPlan> plan = planSmallestChain(
            problem, taskChain, budget, memorySlots, escapingWhole);
        plan && (!best || hasSmallerPeak(*plan, *best)))
      best = std::move(plan);
  return best;
}
