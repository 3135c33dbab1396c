//===- CheckmateIlp.cpp - Exact rematerialization by ILP ------------------===//
//
// This file implements Checkmate's ILP on CBC's C API and the brute-force
// oracle over the same schedule space.
//
// The ILP follows the formulation of Checkmate's gurobi_solver.py, with two
// changes that make its memory accounting equal simulateSequence() for the
// sequence read off its R matrix: every node has a self "edge" (k, k) whose
// FREE frees an output nobody reads in its stage and nobody keeps, and the
// last stage keeps the keepToEnd nodes instead of freeing everything. With
// the smallest S a sequence allows, U[t][k] is then exactly the bytes live
// during the run of k in stage t; any larger S only adds bytes, so every
// solution's sequence fits in the budget (and is checked to).
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/CheckmateIlp.h"
#include "SetError.h"

#include <Cbc_C_Interface.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <queue>
#include <string>
#include <utility>

using namespace mlir::memsched::scheduling;
using mlir::memsched::scheduling::detail::setError;

namespace {
/// runs[t][i]: whether stage t runs node i (i <= t); Checkmate's R matrix.
using StageRuns = std::vector<std::vector<char>>;

/// The run sequence of \p runs: stage by stage, each in id order.
std::vector<NodeId> sequenceOf(const StageRuns &runs) {
  std::vector<NodeId> sequence;
  for (size_t t = 0; t < runs.size(); ++t)
    for (size_t i = 0; i <= t; ++i)
      if (runs[t][i])
        sequence.push_back(static_cast<NodeId>(i));
  return sequence;
}

/// The stages of \p sequence if it lies in Checkmate's schedule space:
/// stage t is a strictly increasing run of nodes ending with t, whose other
/// nodes are smaller and not keepToEnd.
std::optional<StageRuns> stagesOf(const RematGraph &graph,
                                  const std::vector<NodeId> &sequence) {
  size_t n = graph.nodes.size();
  StageRuns runs(n);
  size_t pos = 0;
  for (size_t t = 0; t < n; ++t) {
    runs[t].assign(t + 1, 0);
    NodeId previous = -1;
    while (true) {
      if (pos == sequence.size())
        return std::nullopt;
      NodeId node = sequence[pos++];
      if (node <= previous || node < 0 || static_cast<size_t>(node) > t)
        return std::nullopt;
      runs[t][node] = 1;
      if (static_cast<size_t>(node) == t)
        break;
      if (graph.nodes[node].keepToEnd)
        return std::nullopt;
      previous = node;
    }
  }
  if (pos != sequence.size())
    return std::nullopt;
  return runs;
}

/// An edge (i, k) of the ILP: node k reads node i, or i == k for the self
/// edge that frees an output right after its run.
struct IlpEdge {
  NodeId source;
  NodeId target;
};

/// A linear program assembled column-major and handed to CBC in one call:
/// adding rows one at a time through the C API copies CBC's buffers on every
/// call, which dominated the construction of models of 60-node graphs.
class LinearProgram {
public:
  int addColumn(double lower, double upper, double objective, bool integer) {
    colLower.push_back(lower);
    colUpper.push_back(upper);
    objectives.push_back(objective);
    integers.push_back(integer);
    return static_cast<int>(colLower.size()) - 1;
  }
  /// Adds a term to the row under construction; zero terms are dropped.
  void addTerm(int column, double coef) {
    if (coef == 0.0)
      return;
    termRows.push_back(static_cast<int>(rowLower.size()));
    termColumns.push_back(column);
    termCoefs.push_back(coef);
  }
  /// Closes the row under construction: `terms sense rhs`, where sense is
  /// 'L' (<=), 'G' (>=) or 'E' (=).
  void addRow(char sense, double rhs) {
    constexpr double kInfinity = std::numeric_limits<double>::max();
    rowLower.push_back(sense == 'L' ? -kInfinity : rhs);
    rowUpper.push_back(sense == 'G' ? kInfinity : rhs);
  }
  /// Loads the program into \p cbc.
  void load(Cbc_Model *cbc) const {
    int numColumns = static_cast<int>(colLower.size());
    std::vector<CoinBigIndex> starts(numColumns + 1, 0);
    for (int column : termColumns)
      ++starts[column + 1];
    for (int column = 0; column < numColumns; ++column)
      starts[column + 1] += starts[column];
    std::vector<CoinBigIndex> next(starts.begin(), starts.end() - 1);
    std::vector<int> rows(termRows.size());
    std::vector<double> coefs(termRows.size());
    for (size_t term = 0; term < termRows.size(); ++term) {
      CoinBigIndex slot = next[termColumns[term]]++;
      rows[slot] = termRows[term];
      coefs[slot] = termCoefs[term];
    }
    Cbc_loadProblem(cbc, numColumns, static_cast<int>(rowLower.size()),
                    starts.data(), rows.data(), coefs.data(), colLower.data(),
                    colUpper.data(), objectives.data(), rowLower.data(),
                    rowUpper.data());
    for (int column = 0; column < numColumns; ++column)
      if (integers[column])
        Cbc_setInteger(cbc, column);
  }

private:
  std::vector<double> colLower, colUpper, objectives;
  std::vector<bool> integers;
  std::vector<int> termRows, termColumns;
  std::vector<double> termCoefs;
  std::vector<double> rowLower, rowUpper;
};

/// Checkmate's ILP for one graph: the column layout and the rows. Columns are
/// created for every (stage, node) pair the formulation names, fixed ones
/// included (CBC's presolve removes them), so that the indexing stays
/// uniform.
class CheckmateModel {
public:
  CheckmateModel(const RematGraph &graph, int64_t memoryUnit);

  /// Column of R[t][i], i <= t: stage t runs node i.
  int r(int t, int i) const { return rBase + triangle(t) + i; }
  /// Column of S[t][i], i < t: an instance of i is kept into stage t.
  int s(int t, int i) const { return sBase + triangle(t - 1) + i; }
  /// Column of U[t][k], k <= t: memory units live during the run of k in
  /// stage t (if it runs).
  int u(int t, int k) const { return uBase + triangle(t) + k; }
  /// Column of FREE[t][e] for edges[e].target <= t: node e.source's instance
  /// is freed after the run of e.target in stage t.
  int freed(int t, int e) const { return freeBase + freeOffset[t] + e; }

  /// Creates the columns and rows in \p cbc. \p budgetUnits bounds every U.
  void build(Cbc_Model *cbc, double budgetUnits, bool integral) const;

  /// The values of every column for the sequence \p runs with the smallest
  /// S it allows, and the largest U at a step (in memory units).
  std::vector<double> columnValues(const StageRuns &runs,
                                   double *maxUnits) const;

  int numColumns() const { return freeBase + freeOffset[numNodes]; }

private:
  static int triangle(int t) { return t * (t + 1) / 2; }
  /// Size of node \p i in memory units.
  double units(int i) const {
    return static_cast<double>(graph.nodes[i].sizeBytes / memoryUnit);
  }
  bool keep(int i) const { return graph.nodes[i].keepToEnd; }
  /// Successors j of \p i with k < j <= t: the runs in stage t after k that
  /// still read i's instance.
  std::vector<int> laterReaders(int i, int k, int t) const;

  const RematGraph &graph;
  int64_t memoryUnit;
  int numNodes;
  /// Sorted by target, so the edges usable in stage t are a prefix.
  std::vector<IlpEdge> edges;
  /// edgesUpTo[t]: number of edges whose target is at most t.
  std::vector<int> edgesUpTo;
  /// Distinct successors of every node, sorted.
  std::vector<std::vector<int>> successors;
  int rBase, sBase, uBase, freeBase;
  std::vector<int> freeOffset;
};

CheckmateModel::CheckmateModel(const RematGraph &graph, int64_t memoryUnit)
    : graph(graph), memoryUnit(memoryUnit),
      numNodes(static_cast<int>(graph.nodes.size())) {
  successors.resize(numNodes);
  for (int k = 0; k < numNodes; ++k) {
    edges.push_back({k, k});
    std::vector<NodeId> inputs = graph.nodes[k].inputs;
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    for (NodeId i : inputs) {
      edges.push_back({i, k});
      successors[i].push_back(k);
    }
    edgesUpTo.push_back(static_cast<int>(edges.size()));
  }
  // Successors were appended in increasing target order: already sorted.

  int pairs = triangle(numNodes);
  rBase = 0;
  sBase = rBase + pairs;
  uBase = sBase + (numNodes > 0 ? triangle(numNodes - 1) : 0);
  freeBase = uBase + pairs;
  freeOffset.assign(numNodes + 1, 0);
  for (int t = 0; t < numNodes; ++t)
    freeOffset[t + 1] = freeOffset[t] + edgesUpTo[t];
}

std::vector<int> CheckmateModel::laterReaders(int i, int k, int t) const {
  std::vector<int> readers;
  for (int j : successors[i])
    if (j > k && j <= t)
      readers.push_back(j);
  return readers;
}

void CheckmateModel::build(Cbc_Model *cbc, double budgetUnits,
                           bool integral) const {
  LinearProgram program;
  // Columns in index order: R, S, U, FREE.
  for (int t = 0; t < numNodes; ++t)
    for (int i = 0; i <= t; ++i) {
      // Every node runs in its own stage; keepToEnd nodes only there.
      double lower = i == t ? 1.0 : 0.0;
      double upper = i == t || !keep(i) ? 1.0 : 0.0;
      program.addColumn(lower, upper, graph.nodes[i].duration, integral);
    }
  for (int t = 1; t < numNodes; ++t)
    for (int i = 0; i < t; ++i) {
      // A keepToEnd node's only instance is kept from its stage on.
      double lower = keep(i) ? 1.0 : 0.0;
      program.addColumn(lower, 1.0, 0.0, integral);
    }
  for (int t = 0; t < numNodes; ++t)
    for (int k = 0; k <= t; ++k)
      program.addColumn(0.0, budgetUnits, 0.0, false);
  for (int t = 0; t < numNodes; ++t)
    for (int e = 0; e < edgesUpTo[t]; ++e)
      program.addColumn(0.0, 1.0, 0.0, integral);

  auto term = [&](int col, double coef) { program.addTerm(col, coef); };
  auto addRow = [&](char sense, double rhs) { program.addRow(sense, rhs); };

  // An instance can only be kept into stage t + 1 if it was kept into stage
  // t or computed in it: S[t+1][i] <= S[t][i] + R[t][i].
  for (int t = 0; t + 1 < numNodes; ++t)
    for (int i = 0; i < t; ++i) {
      term(s(t + 1, i), 1.0);
      term(s(t, i), -1.0);
      term(r(t, i), -1.0);
      addRow('L', 0.0);
    }
  // A run needs every input computed earlier in its stage or kept into it:
  // R[t][k] <= R[t][i] + S[t][i] for every edge i -> k.
  for (int t = 0; t < numNodes; ++t)
    for (int e = 0; e < edgesUpTo[t]; ++e) {
      auto [i, k] = edges[e];
      if (i == k)
        continue;
      term(r(t, k), 1.0);
      term(r(t, i), -1.0);
      term(s(t, i), -1.0);
      addRow('L', 0.0);
    }
  // FREE[t][(i,k)] = 1 iff the number of hazards
  //   h = (1 - R[t][k]) + S[t+1][i] + sum of R[t][j], j successor of i,
  //       k < j <= t
  // is zero: k runs, i's instance is not kept into the next stage and no
  // later run of the stage reads it. After the last stage S[n][i] is the
  // constant keepToEnd(i). Linearized as in Checkmate:
  //   1 - FREE <= h   and   maxH * (1 - FREE) >= h.
  // For the self edge (k, k) the successors are all later than k, so the
  // same formula frees an output no run of its stage reads.
  for (int t = 0; t < numNodes; ++t) {
    bool lastStage = t + 1 == numNodes;
    for (int e = 0; e < edgesUpTo[t]; ++e) {
      auto [i, k] = edges[e];
      std::vector<int> readers = laterReaders(i, k, t);
      double keptAfter = lastStage && keep(i) ? 1.0 : 0.0;
      double maxHazards = 1.0 + (lastStage ? keptAfter : 1.0) +
                          static_cast<double>(readers.size());
      auto hazardTerms = [&] {
        term(r(t, k), -1.0);
        if (!lastStage)
          term(s(t + 1, i), 1.0);
        for (int j : readers)
          term(r(t, j), 1.0);
      };
      term(freed(t, e), 1.0);
      hazardTerms();
      addRow('G', -keptAfter);
      term(freed(t, e), maxHazards);
      hazardTerms();
      addRow('L', maxHazards - 1.0 - keptAfter);
    }
  }
  // Memory: the kept instances plus node 0's output at the first step; then
  // each step frees what the previous run was the last to need and adds its
  // own output:
  //   U[t][0] = sum S[t][i] size_i + R[t][0] size_0
  //   U[t][k+1] = U[t][k] - sum FREE[t][(i,k)] size_i + R[t][k+1] size_{k+1}
  for (int t = 0; t < numNodes; ++t) {
    term(u(t, 0), 1.0);
    term(r(t, 0), -units(0));
    for (int i = 0; i < t; ++i)
      term(s(t, i), -units(i));
    addRow('E', 0.0);
    for (int k = 0; k < t; ++k) {
      term(u(t, k + 1), 1.0);
      term(u(t, k), -1.0);
      for (int e = k == 0 ? 0 : edgesUpTo[k - 1]; e < edgesUpTo[k]; ++e)
        term(freed(t, e), units(edges[e].source));
      term(r(t, k + 1), -units(k + 1));
      addRow('E', 0.0);
    }
  }
  program.load(cbc);
}

std::vector<double> CheckmateModel::columnValues(const StageRuns &runs,
                                                 double *maxUnits) const {
  std::vector<double> values(numColumns(), 0.0);
  // The smallest S: an instance is kept into stage t if it is a keepToEnd
  // node's, or, when stage t does not recompute the node, if stage t reads
  // it or it is kept into stage t + 1.
  std::vector<std::vector<char>> kept(numNodes + 1,
                                      std::vector<char>(numNodes, 0));
  for (int t = numNodes - 1; t >= 1; --t)
    for (int i = 0; i < t; ++i) {
      bool readHere = false;
      for (int j : successors[i])
        readHere |= j <= t && runs[t][j];
      kept[t][i] =
          keep(i) || (!runs[t][i] && (readHere || kept[t + 1][i] != 0));
    }
  for (int t = 0; t < numNodes; ++t) {
    for (int i = 0; i <= t; ++i)
      values[r(t, i)] = runs[t][i] ? 1.0 : 0.0;
    for (int i = 0; i < t; ++i)
      values[s(t, i)] = kept[t][i] ? 1.0 : 0.0;
  }
  *maxUnits = 0.0;
  for (int t = 0; t < numNodes; ++t) {
    bool lastStage = t + 1 == numNodes;
    for (int e = 0; e < edgesUpTo[t]; ++e) {
      auto [i, k] = edges[e];
      bool hazard = !runs[t][k] || (lastStage ? keep(i) : kept[t + 1][i] != 0);
      for (int j : laterReaders(i, k, t))
        hazard |= runs[t][j] != 0;
      values[freed(t, e)] = hazard ? 0.0 : 1.0;
    }
    double memory = runs[t][0] ? units(0) : 0.0;
    for (int i = 0; i < t; ++i)
      memory += kept[t][i] ? units(i) : 0.0;
    values[u(t, 0)] = memory;
    for (int k = 0; k < t; ++k) {
      for (int e = k == 0 ? 0 : edgesUpTo[k - 1]; e < edgesUpTo[k]; ++e)
        memory -= values[freed(t, e)] * units(edges[e].source);
      memory += runs[t][k + 1] ? units(k + 1) : 0.0;
      values[u(t, k + 1)] = memory;
    }
    for (int k = 0; k <= t; ++k)
      *maxUnits = std::max(*maxUnits, values[u(t, k)]);
  }
  return values;
}

/// Sequences that are cheap to construct and often fit: checkpoint every
/// node (no recomputation), or keep nothing but the keepToEnd nodes and
/// recompute, in every stage, all ancestors the stage's node needs.
std::vector<StageRuns> startCandidates(const RematGraph &graph) {
  size_t n = graph.nodes.size();
  StageRuns keepAll(n), recomputeAll(n);
  for (size_t t = 0; t < n; ++t) {
    keepAll[t].assign(t + 1, 0);
    keepAll[t][t] = 1;
    recomputeAll[t].assign(t + 1, 0);
    recomputeAll[t][t] = 1;
    for (size_t v = t + 1; v-- > 0;) {
      if (!recomputeAll[t][v])
        continue;
      for (NodeId input : graph.nodes[v].inputs)
        if (!graph.nodes[input].keepToEnd)
          recomputeAll[t][input] = 1;
    }
  }
  return {keepAll, recomputeAll};
}

/// The memory unit: the gcd of all sizes, so that the ILP's coefficients
/// stay small integers when sizes are multiples of a common block.
int64_t memoryUnitOf(const RematGraph &graph) {
  int64_t unit = 0;
  for (const RematNode &node : graph.nodes)
    unit = std::gcd(unit, node.sizeBytes);
  return unit > 0 ? unit : 1;
}

/// Owns a CBC model.
struct CbcModelDeleter {
  void operator()(Cbc_Model *model) const { Cbc_deleteModel(model); }
};
} // namespace

const char *mlir::memsched::scheduling::stringifyIlpStatus(IlpStatus status) {
  switch (status) {
  case IlpStatus::Optimal:
    return "optimal";
  case IlpStatus::Feasible:
    return "feasible";
  case IlpStatus::Infeasible:
    return "infeasible";
  case IlpStatus::Unknown:
    return "unknown";
  }
  return "unknown";
}

std::optional<CheckmateResult> mlir::memsched::scheduling::solveCheckmateIlp(
    const RematGraph &graph, int64_t budgetBytes,
    const CheckmateOptions &options, std::string *error) {
  std::string why;
  if (!graph.verify(&why)) {
    setError(error, "invalid graph: " + why);
    return std::nullopt;
  }
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  CheckmateResult result;
  // Nothing can fit in a negative budget, and an empty graph fits in any
  // other; CBC is not asked about either.
  if (budgetBytes < 0 || graph.nodes.empty()) {
    result.status =
        budgetBytes < 0 ? IlpStatus::Infeasible : IlpStatus::Optimal;
    result.objective = result.lowerBound = budgetBytes < 0 ? kInfinity : 0.0;
    return result;
  }

  // CBC 2.10's driver is not documented as thread-safe, and passes plan
  // functions in parallel: one solve at a time.
  static std::mutex cbcMutex;
  std::lock_guard<std::mutex> lock(cbcMutex);
  int64_t unit = memoryUnitOf(graph);
  CheckmateModel model(graph, unit);
  std::unique_ptr<Cbc_Model, CbcModelDeleter> cbc(Cbc_newModel());
  Cbc_setLogLevel(cbc.get(), 0);
  double budgetUnits = static_cast<double>(budgetBytes / unit);
  model.build(cbc.get(), budgetUnits, !options.relaxation);
  result.numVariables = Cbc_getNumCols(cbc.get());
  result.numConstraints = Cbc_getNumRows(cbc.get());

  // Start from the cheapest simple sequence that fits, so that a node or time
  // limit still returns a solution. Its U is checked against
  // simulateSequence(): the ILP's accounting must equal it for sequences built
  // from R.
  if (!options.relaxation) {
    double bestTime = kInfinity;
    std::vector<double> start;
    std::vector<StageRuns> starts = startCandidates(graph);
    for (const std::vector<NodeId> &sequence : options.startSequences)
      if (std::optional<StageRuns> runs = stagesOf(graph, sequence))
        starts.push_back(std::move(*runs));
    for (const StageRuns &runs : starts) {
      std::optional<SequenceCost> cost =
          simulateSequence(graph, sequenceOf(runs));
      if (!cost || cost->peakBytes > budgetBytes || cost->time >= bestTime)
        continue;
      double maxUnits = 0.0;
      std::vector<double> values = model.columnValues(runs, &maxUnits);
      if (static_cast<int64_t>(std::llround(maxUnits)) * unit !=
          cost->peakBytes) {
        setError(error, "internal error: the ILP counts " +
                            std::to_string(maxUnits * unit) +
                            " bytes for a sequence whose peak is " +
                            std::to_string(cost->peakBytes));
        return std::nullopt;
      }
      bestTime = cost->time;
      start = std::move(values);
    }
    if (!start.empty()) {
      std::vector<int> columns(start.size());
      std::iota(columns.begin(), columns.end(), 0);
      Cbc_setMIPStartI(cbc.get(), static_cast<int>(columns.size()),
                       columns.data(), start.data());
    }
  }

  // CBC 2.10's preprocessing ignores the time limit (seconds on a 60-node
  // graph) and can crash in its postprocessing when the limit is hit with a
  // start solution; without it the limit holds and the small models of the
  // tests solve about half as fast.
  Cbc_setParameter(cbc.get(), "preprocess", "off");
  if (options.maxNodes > 0)
    Cbc_setMaximumNodes(
        cbc.get(), static_cast<int>(std::min<int64_t>(
                       options.maxNodes, std::numeric_limits<int>::max())));
  if (options.timeLimitSeconds > 0) {
    Cbc_setParameter(cbc.get(), "timeMode", "elapsed");
    Cbc_setMaximumSeconds(cbc.get(), options.timeLimitSeconds);
  }
  auto begin = std::chrono::steady_clock::now();
  Cbc_solve(cbc.get());
  result.solveSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();

  const double *solution = nullptr;
  if (options.relaxation) {
    if (Cbc_isProvenOptimal(cbc.get())) {
      result.status = IlpStatus::Optimal;
      result.objective = result.lowerBound = Cbc_getObjValue(cbc.get());
    } else if (Cbc_isProvenInfeasible(cbc.get())) {
      result.status = IlpStatus::Infeasible;
    } else {
      result.status = IlpStatus::Unknown;
    }
  } else {
    solution = Cbc_bestSolution(cbc.get());
    if (Cbc_isProvenOptimal(cbc.get()) && solution)
      result.status = IlpStatus::Optimal;
    else if (Cbc_isProvenInfeasible(cbc.get()))
      result.status = IlpStatus::Infeasible;
    else if (solution)
      result.status = IlpStatus::Feasible;
    else
      result.status = IlpStatus::Unknown;
    if (result.status == IlpStatus::Infeasible)
      solution = nullptr;
    if (solution)
      result.objective = Cbc_getObjValue(cbc.get());
    result.lowerBound = result.status == IlpStatus::Optimal
                            ? result.objective
                            : Cbc_getBestPossibleObjValue(cbc.get());
  }
  if (result.status == IlpStatus::Infeasible)
    result.objective = result.lowerBound = kInfinity;
  else if (result.status == IlpStatus::Unknown)
    result.objective = kInfinity;
  if (!solution)
    return result;

  size_t n = graph.nodes.size();
  StageRuns runs(n);
  for (size_t t = 0; t < n; ++t) {
    runs[t].assign(t + 1, 0);
    for (size_t i = 0; i <= t; ++i)
      runs[t][i] =
          solution[model.r(static_cast<int>(t), static_cast<int>(i))] > 0.5;
  }
  result.sequence = sequenceOf(runs);
  std::optional<SequenceCost> cost =
      simulateSequence(graph, result.sequence, &why);
  if (!cost) {
    setError(error, "internal error: the ILP's sequence is invalid: " + why);
    return std::nullopt;
  }
  if (cost->peakBytes > budgetBytes) {
    setError(error, "internal error: the ILP's sequence peaks at " +
                        std::to_string(cost->peakBytes) +
                        " bytes, over the budget of " +
                        std::to_string(budgetBytes));
    return std::nullopt;
  }
  result.cost = *cost;
  return result;
}

std::optional<int64_t> mlir::memsched::scheduling::checkmateModelPeak(
    const RematGraph &graph, const std::vector<NodeId> &sequence,
    std::string *error) {
  std::string why;
  if (!graph.verify(&why)) {
    setError(error, "invalid graph: " + why);
    return std::nullopt;
  }
  std::optional<StageRuns> runs = stagesOf(graph, sequence);
  if (!runs) {
    setError(error, "the sequence is not in Checkmate's schedule space");
    return std::nullopt;
  }
  int64_t unit = memoryUnitOf(graph);
  double maxUnits = 0.0;
  CheckmateModel(graph, unit).columnValues(*runs, &maxUnits);
  return static_cast<int64_t>(std::llround(maxUnits)) * unit;
}

//===----------------------------------------------------------------------===//
// Brute-force oracle
//===----------------------------------------------------------------------===//

std::optional<SequenceCost> mlir::memsched::scheduling::solveRematBruteForce(
    const RematGraph &graph, int64_t budgetBytes,
    std::vector<NodeId> *bestSequence, std::string *error) {
  std::string why;
  if (!graph.verify(&why)) {
    setError(error, "invalid graph: " + why);
    return std::nullopt;
  }
  size_t n = graph.nodes.size();
  if (n > kMaxBruteForceNodes) {
    setError(error, "the graph has " + std::to_string(n) +
                        " nodes; the brute force handles at most " +
                        std::to_string(kMaxBruteForceNodes));
    return std::nullopt;
  }
  if (n == 0) {
    if (budgetBytes < 0) {
      setError(error, "no sequence fits in the budget");
      return std::nullopt;
    }
    if (bestSequence)
      bestSequence->clear();
    return SequenceCost();
  }

  // A state is (stage t, last node run in stage t or -1, live set), where
  // the live set has a bit per node whose latest instance is still live.
  // Between runs a zero-cost move drops one instance; a run of v needs its
  // inputs live and its own old instance dropped, and counts the live set
  // plus its output.
  uint32_t numMasks = 1u << n;
  size_t numStates = n * (n + 1) * numMasks;
  auto stateOf = [&](size_t stage, int last, uint32_t mask) {
    return (stage * (n + 1) + static_cast<size_t>(last + 1)) * numMasks + mask;
  };
  size_t terminal = numStates;
  // Bytes of every live set; the sets with highest bit v extend those
  // without it.
  std::vector<int64_t> maskBytes(numMasks, 0);
  for (size_t v = 0; v < n; ++v)
    for (uint32_t mask = 1u << v; mask < (2u << v); ++mask)
      maskBytes[mask] = maskBytes[mask - (1u << v)] + graph.nodes[v].sizeBytes;
  std::vector<uint32_t> inputMask(n, 0);
  uint32_t keepMask = 0;
  for (size_t v = 0; v < n; ++v) {
    for (NodeId input : graph.nodes[v].inputs)
      inputMask[v] |= 1u << input;
    if (graph.nodes[v].keepToEnd)
      keepMask |= 1u << v;
  }

  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  std::vector<double> dist(numStates + 1, kInfinity);
  std::vector<size_t> parent(numStates + 1, numStates + 1);
  // The node run on the move into the state, or -1 for a drop.
  std::vector<NodeId> ranInto(numStates + 1, -1);
  using Entry = std::pair<double, size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  auto relax = [&](size_t from, size_t to, double cost, NodeId ran) {
    if (cost < dist[to]) {
      dist[to] = cost;
      parent[to] = from;
      ranInto[to] = ran;
      queue.push({cost, to});
    }
  };
  size_t start = stateOf(0, -1, 0);
  dist[start] = 0.0;
  queue.push({0.0, start});
  while (!queue.empty()) {
    auto [cost, state] = queue.top();
    queue.pop();
    if (cost > dist[state])
      continue;
    if (state == terminal)
      break;
    uint32_t mask = static_cast<uint32_t>(state % numMasks);
    size_t rest = state / numMasks;
    int last = static_cast<int>(rest % (n + 1)) - 1;
    size_t stage = rest / (n + 1);

    for (uint32_t droppable = mask & ~keepMask; droppable;
         droppable &= droppable - 1) {
      uint32_t bit = droppable & (~droppable + 1);
      relax(state, stateOf(stage, last, mask & ~bit), cost, -1);
    }
    for (size_t v = static_cast<size_t>(last + 1); v <= stage; ++v) {
      uint32_t bit = 1u << v;
      // keepToEnd nodes run only in their own stage.
      if (v < stage && (keepMask & bit))
        continue;
      if ((mask & bit) || (mask & inputMask[v]) != inputMask[v])
        continue;
      if (maskBytes[mask] + graph.nodes[v].sizeBytes > budgetBytes)
        continue;
      double next = cost + graph.nodes[v].duration;
      NodeId node = static_cast<NodeId>(v);
      if (v < stage)
        relax(state, stateOf(stage, node, mask | bit), next, node);
      else if (stage + 1 < n)
        relax(state, stateOf(stage + 1, -1, mask | bit), next, node);
      else
        relax(state, terminal, next, node);
    }
  }
  if (dist[terminal] == kInfinity) {
    setError(error, "no sequence fits in the budget");
    return std::nullopt;
  }

  std::vector<NodeId> sequence;
  for (size_t state = terminal; state != start; state = parent[state])
    if (ranInto[state] >= 0)
      sequence.push_back(ranInto[state]);
  std::reverse(sequence.begin(), sequence.end());
  // The search's accounting keeps every instance at least as long as the
  // sequence's semantics do, so the replay can only report less.
  std::optional<SequenceCost> cost = simulateSequence(graph, sequence, &why);
  if (!cost || cost->peakBytes > budgetBytes) {
    setError(error, "internal error: the brute force's sequence does not "
                    "replay within the budget");
    return std::nullopt;
  }
  if (bestSequence)
    *bestSequence = std::move(sequence);
  return cost;
}
