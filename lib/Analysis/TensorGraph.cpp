//===- TensorGraph.cpp - Func body as a scheduling problem ------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// Buffers follow one-shot bufferization: a destination-style result reuses its
// init's buffer when no later op reads that buffer (the read-after-write
// conflict rule, evaluated in the current op order), view ops alias their
// source, `tensor.empty` allocates at the first write, and arguments and
// constants are resident. The model is checked against real bufferization by
// `test-memsched-check-bufferization-model`.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Analysis/BufferLiveness.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"
#include "memsched/Dialect/Memsched/IR/MemschedOps.h"
#include "memsched/Scheduling/OffsetPlanner.h"
#include "llvm/Support/MathExtras.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>
#include <numeric>

using namespace mlir;
using namespace mlir::memsched;
using scheduling::AllocationRequest;
using scheduling::Buffer;
using scheduling::BufferId;
using scheduling::BufferKind;
using scheduling::kNoId;
using scheduling::OffsetPlan;
using scheduling::Problem;
using scheduling::Task;
using scheduling::TaskId;
using scheduling::ValueId;

TaskId TensorGraph::getTask(Operation *op) const {
  auto it = taskOfOp.find(op);
  return it == taskOfOp.end() ? kNoId : it->second;
}

ValueId TensorGraph::getValueId(Value value) const {
  auto it = valueIds.find(value);
  return it == valueIds.end() ? kNoId : it->second;
}

/// Row-major strides of `shape`.
static SmallVector<int64_t> getContiguousStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t dim = static_cast<int64_t>(shape.size()) - 2; dim >= 0; --dim)
    strides[dim] = strides[dim + 1] * std::max<int64_t>(shape[dim + 1], 1);
  return strides;
}

/// The memref type a buffer of `type` viewed with `strides` and `offset`
/// (std::nullopt: dynamic) has after bufferization.
static MemRefType getStridedType(RankedTensorType type,
                                 ArrayRef<int64_t> strides,
                                 std::optional<int64_t> offset) {
  auto layout = StridedLayoutAttr::get(
      type.getContext(), offset.value_or(ShapedType::kDynamic), strides);
  return MemRefType::get(type.getShape(), type.getElementType(), layout);
}

/// The strides of `collapse`'s result where its source, viewed with
/// `strides` and `offset`, collapses without a copy; std::nullopt where
/// bufferization copies it. memref.collapse_shape's own rule decides, as it
/// does for bufferization.
static std::optional<SmallVector<int64_t>>
getCollapsedStrides(tensor::CollapseShapeOp collapse, ArrayRef<int64_t> strides,
                    std::optional<int64_t> offset) {
  MemRefType source = getStridedType(collapse.getSrcType(), strides, offset);
  SmallVector<ReassociationIndices> reassociation =
      collapse.getReassociationIndices();
  if (!memref::CollapseShapeOp::isGuaranteedCollapsible(source, reassociation))
    return std::nullopt;
  MemRefType collapsed =
      memref::CollapseShapeOp::computeCollapsedType(source, reassociation);
  SmallVector<int64_t> collapsedStrides;
  int64_t collapsedOffset;
  if (failed(collapsed.getStridesAndOffset(collapsedStrides, collapsedOffset)))
    return std::nullopt;
  return collapsedStrides;
}

/// The source `op` would view if its layout allows: slices, casts,
/// reshapes and other view-like ops; null for anything else.
Value mlir::memsched::getViewCandidateSource(Operation *op) {
  if (auto view = dyn_cast<ViewLikeOpInterface>(op))
    return view.getViewSource();
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
          [](auto reshape) -> Value { return reshape.getSrc(); })
      .Case<tensor::ExtractSliceOp, tensor::CastOp, tensor::ReshapeOp,
            tensor::BitcastOp>(
          [](auto viewOp) -> Value { return viewOp.getSource(); })
      .Default([](Operation *) { return Value(); });
}

/// The layout of the buffer `value` is (a view of): its strides and offset
/// in elements (std::nullopt: dynamic), and whether it is its whole buffer
/// with row-major strides (what memref.reshape needs).
struct ViewLayout {
  SmallVector<int64_t> strides;
  bool identity = true;
  std::optional<int64_t> offset = 0;
};

/// Whether `value` is a result of a branch (`scf.if`, `scf.index_switch`)
/// with a static shape: the lowering pipelines make it a tensor of its own
/// before bufferization (memsched-region-results-outside), with the
/// identity layout, into which every branch writes.
static bool hasBranchResultBuffer(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return isa_and_nonnull<scf::IfOp, scf::IndexSwitchOp>(
             value.getDefiningOp()) &&
         type && type.hasStaticShape();
}

/// The layout of `value`'s buffer view; std::nullopt where it is not known
/// statically (dynamic strides, a loop-carried argument or a control-flow
/// result, whose layout bufferization may make fully dynamic). One walk up
/// the chain of views.
static std::optional<ViewLayout> getViewLayout(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  ViewLayout contiguous{getContiguousStrides(type.getShape()), true, 0};
  Operation *def = value.getDefiningOp();
  if (!def) {
    // A function argument is a buffer of its own; a region's argument
    // carries whatever layout its op passes in.
    auto argument = cast<BlockArgument>(value);
    if (isa<func::FuncOp>(argument.getOwner()->getParentOp()))
      return contiguous;
    return std::nullopt;
  }
  if (hasBranchResultBuffer(value))
    return contiguous;
  if (isStructuredControlFlow(def))
    return std::nullopt;
  Value source = getViewCandidateSource(def);
  if (!source)
    return contiguous;
  std::optional<ViewLayout> sourceLayout = getViewLayout(source);
  auto sourceType = cast<RankedTensorType>(source.getType());
  // A reshape or collapse that cannot view its source copies it into a
  // buffer of its own.
  if (isa<tensor::CollapseShapeOp, tensor::ReshapeOp>(def)) {
    if (!sourceLayout || !sourceType.hasStaticShape())
      return contiguous;
    bool views;
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def))
      views = getCollapsedStrides(collapse, sourceLayout->strides,
                                  sourceLayout->offset)
                  .has_value();
    else
      views = sourceLayout->identity;
    if (!views)
      return contiguous;
  }
  if (!sourceLayout)
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<ViewLayout>>(def)
      .Case<tensor::ExtractSliceOp>(
          [&](tensor::ExtractSliceOp slice) -> std::optional<ViewLayout> {
            if (ShapedType::isDynamicShape(slice.getStaticStrides()))
              return std::nullopt;
            llvm::SmallBitVector dropped = slice.getDroppedDims();
            ViewLayout layout;
            for (auto [dim, step] : llvm::enumerate(slice.getStaticStrides()))
              if (!dropped.test(dim))
                layout.strides.push_back(sourceLayout->strides[dim] * step);
            layout.offset = sourceLayout->offset;
            for (auto [dim, start] : llvm::enumerate(slice.getStaticOffsets()))
              if (layout.offset && !ShapedType::isDynamic(start))
                *layout.offset += start * sourceLayout->strides[dim];
              else
                layout.offset = std::nullopt;
            // A slice of a whole buffer is the buffer's layout only when it
            // is the whole buffer.
            layout.identity =
                sourceLayout->identity && slice.getType() == sourceType;
            return layout;
          })
      .Case<tensor::ExpandShapeOp>(
          [&](tensor::ExpandShapeOp expand) -> std::optional<ViewLayout> {
            ViewLayout layout{SmallVector<int64_t>(type.getRank(), 1),
                              sourceLayout->identity, sourceLayout->offset};
            for (auto [sourceDim, group] :
                 llvm::enumerate(expand.getReassociationIndices())) {
              int64_t stride = sourceLayout->strides[sourceDim];
              for (int64_t dim : llvm::reverse(group)) {
                layout.strides[dim] = stride;
                stride *= type.getDimSize(dim);
              }
            }
            return layout;
          })
      .Case<tensor::CollapseShapeOp>(
          [&](tensor::CollapseShapeOp collapse) -> std::optional<ViewLayout> {
            std::optional<SmallVector<int64_t>> strides = getCollapsedStrides(
                collapse, sourceLayout->strides, sourceLayout->offset);
            if (!strides || llvm::any_of(*strides, ShapedType::isDynamic))
              return std::nullopt;
            return ViewLayout{*strides, sourceLayout->identity,
                              sourceLayout->offset};
          })
      .Case<tensor::ReshapeOp>(
          [&](Operation *) -> std::optional<ViewLayout> { return contiguous; })
      .Case<tensor::CastOp, tensor::BitcastOp>(
          [&](Operation *) { return sourceLayout; })
      .Default([](Operation *) { return std::nullopt; });
}

/// Returns the source whose buffer `op`'s results alias, for ops that
/// bufferize to views; null otherwise. A collapse or tensor.reshape views
/// its source only where the layout allows (merging dims, an identity
/// layout); otherwise bufferization copies.
static Value getViewSource(Operation *op) {
  Value source = getViewCandidateSource(op);
  if (!source || !isa<tensor::CollapseShapeOp, tensor::ReshapeOp>(op))
    return source;
  auto sourceType = cast<RankedTensorType>(source.getType());
  std::optional<ViewLayout> layout = getViewLayout(source);
  if (!layout || !sourceType.hasStaticShape())
    return Value();
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return getCollapsedStrides(collapse, layout->strides, layout->offset)
               ? source
               : Value();
  return layout->identity ? source : Value();
}

/// Whether the buffer one-shot bufferization gives `value` may have a
/// layout other than the identity in its type: a slice, a view of such a
/// buffer, or a choice (`scf.if`, `scf.index_switch`, `scf.execute_region`)
/// one of whose regions yields such a buffer, which bufferization then gives
/// a fully dynamic layout.
static bool mayHaveStridedType(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<tensor::ExtractSliceOp>(def))
    return true;
  if (hasBranchResultBuffer(value))
    return false;
  if (isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(def)) {
    unsigned index = cast<OpResult>(value).getResultNumber();
    return llvm::any_of(def->getRegions(), [&](Region &region) {
      return llvm::any_of(region, [&](Block &block) {
        Operation *terminator = block.getTerminator();
        return index < terminator->getNumOperands() &&
               mayHaveStridedType(terminator->getOperand(index));
      });
    });
  }
  Value source = getViewSource(def);
  return source && mayHaveStridedType(source);
}

bool mlir::memsched::isCopiedAtFunctionBoundary(Value value) {
  Operation *def = value.getDefiningOp();
  if (isa_and_nonnull<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(def))
    return mayHaveStridedType(value);
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!def || !getViewSource(def) || !type || !type.hasStaticShape())
    return false;
  std::optional<ViewLayout> layout = getViewLayout(value);
  return !layout || layout->offset != 0 ||
         layout->strides != getContiguousStrides(type.getShape());
}

/// Returns true if `op` reads the buffer of `initValue`'s init through another
/// operand in a way that forbids writing in place: one-shot bufferization only
/// allows it when every access is elementwise (all loops parallel, every
/// access to the shared buffer by the identity map).
static bool readsInitBufferElsewhere(Operation *op, OpOperand *init,
                                     BufferId initBuffer,
                                     function_ref<BufferId(Value)> bufferOf) {
  // A tensor read inside the payload (tensor.extract) is read at arbitrary
  // positions, so one-shot bufferization never writes it in place.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  if (llvm::any_of(captured, [&](Value value) {
        return isa<ShapedType>(value.getType()) &&
               bufferOf(value) == initBuffer;
      }))
    return true;
  bool aliasedElsewhere =
      llvm::any_of(op->getOpOperands(), [&](OpOperand &use) {
        return &use != init && isa<ShapedType>(use.get().getType()) &&
               bufferOf(use.get()) == initBuffer;
      });
  if (!aliasedElsewhere)
    return false;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return true;
  // As one-shot bufferization's bufferizesToElementwiseAccess: all loops
  // parallel and every access to the shared buffer (the init included) by
  // the identity map; other operands (e.g. a broadcast bias) may use any
  // map.
  if (linalgOp.getNumLoops() != linalgOp.getNumParallelLoops())
    return true;
  for (OpOperand &use : op->getOpOperands()) {
    if (!isa<ShapedType>(use.get().getType()))
      continue;
    if (&use != init && bufferOf(use.get()) != initBuffer)
      continue;
    if (!linalgOp.getMatchingIndexingMap(&use).isIdentity())
      return true;
  }
  return false;
}

/// Ops whose regions are payloads evaluated as part of the op itself.
static bool hasPayloadRegionsOnly(Operation *op) {
  return isa<linalg::LinalgOp, tensor::PadOp, tensor::GenerateOp>(op);
}

static bool isDestinationOnlyEmpty(Operation *op);

/// Whether `op`, nested in control flow, allocates its tensor results: not
/// a view, an empty tensor allocated lazily at its writers, a constant (a
/// global) or a terminator. An empty tensor that is read (a pooling
/// window) is allocated where it is made. Nested control flow counts its
/// results as new buffers too (an upper bound: a nested loop may reuse its
/// init).
static bool allocatesResults(Operation *op) {
  return !getViewSource(op) && !isDestinationOnlyEmpty(op) &&
         !op->hasTrait<OpTrait::ConstantLike>() &&
         !op->hasTrait<OpTrait::IsTerminator>();
}

/// Whether destination-style `op` computes a tile of an scf.forall's shared
/// output in place: `init` is an extract_slice of a shared output of the
/// forall whose body holds `op`, and the tied result goes back, as the only
/// use of either, through a parallel_insert_slice at the same offsets,
/// sizes and strides. The output is read by nothing else in the body.
/// One-shot bufferization writes such a tile into the output's buffer (the
/// insertion's copy folds away).
static bool isComputedInForallTile(Operation *op, OpOperand &init) {
  auto slice = init.get().getDefiningOp<tensor::ExtractSliceOp>();
  auto dps = dyn_cast<DestinationStyleOpInterface>(op);
  if (!slice || !dps || !slice->hasOneUse())
    return false;
  auto shared = dyn_cast<BlockArgument>(slice.getSource());
  auto forall = shared
                    ? dyn_cast<scf::ForallOp>(shared.getOwner()->getParentOp())
                    : scf::ForallOp();
  if (!forall || shared.getOwner() != op->getBlock() ||
      !llvm::is_contained(forall.getRegionIterArgs(), shared))
    return false;
  Value result = dps.getTiedOpResult(&init);
  if (!result.hasOneUse())
    return false;
  auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(*result.user_begin());
  if (!insert || insert.getDest() != shared ||
      !isa<scf::InParallelOp>(insert->getParentOp()))
    return false;
  auto sameSlice = [](ArrayRef<OpFoldResult> a, ArrayRef<OpFoldResult> b) {
    return a.size() == b.size() && llvm::all_of(llvm::zip(a, b), [](auto pair) {
             return isEqualConstantIntOrValue(std::get<0>(pair),
                                              std::get<1>(pair));
           });
  };
  if (!sameSlice(slice.getMixedOffsets(), insert.getMixedOffsets()) ||
      !sameSlice(slice.getMixedSizes(), insert.getMixedSizes()) ||
      !sameSlice(slice.getMixedStrides(), insert.getMixedStrides()))
    return false;
  return llvm::all_of(shared.getUsers(), [&](Operation *user) {
    return user == slice || isa<tensor::ParallelInsertSliceOp>(user);
  });
}

/// Whether one-shot bufferization counts view `op` as a read of its source,
/// even where nothing reads the view: a collapse or reshape may copy.
static bool isViewThatReads(Operation *op) {
  return isa<tensor::CollapseShapeOp, tensor::ReshapeOp>(op);
}

/// Whether `op` reshapes its source in place (a view of the same buffer).
static bool isReshapeView(Operation *op) {
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op) &&
         getViewSource(op);
}

/// Whether nested destination-style `op` writes its result into `init`'s
/// buffer for sure, as one-shot bufferization does when nothing reads that
/// buffer afterwards: the buffer (`init`, or what the reshapes `init` is
/// made by view) is read otherwise only as an input of destination-style
/// ops before `op` in the block (directly or through reshapes), `op`
/// reads it besides as its destination only through `init` and
/// elementwise, and it is a loop-carried block argument or the result of a
/// computation of the same block. Anything else counts as an allocation.
/// (Counting one where bufferization writes in place is not a safe side:
/// two lifetimes can pack where the one they make would not.)
static bool writesIntoInitForSure(Operation *op, OpOperand &init) {
  Value value = init.get();
  Block *block = op->getBlock();
  Value root = value;
  while (Operation *def = root.getDefiningOp()) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
      break;
    if (!isReshapeView(def))
      return false;
    root = getViewSource(def);
  }
  // Every use of `viewed` (a view of the buffer) is `op` or a read before.
  std::function<bool(Value)> readBeforeOp = [&](Value viewed) {
    return llvm::all_of(viewed.getUsers(), [&](Operation *user) {
      if (user == op)
        return viewed == value;
      if (isReshapeView(user) &&
          (!isViewThatReads(user) ||
           (user->getBlock() == block && user->isBeforeInBlock(op))))
        return readBeforeOp(user->getResult(0));
      if (user->getBlock() != block || !user->isBeforeInBlock(op) ||
          getViewCandidateSource(user))
        return false;
      auto dps = dyn_cast<DestinationStyleOpInterface>(user);
      return dps && llvm::all_of(user->getOpOperands(), [&](OpOperand &use) {
               return use.get() != viewed || dps.isDpsInput(&use);
             });
    });
  };
  if (!readBeforeOp(root))
    return false;
  if (llvm::count_if(op->getOpOperands(),
                     [&](OpOperand &use) { return use.get() == value; }) > 1) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || linalgOp.getNumLoops() != linalgOp.getNumParallelLoops())
      return false;
    for (OpOperand &use : op->getOpOperands())
      if (use.get() == value &&
          !linalgOp.getMatchingIndexingMap(&use).isIdentity())
        return false;
  }
  if (auto argument = dyn_cast<BlockArgument>(root)) {
    auto loop =
        dyn_cast<LoopLikeOpInterface>(argument.getOwner()->getParentOp());
    return loop && argument.getOwner() == block &&
           llvm::is_contained(loop.getRegionIterArgs(), argument);
  }
  if (root == value && isComputedInForallTile(op, init))
    return true;
  Operation *def = root.getDefiningOp();
  return def->getBlock() == block && !getViewSource(def) &&
         !isa<tensor::EmptyOp>(def) &&
         !def->hasTrait<OpTrait::ConstantLike>() &&
         !isStructuredControlFlow(def);
}

/// Whether `result` of an op nested in control flow is a new allocation.
static bool allocatesResult(OpResult result) {
  Operation *op = result.getOwner();
  if (!allocatesResults(op))
    return false;
  auto dps = dyn_cast<DestinationStyleOpInterface>(op);
  return !dps || !isa<RankedTensorType>(result.getType()) ||
         !writesIntoInitForSure(op, *dps.getTiedOpOperand(result));
}

static int64_t getTensorBytes(Value value) {
  if (!isa<RankedTensorType>(value.getType()))
    return 0;
  return getStorageBytes(value.getType()).value_or(0);
}

/// The bytes a loop body holds for the values `forOp`'s body yields in
/// place of its carried ones: a copy of each (unless the body allocated it)
/// and the previous iteration's buffer, live while the new one is made. A
/// yield of the carried argument, or of writes in place into it, holds
/// nothing.
static int64_t getYieldCopyBytes(scf::ForOp forOp) {
  Block *body = forOp.getBody();
  int64_t bytes = 0;
  for (auto [yielded, carried] : llvm::zip(body->getTerminator()->getOperands(),
                                           forOp.getRegionIterArgs())) {
    Value root = yielded;
    while (auto result = dyn_cast<OpResult>(root)) {
      Operation *def = result.getOwner();
      if (def->getBlock() != body || allocatesResult(result))
        break;
      auto dps = dyn_cast<DestinationStyleOpInterface>(def);
      if (!dps || getViewSource(def))
        break;
      root = dps.getTiedOpOperand(result)->get();
    }
    bool fresh = isa<OpResult>(root) &&
                 cast<OpResult>(root).getOwner()->getBlock() == body &&
                 allocatesResult(cast<OpResult>(root));
    if (root == carried)
      continue;
    // A copy unless the body allocated it; either way the previous
    // iteration's buffer is still live while this one is made.
    if (!fresh)
      bytes += getTensorBytes(yielded);
    bytes += getTensorBytes(yielded);
  }
  return bytes;
}

/// The bytes `whileOp` holds for the values its regions pass each other:
/// every one counted twice (a copy and the previous iteration's), whatever
/// it is.
static int64_t getWhileCarriedBytes(scf::WhileOp whileOp) {
  int64_t bytes = 0;
  for (Region *region : {&whileOp.getBefore(), &whileOp.getAfter()})
    for (Block &block : *region)
      for (Value passed : block.getTerminator()->getOperands())
        bytes += 2 * getTensorBytes(passed);
  return bytes;
}

static int64_t getBodyAllocationBytes(Operation *op);

namespace {
/// An allocation of one body, as the body model sees it.
struct BodyAllocation {
  /// The value the allocation is made for.
  Value value;
  int64_t bytes = 0;
  /// The step (position in the block) of the op making it, and the steps
  /// of the ops using it, a view of it or a write in place into it.
  int64_t producer = 0;
  SmallVector<int64_t> users;
  /// It leaves the planner's reach: a loop yields it, it is passed into
  /// nested control flow or to a call. Lives to the end of the block.
  bool escapes = false;
  /// A choice yields it (the allocation itself): it is the op's result,
  /// counted there.
  bool isResult = false;
};

/// The memory of one body: its allocations, and per step what the op holds
/// while it runs (nested bodies, a callee's workspace).
struct BodyMemory {
  std::vector<BodyAllocation> allocations;
  std::vector<int64_t> workspaces;
};
} // namespace

/// Collects the memory of `block`, a body of control-flow op `owner`.
static BodyMemory collectBodyMemory(Block &block, Operation *owner) {
  bool yieldsAreResults =
      isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(owner);
  BodyMemory memory;
  DenseMap<Value, size_t> allocationOf;
  int64_t step = 0;
  for (Operation &op : block) {
    bool isTerminator = op.hasTrait<OpTrait::IsTerminator>();
    // Operands of the op itself that leave the block's control.
    bool operandsEscape = (isTerminator && !isa<scf::InParallelOp>(op)) ||
                          isStructuredControlFlow(&op) ||
                          isa<CallOpInterface>(op);
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        auto it = allocationOf.find(operand);
        if (it == allocationOf.end())
          continue;
        BodyAllocation &allocation = memory.allocations[it->second];
        if (allocation.users.empty() || allocation.users.back() != step)
          allocation.users.push_back(step);
        if (nested == &op && operandsEscape) {
          // What a choice yields is its result where it is the allocation
          // itself. A write in place into it may be copied by
          // bufferization: then the allocation stays in the body, planned,
          // to the end of the block (the terminator is its last use).
          if (!isTerminator || !yieldsAreResults)
            allocation.escapes = true;
          else if (operand == allocation.value)
            allocation.isResult = true;
        }
      }
    });
    for (OpResult result : op.getResults()) {
      if (!isa<RankedTensorType>(result.getType()))
        continue;
      if (allocatesResult(result)) {
        allocationOf[result] = memory.allocations.size();
        memory.allocations.push_back({result, getTensorBytes(result), step});
        continue;
      }
      Value source = getViewSource(&op);
      if (!source)
        if (auto dps = dyn_cast<DestinationStyleOpInterface>(&op))
          source = dps.getTiedOpOperand(result)->get();
      auto it = source ? allocationOf.find(source) : allocationOf.end();
      if (it != allocationOf.end())
        allocationOf[result] = it->second;
    }
    int64_t workspace = 0;
    if (isStructuredControlFlow(&op))
      workspace = getBodyAllocationBytes(&op);
    // What a callee holds while it runs (memsched-annotate-calls).
    else if (auto bytes = op.getAttrOfType<IntegerAttr>(kWorkspaceAttrName))
      workspace = std::max<int64_t>(bytes.getInt(), 0);
    memory.workspaces.push_back(workspace);
    ++step;
  }
  return memory;
}

/// The bytes one run of `block`, a body of control-flow op `owner`, holds
/// at its peak. memsched-plan-buffers places a single-block body's
/// allocations in an arena of their own, each from the op making it to the
/// last op using it (nested bodies at their op), with the offset planner
/// the footprint uses. What it cannot place lives to the end of the block,
/// beside that arena, and so does everything a body it does not plan
/// holds (a region of several blocks, scf.forall's body): deallocation
/// frees it at the end of its block.
static int64_t getBlockPeakBytes(Block &block, Operation *owner) {
  bool isPlanned =
      block.getParent()->hasOneBlock() && hasSequentialBodies(owner);
  BodyMemory memory = collectBodyMemory(block, owner);
  std::vector<AllocationRequest> requests;
  int64_t unplannedBytes = 0;
  for (auto [step, workspace] : llvm::enumerate(memory.workspaces))
    if (workspace > 0)
      requests.push_back({-1, static_cast<int64_t>(step),
                          static_cast<int64_t>(step), workspace});
  for (const BodyAllocation &allocation : memory.allocations) {
    if (allocation.escapes || !isPlanned) {
      if (!allocation.isResult)
        unplannedBytes += allocation.bytes;
    } else if (!allocation.isResult && allocation.bytes > 0)
      requests.push_back({0, allocation.producer,
                          allocation.users.empty() ? allocation.producer
                                                   : allocation.users.back(),
                          allocation.bytes});
  }
  int64_t arenaBytes = 0;
  std::optional<OffsetPlan> plan;
  if (isPlanned)
    plan = scheduling::planOffsets(requests, {});
  if (plan)
    arenaBytes = plan->arenaBytes;
  else
    for (const AllocationRequest &request : requests)
      arenaBytes += request.sizeBytes;
  return arenaBytes + unplannedBytes;
}

int64_t mlir::memsched::getBodyPeakBytes(Block &block) {
  return getBlockPeakBytes(block, block.getParentOp());
}

std::optional<BodyGraph>
mlir::memsched::buildBodyGraph(Block &block, const CostModel &costModel) {
  if (!block.getParent()->hasOneBlock() || block.empty() ||
      !block.back().hasTrait<OpTrait::IsTerminator>())
    return std::nullopt;
  BodyGraph graph;
  for (Operation &op : block.without_terminator()) {
    // Side effects keep their order: such a body is left as it is.
    if (!isMemoryEffectFree(&op))
      return std::nullopt;
    graph.ops.push_back(&op);
  }
  BodyMemory memory = collectBodyMemory(block, block.getParentOp());
  Problem &problem = graph.problem;
  DenseMap<Operation *, TaskId> taskOf;
  for (auto [index, op] : llvm::enumerate(graph.ops)) {
    Task task;
    task.name = op->getName().getStringRef().str();
    task.duration = costModel.getCost(op).seconds;
    task.workspaceBytes = memory.workspaces[index];
    taskOf[op] = problem.addTask(task);
  }
  // The block's def-use edges, uses inside an op's regions included.
  for (Operation *op : graph.ops) {
    TaskId user = taskOf.lookup(op);
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && def != op && def->getBlock() == &block)
          problem.addDependence(taskOf.lookup(def), user);
      }
    });
  }
  int64_t numTasks = static_cast<int64_t>(graph.ops.size());
  for (const BodyAllocation &allocation : memory.allocations) {
    Buffer buffer;
    buffer.sizeBytes = allocation.bytes;
    buffer.kind = BufferKind::Transient;
    // What the terminator uses lives to the end of the body.
    buffer.liveToEnd =
        allocation.escapes || allocation.isResult ||
        (!allocation.users.empty() && allocation.users.back() >= numTasks);
    BufferId bufferId = problem.addBuffer(buffer);
    scheduling::Value value;
    value.sizeBytes = allocation.bytes;
    value.buffer = bufferId;
    value.producer = static_cast<TaskId>(allocation.producer);
    ValueId valueId = problem.addValue(value);
    for (int64_t user : allocation.users)
      if (user != allocation.producer && user < numTasks)
        problem.addConsumer(valueId, static_cast<TaskId>(user));
  }
  return graph;
}

/// The bytes the bodies of control-flow op `op` hold at most while it runs,
/// besides its results: one run of a body (getBlockPeakBytes), of a choice
/// its larger region, and the values a loop carries from one iteration to
/// the next.
static int64_t getBodyAllocationBytes(Operation *op) {
  bool isChoice = isa<scf::IfOp, scf::IndexSwitchOp>(op);
  int64_t total = 0;
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    total += getYieldCopyBytes(forOp);
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    total += getWhileCarriedBytes(whileOp);
  int64_t bodies = 0;
  for (Region &region : op->getRegions()) {
    int64_t bytes = 0;
    for (Block &block : region)
      bytes += getBlockPeakBytes(block, op);
    bodies = isChoice ? std::max(bodies, bytes) : bodies + bytes;
  }
  return total + bodies;
}

/// Returns a description of the first type in `types` that the memory model
/// cannot size, or std::nullopt.
static std::optional<Type> findUnsizedType(TypeRange types) {
  for (Type type : types) {
    if (isa<ShapedType>(type) && !getStorageBytes(type))
      return type;
  }
  return std::nullopt;
}

namespace mlir::memsched {

/// Walks a function body once, in order, and fills a TensorGraph.
class TensorGraphBuilder {
public:
  TensorGraphBuilder(TensorGraph &graph, func::FuncOp func,
                     const CostModel &costModel)
      : graph(graph), func(func), costModel(costModel) {}

  void run();

private:
  /// Per-buffer state needed to decide in-place writes.
  struct BufferState {
    /// Last position (op index) at which any value of the buffer is used,
    /// and the same without the insertions of pieces computed in place
    /// into their destinations (what a write into such a slice may ignore).
    int64_t lastUse = -1;
    int64_t lastUseOutsideSlices = -1;
    /// Tasks that read the buffer since its last in-place write; a new
    /// in-place write must follow them.
    SmallVector<TaskId> readersSinceWrite;
    /// Constants are read-only; writes to them always get a new buffer.
    bool isReadOnly = false;
  };

  LogicalResult checkStructure();
  /// Decides which ops form each task (see TensorGraph.h).
  void groupOps();
  BufferId addBuffer(Value root, BufferKind kind, bool isReadOnly);
  void addNestedConstants(Block &block);
  ValueId addValue(Value value, BufferId buffer, TaskId producer);
  void addResults(Operation *op, TaskId task, int64_t position);
  /// Task::inPlaceWrites of every task, once the problem is complete.
  void recordInPlaceWrites();

  TensorGraph &graph;
  func::FuncOp func;
  const CostModel &costModel;
  Problem &problem = graph.problem;
  std::vector<BufferState> bufferStates;
  DenseMap<Value, int64_t> lastUse;
  /// lastUse without the uses of a destination by the insertion of a piece
  /// computed in place in its slice (getInPlaceSliceSource).
  DenseMap<Value, int64_t> lastUseOutsideSlices;
  /// The ops computing such pieces: they write inside their slice, which
  /// those insertions (theirs, and any enclosing one) do not read.
  DenseSet<Operation *> sliceWriters;
  /// Those insertions.
  DenseSet<Operation *> sliceInsertions;
  /// The operands of the return that it copies (isCopiedAtFunctionBoundary);
  /// when there are any, the return is the last task.
  SmallVector<unsigned> returnCopies;
};

} // namespace mlir::memsched

LogicalResult TensorGraphBuilder::checkStructure() {
  Region &body = func.getBody();
  auto fail = [&](TensorGraphStatus status, Location loc, std::string reason,
                  std::string message) {
    graph.status = status;
    graph.failureReason = std::move(reason);
    graph.failureLoc = loc;
    graph.failureMessage = std::move(message);
    return failure();
  };
  if (!body.hasOneBlock()) {
    size_t blocks = body.getBlocks().size();
    return fail(TensorGraphStatus::Failed, func.getLoc(),
                "function has " + std::to_string(blocks) +
                    " blocks; memsched handles single-block functions",
                "cannot analyze '@" + func.getSymName().str() + "': it has " +
                    std::to_string(blocks) +
                    " blocks, only single-block functions are supported");
  }
  auto printType = [](Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "'" << type << "'";
    return text;
  };
  // Dynamic shapes, or an element type whose storage the lowering does not
  // define (the f8, f6 and f4 families, tf32, opaque types).
  auto describeUnsized = [](Type type) -> std::string {
    auto shaped = cast<ShapedType>(type);
    if (shaped.hasRank() && shaped.hasStaticShape())
      return " has an element type memsched cannot size (supported: "
             "integers, index, f16, bf16, f32, f64, f80, f128 and complex "
             "of those)";
    return " has no static size";
  };
  auto tooLarge = [&](Location loc, Type type) {
    return fail(TensorGraphStatus::Failed, loc, "tensor too large",
                "cannot analyze '@" + func.getSymName().str() +
                    "': " + printType(type) +
                    " holds more than 2^62 bytes, the largest size memsched "
                    "plans with");
  };
  if (std::optional<Type> type = findUnsizedType(func.getArgumentTypes())) {
    if (exceedsStorageLimit(*type))
      return tooLarge(func.getLoc(), *type);
    return fail(TensorGraphStatus::Skipped, func.getLoc(),
                "dynamic or unsized argument type",
                "leaves '@" + func.getSymName().str() +
                    "' unchanged: argument type " + printType(*type) +
                    describeUnsized(*type));
  }
  // Every op of the body, those inside control flow included: a loop's
  // memory is its body's.
  Operation *unsupported = nullptr;
  Operation *unsized = nullptr;
  std::optional<Type> unsizedType;
  for (Operation &top : body.front()) {
    top.walk<WalkOrder::PreOrder>([&](Operation *op) {
      // scf.forall's terminator holds its parallel insertions.
      if (op->getNumRegions() != 0 && !hasPayloadRegionsOnly(op) &&
          !isStructuredControlFlow(op) && !isa<scf::InParallelOp>(op)) {
        unsupported = op;
        return WalkResult::interrupt();
      }
      std::optional<Type> type = findUnsizedType(op->getOperandTypes());
      if (!type)
        type = findUnsizedType(op->getResultTypes());
      if (type) {
        unsized = op;
        unsizedType = type;
        return WalkResult::interrupt();
      }
      // A payload (linalg's scalar body) holds nothing to plan.
      return hasPayloadRegionsOnly(op) ? WalkResult::skip()
                                       : WalkResult::advance();
    });
    if (unsupported)
      return fail(TensorGraphStatus::Failed, unsupported->getLoc(),
                  "op with regions",
                  "cannot schedule an op with regions ('" +
                      unsupported->getName().getStringRef().str() +
                      "'; supported: linalg, tensor.pad and tensor.generate "
                      "payloads, and scf.for, scf.forall, scf.if, scf.while, "
                      "scf.execute_region and scf.index_switch)");
    if (unsized && exceedsStorageLimit(*unsizedType))
      return tooLarge(unsized->getLoc(), *unsizedType);
    if (unsized)
      return fail(TensorGraphStatus::Skipped, unsized->getLoc(),
                  "dynamic or unsized tensor type",
                  "leaves '@" + func.getSymName().str() + "' unchanged: " +
                      printType(*unsizedType) + describeUnsized(*unsizedType));
  }
  return success();
}

/// Whether `op` is a destination-only `tensor.empty`: it allocates nothing
/// itself, and every op writing into it allocates at its write.
static bool isDestinationOnlyEmpty(Operation *op) {
  if (!isa<tensor::EmptyOp>(op) || op->getNumOperands() != 0)
    return false;
  return llvm::all_of(op->getUses(), [](OpOperand &use) {
    auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
    return dps && dps.isDpsInit(&use);
  });
}

void TensorGraphBuilder::groupOps() {
  Block &block = func.getBody().front();
  DenseSet<Operation *> free;
  auto isFreeValue = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return !def || free.contains(def);
  };
  // Fills folded into the one computation that reads them, by reader.
  DenseMap<Operation *, SmallVector<Operation *, 1>> foldedBefore;
  for (Operation &op : block.without_terminator()) {
    Value viewSource = getViewSource(&op);
    bool isFree = op.hasTrait<OpTrait::ConstantLike>() ||
                  isDestinationOnlyEmpty(&op) ||
                  (viewSource && isFreeValue(viewSource));
    if (isFree) {
      free.insert(&op);
      graph.freeOps.push_back(&op);
      continue;
    }
    if (viewSource) {
      // A view of a task's result moves with that task.
      TaskId owner = graph.getTask(viewSource.getDefiningOp());
      if (owner != kNoId) {
        graph.taskOps[owner].push_back(&op);
        graph.taskOfOp[&op] = owner;
        continue;
      }
    }
    if (auto fill = dyn_cast<linalg::FillOp>(&op)) {
      // A fill of an empty destination read by one computation initialises
      // that computation's buffer.
      Operation *reader = nullptr;
      bool oneReader = !fill->use_empty() &&
                       llvm::all_of(fill->getUsers(), [&](Operation *user) {
                         if (reader && user != reader)
                           return false;
                         reader = user;
                         return true;
                       });
      // Only a fill right before its reader (constants, empties and other
      // fills folded into it between them) is folded: bufferization allocates
      // at the fill, so one far ahead holds its buffer from there.
      bool nextToReader = false;
      for (Operation *next = op.getNextNode(); next;
           next = next->getNextNode()) {
        if (next == reader) {
          nextToReader = true;
          break;
        }
        // Another fill between them only if it is folded into the same
        // reader: one that runs on its own would run while this one's
        // buffer is already allocated.
        auto nextFill = dyn_cast<linalg::FillOp>(next);
        Operation *nextInit =
            nextFill ? nextFill.getOutputs()[0].getDefiningOp() : nullptr;
        bool foldedFill = nextInit && isDestinationOnlyEmpty(nextInit) &&
                          !next->use_empty() &&
                          llvm::all_of(next->getUsers(), [&](Operation *user) {
                            return user == reader;
                          });
        if (!next->hasTrait<OpTrait::ConstantLike>() &&
            !isDestinationOnlyEmpty(next) && !foldedFill)
          break;
      }
      Operation *init = fill.getOutputs()[0].getDefiningOp();
      if (oneReader && nextToReader && init && free.contains(init) &&
          isa<tensor::EmptyOp>(init) && reader->getBlock() == &block &&
          !reader->hasTrait<OpTrait::IsTerminator>() &&
          !getViewSource(reader) && !isa<linalg::FillOp>(reader)) {
        foldedBefore[reader].push_back(&op);
        continue;
      }
    }
    TaskId task = static_cast<TaskId>(graph.ops.size());
    graph.ops.push_back(&op);
    SmallVector<Operation *, 1> ops(foldedBefore.lookup(&op));
    ops.push_back(&op);
    for (Operation *member : ops)
      graph.taskOfOp[member] = task;
    graph.taskOps.push_back(std::move(ops));
  }
  // The copies bufferization makes of returned views are made by the
  // return, a task of its own after every other.
  Operation *terminator = block.getTerminator();
  for (OpOperand &returned : terminator->getOpOperands())
    if (isCopiedAtFunctionBoundary(returned.get()))
      returnCopies.push_back(returned.getOperandNumber());
  if (returnCopies.empty())
    return;
  graph.returnTask = static_cast<TaskId>(graph.ops.size());
  graph.ops.push_back(terminator);
  graph.taskOfOp[terminator] = graph.returnTask;
  graph.taskOps.push_back({terminator});
}

BufferId TensorGraphBuilder::addBuffer(Value root, BufferKind kind,
                                       bool isReadOnly) {
  Buffer buffer;
  buffer.sizeBytes = getStorageBytes(root.getType()).value_or(0);
  // Scalars live in registers, not in buffers.
  if (!isa<ShapedType>(root.getType()))
    buffer.sizeBytes = 0;
  buffer.kind = kind;
  BufferId id = problem.addBuffer(std::move(buffer));
  BufferState state;
  state.isReadOnly = isReadOnly;
  bufferStates.push_back(std::move(state));
  return id;
}

/// The tensor constants inside control-flow bodies are resident too: the
/// lowering makes each distinct one a global, which the device holds from
/// entry (memsched-device-boundary). One buffer per distinct constant not
/// also at the top level (whose constants have buffers of their own), with
/// no value: nothing at the top level reads it.
void TensorGraphBuilder::addNestedConstants(Block &block) {
  // The value of a tensor constant, else null.
  auto tensorConstant = [](Operation *op) -> Attribute {
    Attribute value;
    if (op->getNumResults() != 1 ||
        !isa<RankedTensorType>(op->getResult(0).getType()) ||
        !matchPattern(op, m_Constant(&value)))
      return {};
    return value;
  };
  DenseSet<Attribute> counted;
  for (Operation &op : block)
    if (Attribute value = tensorConstant(&op))
      counted.insert(value);
  for (Operation &op : block) {
    if (op.getNumRegions() == 0)
      continue;
    op.walk([&](Operation *nested) {
      Attribute value = tensorConstant(nested);
      if (nested != &op && value && counted.insert(value).second)
        addBuffer(nested->getResult(0), BufferKind::Resident,
                  /*isReadOnly=*/true);
    });
  }
}

ValueId TensorGraphBuilder::addValue(Value value, BufferId buffer,
                                     TaskId producer) {
  scheduling::Value problemValue;
  problemValue.sizeBytes = problem.buffer(buffer).sizeBytes;
  problemValue.buffer = buffer;
  problemValue.producer = producer;
  if (Operation *def = value.getDefiningOp())
    problemValue.definedBy = graph.getTask(def);
  ValueId id = problem.addValue(std::move(problemValue));
  graph.values.push_back(value);
  graph.valueIds[value] = id;
  BufferState &state = bufferStates[buffer];
  state.lastUse = std::max(state.lastUse, lastUse.lookup(value));
  auto outside = lastUseOutsideSlices.find(value);
  state.lastUseOutsideSlices =
      std::max(state.lastUseOutsideSlices,
               outside == lastUseOutsideSlices.end() ? -1 : outside->second);
  return id;
}

void TensorGraphBuilder::addResults(Operation *op, TaskId task,
                                    int64_t position) {
  if (Value source = getViewSource(op)) {
    ValueId sourceId = graph.getValueId(source);
    BufferId buffer = problem.value(sourceId).buffer;
    for (Value result : op->getResults()) {
      ValueId view = addValue(result, buffer, kNoId);
      problem.value(view).viewOf = sourceId;
    }
    return;
  }
  if (isa<HostResultOp>(op)) {
    // A result returned in host memory takes no device memory.
    BufferId buffer = addBuffer(op->getResult(0), BufferKind::Transient,
                                /*isReadOnly=*/true);
    problem.buffer(buffer).sizeBytes = 0;
    addValue(op->getResult(0), buffer, task);
    return;
  }
  bool isConstant = op->hasTrait<OpTrait::ConstantLike>();
  for (OpResult result : op->getResults()) {
    if (isConstant) {
      addValue(result,
               addBuffer(result,
                         isa<ShapedType>(result.getType())
                             ? BufferKind::Resident
                             : BufferKind::Transient,
                         /*isReadOnly=*/true),
               task);
      continue;
    }
    if (isa<tensor::EmptyOp>(op)) {
      // Allocated by the first op that writes it, not here.
      addValue(result,
               addBuffer(result, BufferKind::Transient, /*isReadOnly=*/false),
               kNoId);
      continue;
    }
    // A destination-style result, and a loop's result, is written into its
    // init's buffer unless that needs a copy.
    if (OpOperand *init = getTiedInit(result)) {
      BufferId initBuffer = problem.value(graph.getValueId(init->get())).buffer;
      BufferState &state = bufferStates[initBuffer];
      // One-shot bufferization writes in place unless a later op still reads
      // the buffer's old contents (or the buffer is read-only).
      auto bufferOf = [&](Value value) {
        return problem.value(graph.getValueId(value)).buffer;
      };
      // A write into a slice whose insertion into `dest` follows: that
      // insertion reads the rest of `dest` only.
      int64_t lastConflictingUse = sliceWriters.contains(op)
                                       ? state.lastUseOutsideSlices
                                       : state.lastUse;
      // An insertion of what was computed in place in its slice stores the
      // buffer into itself.
      bool storesInPlaceSlice =
          sliceInsertions.contains(op) &&
          bufferOf(cast<tensor::InsertSliceOp>(op).getSource()) == initBuffer;
      if (!state.isReadOnly && lastConflictingUse <= position &&
          (storesInPlaceSlice ||
           !readsInitBufferElsewhere(op, init, initBuffer, bufferOf))) {
        for (TaskId reader : state.readersSinceWrite)
          if (reader != task)
            problem.addDependence(reader, task);
        state.readersSinceWrite.clear();
        addValue(result, initBuffer, task);
        continue;
      }
    }
    addValue(result,
             addBuffer(result, BufferKind::Transient, /*isReadOnly=*/false),
             task);
  }
}

llvm::SetVector<Value> mlir::memsched::getUsedValues(Operation &op) {
  llvm::SetVector<Value> used(op.operand_begin(), op.operand_end());
  if (op.getNumRegions() != 0)
    getUsedValuesDefinedAbove(op.getRegions(), used);
  return used;
}

void TensorGraphBuilder::run() {
  if (failed(checkStructure()))
    return;
  Block &block = func.getBody().front();
  Operation *terminator = block.getTerminator();
  groupOps();

  int64_t position = 0;
  SmallVector<Operation *> readThroughViews;
  for (Operation &op : block) {
    auto insert = dyn_cast<tensor::InsertSliceOp>(op);
    SmallVector<Operation *> writers;
    bool storesSlice = insert && getInPlaceSliceSource(insert, &writers);
    if (storesSlice) {
      sliceInsertions.insert(insert);
      sliceWriters.insert(writers.begin(), writers.end());
    }
    // A slice, expansion or cast reads nothing itself: its readers read its
    // source's buffer (they count through the view's value, which is in
    // that buffer), so such a view nothing reads is no conflict for a write
    // before it. A collapse or reshape may copy, so one-shot bufferization
    // counts it as a read.
    Value viewed = getViewSource(&op);
    bool viewReads = isViewThatReads(&op);
    if (viewed && !viewReads)
      readThroughViews.push_back(&op);
    for (Value used : getUsedValues(op)) {
      if (used == viewed && !viewReads)
        continue;
      lastUse[used] = position;
      if (!storesSlice || used != insert.getDest())
        lastUseOutsideSlices[used] = position;
    }
    ++position;
  }
  // What reads a view reads its source: the last read of a view is one of
  // its source (later views first, for chains).
  for (Operation *view : llvm::reverse(readThroughViews)) {
    Value source = getViewSource(view);
    for (Value result : view->getResults()) {
      if (auto it = lastUse.find(result); it != lastUse.end())
        lastUse[source] = std::max(lastUse.lookup(source), it->second);
      if (auto it = lastUseOutsideSlices.find(result);
          it != lastUseOutsideSlices.end())
        lastUseOutsideSlices[source] =
            std::max(lastUseOutsideSlices.lookup(source), it->second);
    }
  }

  for (BlockArgument argument : block.getArguments()) {
    BufferId buffer =
        addBuffer(argument, BufferKind::Resident, /*isReadOnly=*/false);
    // Offloaded state stays in host memory: the device holds only the
    // copies memsched.swap_in makes.
    if (func.getArgAttr(argument.getArgNumber(), kHostMemoryAttrName))
      problem.buffer(buffer).sizeBytes = 0;
    addValue(argument, buffer, kNoId);
  }
  addNestedConstants(block);

  // Tasks in the order of their computations, which is program order.
  graph.costs.resize(graph.ops.size());
  for (auto [taskId, ops] : llvm::enumerate(graph.taskOps)) {
    Task task;
    Operation *anchor = graph.ops[taskId];
    task.name = anchor->getName().getStringRef().str();
    if (anchor == terminator) {
      OpCost &cost = graph.costs[taskId];
      for (unsigned operand : returnCopies)
        cost.add(costModel.getCopyCost(
            getStorageBytes(terminator->getOperand(operand).getType())
                .value_or(0)));
      task.duration = cost.seconds;
      problem.addTask(std::move(task));
      continue;
    }
    for (Operation *op : ops) {
      OpCost cost = costModel.getCost(op);
      graph.numEstimatedOps += cost.isEstimate;
      graph.costs[taskId].add(cost);
      task.isFence |= !isMemoryEffectFree(op) || isa<CallOpInterface>(op);
    }
    // Control flow holds what its bodies allocate while it runs.
    if (isStructuredControlFlow(anchor))
      graph.costs[taskId].workspaceBytes += getBodyAllocationBytes(anchor);
    task.duration = graph.costs[taskId].seconds;
    task.workspaceBytes = graph.costs[taskId].workspaceBytes;
    problem.addTask(std::move(task));
  }

  position = 0;
  for (Operation &op : block.without_terminator()) {
    TaskId taskId = graph.getTask(&op);
    if (taskId != kNoId) {
      // Values captured by payload regions (a scalar, or a tensor read with
      // tensor.extract inside a linalg.generic) are read like operands.
      for (Value operand : getUsedValues(op)) {
        ValueId valueId = graph.getValueId(operand);
        // Only a value used before its definition has none yet: IR that
        // does not verify (a rewrite's bug) is refused, not read.
        if (valueId == kNoId) {
          graph.failureReason = "a value is used before it is defined";
          graph.failureLoc = op.getLoc();
          graph.failureMessage = "internal error: cannot analyze '@" +
                                 func.getSymName().str() + "': '" +
                                 op.getName().getStringRef().str() +
                                 "' uses a value before its definition";
          graph.status = TensorGraphStatus::Failed;
          return;
        }
        const scheduling::Value &value = problem.value(valueId);
        // A free empty (or a view of one) is a placeholder with undefined
        // contents: reading it uses no memory. Its buffer comes to life at
        // the first write, as bufferization allocates it.
        Operation *def = operand.getDefiningOp();
        if (def && graph.getTask(def) == kNoId &&
            problem.buffer(value.buffer).kind == BufferKind::Transient &&
            value.producer == kNoId)
          continue;
        // A value made inside the task (a folded fill read by its
        // computation, a view of a view) is not a read between tasks.
        if (value.producer == taskId || (def && graph.getTask(def) == taskId))
          continue;
        problem.addConsumer(valueId, taskId);
        bufferStates[value.buffer].readersSinceWrite.push_back(taskId);
        // Values that no task writes (empty tensors, views) still order
        // their defining task before their users.
        if (def) {
          TaskId defTask = graph.getTask(def);
          if (value.producer != defTask && defTask != kNoId &&
              defTask != taskId)
            problem.addDependence(defTask, taskId);
        }
      }
    }
    addResults(&op, taskId, position);
    ++position;
  }

  for (Value returned : terminator->getOperands()) {
    ValueId valueId = graph.getValueId(returned);
    problem.value(valueId).liveToEnd = true;
    // A returned value that no op writes (an empty tensor, or a view of one)
    // is still allocated where it is defined, and must be counted from there.
    Operation *def = returned.getDefiningOp();
    if (problem.value(valueId).producer == kNoId && def &&
        graph.getTask(def) != kNoId)
      problem.addConsumer(valueId, graph.getTask(def));
  }

  if (!returnCopies.empty()) {
    TaskId returnTask = graph.returnTask;
    for (TaskId task = 0; task < returnTask; ++task)
      problem.addDependence(task, returnTask);
    for (unsigned operand : returnCopies) {
      Value returned = terminator->getOperand(operand);
      problem.addConsumer(graph.getValueId(returned), returnTask);
      // The copy has no IR value of its own: it stands for the operand.
      BufferId copy =
          addBuffer(returned, BufferKind::Transient, /*isReadOnly=*/false);
      scheduling::Value copyValue;
      copyValue.sizeBytes = problem.buffer(copy).sizeBytes;
      copyValue.buffer = copy;
      copyValue.producer = returnTask;
      copyValue.liveToEnd = true;
      problem.addValue(std::move(copyValue));
      graph.values.push_back(returned);
    }
  }

  recordInPlaceWrites();

  // Every byte figure is a sum of buffer sizes and workspaces: bounding
  // their total keeps all of them within 64 bits.
  int64_t total = 0;
  bool overflows = false;
  for (size_t b = 0; b < problem.numBuffers() && !overflows; ++b)
    overflows = llvm::AddOverflow(
        total, problem.buffer(static_cast<BufferId>(b)).sizeBytes, total);
  for (size_t t = 0; t < problem.numTasks() && !overflows; ++t)
    overflows = llvm::AddOverflow(
        total, problem.task(static_cast<TaskId>(t)).workspaceBytes, total);
  if (overflows || total > kMaxStorageBytes) {
    graph.failureReason = "buffers too large";
    graph.failureLoc = func.getLoc();
    graph.failureMessage =
        "cannot analyze '@" + func.getSymName().str() +
        "': its buffers and workspaces total more than 2^62 bytes, the "
        "largest size memsched plans with";
    graph.status = TensorGraphStatus::Failed;
    return;
  }

  std::string error;
  if (!problem.verify(&error)) {
    graph.failureReason = error;
    graph.failureLoc = func.getLoc();
    graph.failureMessage = "internal error: built an invalid scheduling "
                           "problem for '@" +
                           func.getSymName().str() + "': " + error;
    graph.status = TensorGraphStatus::Failed;
    return;
  }
  graph.status = TensorGraphStatus::Built;
}

void TensorGraphBuilder::recordInPlaceWrites() {
  auto bufferOf = [&](Value value) -> BufferId {
    ValueId id = graph.getValueId(value);
    return id == kNoId ? kNoId : problem.value(id).buffer;
  };
  for (TaskId task = 0; task < static_cast<TaskId>(problem.numTasks());
       ++task) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(graph.getOp(task));
    if (!linalgOp)
      continue;
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      ValueId resultId = graph.getValueId(linalgOp.getTiedOpResult(&init));
      if (resultId == kNoId)
        continue;
      // Every candidate input: memsched-inplace takes the first one nothing
      // reads afterwards, which the model decides in each plan's order.
      for (OpOperand *input : linalgOp.getDpsInputOperands())
        if (isInPlaceCandidate(graph, linalgOp, init, *input, bufferOf,
                               [](int32_t) { return false; }))
          problem.task(task).inPlaceWrites.push_back(
              {graph.getValueId(input->get()), resultId});
    }
  }
}

TensorGraph TensorGraph::build(func::FuncOp func, const CostModel &costModel) {
  TensorGraph graph;
  TensorGraphBuilder(graph, func, costModel).run();
  return graph;
}

void TensorGraph::emitStatus(StringRef passName, bool skipIsError) const {
  if (status == TensorGraphStatus::Built || !failureLoc)
    return;
  // At a location, not on an op: an op printed with its diagnostic would dump
  // the whole function.
  if (status == TensorGraphStatus::Skipped && !skipIsError)
    emitRemark(*failureLoc) << passName << " " << failureMessage;
  else
    emitError(*failureLoc) << passName << " " << failureMessage;
}

std::optional<TensorGraph>
TensorGraph::buildOrEmitError(func::FuncOp func, const CostModel &costModel,
                              StringRef passName) {
  TensorGraph graph = build(func, costModel);
  graph.emitStatus(passName, /*skipIsError=*/true);
  if (graph.getStatus() != TensorGraphStatus::Built)
    return std::nullopt;
  return graph;
}

OpOperand *mlir::memsched::getTiedInit(OpResult result) {
  if (!isa<RankedTensorType>(result.getType()))
    return nullptr;
  Operation *op = result.getOwner();
  if (auto dpsOp = dyn_cast<DestinationStyleOpInterface>(op))
    return dpsOp.getTiedOpOperand(result);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return loop.getTiedLoopInit(result);
  return nullptr;
}

bool mlir::memsched::mayWriteIntoInput(
    Operation *op, OpOperand &init, OpOperand &input,
    llvm::function_ref<int32_t(Value)> bufferOf, bool allowRepeatedInput) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      linalgOp.getNumLoops() != linalgOp.getNumParallelLoops() ||
      linalgOp.payloadUsesValueFromOperand(&init) ||
      !linalgOp.getMatchingIndexingMap(&init).isIdentity() ||
      !linalgOp.getMatchingIndexingMap(&input).isIdentity() ||
      input.get().getType() != linalgOp.getTiedOpResult(&init).getType())
    return false;
  int32_t buffer = bufferOf(input.get());
  if (buffer < 0)
    return false;
  // Another operand in the same buffer would make the write not
  // elementwise.
  return llvm::none_of(op->getOpOperands(), [&](OpOperand &other) {
    if (allowRepeatedInput && other.get() == input.get() &&
        linalgOp.getMatchingIndexingMap(&other).isIdentity())
      return false;
    return &other != &input && &other != &init &&
           isa<ShapedType>(other.get().getType()) &&
           bufferOf(other.get()) == buffer;
  });
}

bool mlir::memsched::isInPlaceCandidate(
    const TensorGraph &graph, Operation *op, OpOperand &init, OpOperand &input,
    llvm::function_ref<int32_t(Value)> bufferOf,
    llvm::function_ref<bool(int32_t)> mayOverwrite) {
  const Problem &problem = graph.getProblem();
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  int32_t initBuffer = bufferOf(init.get());
  // An init in resident memory (an argument, a loop-carried value once a
  // body is planned as a function): moving the write frees nothing, and out
  // of a loop-carried buffer it would make bufferization copy at the yield.
  // One written over an input already: moving the write to another frees
  // nothing, and would undo what a plan made on these writes assumed.
  if (!linalgOp ||
      (initBuffer != kNoId &&
       (problem.buffer(initBuffer).kind == BufferKind::Resident ||
        llvm::any_of(linalgOp.getDpsInputOperands(), [&](OpOperand *other) {
          return bufferOf(other->get()) == initBuffer;
        }))))
    return false;
  if (!mayWriteIntoInput(op, init, input, bufferOf))
    return false;
  // An insertion over its whole destination is folded into its source by
  // canonicalization, which would move the write into the source's buffer: an
  // argument, or a buffer read later, where the write needs a copy.
  if (auto insert = input.get().getDefiningOp<tensor::InsertSliceOp>();
      insert && insert.getSourceType() == insert.getResultType() &&
      areAllConstantIntValue(insert.getMixedOffsets(), 0) &&
      areAllConstantIntValue(insert.getMixedStrides(), 1))
    return false;
  ValueId inputId = graph.getValueId(input.get());
  if (inputId == kNoId)
    return false;
  TaskId definer = problem.value(inputId).definedBy;
  if (definer != kNoId &&
      llvm::any_of(graph.getOps(definer),
                   [](Operation *op) { return isa<CallOpInterface>(op); }))
    return false;
  int32_t buffer = bufferOf(input.get());
  return problem.buffer(buffer).kind != BufferKind::Resident ||
         mayOverwrite(buffer);
}
