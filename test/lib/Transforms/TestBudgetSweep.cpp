//===- TestBudgetSweep.cpp - Print a function's memory-vs-time curve ------===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// test-memsched-budget-sweep runs memsched-fit's budget driver once per
// budget on copies of each function (sweepBudgets) and prints one line per
// budget, leaving the IR as it is.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Transforms/BudgetPlanning.h"

#include "mlir/Pass/Pass.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct TestBudgetSweepPass
    : public PassWrapper<TestBudgetSweepPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestBudgetSweepPass)

  TestBudgetSweepPass() = default;
  TestBudgetSweepPass(const TestBudgetSweepPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-memsched-budget-sweep"; }
  StringRef getDescription() const final {
    return "Print the footprint and modelled time memsched-fit reaches for "
           "each of several budgets";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<MemschedDialect>();
  }

  ListOption<std::string> budgets{*this, "budgets",
                                  llvm::cl::desc("The budgets to plan for")};
  Option<std::string> device{*this, "device",
                             llvm::cl::desc("Device preset or file"),
                             llvm::cl::init("")};
  Option<bool> allowRemat{*this, "allow-remat", llvm::cl::init(true)};
  Option<bool> allowSwap{*this, "allow-swap", llvm::cl::init(true)};

  void runOnOperation() final {
    func::FuncOp func = getOperation();
    if (func.isExternal() || func->hasAttr(kHostAttrName))
      return;
    SmallVector<Budget> parsed;
    for (const std::string &text : budgets) {
      std::string error;
      std::optional<Budget> budget = parseBudget(text, error);
      if (!budget) {
        emitError(func.getLoc()) << getArgument() << ": " << error;
        return signalPassFailure();
      }
      parsed.push_back(*budget);
    }
    FailureOr<DeviceSpec> spec =
        DeviceSpec::resolveOrEmitError(device, func, getArgument());
    if (failed(spec))
      return signalPassFailure();
    BudgetPassConfig config;
    config.passName = getArgument().str();
    config.allowRemat = allowRemat;
    config.allowSwap = allowSwap;
    FailureOr<SmallVector<BudgetSweepPoint>> points =
        sweepBudgets(func, CostModel(*spec), config, parsed);
    if (failed(points))
      return signalPassFailure();
    llvm::raw_ostream &os = llvm::outs();
    os << "sweep @" << func.getSymName() << "\n";
    for (auto [text, point] : llvm::zip(budgets, *points)) {
      os << "  budget " << text << " = " << point.budgetBytes << " B: ";
      if (point.met)
        os << "met with " << point.strategy << ", planned "
           << point.plannedBytes << " B, time "
           << llvm::formatv("{0:e3}", point.timeSeconds) << " s\n";
      else
        os << "not met, smallest reachable " << point.plannedBytes << " B\n";
    }
    markAllAnalysesPreserved();
  }
};
} // namespace

namespace mlir::memsched::test {
void registerTestBudgetSweepPass() { PassRegistration<TestBudgetSweepPass>(); }
} // namespace mlir::memsched::test
