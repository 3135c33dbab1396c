//===- TestPrintPlans.cpp - Print memory plans without applying them ------===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// test-memsched-print-remat-plan, test-memsched-print-swap-plan and
// test-memsched-print-fit-plan print what the planners and the budget
// driver decide for each function, and leave the IR as it is (as upstream
// bufferization's test-analysis-only and Triton's test-print-allocation
// do), so that FileCheck tests can read the decisions themselves.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Transforms/BudgetPlanning.h"

#include "mlir/IR/AsmState.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

namespace {
/// The options and set-up the three passes share.
template <typename Derived>
struct TestPrintPlanBase
    : public PassWrapper<Derived, OperationPass<func::FuncOp>> {
  TestPrintPlanBase() = default;
  TestPrintPlanBase(const TestPrintPlanBase &other)
      : PassWrapper<Derived, OperationPass<func::FuncOp>>(other) {}

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<MemschedDialect>();
  }

  Pass::Option<std::string> budget{*this, "budget",
                                   llvm::cl::desc("The budget to plan for"),
                                   llvm::cl::init("")};
  Pass::Option<std::string> device{*this, "device",
                                   llvm::cl::desc("Device preset or file"),
                                   llvm::cl::init("")};

  void runOnOperation() final {
    func::FuncOp func = this->getOperation();
    if (func.isExternal() || func->hasAttr(kHostAttrName))
      return;
    std::string error;
    std::optional<Budget> parsed = parseBudget(budget, error);
    FailureOr<DeviceSpec> spec =
        DeviceSpec::resolveOrEmitError(device, func, this->getArgument());
    if (!parsed || failed(spec)) {
      if (!parsed)
        emitError(func.getLoc()) << this->getArgument() << ": " << error;
      return this->signalPassFailure();
    }
    CostModel costModel(*spec);
    std::optional<TensorGraph> graph =
        TensorGraph::buildOrEmitError(func, costModel, this->getArgument());
    if (!graph)
      return this->signalPassFailure();
    FunctionReport report = analyzeFunction(func, costModel);
    int64_t budgetBytes = parsed->isMinimum
                              ? report.residentBytes
                              : parsed->resolve(getInputPlannedBytes(
                                    func, report.plannedBytes()));
    if (failed(static_cast<Derived *>(this)->print(
            func, *graph, costModel, *parsed,
            budgetBytes - report.residentBytes, llvm::outs())))
      this->signalPassFailure();
    this->markAllAnalysesPreserved();
  }
};

/// Describes task `task` as `#id 'name' (location)`.
static void printTask(raw_ostream &os, const TensorGraph &graph,
                      sched::TaskId task) {
  Operation *op = graph.getOp(task);
  os << "#" << task << " '" << op->getName() << "' (" << op->getLoc() << ")";
}

struct TestPrintRematPlanPass
    : public TestPrintPlanBase<TestPrintRematPlanPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintRematPlanPass)
  StringRef getArgument() const final {
    return "test-memsched-print-remat-plan";
  }
  StringRef getDescription() const final {
    return "Print the recomputation plan for a budget without applying it";
  }
  LogicalResult print(func::FuncOp func, const TensorGraph &graph,
                      const CostModel &, const Budget &, int64_t target,
                      raw_ostream &os) {
    sched::RematOptions options;
    options.budgetTransientBytes = std::max<int64_t>(target, 0);
    std::string error;
    std::optional<sched::RematPlan> plan =
        sched::planRemat(graph.getProblem(), options, &error);
    if (!plan)
      return emitError(func.getLoc()) << error;
    os << "remat-plan @" << func.getSymName() << " target " << target
       << " within " << (plan->withinBudget ? "yes" : "no") << " peak "
       << plan->peakTransientBefore << " -> " << plan->peakTransientAfter
       << " smallest " << plan->smallestPeakTransient << " algorithm "
       << plan->algorithm << "\n";
    if (!plan->withinBudget)
      return success();
    for (auto [index, clone] : llvm::enumerate(plan->clones)) {
      os << "  clone " << index << ": ";
      printTask(os, graph, clone.task);
      os << " before #" << clone.insertBefore << "\n";
    }
    os << "  dropped " << plan->droppedBuffers.size() << " buffers, "
       << plan->redirects.size() << " reads redirected\n";
    return success();
  }
};

struct TestPrintSwapPlanPass : public TestPrintPlanBase<TestPrintSwapPlanPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintSwapPlanPass)
  StringRef getArgument() const final {
    return "test-memsched-print-swap-plan";
  }
  StringRef getDescription() const final {
    return "Print the swap plan for a budget without applying it";
  }
  LogicalResult print(func::FuncOp func, const TensorGraph &graph,
                      const CostModel &costModel, const Budget &,
                      int64_t target, raw_ostream &os) {
    const sched::Problem &problem = graph.getProblem();
    sched::SwapOptions options;
    options.budgetTransientBytes = std::max<int64_t>(target, 0);
    options.link = getLinkSpec(costModel.getDevice());
    std::string error;
    std::optional<sched::SwapPlan> plan =
        sched::planSwap(problem, problem.programOrder(), options, &error);
    if (!plan)
      return emitError(func.getLoc()) << error;
    os << "swap-plan @" << func.getSymName() << " target " << target
       << " within " << (plan->withinBudget ? "yes" : "no") << " smallest "
       << plan->smallestPeakTransient << " algorithm " << plan->algorithm
       << "\n";
    if (!plan->withinBudget)
      return success();
    AsmState state(func);
    for (const sched::SwapDecision &swap : plan->swaps) {
      os << "  swap ";
      graph.getValue(swap.value).printAsOperand(os, state);
      os << " out after #" << swap.issueAfter;
      if (swap.releaseBefore != sched::kNoId)
        os << " wait before #" << swap.releaseBefore;
      if (swap.writeOver != sched::kNoId) {
        os << " written over by ";
        graph.getValue(swap.writeOver).printAsOperand(os, state);
      }
      os << " in after #" << swap.prefetchAfter << " for #"
         << swap.firstLateUse;
      for (const sched::SwapRefetch &refetch : swap.refetches)
        os << " freed after #" << refetch.lastUseBefore << " in after #"
           << refetch.prefetchAfter << " for #" << refetch.firstUse;
      os << "\n";
    }
    return success();
  }
};

struct TestPrintFitPlanPass : public TestPrintPlanBase<TestPrintFitPlanPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintFitPlanPass)
  StringRef getArgument() const final { return "test-memsched-print-fit-plan"; }
  StringRef getDescription() const final {
    return "Print every candidate the budget driver evaluates and its "
           "choice, without applying it";
  }
  LogicalResult print(func::FuncOp func, const TensorGraph &,
                      const CostModel &costModel, const Budget &budget, int64_t,
                      raw_ostream &os) {
    // The driver rewrites what it is given: give it a copy.
    func::FuncOp copy = func.clone();
    BudgetPassConfig config;
    config.passName = getArgument().str();
    config.budget = budget;
    BudgetPlanningOutcome outcome;
    LogicalResult planned =
        runBudgetPlanning(copy, costModel, config, &outcome, /*quiet=*/true);
    copy.erase();
    if (failed(planned) && outcome.strategies.empty())
      return failure();
    const sched::BudgetResult &result = outcome.result;
    auto name = [&](int strategy) -> std::string {
      return strategy < 0 ? "none" : outcome.strategies[strategy];
    };
    os << "fit-plan @" << func.getSymName() << " met "
       << (result.met ? "yes" : "no") << " chosen " << name(result.strategy)
       << " planned " << result.chosen.footprintBytes << " budget "
       << result.budgetBytes;
    if (result.searchedFloors)
      os << " smallest " << result.smallestFootprintBytes << " ("
         << name(result.smallestStrategy) << ")";
    os << "\n";
    for (const sched::BudgetTrial &trial : result.trials) {
      os << "  " << name(trial.strategy) << " target "
         << trial.targetTransientBytes;
      if (trial.evaluation.planned)
        os << " planned " << trial.evaluation.footprintBytes;
      else
        os << " unreachable";
      os << " smallest " << trial.evaluation.smallestTransientBytes << "\n";
    }
    return success();
  }
};
} // namespace

namespace mlir::memsched::test {
void registerTestPrintPlanPasses() {
  PassRegistration<TestPrintRematPlanPass>();
  PassRegistration<TestPrintSwapPlanPass>();
  PassRegistration<TestPrintFitPlanPass>();
}
} // namespace mlir::memsched::test
