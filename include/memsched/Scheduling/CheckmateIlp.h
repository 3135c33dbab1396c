//===- CheckmateIlp.h - Exact rematerialization by ILP ----------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the exact rematerialization solver: the integer linear
// program of Checkmate (Jain et al., "Checkmate: Breaking the Memory Wall
// with Optimal Tensor Rematerialization", MLSys 2020), solved with COIN-OR
// CBC (memsched-remat's exact phase, RematIlp.h, and the benchmarks'
// baseline), and a brute-force oracle over the same schedule space that the
// tests use to check the ILP on tiny graphs.
//
// Both search Checkmate's schedule space on a RematGraph: stage t (one per
// node, in id order) runs some recomputations of nodes smaller than t, in
// increasing id order, and then node t itself. keepToEnd nodes are never
// recomputed (their only instance stays live to the end). Memory follows
// simulateSequence(), and every returned sequence is replayed through it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_CHECKMATEILP_H
#define MEMSCHED_SCHEDULING_CHECKMATEILP_H

#include "memsched/Scheduling/RematGraph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// Settings of solveCheckmateIlp().
struct CheckmateOptions {
  /// Work limit of the CBC solve: branch-and-bound nodes; the best solution
  /// found within it is returned (status Feasible). <= 0 means none.
  int64_t maxNodes = 100'000;
  /// An optional wall-clock limit of the CBC solve, in seconds, on top of
  /// maxNodes; <= 0 (the default) means none, so that the result depends
  /// only on the graph and the options. CBC checks it between steps, so a
  /// solve can overrun it by the time of one root LP and cut pass (tenths of
  /// a second on 100-node graphs).
  double timeLimitSeconds = 0.0;
  /// Solve the LP relaxation instead (every binary continuous in [0, 1]):
  /// its objective is a lower bound on the optimal total time, cheap to get
  /// even where the ILP is out of reach. No sequence is produced.
  bool relaxation = false;
  /// Known sequences to start from (e.g. a heuristic's plan): the cheapest
  /// one that lies in the schedule space and fits is the first incumbent,
  /// unless a built-in start is cheaper.
  std::vector<std::vector<NodeId>> startSequences;
};

/// How a solve ended.
enum class IlpStatus {
  /// Proven optimal (for a relaxation: the LP was solved).
  Optimal,
  /// A limit (nodes or time) was hit with a solution in hand.
  Feasible,
  /// No sequence of the schedule space fits in the budget.
  Infeasible,
  /// A limit (nodes or time) was hit without any solution.
  Unknown,
};

/// Returns "optimal", "feasible", "infeasible" or "unknown".
const char *stringifyIlpStatus(IlpStatus status);

/// The outcome of solveCheckmateIlp().
struct CheckmateResult {
  IlpStatus status = IlpStatus::Unknown;
  /// The run sequence of the solution; empty unless status is Optimal or
  /// Feasible and this was not a relaxation.
  std::vector<NodeId> sequence;
  /// simulateSequence() of `sequence`: the true peak and time.
  SequenceCost cost;
  /// The solver's objective (total time of all runs) of the solution, or of
  /// the relaxation.
  double objective = 0.0;
  /// The best proven lower bound on the optimal total time.
  double lowerBound = 0.0;
  /// Wall-clock seconds spent in CBC, model construction excluded.
  double solveSeconds = 0.0;
  /// Size of the model handed to CBC (fixed columns included).
  int numVariables = 0;
  int numConstraints = 0;
};

/// Solves Checkmate's ILP for \p graph under \p budgetBytes of live memory:
/// the minimum total time of a sequence of the schedule space whose
/// simulateSequence() peak is at most the budget. An infeasible budget is a
/// result (status Infeasible), not an error; std::nullopt with \p error means
/// the input was invalid or the solver failed. CBC 2.10's solver driver is
/// not documented as thread-safe, so concurrent calls wait for each other.
std::optional<CheckmateResult>
solveCheckmateIlp(const RematGraph &graph, int64_t budgetBytes,
                  const CheckmateOptions &options = {},
                  std::string *error = nullptr);

/// The peak the ILP's memory accounting (the largest U) gives \p sequence
/// with the smallest S it allows; it equals simulateSequence()'s for every
/// sequence of the schedule space, which is what makes the ILP exact. The
/// tests check that claim here, without a solver. Returns std::nullopt and
/// explains in \p error when \p sequence is not in the schedule space.
std::optional<int64_t> checkmateModelPeak(const RematGraph &graph,
                                          const std::vector<NodeId> &sequence,
                                          std::string *error = nullptr);

/// Largest graph solveRematBruteForce() accepts: its state space has
/// n * (n + 1) * 2^n states.
inline constexpr size_t kMaxBruteForceNodes = 12;

/// Exact oracle for tiny graphs, independent of the ILP: Dijkstra over the
/// states (stage, last node run in the stage, set of live instances), where
/// between runs any instance but a keepToEnd one may be dropped. Returns the
/// cost of a fastest sequence of the schedule space with peak at most
/// \p budgetBytes, and the sequence in \p bestSequence (if non-null).
/// Returns std::nullopt and explains in \p error when no sequence fits, the
/// graph is invalid or it has more than kMaxBruteForceNodes nodes.
std::optional<SequenceCost>
solveRematBruteForce(const RematGraph &graph, int64_t budgetBytes,
                     std::vector<NodeId> *bestSequence = nullptr,
                     std::string *error = nullptr);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_CHECKMATEILP_H
