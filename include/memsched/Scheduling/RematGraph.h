//===- RematGraph.h - The node model of rematerialization -------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the node model the checkpointing literature (Checkmate,
// MOCCASIN) states its problems in: every node computes one tensor of its own,
// a node may run several times (recomputation), and every run reads the
// latest instance of each of its inputs. It is the common ground of the exact
// ILP, its brute-force oracle and the comparison with memsched's heuristic,
// which works on a full Problem (buffers, aliases): expandSequence() turns a
// node graph and a run sequence into one.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_REMATGRAPH_H
#define MEMSCHED_SCHEDULING_REMATGRAPH_H

#include "memsched/Scheduling/Problem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// Index of a node of a RematGraph.
using NodeId = int32_t;

/// One node: an op computing one tensor.
struct RematNode {
  /// Name used in diagnostics.
  std::string name;
  /// Time of one run, in seconds.
  double duration = 0.0;
  /// Bytes of the node's tensor; live from the start of the run that creates
  /// an instance to the end of the last run reading that instance.
  int64_t sizeBytes = 0;
  /// Nodes whose tensors this node reads; all smaller than this node's id.
  std::vector<NodeId> inputs;
  /// The tensor is a result of the whole computation: the instance of the
  /// node's last run stays live to the end.
  bool keepToEnd = false;
};

/// A DAG of nodes, numbered in a topological order (the order of first runs
/// that Checkmate's formulation fixes).
struct RematGraph {
  std::vector<RematNode> nodes;

  /// Checks that inputs refer to earlier nodes and sizes and durations are
  /// non-negative.
  bool verify(std::string *error = nullptr) const;
  /// The time of running every node once: a sequence's cost less this is
  /// its recomputation.
  double sumOfDurations() const;
};

/// A node with the given fields.
RematNode makeRematNode(std::string name, int64_t sizeBytes, double duration,
                        std::vector<NodeId> inputs = {},
                        bool keepToEnd = false);

/// The cost of a run sequence.
struct SequenceCost {
  /// Largest number of bytes live during any run.
  int64_t peakBytes = 0;
  /// Sum of the durations of all runs.
  double time = 0.0;
  /// Number of runs beyond the first run of each node.
  int64_t recomputedRuns = 0;
};

/// Executes \p sequence (node ids; a repeated id is a recomputation). A run of
/// node v needs the latest instance of each input live; it creates a new
/// instance of v, which replaces (frees) v's previous instance. An instance is
/// freed after the last run that reads it before the node runs again, or,
/// if no run reads it, right after the run that created it, unless it is the
/// last instance of a keepToEnd node. During a run, every live instance, the
/// run's inputs and its new output count. Every node must run at least once.
/// Returns std::nullopt and explains in \p error if the sequence is invalid.
std::optional<SequenceCost>
simulateSequence(const RematGraph &graph, const std::vector<NodeId> &sequence,
                 std::string *error = nullptr);

/// A node graph together with a run sequence, as a scheduling Problem: one
/// task, value and transient buffer per run, consumers following the rule of
/// simulateSequence(). simulateMemory() of `order` then reports the same
/// peak as simulateSequence().
struct ExpandedSequence {
  Problem problem;
  /// Tasks in sequence order (the identity 0..n-1).
  std::vector<TaskId> order;
  /// The node of each task.
  std::vector<NodeId> nodeOf;
};

/// Builds the ExpandedSequence of \p sequence; std::nullopt with \p error if
/// the sequence is invalid (as simulateSequence()).
std::optional<ExpandedSequence>
expandSequence(const RematGraph &graph, const std::vector<NodeId> &sequence,
               std::string *error = nullptr);

/// The sequence that runs every node once, in id order.
std::vector<NodeId> identitySequence(const RematGraph &graph);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_REMATGRAPH_H
