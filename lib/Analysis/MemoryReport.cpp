//===- MemoryReport.cpp - Per-function memory and time figures --*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/MemoryReport.h"

#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"
#include "memsched/Dialect/Memsched/IR/MemschedOps.h"
#include "memsched/Scheduling/Footprint.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include <cmath>
#include <map>
#include <tuple>

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::memsched;
using namespace mlir::memsched::scheduling;

std::string mlir::memsched::formatBytes(int64_t bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  unsigned unit = 0;
  while (std::abs(value) >= 1024.0 && unit + 1 < std::size(units)) {
    value /= 1024.0;
    ++unit;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (unit == 0)
    os << bytes << " B";
  else
    os << llvm::format("%.2f %s", value, units[unit]);
  return text;
}

/// Converts an attribute of a `memsched.*` dictionary to JSON: numbers,
/// booleans, strings and nested dictionaries; anything else as its text.
std::string mlir::memsched::describeLocation(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                         file.getLine(), file.getColumn())
        .str();
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return describeLocation(callSite.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location part : fused.getLocations())
      if (!isa<UnknownLoc>(part))
        return describeLocation(part);
  return "an unknown location";
}

/// The ops of `graph`'s function that cleanup erases: free of side
/// effects, each result unused or read only by such ops.
static llvm::SmallPtrSet<Operation *, 16>
findErasableOps(const TensorGraph &graph) {
  llvm::SmallPtrSet<Operation *, 16> dead;
  if (graph.getProblem().numTasks() == 0)
    return dead;
  Block *body = graph.getOp(0)->getBlock();
  for (Operation &op : llvm::reverse(*body)) {
    if (op.hasTrait<OpTrait::IsTerminator>() || !isMemoryEffectFree(&op))
      continue;
    if (llvm::all_of(op.getUsers(), [&](Operation *user) {
          Operation *inBody = body->findAncestorOpInBlock(*user);
          return inBody && dead.contains(inBody);
        }))
      dead.insert(&op);
  }
  return dead;
}

/// For each buffer, the returned buffers it may become the storage of
/// through a chain of in-place writes (`pairs`: per task, a result and the
/// input whose buffer it may take; the result takes the input's buffer, and
/// so on back); past `kMaxRoots` any, marked in `anyRoot`.
static std::vector<SmallVector<BufferId, 2>>
findReturnedStorage(const Problem &problem, const std::vector<bool> &escaping,
                    ArrayRef<SmallVector<std::pair<BufferId, BufferId>>> pairs,
                    std::vector<char> &anyRoot) {
  constexpr size_t kMaxRoots = 8;
  std::vector<SmallVector<BufferId, 2>> roots(problem.numBuffers());
  anyRoot.assign(problem.numBuffers(), 0);
  std::vector<SmallVector<BufferId, 2>> takenInputs(problem.numBuffers());
  for (const auto &taskPairs : pairs)
    for (auto [result, input] : taskPairs)
      takenInputs[result].push_back(input);
  std::vector<BufferId> worklist;
  for (size_t buffer = 0; buffer < problem.numBuffers(); ++buffer)
    if (escaping[buffer] && !takenInputs[buffer].empty()) {
      roots[buffer].push_back(static_cast<BufferId>(buffer));
      worklist.push_back(static_cast<BufferId>(buffer));
    }
  while (!worklist.empty()) {
    BufferId result = worklist.back();
    worklist.pop_back();
    for (BufferId input : takenInputs[result]) {
      bool grew = false;
      if (anyRoot[result] && !anyRoot[input]) {
        anyRoot[input] = 1;
        grew = true;
      }
      for (BufferId root : roots[result]) {
        if (anyRoot[input] || llvm::is_contained(roots[input], root))
          continue;
        if (roots[input].size() == kMaxRoots)
          anyRoot[input] = 1;
        else
          roots[input].push_back(root);
        grew = true;
      }
      if (grew)
        worklist.push_back(input);
    }
  }
  return roots;
}

FootprintFloor mlir::memsched::computeFunctionFloor(const TensorGraph &graph,
                                                    bool boundRecomputation) {
  const Problem &problem = graph.getProblem();
  std::vector<bool> escaping = problem.escapingBuffers();
  auto anyBufferOf = [&](Value value) -> BufferId {
    ValueId id = graph.getValueId(value);
    return id == kNoId ? kNoId : problem.value(id).buffer;
  };
  auto bufferOf = [&](Value value) -> BufferId {
    BufferId buffer = anyBufferOf(value);
    return buffer != kNoId &&
                   problem.buffer(buffer).kind == BufferKind::Transient
               ? buffer
               : kNoId;
  };
  // Ops cleanup erases are in no plan after it: neither their working sets
  // nor the constants only they read count.
  llvm::SmallPtrSet<Operation *, 16> dead = findErasableOps(graph);
  int64_t deadResidentBytes = 0;
  llvm::SmallDenseSet<BufferId> residentSeen;
  for (Operation *op : dead)
    for (Value result : op->getResults()) {
      ValueId id = graph.getValueId(result);
      if (id == kNoId)
        continue;
      BufferId buffer = problem.value(id).buffer;
      if (problem.buffer(buffer).kind == BufferKind::Resident &&
          residentSeen.insert(buffer).second)
        deadResidentBytes += problem.buffer(buffer).sizeBytes;
    }
  // What memsched-inplace may do in some order (with recomputation, an
  // input read later can be read from a recomputed copy): an elementwise
  // result whose payload does not read its init may take the buffer of an
  // input of its type read through an identity map. The pairs, by task.
  // And a result with a tied init may take the init's buffer, a writable
  // argument's included, once the init's other readers run before it or
  // read a recomputed copy (or are erased).
  // Arguments in host memory (size 0) hold no device results.
  llvm::SmallDenseSet<BufferId> argumentBuffers;
  if (problem.numTasks() != 0)
    for (BlockArgument argument : graph.getOp(0)->getBlock()->getArguments())
      if (BufferId buffer = anyBufferOf(argument);
          buffer != kNoId && problem.buffer(buffer).sizeBytes != 0)
        argumentBuffers.insert(buffer);
  // The buffers a write may take: transient ones and writable arguments.
  auto writableBufferOf = [&](Value value) -> BufferId {
    BufferId buffer = anyBufferOf(value);
    return buffer != kNoId &&
                   (problem.buffer(buffer).kind == BufferKind::Transient ||
                    argumentBuffers.contains(buffer))
               ? buffer
               : kNoId;
  };
  std::vector<SmallVector<std::pair<BufferId, BufferId>>> pairs(
      problem.numTasks());
  for (size_t task = 0; task < problem.numTasks(); ++task) {
    Operation *op = graph.getOp(static_cast<TaskId>(task));
    for (OpResult result : op->getResults()) {
      OpOperand *init = getTiedInit(result);
      BufferId resultBuffer = bufferOf(result);
      BufferId initBuffer = init ? writableBufferOf(init->get()) : kNoId;
      if (resultBuffer == kNoId || initBuffer == kNoId ||
          initBuffer == resultBuffer || escaping[initBuffer])
        continue;
      pairs[task].push_back({resultBuffer, initBuffer});
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp)
      continue;
    llvm::SmallDenseSet<BufferId> taken;
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      BufferId resultBuffer = bufferOf(linalgOp.getTiedOpResult(&init));
      // A result written into an input's buffer already (memsched-inplace's
      // work) shares that one; it cannot take a second input's too.
      if (resultBuffer == kNoId ||
          llvm::any_of(linalgOp.getDpsInputOperands(), [&](OpOperand *input) {
            return anyBufferOf(input->get()) == resultBuffer;
          }))
        continue;
      // Every input the result may take: which one a plan's writes choose
      // (memsched-inplace skips a call's results, for one) is not the
      // floor's to guess.
      for (OpOperand *input : linalgOp.getDpsInputOperands()) {
        BufferId buffer = writableBufferOf(input->get());
        if (buffer == kNoId || buffer == resultBuffer || escaping[buffer] ||
            !mayWriteIntoInput(linalgOp, init, *input, writableBufferOf,
                               /*allowRepeatedInput=*/true) ||
            !taken.insert(buffer).second)
          continue;
        pairs[task].push_back({resultBuffer, buffer});
      }
    }
  }
  // A chain of such writes can make an input the storage of a returned
  // buffer, which the floor counts among the returned bytes already.
  std::vector<char> anyRoot;
  std::vector<SmallVector<BufferId, 2>> roots =
      findReturnedStorage(problem, escaping, pairs, anyRoot);
  // Left out of each task's working set: the results that may share an
  // input's buffer, and as many of its buffers as may be returned buffers,
  // one per returned buffer (a matching; a returned buffer the task uses
  // only with the input it writes it into).
  std::vector<int64_t> placedElsewhere(problem.numTasks(), 0);
  for (size_t id = 0; id < problem.numTasks(); ++id) {
    TaskId task = static_cast<TaskId>(id);
    if (dead.contains(graph.getOp(task))) {
      placedElsewhere[id] = std::numeric_limits<int64_t>::max() / 4;
      continue;
    }
    llvm::SmallDenseSet<BufferId> used;
    SmallVector<BufferId> candidates;
    for (BufferId buffer : problem.buffersUsedBy(task)) {
      used.insert(buffer);
      if (!escaping[buffer] &&
          problem.buffer(buffer).kind == BufferKind::Transient &&
          (anyRoot[buffer] || !roots[buffer].empty()))
        candidates.push_back(buffer);
    }
    llvm::SmallDenseMap<BufferId, BufferId> matchOf; // root -> buffer
    std::function<bool(BufferId, llvm::SmallDenseSet<BufferId> &)> augment =
        [&](BufferId buffer, llvm::SmallDenseSet<BufferId> &seen) {
          for (BufferId root : roots[buffer]) {
            // A returned buffer the task uses is, while it runs, only the
            // input the task writes it into.
            if ((used.contains(root) &&
                 !llvm::is_contained(pairs[id],
                                     std::make_pair(root, buffer))) ||
                !seen.insert(root).second)
              continue;
            auto it = matchOf.find(root);
            if (it == matchOf.end() || augment(it->second, seen)) {
              matchOf[root] = buffer;
              return true;
            }
          }
          return false;
        };
    // An augmenting path reassigns roots but never unmatches a buffer.
    llvm::SmallDenseSet<BufferId> placed;
    for (BufferId buffer : candidates) {
      llvm::SmallDenseSet<BufferId> seen;
      if (anyRoot[buffer] || augment(buffer, seen))
        placed.insert(buffer);
    }
    for (BufferId buffer : placed)
      placedElsewhere[id] += problem.buffer(buffer).sizeBytes;
    // A pair is one buffer: the result, or the input where the result is
    // a returned buffer's storage already. A result takes one buffer, so
    // one of its pairs counts (the first that frees one); an argument's is
    // out of the working set.
    llvm::SmallDenseSet<BufferId> paired;
    for (auto [result, input] : pairs[id]) {
      if (escaping[result] || paired.contains(result))
        continue;
      BufferId shared = placed.contains(result) ? input : result;
      if (problem.buffer(shared).kind == BufferKind::Transient &&
          placed.insert(shared).second) {
        placedElsewhere[id] += problem.buffer(shared).sizeBytes;
        paired.insert(result);
      }
    }
    // What a body holds while its op runs, planning inside the body can
    // lower (recomputation there): the floor does not bound it.
    if (isStructuredControlFlow(graph.getOp(task)))
      placedElsewhere[id] += problem.task(task).workspaceBytes;
  }
  std::vector<char> heldWhole;
  if (boundRecomputation) {
    // The recomputation floor's pairs count a live buffer whole in the arena:
    // not one that may become a returned buffer's or an argument's storage
    // through a chain of in-place writes, nor one an erased op makes.
    heldWhole.assign(problem.numBuffers(), 0);
    for (size_t buffer = 0; buffer < problem.numBuffers(); ++buffer)
      heldWhole[buffer] = problem.buffer(static_cast<BufferId>(buffer)).kind ==
                              BufferKind::Transient &&
                          !escaping[buffer] && !anyRoot[buffer] &&
                          roots[buffer].empty();
    std::vector<SmallVector<BufferId, 2>> takers(problem.numBuffers());
    for (const auto &taskPairs : pairs)
      for (auto [result, input] : taskPairs)
        takers[input].push_back(result);
    std::vector<char> inArgument(problem.numBuffers(), 0);
    SmallVector<BufferId> worklist(argumentBuffers.begin(),
                                   argumentBuffers.end());
    while (!worklist.empty()) {
      BufferId input = worklist.pop_back_val();
      for (BufferId result : takers[input])
        if (!inArgument[result]) {
          inArgument[result] = 1;
          heldWhole[result] = 0;
          worklist.push_back(result);
        }
    }
    for (size_t id = 0; id < problem.numValues(); ++id) {
      const scheduling::Value &value = problem.value(static_cast<ValueId>(id));
      for (TaskId task : {value.producer, value.definedBy})
        if (task != kNoId && dead.contains(graph.getOp(task)))
          heldWhole[value.buffer] = 0;
    }
  }
  FootprintFloor floor = computeFootprintFloor(
      problem, &placedElsewhere, boundRecomputation ? &heldWhole : nullptr);
  floor.residentBytes -= deadResidentBytes;
  // A returned buffer whose storage may be a writable argument's is among
  // the resident bytes already; an argument holds one at most.
  int64_t hostingBytes = 0;
  bool hostsAny = false;
  llvm::SmallDenseSet<BufferId> hostedRoots;
  for (BufferId argument : argumentBuffers) {
    if (!anyRoot[argument] && roots[argument].empty())
      continue;
    hostingBytes += problem.buffer(argument).sizeBytes;
    hostsAny |= anyRoot[argument] != 0;
    hostedRoots.insert(roots[argument].begin(), roots[argument].end());
  }
  int64_t hostedBytes = 0;
  for (size_t buffer = 0; buffer < problem.numBuffers(); ++buffer)
    if (escaping[buffer] && llvm::is_contained(roots[buffer], buffer) &&
        (hostsAny || hostedRoots.contains(buffer)))
      hostedBytes += problem.buffer(buffer).sizeBytes;
  floor.escapingInResidentBytes = std::min(hostedBytes, hostingBytes);
  floor.escapingBytes -= floor.escapingInResidentBytes;
  return floor;
}

/// Plan entries the text report lists.
static constexpr size_t kPlanRowsShown = 10;
/// Buffers live at the peak that the report lists.
static constexpr size_t kPeakBuffersReported = 8;
/// ... and that the text report shows.
static constexpr size_t kPeakBuffersShown = 5;

/// Splits `total` over `weights` in proportion (largest remainders first,
/// ties to the earlier entry), so that the shares add up to `total`; equal
/// shares when every weight is 0.
static std::vector<int64_t> splitInProportion(int64_t total,
                                              std::vector<int64_t> weights) {
  size_t n = weights.size();
  if (llvm::all_of(weights, [](int64_t w) { return w <= 0; }))
    weights.assign(n, 1);
  long double sum = 0;
  for (int64_t &weight : weights) {
    weight = std::max<int64_t>(weight, 0);
    sum += weight;
  }
  int64_t magnitude = total < 0 ? -total : total;
  std::vector<int64_t> shares(n);
  std::vector<long double> remainders(n);
  int64_t given = 0;
  for (size_t i = 0; i < n; ++i) {
    long double exact = magnitude * (weights[i] / sum);
    shares[i] = std::min<int64_t>(static_cast<int64_t>(std::floor(exact)),
                                  magnitude - given);
    remainders[i] = exact - shares[i];
    given += shares[i];
  }
  std::vector<size_t> byRemainder(n);
  for (size_t i = 0; i < n; ++i)
    byRemainder[i] = i;
  std::stable_sort(
      byRemainder.begin(), byRemainder.end(),
      [&](size_t a, size_t b) { return remainders[a] > remainders[b]; });
  for (size_t k = 0; given < magnitude; k = (k + 1) % n, ++given)
    ++shares[byRemainder[k]];
  if (total < 0)
    for (int64_t &share : shares)
      share = -share;
  return shares;
}

/// The plan of a reported function (FunctionReport::plan), from the
/// dictionaries the passes left and the recomputed and swap ops in it.
static std::vector<PlanEntry> collectPlan(const TensorGraph &graph,
                                          const SwapTasks &swaps,
                                          const FunctionReport &report) {
  std::vector<PlanEntry> plan;
  int64_t after = report.plannedBytes();
  std::optional<int64_t> budgetBefore =
      report.fit.getInteger("planned_before_bytes");
  std::string function = "@" + report.name;
  if (std::optional<int64_t> reorderBefore =
          report.reorder.getInteger("planned_before_bytes")) {
    PlanEntry entry;
    entry.kind = "reorder";
    entry.location = function;
    entry.bytes = *reorderBefore - budgetBefore.value_or(after);
    plan.push_back(entry);
  }
  if (!budgetBefore)
    return plan;

  // Recompute and swap decisions, grouped by kind, location and op, each
  // weighted by the bytes it frees.
  const Problem &problem = graph.getProblem();
  std::map<std::tuple<std::string, std::string, std::string>, size_t> index;
  std::vector<PlanEntry> levers;
  std::vector<int64_t> weights;
  auto entryFor = [&](StringRef kind, Operation *op) -> size_t {
    std::string location = describeLocation(op->getLoc());
    std::string name = op->getName().getStringRef().str();
    auto [it, inserted] =
        index.try_emplace({kind.str(), location, name}, levers.size());
    if (inserted) {
      PlanEntry entry;
      entry.kind = kind.str();
      entry.location = location;
      entry.op = name;
      levers.push_back(entry);
      weights.push_back(0);
    }
    return it->second;
  };
  std::vector<int64_t> produced(problem.numTasks(), 0);
  for (size_t id = 0; id < problem.numValues(); ++id) {
    const scheduling::Value &value = problem.value(static_cast<ValueId>(id));
    if (value.producer != kNoId &&
        problem.buffer(value.buffer).kind == BufferKind::Transient)
      produced[value.producer] += value.sizeBytes;
  }
  for (size_t task = 0; task < problem.numTasks(); ++task) {
    Operation *op = graph.getOp(static_cast<TaskId>(task));
    if (!op->hasAttr(kRecomputeAttrName))
      continue;
    size_t entry = entryFor("recompute", op);
    ++levers[entry].ops;
    weights[entry] += produced[task];
    levers[entry].timeSeconds +=
        problem.task(static_cast<TaskId>(task)).duration;
  }
  int64_t swappedBytes = 0;
  for (const scheduling::IssuedSwapOut &out : swaps.outs)
    swappedBytes += out.bytes;
  for (const scheduling::IssuedSwapOut &out : swaps.outs) {
    auto swapOut = cast<SwapOutOp>(graph.getOp(out.task));
    Operation *producer = swapOut.getSource().getDefiningOp();
    size_t entry = entryFor("swap", producer ? producer : swapOut);
    ++levers[entry].ops;
    weights[entry] += out.bytes;
    if (swappedBytes > 0)
      levers[entry].timeSeconds +=
          report.swapExposedSeconds * out.bytes / swappedBytes;
  }

  int64_t saved = *budgetBefore - after;
  if (levers.empty()) {
    if (saved != 0) {
      PlanEntry entry;
      entry.kind = "in-place";
      entry.location = function;
      entry.bytes = saved;
      plan.push_back(entry);
    }
  } else {
    std::vector<int64_t> shares = splitInProportion(saved, weights);
    for (size_t i = 0; i < levers.size(); ++i) {
      levers[i].bytes = shares[i];
      plan.push_back(levers[i]);
    }
  }
  std::stable_sort(
      plan.begin(), plan.end(),
      [](const PlanEntry &a, const PlanEntry &b) { return a.bytes > b.bytes; });
  return plan;
}

static llvm::json::Value attributeToJSON(Attribute attr) {
  if (auto boolAttr = dyn_cast<BoolAttr>(attr))
    return boolAttr.getValue();
  if (auto intAttr = dyn_cast<IntegerAttr>(attr))
    return intAttr.getInt();
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return floatAttr.getValueAsDouble();
  if (auto stringAttr = dyn_cast<StringAttr>(attr))
    return stringAttr.getValue().str();
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object object;
    for (NamedAttribute entry : dict)
      object[entry.getName().getValue()] = attributeToJSON(entry.getValue());
    return object;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

LinkSpec mlir::memsched::getLinkSpec(const DeviceSpec &device) {
  LinkSpec link;
  link.hostToDeviceBytesPerSecond = device.hostToDeviceBandwidth;
  link.deviceToHostBytesPerSecond = device.deviceToHostBandwidth;
  link.copyLatencySeconds = device.copyLatency;
  return link;
}

SwapTasks mlir::memsched::collectSwapTasks(const TensorGraph &graph) {
  SwapTasks swaps;
  const Problem &problem = graph.getProblem();
  DenseMap<Operation *, int32_t> outIndex;
  for (size_t task = 0; task < graph.getNumTasks(); ++task) {
    Operation *op = graph.getOp(static_cast<TaskId>(task));
    if (auto swapOut = dyn_cast<SwapOutOp>(op)) {
      ValueId source = graph.getValueId(swapOut.getSource());
      outIndex[op] = static_cast<int32_t>(swaps.outs.size());
      swaps.outs.push_back(
          {static_cast<TaskId>(task), problem.value(source).buffer,
           getStorageBytes(swapOut.getSource().getType()).value_or(0)});
    } else if (auto hostArgument = dyn_cast<HostArgumentOp>(op)) {
      // Already in host memory: a swap-out that copies nothing and holds
      // no device memory (the argument's buffer has no device bytes).
      ValueId source = graph.getValueId(hostArgument.getSource());
      outIndex[op] = static_cast<int32_t>(swaps.outs.size());
      swaps.outs.push_back(
          {static_cast<TaskId>(task), problem.value(source).buffer, 0});
    }
  }
  // Per value: the values that are it or views of it.
  std::vector<SmallVector<ValueId, 1>> viewsOf(problem.numValues());
  for (size_t id = 0; id < problem.numValues(); ++id)
    viewsOf[getViewRoot(problem, static_cast<ValueId>(id))].push_back(
        static_cast<ValueId>(id));
  for (size_t task = 0; task < graph.getNumTasks(); ++task) {
    Operation *op = graph.getOp(static_cast<TaskId>(task));
    if (auto wait = dyn_cast<SwapWaitOp>(op)) {
      // Tasks are in program order: the first wait releases the buffer.
      TaskId &release =
          swaps.outs[outIndex.lookup(wait.getSource().getDefiningOp())].release;
      if (release == kNoId)
        release = static_cast<TaskId>(task);
      continue;
    }
    auto swapIn = dyn_cast<SwapInOp>(op);
    if (!swapIn)
      continue;
    IssuedSwapIn in;
    in.task = static_cast<TaskId>(task);
    in.swapOut = outIndex.lookup(swapIn.getSource().getDefiningOp());
    in.bytes = getStorageBytes(swapIn.getType()).value_or(0);
    // The first reader in program order waits for the copy, also one
    // reading it through a view (the late reads of a swapped value's views
    // read views of the copy, made right after the swap-in), as the
    // planner and the GPU lowering wait. The views themselves are ops of
    // the swap-in's own task, which makes no wait.
    ValueId copy = graph.getValueId(swapIn.getResult());
    for (ValueId read : viewsOf[copy])
      for (TaskId reader : problem.value(read).consumers)
        if (reader != in.task && (in.neededBy == kNoId || reader < in.neededBy))
          in.neededBy = reader;
    swaps.ins.push_back(in);
  }
  return swaps;
}

namespace {
/// What names the buffers of a run of `order`: the op that writes each
/// first (else the first op defining a value in it: an empty tensor that is
/// only read, a view), and whether it escapes. Built once per report.
struct BufferNames {
  std::vector<TaskId> namer;
  std::vector<bool> escaping;

  BufferNames(const Problem &problem, const std::vector<TaskId> &order)
      : namer(problem.numBuffers(), kNoId),
        escaping(problem.escapingBuffers()) {
    std::vector<int32_t> position(problem.numTasks(), 0);
    for (size_t step = 0; step < order.size(); ++step)
      position[order[step]] = static_cast<int32_t>(step);
    std::vector<TaskId> definer(problem.numBuffers(), kNoId);
    auto keepFirst = [&](TaskId &known, TaskId task) {
      if (task != kNoId && (known == kNoId || position[task] < position[known]))
        known = task;
    };
    for (size_t id = 0; id < problem.numValues(); ++id) {
      const scheduling::Value &value = problem.value(static_cast<ValueId>(id));
      keepFirst(namer[value.buffer], value.producer);
      keepFirst(definer[value.buffer], value.definedBy);
    }
    for (size_t id = 0; id < namer.size(); ++id)
      if (namer[id] == kNoId)
        namer[id] = definer[id];
  }
};
} // namespace

/// The op at `step` of `order` and the largest transient buffers live
/// there (non-escaping ones only where `arenaOnly`), named by `names`.
static void describeStep(const TensorGraph &graph,
                         const std::vector<TaskId> &order,
                         const MemoryProfile &profile, const BufferNames &names,
                         int64_t step, bool arenaOnly, std::string &opName,
                         std::string &location,
                         std::vector<PeakBuffer> &buffers) {
  if (step < 0 || step >= static_cast<int64_t>(order.size()))
    return;
  const Problem &problem = graph.getProblem();
  Operation *stepOp = graph.getOp(order[step]);
  opName = stepOp->getName().getStringRef().str();
  location = describeLocation(stepOp->getLoc());
  std::vector<BufferId> live;
  for (size_t id = 0; id < problem.numBuffers(); ++id) {
    const Buffer &buffer = problem.buffer(static_cast<BufferId>(id));
    const BufferLifetime &lifetime = profile.lifetimes[id];
    if (buffer.kind == BufferKind::Transient && lifetime.isLive() &&
        lifetime.start <= step && step <= lifetime.end &&
        !(arenaOnly && names.escaping[id]))
      live.push_back(static_cast<BufferId>(id));
  }
  // Only the largest few are reported (every budget candidate is analysed).
  size_t kept = std::min(live.size(), kPeakBuffersReported);
  std::partial_sort(live.begin(), live.begin() + kept, live.end(),
                    [&](BufferId a, BufferId b) {
                      int64_t sizeA = problem.buffer(a).sizeBytes;
                      int64_t sizeB = problem.buffer(b).sizeBytes;
                      return sizeA != sizeB ? sizeA > sizeB : a < b;
                    });
  live.resize(kept);
  for (BufferId id : live) {
    PeakBuffer entry;
    entry.bytes = problem.buffer(id).sizeBytes;
    entry.escapes = names.escaping[id];
    if (TaskId task = names.namer[id]; task != kNoId) {
      Operation *op = graph.getOp(task);
      entry.op = op->getName().getStringRef().str();
      entry.location = describeLocation(op->getLoc());
      entry.recomputed = op->hasAttr(kRecomputeAttrName);
    }
    buffers.push_back(std::move(entry));
  }
}

FunctionReport mlir::memsched::analyzeFunction(func::FuncOp func,
                                               const CostModel &costModel,
                                               bool boundRecomputation) {
  FunctionReport report;
  report.name = func.getSymName().str();
  report.device = costModel.getDevice().name;
  TensorGraph graph = TensorGraph::build(func, costModel);
  report.status = graph.getStatus();
  if (report.status != TensorGraphStatus::Built) {
    report.skippedReason = graph.getFailureReason().str();
    return report;
  }
  const Problem &problem = graph.getProblem();
  std::vector<TaskId> order = problem.programOrder();
  std::string error;
  const DeviceSpec &device = costModel.getDevice();
  LinkSpec link = getLinkSpec(device);
  std::optional<MemoryProfile> profile;
  std::optional<Timeline> timeline;
  SwapTasks swaps = collectSwapTasks(graph);
  if (swaps.outs.empty()) {
    profile = simulateMemory(problem, order, &error);
    timeline = simulateTime(problem, order, /*copies=*/{}, link, &error);
  } else if (std::optional<IssuedSwapProfile> swapped = simulateIssuedSwaps(
                 problem, order, swaps.outs, swaps.ins, link, &error)) {
    report.swapOuts = static_cast<int64_t>(swaps.outs.size());
    report.swapBytes = swapped->swapBytes;
    report.swapTransferSeconds = swapped->transferSeconds;
    report.swapExposedSeconds =
        swapped->timeline.makespan - swapped->timeline.computeTime;
    report.swapHiddenFraction = swapped->hiddenFraction();
    profile = std::move(swapped->profile);
    timeline = std::move(swapped->timeline);
  }
  if (!profile || !timeline) {
    emitError(func.getLoc())
        << "memsched could not simulate '@" << report.name << "': " << error;
    report.status = TensorGraphStatus::Failed;
    report.skippedReason = error;
    return report;
  }
  report.ops = static_cast<int64_t>(problem.numTasks());
  report.measuredOps =
      llvm::count_if(func.getBody().front(),
                     [](Operation &op) { return op.hasAttr(kCostAttrName); });
  report.residentBytes = profile->residentBytes;
  report.peakTransientBytes = profile->peakTransientBytes;
  report.peakBytes = profile->peakBytes();
  report.maxLiveBytes = profile->maxLiveBytes;
  report.lowerBoundBytes =
      profile->residentBytes + computeLowerBoundTransientBytes(problem);
  report.modeledTimeSeconds = timeline->makespan;
  // The footprint: what memsched-plan-buffers will plan after bufferization
  // (escaping buffers stay separate allocations), the number budgets bound.
  Footprint footprint = computeFootprint(problem, order, *profile);
  report.arenaBytes = footprint.arenaBytes;
  report.arenaMaxLiveBytes = footprint.arenaMaxLiveBytes;
  report.escapingBytes = footprint.escapingBytes;
  FootprintFloor floor = computeFunctionFloor(graph, boundRecomputation);
  report.floorBytes = floor.bytes();
  report.floorWorkingSetBytes = floor.workingSetBytes;
  if (floor.task != kNoId) {
    Operation *op = graph.getOp(floor.task);
    report.floorOp = op->getName().getStringRef().str();
    report.floorLocation = describeLocation(op->getLoc());
  }
  report.recomputeFloorBytes = floor.recomputeBytes();
  report.recomputeFloorWorkingSetBytes = floor.recomputeWorkingSetBytes;
  if (floor.recomputeTask != kNoId) {
    Operation *op = graph.getOp(floor.recomputeTask);
    report.recomputeFloorOp = op->getName().getStringRef().str();
    report.recomputeFloorLocation = describeLocation(op->getLoc());
  } else {
    report.recomputeFloorOp = report.floorOp;
    report.recomputeFloorLocation = report.floorLocation;
  }
  BufferNames names(problem, order);
  describeStep(graph, order, *profile, names, profile->peakStep,
               /*arenaOnly=*/false, report.peakOp, report.peakLocation,
               report.peakBuffers);
  describeStep(graph, order, *profile, names, footprint.arenaPeakStep,
               /*arenaOnly=*/true, report.arenaPeakOp, report.arenaPeakLocation,
               report.arenaPeakBuffers);
  report.estimatedOps = graph.getNumEstimatedOps();
  report.profile = std::move(*profile);
  report.timeline = std::move(*timeline);
  for (TaskId task : order) {
    report.stepNames.push_back(problem.task(task).name);
    report.stepLocations.push_back(
        describeLocation(graph.getOp(task)->getLoc()));
  }
  // The dictionaries the passes leave on the function, as JSON.
  std::pair<StringRef, llvm::json::Object *> dictionaries[] = {
      {kReorderAttrName, &report.reorder}, {kRematAttrName, &report.remat},
      {kSwapAttrName, &report.swap},       {kFitAttrName, &report.fit},
      {kSplitAttrName, &report.split},     {kFuseAttrName, &report.fuse}};
  for (auto [name, target] : dictionaries) {
    auto dict = func->getAttrOfType<DictionaryAttr>(name);
    if (!dict)
      continue;
    llvm::json::Value value = attributeToJSON(dict);
    if (llvm::json::Object *object = value.getAsObject())
      *target = std::move(*object);
  }
  report.plan = collectPlan(graph, swaps, report);
  return report;
}

std::optional<int64_t>
mlir::memsched::computeModelPeak(func::FuncOp func,
                                 const CostModel &costModel) {
  TensorGraph graph = TensorGraph::build(func, costModel);
  if (graph.getStatus() != TensorGraphStatus::Built)
    return std::nullopt;
  const Problem &problem = graph.getProblem();
  std::vector<TaskId> order = problem.programOrder();
  SwapTasks swaps = collectSwapTasks(graph);
  if (!swaps.outs.empty()) {
    std::optional<IssuedSwapProfile> swapped =
        simulateIssuedSwaps(problem, order, swaps.outs, swaps.ins,
                            getLinkSpec(costModel.getDevice()));
    if (!swapped)
      return std::nullopt;
    return swapped->profile.peakBytes();
  }
  std::optional<MemoryProfile> profile = simulateMemory(problem, order);
  if (!profile)
    return std::nullopt;
  return profile->peakBytes();
}

namespace {
class CalleeMemory {
public:
  explicit CalleeMemory(const CostModel &costModel) : costModel(costModel) {}

  /// Annotates the calls in `func` (their callees first), then returns the
  /// peak of transient bytes of `func`.
  int64_t annotate(func::FuncOp func);

private:
  /// Every tensor `func` makes, at once: the bound where no order is known.
  static int64_t countEveryTensor(func::FuncOp func);

  const CostModel &costModel;
  DenseMap<Operation *, int64_t> peakOf;
  DenseSet<Operation *> active;
  /// Functions that can call themselves again, through any chain of calls.
  DenseSet<Operation *> recursive;
};
} // namespace

static int64_t getCallTensorBytes(Type type) {
  return isa<RankedTensorType>(type) ? getStorageBytes(type).value_or(0) : 0;
}

int64_t CalleeMemory::countEveryTensor(func::FuncOp func) {
  int64_t bytes = 0;
  func.walk([&](Operation *op) {
    // An empty tensor allocates at its first write, a constant is a global.
    if (isa<tensor::EmptyOp>(op) || op->hasTrait<OpTrait::ConstantLike>())
      return;
    for (Type type : op->getResultTypes())
      bytes += getCallTensorBytes(type);
  });
  return bytes;
}

/// Whether `callee` may write into the buffer of its argument `index`: an
/// op writes into the argument or a view of it while nothing after that op
/// reads them (bufferization then writes in place; otherwise it copies in
/// the callee, which the callee's own peak counts), or passes one to
/// control flow or another call (not followed: assumed written).
static bool
mayWriteArgument(func::FuncOp callee, unsigned index,
                 DenseSet<std::pair<Operation *, unsigned>> &active) {
  if (callee.isExternal() || !callee.getBody().hasOneBlock() ||
      !active.insert({callee, index}).second)
    return true;
  llvm::scope_exit done([&] { active.erase({callee, index}); });
  Block &block = callee.getBody().front();
  SmallVector<mlir::Value> aliases = {callee.getArgument(index)};
  for (size_t i = 0; i < aliases.size(); ++i)
    for (Operation *user : aliases[i].getUsers())
      if (getViewCandidateSource(user) == aliases[i])
        llvm::append_range(aliases, user->getResults());
  auto isReadAfter = [&](Operation *writer) {
    for (mlir::Value alias : aliases)
      for (Operation *user : alias.getUsers()) {
        Operation *ancestor = block.findAncestorOpInBlock(*user);
        if (!ancestor ||
            (ancestor != writer && writer->isBeforeInBlock(ancestor)))
          return true;
      }
    return false;
  };
  for (mlir::Value alias : aliases) {
    for (OpOperand &use : alias.getUses()) {
      Operation *user = use.getOwner();
      if (auto call = dyn_cast<CallOpInterface>(user)) {
        auto next = dyn_cast_or_null<func::FuncOp>(call.resolveCallable());
        unsigned position = use.getOperandNumber() -
                            call.getArgOperands().getBeginOperandIndex();
        if (!next || mayWriteArgument(next, position, active))
          return true;
        continue;
      }
      if (user->getNumRegions() != 0 && !isa<linalg::LinalgOp>(user))
        return true;
      // A whole insertion of the destination into itself writes nothing.
      if (auto insert = dyn_cast<tensor::InsertSliceOp>(user);
          insert && insert.getSource() == insert.getDest())
        continue;
      auto dps = dyn_cast<DestinationStyleOpInterface>(user);
      bool writes = (dps && dps.isDpsInit(&use)) ||
                    (isa<tensor::InsertSliceOp, tensor::InsertOp>(user) &&
                     use.getOperandNumber() == 1);
      if (!writes)
        continue;
      Operation *writer = block.findAncestorOpInBlock(*user);
      if (!writer || !isReadAfter(writer))
        return true;
    }
  }
  return false;
}

/// Whether bufferization copies `operand` of `call` before a callee writes
/// into it: its buffer (what it is a view of) is a constant's, or is read
/// after the call (a use of it or of a view of it after the call in its
/// block, or outside the block, or by the call again). A call is a fence:
/// no pass moves a reader across it, so the answer holds while the caller
/// is reordered.
static bool mustCopyCallOperand(CallOpInterface call, mlir::Value operand) {
  mlir::Value root = operand;
  while (Operation *producer = root.getDefiningOp()) {
    if (producer->hasTrait<OpTrait::ConstantLike>())
      return true;
    mlir::Value source = getViewCandidateSource(producer);
    if (!source)
      break;
    root = source;
  }
  Block *block = call->getBlock();
  SmallVector<mlir::Value> aliases = {root};
  DenseSet<mlir::Value> seen;
  bool usedByCall = false;
  while (!aliases.empty()) {
    mlir::Value value = aliases.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (Operation *user : value.getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor)
        return true;
      if (ancestor == call.getOperation()) {
        // Passed twice (two arguments sharing one buffer), or read inside.
        if (usedByCall || user != call.getOperation())
          return true;
        usedByCall = true;
        continue;
      }
      if (call->isBeforeInBlock(ancestor))
        return true;
      if (getViewCandidateSource(user) == value)
        aliases.append(user->result_begin(), user->result_end());
    }
  }
  return false;
}

int64_t mlir::memsched::getCallOperandCopyBytes(CallOpInterface call) {
  auto callee = dyn_cast_or_null<func::FuncOp>(call.resolveCallable());
  if (!callee || callee.isExternal())
    return 0;
  int64_t bytes = 0;
  for (auto [index, operand] : llvm::enumerate(call.getArgOperands())) {
    if (!isa<RankedTensorType>(operand.getType()) ||
        index >= callee.getNumArguments())
      continue;
    // A view whose layout the argument's type lacks is copied whatever the
    // callee does with it.
    if (isCopiedAtFunctionBoundary(operand)) {
      bytes += getCallTensorBytes(operand.getType());
      continue;
    }
    DenseSet<std::pair<Operation *, unsigned>> active;
    if (!mayWriteArgument(callee, index, active))
      continue;
    if (mustCopyCallOperand(call, operand))
      bytes += getCallTensorBytes(operand.getType());
  }
  return bytes;
}

int64_t CalleeMemory::annotate(func::FuncOp func) {
  if (auto known = peakOf.find(func); known != peakOf.end())
    return known->second;
  if (!active.insert(func).second)
    return countEveryTensor(func); // Recursion: no order to simulate.
  Builder builder(func.getContext());
  func.walk([&](CallOpInterface call) {
    auto callee = dyn_cast_or_null<func::FuncOp>(call.resolveCallable());
    if (!callee || callee.isExternal())
      return;
    int64_t bytes = annotate(callee);
    for (Type type : call->getResultTypes())
      bytes -= getCallTensorBytes(type);
    // The copies live while the call runs: its workspace too.
    bytes = std::max<int64_t>(bytes, 0) + getCallOperandCopyBytes(call);
    call->setAttr(kWorkspaceAttrName, builder.getI64IntegerAttr(bytes));
    // A callee still being annotated is on a cycle of calls; so is one that
    // reaches one.
    if (active.contains(callee) || recursive.contains(callee)) {
      call->setAttr(kRecursiveCallAttrName, builder.getUnitAttr());
      recursive.insert(func);
    } else {
      call->removeAttr(kRecursiveCallAttrName);
    }
  });
  int64_t peak = -1;
  TensorGraph graph = TensorGraph::build(func, costModel);
  if (graph.getStatus() == TensorGraphStatus::Built)
    if (std::optional<scheduling::MemoryProfile> profile =
            scheduling::simulateMemory(graph.getProblem(),
                                       graph.getProblem().programOrder()))
      peak = profile->peakTransientBytes;
  if (peak < 0)
    peak = countEveryTensor(func);
  active.erase(func);
  peakOf[func] = peak;
  return peak;
}

void mlir::memsched::annotateCallWorkspaces(ModuleOp module) {
  // Sizes only: any device gives the same bytes.
  CostModel costModel(*DeviceSpec::getPreset("h100"));
  CalleeMemory memory(costModel);
  module.walk([&](func::FuncOp func) {
    if (!func.isExternal())
      memory.annotate(func);
  });
}

bool mlir::memsched::hasUnannotatedCalls(ModuleOp module) {
  WalkResult found = module.walk([&](CallOpInterface call) {
    auto callee = dyn_cast_or_null<func::FuncOp>(call.resolveCallable());
    if (callee && !callee.isExternal() && !call->hasAttr(kWorkspaceAttrName))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

FailureOr<std::vector<FunctionReport>>
mlir::memsched::analyzeModule(ModuleOp module, StringRef device,
                              StringRef passName) {
  std::vector<FunctionReport> reports;
  // A given device is checked once; otherwise each function's recorded one.
  std::optional<DeviceSpec> given;
  if (!device.empty()) {
    // Said at the first function when there is one: an implicit module has
    // no location of its own.
    Operation *anchor = module;
    module.walk([&](func::FuncOp func) {
      if (func.isExternal() || func->hasAttr(kHostAttrName))
        return WalkResult::advance();
      anchor = func;
      return WalkResult::interrupt();
    });
    FailureOr<DeviceSpec> spec =
        DeviceSpec::lookupOrEmitError(device, anchor, passName);
    if (failed(spec))
      return failure();
    given = *spec;
  }
  // Calls count their callees' memory: on a copy, the report changes
  // nothing.
  OwningOpRef<ModuleOp> annotated;
  if (hasUnannotatedCalls(module)) {
    annotated = module.clone();
    annotateCallWorkspaces(*annotated);
    module = *annotated;
  }
  bool anyFailed = false;
  module.walk([&](func::FuncOp func) {
    if (func.isExternal() || func->hasAttr(kHostAttrName))
      return;
    FailureOr<DeviceSpec> spec =
        given ? FailureOr<DeviceSpec>(*given)
              : DeviceSpec::resolveOrEmitError("", func, passName);
    if (failed(spec)) {
      anyFailed = true;
      return;
    }
    CostModel costModel(*spec);
    reports.push_back(
        analyzeFunction(func, costModel, /*boundRecomputation=*/true));
    // Said once per function, here, rather than by every analysis.
    if (reports.back().status != TensorGraphStatus::Built)
      TensorGraph::build(func, costModel).emitStatus(passName);
    anyFailed |= reports.back().status == TensorGraphStatus::Failed;
  });
  if (anyFailed)
    return failure();
  return reports;
}

/// Buffers live at a peak, largest first, as JSON.
static llvm::json::Array toJson(ArrayRef<PeakBuffer> buffers) {
  llvm::json::Array array;
  for (const PeakBuffer &buffer : buffers)
    array.push_back(llvm::json::Object{{"bytes", buffer.bytes},
                                       {"op", buffer.op},
                                       {"location", buffer.location},
                                       {"escapes", buffer.escapes},
                                       {"recomputed", buffer.recomputed}});
  return array;
}

llvm::json::Object mlir::memsched::toJSON(const FunctionReport &report,
                                          const ReportOptions &options) {
  llvm::json::Object object;
  object["name"] = report.name;
  if (report.status != TensorGraphStatus::Built) {
    object["skipped"] = report.skippedReason;
    return object;
  }
  object["ops"] = report.ops;
  object["measured_ops"] = report.measuredOps;
  object["estimated_ops"] = report.estimatedOps;
  object["resident_bytes"] = report.residentBytes;
  object["peak_transient_bytes"] = report.peakTransientBytes;
  object["peak_bytes"] = report.peakBytes;
  object["lower_bound_bytes"] = report.lowerBoundBytes;
  object["max_live_bytes"] = report.maxLiveBytes;
  object["modeled_time_s"] = report.modeledTimeSeconds;
  object["device"] = report.device;
  object["arena_bytes"] = report.arenaBytes;
  object["arena_max_live_bytes"] = report.arenaMaxLiveBytes;
  object["fragmentation"] =
      report.arenaMaxLiveBytes == 0
          ? 1.0
          : static_cast<double>(report.arenaBytes) / report.arenaMaxLiveBytes;
  object["escaping_bytes"] = report.escapingBytes;
  object["floor_bytes"] = report.floorBytes;
  object["floor_working_set_bytes"] = report.floorWorkingSetBytes;
  object["floor_op"] = report.floorOp;
  object["floor_location"] = report.floorLocation;
  object["recompute_floor_bytes"] = report.recomputeFloorBytes;
  object["recompute_floor_working_set_bytes"] =
      report.recomputeFloorWorkingSetBytes;
  object["recompute_floor_op"] = report.recomputeFloorOp;
  object["recompute_floor_location"] = report.recomputeFloorLocation;
  object["peak_op"] = report.peakOp;
  object["peak_location"] = report.peakLocation;
  object["peak_buffers"] = toJson(report.peakBuffers);
  object["arena_peak_op"] = report.arenaPeakOp;
  object["arena_peak_location"] = report.arenaPeakLocation;
  object["arena_peak_buffers"] = toJson(report.arenaPeakBuffers);
  if (!report.reorder.empty())
    object["reorder"] = llvm::json::Object(report.reorder);
  if (!report.remat.empty())
    object["remat"] = llvm::json::Object(report.remat);
  object["planned_bytes"] = report.plannedBytes();
  object["swap_ops"] = report.swapOuts;
  object["swap_bytes"] = report.swapBytes;
  object["swap_transfer_time_s"] = report.swapTransferSeconds;
  object["swap_exposed_time_s"] = report.swapExposedSeconds;
  object["swap_hidden_fraction"] = report.swapHiddenFraction;
  if (!report.swap.empty())
    object["swap"] = llvm::json::Object(report.swap);
  if (!report.fit.empty())
    object["fit"] = llvm::json::Object(report.fit);
  if (!report.split.empty())
    object["split"] = llvm::json::Object(report.split);
  if (!report.fuse.empty())
    object["fuse"] = llvm::json::Object(report.fuse);
  if (!report.plan.empty()) {
    llvm::json::Array plan;
    for (const PlanEntry &entry : report.plan)
      plan.push_back(llvm::json::Object{{"kind", entry.kind},
                                        {"location", entry.location},
                                        {"op", entry.op},
                                        {"ops", entry.ops},
                                        {"bytes", entry.bytes},
                                        {"time_s", entry.timeSeconds}});
    object["plan"] = std::move(plan);
  }
  if (options.includeTimeline) {
    llvm::json::Array ops, starts, ends, live;
    for (size_t step = 0; step < report.stepNames.size(); ++step) {
      ops.push_back(report.stepNames[step]);
      starts.push_back(report.timeline.tasks[step].start);
      ends.push_back(report.timeline.tasks[step].end);
      live.push_back(report.profile.liveBytes[step]);
    }
    object["timeline"] = llvm::json::Object{{"ops", std::move(ops)},
                                            {"start_s", std::move(starts)},
                                            {"end_s", std::move(ends)},
                                            {"live_bytes", std::move(live)}};
  }
  return object;
}

/// Replaces every number that is not finite by null: JSON has no infinity
/// or NaN, and a reader must never see a bare `inf`.
static void replaceNonFinite(llvm::json::Value &value) {
  if (std::optional<double> number = value.getAsNumber();
      number && !std::isfinite(*number)) {
    value = nullptr;
  } else if (llvm::json::Object *object = value.getAsObject()) {
    for (auto &entry : *object)
      replaceNonFinite(entry.second);
  } else if (llvm::json::Array *array = value.getAsArray()) {
    for (llvm::json::Value &element : *array)
      replaceNonFinite(element);
  }
}

llvm::json::Value mlir::memsched::toJSON(ArrayRef<FunctionReport> reports,
                                         const ReportOptions &options) {
  llvm::json::Array functions;
  for (const FunctionReport &report : reports)
    functions.push_back(toJSON(report, options));
  llvm::json::Value result =
      llvm::json::Object{{"functions", std::move(functions)}};
  replaceNonFinite(result);
  return result;
}

void mlir::memsched::printTextReport(ArrayRef<FunctionReport> reports,
                                     llvm::raw_ostream &os) {
  for (const FunctionReport &report : reports) {
    os << "memsched report for @" << report.name << "\n";
    if (report.status != TensorGraphStatus::Built) {
      os << "  skipped: " << report.skippedReason << "\n";
      continue;
    }
    auto row = [&](StringRef label, int64_t bytes) {
      os << "  " << llvm::left_justify(label, 22)
         << llvm::right_justify(formatBytes(bytes), 12) << "  (" << bytes
         << " bytes)\n";
    };
    // The headline: what the device must hold and the modelled step time,
    // and after a budget pass, before and after against the budget and the
    // smallest reachable footprint. Every other figure is secondary.
    row("planned (device)", report.plannedBytes());
    os << "  " << llvm::left_justify("modeled time", 22)
       << llvm::right_justify(
              llvm::formatv("{0:e3} s", report.modeledTimeSeconds).str(), 12)
       << "  (device " << report.device << ")\n";
    if (!report.fit.empty()) {
      auto integer = [&](StringRef key) {
        return report.fit.getInteger(key).value_or(0);
      };
      row("planned before", integer("planned_before_bytes"));
      os << "  " << llvm::left_justify("budget", 22)
         << llvm::right_justify(formatBytes(integer("budget_bytes")), 12)
         << "  (" << integer("budget_bytes") << " bytes), met with "
         << report.fit.getString("chosen").value_or("?");
      if (std::optional<int64_t> bodies =
              report.fit.getInteger("bodies_planned"))
        os << "; inside " << *bodies << " control-flow bod"
           << (*bodies == 1 ? "y" : "ies") << ", "
           << report.fit.getString("bodies_chosen").value_or("?");
      os << "\n";
      if (std::optional<int64_t> smallest =
              report.fit.getInteger("smallest_bytes"))
        row("smallest reachable", *smallest);
      double before = report.fit.getNumber("time_before_s").value_or(0.0);
      os << "  " << llvm::left_justify("time before", 22)
         << llvm::right_justify(llvm::formatv("{0:e3} s", before).str(), 12);
      if (before > 0) {
        double change = 100.0 * (report.modeledTimeSeconds / before - 1);
        os << llvm::formatv("  ({0}{1:F1}% after)", change >= 0 ? "+" : "",
                            change);
      }
      os << "\n";
    }
    os << "  " << llvm::left_justify("floor", 22)
       << llvm::right_justify(formatBytes(report.floorBytes), 12) << "  ("
       << report.floorBytes << " bytes = resident + returned + "
       << formatBytes(report.floorWorkingSetBytes) << " for '" << report.floorOp
       << "' at " << report.floorLocation << ")\n";
    if (report.recomputeFloorBytes > report.floorBytes)
      os << "  " << llvm::left_justify("floor, no swaps", 22)
         << llvm::right_justify(formatBytes(report.recomputeFloorBytes), 12)
         << "  (" << report.recomputeFloorBytes
         << " bytes = resident + returned + "
         << formatBytes(report.recomputeFloorWorkingSetBytes)
         << ": two operands of '" << report.recomputeFloorOp << "' at "
         << report.recomputeFloorLocation
         << ", each made while the other is held)\n";
    if (!report.fuse.empty()) {
      auto integer = [&](StringRef key) {
        return report.fuse.getInteger(key).value_or(0);
      };
      os << "  " << llvm::left_justify("floor before fusing", 22)
         << llvm::right_justify(formatBytes(integer("floor_before_bytes")), 12)
         << "  (generators fused into " << integer("generators") << " readers"
         << (report.fuse.getBoolean("elementwise").value_or(false)
                 ? ", elementwise chains fused"
                 : "")
         << ")\n";
    }
    if (!report.split.empty()) {
      auto integer = [&](StringRef key) {
        return report.split.getInteger(key).value_or(0);
      };
      os << "  " << llvm::left_justify("floor before split", 22)
         << llvm::right_justify(formatBytes(integer("floor_before_bytes")), 12)
         << "  (" << integer("ops_split") << " ops split into "
         << integer("pieces") << " pieces)\n";
    }
    auto printPeak = [&](StringRef title, StringRef location, StringRef op,
                         ArrayRef<PeakBuffer> buffers) {
      if (op.empty())
        return;
      os << "  " << llvm::left_justify(title, 22) << location << " ('" << op
         << "'), largest live buffers:\n";
      for (const PeakBuffer &buffer : buffers.take_front(kPeakBuffersShown)) {
        os << "    " << llvm::right_justify(formatBytes(buffer.bytes), 22)
           << "  " << (buffer.location.empty() ? "?" : buffer.location);
        if (!buffer.op.empty())
          os << " (" << buffer.op << (buffer.recomputed ? ", recomputed" : "")
             << (buffer.escapes ? ", returned" : "") << ")";
        os << "\n";
      }
    };
    printPeak("peak at", report.peakLocation, report.peakOp,
              report.peakBuffers);
    // Where the arena peaks elsewhere, that step is what the planned bytes
    // depend on.
    if (report.arenaPeakLocation != report.peakLocation ||
        report.arenaPeakOp != report.peakOp)
      printPeak("arena peaks at", report.arenaPeakLocation, report.arenaPeakOp,
                report.arenaPeakBuffers);
    if (!report.plan.empty()) {
      // The plan's largest decisions (the JSON has them all).
      os << "  plan (" << report.plan.size() << " decision"
         << (report.plan.size() == 1 ? "" : "s") << ", largest first):\n";
      for (const PlanEntry &entry :
           ArrayRef(report.plan).take_front(kPlanRowsShown)) {
        os << "    " << llvm::left_justify(entry.kind, 10)
           << llvm::right_justify(formatBytes(entry.bytes), 12)
           << llvm::right_justify(
                  llvm::formatv("+{0:e2} s", entry.timeSeconds).str(), 13)
           << "  " << entry.location;
        if (!entry.op.empty())
          os << " (" << entry.op
             << (entry.ops > 1 ? " x" + std::to_string(entry.ops) : "") << ")";
        os << "\n";
      }
    }
    os << "  secondary figures:\n";
    os << "  " << llvm::left_justify("ops", 22)
       << llvm::right_justify(std::to_string(report.ops), 12) << "\n";
    row("resident", report.residentBytes);
    row("peak transient", report.peakTransientBytes);
    row("peak", report.peakBytes);
    row("lower bound", report.lowerBoundBytes);
    row("max live", report.maxLiveBytes);
    row("arena (predicted)", report.arenaBytes);
    row("arena max live", report.arenaMaxLiveBytes);
    row("escaping buffers", report.escapingBytes);
    if (!report.reorder.empty()) {
      auto integer = [&](StringRef key) {
        return report.reorder.getInteger(key).value_or(0);
      };
      std::optional<StringRef> chosen = report.reorder.getString("chosen");
      std::optional<bool> optimal = report.reorder.getBoolean("optimal");
      os << "  " << llvm::left_justify("reordered by", 22)
         << llvm::right_justify(chosen.value_or("?"), 12)
         << (optimal.value_or(false) ? "  (proven optimal)" : "") << "\n";
      row("peak before reorder", integer("peak_before_bytes"));
      row("peak after reorder", integer("peak_after_bytes"));
    }
    auto seconds = [&](StringRef label, double value) {
      os << "  " << llvm::left_justify(label, 22)
         << llvm::right_justify(llvm::formatv("{0:e3} s", value).str(), 12)
         << "\n";
    };
    if (!report.remat.empty()) {
      os << "  " << llvm::left_justify("recomputed ops", 22)
         << llvm::right_justify(
                std::to_string(
                    report.remat.getInteger("recomputed_ops").value_or(0)),
                12)
         << "\n";
      seconds("recompute time",
              report.remat.getNumber("recompute_time_s").value_or(0.0));
    }
    if (report.swapOuts > 0) {
      os << "  " << llvm::left_justify("swapped values", 22)
         << llvm::right_justify(std::to_string(report.swapOuts), 12) << "\n";
      row("swapped bytes", report.swapBytes);
      seconds("swap exposed time", report.swapExposedSeconds);
    }
  }
}

void mlir::memsched::writeChromeTrace(ArrayRef<FunctionReport> reports,
                                      llvm::raw_ostream &os) {
  llvm::json::Array events;
  int64_t processId = 0;
  for (const FunctionReport &report : reports) {
    ++processId;
    events.push_back(llvm::json::Object{
        {"name", "process_name"},
        {"ph", "M"},
        {"pid", processId},
        {"args", llvm::json::Object{{"name", "@" + report.name}}}});
    events.push_back(
        llvm::json::Object{{"name", "thread_name"},
                           {"ph", "M"},
                           {"pid", processId},
                           {"tid", 0},
                           {"args", llvm::json::Object{{"name", "compute"}}}});
    if (report.status != TensorGraphStatus::Built)
      continue;
    const std::vector<Interval> &tasks = report.timeline.tasks;
    for (size_t step = 0; step < report.stepNames.size(); ++step) {
      // Task ids are program order, which is the order simulated here.
      const Interval &interval = tasks[step];
      double startUs = interval.start * 1e6;
      // Named by where the op comes from (a layer's module path for
      // imported models), the op itself in the arguments.
      events.push_back(llvm::json::Object{
          {"name", report.stepLocations[step]},
          {"ph", "X"},
          {"pid", processId},
          {"tid", 0},
          {"ts", startUs},
          {"dur", (interval.end - interval.start) * 1e6},
          {"args", llvm::json::Object{{"step", int64_t(step)},
                                      {"op", report.stepNames[step]}}}});
      events.push_back(llvm::json::Object{
          {"name", "device memory"},
          {"ph", "C"},
          {"pid", processId},
          {"ts", startUs},
          {"args", llvm::json::Object{
                       {"live_bytes", report.residentBytes +
                                          report.profile.liveBytes[step]}}}});
    }
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"traceEvents", std::move(events)},
                                   {"displayTimeUnit", "ms"}}));
  os << "\n";
}
