//===- TestTensorGraph.cpp - Print TensorGraph and peak memory --*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// Test passes that print the tensor graph of each function and its memory
// simulation in program order, in a stable line-oriented form for FileCheck.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"

#include "memsched/Scheduling/MemorySimulator.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::memsched;
using namespace mlir::memsched::scheduling;

/// Prints `items` as "[a, b, c]".
template <typename Range, typename Fn>
static void printList(raw_ostream &os, const Range &items, Fn printItem) {
  os << "[";
  llvm::interleaveComma(items, os, printItem);
  os << "]";
}

namespace {
struct TestPrintTensorGraphPass
    : public PassWrapper<TestPrintTensorGraphPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintTensorGraphPass)
  StringRef getArgument() const final {
    return "test-memsched-print-tensor-graph";
  }
  StringRef getDescription() const final {
    return "Print the tasks, values and buffers memsched builds per function";
  }
  TestPrintTensorGraphPass() = default;
  TestPrintTensorGraphPass(const TestPrintTensorGraphPass &other)
      : PassWrapper(other) {}
  void runOnOperation() override;
  Option<bool> bodies{
      *this, "bodies",
      llvm::cl::desc("Also print the graph of every single-block body of "
                     "structured control flow (what memsched-reorder "
                     "orders) and its peak"),
      llvm::cl::init(false)};
};

struct TestPrintPeakMemoryPass
    : public PassWrapper<TestPrintPeakMemoryPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintPeakMemoryPass)
  StringRef getArgument() const final {
    return "test-memsched-print-peak-memory";
  }
  StringRef getDescription() const final {
    return "Print the memory simulation of each function in program order";
  }
  TestPrintPeakMemoryPass() = default;
  TestPrintPeakMemoryPass(const TestPrintPeakMemoryPass &other)
      : PassWrapper(other) {}
  void runOnOperation() override;
  Option<bool> livePeak{*this, "live-at-peak",
                        llvm::cl::desc("Also list the transient buffers live "
                                       "at the peak step, largest first"),
                        llvm::cl::init(false)};
};
} // namespace

/// Prints the graph of each single-block body of structured control flow
/// in `func`, in program order: its tasks (one per op), its allocations
/// (the tasks using them) and its peak.
static void printBodies(raw_ostream &os, func::FuncOp func,
                        const CostModel &costModel) {
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isStructuredControlFlow(op))
      return;
    for (Region &region : op->getRegions()) {
      if (!region.hasOneBlock())
        continue;
      Block &block = region.front();
      os << "  body of " << op->getName() << " region "
         << region.getRegionNumber() << " peak " << getBodyPeakBytes(block);
      std::optional<BodyGraph> graph = buildBodyGraph(block, costModel);
      if (!graph) {
        os << " order kept\n";
        continue;
      }
      const Problem &problem = graph->problem;
      os << " tasks " << problem.numTasks() << "\n";
      for (TaskId task = 0; task < TaskId(problem.numTasks()); ++task) {
        os << "    task " << task << " " << problem.task(task).name
           << " after ";
        printList(os, problem.predecessors(task),
                  [&](TaskId pred) { os << pred; });
        os << " workspace " << problem.task(task).workspaceBytes << "\n";
      }
      for (ValueId value = 0; value < ValueId(problem.numValues()); ++value) {
        const auto &info = problem.value(value);
        const Buffer &buffer = problem.buffer(info.buffer);
        os << "    allocation " << buffer.sizeBytes << " by task "
           << info.producer << " used by ";
        printList(os, info.consumers, [&](TaskId user) { os << user; });
        if (buffer.liveToEnd)
          os << " live to the end";
        os << "\n";
      }
    }
  });
}

void TestPrintTensorGraphPass::runOnOperation() {
  CostModel costModel(*DeviceSpec::getPreset("h100"));
  raw_ostream &os = llvm::outs();
  getOperation().walk([&](func::FuncOp func) {
    if (func.isExternal())
      return;
    TensorGraph graph = TensorGraph::build(func, costModel);
    graph.emitStatus("memsched");
    if (graph.getStatus() != TensorGraphStatus::Built) {
      os << "tensor-graph @" << func.getSymName()
         << " not built: " << graph.getFailureReason() << "\n";
      return;
    }
    AsmState asmState(func);
    auto printValue = [&](ValueId id) {
      graph.getValue(id).printAsOperand(os, asmState);
    };
    const Problem &problem = graph.getProblem();
    os << "tensor-graph @" << func.getSymName() << " tasks "
       << problem.numTasks() << " buffers " << problem.numBuffers()
       << " resident " << problem.residentBytes() << "\n";
    for (TaskId task = 0; task < TaskId(problem.numTasks()); ++task) {
      const OpCost &cost = graph.getCost(task);
      os << "  task " << task << " " << problem.task(task).name << " after ";
      printList(os, problem.predecessors(task),
                [&](TaskId pred) { os << pred; });
      os << " flops " << cost.flops << " bytes " << cost.bytesMoved
         << " workspace " << cost.workspaceBytes;
      if (problem.task(task).isFence)
        os << " fence";
      if (cost.isEstimate)
        os << " estimated";
      os << "\n";
    }
    // Group values by buffer so each buffer prints as one line.
    std::vector<std::vector<ValueId>> valuesOfBuffer(problem.numBuffers());
    std::vector<bool> returned(problem.numBuffers(), false);
    for (ValueId value = 0; value < ValueId(problem.numValues()); ++value) {
      valuesOfBuffer[problem.value(value).buffer].push_back(value);
      if (problem.value(value).liveToEnd)
        returned[problem.value(value).buffer] = true;
    }
    for (BufferId buffer = 0; buffer < BufferId(problem.numBuffers());
         ++buffer) {
      const Buffer &info = problem.buffer(buffer);
      // Scalars have no buffer; skip them to keep the output about memory.
      if (info.sizeBytes == 0)
        continue;
      os << "  buffer "
         << (info.kind == BufferKind::Resident ? "resident " : "transient ")
         << info.sizeBytes << " values ";
      printList(os, valuesOfBuffer[buffer], printValue);
      if (returned[buffer])
        os << " returned";
      os << "\n";
    }
    if (bodies)
      printBodies(os, func, costModel);
  });
  markAllAnalysesPreserved();
}

void TestPrintPeakMemoryPass::runOnOperation() {
  CostModel costModel(*DeviceSpec::getPreset("h100"));
  raw_ostream &os = llvm::outs();
  getOperation().walk([&](func::FuncOp func) {
    if (func.isExternal())
      return;
    FunctionReport report = analyzeFunction(func, costModel);
    if (report.status != TensorGraphStatus::Built) {
      TensorGraph::build(func, costModel).emitStatus("memsched");
      os << "peak-memory @" << report.name
         << " not built: " << report.skippedReason << "\n";
      return;
    }
    os << "peak-memory @" << report.name << " resident " << report.residentBytes
       << " peak_transient " << report.peakTransientBytes << " peak "
       << report.peakBytes << " lower_bound " << report.lowerBoundBytes
       << " max_live " << report.maxLiveBytes << " peak_step "
       << report.profile.peakStep << "\n";
    for (size_t step = 0; step < report.stepNames.size(); ++step)
      os << "  step " << step << " " << report.stepNames[step] << " live "
         << report.profile.liveBytes[step] << "\n";
    if (!livePeak)
      return;
    // The transient buffers live at the peak step, largest first, each with
    // the op that first writes it.
    TensorGraph graph = TensorGraph::build(func, costModel);
    const Problem &problem = graph.getProblem();
    std::vector<TaskId> order = problem.programOrder();
    std::optional<MemoryProfile> profile = simulateMemory(problem, order);
    if (!profile || profile->peakStep < 0)
      return;
    int32_t step = profile->peakStep;
    std::vector<BufferId> live;
    for (BufferId b = 0; b < BufferId(problem.numBuffers()); ++b)
      if (problem.buffer(b).kind == BufferKind::Transient &&
          profile->lifetimes[b].start <= step &&
          profile->lifetimes[b].end >= step && problem.buffer(b).sizeBytes > 0)
        live.push_back(b);
    llvm::stable_sort(live, [&](BufferId x, BufferId y) {
      return problem.buffer(x).sizeBytes > problem.buffer(y).sizeBytes;
    });
    std::vector<TaskId> writer(problem.numBuffers(), kNoId);
    std::vector<bool> returned(problem.numBuffers(), false);
    for (ValueId v = 0; v < ValueId(problem.numValues()); ++v) {
      const scheduling::Value &value = problem.value(v);
      if (value.producer != kNoId && writer[value.buffer] == kNoId)
        writer[value.buffer] = value.producer;
      returned[value.buffer] = returned[value.buffer] || value.liveToEnd;
    }
    os << "  live at step " << step << " (" << problem.task(order[step]).name
       << "):\n";
    for (BufferId b : live) {
      os << "    " << problem.buffer(b).sizeBytes << " B";
      if (!problem.buffer(b).name.empty())
        os << " " << problem.buffer(b).name;
      os << " lifetime " << profile->lifetimes[b].start << "-"
         << profile->lifetimes[b].end;
      if (returned[b])
        os << " returned";
      if (writer[b] != kNoId)
        os << " written by " << problem.task(writer[b]).name << " at "
           << graph.getOp(writer[b])->getLoc();
      os << "\n";
    }
  });
  markAllAnalysesPreserved();
}

namespace mlir::memsched::test {
void registerTestTensorGraphPasses() {
  PassRegistration<TestPrintTensorGraphPass>();
  PassRegistration<TestPrintPeakMemoryPass>();
}
} // namespace mlir::memsched::test
