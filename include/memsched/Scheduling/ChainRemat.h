//===- ChainRemat.h - Rematerialization of heterogeneous chains -*- C++ -*-===//
//
// This file declares optimal checkpointing of heterogeneous chains: the
// dynamic program of Rotor (Beaumont, Eyraud-Dubois, Herrmann, Joly and
// Shilova, "Optimal checkpointing for heterogeneous chains: how to train deep
// neural networks with limited memory", Inria RR-9302), the game it plays, a
// byte-exact simulator of that game, an exhaustive oracle for short chains,
// and the baselines it is measured against: Chen et al.'s sqrt(n) segments
// ("Training deep nets with sublinear memory cost", 2016), PyTorch's
// checkpoint_sequential and storing everything.
//
// The chain. Stages l = 1..L; stage l reads the activation x^{l-1} and
// produces x^l; x^0 is the input. Backward stage l reads the gradient d^l
// (with respect to x^l) and produces d^{l-1}. Values and their sizes:
//  - x^l, ChainStage::outputBytes (x^0: Chain::inputBytes);
//  - xbar^l (l >= 1), ChainStage::savedBytes >= outputBytes: everything the
//    backward of stage l needs from its forward, x^l included, so a stored
//    xbar^l also makes x^l available;
//  - d^l, ChainStage::gradBytes (d^0: Chain::inputGradBytes, 0 when the
//    input gradient is not wanted).
// x^l is *available* when it is stored on its own, when xbar^l is stored, or
// when l = 0: the input x^0 is stored from start to end and never freed.
//
// The loss convention. d^L is the seed of the backward pass: it is stored
// from the start, counted in memory from the start (as if it came with the
// input) until B_L frees it. A chain whose last stage is the loss function
// gives that stage a scalar output and seed, so d^L costs (almost) nothing;
// this is Rotor's convention, where the sub-chain [a, b] counts the gradient
// of its output during its whole run.
//
// The operations (l = 1..L); "stored" is the set of stored values, and the
// memory an operation needs is the bytes of stored values plus its output
// plus its temporary overhead:
//  - F0_l (ForwardNone): needs x^{l-1} available and x^l not available;
//    memory stored + outputBytes + forwardOverhead; then x^l is stored and
//    x^{l-1}, if stored on its own and l >= 2, is freed.
//  - Fck_l (ForwardCheckpoint): the same, but x^{l-1} is kept.
//  - Fall_l (ForwardAll): needs x^{l-1} available and xbar^l not stored;
//    memory stored + savedBytes + forwardOverhead; then xbar^l is stored,
//    x^{l-1} is kept, and a separately stored x^l is dropped (xbar^l holds
//    it).
//  - B_l (Backward): needs d^l, xbar^l and x^{l-1} available; memory stored
//    + gradBytes of d^{l-1} + backwardOverhead; then d^{l-1} is stored, d^l
//    and xbar^l are freed, and x^{l-1}, if stored on its own and l >= 2, is
//    freed: the next useful operation, B_{l-1}, reads x^{l-1} from
//    xbar^{l-1}.
//  - Free (not a Rotor operation; only the unrestricted exhaustive search
//    uses it): drops a stored value other than x^0.
// A schedule is a sequence of operations that ends as soon as d^0 is
// stored. Its time is the sum of forwardTime over forward operations and of
// backwardTime over backward ones; its peak is the largest memory of an
// operation (or the initial inputBytes + d^L bytes).
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_CHAINREMAT_H
#define MEMSCHED_SCHEDULING_CHAINREMAT_H

#include "memsched/Scheduling/Problem.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// One stage of a chain (see the file comment for the model).
struct ChainStage {
  /// Name used in diagnostics and tables.
  std::string name;
  /// u_f: time of one forward execution, in seconds.
  double forwardTime = 0.0;
  /// u_b: time of the backward execution.
  double backwardTime = 0.0;
  /// omega_x: bytes of the activation x^l.
  int64_t outputBytes = 0;
  /// omega_xbar: bytes of xbar^l, which includes x^l (>= outputBytes).
  int64_t savedBytes = 0;
  /// omega_delta: bytes of the gradient d^l.
  int64_t gradBytes = 0;
  /// Temporary bytes while the forward runs (any forward kind).
  int64_t forwardOverhead = 0;
  /// Temporary bytes while the backward runs.
  int64_t backwardOverhead = 0;
};

/// A chain of stages 1..L and its input.
struct Chain {
  /// Bytes of x^0, stored throughout.
  int64_t inputBytes = 0;
  /// Bytes of d^0, produced by B_1.
  int64_t inputGradBytes = 0;
  /// Stage l is stages[l - 1].
  std::vector<ChainStage> stages;

  /// L.
  int32_t length() const { return static_cast<int32_t>(stages.size()); }
  /// Stage l, 1-based as in the model.
  const ChainStage &stage(int32_t l) const { return stages[l - 1]; }
  /// Sum of forwardTime + backwardTime: the time without recomputation,
  /// the least any schedule can take.
  double computeTime() const;
  /// Checks 1 <= L <= 32767, non-negative finite times, non-negative sizes,
  /// savedBytes >= outputBytes and a total of all sizes below 2^60 (so that
  /// no sum of sizes overflows).
  bool verify(std::string *error = nullptr) const;
};

/// The kinds of operation (see the file comment).
enum class ChainOpKind {
  ForwardNone,
  ForwardCheckpoint,
  ForwardAll,
  Backward,
  Free,
};

/// The kinds of value a Free operation drops.
enum class ChainValue {
  /// x^l stored on its own.
  Activation,
  /// xbar^l.
  Saved,
  /// d^l.
  Gradient,
};

/// One operation of a chain schedule.
struct ChainOp {
  ChainOpKind kind = ChainOpKind::ForwardNone;
  /// The stage l (1..L); for Free, the index of the value dropped (0..L).
  int32_t stage = 1;
  /// Free only: which value of index `stage` is dropped.
  ChainValue value = ChainValue::Activation;

  bool operator==(const ChainOp &other) const {
    return kind == other.kind && stage == other.stage &&
           (kind != ChainOpKind::Free || value == other.value);
  }
  bool operator!=(const ChainOp &other) const { return !(*this == other); }
};

/// Short text for an operation, e.g. "Fck_3", "B_2", "free xbar^1".
std::string describeChainOp(const ChainOp &op);

/// No memory limit.
constexpr int64_t kUnlimitedMemory = std::numeric_limits<int64_t>::max();

/// What simulateChain() measured.
struct ChainReplay {
  /// Largest memory of an operation, in bytes.
  int64_t peakBytes = 0;
  /// Total time of the schedule.
  double time = 0.0;
  /// Time of forward operations beyond one per stage:
  /// time - chain.computeTime().
  double recomputeTime = 0.0;
  /// Number of forward operations (L when nothing is recomputed).
  int64_t forwardOps = 0;
};

/// Replays \p ops on \p chain in bytes, checking every precondition of the
/// game and that no operation needs more than \p memoryLimit bytes, and that
/// the schedule ends with d^0 computed (and not before its last operation).
/// Fails with the first violation in \p error. O(L + ops).
std::optional<ChainReplay> simulateChain(const Chain &chain,
                                         const std::vector<ChainOp> &ops,
                                         int64_t memoryLimit = kUnlimitedMemory,
                                         std::string *error = nullptr);

//===----------------------------------------------------------------------===//
// The Rotor dynamic program
//===----------------------------------------------------------------------===//

/// How solveRotor() discretizes memory.
struct RotorOptions {
  /// The memory limit M is split into this many slots of ceil(M / slots)
  /// bytes; every size is rounded up to whole slots and the budget down, so
  /// a schedule that fits in slots fits in bytes. More slots: closer to the
  /// byte optimum, linearly more time and table memory.
  int64_t memorySlots = 500;
  /// If positive, the slot size in bytes, overriding memorySlots (the table
  /// then has floor(M / slotBytes) + 1 columns). A fixed slot size makes the
  /// optimum non-increasing in M, and slotBytes = 1 makes the program exact.
  int64_t slotBytes = 0;
};

/// The result of solveRotor().
struct RotorSolution {
  /// Whether a schedule exists within the (discretized) budget.
  bool feasible = false;
  /// The optimal time the dynamic program computed (infinity if infeasible).
  double time = std::numeric_limits<double>::infinity();
  /// A schedule of that time, rebuilt from the tables.
  std::vector<ChainOp> ops;
  /// Bytes per slot.
  int64_t slotBytes = 1;
  /// Slots available to the chain after the input: floor(M / slotBytes) -
  /// ceil(inputBytes / slotBytes).
  int64_t budgetSlots = 0;
};

/// Solves the chain with Rotor's dynamic program. For a segment [a, b]
/// (stages a+1..b, entered with x^a available and not counted, d^b stored
/// and counted) and a budget m, Opt(a, b, m) is the least of
///  - "store all now": Fall_{a+1}, then Opt(a+1, b, m - xbar^{a+1}), then
///    B_{a+1}; and
///  - "checkpoint later" at every a < j < b: Fck_{a+1}, F0_{a+2..j}, then
///    Opt(j, b, m - x^j) with x^j stored, then Opt(a, j, m), entered with
///    d^j after B_{j+1} has freed x^j;
/// each only when every operation it runs itself fits in m. The answer is
/// Opt(0, L, floor(M / s) - ceil(inputBytes / s)) with s the slot size.
/// Budgets beyond the (rounded) peak of storing everything are cut to it:
/// there no operation runs twice, which is optimal. The program is optimal
/// among persistent schedules (see ChainSearchOptions) of the rounded chain.
/// O(L^3 S) time and L (L + 1) / 2 (S + 1) doubles of memory for S budget
/// slots (at most 2^28 entries). Returns std::nullopt only for an invalid
/// chain or options or too large a table (then \p error says why); an
/// infeasible budget is a solution with feasible = false.
std::optional<RotorSolution> solveRotor(const Chain &chain, int64_t memoryLimit,
                                        const RotorOptions &options = {},
                                        std::string *error = nullptr);

/// Rotor's tables for one chain, built once for every memory limit up to a
/// largest one: the program's columns are the budgets, so the optimal
/// schedule of any smaller limit is rebuilt from them without solving again
/// (the slot size is then fixed by the largest limit, or given).
class RotorTable {
public:
  /// The tables for limits up to \p maxMemoryLimit, with the slots of
  /// \p options counted against it; std::nullopt with \p error as for
  /// solveRotor().
  static std::optional<RotorTable> build(const Chain &chain,
                                         int64_t maxMemoryLimit,
                                         const RotorOptions &options = {},
                                         std::string *error = nullptr);
  /// The optimal schedule under \p memoryLimit (limits above the largest
  /// one are cut to it).
  RotorSolution solve(int64_t memoryLimit) const;

private:
  double *row(int32_t a, int32_t b);
  const double *row(int32_t a, int32_t b) const;

  /// The chain in slots.
  Chain slots;
  int64_t slotBytes = 1;
  /// Columns per segment (budgets 0..width - 1 in slots); 0 when even the
  /// largest limit leaves no room after the input.
  size_t width = 0;
  std::vector<double> opt;
};

/// The least memory limit, in bytes, for which the dynamic program (without
/// rounding, i.e. with 1-byte slots) finds a schedule; the same recursion as
/// solveRotor() on the least feasible budget instead of the time. O(L^3).
std::optional<int64_t> minimumRotorMemory(const Chain &chain,
                                          std::string *error = nullptr);

//===----------------------------------------------------------------------===//
// The exhaustive oracle
//===----------------------------------------------------------------------===//

/// Which schedules solveChainExhaustive() searches.
///
/// The defaults give the class Rotor's dynamic program is optimal for, and
/// the unit tests check that both optima agree on random short chains at
/// every budget. The program nests segments: a checkpoint (the input of a
/// segment) stays stored until the segment's last backward stage, and a
/// saved value xbar^l is only ever stored together with x^{l-1}. The full
/// game allows two things outside that class, and the exhaustive search
/// finds schedules that use them and beat the program (see
/// ChainRematTest.NonPersistentSchedulesCanBeatRotor):
///  - F0_l may consume an x^{l-1} that Fck_l kept earlier: a checkpoint that
///    serves the first backward stages of a segment only, and is recomputed
///    for the others, when keeping it longer does not fit;
///  - Free can drop x^{l-1} while xbar^l stays stored (recomputing x^{l-1}
///    before B_l), which no Rotor operation can do.
struct ChainSearchOptions {
  /// Allow Free operations (drop any stored value but x^0 at any time).
  bool allowFree = false;
  /// Only persistent schedules: once an operation has kept x^{l-1} (Fck_l or
  /// Fall_l read it), F0_l may not consume it; it stays until B_l (or a
  /// Free) drops it.
  bool persistentCheckpoints = true;
};

/// The result of solveChainExhaustive().
struct ChainSearchResult {
  bool feasible = false;
  /// The optimal time (infinity if infeasible).
  double time = std::numeric_limits<double>::infinity();
  /// A schedule of that time.
  std::vector<ChainOp> ops;
  /// Distinct states reached.
  int64_t states = 0;
};

/// The longest chain solveChainExhaustive() accepts.
constexpr int32_t kMaxExhaustiveChainLength = 6;

/// The optimal schedule of the game in exact bytes under \p memoryLimit, by
/// Dijkstra's algorithm over the set of stored values (and, for persistent
/// schedules, which activations have been kept). Exponential in L: fails for
/// L > kMaxExhaustiveChainLength or an invalid chain.
std::optional<ChainSearchResult>
solveChainExhaustive(const Chain &chain, int64_t memoryLimit,
                     const ChainSearchOptions &options = {},
                     std::string *error = nullptr);

//===----------------------------------------------------------------------===//
// Baselines
//===----------------------------------------------------------------------===//

/// No recomputation: Fall_1..Fall_L, then B_L..B_1.
std::vector<ChainOp> storeAllSchedule(const Chain &chain);

/// The chain as a planning problem in the order of storeAllSchedule, so
/// that memsched's planners can be measured against Rotor on it: x^0 is a
/// resident buffer; a first task makes the seed d^L (Rotor counts it from
/// the start); F_l (forwardTime, forwardOverhead of workspace) reads x^{l-1}
/// and makes x^l and the rest of xbar^l (savedBytes - outputBytes); B_l
/// (backwardTime, backwardOverhead) reads d^l, x^l, the rest of xbar^l and
/// x^{l-1}, and makes d^{l-1}; d^0 escapes. Zero-byte values get one byte.
/// Its peak without recomputation is storeAllSchedule's peak (unit-tested).
Problem makeChainProblem(const Chain &chain);

/// Chen et al.'s segments: \p segments (0: round(sqrt(L)); clamped to
/// [1, L]) segments of consecutive stages whose lengths differ by at most
/// one (the longer ones first). The forward pass keeps each segment's input
/// (Fck at a segment's first stage, F0 inside); the backward pass, segment
/// by segment from the last, recomputes the segment with Fall and runs its
/// backward stages. The last segment is recomputed too, as in the paper.
std::vector<ChainOp> chenSqrtSchedule(const Chain &chain, int32_t segments = 0);

/// PyTorch's torch.utils.checkpoint.checkpoint_sequential(functions,
/// segments) on the chain: the first segments - 1 segments have
/// floor(L / segments) stages each and are checkpointed (forward with Fck
/// then F0, recomputed with Fall in the backward pass); the last segment
/// takes the remaining stages and runs without checkpointing (Fall in the
/// forward pass). \p segments is clamped to [1, L] (PyTorch fails when it
/// exceeds L).
std::vector<ChainOp> checkpointSequentialSchedule(const Chain &chain,
                                                  int32_t segments);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_CHAINREMAT_H
