//===- ChainRemat.cpp - Rematerialization of heterogeneous chains ---------===//
//
// This file implements the chain game, Rotor's dynamic program, the
// exhaustive oracle and the baselines. One GameState class defines the
// rules; the simulator and the exhaustive search both play through it, so
// the oracle searches exactly the game that the simulator checks.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/ChainRemat.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <unordered_map>

using namespace mlir::memsched::scheduling;

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();

int64_t ceilDiv(int64_t value, int64_t divisor) {
  return value / divisor + (value % divisor != 0 ? 1 : 0);
}

int64_t outputBytesOf(const Chain &chain, int32_t index) {
  return index == 0 ? chain.inputBytes : chain.stage(index).outputBytes;
}

int64_t gradBytesOf(const Chain &chain, int32_t index) {
  return index == 0 ? chain.inputGradBytes : chain.stage(index).gradBytes;
}

/// The stored values and their bytes: the rules of the game.
class GameState {
public:
  explicit GameState(const Chain &chain)
      : chain(chain), length(chain.length()), flags(4 * (length + 1), 0) {
    gradient(length) = 1;
    bytes = chain.inputBytes + gradBytesOf(chain, length);
  }

  /// Applies \p op and returns the memory it needs, or std::nullopt with the
  /// violated precondition in \p why.
  std::optional<int64_t> apply(const ChainOp &op, std::string *why) {
    auto fail = [&](std::string message) -> std::optional<int64_t> {
      if (why)
        *why = std::move(message);
      return std::nullopt;
    };
    int32_t l = op.stage;
    std::string index = std::to_string(l);
    if (op.kind == ChainOpKind::Free) {
      if (l < 0 || l > length)
        return fail("value index " + index + " is out of range");
      int64_t needed = bytes;
      switch (op.value) {
      case ChainValue::Activation:
        if (l == 0)
          return fail("the input x^0 cannot be freed");
        if (!activation(l))
          return fail("x^" + index + " is not stored on its own");
        dropActivation(l);
        break;
      case ChainValue::Saved:
        if (l == 0 || !saved(l))
          return fail("xbar^" + index + " is not stored");
        saved(l) = 0;
        bytes -= chain.stage(l).savedBytes;
        break;
      case ChainValue::Gradient:
        if (!gradient(l))
          return fail("d^" + index + " is not stored");
        gradient(l) = 0;
        bytes -= gradBytesOf(chain, l);
        break;
      }
      return needed;
    }
    if (l < 1 || l > length)
      return fail("stage " + index + " is out of range");
    const ChainStage &stage = chain.stage(l);
    std::string input = "x^" + std::to_string(l - 1);
    if (!available(l - 1))
      return fail(input + " is not available");
    switch (op.kind) {
    case ChainOpKind::ForwardNone:
    case ChainOpKind::ForwardCheckpoint: {
      if (available(l))
        return fail("x^" + index + " is already available");
      int64_t needed = bytes + stage.outputBytes + stage.forwardOverhead;
      activation(l) = 1;
      bytes += stage.outputBytes;
      if (l >= 2 && activation(l - 1)) {
        if (op.kind == ChainOpKind::ForwardNone)
          dropActivation(l - 1);
        else
          kept(l - 1) = 1;
      }
      return needed;
    }
    case ChainOpKind::ForwardAll: {
      if (saved(l))
        return fail("xbar^" + index + " is already stored");
      int64_t needed = bytes + stage.savedBytes + stage.forwardOverhead;
      saved(l) = 1;
      bytes += stage.savedBytes;
      if (activation(l))
        dropActivation(l);
      if (l >= 2 && activation(l - 1))
        kept(l - 1) = 1;
      return needed;
    }
    case ChainOpKind::Backward: {
      if (!gradient(l))
        return fail("d^" + index + " is not stored");
      if (!saved(l))
        return fail("xbar^" + index + " is not stored");
      int64_t needed =
          bytes + gradBytesOf(chain, l - 1) + stage.backwardOverhead;
      gradient(l - 1) = 1;
      bytes += gradBytesOf(chain, l - 1);
      gradient(l) = 0;
      bytes -= stage.gradBytes;
      saved(l) = 0;
      bytes -= stage.savedBytes;
      if (l >= 2 && activation(l - 1))
        dropActivation(l - 1);
      return needed;
    }
    case ChainOpKind::Free:
      break;
    }
    return fail("unknown operation");
  }

  bool done() const { return flags[2 * (length + 1)] != 0; }
  int64_t currentBytes() const { return bytes; }

  /// Whether F0_l would consume an activation an earlier operation kept.
  bool consumesKept(const ChainOp &op) const {
    int32_t l = op.stage;
    return op.kind == ChainOpKind::ForwardNone && l >= 2 && l <= length &&
           flags[l - 1] && flags[3 * (length + 1) + l - 1];
  }

  /// A compact key for chains of up to 7 stages: 4 (L + 1) bits.
  uint32_t key() const {
    uint32_t result = 0;
    for (size_t i = 0; i < flags.size(); ++i)
      result |= static_cast<uint32_t>(flags[i] != 0) << i;
    return result;
  }
  /// Makes this state a copy of \p other, a state of the same chain,
  /// without allocating.
  void assign(const GameState &other) {
    std::copy(other.flags.begin(), other.flags.end(), flags.begin());
    bytes = other.bytes;
  }
  void setKey(uint32_t key) {
    bytes = chain.inputBytes;
    for (size_t i = 0; i < flags.size(); ++i)
      flags[i] = (key >> i) & 1;
    for (int32_t l = 1; l <= length; ++l) {
      if (activation(l))
        bytes += chain.stage(l).outputBytes;
      if (saved(l))
        bytes += chain.stage(l).savedBytes;
    }
    for (int32_t l = 0; l <= length; ++l)
      if (gradient(l))
        bytes += gradBytesOf(chain, l);
  }

private:
  // flags holds four arrays of L + 1 entries: x^l stored on its own,
  // xbar^l stored, d^l stored, x^l kept by Fck_{l+1} or Fall_{l+1}.
  uint8_t &activation(int32_t l) { return flags[l]; }
  uint8_t &saved(int32_t l) { return flags[(length + 1) + l]; }
  uint8_t &gradient(int32_t l) { return flags[2 * (length + 1) + l]; }
  uint8_t &kept(int32_t l) { return flags[3 * (length + 1) + l]; }
  bool available(int32_t l) { return l == 0 || activation(l) || saved(l); }
  void dropActivation(int32_t l) {
    activation(l) = 0;
    kept(l) = 0;
    bytes -= chain.stage(l).outputBytes;
  }

  const Chain &chain;
  int32_t length;
  std::vector<uint8_t> flags;
  int64_t bytes = 0;
};

/// The chain with every size rounded up to slots of \p slotBytes bytes.
Chain roundToSlots(const Chain &chain, int64_t slotBytes) {
  Chain rounded = chain;
  auto round = [&](int64_t &bytes) { bytes = ceilDiv(bytes, slotBytes); };
  round(rounded.inputBytes);
  round(rounded.inputGradBytes);
  for (ChainStage &stage : rounded.stages) {
    round(stage.outputBytes);
    round(stage.savedBytes);
    round(stage.gradBytes);
    round(stage.forwardOverhead);
    round(stage.backwardOverhead);
  }
  return rounded;
}

/// Index of the segment [a, b], 0 <= a < b <= L, among the L (L + 1) / 2.
size_t segmentIndex(int32_t length, int32_t a, int32_t b) {
  return static_cast<size_t>(a) * length -
         static_cast<size_t>(a) * (a - 1) / 2 + (b - a - 1);
}

/// Memory the operations of "store all now" on [a, b] run themselves need:
/// Fall_{a+1} with d^b stored and B_{a+1} with d^{a+1} stored (x^a is not
/// counted).
int64_t storeAllNeed(const Chain &chain, int32_t a, int32_t b) {
  const ChainStage &first = chain.stage(a + 1);
  return std::max(gradBytesOf(chain, b) + first.savedBytes +
                      first.forwardOverhead,
                  first.gradBytes + first.savedBytes + gradBytesOf(chain, a) +
                      first.backwardOverhead);
}

/// Memory of F_k in the forward sweep of "checkpoint later" from x^a, d^b
/// aside: x^{k-1} (not counted for k = a + 1), x^k and the overhead.
int64_t sweepNeed(const Chain &chain, int32_t a, int32_t k) {
  const ChainStage &stage = chain.stage(k);
  return (k == a + 1 ? 0 : outputBytesOf(chain, k - 1)) + stage.outputBytes +
         stage.forwardOverhead;
}

/// Appends the schedule of checkpointed segments [bounds[i], bounds[i+1]]:
/// a forward pass keeping each segment's input, then segment by segment
/// from the last, a recomputation with Fall and the backward stages. With
/// \p lastStoredAll, the last segment runs Fall in the forward pass instead
/// and is not recomputed.
void appendSegments(const std::vector<int32_t> &bounds, bool lastStoredAll,
                    std::vector<ChainOp> &ops) {
  size_t count = bounds.size() - 1;
  for (size_t i = 0; i < count; ++i) {
    int32_t begin = bounds[i], end = bounds[i + 1];
    bool storeAll = lastStoredAll && i + 1 == count;
    for (int32_t l = begin + 1; l <= end; ++l)
      ops.push_back({storeAll         ? ChainOpKind::ForwardAll
                     : l == begin + 1 ? ChainOpKind::ForwardCheckpoint
                                      : ChainOpKind::ForwardNone,
                     l});
  }
  for (size_t i = count; i-- > 0;) {
    int32_t begin = bounds[i], end = bounds[i + 1];
    if (!(lastStoredAll && i + 1 == count))
      for (int32_t l = begin + 1; l <= end; ++l)
        ops.push_back({ChainOpKind::ForwardAll, l});
    for (int32_t l = end; l > begin; --l)
      ops.push_back({ChainOpKind::Backward, l});
  }
}
} // namespace

double Chain::computeTime() const {
  double total = 0.0;
  for (const ChainStage &stage : stages)
    total += stage.forwardTime + stage.backwardTime;
  return total;
}

bool Chain::verify(std::string *error) const {
  auto fail = [&](std::string message) {
    if (error)
      *error = std::move(message);
    return false;
  };
  if (stages.empty())
    return fail("a chain needs at least one stage");
  if (stages.size() > 32767)
    return fail("a chain has at most 32767 stages");
  constexpr int64_t kMaxTotal = int64_t(1) << 60;
  int64_t total = 0;
  auto add = [&](int64_t bytes) {
    if (bytes < 0 || bytes >= kMaxTotal - total)
      return false;
    total += bytes;
    return true;
  };
  if (!add(inputBytes) || !add(inputGradBytes))
    return fail("input sizes must be non-negative and total below 2^60");
  for (size_t i = 0; i < stages.size(); ++i) {
    const ChainStage &stage = stages[i];
    std::string name = "stage " + std::to_string(i + 1) +
                       (stage.name.empty() ? "" : " '" + stage.name + "'");
    if (!(stage.forwardTime >= 0.0) || !std::isfinite(stage.forwardTime) ||
        !(stage.backwardTime >= 0.0) || !std::isfinite(stage.backwardTime))
      return fail(name + " has a negative or non-finite time");
    if (!add(stage.outputBytes) || !add(stage.savedBytes) ||
        !add(stage.gradBytes) || !add(stage.forwardOverhead) ||
        !add(stage.backwardOverhead))
      return fail(name + " has a negative size, or sizes total 2^60 or more");
    if (stage.savedBytes < stage.outputBytes)
      return fail(name + " saves fewer bytes than its output");
  }
  return true;
}

std::string mlir::memsched::scheduling::describeChainOp(const ChainOp &op) {
  std::string index = std::to_string(op.stage);
  switch (op.kind) {
  case ChainOpKind::ForwardNone:
    return "F0_" + index;
  case ChainOpKind::ForwardCheckpoint:
    return "Fck_" + index;
  case ChainOpKind::ForwardAll:
    return "Fall_" + index;
  case ChainOpKind::Backward:
    return "B_" + index;
  case ChainOpKind::Free:
    switch (op.value) {
    case ChainValue::Activation:
      return "free x^" + index;
    case ChainValue::Saved:
      return "free xbar^" + index;
    case ChainValue::Gradient:
      return "free d^" + index;
    }
  }
  return "?";
}

std::optional<ChainReplay> mlir::memsched::scheduling::simulateChain(
    const Chain &chain, const std::vector<ChainOp> &ops, int64_t memoryLimit,
    std::string *error) {
  std::string why;
  if (!chain.verify(&why)) {
    if (error)
      *error = "invalid chain: " + why;
    return std::nullopt;
  }
  GameState state(chain);
  ChainReplay replay;
  replay.peakBytes = state.currentBytes();
  if (replay.peakBytes > memoryLimit) {
    if (error)
      *error = "the input and the seed gradient alone need " +
               std::to_string(replay.peakBytes) + " bytes";
    return std::nullopt;
  }
  for (size_t i = 0; i < ops.size(); ++i) {
    const ChainOp &op = ops[i];
    auto fail = [&](const std::string &message) -> std::optional<ChainReplay> {
      if (error)
        *error = "operation #" + std::to_string(i) + " (" +
                 describeChainOp(op) + "): " + message;
      return std::nullopt;
    };
    if (state.done())
      return fail("the backward pass is already complete");
    std::optional<int64_t> needed = state.apply(op, &why);
    if (!needed)
      return fail(why);
    if (*needed > memoryLimit)
      return fail("needs " + std::to_string(*needed) + " bytes, over the " +
                  std::to_string(memoryLimit) + "-byte limit");
    replay.peakBytes = std::max(replay.peakBytes, *needed);
    if (op.kind == ChainOpKind::Backward) {
      replay.time += chain.stage(op.stage).backwardTime;
    } else if (op.kind != ChainOpKind::Free) {
      replay.time += chain.stage(op.stage).forwardTime;
      ++replay.forwardOps;
    }
  }
  if (!state.done()) {
    if (error)
      *error = "the schedule ends before d^0 is computed";
    return std::nullopt;
  }
  replay.recomputeTime = replay.time - chain.computeTime();
  return replay;
}

std::optional<RotorTable> RotorTable::build(const Chain &chain,
                                            int64_t maxMemoryLimit,
                                            const RotorOptions &options,
                                            std::string *error) {
  auto fail = [&](std::string message) -> std::optional<RotorTable> {
    if (error)
      *error = std::move(message);
    return std::nullopt;
  };
  std::string why;
  if (!chain.verify(&why))
    return fail("invalid chain: " + why);
  if (maxMemoryLimit < 0)
    return fail("the memory limit must be non-negative");
  if (options.slotBytes < 0 ||
      (options.slotBytes == 0 && options.memorySlots < 1))
    return fail("the slot size must be positive, or the slot count at least 1");

  RotorTable table;
  table.slotBytes =
      options.slotBytes > 0
          ? options.slotBytes
          : std::max<int64_t>(1, ceilDiv(maxMemoryLimit, options.memorySlots));
  // From here on every size is in slots.
  table.slots = roundToSlots(chain, table.slotBytes);
  const Chain &slots = table.slots;
  int64_t maxBudget = maxMemoryLimit / table.slotBytes - slots.inputBytes;
  if (maxBudget < 0)
    return table;
  // Storing everything is optimal (no operation runs twice) once it fits, so
  // budgets beyond its peak need no columns of their own.
  std::optional<ChainReplay> storeAll =
      simulateChain(slots, storeAllSchedule(slots), kUnlimitedMemory, &why);
  if (!storeAll)
    return fail("internal error: storing everything fails: " + why);
  int64_t budget = std::min(maxBudget, storeAll->peakBytes - slots.inputBytes);

  const int32_t length = chain.length();
  const size_t width = static_cast<size_t>(budget) + 1;
  const size_t segments = static_cast<size_t>(length) * (length + 1) / 2;
  if (segments * width > (size_t(1) << 28))
    return fail("the dynamic program would need " +
                std::to_string(segments * width) +
                " table entries (at most 2^28); use fewer memory slots");
  table.width = width;
  // opt[segment * width + m] = Opt(a, b, m), infinity when infeasible. No
  // table of choices: the schedule is rebuilt by re-evaluating the options
  // of the few segments it visits, which keeps the inner loops plain minima
  // that vectorize, and halves the memory.
  table.opt.assign(segments * width, kInfinity);
  auto row = [&](int32_t a, int32_t b) { return table.row(a, b); };
  const int64_t columns = static_cast<int64_t>(width);

  // Opt(a, b, .) needs Opt(j, b, .) for a < j < b and Opt(a, j, .) for
  // j < b: b ascending, then a descending, keeps the rows of the current b
  // in cache, and the rows (a, j) are contiguous.
  for (int32_t b = 1; b <= length; ++b) {
    for (int32_t a = b - 1; a >= 0; --a) {
      int32_t span = b - a;
      double *best = row(a, b);
      const ChainStage &first = slots.stage(a + 1);

      // Store all now.
      double cost = first.forwardTime + first.backwardTime;
      int64_t low = storeAllNeed(slots, a, b);
      if (span == 1) {
        for (int64_t m = low; m < columns; ++m)
          best[m] = cost;
      } else {
        const double *rest = row(a + 1, b);
        int64_t kept = first.savedBytes;
        for (int64_t m = std::max(low, kept); m < columns; ++m)
          best[m] = cost + rest[m - kept];
      }

      // Checkpoint x^j later.
      int64_t sweep = 0;
      double forward = 0.0;
      for (int32_t j = a + 1; j < b; ++j) {
        sweep = std::max(sweep, sweepNeed(slots, a, j));
        forward += slots.stage(j).forwardTime;
        int64_t kept = slots.stage(j).outputBytes;
        const double *right = row(j, b) - kept;
        const double *left = row(a, j);
        for (int64_t m = std::max(gradBytesOf(slots, b) + sweep, kept);
             m < columns; ++m)
          best[m] = std::min(best[m], forward + right[m] + left[m]);
      }
    }
  }

  return table;
}

double *RotorTable::row(int32_t a, int32_t b) {
  return &opt[segmentIndex(slots.length(), a, b) * width];
}

const double *RotorTable::row(int32_t a, int32_t b) const {
  return &opt[segmentIndex(slots.length(), a, b) * width];
}

RotorSolution RotorTable::solve(int64_t memoryLimit) const {
  RotorSolution solution;
  solution.slotBytes = slotBytes;
  solution.budgetSlots = memoryLimit / slotBytes - slots.inputBytes;
  if (solution.budgetSlots < 0 || width == 0)
    return solution;
  // Columns end at the largest limit, or where storing everything fits.
  const int64_t budget =
      std::min(solution.budgetSlots, static_cast<int64_t>(width) - 1);
  const int32_t length = slots.length();
  solution.time = row(0, length)[budget];
  solution.feasible = solution.time < kInfinity;
  if (!solution.feasible)
    return solution;

  // Rebuild the schedule with an explicit stack of pending segments and
  // operations (the nesting can be L deep). Each segment takes the first
  // option of least cost, evaluated exactly as in the table.
  struct Pending {
    int32_t a, b;
    int64_t m;
    ChainOp op;
  };
  std::vector<Pending> stack = {{0, length, budget, {}}};
  while (!stack.empty()) {
    Pending pending = stack.back();
    stack.pop_back();
    if (pending.a < 0) {
      solution.ops.push_back(pending.op);
      continue;
    }
    int32_t a = pending.a, b = pending.b;
    int64_t m = pending.m;
    const ChainStage &first = slots.stage(a + 1);
    double bestCost = kInfinity;
    int32_t bestSplit = -1;
    if (m >= storeAllNeed(slots, a, b)) {
      if (b == a + 1)
        bestCost = first.forwardTime + first.backwardTime;
      else if (m >= first.savedBytes)
        bestCost = first.forwardTime + first.backwardTime +
                   row(a + 1, b)[m - first.savedBytes];
      bestSplit = 0;
    }
    int64_t sweep = 0;
    double forward = 0.0;
    for (int32_t j = a + 1; j < b; ++j) {
      sweep = std::max(sweep, sweepNeed(slots, a, j));
      forward += slots.stage(j).forwardTime;
      int64_t kept = slots.stage(j).outputBytes;
      if (m < std::max(gradBytesOf(slots, b) + sweep, kept))
        continue;
      double total = forward + row(j, b)[m - kept] + row(a, j)[m];
      if (total < bestCost) {
        bestCost = total;
        bestSplit = j;
      }
    }
    auto push = [&](ChainOpKind kind, int32_t stage) {
      stack.push_back({-1, -1, 0, ChainOp{kind, stage}});
    };
    if (bestSplit == 0) {
      push(ChainOpKind::Backward, a + 1);
      if (b > a + 1)
        stack.push_back({a + 1, b, m - first.savedBytes, {}});
      push(ChainOpKind::ForwardAll, a + 1);
      continue;
    }
    // The table says Opt(a, b, m) is finite, so some option is.
    int32_t j = bestSplit;
    stack.push_back({a, j, m, {}});
    stack.push_back({j, b, m - slots.stage(j).outputBytes, {}});
    for (int32_t l = j; l > a + 1; --l)
      push(ChainOpKind::ForwardNone, l);
    push(ChainOpKind::ForwardCheckpoint, a + 1);
  }
  return solution;
}

std::optional<RotorSolution>
mlir::memsched::scheduling::solveRotor(const Chain &chain, int64_t memoryLimit,
                                       const RotorOptions &options,
                                       std::string *error) {
  std::optional<RotorTable> table =
      RotorTable::build(chain, memoryLimit, options, error);
  if (!table)
    return std::nullopt;
  return table->solve(memoryLimit);
}

std::optional<int64_t>
mlir::memsched::scheduling::minimumRotorMemory(const Chain &chain,
                                               std::string *error) {
  std::string why;
  if (!chain.verify(&why)) {
    if (error)
      *error = "invalid chain: " + why;
    return std::nullopt;
  }
  const int32_t length = chain.length();
  // need[segment]: the least budget for which Opt(a, b, budget) is finite.
  std::vector<int64_t> need(static_cast<size_t>(length) * (length + 1) / 2);
  auto at = [&](int32_t a, int32_t b) -> int64_t & {
    return need[segmentIndex(length, a, b)];
  };
  for (int32_t span = 1; span <= length; ++span) {
    for (int32_t a = 0; a + span <= length; ++a) {
      int32_t b = a + span;
      int64_t best = storeAllNeed(chain, a, b);
      if (span > 1)
        best = std::max(best, chain.stage(a + 1).savedBytes + at(a + 1, b));
      int64_t sweep = 0;
      for (int32_t j = a + 1; j < b; ++j) {
        sweep = std::max(sweep, sweepNeed(chain, a, j));
        best = std::min(
            best, std::max({gradBytesOf(chain, b) + sweep,
                            chain.stage(j).outputBytes + at(j, b), at(a, j)}));
      }
      at(a, b) = best;
    }
  }
  return chain.inputBytes + at(0, length);
}

std::optional<ChainSearchResult>
mlir::memsched::scheduling::solveChainExhaustive(
    const Chain &chain, int64_t memoryLimit, const ChainSearchOptions &options,
    std::string *error) {
  std::string why;
  if (!chain.verify(&why)) {
    if (error)
      *error = "invalid chain: " + why;
    return std::nullopt;
  }
  const int32_t length = chain.length();
  if (length > kMaxExhaustiveChainLength) {
    if (error)
      *error = "the exhaustive search takes chains of at most " +
               std::to_string(kMaxExhaustiveChainLength) + " stages";
    return std::nullopt;
  }
  std::vector<ChainOp> moves;
  for (int32_t l = 1; l <= length; ++l)
    for (ChainOpKind kind :
         {ChainOpKind::ForwardNone, ChainOpKind::ForwardCheckpoint,
          ChainOpKind::ForwardAll, ChainOpKind::Backward})
      moves.push_back({kind, l});
  if (options.allowFree)
    for (int32_t l = 0; l <= length; ++l)
      for (ChainValue value :
           {ChainValue::Activation, ChainValue::Saved, ChainValue::Gradient})
        moves.push_back({ChainOpKind::Free, l, value});

  ChainSearchResult result;
  GameState state(chain), next(chain);
  if (state.currentBytes() > memoryLimit)
    return result;
  struct Node {
    double time = kInfinity;
    uint32_t parent = 0;
    ChainOp op;
    bool settled = false;
  };
  std::unordered_map<uint32_t, Node> nodes;
  using Entry = std::pair<double, uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  uint32_t start = state.key();
  nodes[start].time = 0.0;
  queue.push({0.0, start});
  while (!queue.empty()) {
    auto [time, key] = queue.top();
    queue.pop();
    Node &node = nodes[key];
    if (node.settled)
      continue;
    node.settled = true;
    state.setKey(key);
    if (state.done()) {
      result.feasible = true;
      result.time = time;
      for (uint32_t at = key; at != start; at = nodes[at].parent)
        result.ops.push_back(nodes[at].op);
      std::reverse(result.ops.begin(), result.ops.end());
      break;
    }
    for (const ChainOp &move : moves) {
      if (options.persistentCheckpoints && state.consumesKept(move))
        continue;
      next.assign(state);
      std::optional<int64_t> needed = next.apply(move, nullptr);
      if (!needed || *needed > memoryLimit)
        continue;
      double cost = move.kind == ChainOpKind::Backward
                        ? chain.stage(move.stage).backwardTime
                    : move.kind == ChainOpKind::Free
                        ? 0.0
                        : chain.stage(move.stage).forwardTime;
      uint32_t nextKey = next.key();
      Node &target = nodes[nextKey];
      if (!target.settled && time + cost < target.time) {
        target.time = time + cost;
        target.parent = key;
        target.op = move;
        queue.push({target.time, nextKey});
      }
    }
  }
  result.states = static_cast<int64_t>(nodes.size());
  return result;
}

std::vector<ChainOp>
mlir::memsched::scheduling::storeAllSchedule(const Chain &chain) {
  std::vector<ChainOp> ops;
  appendSegments({0, chain.length()}, /*lastStoredAll=*/true, ops);
  return ops;
}

std::vector<ChainOp>
mlir::memsched::scheduling::chenSqrtSchedule(const Chain &chain,
                                             int32_t segments) {
  int32_t length = chain.length();
  if (segments <= 0)
    segments = static_cast<int32_t>(std::lround(std::sqrt(length)));
  segments = std::clamp(segments, 1, std::max(length, 1));
  std::vector<int32_t> bounds = {0};
  for (int32_t i = 0; i < segments; ++i)
    bounds.push_back(bounds.back() + length / segments +
                     (i < length % segments ? 1 : 0));
  std::vector<ChainOp> ops;
  appendSegments(bounds, /*lastStoredAll=*/false, ops);
  return ops;
}

std::vector<ChainOp>
mlir::memsched::scheduling::checkpointSequentialSchedule(const Chain &chain,
                                                         int32_t segments) {
  int32_t length = chain.length();
  segments = std::clamp(segments, 1, std::max(length, 1));
  int32_t size = length / segments;
  std::vector<int32_t> bounds = {0};
  for (int32_t i = 0; i + 1 < segments; ++i)
    bounds.push_back(bounds.back() + size);
  bounds.push_back(length);
  std::vector<ChainOp> ops;
  appendSegments(bounds, /*lastStoredAll=*/true, ops);
  return ops;
}

Problem mlir::memsched::scheduling::makeChainProblem(const Chain &chain) {
  Problem problem;
  auto output = [&](const std::string &name, int64_t bytes, TaskId producer,
                    BufferKind kind = BufferKind::Transient) {
    Buffer buffer;
    buffer.name = name;
    buffer.sizeBytes = std::max<int64_t>(bytes, 1);
    buffer.kind = kind;
    Value value;
    value.name = name;
    value.sizeBytes = buffer.sizeBytes;
    value.buffer = problem.addBuffer(std::move(buffer));
    value.producer = producer;
    return problem.addValue(std::move(value));
  };
  auto task = [&](const std::string &name, double seconds, int64_t workspace) {
    Task t;
    t.name = name;
    t.duration = seconds;
    t.workspaceBytes = workspace;
    return problem.addTask(std::move(t));
  };
  int32_t length = chain.length();
  // x[l], the rest of xbar^l (kNoId when xbar^l is x^l) and d[l].
  std::vector<ValueId> x(length + 1, kNoId), rest(length + 1, kNoId),
      d(length + 1, kNoId);
  x[0] = output("x0", chain.inputBytes, kNoId, BufferKind::Resident);
  TaskId seed = task("seed", 0.0, 0);
  d[length] =
      output("d" + std::to_string(length), chain.stage(length).gradBytes, seed);
  for (int32_t l = 1; l <= length; ++l) {
    const ChainStage &stage = chain.stage(l);
    TaskId forward =
        task("F" + std::to_string(l), stage.forwardTime, stage.forwardOverhead);
    problem.addConsumer(x[l - 1], forward);
    x[l] = output("x" + std::to_string(l), stage.outputBytes, forward);
    if (stage.savedBytes > stage.outputBytes)
      rest[l] = output("xbar" + std::to_string(l),
                       stage.savedBytes - stage.outputBytes, forward);
  }
  for (int32_t l = length; l >= 1; --l) {
    const ChainStage &stage = chain.stage(l);
    TaskId backward = task("B" + std::to_string(l), stage.backwardTime,
                           stage.backwardOverhead);
    for (ValueId read : {d[l], x[l], rest[l], x[l - 1]})
      if (read != kNoId)
        problem.addConsumer(read, backward);
    int64_t bytes =
        l == 1 ? chain.inputGradBytes : chain.stage(l - 1).gradBytes;
    d[l - 1] = output("d" + std::to_string(l - 1), bytes, backward);
  }
  problem.value(d[0]).liveToEnd = true;
  return problem;
}
