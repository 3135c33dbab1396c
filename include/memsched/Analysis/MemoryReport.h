//===- MemoryReport.h - Per-function memory and time figures ----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the figures every memsched report shows for a function
// (resident, peak, lower bound, modelled time, ...) and their text, JSON and
// Chrome-trace renderings. Field names are a contract: later passes add
// fields, never rename these.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_MEMORYREPORT_H
#define MEMSCHED_ANALYSIS_MEMORYREPORT_H

#include "memsched/Analysis/TensorGraph.h"
#include "memsched/Scheduling/Footprint.h"
#include "memsched/Scheduling/MemorySimulator.h"
#include "memsched/Scheduling/Swap.h"
#include "memsched/Scheduling/TimeModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::memsched {

/// The memory and time figures of one function in its current op order.
/// One decision of the plan that made a function fit, and its share of the
/// planned bytes saved (see FunctionReport::plan).
struct PlanEntry {
  /// `reorder`, `recompute`, `swap` or `in-place`.
  std::string kind;
  /// Where the decision applies: describeLocation() of the recomputed op or
  /// of the swapped value's producer; the function for reorder and in-place.
  std::string location;
  /// The op recomputed or whose result is swapped (empty for the others).
  std::string op;
  /// Ops the entry stands for (recomputed clones, swapped values).
  int64_t ops = 0;
  /// Share of the planned bytes saved.
  int64_t bytes = 0;
  /// Modelled time added: the clones' time, or the swap's share of the copy
  /// time compute waits for.
  double timeSeconds = 0;
};

/// A transient buffer live at the peak step.
struct PeakBuffer {
  int64_t bytes = 0;
  /// The op that first writes it (or defines it: an empty tensor, a view),
  /// and describeLocation() of that op.
  std::string op;
  std::string location;
  /// Returned: live to the end whatever the order.
  bool escapes = false;
  /// Written by a recomputed op (a clone memsched-remat made).
  bool recomputed = false;
};

struct FunctionReport {
  /// Symbol name of the function.
  std::string name;
  /// Whether the figures below exist (Built) or why not.
  TensorGraphStatus status = TensorGraphStatus::Failed;
  std::string skippedReason;
  /// Number of ops scheduled (the terminator excluded).
  int64_t ops = 0;
  /// Ops whose time is measured (`memsched.cost`, e.g. from a GPU profile
  /// read back by memsched-import-profile) rather than modelled.
  int64_t measuredOps = 0;
  /// Ops without a cost model, whose time is a conservative estimate.
  int64_t estimatedOps = 0;
  int64_t residentBytes = 0;
  int64_t peakTransientBytes = 0;
  int64_t peakBytes = 0;
  int64_t lowerBoundBytes = 0;
  int64_t maxLiveBytes = 0;
  double modeledTimeSeconds = 0;
  std::string device;
  /// Arena that memsched-plan-buffers is predicted to allocate: the
  /// transient buffers that do not escape, planned with the offset planner
  /// on their modelled lifetimes (256-byte alignment), and op workspaces
  /// (scheduling::computeFootprint).
  int64_t arenaBytes = 0;
  /// Max over steps of the live bytes of those buffers.
  int64_t arenaMaxLiveBytes = 0;
  /// Transient buffers that escape (returned values): allocated outside the
  /// arena.
  int64_t escapingBytes = 0;
  /// The smallest planned bytes any order, recomputation or swap plan of
  /// this function's ops and buffers can reach
  /// (scheduling::computeFootprintFloor): resident + escaping + the largest
  /// working set of one op, which `floorOp` at `floorLocation` needs.
  int64_t floorBytes = 0;
  int64_t floorWorkingSetBytes = 0;
  std::string floorOp;
  std::string floorLocation;
  /// The smallest planned bytes any order and recomputation plan of these
  /// ops can reach, without swaps (FootprintFloor::recomputeBytes): at least
  /// floorBytes; above it where two operands `recomputeFloorOp` reads cannot
  /// be made without the other held, with what making them needs.
  int64_t recomputeFloorBytes = 0;
  int64_t recomputeFloorWorkingSetBytes = 0;
  std::string recomputeFloorOp;
  std::string recomputeFloorLocation;
  /// The op of the first step at which the transient bytes peak, and the
  /// largest transient buffers live there (at most kPeakBuffersReported,
  /// largest first): what holds the memory a plan would have to cut.
  std::string peakOp;
  std::string peakLocation;
  std::vector<PeakBuffer> peakBuffers;
  /// The same at the first step at which the arena's live bytes peak (its
  /// buffers only, workspaces left out): what sets arenaMaxLiveBytes, so what
  /// a plan must cut to lower the planned bytes. Escaping buffers count
  /// whole whenever they live, so this step may differ from the peak's.
  std::string arenaPeakOp;
  std::string arenaPeakLocation;
  std::vector<PeakBuffer> arenaPeakBuffers;
  /// The plan, one entry per decision (recomputed ops and swapped values
  /// grouped by location), largest saving first. The reorder entry has what
  /// memsched-reorder saved; the budget pass's saving (its
  /// planned_before_bytes minus planned_bytes now) is split over the
  /// recompute and swap entries in proportion to the bytes each frees (the
  /// recomputed or swapped values), or is one in-place entry when neither
  /// was used. The entries add up to the planned bytes before memsched
  /// minus after. Empty without a reorder or budget pass.
  std::vector<PlanEntry> plan;
  /// memsched.swap_out ops, bytes copied in both directions, the copy
  /// time, and the part of it compute waits for (GUIDE §4 two-stream
  /// model). With swaps, the profile holds each swapped-out buffer until
  /// its copy ends.
  int64_t swapOuts = 0;
  int64_t swapBytes = 0;
  double swapTransferSeconds = 0;
  double swapExposedSeconds = 0;
  double swapHiddenFraction = 1.0;
  /// Live transient bytes per step and buffer lifetimes.
  scheduling::MemoryProfile profile;
  /// Start and end of each op on the compute stream.
  scheduling::Timeline timeline;
  /// Op names per step, for traces.
  std::vector<std::string> stepNames;
  /// describeLocation() of each step's op.
  std::vector<std::string> stepLocations;
  /// The `memsched.reorder` dictionary memsched-reorder left on the
  /// function, as JSON; empty if the function was not reordered.
  llvm::json::Object reorder;
  /// The `memsched.remat` dictionary memsched-remat left on the function, as
  /// JSON; empty if the function went through no remat.
  llvm::json::Object remat;
  /// The `memsched.swap` dictionary memsched-swap left on the function.
  llvm::json::Object swap;
  /// The `memsched.fit` dictionary memsched-fit left on the function.
  llvm::json::Object fit;
  /// The `memsched.split` dictionary memsched-split left on the function.
  llvm::json::Object split;
  /// The `memsched.fuse` dictionary memsched-fuse left on the function.
  llvm::json::Object fuse;
  /// resident + arena + escaping (scheduling::Footprint): the device memory
  /// the function needs after buffer planning, what a budget bounds.
  int64_t plannedBytes() const {
    return residentBytes + arenaBytes + escapingBytes;
  }
};

/// What optional parts a JSON report includes.
struct ReportOptions {
  /// Adds "timeline": per step, the op, its modelled start and end in
  /// seconds, and the live transient bytes.
  bool includeTimeline = false;
};

/// The host link of \p device for the two-stream time model.
scheduling::LinkSpec getLinkSpec(const DeviceSpec &device);

/// The memsched.swap_out and memsched.swap_in ops of a graph as issued
/// swaps: each swap-in needed by the first reader of its result.
struct SwapTasks {
  std::vector<scheduling::IssuedSwapOut> outs;
  std::vector<scheduling::IssuedSwapIn> ins;
};
SwapTasks collectSwapTasks(const TensorGraph &graph);

/// The floor of a function (scheduling::computeFootprintFloor) with the
/// in-place writes memsched makes: an elementwise linalg op's result may
/// take the buffer of an input of its type, so the pair counts once. A chain
/// of such writes ending in a returned buffer is not followed, so a plan
/// that writes one can go below this floor. With \p boundRecomputation, also
/// the floor of plans without swaps (FootprintFloor::recomputeBytes), which
/// costs a search the passes' own measurements do not need.
scheduling::FootprintFloor
computeFunctionFloor(const TensorGraph &graph, bool boundRecomputation = false);

/// Builds the graph of `func` and computes its figures in program order.
/// Diagnostics from the graph builder are emitted on the IR. The floor
/// without swaps (`recomputeFloor*`) is computed only with
/// \p boundRecomputation (analyzeModule, what memsched-report prints);
/// otherwise it is the floor.
FunctionReport analyzeFunction(func::FuncOp func, const CostModel &costModel,
                               bool boundRecomputation = false);

/// The modelled peak (resident + transient bytes) of `func` in its current
/// order, or std::nullopt if its graph cannot be built. Passes use it to
/// compare a function before and after a rewrite.
std::optional<int64_t> computeModelPeak(func::FuncOp func,
                                        const CostModel &costModel);

/// Sets `memsched.workspace` on every call in `module` to a function with a
/// body: what the callee holds at its peak (its transients in its current
/// order, its own calls counted first the same way) less the call's
/// results; every tensor its body makes where it cannot be simulated (a
/// recursive callee, one outside the model); plus the operands the caller
/// copies for the call (getCallOperandCopyBytes). Function passes may not
/// read other functions, so this is how they see callees.
void annotateCallWorkspaces(ModuleOp module);

/// The bytes the caller copies before `call` (to a function with a body):
/// each operand whose layout the identity layout of the argument lacks
/// (isCopiedAtFunctionBoundary), and so that the callee can write into an
/// argument, each operand the callee may write (a write into the argument
/// or a view of it, or passing it to control flow or a call) that is a
/// constant or a view of one, or whose buffer the caller reads after the
/// call (calls are fences: no pass moves a reader across one).
int64_t getCallOperandCopyBytes(CallOpInterface call);

/// Whether some call in `module` to a function with a body has no
/// `memsched.workspace` yet.
bool hasUnannotatedCalls(ModuleOp module);

/// Analyzes every function with a body in `module`, in walk order, for the
/// device `device` names, or when it is empty the device each function
/// records (DeviceSpec::resolveOrEmitError). Fails when some function cannot
/// be analyzed (its error is emitted, prefixed with `passName`); skipped
/// functions are reported as such. Calls count what their callees hold
/// (annotateCallWorkspaces, on a copy when the module's calls are not
/// annotated yet).
FailureOr<std::vector<FunctionReport>>
analyzeModule(ModuleOp module, StringRef device,
              StringRef passName = "memsched-report");

/// Returns the JSON object of one function, with the contract's field names.
llvm::json::Object toJSON(const FunctionReport &report,
                          const ReportOptions &options = {});

/// Returns `{"functions": [...]}` for a list of reports.
llvm::json::Value toJSON(ArrayRef<FunctionReport> reports,
                         const ReportOptions &options = {});

/// Prints the human-readable table of a list of reports.
void printTextReport(ArrayRef<FunctionReport> reports, llvm::raw_ostream &os);

/// Writes a Chrome trace (Trace Event Format, loads in Perfetto): one process
/// per function with a compute track of op slices and a memory counter.
void writeChromeTrace(ArrayRef<FunctionReport> reports, llvm::raw_ostream &os);

/// A short, readable name for where an op comes from: the name of a name
/// location (the importer's module path and aten op), file:line:col, or the
/// first known part of a fused or call-site location.
std::string describeLocation(Location loc);

/// Formats a byte count with a binary unit, e.g. "1.50 MiB".
std::string formatBytes(int64_t bytes);

} // namespace mlir::memsched

#endif // MEMSCHED_ANALYSIS_MEMORYREPORT_H
