//===- Generators.cpp - Synthetic scheduling problems ---------------------===//
//
// This file implements the generators of synthetic scheduling problems. Random
// numbers come from std::mt19937_64, whose output the standard fixes, through
// the integer and real helpers below rather than the <random> distributions,
// whose output differs between standard libraries; so a seed gives the same
// problem everywhere.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Oracles/Generators.h"

#include <algorithm>
#include <cassert>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace mlir::memsched::scheduling;

namespace {

/// A deterministic random source.
class Random {
public:
  explicit Random(uint64_t seed) : engine(seed) {}

  /// Uniform in [0, bound); bound must be positive. Rejection sampling keeps
  /// it unbiased.
  uint64_t below(uint64_t bound) {
    assert(bound > 0 && "empty range");
    uint64_t limit = ~uint64_t(0) - (~uint64_t(0) % bound);
    uint64_t x;
    do
      x = engine();
    while (x >= limit);
    return x % bound;
  }

  /// Uniform in [lo, hi] (inclusive); hi >= lo.
  int64_t range(int64_t lo, int64_t hi) {
    assert(hi >= lo && "empty range");
    return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo) + 1));
  }

  /// Uniform in [0, 1) with 53 random bits.
  double real() {
    return static_cast<double>(engine() >> 11) * (1.0 / 9007199254740992.0);
  }

  /// True with probability p.
  bool chance(double p) { return real() < p; }

private:
  std::mt19937_64 engine;
};

/// Small helpers that keep the generators readable.
struct Builder {
  Problem problem;

  TaskId task(std::string name, int64_t workspace = 0) {
    Task t;
    t.name = std::move(name);
    t.workspaceBytes = workspace;
    // A nominal duration so time-aware users get something non-degenerate.
    t.duration = 1e-6;
    return problem.addTask(std::move(t));
  }

  BufferId buffer(std::string name, int64_t size,
                  BufferKind kind = BufferKind::Transient) {
    Buffer b;
    b.name = std::move(name);
    b.sizeBytes = size;
    b.kind = kind;
    return problem.addBuffer(std::move(b));
  }

  /// A value in \p buf written by \p producer.
  ValueId value(std::string name, BufferId buf, TaskId producer,
                std::vector<TaskId> consumers = {}) {
    Value v;
    v.name = std::move(name);
    v.buffer = buf;
    v.sizeBytes = problem.buffer(buf).sizeBytes;
    v.producer = producer;
    v.consumers = std::move(consumers);
    return problem.addValue(std::move(v));
  }

  /// A fresh transient buffer holding one value written by \p producer.
  ValueId output(const std::string &name, int64_t size, TaskId producer) {
    return value(name, buffer(name, size), producer);
  }

  void read(ValueId v, TaskId consumer) { problem.addConsumer(v, consumer); }

  void escape(ValueId v) { problem.value(v).liveToEnd = true; }
};

std::string indexed(const char *prefix, int64_t i) {
  return prefix + std::to_string(i);
}

/// Parents for a random tree over nodes 0..n-1 in which every node other than
/// the root has its parent on the root's side of it: later nodes for an
/// in-tree (root n-1), earlier nodes for an out-tree (root 0). The parent is
/// drawn from the \p window nodes nearest on that side, so small windows give
/// deep, narrow trees and large ones shallow, bushy trees.
std::vector<int> randomParents(int n, Random &rng, bool towardsEnd) {
  std::vector<int> parent(std::max(n, 0), -1);
  if (n <= 1)
    return parent;
  int window = static_cast<int>(rng.range(1, n - 1));
  if (rng.chance(0.25))
    window = n - 1;
  for (int i = 0; i < n; ++i) {
    if (towardsEnd && i < n - 1) {
      int hi = std::min(n - 1, i + window);
      parent[i] = static_cast<int>(rng.range(i + 1, hi));
    } else if (!towardsEnd && i > 0) {
      int lo = std::max(0, i - window);
      parent[i] = static_cast<int>(rng.range(lo, i - 1));
    }
  }
  return parent;
}

} // namespace

Problem mlir::memsched::scheduling::makeRandomInTree(int numNodes,
                                                     uint64_t seed,
                                                     int64_t maxBytes,
                                                     bool withWorkspace) {
  Random rng(seed);
  Builder b;
  maxBytes = std::max<int64_t>(maxBytes, 1);
  int n = std::max(numNodes, 0);
  std::vector<int> parent = randomParents(n, rng, /*towardsEnd=*/true);
  std::vector<ValueId> out(n);
  for (int i = 0; i < n; ++i) {
    int64_t workspace = withWorkspace ? rng.range(0, maxBytes) : 0;
    TaskId t = b.task(indexed("t", i), workspace);
    out[i] = b.output(indexed("out", i), rng.range(1, maxBytes), t);
  }
  for (int i = 0; i < n; ++i) {
    if (parent[i] >= 0)
      b.read(out[i], parent[i]);
    else
      b.escape(out[i]);
  }
  return std::move(b.problem);
}

Problem mlir::memsched::scheduling::makeRandomOutTree(int numNodes,
                                                      uint64_t seed,
                                                      int64_t maxBytes,
                                                      bool withWorkspace) {
  Random rng(seed);
  Builder b;
  maxBytes = std::max<int64_t>(maxBytes, 1);
  int n = std::max(numNodes, 0);
  std::vector<int> parent = randomParents(n, rng, /*towardsEnd=*/false);
  std::vector<bool> isLeaf(n, true);
  for (int i = 0; i < n; ++i)
    if (parent[i] >= 0)
      isLeaf[parent[i]] = false;
  for (int i = 0; i < n; ++i) {
    int64_t workspace = withWorkspace ? rng.range(0, maxBytes) : 0;
    TaskId t = b.task(indexed("t", i), workspace);
    // The buffer the parent writes for this task alone.
    if (parent[i] >= 0) {
      ValueId in = b.output(indexed("in", i), rng.range(1, maxBytes),
                            static_cast<TaskId>(parent[i]));
      b.read(in, t);
    }
    // A leaf's result, which nothing else reads.
    if (isLeaf[i])
      b.output(indexed("out", i), rng.range(1, maxBytes), t);
  }
  return std::move(b.problem);
}

Problem mlir::memsched::scheduling::makeRandomDag(int numTasks, uint64_t seed,
                                                  double edgeDensity,
                                                  int64_t maxBytes) {
  Random rng(seed);
  Builder b;
  maxBytes = std::max<int64_t>(maxBytes, 1);
  int n = std::max(numTasks, 0);

  // Readers are drawn when a value is created, so when a task runs every
  // value it reads already has its complete reader list, which is what the
  // in-place decision below needs.
  std::vector<std::vector<ValueId>> inputs(n);
  std::vector<ValueId> latestInBuffer; // By BufferId: the last value written.
  BufferId resident = b.buffer("weights", maxBytes, BufferKind::Resident);
  ValueId weights = b.value("weights", resident, kNoId);
  latestInBuffer.push_back(weights);

  auto drawReader = [&](int after) {
    // Mostly nearby readers, as in real programs, sometimes any later task.
    int hi = n - 1;
    if (rng.chance(0.75))
      hi = std::min(hi, after + 8);
    return static_cast<TaskId>(rng.range(after + 1, hi));
  };

  for (int i = 0; i < n; ++i) {
    int64_t workspace = rng.chance(0.25) ? rng.range(1, maxBytes) : 0;
    TaskId t = b.task(indexed("t", i), workspace);
    if (rng.chance(0.2))
      b.read(weights, t);

    // In place: reuse the buffer of an input whose value this task reads
    // last, which leaves the old contents dead once it runs.
    BufferId target = kNoId;
    ValueId overwritten = kNoId;
    if (!inputs[i].empty() && rng.chance(0.3)) {
      std::vector<ValueId> candidates;
      for (ValueId v : inputs[i]) {
        const Value &value = b.problem.value(v);
        bool lastReader =
            std::all_of(value.consumers.begin(), value.consumers.end(),
                        [&](TaskId c) { return c <= t; });
        if (lastReader && !value.liveToEnd &&
            latestInBuffer[value.buffer] == v &&
            b.problem.buffer(value.buffer).kind == BufferKind::Transient)
          candidates.push_back(v);
      }
      if (!candidates.empty()) {
        overwritten = candidates[rng.below(candidates.size())];
        target = b.problem.value(overwritten).buffer;
      }
    }

    ValueId out;
    if (target != kNoId) {
      out = b.value(indexed("v", i), target, t);
      // Write-after-read: every other reader of the old contents runs first.
      std::vector<TaskId> readers = b.problem.value(overwritten).consumers;
      std::sort(readers.begin(), readers.end());
      readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
      for (TaskId r : readers)
        if (r != t)
          b.problem.addDependence(r, t);
      latestInBuffer[target] = out;
    } else {
      out = b.output(indexed("v", i), rng.range(1, maxBytes), t);
      latestInBuffer.push_back(out);
    }

    if (i == n - 1 || rng.chance(0.08)) {
      b.escape(out);
    }
    if (i < n - 1) {
      std::vector<TaskId> readers{drawReader(i)};
      for (int extra = 0; extra < 2; ++extra)
        if (rng.chance(edgeDensity))
          readers.push_back(drawReader(i));
      std::sort(readers.begin(), readers.end());
      readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
      for (TaskId r : readers) {
        b.read(out, r);
        inputs[r].push_back(out);
      }
    }
  }
  return std::move(b.problem);
}

Problem mlir::memsched::scheduling::makePostorderCounterexample(
    int levels, int branching, int64_t bigBytes, int64_t smallBytes) {
  Builder b;
  levels = std::max(levels, 1);
  branching = std::max(branching, 1);
  int64_t share = bigBytes / branching;

  // Builds T_level with children before parents and returns the value its
  // root writes (size smallBytes).
  auto build = [&](auto &self, int level, const std::string &path) -> ValueId {
    std::vector<ValueId> chainOutputs;
    for (int j = 0; j < branching; ++j) {
      std::string child = path + "." + std::to_string(j);
      ValueId bottom;
      if (level == 1) {
        TaskId x = b.task("x" + child, bigBytes);
        bottom = b.output("x" + child, smallBytes, x);
      } else {
        bottom = self(self, level - 1, child);
      }
      TaskId y = b.task("y" + child);
      b.read(bottom, y);
      chainOutputs.push_back(b.output("y" + child, share, y));
    }
    TaskId root = b.task("r" + path);
    for (ValueId v : chainOutputs)
      b.read(v, root);
    return b.output("r" + path, smallBytes, root);
  };
  ValueId top = build(build, levels, "");
  b.escape(top);
  return std::move(b.problem);
}

Problem mlir::memsched::scheduling::makeRandWire(int stages, int nodesPerStage,
                                                 int k, double p, uint64_t seed,
                                                 int64_t featureBytes) {
  Random rng(seed);
  Builder b;
  stages = std::max(stages, 0);
  int n = std::max(nodesPerStage, 1);
  featureBytes = std::max<int64_t>(featureBytes, 1);

  // The stem turns the (resident) image into the first feature map.
  BufferId image =
      b.buffer("image", featureBytes / 2 + 1, BufferKind::Resident);
  ValueId imageValue = b.value("image", image, kNoId);
  TaskId stem = b.task("stem", featureBytes / 2);
  b.read(imageValue, stem);
  ValueId stageInput = b.output("stem", featureBytes, stem);

  int64_t size = featureBytes;
  for (int s = 0; s < stages; ++s) {
    // Each stage halves height and width: its first nodes use stride 2.
    if (s > 0)
      size = std::max<int64_t>(size / 4, 1);
    std::string prefix = "s" + std::to_string(s) + ".";

    // Watts-Strogatz: a ring lattice with k/2 neighbours per side, then each
    // lattice edge (u, u+j) rewired with probability p to (u, w) for a random
    // w that is neither u nor already a neighbour of u.
    std::vector<std::set<int>> adjacent(n);
    int half = std::min(k / 2, (n - 1) / 2);
    for (int u = 0; u < n; ++u)
      for (int j = 1; j <= half; ++j) {
        int v = (u + j) % n;
        adjacent[u].insert(v);
        adjacent[v].insert(u);
      }
    for (int j = 1; j <= half; ++j)
      for (int u = 0; u < n; ++u) {
        int v = (u + j) % n;
        if (!rng.chance(p) || !adjacent[u].count(v))
          continue;
        if (static_cast<int>(adjacent[u].size()) >= n - 1)
          continue;
        int w;
        do
          w = static_cast<int>(rng.below(n));
        while (w == u || adjacent[u].count(w));
        adjacent[u].erase(v);
        adjacent[v].erase(u);
        adjacent[u].insert(w);
        adjacent[w].insert(u);
      }

    // Oriented from lower to higher index; the node index order is a
    // topological order, and the order the network's forward records.
    std::vector<ValueId> nodeOutput(n);
    std::vector<ValueId> sinks;
    for (int u = 0; u < n; ++u) {
      std::vector<int> in, outs;
      for (int v : adjacent[u])
        (v < u ? in : outs).push_back(v);
      // Aggregation (a weighted sum of the inputs, into the output buffer),
      // ReLU, a separable convolution whose depthwise result is the
      // workspace, and batch norm, fused into one task.
      TaskId t = b.task(prefix + "node" + std::to_string(u), size);
      if (in.empty())
        b.read(stageInput, t);
      for (int v : in)
        b.read(nodeOutput[v], t);
      nodeOutput[u] = b.output(prefix + "node" + std::to_string(u), size, t);
      if (outs.empty())
        sinks.push_back(nodeOutput[u]);
    }
    // The stage output averages the sinks; a workspace-free aggregation.
    TaskId join = b.task(prefix + "output");
    for (ValueId v : sinks)
      b.read(v, join);
    stageInput = b.output(prefix + "output", size, join);
  }

  // Classifier: global pooling and a linear layer; the logits are returned.
  TaskId head = b.task("classifier");
  b.read(stageInput, head);
  ValueId logits =
      b.output("logits", std::max<int64_t>(featureBytes / 256, 1), head);
  b.escape(logits);
  return std::move(b.problem);
}

Problem mlir::memsched::scheduling::makeTrainingStep(int layers, int branches,
                                                     uint64_t seed,
                                                     int64_t activationBytes) {
  Random rng(seed);
  Builder b;
  layers = std::max(layers, 1);
  branches = std::max(branches, 1);
  activationBytes = std::max<int64_t>(activationBytes, 64);
  // A factor in [0.5, 2] of activationBytes.
  auto scaled = [&](int64_t lo, int64_t hi) {
    return std::max<int64_t>(activationBytes * rng.range(lo, hi) / 64, 1);
  };

  struct Op {
    ValueId weight;     // Resident parameter.
    ValueId activation; // The op's output, saved for its backward.
    ValueId grad;       // Gradient of the output, once computed.
    ValueId weightGrad; // dW, read by the optimizer step.
  };
  std::vector<std::vector<Op>> ops(layers, std::vector<Op>(branches));
  // hidden[l] is layer l's input; hidden[layers] feeds the loss.
  std::vector<ValueId> hidden(layers + 1);

  BufferId inputBuffer =
      b.buffer("input", activationBytes, BufferKind::Resident);
  hidden[0] = b.value("input", inputBuffer, kNoId);
  BufferId labelBuffer =
      b.buffer("labels", std::max<int64_t>(activationBytes / 64, 1),
               BufferKind::Resident);
  ValueId labels = b.value("labels", labelBuffer, kNoId);

  // Forward: each branch op is a linear layer with ReLU reading the layer
  // input and its weight; the join sums (projects) the branch outputs.
  for (int l = 0; l < layers; ++l) {
    std::string layer = "l" + std::to_string(l);
    int64_t layerOutput = scaled(32, 128);
    for (int br = 0; br < branches; ++br) {
      std::string name = layer + ".b" + std::to_string(br);
      Op &op = ops[l][br];
      BufferId w =
          b.buffer(name + ".weight", scaled(16, 64), BufferKind::Resident);
      op.weight = b.value(name + ".weight", w, kNoId);
      TaskId t = b.task(name + ".fwd");
      b.read(hidden[l], t);
      b.read(op.weight, t);
      int64_t size = branches == 1 ? layerOutput : scaled(32, 128);
      op.activation = b.output(name + ".act", size, t);
    }
    if (branches == 1) {
      hidden[l + 1] = ops[l][0].activation;
      continue;
    }
    TaskId join = b.task(layer + ".join");
    for (Op &op : ops[l])
      b.read(op.activation, join);
    hidden[l + 1] = b.output(layer + ".out", layerOutput, join);
  }

  // Loss (softmax cross-entropy); the loss value is returned.
  TaskId loss = b.task("loss");
  b.read(hidden[layers], loss);
  b.read(labels, loss);
  b.escape(b.output("loss", 4, loss));

  // Backward, as autograd's engine runs it: the latest-recorded ready node
  // first, i.e. layers in reverse and, within a layer, branches in reverse.
  TaskId lossBackward = b.task("loss.bwd");
  b.read(hidden[layers], lossBackward);
  b.read(labels, lossBackward);
  ValueId upstream = b.output(
      "grad.loss", b.problem.value(hidden[layers]).sizeBytes, lossBackward);
  for (int l = layers - 1; l >= 0; --l) {
    std::string layer = "l" + std::to_string(l);
    if (branches == 1) {
      ops[l][0].grad = upstream;
    } else {
      // The join's backward hands each branch the gradient of its output.
      TaskId joinBackward = b.task(layer + ".join.bwd");
      b.read(upstream, joinBackward);
      for (int br = 0; br < branches; ++br) {
        Op &op = ops[l][br];
        op.grad =
            b.output(layer + ".b" + std::to_string(br) + ".grad",
                     b.problem.value(op.activation).sizeBytes, joinBackward);
      }
    }
    int64_t inputSize = b.problem.value(hidden[l]).sizeBytes;
    // The gradient of the layer input summed so far: autograd's input buffer
    // adds each branch's contribution as soon as the branch's node is done.
    ValueId inputGrad = kNoId;
    for (int br = branches - 1; br >= 0; --br) {
      Op &op = ops[l][br];
      std::string name = layer + ".b" + std::to_string(br);
      // Gradient of the input: ReLU mask from the saved output, then
      // grad @ W. The network input needs no gradient.
      ValueId contribution = kNoId;
      if (l > 0) {
        TaskId gradInput = b.task(name + ".bwd.input");
        b.read(op.grad, gradInput);
        b.read(op.activation, gradInput);
        b.read(op.weight, gradInput);
        contribution = b.output(name + ".grad.input", inputSize, gradInput);
      }
      // Gradient of the weight: ReLU mask and the saved input.
      TaskId gradWeight = b.task(name + ".bwd.weight");
      b.read(op.grad, gradWeight);
      b.read(op.activation, gradWeight);
      b.read(hidden[l], gradWeight);
      op.weightGrad = b.output(
          name + ".grad.weight",
          b.problem.buffer(b.problem.value(op.weight).buffer).sizeBytes,
          gradWeight);
      if (contribution == kNoId)
        continue;
      if (inputGrad == kNoId) {
        inputGrad = contribution;
        continue;
      }
      TaskId add = b.task(name + ".grad.accumulate");
      b.read(inputGrad, add);
      b.read(contribution, add);
      inputGrad = b.output(name + ".grad.accumulate", inputSize, add);
    }
    if (l == 0)
      break;
    upstream = inputGrad;
  }

  // optimizer.step() after loss.backward(): SGD over the parameters in
  // registration order; the updated weights are returned.
  for (int l = 0; l < layers; ++l)
    for (int br = 0; br < branches; ++br) {
      Op &op = ops[l][br];
      std::string name = "l" + std::to_string(l) + ".b" + std::to_string(br);
      TaskId update = b.task(name + ".sgd");
      b.read(op.weightGrad, update);
      b.read(op.weight, update);
      int64_t size = b.problem.value(op.weightGrad).sizeBytes;
      b.escape(b.output(name + ".weight.new", size, update));
    }
  return std::move(b.problem);
}
