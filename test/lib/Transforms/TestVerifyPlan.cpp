//===- TestVerifyPlan.cpp - Check planned arenas for overlaps ---*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// test-memsched-verify-plan re-derives, from the IR alone, the lifetime and
// the byte range of every view into a `memsched.arena` allocation and fails
// with an error on the first two views that are live at the same step and
// share bytes, or on a view that reaches past the end of its arena. A view
// inside a body of an op is live at that op in the enclosing block (and by
// its own steps within the body). Every planning test runs it, so an
// overlapping plan cannot pass silently.
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
  int64_t begin, end;          // Bytes [begin, end) of the arena.
  int64_t firstStep, lastStep; // In the view's own block.
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
  LogicalResult verifyArena(memref::AllocOp arena);
  /// Step numbers of each block, computed once.
  const DenseMap<Operation *, int64_t> &getSteps(Block *block);
  DenseMap<Block *, DenseMap<Operation *, int64_t>> stepsOf;
};
} // namespace

const DenseMap<Operation *, int64_t> &
TestVerifyPlanPass::getSteps(Block *block) {
  auto it = stepsOf.find(block);
  if (it == stepsOf.end())
    it = stepsOf.try_emplace(block, numberOps(*block)).first;
  return it->second;
}

/// A step at which views `a` and `b` may be live at the same time, in the
/// innermost block holding both, or std::nullopt. A view inside a
/// body is live while the op holding the body runs, at that op's step in
/// an enclosing block; two views in different regions of one op (the
/// branches of a choice, or regions that run one after the other) or in
/// different iterations are never live together, as their buffers do not
/// outlive their region.
static std::optional<int64_t>
findCommonStep(ViewRange a, ViewRange b,
               function_ref<int64_t(Operation *)> stepOf) {
  Block *blockA = a.view->getBlock(), *blockB = b.view->getBlock();
  // The innermost block holding both.
  Block *common = blockA;
  while (common && !common->findAncestorOpInBlock(*b.view))
    common =
        common->getParentOp() ? common->getParentOp()->getBlock() : nullptr;
  if (!common)
    return 0;
  auto rangeIn = [&](ViewRange &range, Block *own) {
    if (own == common)
      return std::make_pair(range.firstStep, range.lastStep);
    int64_t step = stepOf(common->findAncestorOpInBlock(*range.view));
    return std::make_pair(step, step);
  };
  if (blockA != common && blockB != common &&
      common->findAncestorOpInBlock(*a.view) ==
          common->findAncestorOpInBlock(*b.view))
    return std::nullopt;
  auto [firstA, lastA] = rangeIn(a, blockA);
  auto [firstB, lastB] = rangeIn(b, blockB);
  if (firstA <= lastB && firstB <= lastA)
    return std::max(firstA, firstB);
  return std::nullopt;
}

LogicalResult TestVerifyPlanPass::verifyArena(memref::AllocOp arena) {
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
    BufferUses uses = computeBufferUses(view.getResult(), *view->getBlock(),
                                        getSteps(view->getBlock()));
    if (!uses.isUsed() || range.begin == range.end)
      continue;
    range.firstStep = uses.firstStep;
    range.lastStep = uses.lastStep;
    ranges.push_back(range);
  }
  // Program order, so that the error lands on the later view of a pair.
  DenseMap<Operation *, int64_t> position;
  arena->getParentRegion()->walk<WalkOrder::PreOrder>(
      [&](Operation *op) { position[op] = position.size(); });
  llvm::sort(ranges, [&](ViewRange &a, ViewRange &b) {
    return position.lookup(a.view) < position.lookup(b.view);
  });
  // Pairwise: planning tests are small, and the check must stay obviously
  // right rather than fast.
  for (size_t i = 0; i < ranges.size(); ++i)
    for (size_t j = i + 1; j < ranges.size(); ++j) {
      ViewRange &a = ranges[i], &b = ranges[j];
      std::optional<int64_t> step = findCommonStep(a, b, [&](Operation *op) {
        return getSteps(op->getBlock()).lookup(op);
      });
      bool shareBytes = a.begin < b.end && b.begin < a.end;
      if (step && shareBytes) {
        InFlightDiagnostic diag = b.view.emitError()
                                  << "verify-plan: bytes [" << b.begin << ", "
                                  << b.end << ") overlap bytes [" << a.begin
                                  << ", " << a.end
                                  << ") of another view live at step " << *step;
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
  for (Operation &op : func.getBody().front()) {
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc || !alloc->hasAttr(kArenaAttrName))
      continue;
    if (failed(verifyArena(alloc)))
      return signalPassFailure();
  }
}

namespace mlir::memsched::test {
void registerTestVerifyPlanPass() { PassRegistration<TestVerifyPlanPass>(); }
} // namespace mlir::memsched::test
