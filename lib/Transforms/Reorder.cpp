//===- Reorder.cpp - memsched-reorder pass ----------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the reorder pass: the function's tensor graph goes to
// the schedulers of lib/Scheduling, and the ops are moved into the order they
// return. Free ops (constants, empties, views of arguments) go first, then
// each task's ops together in the new order, which moves every op but the
// terminator.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Reorder.h"
#include "PlanRewrite.h"
#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Transforms/BudgetPlanning.h"
#include "memsched/Transforms/Passes.h"

#include "llvm/ADT/ScopeExit.h"

#include <chrono>
#include <limits>

#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDREORDERPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

/// Checks that every value an op uses, in its operands or inside its
/// regions, is defined by an earlier op of `block` (or outside it) when the
/// ops run in `order`. This guards the move against a dependence the graph
/// missed; it costs one walk of the body.
static Operation *findDominanceViolation(Block &block,
                                         ArrayRef<Operation *> order) {
  DenseMap<Operation *, size_t> position;
  for (auto [index, op] : llvm::enumerate(order))
    position[op] = index;
  for (auto [index, op] : llvm::enumerate(order)) {
    Operation *violation = nullptr;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || def->getBlock() != &block)
          continue;
        auto it = position.find(def);
        if (it != position.end() && it->second >= index) {
          violation = op;
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (violation)
      return violation;
  }
  return nullptr;
}

/// Moves `ops` (all non-terminator ops of `block`) into the given order.
static void moveInto(Block &block, ArrayRef<Operation *> ops) {
  Operation *terminator = block.getTerminator();
  for (Operation *op : ops)
    op->moveBefore(terminator);
}

/// Reorders the single-block bodies of `func`'s structured control flow,
/// innermost first, into the order the schedulers find for each body's
/// graph, where that lowers the body's peak (what the op holds while it
/// runs). Returns each changed body with its original order.
static SmallVector<std::pair<Block *, SmallVector<Operation *>>>
reorderBodies(func::FuncOp func, const CostModel &costModel,
              const sched::ReorderOptions &options) {
  SmallVector<Block *> bodies;
  func.walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (!isStructuredControlFlow(op))
      return;
    for (Region &region : op->getRegions())
      if (region.hasOneBlock())
        bodies.push_back(&region.front());
  });
  SmallVector<std::pair<Block *, SmallVector<Operation *>>> changed;
  // An optional time limit is shared: the bodies together take at most
  // half of it, the function's block the rest.
  auto started = std::chrono::steady_clock::now();
  auto secondsLeft = [&] {
    std::chrono::duration<double> spent =
        std::chrono::steady_clock::now() - started;
    return options.timeLimitSeconds / 2 - spent.count();
  };
  for (Block *block : bodies) {
    sched::ReorderOptions bodyOptions = options;
    if (options.timeLimitSeconds > 0) {
      if (secondsLeft() <= 0)
        break;
      bodyOptions.timeLimitSeconds = secondsLeft();
    }
    std::optional<BodyGraph> graph = buildBodyGraph(*block, costModel);
    if (!graph || graph->ops.size() < 3)
      continue;
    std::optional<sched::ReorderResult> result =
        sched::reorder(graph->problem, bodyOptions);
    if (!result)
      continue;
    SmallVector<Operation *> original(graph->ops.begin(), graph->ops.end());
    SmallVector<Operation *> reordered;
    for (sched::TaskId task : result->order)
      reordered.push_back(graph->ops[task]);
    if (reordered == original || findDominanceViolation(*block, reordered))
      continue;
    int64_t before = getBodyPeakBytes(*block);
    moveInto(*block, reordered);
    if (getBodyPeakBytes(*block) < before)
      changed.push_back({block, std::move(original)});
    else
      moveInto(*block, original);
  }
  return changed;
}

FailureOr<ReorderOutcome>
mlir::memsched::applyReorder(func::FuncOp func, const CostModel &costModel,
                             StringRef algorithmName,
                             const sched::ReorderOptions &options) {
  TensorGraph graph = TensorGraph::build(func, costModel);
  graph.emitStatus("memsched-reorder");
  ReorderOutcome outcome;
  if (graph.getStatus() == TensorGraphStatus::Skipped) {
    outcome.skipped = true;
    return outcome;
  }
  if (graph.getStatus() == TensorGraphStatus::Failed)
    return failure();
  // Bodies first: what a loop holds while it runs depends on its body's
  // order. The input's figures are what the function held before.
  FunctionReport input = analyzeFunction(func, costModel);
  auto started = std::chrono::steady_clock::now();
  auto bodies = reorderBodies(func, costModel, options);
  sched::ReorderOptions blockOptions = options;
  if (options.timeLimitSeconds > 0) {
    std::chrono::duration<double> spent =
        std::chrono::steady_clock::now() - started;
    blockOptions.timeLimitSeconds =
        std::max(options.timeLimitSeconds - spent.count(), 1e-9);
  }
  int64_t bodiesReordered = static_cast<int64_t>(bodies.size());
  // A failed pass leaves the function as it was.
  bool succeeded = false;
  llvm::scope_exit restoreBodies([&] {
    if (!succeeded)
      for (auto &[body, order] : llvm::reverse(bodies))
        moveInto(*body, order);
  });
  if (bodiesReordered > 0)
    graph = TensorGraph::build(func, costModel);
  if (graph.getStatus() != TensorGraphStatus::Built) {
    emitError(func.getLoc()) << "memsched-reorder: internal error: the "
                                "function no longer models after reordering "
                                "its control flow's bodies";
    return failure();
  }
  const sched::Problem &problem = graph.getProblem();

  std::string error;
  std::optional<sched::ReorderResult> result =
      sched::reorder(problem, blockOptions, &error);
  if (!result) {
    emitError(func.getLoc()) << "memsched-reorder: " << error;
    return failure();
  }

  Block &block = func.getBody().front();
  SmallVector<Operation *> original, reordered;
  for (Operation &op : block.without_terminator())
    original.push_back(&op);
  llvm::append_range(reordered, graph.getFreeOps());
  for (sched::TaskId task : result->order)
    if (task != graph.getReturnTask())
      llvm::append_range(reordered, graph.getOps(task));
  if (reordered.size() != original.size()) {
    emitError(func.getLoc())
        << "memsched-reorder: internal error: the order has "
        << reordered.size() << " ops, the body " << original.size();
    return failure();
  }
  if (Operation *op = findDominanceViolation(block, reordered)) {
    emitError(op->getLoc())
        << "memsched-reorder: internal error: the new order "
           "would use a value before its definition here";
    return failure();
  }

  // The figure the objective minimises: the peak, or the planned bytes
  // (whose transient part is the arena's, the schedulers' peak with
  // escaping buffers resident).
  bool planned = options.objective == sched::ReorderObjective::Planned;
  auto figure = [&](const FunctionReport &report) {
    return planned ? report.plannedBytes() : report.peakBytes;
  };
  int64_t resident = problem.residentBytes();
  if (planned)
    resident += input.escapingBytes;
  int64_t before = input.status == TensorGraphStatus::Built
                       ? figure(input)
                       : resident + result->programPeakTransientBytes;
  moveInto(block, reordered);
  // The graph of the new order decides in-place writes afresh. `auto` never
  // raises the planned bytes (what a budget bounds) or, for the peak
  // objective, the peak; a named algorithm's order is kept unless it models
  // worse than both the input and what the scheduler predicted (a heuristic
  // may be worse than the input on purpose).
  FunctionReport output = analyzeFunction(func, costModel);
  std::optional<int64_t> after;
  if (output.status == TensorGraphStatus::Built)
    after = figure(output);
  int64_t predicted = resident + result->peakTransientBytes;
  // An order chosen with its in-place writes counted is measured by the
  // caller once they are taken: without them it may well hold more.
  bool judged = !options.modelInPlaceWrites;
  bool restored = !after || (judged && *after > before && *after > predicted);
  if (judged && options.algorithm == sched::ReorderAlgorithm::Auto && after &&
      (output.plannedBytes() > input.plannedBytes() || *after > before))
    restored = true;
  if (restored) {
    moveInto(block, original);
    output = bodiesReordered > 0 ? analyzeFunction(func, costModel) : input;
    after = output.status == TensorGraphStatus::Built ? figure(output) : before;
  }
  succeeded = true;

  Builder builder(func.getContext());
  SmallVector<NamedAttribute> candidates;
  for (const sched::CandidateResult &candidate : result->candidates)
    candidates.push_back(builder.getNamedAttr(
        candidate.algorithm,
        builder.getI64IntegerAttr(resident + candidate.peakTransientBytes)));
  outcome.beforeBytes = before;
  outcome.afterBytes = *after;
  outcome.chosen = restored ? "program" : result->chosenAlgorithm;
  outcome.isOptimal = result->isOptimal && !restored;
  outcome.restored = restored;
  outcome.bodiesReordered = bodiesReordered;
  int64_t peakBefore =
      input.status == TensorGraphStatus::Built
          ? input.peakBytes
          : problem.residentBytes() + result->programPeakTransientBytes;
  int64_t peakAfter =
      output.status == TensorGraphStatus::Built ? output.peakBytes : peakBefore;
  NamedAttribute fields[] = {
      builder.getNamedAttr("algorithm", builder.getStringAttr(algorithmName)),
      builder.getNamedAttr("chosen", builder.getStringAttr(outcome.chosen)),
      builder.getNamedAttr("peak_before_bytes",
                           builder.getI64IntegerAttr(peakBefore)),
      builder.getNamedAttr("peak_after_bytes",
                           builder.getI64IntegerAttr(peakAfter)),
      builder.getNamedAttr("planned_before_bytes",
                           builder.getI64IntegerAttr(input.plannedBytes())),
      builder.getNamedAttr("planned_after_bytes",
                           builder.getI64IntegerAttr(output.plannedBytes())),
      builder.getNamedAttr("lower_bound_bytes",
                           builder.getI64IntegerAttr(
                               resident + result->lowerBoundTransientBytes)),
      builder.getNamedAttr("optimal", builder.getBoolAttr(outcome.isOptimal)),
      builder.getNamedAttr("candidates", builder.getDictionaryAttr(candidates)),
  };
  // Reordered again (memsched-fit's reordered copy of a function
  // memsched-reorder ordered), the figures before stay the input's: a
  // fractional budget is of them (getInputPlannedBytes).
  NamedAttrList record(fields);
  // Only a choice other than the default is recorded.
  if (planned)
    record.set("objective", builder.getStringAttr("planned"));
  if (auto earlier = func->getAttrOfType<DictionaryAttr>(kReorderAttrName))
    for (StringRef name : {"peak_before_bytes", "planned_before_bytes"})
      if (Attribute value = earlier.get(name))
        record.set(name, value);
  func->setAttr(kReorderAttrName, record.getDictionary(func.getContext()));
  return outcome;
}

/// The report of a copy of \p func with the in-place writes of its order
/// taken, as memsched-inplace takes them; std::nullopt outside the model.
static std::optional<FunctionReport>
analyzeWithWrites(func::FuncOp func, const CostModel &costModel) {
  func::FuncOp copy = func.clone();
  llvm::scope_exit eraseCopy([&] { copy.erase(); });
  takeInPlaceWrites(copy, costModel);
  FunctionReport report = analyzeFunction(copy, costModel);
  if (report.status != TensorGraphStatus::Built)
    return std::nullopt;
  return report;
}

/// With `inplace-writes`, the order was chosen counting the writes
/// memsched-inplace makes after it, and is judged the same way, with each
/// order's writes taken: against the input's (\p original) and the order
/// found without counting them (\p uncounted, where that search succeeded),
/// whichever measures least is kept (the counted one on a tie, then the
/// uncounted one), and the figures of the remark and of `memsched.reorder`
/// are those with the writes taken.
static void judgeWithWrites(func::FuncOp func, func::FuncOp original,
                            func::FuncOp uncounted, StringRef uncountedChosen,
                            const CostModel &costModel, bool planned,
                            ReorderOutcome &outcome) {
  std::optional<FunctionReport> before = analyzeWithWrites(original, costModel);
  std::optional<FunctionReport> after = analyzeWithWrites(func, costModel);
  std::optional<FunctionReport> other;
  if (uncounted)
    other = analyzeWithWrites(uncounted, costModel);
  auto figure = [&](const std::optional<FunctionReport> &report) {
    if (!report)
      return std::numeric_limits<int64_t>::max();
    return planned ? report->plannedBytes() : report->peakBytes;
  };
  auto takeBodyOf = [&](func::FuncOp from) {
    func::FuncOp copy = from.clone();
    func.getBody().takeBody(copy.getBody());
    copy.erase();
  };
  if (other && figure(other) < figure(after) &&
      figure(other) <= figure(before)) {
    takeBodyOf(uncounted);
    after = other;
    outcome.isOptimal = false;
    outcome.chosen = ("without-writes(" + uncountedChosen + ")").str();
  } else if (before && figure(after) > figure(before)) {
    takeBodyOf(original);
    after = before;
    outcome.restored = true;
    outcome.isOptimal = false;
    outcome.chosen = "program";
  }
  if (!before || !after)
    return;
  outcome.beforeBytes = figure(before);
  outcome.afterBytes = figure(after);
  Builder builder(func.getContext());
  NamedAttrList fields(func->getAttrOfType<DictionaryAttr>(kReorderAttrName));
  fields.set("chosen", builder.getStringAttr(outcome.chosen));
  fields.set("peak_before_bytes", builder.getI64IntegerAttr(before->peakBytes));
  fields.set("peak_after_bytes", builder.getI64IntegerAttr(after->peakBytes));
  fields.set("planned_before_bytes",
             builder.getI64IntegerAttr(before->plannedBytes()));
  fields.set("planned_after_bytes",
             builder.getI64IntegerAttr(after->plannedBytes()));
  fields.set("optimal", builder.getBoolAttr(outcome.isOptimal));
  fields.set("inplace_writes", builder.getBoolAttr(true));
  func->setAttr(kReorderAttrName, fields.getDictionary(func.getContext()));
}

namespace {
struct ReorderPass
    : public memsched::impl::MemschedReorderPassBase<ReorderPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Plans `input` (the function as it came) after upstream elementwise
  /// fusion and keeps that in `func` instead of its reordered body
  /// (`outcome`) where the peak is lower.
  void tryFused(func::FuncOp func, func::FuncOp input,
                const CostModel &costModel,
                const sched::ReorderOptions &options, ReorderOutcome &outcome);
};

/// Replaces `func`'s body and attributes by `from`'s (a detached copy).
void replaceFunction(func::FuncOp func, func::FuncOp from) {
  func.getBody().takeBody(from.getBody());
  func->setAttrs(from->getAttrDictionary());
}
} // namespace

void ReorderPass::tryFused(func::FuncOp func, func::FuncOp input,
                           const CostModel &costModel,
                           const sched::ReorderOptions &options,
                           ReorderOutcome &outcome) {
  auto unfused = func.clone();
  llvm::scope_exit cleanup([&] { unfused->erase(); });
  auto unfusedFields = func->getAttrOfType<DictionaryAttr>(kReorderAttrName);
  replaceFunction(func, input);
  OpPassManager fusion(func::FuncOp::getOperationName());
  fusion.addPass(createLinalgElementwiseOpFusionPass());
  FailureOr<ReorderOutcome> fused = failure();
  // (applyReorder remarks only on functions it cannot model, which fusion
  // of a modelled function does not make; a context-wide filter would also
  // silence the functions other threads plan.)
  if (succeeded(runPipeline(fusion, func)))
    fused = applyReorder(func, costModel, algorithm, options);
  auto fusedFields = func->getAttrOfType<DictionaryAttr>(kReorderAttrName);
  auto planned = [](DictionaryAttr fields, StringRef name) {
    auto value = fields ? fields.getAs<IntegerAttr>(name) : IntegerAttr();
    return value ? value.getInt() : std::numeric_limits<int64_t>::max();
  };
  // Kept where the peak is lower and the planned bytes (what a budget
  // bounds) stay within the input's.
  bool better = succeeded(fused) && !fused->skipped && fusedFields &&
                fused->afterBytes < outcome.afterBytes &&
                planned(fusedFields, "planned_after_bytes") <=
                    planned(unfusedFields, "planned_before_bytes");
  if (!better) {
    replaceFunction(func, unfused);
    return;
  }
  // Figures before are the input's, not the fused function's.
  Builder builder(func.getContext());
  NamedAttrList fields(fusedFields);
  for (StringRef name : {"peak_before_bytes", "planned_before_bytes"})
    fields.set(name, unfusedFields.get(name));
  std::string chosen = "fused+" + fused->chosen;
  fields.set("chosen", builder.getStringAttr(chosen));
  func->setAttr(kReorderAttrName, fields.getDictionary(func.getContext()));
  fused->beforeBytes = outcome.beforeBytes;
  fused->chosen = chosen;
  outcome = *fused;
}

void ReorderPass::runOnOperation() {
  func::FuncOp func = getOperation();
  // Host glue (memsched-exec-harness's main) is not a training step.
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  std::optional<sched::ReorderAlgorithm> parsed =
      sched::parseReorderAlgorithm(algorithm);
  if (!parsed) {
    emitError(func.getLoc())
        << "memsched-reorder: unknown algorithm '" << algorithm
        << "'; expected one of: " << sched::getReorderAlgorithmNames();
    return signalPassFailure();
  }
  if (timeLimitMs < 0 || exactMaxTasks < 0) {
    emitError(func.getLoc())
        << "memsched-reorder: time-limit-ms and exact-max-tasks "
           "must not be negative";
    return signalPassFailure();
  }
  FailureOr<DeviceSpec> spec =
      DeviceSpec::resolveOrEmitError(device, func, "memsched-reorder");
  if (failed(spec))
    return signalPassFailure();
  // The device is recorded once the pass has succeeded; a failed pass leaves
  // the function as it was.
  llvm::scope_exit recordDevice([&] {
    if (!getPassState().irAndPassFailed.getInt())
      DeviceSpec::record(device, func);
  });
  CostModel costModel(*spec);

  sched::ReorderOptions options;
  options.algorithm = *parsed;
  options.timeLimitSeconds = static_cast<double>(timeLimitMs) / 1000.0;
  options.exactMaxTasks = exactMaxTasks;
  if (objective == "planned") {
    options.objective = sched::ReorderObjective::Planned;
  } else if (objective != "peak") {
    emitError(func.getLoc()) << "memsched-reorder: unknown objective '"
                             << objective << "'; expected peak or planned";
    return signalPassFailure();
  }
  if (fuseElementwise) {
    // The unfused and the fused function share the work of one plan.
    options.exactMaxStates /= 2;
    options.windowMaxStates /= 2;
    options.timeLimitSeconds /= 2;
  }
  options.modelInPlaceWrites = inplaceWrites;
  // The function as it came, for the fused variant and to judge an order
  // chosen with its in-place writes.
  func::FuncOp input = fuseElementwise ? func.clone() : func::FuncOp();
  func::FuncOp original = inplaceWrites ? func.clone() : func::FuncOp();
  llvm::scope_exit eraseInput([&] {
    if (input)
      input->erase();
    if (original)
      original->erase();
  });
  FailureOr<ReorderOutcome> outcome =
      applyReorder(func, costModel, algorithm, options);
  if (failed(outcome))
    return signalPassFailure();
  if (outcome->skipped)
    return markAllAnalysesPreserved();
  if (input)
    tryFused(func, input, costModel, options, *outcome);
  if (original) {
    // The order found without counting the writes, judged beside it.
    func::FuncOp uncounted = original.clone();
    llvm::scope_exit eraseUncounted([&] { uncounted.erase(); });
    sched::ReorderOptions uncountedOptions = options;
    uncountedOptions.modelInPlaceWrites = false;
    FailureOr<ReorderOutcome> uncountedOutcome = failure();
    {
      // Its failure leaves the order found with the writes counted.
      ThreadDiagnostics drop(func.getContext(), nullptr);
      uncountedOutcome =
          applyReorder(uncounted, costModel, algorithm, uncountedOptions);
    }
    bool usable = succeeded(uncountedOutcome) && !uncountedOutcome->skipped;
    judgeWithWrites(
        func, original, usable ? uncounted : func::FuncOp(),
        usable ? StringRef(uncountedOutcome->chosen) : "", costModel,
        options.objective == sched::ReorderObjective::Planned, *outcome);
  }

  int64_t before = outcome->beforeBytes, after = outcome->afterBytes;
  double ratio = after > 0 ? static_cast<double>(before) / after : 1.0;
  InFlightDiagnostic remark = emitRemark(func.getLoc());
  remark << "memsched-reorder: "
         << (options.objective == sched::ReorderObjective::Planned
                 ? "planned memory "
                 : "peak ")
         << formatBytes(before) << " -> " << formatBytes(after) << " ("
         << llvm::formatv("{0:F2}", ratio).str() << "x) with "
         << outcome->chosen;
  if (outcome->isOptimal)
    remark << " (optimal)";
  if (inplaceWrites)
    remark << ", in-place writes taken";
  if (outcome->restored)
    remark << "; kept the input order, whose rebuilt graph models lower";
  if (outcome->bodiesReordered > 0)
    remark << "; " << outcome->bodiesReordered << " control-flow bod"
           << (outcome->bodiesReordered == 1 ? "y" : "ies") << " reordered";
}
