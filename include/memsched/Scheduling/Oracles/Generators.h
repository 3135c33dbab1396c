//===- Generators.h - Synthetic scheduling problems -------------*- C++ -*-===//
//
// This file declares generators of synthetic scheduling problems with known
// structure (trees, random DAGs, randomly wired networks, the post-order
// counterexample family), used by the unit tests as brute-force inputs and by
// the benchmarks. All generators are deterministic for a given seed.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_ORACLES_GENERATORS_H
#define MEMSCHED_SCHEDULING_ORACLES_GENERATORS_H

#include "memsched/Scheduling/Problem.h"

#include <cstdint>

namespace mlir {
namespace memsched {
namespace scheduling {

/// A random in-tree of \p numNodes tasks in the model of Liu: every task but
/// the last has a parent among the tasks after it, task numNodes-1 is the
/// root. Every task writes one output buffer (size in [1, maxBytes]) read by
/// its parent; the root's output is live to the end. With \p withWorkspace,
/// tasks also get a random workspace in [0, maxBytes]. Program order is a valid
/// order.
Problem makeRandomInTree(int numNodes, uint64_t seed, int64_t maxBytes = 100,
                         bool withWorkspace = true);

/// A random out-tree (the reverse of makeRandomInTree): task 0 is the root,
/// each task reads one buffer written by its parent for it alone, and each
/// leaf writes a result buffer nothing reads. No buffer is live to the end.
Problem makeRandomOutTree(int numNodes, uint64_t seed, int64_t maxBytes = 100,
                          bool withWorkspace = true);

/// A random DAG: each task writes one buffer read by 1-3 random later tasks
/// (with probability \p edgeDensity per extra reader), a few outputs are live
/// to the end, some tasks have workspace, and some tasks write in place into
/// a buffer they read (shared buffers, with the write-after-read edges this
/// needs); some tasks also read a resident buffer. Program order is valid.
Problem makeRandomDag(int numTasks, uint64_t seed, double edgeDensity = 0.3,
                      int64_t maxBytes = 100);

/// The family from the seed on tree traversals showing that the best
/// post-order is no constant-factor approximation: level-K in-trees with
/// branching \p branching, big workspace \p bigBytes and small outputs
/// \p smallBytes. T_1 is a root whose b children are chains X_j -> Y_j, X_j
/// a leaf with workspace big and output small, Y_j with output big/b
/// (rounded down); T_K is a root whose b children are chains
/// T_{K-1} -> Y_j. Only the top root's output (small) is live to the end.
/// The program order is a best post-order, with peak
/// big + small + K (b-1) floor(big/b); running every chain's lower part
/// before the Y_j of a root gives big + small + K (b-1) small, which is
/// optimal when small <= big/b (checked exhaustively on small instances).
/// Node count: 2b+1 for K = 1, then b (|T_{K-1}| + 1) + 1.
Problem makePostorderCounterexample(int levels, int branching, int64_t bigBytes,
                                    int64_t smallBytes);

/// A randomly wired network (RandWire): \p stages stages of \p nodesPerStage
/// nodes, each stage a Watts-Strogatz graph (k neighbours, rewiring
/// probability p) oriented by node index; every node sums its inputs and
/// applies an op producing a feature map (one task, with a feature map of
/// workspace); nodes without inputs read the stage input, and a
/// workspace-free task sums the nodes without outputs into the stage output.
/// Feature maps shrink 4x per stage. A stem task comes first and a
/// classifier, whose output is live to the end, last. Program order is the
/// node index order (the order a framework records).
Problem makeRandWire(int stages, int nodesPerStage, int k, double p,
                     uint64_t seed, int64_t featureBytes = 1 << 20);

/// A synthetic training step of \p layers layers with \p branches parallel
/// branches per layer (1 = a chain): forward ops save activations, a loss,
/// backward ops produce activation and weight gradients, in the order eager
/// autograd runs them (layers and branches in reverse), and then, as
/// optimizer.step() after loss.backward(), an SGD update per weight writing
/// the new weight to a returned buffer. Weights, input and labels are
/// resident. Activation sizes vary in [0.5, 2] x \p activationBytes with
/// \p seed.
Problem makeTrainingStep(int layers, int branches, uint64_t seed,
                         int64_t activationBytes = 1 << 20);

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_ORACLES_GENERATORS_H
