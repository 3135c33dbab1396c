//===- RematGraph.cpp - The node model of rematerialization ---------------===//
//
// This file implements the run-sequence semantics of the node model. Both the
// simulator and the expansion into a Problem derive from one analysis that
// finds, for every run, the instance each of its inputs resolves to, so that
// the two cannot disagree on which instance a recomputation replaces.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/RematGraph.h"
#include "SetError.h"

#include <algorithm>
#include <cmath>

using namespace mlir::memsched::scheduling;
using mlir::memsched::scheduling::detail::setError;

namespace {
std::string describeNode(const RematGraph &graph, NodeId id) {
  const std::string &name = graph.nodes[id].name;
  return name.empty() ? "#" + std::to_string(id) : "'" + name + "'";
}

/// Which instance every run reads and how long every instance lives. An
/// instance is identified by the position of the run that created it.
struct SequenceAnalysis {
  /// For each position, the positions of the instances it reads, without
  /// duplicates (a node listing an input twice reads it once).
  std::vector<std::vector<int32_t>> reads;
  /// For each position, the last position at which its instance is live.
  std::vector<int32_t> liveEnd;
  /// Whether the instance created at each position stays live to the end.
  std::vector<bool> keptToEnd;
};

std::optional<SequenceAnalysis>
analyzeSequence(const RematGraph &graph, const std::vector<NodeId> &sequence,
                std::string *error) {
  std::string why;
  if (!graph.verify(&why)) {
    setError(error, "invalid graph: " + why);
    return std::nullopt;
  }
  size_t numNodes = graph.nodes.size();
  size_t length = sequence.size();
  SequenceAnalysis analysis;
  analysis.reads.resize(length);
  analysis.liveEnd.resize(length);
  analysis.keptToEnd.assign(length, false);

  // latest[v] is the position of v's newest instance, -1 before v's first run.
  std::vector<int32_t> latest(numNodes, -1);
  for (size_t pos = 0; pos < length; ++pos) {
    NodeId node = sequence[pos];
    if (node < 0 || static_cast<size_t>(node) >= numNodes) {
      setError(error, "sequence entry " + std::to_string(pos) + " is node id " +
                          std::to_string(node) + ", which is out of range");
      return std::nullopt;
    }
    std::vector<int32_t> &reads = analysis.reads[pos];
    for (NodeId input : graph.nodes[node].inputs) {
      if (latest[input] < 0) {
        setError(error, "run " + std::to_string(pos) + " of node " +
                            describeNode(graph, node) + " reads node " +
                            describeNode(graph, input) +
                            ", which has not run yet");
        return std::nullopt;
      }
      reads.push_back(latest[input]);
    }
    std::sort(reads.begin(), reads.end());
    reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
    int32_t here = static_cast<int32_t>(pos);
    analysis.liveEnd[pos] = here;
    // Reads are in sequence order, so the last one assigned wins: the last
    // read of an instance before its node runs again (later runs read the
    // newer instance).
    for (int32_t instance : reads)
      analysis.liveEnd[instance] = here;
    latest[node] = here;
  }

  int32_t lastPos = static_cast<int32_t>(length) - 1;
  for (size_t id = 0; id < numNodes; ++id) {
    if (latest[id] < 0) {
      setError(error, "node " + describeNode(graph, static_cast<NodeId>(id)) +
                          " never runs");
      return std::nullopt;
    }
    if (graph.nodes[id].keepToEnd) {
      analysis.keptToEnd[latest[id]] = true;
      analysis.liveEnd[latest[id]] = lastPos;
    }
  }
  return analysis;
}
} // namespace

RematNode mlir::memsched::scheduling::makeRematNode(std::string name,
                                                    int64_t sizeBytes,
                                                    double duration,
                                                    std::vector<NodeId> inputs,
                                                    bool keepToEnd) {
  RematNode node;
  node.name = std::move(name);
  node.sizeBytes = sizeBytes;
  node.duration = duration;
  node.inputs = std::move(inputs);
  node.keepToEnd = keepToEnd;
  return node;
}

double RematGraph::sumOfDurations() const {
  double sum = 0;
  for (const RematNode &node : nodes)
    sum += node.duration;
  return sum;
}

bool RematGraph::verify(std::string *error) const {
  for (size_t id = 0; id < nodes.size(); ++id) {
    const RematNode &node = nodes[id];
    NodeId self = static_cast<NodeId>(id);
    if (node.sizeBytes < 0) {
      setError(error, "node " + describeNode(*this, self) +
                          " has negative size " +
                          std::to_string(node.sizeBytes));
      return false;
    }
    // Written so that NaN fails too.
    if (!(node.duration >= 0.0) || !std::isfinite(node.duration)) {
      setError(error, "node " + describeNode(*this, self) +
                          " has a negative or non-finite duration");
      return false;
    }
    for (NodeId input : node.inputs) {
      if (input < 0 || input >= self) {
        setError(error, "node " + describeNode(*this, self) +
                            " reads node id " + std::to_string(input) +
                            ", which is not an earlier node");
        return false;
      }
    }
  }
  return true;
}

std::optional<SequenceCost> mlir::memsched::scheduling::simulateSequence(
    const RematGraph &graph, const std::vector<NodeId> &sequence,
    std::string *error) {
  std::optional<SequenceAnalysis> analysis =
      analyzeSequence(graph, sequence, error);
  if (!analysis)
    return std::nullopt;

  size_t length = sequence.size();
  SequenceCost cost;
  // Difference array over positions, as in simulateMemory(): an instance adds
  // its size from its creating run through its last live position.
  std::vector<int64_t> delta(length + 1, 0);
  for (size_t pos = 0; pos < length; ++pos) {
    const RematNode &node = graph.nodes[sequence[pos]];
    delta[pos] += node.sizeBytes;
    delta[analysis->liveEnd[pos] + 1] -= node.sizeBytes;
    cost.time += node.duration;
  }
  int64_t running = 0;
  for (size_t pos = 0; pos < length; ++pos) {
    running += delta[pos];
    cost.peakBytes = std::max(cost.peakBytes, running);
  }
  cost.recomputedRuns =
      static_cast<int64_t>(length) - static_cast<int64_t>(graph.nodes.size());
  return cost;
}

std::optional<ExpandedSequence>
mlir::memsched::scheduling::expandSequence(const RematGraph &graph,
                                           const std::vector<NodeId> &sequence,
                                           std::string *error) {
  std::optional<SequenceAnalysis> analysis =
      analyzeSequence(graph, sequence, error);
  if (!analysis)
    return std::nullopt;

  size_t length = sequence.size();
  ExpandedSequence expanded;
  Problem &problem = expanded.problem;
  std::vector<int32_t> runsSoFar(graph.nodes.size(), 0);
  std::vector<ValueId> valueOf(length);
  for (size_t pos = 0; pos < length; ++pos) {
    NodeId id = sequence[pos];
    const RematNode &node = graph.nodes[id];
    // The first run keeps the node's name; recomputations are numbered so
    // that diagnostics on the Problem can tell the instances apart.
    std::string name = node.name;
    if (runsSoFar[id] > 0 && !name.empty())
      name += "#" + std::to_string(runsSoFar[id]);
    ++runsSoFar[id];

    Task task;
    task.name = name;
    task.duration = node.duration;
    TaskId taskId = problem.addTask(std::move(task));

    Buffer buffer;
    buffer.name = name;
    buffer.sizeBytes = node.sizeBytes;
    buffer.kind = BufferKind::Transient;
    BufferId bufferId = problem.addBuffer(std::move(buffer));

    Value value;
    value.name = name;
    value.sizeBytes = node.sizeBytes;
    value.buffer = bufferId;
    value.producer = taskId;
    value.definedBy = taskId;
    value.liveToEnd = analysis->keptToEnd[pos];
    valueOf[pos] = problem.addValue(std::move(value));

    for (int32_t instance : analysis->reads[pos])
      problem.addConsumer(valueOf[instance], taskId);
    expanded.order.push_back(taskId);
    expanded.nodeOf.push_back(id);
  }
  return expanded;
}

std::vector<NodeId>
mlir::memsched::scheduling::identitySequence(const RematGraph &graph) {
  std::vector<NodeId> sequence(graph.nodes.size());
  for (size_t id = 0; id < sequence.size(); ++id)
    sequence[id] = static_cast<NodeId>(id);
  return sequence;
}
