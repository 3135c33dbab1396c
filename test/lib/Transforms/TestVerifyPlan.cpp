//===- TestVerifyPlan.cpp - Check planned arenas for overlaps ---*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// test-memsched-verify-plan re-derives, from the IR alone, the lifetime and
// the byte range of every view into a `memsched.arena` allocation and fails
// with an error on the first two views that are live at the same step and
// share bytes, or on a view that reaches past the end of its arena. Every
// planning test runs it, so an overlapping plan cannot pass silently.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/BufferLiveness.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct ViewRange {
  memref::ViewOp view;
  int64_t begin, end; // Bytes [begin, end) of the arena.
  int64_t firstStep, lastStep;
};

struct TestVerifyPlanPass
    : public PassWrapper<TestVerifyPlanPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestVerifyPlanPass)
  StringRef getArgument() const final { return "test-memsched-verify-plan"; }
  StringRef getDescription() const final {
    return "Check that views of a planned arena that are live together do "
           "not overlap";
  }
  void runOnOperation() override;
  LogicalResult verifyArena(memref::AllocOp arena, Block &block,
                            const DenseMap<Operation *, int64_t> &steps);
};
} // namespace

LogicalResult
TestVerifyPlanPass::verifyArena(memref::AllocOp arena, Block &block,
                                const DenseMap<Operation *, int64_t> &steps) {
  int64_t arenaBytes = arena.getType().getNumElements();
  std::vector<ViewRange> ranges;
  for (Operation *user : arena->getUsers()) {
    auto view = dyn_cast<memref::ViewOp>(user);
    if (!view)
      continue;
    APInt offset;
    if (!matchPattern(view.getByteShift(), m_ConstantInt(&offset)))
      return view.emitError("verify-plan: view offset is not a constant");
    std::optional<int64_t> bytes = getStorageBytes(view.getType());
    if (!bytes || !view.getType().hasStaticShape())
      return view.emitError("verify-plan: view has no static size");
    ViewRange range{view, offset.getSExtValue(), offset.getSExtValue() + *bytes,
                    -1, -1};
    if (range.begin < 0 || range.end > arenaBytes)
      return view.emitError()
             << "verify-plan: view bytes [" << range.begin << ", " << range.end
             << ") exceed the arena of " << arenaBytes << " bytes";
    BufferUses uses = computeBufferUses(view.getResult(), block, steps);
    if (!uses.isUsed() || range.begin == range.end)
      continue;
    range.firstStep = uses.firstStep;
    range.lastStep = uses.lastStep;
    ranges.push_back(range);
  }
  // Block order, so that the error lands on the later view of a pair.
  llvm::sort(ranges, [&](const ViewRange &a, const ViewRange &b) {
    return steps.lookup(a.view) < steps.lookup(b.view);
  });
  // Pairwise: planning tests are small, and the check must stay obviously
  // right rather than fast.
  for (size_t i = 0; i < ranges.size(); ++i)
    for (size_t j = i + 1; j < ranges.size(); ++j) {
      ViewRange &a = ranges[i], &b = ranges[j];
      bool liveTogether =
          a.firstStep <= b.lastStep && b.firstStep <= a.lastStep;
      bool shareBytes = a.begin < b.end && b.begin < a.end;
      if (liveTogether && shareBytes) {
        InFlightDiagnostic diag = b.view.emitError()
                                  << "verify-plan: bytes [" << b.begin << ", "
                                  << b.end << ") overlap bytes [" << a.begin
                                  << ", " << a.end
                                  << ") of another view live at step "
                                  << std::max(a.firstStep, b.firstStep);
        diag.attachNote(a.view.getLoc()) << "the other view";
        return failure();
      }
    }
  return success();
}

void TestVerifyPlanPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return;
  Block &block = func.getBody().front();
  DenseMap<Operation *, int64_t> steps = numberOps(block);
  for (Operation &op : block) {
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc || !alloc->hasAttr(kArenaAttrName))
      continue;
    if (failed(verifyArena(alloc, block, steps)))
      return signalPassFailure();
  }
}

namespace mlir::memsched::test {
void registerTestVerifyPlanPass() { PassRegistration<TestVerifyPlanPass>(); }
} // namespace mlir::memsched::test
