//===- Inplace.cpp - memsched-inplace pass ----------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the in-place pass: an elementwise linalg op whose
// payload ignores its init can take any input of the same type as its init
// without changing its result, and if that input's buffer is dead after the
// op, one-shot bufferization then reuses it instead of allocating.
//
//===----------------------------------------------------------------------===//

#include "PlanRewrite.h"
#include "memsched/Analysis/CostModel.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Dialect/Memsched/IR/MemschedOps.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/RangeMaxTree.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"

#include <numeric>

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDINPLACEPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;
namespace sched = mlir::memsched::scheduling;

/// Buffers being copied to host memory: nothing may write over them.
static llvm::DenseSet<sched::BufferId>
getSwappedOutBuffers(func::FuncOp func, const TensorGraph &graph) {
  llvm::DenseSet<sched::BufferId> swappedOut;
  func.walk([&](SwapOutOp swapOut) {
    sched::ValueId id = graph.getValueId(swapOut.getSource());
    if (id != sched::kNoId)
      swappedOut.insert(graph.getProblem().value(id).buffer);
  });
  return swappedOut;
}

int64_t mlir::memsched::applyInplaceRewrites(func::FuncOp func,
                                             const TensorGraph &graph,
                                             bool donateArguments) {
  const sched::Problem &problem = graph.getProblem();

  // First and last step reading or writing each buffer (-1 if none does; a
  // write's result may be allocated before its task, by a fill of its init),
  // and which buffers must survive the function.
  std::vector<int64_t> firstUse(problem.numBuffers(), -1);
  std::vector<int64_t> lastUse(problem.numBuffers(), -1);
  std::vector<bool> escaping = problem.escapingBuffers();
  for (size_t id = 0; id < problem.numValues(); ++id) {
    const sched::Value &value = problem.value(static_cast<sched::ValueId>(id));
    auto use = [&](sched::TaskId task) {
      int64_t &first = firstUse[value.buffer];
      first = first < 0 ? task : std::min<int64_t>(first, task);
      lastUse[value.buffer] = std::max<int64_t>(lastUse[value.buffer], task);
    };
    if (value.producer != sched::kNoId)
      use(value.producer);
    for (sched::TaskId consumer : value.consumers)
      use(consumer);
  }
  // The buffer each value lives in; rewritten results move to their input's.
  DenseMap<Value, sched::BufferId> bufferOf;
  auto getBuffer = [&](Value value) -> sched::BufferId {
    auto it = bufferOf.find(value);
    if (it != bufferOf.end())
      return it->second;
    sched::ValueId id = graph.getValueId(value);
    return id == sched::kNoId ? sched::kNoId : problem.value(id).buffer;
  };

  llvm::DenseSet<sched::BufferId> argumentBuffers;
  for (BlockArgument argument : func.getArguments())
    argumentBuffers.insert(getBuffer(argument));

  // A buffer being copied to host memory is read by the copy engine until
  // the copy ends; nothing may write over it.
  llvm::DenseSet<sched::BufferId> swappedOut =
      getSwappedOutBuffers(func, graph);

  // A result written into a slice of a larger buffer keeps the whole buffer
  // live for as long as the result: the write saves the result's bytes up to
  // its step and costs the difference at every later step the result lives
  // (an LSTM step's output kept for the backward pass in its gate buffer).
  // Such writes are decided after the others, each made only where no step
  // of the program order then holds more bytes than before it (returned
  // buffers counted from the start, as the planned bytes count them). The
  // changes of the other writes are kept as ranges of steps gaining bytes
  // and applied to the simulated profile when the first write into a larger
  // buffer is weighed.
  const size_t numSteps = graph.getNumTasks();
  // `bytes` more at the steps [begin, end).
  struct StepRangeBytes {
    size_t begin, end;
    int64_t bytes;
  };
  SmallVector<StepRangeBytes> changes;
  std::optional<sched::RangeMaxTree> liveBytes;
  auto sizeOf = [&](sched::BufferId buffer) {
    return buffer == sched::kNoId ? int64_t{0}
                                  : problem.buffer(buffer).sizeBytes;
  };
  auto getWriteChanges = [&](sched::BufferId buffer,
                             sched::BufferId resultBuffer) {
    SmallVector<StepRangeBytes, 3> ranges;
    auto rangeOf = [&](sched::BufferId of) -> std::pair<size_t, size_t> {
      if (escaping[of])
        return {0, numSteps};
      return {static_cast<size_t>(std::max<int64_t>(firstUse[of], 0)),
              static_cast<size_t>(std::max<int64_t>(lastUse[of], 0)) + 1};
    };
    auto [bufferBegin, bufferEnd] = rangeOf(buffer);
    ranges.push_back({bufferBegin, bufferEnd, -sizeOf(buffer)});
    size_t newBegin = bufferBegin, newEnd = bufferEnd;
    if (resultBuffer != sched::kNoId) {
      auto [resultBegin, resultEnd] = rangeOf(resultBuffer);
      ranges.push_back({resultBegin, resultEnd, -sizeOf(resultBuffer)});
      newBegin = escaping[resultBuffer] ? 0 : bufferBegin;
      newEnd = std::max(newEnd, resultEnd);
    }
    ranges.push_back({newBegin, newEnd, sizeOf(buffer)});
    return ranges;
  };
  // Whether the write into a larger buffer raises no step above the
  // highest one; made on the profile if so.
  auto keepsPeak = [&](ArrayRef<StepRangeBytes> ranges) {
    if (!liveBytes) {
      std::vector<sched::TaskId> programOrder(numSteps);
      std::iota(programOrder.begin(), programOrder.end(), 0);
      sched::MemoryProfile profile =
          sched::simulateCheckedMemory(problem, programOrder);
      sched::countEscapingFromStart(problem, profile);
      liveBytes.emplace(profile.liveBytes);
      for (const StepRangeBytes &range : changes)
        liveBytes->add(range.begin, range.end, range.bytes);
    }
    int64_t peak = liveBytes->max(0, numSteps);
    for (const StepRangeBytes &range : ranges)
      liveBytes->add(range.begin, range.end, range.bytes);
    if (liveBytes->max(0, numSteps) <= peak)
      return true;
    for (const StepRangeBytes &range : ranges)
      liveBytes->add(range.begin, range.end, -range.bytes);
    return false;
  };

  int64_t rewritten = 0;
  // An argument's buffer holds the argument or what was written into it
  // since (a donated argument's in-place chain continues).
  auto mayOverwrite = [&](sched::BufferId buffer) {
    return donateArguments && argumentBuffers.contains(buffer);
  };
  // Writes the result tied to `init` into a dead input; into a larger one
  // only with `intoLarger` and where that keeps the peak (above).
  auto rewriteInit = [&](sched::TaskId task, linalg::LinalgOp linalgOp,
                         OpOperand &init, bool intoLarger,
                         bool &largerSkipped) {
    Value result = linalgOp.getTiedOpResult(&init);
    for (OpOperand *input : linalgOp.getDpsInputOperands()) {
      Value candidate = input->get();
      if (!isInPlaceCandidate(graph, linalgOp, init, *input, getBuffer,
                              mayOverwrite))
        continue;
      sched::BufferId buffer = getBuffer(candidate);
      if (escaping[buffer] || lastUse[buffer] != task ||
          swappedOut.contains(buffer))
        continue;
      sched::BufferId resultBuffer = getBuffer(result);
      SmallVector<StepRangeBytes, 3> ranges =
          getWriteChanges(buffer, resultBuffer);
      if (sizeOf(buffer) > sizeOf(resultBuffer)) {
        largerSkipped = true;
        if (!intoLarger || !keepsPeak(ranges))
          continue;
      } else if (liveBytes) {
        for (const StepRangeBytes &range : ranges)
          liveBytes->add(range.begin, range.end, range.bytes);
      } else {
        changes.append(ranges.begin(), ranges.end());
      }
      init.set(candidate);
      bufferOf[result] = buffer;
      // The result's readers now read the input's buffer.
      if (resultBuffer != sched::kNoId) {
        lastUse[buffer] = std::max(lastUse[buffer], lastUse[resultBuffer]);
        if (escaping[resultBuffer])
          escaping[buffer] = true;
      }
      ++rewritten;
      return true;
    }
    return false;
  };
  SmallVector<std::pair<sched::TaskId, OpOperand *>> deferred;
  for (sched::TaskId task = 0;
       task < static_cast<sched::TaskId>(graph.getNumTasks()); ++task) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(graph.getOp(task));
    if (!linalgOp)
      continue;
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      bool largerSkipped = false;
      if (!rewriteInit(task, linalgOp, init, /*intoLarger=*/false,
                       largerSkipped) &&
          largerSkipped)
        deferred.push_back({task, &init});
    }
  }
  for (auto [task, init] : deferred) {
    bool largerSkipped = false;
    rewriteInit(task, cast<linalg::LinalgOp>(graph.getOp(task)), *init,
                /*intoLarger=*/true, largerSkipped);
  }
  return rewritten;
}

int64_t
mlir::memsched::moveReadersAheadOfInPlaceWrites(func::FuncOp func,
                                                const TensorGraph &graph) {
  // Bounds that keep the pass linear: readers and their inputs moved per
  // write, and users of a buffer looked at.
  constexpr size_t kMaxMovedTasks = 16;
  constexpr size_t kMaxBufferUsers = 64;
  const sched::Problem &problem = graph.getProblem();
  auto numTasks = static_cast<sched::TaskId>(graph.getNumTasks());
  std::vector<SmallVector<sched::TaskId, 4>> users(problem.numBuffers());
  std::vector<SmallVector<sched::BufferId, 2>> writtenBy(numTasks);
  std::vector<int64_t> lastUse(problem.numBuffers(), -1);
  std::vector<int64_t> lastWrite(problem.numBuffers(), -1);
  for (size_t id = 0; id < problem.numValues(); ++id) {
    const sched::Value &value = problem.value(static_cast<sched::ValueId>(id));
    sched::BufferId buffer = value.buffer;
    auto use = [&](sched::TaskId task) {
      users[buffer].push_back(task);
      lastUse[buffer] = std::max<int64_t>(lastUse[buffer], task);
    };
    if (value.producer != sched::kNoId) {
      use(value.producer);
      writtenBy[value.producer].push_back(buffer);
      lastWrite[buffer] = std::max<int64_t>(lastWrite[buffer], value.producer);
    }
    for (sched::TaskId consumer : value.consumers)
      use(consumer);
  }
  auto sortUnique = [](auto &lists) {
    for (auto &list : lists) {
      llvm::sort(list);
      list.erase(std::unique(list.begin(), list.end()), list.end());
    }
  };
  sortUnique(users);
  sortUnique(writtenBy);
  std::vector<bool> escaping = problem.escapingBuffers();
  llvm::DenseSet<sched::BufferId> swappedOut =
      getSwappedOutBuffers(func, graph);
  Block &block = func.getBody().front();
  // Every move is decided on the block as given and applied at the end:
  // a move invalidates the block's op order, and recomputing it for the
  // next query made the pass quadratic (74k ops: seconds per call). Ops
  // already chosen to move go before an earlier write, so before any later
  // one too; a later write moves only tasks past the earlier ones' stretch
  // (the frontier below), so no op is chosen twice.
  llvm::DenseSet<Operation *> toMove;
  auto isTransient = [&](sched::BufferId buffer) {
    return problem.buffer(buffer).kind == sched::BufferKind::Transient;
  };

  // The tasks to run ahead of `write` so that it may write into `buffer`:
  // the later users of `buffer` and what they need that comes after
  // `write` (tasks, and free ops such as their empties), or nothing where
  // that is not legal or not free. `ops` gets every op to move.
  auto collectMoves = [&](sched::TaskId write, sched::BufferId buffer,
                          int64_t saving, llvm::SetVector<Operation *> &ops) {
    llvm::SetVector<sched::TaskId> moved;
    Operation *writeOp = graph.getOps(write).front();
    auto fail = [&] {
      moved.clear();
      ops.clear();
      return moved;
    };
    if (users[buffer].size() > kMaxBufferUsers)
      return fail();
    for (sched::TaskId user : users[buffer])
      if (user > write)
        moved.insert(user);
    size_t nextOp = 0;
    for (size_t next = 0; next < moved.size(); ++next) {
      if (moved.size() > kMaxMovedTasks)
        return fail();
      sched::TaskId task = moved[next];
      if (task == write || task == graph.getReturnTask() ||
          problem.task(task).isFence)
        return fail();
      ops.insert(graph.getOps(task).begin(), graph.getOps(task).end());
      for (; nextOp < ops.size(); ++nextOp) {
        Operation *op = ops[nextOp];
        if (op->getBlock() != &block || !isMemoryEffectFree(op))
          return fail();
        for (Value value : getUsedValues(*op)) {
          Operation *def = value.getDefiningOp();
          if (!def || ops.contains(def) || toMove.contains(def) ||
              def->isBeforeInBlock(writeOp))
            continue;
          sched::TaskId producer = graph.getTask(def);
          if (producer == sched::kNoId) {
            ops.insert(def);
            continue;
          }
          // A task before the write with an op after it (a view made late)
          // stays: moving it would move its other ops past their readers.
          if (producer <= write)
            return fail();
          moved.insert(producer);
        }
      }
    }
    // What the moved tasks write must be buffers they start (nothing before
    // them in the order is overwritten); their bytes and workspace now live
    // across the write's step in place of the result the write no longer
    // allocates.
    int64_t made = 0, workspace = 0;
    llvm::SmallDenseSet<sched::BufferId, 8> counted;
    for (sched::TaskId task : moved) {
      workspace = std::max(workspace, problem.task(task).workspaceBytes);
      for (sched::BufferId written : writtenBy[task]) {
        if (written == buffer)
          return fail();
        for (sched::TaskId user : users[written])
          if (user < task && !moved.contains(user))
            return fail();
        if (isTransient(written) && counted.insert(written).second)
          made += problem.buffer(written).sizeBytes;
      }
    }
    if (made > saving ||
        made + workspace > saving + problem.task(write).workspaceBytes)
      return fail();
    return moved;
  };

  SmallVector<std::pair<Operation *, SmallVector<Operation *>>> moves;
  // Moves stay in disjoint stretches of the order (each write's, up to its
  // last moved task), so that each one's accounting holds.
  int64_t frontier = -1;
  for (sched::TaskId write = 0; write < numTasks; ++write) {
    const sched::Task &task = problem.task(write);
    if (write <= frontier || task.inPlaceWrites.empty() || task.isFence)
      continue;
    auto mayTake = [&](sched::BufferId buffer) {
      return isTransient(buffer) && !escaping[buffer] &&
             !swappedOut.contains(buffer);
    };
    bool writesAlready = llvm::any_of(task.inPlaceWrites, [&](auto write_) {
      sched::BufferId buffer = problem.value(write_.first).buffer;
      return mayTake(buffer) && lastUse[buffer] == write;
    });
    if (writesAlready)
      continue;
    for (auto [input, result] : task.inPlaceWrites) {
      sched::BufferId buffer = problem.value(input).buffer;
      sched::BufferId resultBuffer = problem.value(result).buffer;
      if (!mayTake(buffer) || lastWrite[buffer] > write ||
          !isTransient(resultBuffer))
        continue;
      int64_t saving = std::min(problem.buffer(buffer).sizeBytes,
                                problem.buffer(resultBuffer).sizeBytes);
      llvm::SetVector<Operation *> ops;
      llvm::SetVector<sched::TaskId> moved =
          collectMoves(write, buffer, saving, ops);
      if (moved.empty())
        continue;
      for (sched::TaskId movedTask : moved)
        frontier = std::max<int64_t>(frontier, movedTask);
      SmallVector<Operation *> inOrder(ops.begin(), ops.end());
      llvm::sort(inOrder, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
      toMove.insert(inOrder.begin(), inOrder.end());
      moves.emplace_back(graph.getOps(write).front(), std::move(inOrder));
      break;
    }
  }
  for (auto &[writeOp, inOrder] : moves)
    for (Operation *op : inOrder)
      op->moveBefore(writeOp);
  return static_cast<int64_t>(moves.size());
}

InPlaceWrites mlir::memsched::writeInPlace(func::FuncOp func,
                                           TensorGraph &graph,
                                           const CostModel &costModel,
                                           bool donateArguments,
                                           bool moveReaders) {
  InPlaceWrites done;
  if (moveReaders)
    done.readersMoved = moveReadersAheadOfInPlaceWrites(func, graph);
  if (done.readersMoved > 0)
    graph = TensorGraph::build(func, costModel);
  if (graph.getStatus() == TensorGraphStatus::Built)
    done.rewritten = applyInplaceRewrites(func, graph, donateArguments);
  return done;
}

void mlir::memsched::takeInPlaceWrites(func::FuncOp func,
                                       const CostModel &costModel) {
  TensorGraph graph = TensorGraph::build(func, costModel);
  if (graph.getStatus() == TensorGraphStatus::Built)
    writeInPlace(func, graph, costModel, /*donateArguments=*/false,
                 /*moveReaders=*/true);
}

namespace {
struct InplacePass
    : public memsched::impl::MemschedInplacePassBase<InplacePass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void InplacePass::runOnOperation() {
  func::FuncOp func = getOperation();
  // Host glue (memsched-exec-harness's main) is not a training step.
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  FailureOr<DeviceSpec> spec =
      DeviceSpec::resolveOrEmitError(device, func, "memsched-inplace");
  if (failed(spec))
    return signalPassFailure();
  // The device is recorded once the pass has succeeded; a failed pass leaves
  // the function as it was.
  llvm::scope_exit recordDevice([&] {
    if (!getPassState().irAndPassFailed.getInt())
      DeviceSpec::record(device, func);
  });
  CostModel costModel(*spec);
  TensorGraph graph = TensorGraph::build(func, costModel);
  graph.emitStatus("memsched-inplace");
  if (graph.getStatus() == TensorGraphStatus::Skipped)
    return markAllAnalysesPreserved();
  if (graph.getStatus() == TensorGraphStatus::Failed)
    return signalPassFailure();
  std::optional<int64_t> before = computeModelPeak(func, costModel);
  InPlaceWrites done =
      writeInPlace(func, graph, costModel, donateArguments, moveReaders);
  if (done.rewritten == 0 && done.readersMoved == 0)
    return markAllAnalysesPreserved();
  std::optional<int64_t> after = computeModelPeak(func, costModel);
  InFlightDiagnostic remark = emitRemark(func.getLoc());
  remark << "memsched-inplace: " << done.rewritten
         << " ops write into a dead input";
  if (done.readersMoved > 0)
    remark << " (" << done.readersMoved
           << " once later readers of it ran first)";
  if (before && after)
    remark << "; peak " << formatBytes(*before) << " -> "
           << formatBytes(*after);
}
