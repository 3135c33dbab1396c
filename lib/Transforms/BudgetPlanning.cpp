//===- BudgetPlanning.cpp - The budget passes' shared driver ----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/Transforms/BudgetPlanning.h"
#include "PlanRewrite.h"
#include "memsched/Analysis/BufferLiveness.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Scheduling/BudgetDriver.h"
#include "memsched/Scheduling/Footprint.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <map>
#include <numeric>
#include <set>
#include <thread>

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

ThreadDiagnostics::ThreadDiagnostics(MLIRContext *context,
                                     std::vector<Diagnostic> *held)
    : ScopedDiagnosticHandler(context) {
  setHandler([thread = std::this_thread::get_id(),
              held](Diagnostic &diagnostic) -> LogicalResult {
    if (std::this_thread::get_id() != thread)
      return failure();
    if (held)
      held->push_back(std::move(diagnostic));
    return success();
  });
}

void ThreadDiagnostics::emit(MLIRContext *context,
                             std::vector<Diagnostic> &held) {
  for (Diagnostic &diagnostic : held)
    context->getDiagEngine().emit(std::move(diagnostic));
  held.clear();
}

int64_t mlir::memsched::getInputPlannedBytes(func::FuncOp func,
                                             int64_t currentPlannedBytes) {
  // The earliest memsched rewrite records what the input planned.
  if (auto split = func->getAttrOfType<DictionaryAttr>(kSplitAttrName))
    if (auto before = split.getAs<IntegerAttr>("planned_before_bytes"))
      return before.getInt();
  if (auto fused = func->getAttrOfType<DictionaryAttr>(kFuseAttrName))
    if (auto before = fused.getAs<IntegerAttr>("planned_before_bytes"))
      return before.getInt();
  if (auto offload = func->getAttrOfType<DictionaryAttr>(kOffloadAttrName))
    if (auto before = offload.getAs<IntegerAttr>("planned_before_bytes"))
      return before.getInt();
  if (auto reorder = func->getAttrOfType<DictionaryAttr>(kReorderAttrName))
    if (auto before = reorder.getAs<IntegerAttr>("planned_before_bytes"))
      return before.getInt();
  return currentPlannedBytes;
}

namespace {
/// The budget passes' optional wall-clock limit, counted from construction.
class TimeLimit {
public:
  explicit TimeLimit(const BudgetPassConfig &config)
      : seconds(std::max(config.remat.timeLimitSeconds,
                         config.swap.timeLimitSeconds)),
        started(std::chrono::steady_clock::now()) {}
  bool isSet() const { return seconds > 0; }
  bool isOver() const { return isSet() && spent() >= seconds; }
  /// What is left for a planner: at least 1e-9 s while a limit is set (a
  /// planner reads 0 as none), 0 without one.
  double left() const {
    return isSet() ? std::max(seconds - spent(), 1e-9) : 0.0;
  }

private:
  double spent() const {
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - started;
    return elapsed.count();
  }
  double seconds;
  std::chrono::steady_clock::time_point started;
};

/// Standard cleanup, as `-canonicalize` and `-cse` apply it (in either
/// order): every loaded dialect's and registered op's canonicalization
/// patterns, collected once.
class Cleanup {
public:
  explicit Cleanup(MLIRContext *context) {
    RewritePatternSet collected(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(collected);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(collected, context);
    patterns.emplace(std::move(collected));
  }
  /// Canonicalizes `func` in place.
  void canonicalize(func::FuncOp func) const {
    // As the canonicalize pass's defaults: top-down, with region
    // simplification.
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Normal);
    (void)applyPatternsGreedily(func, *patterns, config);
  }
  /// The planned bytes of `func` after either order of cleanup (on copies;
  /// CSE first can merge what canonicalization then rewrites differently),
  /// whichever is larger; std::nullopt if a cleaned copy is outside the
  /// model.
  std::optional<int64_t> measure(func::FuncOp func,
                                 const CostModel &costModel) const {
    std::optional<int64_t> largest;
    bool outsideModel = false;
    auto record = [&](func::FuncOp copy) {
      FunctionReport report = analyzeFunction(copy, costModel);
      if (report.status != TensorGraphStatus::Built)
        outsideModel = true;
      else
        largest = std::max(largest.value_or(0), report.plannedBytes());
    };
    // CSE then canonicalize. Where that CSE changes nothing, the copy is
    // the canonical form, and CSE on it gives the other order.
    func::FuncOp copy = func.clone();
    bool merged = eliminateCommonSubexpressions(copy);
    canonicalize(copy);
    record(copy);
    if (merged) {
      copy.erase();
      copy = func.clone();
      canonicalize(copy);
      eliminateCommonSubexpressions(copy);
      record(copy);
    } else if (eliminateCommonSubexpressions(copy)) {
      record(copy);
    }
    copy.erase();
    if (outsideModel)
      return std::nullopt;
    return largest;
  }

private:
  /// Whether CSE changed `func`.
  static bool eliminateCommonSubexpressions(func::FuncOp func) {
    IRRewriter rewriter(func.getContext());
    DominanceInfo dominance(func);
    bool changed = false;
    eliminateCommonSubExpressions(rewriter, dominance, func, &changed);
    return changed;
  }

  std::optional<FrozenRewritePatternSet> patterns;
};

/// One lever configuration: recompute (down to a share of the way from the
/// target to the input's peak when swaps follow), then swap.
struct Strategy {
  std::string name;
  bool remat = false;
  bool swap = false;
  double rematShare = 0;
};

/// What a candidate holds beyond its evaluation.
struct Candidate {
  func::FuncOp work;
  FunctionReport report;
  std::optional<sched::RematPlan> remat;
  std::optional<sched::SwapPlan> swap;
  /// The order after recomputation was kept (reorder-after).
  bool reordered = false;
  /// With reorder-after and in-place writes: the candidate before its
  /// writes were taken, for reorderWithWrites once it is chosen.
  func::FuncOp unwritten;
};

/// The planned bytes of \p func as the driver counts them: as the report
/// measures it and after cleanup, whichever is larger; std::nullopt if either
/// is outside the model.
static std::optional<int64_t> measureFootprint(func::FuncOp func,
                                               const FunctionReport &report,
                                               const CostModel &costModel,
                                               const Cleanup &cleanup) {
  if (report.status != TensorGraphStatus::Built)
    return std::nullopt;
  std::optional<int64_t> cleaned = cleanup.measure(func, costModel);
  if (!cleaned)
    return std::nullopt;
  return std::max(report.plannedBytes(), *cleaned);
}

/// Orders a copy of \p source as memsched-reorder with `objective=planned`
/// does (with \p modelWrites, counting the in-place writes each order
/// allows), takes its in-place writes, and keeps it in \p work where it
/// measures fewer planned bytes than \p footprint (cleanup included) at no
/// more modelled time; \p report and \p footprint follow.
static bool keepOrderIfSmaller(func::FuncOp source, bool modelWrites,
                               func::FuncOp &work, FunctionReport &report,
                               int64_t &footprint, const CostModel &costModel,
                               const Cleanup &cleanup, bool inplace) {
  func::FuncOp reordered = source.clone();
  llvm::scope_exit eraseReordered([&] {
    if (reordered)
      reordered.erase();
  });
  {
    // Why an order is kept or not is of no use to the user.
    ThreadDiagnostics drop(work.getContext(), nullptr);
    sched::ReorderOptions options;
    options.objective = sched::ReorderObjective::Planned;
    // The heuristics and the windowed search around the peak; the exact
    // search of parts could take seconds per candidate (vgg11 at `min`:
    // 0.2 s -> 7.6 s) and found nothing more on the zoo.
    options.exactMaxTasks = 0;
    options.modelInPlaceWrites = modelWrites;
    FailureOr<ReorderOutcome> outcome =
        applyReorder(reordered, costModel, "auto", options);
    // An order counted with its writes is measured below, with them taken.
    if (failed(outcome) || outcome->skipped ||
        (!modelWrites && outcome->afterBytes >= outcome->beforeBytes))
      return false;
  }
  // The new order may allow in-place writes the old one did not.
  if (inplace)
    takeInPlaceWrites(reordered, costModel);
  FunctionReport reorderedReport = analyzeFunction(reordered, costModel);
  std::optional<int64_t> reorderedFootprint =
      measureFootprint(reordered, reorderedReport, costModel, cleanup);
  if (!reorderedFootprint || *reorderedFootprint >= footprint ||
      reorderedReport.modeledTimeSeconds > report.modeledTimeSeconds)
    return false;
  std::swap(work, reordered);
  report = std::move(reorderedReport);
  footprint = *reorderedFootprint;
  return true;
}

/// Recomputation keeps the order of the ops it does not clone, and that
/// order can hold more than the plan needs: a transformer's backward makes
/// the input gradient of its MLP before the weight gradient, so the GELU's
/// input and output and the new gradient coexist where the weight gradient
/// made first would free the GELU's output. Orders \p work (a candidate
/// with recomputation and no swaps) as memsched-reorder with
/// `objective=planned` does, where that measures fewer planned bytes.
static bool reorderForPlannedBytes(func::FuncOp &work, FunctionReport &report,
                                   int64_t &footprint,
                                   const CostModel &costModel,
                                   const Cleanup &cleanup, bool inplace) {
  return keepOrderIfSmaller(work, /*modelWrites=*/false, work, report,
                            footprint, costModel, cleanup, inplace);
}

/// The in-place writes taken in one order forbid others: where GELU's
/// derivative reads its input twice, the write over the input's last read
/// fixes which branch comes last, and a better order needs the other. Orders
/// \p unwritten (the chosen candidate before its writes were taken) with the
/// writes each order allows counted, then takes them, and keeps the result
/// in \p work where it measures fewer planned bytes. Run once, on the chosen
/// candidate: in every evaluation it would cost as much again as the
/// reorder above.
static bool reorderWithWrites(func::FuncOp unwritten, func::FuncOp &work,
                              FunctionReport &report, int64_t &footprint,
                              const CostModel &costModel,
                              const Cleanup &cleanup) {
  return keepOrderIfSmaller(unwritten, /*modelWrites=*/true, work, report,
                            footprint, costModel, cleanup, /*inplace=*/true);
}

/// The IR round trip of the driver: plan, write into a copy, take in-place
/// decisions, measure as the report does (and after cleanup).
class FunctionEvaluator : public sched::BudgetEvaluator {
public:
  FunctionEvaluator(func::FuncOp func, const TensorGraph &graph,
                    const CostModel &costModel, const BudgetPassConfig &config,
                    std::vector<Strategy> strategies, int64_t peakTransient,
                    const Cleanup &cleanup)
      : func(func), graph(graph), costModel(costModel), config(config),
        strategies(std::move(strategies)), peakTransient(peakTransient),
        cleanup(cleanup) {}
  ~FunctionEvaluator() override {
    for (auto &entry : candidates) {
      if (entry.second.work)
        entry.second.work.erase();
      if (entry.second.unwritten)
        entry.second.unwritten.erase();
    }
    if (written)
      written.erase();
  }

  std::optional<sched::BudgetEvaluation>
  evaluate(int strategy, int64_t targetTransientBytes) override;
  void release(int64_t candidate) override {
    auto it = candidates.find(candidate);
    if (it == candidates.end() || !it->second.work)
      return;
    it->second.work.erase();
    if (it->second.unwritten)
      it->second.unwritten.erase();
    it->second.unwritten = nullptr;
    // The figures stay for the error message; only the IR goes.
    it->second.work = nullptr;
  }
  /// The candidate `id` (its IR is null once released).
  Candidate &get(int64_t id) { return candidates.at(id); }
  /// The first planner failure, if any (a bug to report, not a user error).
  StringRef getPlannerError() const { return plannerError; }

private:
  /// The function with its in-place writes taken, and its graph, where
  /// swaps alone are planned (made on first use; the function itself when
  /// in-place writes are off or the copy cannot be analyzed).
  std::pair<func::FuncOp, const TensorGraph *> getSwapSource();
  void emitInternalError(const Twine &message) {
    emitError(func.getLoc())
        << config.passName << ": internal error: " << message;
  }

  func::FuncOp func;
  const TensorGraph &graph;
  const CostModel &costModel;
  const BudgetPassConfig &config;
  std::vector<Strategy> strategies;
  int64_t peakTransient;
  std::map<int64_t, Candidate> candidates;
  int64_t nextCandidate = 0;
  const Cleanup &cleanup;
  std::string plannerError;
  func::FuncOp written;
  std::optional<TensorGraph> writtenGraph;
};
} // namespace

std::pair<func::FuncOp, const TensorGraph *>
FunctionEvaluator::getSwapSource() {
  if (!config.inplace)
    return {func, &graph};
  if (!written) {
    written = func.clone();
    takeInPlaceWrites(written, costModel);
    writtenGraph = TensorGraph::build(written, costModel);
  }
  if (writtenGraph->getStatus() != TensorGraphStatus::Built)
    return {func, &graph};
  return {written, &*writtenGraph};
}

std::optional<sched::BudgetEvaluation>
FunctionEvaluator::evaluate(int strategyIndex, int64_t target) {
  const Strategy &strategy = strategies[strategyIndex];
  sched::BudgetEvaluation evaluation;
  Candidate candidate;
  std::string error;
  func::FuncOp work;
  if (strategy.remat) {
    sched::RematOptions options = config.remat;
    // Alone, recomputation aims at the footprint's own peak (returned
    // buffers whole). Before swaps, its target is a share of the way down
    // from the simulated peak, which the swaps then take further.
    options.escapingWhole = !strategy.swap;
    int64_t rematTarget = target;
    if (strategy.swap)
      rematTarget += static_cast<int64_t>(strategy.rematShare *
                                          double(peakTransient - target));
    options.budgetTransientBytes = std::max<int64_t>(rematTarget, 0);
    std::optional<sched::RematPlan> plan =
        sched::planRemat(graph.getProblem(), options, &error);
    if (!plan) {
      // A planner failure on this graph rules out this strategy at this
      // target, not the pass: the other strategies may still meet it. The
      // first message is kept for the error if nothing does.
      if (plannerError.empty())
        plannerError = "recomputation: " + error;
      evaluation.smallestTransientBytes = peakTransient;
      return evaluation;
    }
    evaluation.smallestTransientBytes = plan->smallestPeakTransient;
    if (!plan->withinBudget)
      return evaluation;
    IRMapping mapping;
    work = func.clone(mapping);
    applyRematPlan(graph, *plan, mapping);
    numberAllocations(work);
    candidate.remat = std::move(plan);
  }
  if (strategy.swap) {
    // Swaps are planned on the function as it is and with its in-place
    // writes taken (as the candidate is measured), and the better plan is
    // kept. As it is, a write that will reuse its dead input still holds a
    // second buffer, and the planner can stop short of budgets the written
    // function meets (squeezenet's first ReLU backward: two 15.5 MiB
    // buffers where one is written); as written, an in-place chain can
    // leave a buffer no swap may take (regnet's stem activation).
    std::pair<func::FuncOp, const TensorGraph *> sources[2] = {{func, &graph},
                                                               getSwapSource()};
    std::optional<TensorGraph> rebuilt, rebuiltWritten;
    func::FuncOp workWritten;
    if (work) {
      rebuilt = TensorGraph::build(work, costModel);
      if (rebuilt->getStatus() != TensorGraphStatus::Built) {
        work.erase();
        emitInternalError("the function after recomputation cannot be "
                          "analyzed: " +
                          rebuilt->getFailureReason());
        return std::nullopt;
      }
      sources[0] = sources[1] = {work, &*rebuilt};
      if (config.inplace) {
        workWritten = work.clone();
        takeInPlaceWrites(workWritten, costModel);
        rebuiltWritten = TensorGraph::build(workWritten, costModel);
        if (rebuiltWritten->getStatus() == TensorGraphStatus::Built)
          sources[1] = {workWritten, &*rebuiltWritten};
      }
    }
    sched::SwapOptions options = config.swap;
    options.budgetTransientBytes = std::max<int64_t>(target, 0);
    options.link = getLinkSpec(costModel.getDevice());
    options.escapingWhole = true;
    std::optional<sched::SwapPlan> best;
    size_t bestSource = 0;
    std::optional<int64_t> smallest;
    for (size_t index = 0; index < 2; ++index) {
      if (index == 1 && sources[1].second == sources[0].second)
        break;
      const TensorGraph &source = *sources[index].second;
      const sched::Problem &problem = source.getProblem();
      options.swappable = getSwappableValues(source);
      std::optional<sched::SwapPlan> plan =
          sched::planSwap(problem, problem.programOrder(), options, &error);
      if (!plan) {
        if (plannerError.empty())
          plannerError = "swapping: " + error;
        continue;
      }
      smallest =
          std::min(smallest.value_or(INT64_MAX), plan->smallestPeakTransient);
      if (plan->withinBudget && (!best || plan->after.makespanSeconds <
                                              best->after.makespanSeconds)) {
        best = std::move(plan);
        bestSource = index;
      }
    }
    evaluation.smallestTransientBytes = smallest.value_or(peakTransient);
    if (best) {
      IRMapping mapping;
      func::FuncOp swapped = sources[bestSource].first.clone(mapping);
      applySwapDecisions(*sources[bestSource].second, best->swaps, mapping);
      candidate.swap = std::move(best);
      std::swap(work, swapped);
      if (swapped)
        swapped.erase();
    } else if (work) {
      work.erase();
    }
    if (workWritten)
      workWritten.erase();
    if (!candidate.swap)
      return evaluation;
  }
  if (!work)
    work = func.clone();
  keepDuplicatesApart(work);
  bool reorderAfter = strategy.remat && !strategy.swap &&
                      config.reorderAfterRemat &&
                      config.remat.algorithm == sched::RematAlgorithm::Auto;
  // The function before its writes are taken, for an order that chooses
  // them anew.
  func::FuncOp unwritten;
  llvm::scope_exit eraseUnwritten([&] {
    if (unwritten)
      unwritten.erase();
  });
  if (reorderAfter && config.inplace)
    unwritten = work.clone();
  if (config.inplace)
    takeInPlaceWrites(work, costModel);
  candidate.report = analyzeFunction(work, costModel);
  if (candidate.report.status != TensorGraphStatus::Built) {
    work.erase();
    emitInternalError("the rewritten function cannot be analyzed: " +
                      candidate.report.skippedReason);
    return std::nullopt;
  }
  // A plan that cleanup could undo would break the budget later: the
  // footprint after cleanup counts too.
  std::optional<int64_t> measured =
      measureFootprint(work, candidate.report, costModel, cleanup);
  if (!measured) {
    work.erase();
    emitInternalError("the rewritten function cannot be analyzed after "
                      "canonicalize and cse");
    return std::nullopt;
  }
  int64_t footprint = *measured;
  if (reorderAfter)
    candidate.reordered = reorderForPlannedBytes(
        work, candidate.report, footprint, costModel, cleanup, config.inplace);
  std::swap(candidate.unwritten, unwritten);
  evaluation.planned = true;
  evaluation.footprintBytes = footprint;
  evaluation.timeSeconds = candidate.report.modeledTimeSeconds;
  evaluation.peakTransientBytes = candidate.report.peakTransientBytes;
  evaluation.candidate = nextCandidate++;
  if (!strategy.remat && !strategy.swap)
    evaluation.smallestTransientBytes = candidate.report.peakTransientBytes;
  candidate.work = work;
  candidates.emplace(evaluation.candidate, std::move(candidate));
  return evaluation;
}

/// The dictionaries of the chosen candidate's plans.
static bool recomputes(const Candidate &candidate) {
  return candidate.remat && !candidate.remat->clones.empty();
}
static bool swaps(const Candidate &candidate) {
  return candidate.swap && !candidate.swap->swaps.empty();
}

/// What a chosen candidate really does: a strategy's planner may meet the
/// budget without recomputing or swapping anything (the in-place decisions
/// taken on every candidate suffice), and a joint plan may use one lever.
static std::string describeLevers(const Candidate &candidate,
                                  StringRef strategy) {
  if (recomputes(candidate) && swaps(candidate))
    return strategy.str();
  if (recomputes(candidate))
    return "remat";
  if (swaps(candidate))
    return "swap";
  return "inplace";
}

/// Records the plans the candidate contains (none for a lever it does not
/// use).
static void recordPlans(func::FuncOp func, const Candidate &candidate) {
  // No wall-clock figures: the same input gives the same output anywhere.
  Builder builder(func.getContext());
  if (recomputes(candidate)) {
    const std::optional<sched::RematPlan> &plan = candidate.remat;
    NamedAttribute fields[] = {
        builder.getNamedAttr("algorithm",
                             builder.getStringAttr(plan->algorithm)),
        builder.getNamedAttr("recomputed_ops",
                             builder.getI64IntegerAttr(
                                 static_cast<int64_t>(plan->clones.size()))),
        builder.getNamedAttr("recompute_time_s",
                             builder.getF64FloatAttr(plan->recomputeSeconds)),
        builder.getNamedAttr("dropped_buffers",
                             builder.getI64IntegerAttr(static_cast<int64_t>(
                                 plan->droppedBuffers.size()))),
    };
    func->setAttr(kRematAttrName, builder.getDictionaryAttr(fields));
  }
  if (const std::optional<sched::SwapPlan> &plan = candidate.swap;
      swaps(candidate))
    recordSwapDictionary(func, plan->algorithm,
                         static_cast<int64_t>(plan->swaps.size()),
                         candidate.report);
}

/// Names the op whose own working set bounds every plan from below, as the
/// floor's reason: no plan goes below resident + escaping buffers + the
/// largest working set of one op in the arena (its non-escaping operands,
/// results and workspace). Without swaps, names the op whose operand pair
/// bounds the plans higher, where one does.
static void attachFloorNote(InFlightDiagnostic &diag, const TensorGraph &graph,
                            int64_t smallestFootprint, bool withoutSwaps) {
  sched::FootprintFloor floor = computeFunctionFloor(graph, withoutSwaps);
  if (withoutSwaps && floor.recomputeTask != sched::kNoId &&
      floor.recomputeBytes() > floor.bytes() &&
      floor.recomputeBytes() <= smallestFootprint) {
    diag.attachNote(graph.getOp(floor.recomputeTask)->getLoc())
        << "no plan without swaps goes below "
        << formatBytes(floor.recomputeBytes()) << " (" << floor.recomputeBytes()
        << " B): resident " << floor.residentBytes << " B + returned "
        << floor.escapingBytes << " B + " << floor.recomputeWorkingSetBytes
        << " B while two of this op's operands are made, the later one "
           "while the earlier is held";
    return;
  }
  // A bound the plans beat (below what the model allows) is never stated.
  if (floor.task == sched::kNoId || floor.bytes() > smallestFootprint)
    return;
  // Returned buffers that may take an argument's buffer count as resident.
  std::string inArguments =
      floor.escapingInResidentBytes == 0
          ? std::string()
          : llvm::formatv(" (and {0} B that may be written into arguments "
                          "nothing reads afterwards)",
                          floor.escapingInResidentBytes)
                .str();
  diag.attachNote(graph.getOp(floor.task)->getLoc())
      << "no plan goes below " << formatBytes(floor.bytes()) << " ("
      << floor.bytes() << " B): resident " << floor.residentBytes
      << " B + returned " << floor.escapingBytes << " B" << inArguments
      << " + this op's working set, " << floor.workingSetBytes
      << " B (operands, results that cannot share an operand's buffer, "
         "workspace), which must be in device memory at once";
}

/// The number of ops in `func`, nested ones included.
static int64_t countOps(func::FuncOp func) {
  int64_t count = 0;
  func.walk([&](Operation *) { ++count; });
  return count;
}

/// Whether driver outcome `a` is better than `b`: met beats not met; then
/// for `min` the smaller footprint (the faster on a tie), for any other
/// budget the faster step; not met, the smaller reachable figure.
bool mlir::memsched::isBetterBudgetOutcome(const sched::BudgetResult &a,
                                           const sched::BudgetResult &b,
                                           bool isMinimum) {
  if (a.met != b.met)
    return a.met;
  if (!a.met)
    return a.smallestFootprintBytes < b.smallestFootprintBytes;
  if (!isMinimum)
    return a.chosen.timeSeconds < b.chosen.timeSeconds;
  return a.chosen.footprintBytes < b.chosen.footprintBytes ||
         (a.chosen.footprintBytes == b.chosen.footprintBytes &&
          a.chosen.timeSeconds < b.chosen.timeSeconds);
}

namespace {
/// What planning inside control-flow bodies did before the function itself
/// was planned: the figures of the function as it was, for the remark and
/// the `memsched.fit` dictionary.
struct PlannedBodies {
  int64_t count = 0;
  /// What the bodies' plans do (as `chosen`), joined by '+'.
  std::string levers;
  int64_t plannedBeforeBytes = 0;
  double timeBeforeSeconds = 0;
};
} // namespace

/// "N control-flow body" or "N control-flow bodies".
static std::string describeBodies(const PlannedBodies &bodies) {
  return llvm::formatv("{0} control-flow bod{1}", bodies.count,
                       bodies.count == 1 ? "y" : "ies")
      .str();
}

/// The budget driver on `func` itself: its top-level ops are the tasks.
static LogicalResult planFunction(func::FuncOp func, const CostModel &costModel,
                                  const BudgetPassConfig &config,
                                  BudgetPlanningOutcome *outcome, bool quiet,
                                  const PlannedBodies *bodies);

/// The figures a plan's `memsched.fit` gives of it (`chosen` lives in the
/// context, as attributes do).
struct FitFigures {
  int64_t plannedAfterBytes = 0;
  double timeAfterSeconds = 0;
  StringRef chosen;
};

/// \p func's `memsched.fit` figures, where all of them are there.
static std::optional<FitFigures> getFitFigures(func::FuncOp func) {
  auto fit = func->getAttrOfType<DictionaryAttr>(kFitAttrName);
  auto planned = fit ? fit.getAs<IntegerAttr>("planned_after_bytes") : nullptr;
  auto time = fit ? fit.getAs<FloatAttr>("time_after_s") : nullptr;
  auto chosen = fit ? fit.getAs<StringAttr>("chosen") : nullptr;
  if (!planned || !time || !chosen)
    return std::nullopt;
  return FitFigures{planned.getInt(), time.getValueAsDouble(),
                    chosen.getValue()};
}

/// \p func becomes \p copy, a planned clone of it: body and attributes.
static void adoptPlannedCopy(func::FuncOp func, func::FuncOp copy) {
  func.getBody().takeBody(copy.getBody());
  func->setAttrs(copy->getAttrDictionary());
}

/// `min` again from \p func, a plan at \p plannedAfter bytes whose order
/// after recomputation moved ops the planners did not see moved; adopts
/// the result where it measures fewer planned bytes, with the dictionaries
/// covering both rounds (the input's figures before, the recomputation of
/// both), and updates \p plannedAfter and \p timeAfter, and \p outcome
/// where given (a sweep's `min` point and memsched-fit's comparison of its
/// ways read it).
static void replanAtMinimum(func::FuncOp func, const CostModel &costModel,
                            const BudgetPassConfig &config,
                            int64_t &plannedAfter, double &timeAfter,
                            BudgetPlanningOutcome *outcome) {
  BudgetPassConfig again = config;
  again.minimumReplans = config.minimumReplans - 1;
  func::FuncOp copy = func.clone();
  llvm::scope_exit eraseCopy([&] { copy.erase(); });
  BudgetPlanningOutcome round;
  {
    ThreadDiagnostics drop(func.getContext(), nullptr);
    if (failed(planFunction(copy, costModel, again, &round, /*quiet=*/true,
                            nullptr)) ||
        !round.decided || !round.result.met)
      return;
  }
  auto fit = copy->getAttrOfType<DictionaryAttr>(kFitAttrName);
  auto firstFit = func->getAttrOfType<DictionaryAttr>(kFitAttrName);
  std::optional<FitFigures> figures = getFitFigures(copy);
  // A round that swaps would describe only its own levers.
  if (!figures || !firstFit || figures->chosen != "remat" ||
      figures->plannedAfterBytes >= plannedAfter)
    return;
  // The copy's figures before are the first round's result.
  Builder builder(func.getContext());
  NamedAttrList fields(fit);
  for (StringRef key : {"planned_before_bytes", "time_before_s"})
    if (Attribute value = firstFit.get(key))
      fields.set(key, value);
  auto integer = [](DictionaryAttr dict, StringRef key) -> int64_t {
    auto value = dict ? dict.getAs<IntegerAttr>(key) : nullptr;
    return value ? value.getInt() : 0;
  };
  fields.set("evaluations",
             builder.getI64IntegerAttr(integer(firstFit, "evaluations") +
                                       integer(fit, "evaluations")));
  auto firstRemat = func->getAttrOfType<DictionaryAttr>(kRematAttrName);
  auto remat = copy->getAttrOfType<DictionaryAttr>(kRematAttrName);
  if (remat && firstRemat) {
    NamedAttrList rematFields(remat);
    for (StringRef key : {"recomputed_ops", "dropped_buffers"})
      rematFields.set(key, builder.getI64IntegerAttr(integer(firstRemat, key) +
                                                     integer(remat, key)));
    auto seconds = [](DictionaryAttr dict) {
      auto value = dict.getAs<FloatAttr>("recompute_time_s");
      return value ? value.getValueAsDouble() : 0.0;
    };
    rematFields.set(
        "recompute_time_s",
        builder.getF64FloatAttr(seconds(firstRemat) + seconds(remat)));
    rematFields.set("rounds",
                    builder.getI64IntegerAttr(
                        std::max<int64_t>(integer(remat, "rounds"), 1) + 1));
    copy->setAttr(kRematAttrName, rematFields.getDictionary(func.getContext()));
  }
  copy->setAttr(kFitAttrName, fields.getDictionary(func.getContext()));
  plannedAfter = figures->plannedAfterBytes;
  timeAfter = figures->timeAfterSeconds;
  adoptPlannedCopy(func, copy);
  if (outcome) {
    sched::BudgetResult &described = outcome->result;
    described.chosen.footprintBytes = plannedAfter;
    described.chosen.timeSeconds = timeAfter;
    described.budgetBytes = plannedAfter;
    described.smallestFootprintBytes =
        std::min(described.smallestFootprintBytes, plannedAfter);
  }
}

static SmallVector<Block *> getPlannableBodies(func::FuncOp func);

/// One search at a budget sees the function in one order; `min` also plans
/// again from its result, whose order moved, and can reach below what that
/// search found. So before a budget is refused, a copy of \p func is
/// planned at `min`: where the footprint reached is within \p budgetBytes,
/// the copy becomes the function (its remark and `memsched.fit` give the
/// budget) and true is returned; otherwise \p reached holds the footprint
/// and the strategy index, where the search succeeded. Skipped where `min`
/// would not plan again (no recomputation, no rounds) or a time limit is
/// set.
static bool meetAtMinimum(func::FuncOp func, const CostModel &costModel,
                          const BudgetPassConfig &config, int64_t budgetBytes,
                          int64_t plannedBefore, double timeBefore,
                          BudgetPlanningOutcome *outcome, bool quiet,
                          std::optional<std::pair<int64_t, int>> &reached) {
  if (config.budget.isMinimum || config.minimumReplans <= 0 ||
      !config.allowRemat || TimeLimit(config).isSet())
    return false;
  BudgetPassConfig atMinimum = config;
  atMinimum.budget = Budget();
  atMinimum.budget.isMinimum = true;
  func::FuncOp copy = func.clone();
  llvm::scope_exit eraseCopy([&] { copy.erase(); });
  BudgetPlanningOutcome smallest;
  {
    ThreadDiagnostics drop(func.getContext(), nullptr);
    if (failed(runBudgetPlanning(copy, costModel, atMinimum, &smallest,
                                 /*quiet=*/true)) ||
        !smallest.decided || !smallest.result.met)
      return false;
  }
  std::optional<FitFigures> figures = getFitFigures(copy);
  if (!figures)
    return false;
  reached =
      std::make_pair(figures->plannedAfterBytes, smallest.result.strategy);
  if (figures->plannedAfterBytes > budgetBytes)
    return false;
  NamedAttrList fields(copy->getAttrOfType<DictionaryAttr>(kFitAttrName));
  fields.set("budget_bytes",
             Builder(func.getContext()).getI64IntegerAttr(budgetBytes));
  copy->setAttr(kFitAttrName, fields.getDictionary(func.getContext()));
  adoptPlannedCopy(func, copy);
  if (outcome) {
    *outcome = smallest;
    outcome->result.budgetBytes = budgetBytes;
    outcome->result.chosen.footprintBytes = figures->plannedAfterBytes;
    outcome->result.chosen.timeSeconds = figures->timeAfterSeconds;
  }
  if (!quiet)
    emitBudgetRemark(func, config.passName, plannedBefore,
                     figures->plannedAfterBytes, budgetBytes, figures->chosen,
                     timeBefore, figures->timeAfterSeconds);
  return true;
}

static LogicalResult planFunction(func::FuncOp func, const CostModel &costModel,
                                  const BudgetPassConfig &config,
                                  BudgetPlanningOutcome *outcome, bool quiet,
                                  const PlannedBodies *bodies) {
  StringRef passName = config.passName;
  bool canSwap = config.allowSwap &&
                 costModel.getDevice().hostToDeviceBandwidth > 0 &&
                 costModel.getDevice().deviceToHostBandwidth > 0;
  // A recursion's memory grows with its depth, which nothing here knows.
  WalkResult recursion = func.walk([&](CallOpInterface call) {
    if (!call->hasAttr(kRecursiveCallAttrName))
      return WalkResult::advance();
    emitError(call.getLoc())
        << passName << ": '@" << func.getSymName() << "' makes a call that "
        << "can recurse; the memory a recursion holds grows with its depth, "
           "which is not known, so no budget can be promised (budgets are "
           "for functions whose calls do not recurse)";
    return WalkResult::interrupt();
  });
  if (recursion.wasInterrupted())
    return failure();
  if (config.allowSwap && hasSwapOps(func))
    return emitError(func.getLoc())
           << passName << ": '@" << func.getSymName()
           << "' already has swap ops; plan swaps once";
  std::optional<TensorGraph> original =
      TensorGraph::buildOrEmitError(func, costModel, passName);
  if (!original)
    return failure();
  FunctionReport input = analyzeFunction(func, costModel);
  Cleanup cleanup(func.getContext());
  // The input as it is, measured as every candidate is: as it is and after
  // cleanup.
  int64_t inputFootprint = input.plannedBytes();
  if (std::optional<int64_t> cleaned = cleanup.measure(func, costModel))
    inputFootprint = std::max(inputFootprint, *cleaned);
  std::vector<Strategy> strategies;
  // In-place writes alone cost no time: tried first, and kept when they
  // meet the budget.
  if (config.inplace)
    strategies.push_back({"inplace", false, false, 0});
  if (config.allowRemat)
    strategies.push_back({"remat", true, false, 0});
  if (canSwap)
    strategies.push_back({"swap", false, true, 0});
  if (config.allowRemat && canSwap)
    for (double share : {0.25, 0.5, 0.75})
      strategies.push_back(
          {llvm::formatv("joint-{0}", share).str(), true, true, share});

  sched::BudgetDriverOptions options;
  options.residentBytes = input.residentBytes;
  options.inputFootprintBytes = inputFootprint;
  options.inputTimeSeconds = input.modeledTimeSeconds;
  options.budgetBytes = config.budget.isMinimum
                            ? sched::kMinimumBudget
                            : config.budget.resolve(getInputPlannedBytes(
                                  func, input.plannedBytes()));
  for (const Strategy &strategy : strategies) {
    options.strategies.push_back(strategy.name);
    options.addsNoTime.push_back(!strategy.remat && !strategy.swap);
  }
  // The pass's time limit bounds the driver's whole search (both forms
  // below), not only each planner run.
  TimeLimit timeLimit(config);

  // Plans are made on a copy, which becomes the function only if a plan is
  // chosen. Every candidate keeps its duplicate ops apart (two pads of one
  // tensor, say), so later CSE cannot merge what the plan measured apart.
  // Canonicalization can make more ops equal (two reshape chains of one
  // tensor folded alike), which CSE would then merge: the driver also plans
  // from the canonical form, and keeps the better outcome of the two.
  struct Planning {
    func::FuncOp laidOut;
    std::optional<TensorGraph> graph;
    std::unique_ptr<FunctionEvaluator> evaluator;
    std::optional<sched::BudgetResult> result;
    ~Planning() {
      evaluator.reset();
      if (laidOut)
        laidOut.erase();
    }
  };
  // Plans from `copy` (a clone of the function, which `planning` owns),
  // with the in-place writes that readers running first allow where
  // `moveReaders` (`moved` says whether any was).
  auto plan = [&](Planning &planning, func::FuncOp copy, bool moveReaders,
                  bool *moved = nullptr) -> LogicalResult {
    planning.laidOut = copy;
    planning.graph =
        TensorGraph::buildOrEmitError(planning.laidOut, costModel, passName);
    if (!planning.graph)
      return failure();
    // Each task's ops together, in program order, so that clones and swaps
    // inserted before or after a task see everything the task reads.
    layOutTasks(planning.laidOut, *planning.graph,
                planning.graph->getProblem().programOrder());
    planning.graph =
        TensorGraph::buildOrEmitError(planning.laidOut, costModel, passName);
    if (!planning.graph)
      return failure();
    // The planners model in-place writes in the order they are given: a
    // write that only readers after it prevent is made possible first.
    if (moveReaders && config.inplace &&
        moveReadersAheadOfInPlaceWrites(planning.laidOut, *planning.graph) >
            0) {
      if (moved)
        *moved = true;
      planning.graph =
          TensorGraph::buildOrEmitError(planning.laidOut, costModel, passName);
      if (!planning.graph)
        return failure();
    }
    FunctionReport inputLaidOut = analyzeFunction(planning.laidOut, costModel);
    if (inputLaidOut.status != TensorGraphStatus::Built)
      return emitError(func.getLoc())
             << passName << ": internal error: cannot analyze '@"
             << func.getSymName() << "'";
    sched::BudgetDriverOptions planOptions = options;
    planOptions.inputPeakTransientBytes = inputLaidOut.peakTransientBytes;
    if (timeLimit.isSet())
      planOptions.timeLimitSeconds = timeLimit.left();
    planning.evaluator = std::make_unique<FunctionEvaluator>(
        planning.laidOut, *planning.graph, costModel, config, strategies,
        inputLaidOut.peakTransientBytes, cleanup);
    planning.result = sched::driveBudget(*planning.evaluator, planOptions);
    return success(planning.result.has_value());
  };
  if (input.status != TensorGraphStatus::Built)
    return emitError(func.getLoc())
           << passName << ": internal error: cannot analyze '@"
           << func.getSymName() << "'";
  Planning asIs, unmoved, canonicalForm;
  bool moved = false;
  if (failed(plan(asIs, func.clone(), /*moveReaders=*/true, &moved)))
    return failure();
  Planning *chosenPlanning = &asIs;
  // The writes made possible lower the order's peak, but recomputation may
  // do better from the order as it was (a value overwritten in place can no
  // longer be read again): where readers moved, that order is planned too.
  if (moved && !timeLimit.isOver()) {
    if (failed(plan(unmoved, func.clone(), /*moveReaders=*/false)))
      return failure();
    if (isBetterBudgetOutcome(*unmoved.result, *asIs.result,
                              config.budget.isMinimum))
      chosenPlanning = &unmoved;
  }
  func::FuncOp canonical = func.clone();
  cleanup.canonicalize(canonical);
  // A cheap test of whether canonicalization changed anything; past the
  // time limit, the plan from the function as it is stands (its footprint
  // was measured after cleanup too).
  bool outOfTime = timeLimit.isOver();
  bool canonicalDiffers = countOps(canonical) != countOps(func);
  if (outOfTime && canonicalDiffers)
    asIs.result->stoppedByTimeLimit = true;
  if (outOfTime || !canonicalDiffers) {
    canonical.erase();
  } else {
    if (failed(plan(canonicalForm, canonical, /*moveReaders=*/true)))
      return failure();
    if (isBetterBudgetOutcome(*canonicalForm.result, *chosenPlanning->result,
                              config.budget.isMinimum))
      chosenPlanning = &canonicalForm;
  }
  const TensorGraph &graph = *chosenPlanning->graph;
  FunctionEvaluator &evaluator = *chosenPlanning->evaluator;
  std::optional<sched::BudgetResult> &result = chosenPlanning->result;
  if (result->met && result->strategy >= 0) {
    Candidate &candidate = evaluator.get(result->chosen.candidate);
    int64_t footprint = result->chosen.footprintBytes;
    if (candidate.unwritten && candidate.work &&
        reorderWithWrites(candidate.unwritten, candidate.work, candidate.report,
                          footprint, costModel, cleanup)) {
      result->chosen.footprintBytes = footprint;
      result->chosen.timeSeconds = candidate.report.modeledTimeSeconds;
      result->chosen.peakTransientBytes = candidate.report.peakTransientBytes;
      candidate.reordered = true;
    }
  }
  if (outcome) {
    outcome->decided = true;
    outcome->strategies = options.strategies;
    outcome->result = *result;
  }

  auto describe = [&](int strategy) -> std::string {
    return strategy < 0 ? "the function as it is" : strategies[strategy].name;
  };
  if (!result->met && !bodies && getPlannableBodies(func).empty()) {
    std::optional<std::pair<int64_t, int>> reached;
    if (meetAtMinimum(func, costModel, config, options.budgetBytes,
                      input.plannedBytes(), input.modeledTimeSeconds, outcome,
                      quiet, reached))
      return success();
    if (reached && reached->first < result->smallestFootprintBytes) {
      result->smallestFootprintBytes = reached->first;
      result->smallestStrategy = reached->second;
      if (outcome)
        outcome->result = *result;
    }
  }
  if (!result->met) {
    int64_t smallest = result->smallestFootprintBytes;
    InFlightDiagnostic diag = emitError(func.getLoc());
    diag << passName << ": cannot meet the budget of "
         << formatBytes(options.budgetBytes) << " (" << options.budgetBytes
         << " B) for '@" << func.getSymName()
         << (result->stoppedByTimeLimit
                 ? "'; the smallest footprint found within the time limit is "
                 : "'; the smallest reachable footprint is ")
         << formatBytes(smallest) << " (" << smallest << " B, "
         << describe(result->smallestStrategy);
    if (strategies.empty())
      diag << "; no lever is allowed";
    else if (!canSwap && config.allowSwap)
      diag << "; the device has no host link to swap over";
    diag << ")";
    attachFloorNote(diag, graph, smallest, /*withoutSwaps=*/!canSwap);
    if (bodies)
      diag.attachNote(func.getLoc())
          << "planned inside " << describeBodies(*bodies) << " first, with "
          << bodies->levers
          << " (recomputation and in-place writes; swaps are planned "
             "outside bodies only)";
    if (result->stoppedByTimeLimit)
      diag.attachNote(func.getLoc())
          << "the time limit stopped the search after " << result->trials.size()
          << " candidates; a larger time-limit-ms may reach further";
    if (!evaluator.getPlannerError().empty())
      diag.attachNote(func.getLoc())
          << "a planner failed on this function (please report it): "
          << evaluator.getPlannerError();
    return failure();
  }

  Builder builder(func.getContext());
  SmallVector<NamedAttribute> fields;
  fields.push_back(builder.getNamedAttr(
      "budget_bytes", builder.getI64IntegerAttr(result->budgetBytes)));
  int64_t plannedBefore =
      bodies ? bodies->plannedBeforeBytes : input.plannedBytes();
  double timeBefore =
      bodies ? bodies->timeBeforeSeconds : input.modeledTimeSeconds;
  fields.push_back(builder.getNamedAttr(
      "planned_before_bytes", builder.getI64IntegerAttr(plannedBefore)));
  fields.push_back(builder.getNamedAttr("time_before_s",
                                        builder.getF64FloatAttr(timeBefore)));
  if (bodies) {
    fields.push_back(builder.getNamedAttr(
        "bodies_planned", builder.getI64IntegerAttr(bodies->count)));
    fields.push_back(builder.getNamedAttr(
        "bodies_chosen", builder.getStringAttr(bodies->levers)));
  }
  if (result->searchedFloors)
    fields.push_back(builder.getNamedAttr(
        "smallest_bytes",
        builder.getI64IntegerAttr(result->smallestFootprintBytes)));
  fields.push_back(builder.getNamedAttr(
      "evaluations",
      builder.getI64IntegerAttr(static_cast<int64_t>(result->trials.size()))));
  // The fastest plan each strategy found within the budget.
  std::vector<std::optional<double>> bestTime(strategies.size());
  for (const sched::BudgetTrial &trial : result->trials)
    if (trial.evaluation.planned &&
        trial.evaluation.footprintBytes <= result->budgetBytes &&
        (!bestTime[trial.strategy] ||
         trial.evaluation.timeSeconds < *bestTime[trial.strategy]))
      bestTime[trial.strategy] = trial.evaluation.timeSeconds;
  for (auto [index, strategy] : llvm::enumerate(strategies)) {
    if (!bestTime[index])
      continue;
    std::string key = strategy.name + "_time_s";
    std::replace(key.begin(), key.end(), '.', '_');
    std::replace(key.begin(), key.end(), '-', '_');
    fields.push_back(
        builder.getNamedAttr(key, builder.getF64FloatAttr(*bestTime[index])));
  }
  Candidate *chosenCandidate =
      result->strategy < 0 ? nullptr : &evaluator.get(result->chosen.candidate);
  std::string chosen =
      chosenCandidate
          ? describeLevers(*chosenCandidate, strategies[result->strategy].name)
          : "none";
  fields.push_back(
      builder.getNamedAttr("chosen", builder.getStringAttr(chosen)));
  fields.push_back(builder.getNamedAttr(
      "planned_after_bytes",
      builder.getI64IntegerAttr(result->chosen.footprintBytes)));
  fields.push_back(builder.getNamedAttr(
      "time_after_s", builder.getF64FloatAttr(result->chosen.timeSeconds)));

  if (chosenCandidate) {
    func.getBody().takeBody(chosenCandidate->work.getBody());
    recordPlans(func, *chosenCandidate);
  }
  func->setAttr(kFitAttrName, builder.getDictionaryAttr(fields));
  int64_t plannedAfter = result->chosen.footprintBytes;
  double timeAfter = result->chosen.timeSeconds;
  if (config.budget.isMinimum && config.minimumReplans > 0 && !bodies &&
      chosenCandidate && chosenCandidate->reordered &&
      recomputes(*chosenCandidate) && !swaps(*chosenCandidate))
    replanAtMinimum(func, costModel, config, plannedAfter, timeAfter, outcome);
  if (quiet)
    return success();
  emitBudgetRemark(func, passName, plannedBefore, plannedAfter,
                   config.budget.isMinimum ? plannedAfter : result->budgetBytes,
                   chosen + (bodies ? ", inside " + describeBodies(*bodies) +
                                          " with " + bodies->levers
                                    : std::string()),
                   timeBefore, timeAfter);
  return success();
}

void mlir::memsched::emitBudgetRemark(func::FuncOp func, StringRef passName,
                                      int64_t plannedBefore,
                                      int64_t plannedAfter, int64_t budgetBytes,
                                      StringRef plan, double timeBefore,
                                      double timeAfter) {
  emitRemark(func.getLoc())
      << passName << ": planned memory " << formatBytes(plannedBefore) << " -> "
      << formatBytes(plannedAfter) << " within " << formatBytes(budgetBytes)
      << " with " << plan << ", modelled time "
      << llvm::formatv("{0:e3}", timeBefore) << " s -> "
      << llvm::formatv("{0:e3}", timeAfter) << " s";
}

//===----------------------------------------------------------------------===//
// Planning inside control-flow bodies
//===----------------------------------------------------------------------===//

namespace {
/// A body of structured control flow as a function of its own: the block's
/// arguments, then the values it uses from above, are its arguments; what
/// the block's terminator passes on is what it returns. The budget driver
/// plans it as any function, and the planned ops go back into the block.
struct OutlinedBody {
  Block *body = nullptr;
  func::FuncOp func;
  SmallVector<Value> captured;
};
} // namespace

/// The bodies the driver may plan inside: those memsched-plan-buffers plans
/// (one block, run in sequence), of the ops of `func`'s own block. Bodies
/// nested deeper are planned by the driver on their enclosing body.
static SmallVector<Block *> getPlannableBodies(func::FuncOp func) {
  SmallVector<Block *> bodies;
  for (Operation &op : func.getBody().front())
    if (hasSequentialBodies(&op))
      for (Region &region : op.getRegions())
        if (region.hasOneBlock() &&
            !region.front().without_terminator().empty())
          bodies.push_back(&region.front());
  return bodies;
}

static OutlinedBody outlineBody(Block &body, func::FuncOp parent) {
  OutlinedBody outlined;
  outlined.body = &body;
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(*body.getParent(), captured);
  outlined.captured.assign(captured.begin(), captured.end());
  SmallVector<Type> inputs(body.getArgumentTypes());
  for (Value value : captured)
    inputs.push_back(value.getType());
  Operation *terminator = body.getTerminator();
  MLIRContext *context = parent.getContext();
  auto type = FunctionType::get(context, inputs, terminator->getOperandTypes());
  Location loc = body.getParentOp()->getLoc();
  outlined.func = func::FuncOp::create(loc, parent.getSymName(), type);
  // What the device holds of an argument: offloaded state stays in host
  // memory, inside the body as outside.
  for (auto [index, value] : llvm::enumerate(captured))
    if (auto argument = dyn_cast<BlockArgument>(value))
      if (argument.getOwner() == &parent.getBody().front())
        if (Attribute host =
                parent.getArgAttr(argument.getArgNumber(), kHostMemoryAttrName))
          outlined.func.setArgAttr(body.getNumArguments() + index,
                                   kHostMemoryAttrName, host);
  Block *entry = outlined.func.addEntryBlock();
  IRMapping mapping;
  mapping.map(body.getArguments(),
              entry->getArguments().take_front(body.getNumArguments()));
  mapping.map(outlined.captured,
              entry->getArguments().drop_front(body.getNumArguments()));
  OpBuilder builder = OpBuilder::atBlockEnd(entry);
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
  SmallVector<Value> returned;
  for (Value operand : terminator->getOperands())
    returned.push_back(mapping.lookupOrDefault(operand));
  func::ReturnOp::create(builder, loc, returned);
  return outlined;
}

/// The marks that keep ops apart from CSE (a recomputation, an allocation,
/// a duplicate kept apart): numbered per planned function, from 0.
static constexpr StringLiteral kApartMarks[] = {
    kRecomputeAttrName, kAllocationAttrName, kInstanceAttrName};

/// Renumbers the marks of `ops` (a planned body just put back into
/// `parent`) above every mark of `parent` and above 2^32, the numbers its
/// own plans use: a recomputation in a body reading only values from above
/// must not become equal, mark included, to one outside, which CSE would
/// then merge into it.
static void renumberApart(ArrayRef<Operation *> ops, func::FuncOp parent) {
  int64_t next = int64_t(1) << 32;
  parent.walk([&](Operation *op) {
    for (StringRef mark : kApartMarks)
      if (auto number = op->getAttrOfType<IntegerAttr>(mark))
        next = std::max(next, number.getInt() + 1);
  });
  Builder builder(parent.getContext());
  for (Operation *root : ops)
    root->walk([&](Operation *op) {
      for (StringRef mark : kApartMarks)
        if (op->hasAttr(mark))
          op->setAttr(mark, builder.getI64IntegerAttr(next++));
    });
}

/// Replaces the ops of the outlined body by those of its function, planned.
static void inlineBody(OutlinedBody &outlined, func::FuncOp parent) {
  Block &body = *outlined.body;
  Operation *terminator = body.getTerminator();
  SmallVector<Operation *> old;
  for (Operation &op : body.without_terminator())
    old.push_back(&op);
  Block &planned = outlined.func.getBody().front();
  IRMapping mapping;
  mapping.map(planned.getArguments().take_front(body.getNumArguments()),
              body.getArguments());
  mapping.map(planned.getArguments().drop_front(body.getNumArguments()),
              outlined.captured);
  OpBuilder builder(terminator);
  SmallVector<Operation *> inlined;
  for (Operation &op : planned.without_terminator())
    inlined.push_back(builder.clone(op, mapping));
  renumberApart(inlined, parent);
  for (auto [index, value] :
       llvm::enumerate(planned.getTerminator()->getOperands()))
    terminator->setOperand(index, mapping.lookupOrDefault(value));
  for (Operation *op : llvm::reverse(old))
    op->erase();
}

/// What planBodies did.
struct BodiesPlanned {
  int64_t changed = 0;
  /// What the bodies' plans do (their `memsched.fit`'s `chosen` and
  /// `bodies_chosen`).
  std::set<std::string> levers;
  /// Every body was planned as small as it goes: a larger cut changes
  /// nothing.
  bool allSmallest = true;
};

/// Plans inside each body of `func`'s control flow (recursively, as the
/// driver plans any function): a body whose own footprint is `bytes` is
/// asked to hold `bytes - cut` (for a `min` budget or a negative `cut`,
/// its smallest), or as little as it can where that is out of reach.
static BodiesPlanned planBodies(func::FuncOp func, const CostModel &costModel,
                                const BudgetPassConfig &config, int64_t cut,
                                double secondsLeft) {
  BudgetPassConfig bodyConfig = config;
  // Swaps stay at the function's level: a swapped-out buffer is freed when
  // its copy ends, which the body model does not simulate.
  bodyConfig.allowSwap = false;
  BodiesPlanned planned;
  for (Block *body : getPlannableBodies(func)) {
    OutlinedBody outlined = outlineBody(*body, func);
    llvm::scope_exit erase([&] { outlined.func.erase(); });
    FunctionReport report = analyzeFunction(outlined.func, costModel);
    if (report.status != TensorGraphStatus::Built)
      continue;
    if (secondsLeft > 0) {
      bodyConfig.remat.timeLimitSeconds = secondsLeft;
      bodyConfig.swap.timeLimitSeconds = secondsLeft;
    }
    // A body out of reach is planned as small as it goes: its error is
    // not the function's.
    auto attempt = [&](const Budget &budget) {
      bodyConfig.budget = budget;
      ThreadDiagnostics drop(func.getContext(), nullptr);
      return succeeded(runBudgetPlanning(outlined.func, costModel, bodyConfig,
                                         /*outcome=*/nullptr,
                                         /*quiet=*/true));
    };
    Budget bytes;
    bytes.bytes = report.plannedBytes() - cut;
    Budget smallest;
    smallest.isMinimum = true;
    bool metCut = cut >= 0 && !config.budget.isMinimum && bytes.bytes > 0 &&
                  attempt(bytes);
    if (metCut)
      planned.allSmallest = false;
    else if (!attempt(smallest))
      continue;
    // What this body's plan does, and the plans of the bodies inside it;
    // a body whose plan does nothing stays as it is.
    std::set<std::string> levers;
    if (auto fit = outlined.func->getAttrOfType<DictionaryAttr>(kFitAttrName)) {
      for (StringRef key : {"chosen", "bodies_chosen"}) {
        auto named = fit.getAs<StringAttr>(key);
        if (!named)
          continue;
        SmallVector<StringRef> names;
        named.getValue().split(names, '+');
        for (StringRef name : names)
          if (name != "none")
            levers.insert(name.str());
      }
    }
    if (levers.empty())
      continue;
    planned.levers.insert(levers.begin(), levers.end());
    inlineBody(outlined, func);
    ++planned.changed;
  }
  return planned;
}

LogicalResult mlir::memsched::runBudgetPlanning(func::FuncOp func,
                                                const CostModel &costModel,
                                                const BudgetPassConfig &config,
                                                BudgetPlanningOutcome *outcome,
                                                bool quiet) {
  if (getPlannableBodies(func).empty() || !config.allowRemat)
    return planFunction(func, costModel, config, outcome, quiet, nullptr);
  MLIRContext *context = func.getContext();
  TimeLimit timeLimit(config);

  // Plans are made on copies; the chosen one becomes the function.
  auto adopt = [&](func::FuncOp copy) { adoptPlannedCopy(func, copy); };
  // The function's own levers first: the bodies as they are.
  std::vector<Diagnostic> asIsHeld;
  BudgetPlanningOutcome asIs;
  LogicalResult asIsResult = failure();
  func::FuncOp asIsCopy = func.clone();
  llvm::scope_exit eraseAsIs([&] { asIsCopy.erase(); });
  {
    ThreadDiagnostics hold(context, &asIsHeld);
    asIsResult =
        planFunction(asIsCopy, costModel, config, &asIs, quiet, nullptr);
  }
  auto keepAsIs = [&] {
    ThreadDiagnostics::emit(context, asIsHeld);
    if (outcome)
      *outcome = asIs;
    if (succeeded(asIsResult))
      adopt(asIsCopy);
    return asIsResult;
  };
  bool tryBodies =
      asIs.decided && (config.budget.isMinimum || !asIs.result.met);
  if (!tryBodies)
    return keepAsIs();

  // Then inside the bodies: each is asked to give up what the function is
  // over its budget (more, round after round, while that helps), and the
  // function is planned again around them.
  FunctionReport input = analyzeFunction(func, costModel);
  PlannedBodies bodies;
  bodies.plannedBeforeBytes = input.plannedBytes();
  bodies.timeBeforeSeconds = input.modeledTimeSeconds;
  BudgetPassConfig withBodies = config;
  if (!config.budget.isMinimum) {
    withBodies.budget = Budget();
    withBodies.budget.bytes = asIs.result.budgetBytes;
  }
  std::optional<BudgetPlanningOutcome> best;
  std::vector<Diagnostic> bestHeld;
  func::FuncOp bestCopy;
  llvm::scope_exit eraseBest([&] {
    if (bestCopy)
      bestCopy.erase();
  });
  // Plans the bodies of a copy with `cut`, then the copy around them; keeps
  // it when it is the best outcome so far. Returns what planBodies did.
  auto tryCut = [&](int64_t cut) {
    // Past the time limit, what was found stands.
    if (timeLimit.isOver())
      return BodiesPlanned();
    func::FuncOp copy = func.clone();
    BodiesPlanned changed =
        planBodies(copy, costModel, config, cut, timeLimit.left());
    if (changed.changed == 0) {
      copy.erase();
      return changed;
    }
    bodies.count = changed.changed;
    bodies.levers = llvm::join(changed.levers, "+");
    std::vector<Diagnostic> held;
    BudgetPlanningOutcome planned;
    if (timeLimit.isSet()) {
      withBodies.remat.timeLimitSeconds = timeLimit.left();
      withBodies.swap.timeLimitSeconds = timeLimit.left();
    }
    {
      ThreadDiagnostics hold(context, &held);
      (void)planFunction(copy, costModel, withBodies, &planned, quiet, &bodies);
    }
    if (!planned.decided ||
        (best && !isBetterBudgetOutcome(planned.result, best->result,
                                        config.budget.isMinimum))) {
      copy.erase();
      return changed;
    }
    best = planned;
    bestHeld = std::move(held);
    if (bestCopy)
      bestCopy.erase();
    bestCopy = copy;
    return changed;
  };
  int64_t budgetBytes = asIs.result.budgetBytes;
  auto excess = [&](const BudgetPlanningOutcome &outcome) {
    return std::max<int64_t>(
        outcome.result.smallestFootprintBytes - budgetBytes, 0);
  };
  if (config.budget.isMinimum) {
    (void)tryCut(-1);
  } else {
    // Up to three rounds of growing cuts while over the budget; where none
    // meets it, a last one with every body as small as it goes (a body
    // planned to a cut can leave the function worse off than at its
    // smallest).
    int64_t cut = excess(asIs);
    bool smallestTried = false;
    for (int round = 0; round < 3 && !smallestTried; ++round) {
      std::optional<int64_t> before =
          best ? std::optional(best->result.smallestFootprintBytes)
               : std::nullopt;
      BodiesPlanned changed = tryCut(cut);
      smallestTried = changed.allSmallest;
      if (changed.changed == 0 || (best && best->result.met))
        break;
      // A cut that no longer helps: the bodies at their smallest next.
      if (!best || (before && best->result.smallestFootprintBytes >= *before))
        break;
      cut += excess(*best);
    }
    if (!smallestTried && !(best && best->result.met))
      (void)tryCut(-1);
    // A body planned as a function holds more than the same ops as a
    // body (a function's arguments are not a loop's carried values), so a
    // cut often leaves the budget well met: smaller cuts recompute less.
    for (int relax = 0; relax < 2 && best && best->result.met; ++relax) {
      int64_t slack = budgetBytes - best->result.chosen.footprintBytes;
      if (slack <= budgetBytes / 100 || slack >= cut)
        break;
      cut -= slack;
      (void)tryCut(cut);
    }
  }
  // Neither way meets the budget: perhaps `min` does (meetAtMinimum).
  bool bestIsBetter = best && isBetterBudgetOutcome(best->result, asIs.result,
                                                    config.budget.isMinimum);
  const BudgetPlanningOutcome &kept = bestIsBetter ? *best : asIs;
  if (!config.budget.isMinimum && !kept.result.met) {
    std::optional<std::pair<int64_t, int>> reached;
    if (meetAtMinimum(func, costModel, config, budgetBytes,
                      input.plannedBytes(), input.modeledTimeSeconds, outcome,
                      quiet, reached))
      return success();
  }
  if (!bestIsBetter)
    return keepAsIs();
  ThreadDiagnostics::emit(context, bestHeld);
  if (outcome)
    *outcome = *best;
  if (!best->result.met)
    return failure();
  adopt(bestCopy);
  return success();
}

FailureOr<SmallVector<BudgetSweepPoint>>
mlir::memsched::sweepBudgets(func::FuncOp func, const CostModel &costModel,
                             const BudgetPassConfig &config,
                             ArrayRef<Budget> budgets) {
  FunctionReport input = analyzeFunction(func, costModel);
  if (input.status != TensorGraphStatus::Built)
    return emitError(func.getLoc()) << config.passName << ": cannot analyze '@"
                                    << func.getSymName() << "'";
  int64_t inputPlanned = getInputPlannedBytes(func, input.plannedBytes());
  SmallVector<BudgetSweepPoint> points(budgets.size());
  // Largest budgets first: once one is out of reach, the smallest reachable
  // footprint is known (it does not depend on the budget), and every
  // smaller budget is answered without planning again.
  SmallVector<size_t> order(budgets.size());
  std::iota(order.begin(), order.end(), 0);
  auto bytesOf = [&](const Budget &budget) {
    return budget.isMinimum ? int64_t(-1) : budget.resolve(inputPlanned);
  };
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return bytesOf(budgets[a]) > bytesOf(budgets[b]);
  });
  std::optional<int64_t> smallest;
  for (size_t index : order) {
    BudgetSweepPoint &point = points[index];
    point.budget = budgets[index];
    point.budgetBytes = bytesOf(point.budget);
    if (smallest && !point.budget.isMinimum && point.budgetBytes < *smallest) {
      point.plannedBytes = *smallest;
      continue;
    }
    BudgetPassConfig pointConfig = config;
    pointConfig.budget = point.budget;
    BudgetPlanningOutcome outcome;
    func::FuncOp copy = func.clone();
    llvm::scope_exit eraseCopy([&] { copy.erase(); });
    // An unmet budget is a point of the curve, not an error: the driver's
    // diagnostics are held back and given out only on an internal error.
    std::vector<Diagnostic> held;
    LogicalResult planned = success();
    {
      ThreadDiagnostics holdBack(func.getContext(), &held);
      planned = runBudgetPlanning(copy, costModel, pointConfig, &outcome,
                                  /*quiet=*/true);
    }
    const sched::BudgetResult &result = outcome.result;
    if (!outcome.decided) {
      ThreadDiagnostics::emit(func.getContext(), held);
      return failure();
    }
    if (result.searchedFloors)
      smallest = result.smallestFootprintBytes;
    point.met = succeeded(planned) && result.met;
    if (!point.met) {
      point.plannedBytes = result.smallestFootprintBytes;
      continue;
    }
    if (point.budget.isMinimum)
      point.budgetBytes = result.budgetBytes;
    point.plannedBytes = result.chosen.footprintBytes;
    point.timeSeconds = result.chosen.timeSeconds;
    // What the chosen plan does, as the function's `memsched.fit` says.
    point.strategy = "none";
    if (auto fit = copy->getAttrOfType<DictionaryAttr>(kFitAttrName))
      if (auto chosen = fit.getAs<StringAttr>("chosen"))
        point.strategy = chosen.str();
  }
  return points;
}
