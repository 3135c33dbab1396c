//===- MemorySimulatorTest.cpp - Tests for the memory simulator -----------===//
//
// This file tests the memory simulator against hand-computed profiles and,
// on random problems, against a deliberately naive re-implementation of the
// memory model.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/MemorySimulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace mlir::memsched::scheduling;

namespace {

using Bytes = std::vector<int64_t>;

Task makeTask(std::string name, int64_t workspace = 0) {
  Task task;
  task.name = std::move(name);
  task.workspaceBytes = workspace;
  return task;
}

BufferId addBuffer(Problem &problem, std::string name, int64_t size,
                   BufferKind kind = BufferKind::Transient) {
  Buffer buffer;
  buffer.name = std::move(name);
  buffer.sizeBytes = size;
  buffer.kind = kind;
  return problem.addBuffer(buffer);
}

ValueId addValue(Problem &problem, std::string name, BufferId buffer,
                 TaskId producer, std::vector<TaskId> consumers = {}) {
  Value value;
  value.name = std::move(name);
  value.buffer = buffer;
  value.sizeBytes = problem.buffer(buffer).sizeBytes;
  value.producer = producer;
  value.consumers = std::move(consumers);
  return problem.addValue(value);
}

MemoryProfile simulateOrDie(const Problem &problem,
                            const std::vector<TaskId> &order) {
  std::string error;
  std::optional<MemoryProfile> profile = simulateMemory(problem, order, &error);
  EXPECT_TRUE(profile.has_value()) << error;
  return profile.value_or(MemoryProfile());
}

TEST(MemorySimulatorTest, ThreeOpChain) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a"));
  TaskId b = problem.addTask(makeTask("b"));
  TaskId c = problem.addTask(makeTask("c"));
  BufferId x = addBuffer(problem, "x", 100);
  BufferId y = addBuffer(problem, "y", 200);
  BufferId z = addBuffer(problem, "z", 50);
  addValue(problem, "x", x, a, {b});
  addValue(problem, "y", y, b, {c});
  addValue(problem, "z", z, c);

  // x lives [0,1], y [1,2], z [2,2]:
  //   step 0: x = 100; step 1: x + y = 300; step 2: y + z = 250.
  MemoryProfile profile = simulateOrDie(problem, problem.programOrder());
  EXPECT_EQ(profile.liveBytes, Bytes({100, 300, 250}));
  EXPECT_EQ(profile.liveBufferBytes, Bytes({100, 300, 250}));
  EXPECT_EQ(profile.peakTransientBytes, 300);
  EXPECT_EQ(profile.maxLiveBytes, 300);
  EXPECT_EQ(profile.peakStep, 1);
  EXPECT_EQ(profile.residentBytes, 0);
  EXPECT_EQ(profile.peakBytes(), 300);
  ASSERT_EQ(profile.lifetimes.size(), 3u);
  EXPECT_EQ(profile.lifetimes[x].start, 0);
  EXPECT_EQ(profile.lifetimes[x].end, 1);
  EXPECT_EQ(profile.lifetimes[y].start, 1);
  EXPECT_EQ(profile.lifetimes[y].end, 2);
  EXPECT_EQ(profile.lifetimes[z].start, 2);
  EXPECT_EQ(profile.lifetimes[z].end, 2);
}

/// a produces a1 (100, read by b) and a2 (20, read by c); b produces b1 (60)
/// and c produces c1 (10), both read by d, which produces d1 (5).
struct Diamond {
  Problem problem;
  TaskId a, b, c, d;

  Diamond() {
    a = problem.addTask(makeTask("a"));
    b = problem.addTask(makeTask("b"));
    c = problem.addTask(makeTask("c"));
    d = problem.addTask(makeTask("d"));
    addValue(problem, "a1", addBuffer(problem, "a1", 100), a, {b});
    addValue(problem, "a2", addBuffer(problem, "a2", 20), a, {c});
    addValue(problem, "b1", addBuffer(problem, "b1", 60), b, {d});
    addValue(problem, "c1", addBuffer(problem, "c1", 10), c, {d});
    addValue(problem, "d1", addBuffer(problem, "d1", 5), d);
  }
};

TEST(MemorySimulatorTest, DiamondOrdersGiveDifferentPeaks) {
  Diamond diamond;
  // Order a b c d:
  //   step 0 (a): a1 + a2           = 100 + 20           = 120
  //   step 1 (b): a1 + a2 + b1      = 100 + 20 + 60      = 180  <- peak
  //   step 2 (c): a2 + b1 + c1      = 20 + 60 + 10       = 90
  //   step 3 (d): b1 + c1 + d1      = 60 + 10 + 5        = 75
  MemoryProfile abcd = simulateOrDie(
      diamond.problem, {diamond.a, diamond.b, diamond.c, diamond.d});
  EXPECT_EQ(abcd.liveBytes, Bytes({120, 180, 90, 75}));
  EXPECT_EQ(abcd.peakTransientBytes, 180);
  EXPECT_EQ(abcd.peakStep, 1);

  // Order a c b d:
  //   step 0 (a): a1 + a2           = 100 + 20           = 120
  //   step 1 (c): a1 + a2 + c1      = 100 + 20 + 10      = 130
  //   step 2 (b): a1 + c1 + b1      = 100 + 10 + 60      = 170  <- peak
  //   step 3 (d): b1 + c1 + d1      = 60 + 10 + 5        = 75
  MemoryProfile acbd = simulateOrDie(
      diamond.problem, {diamond.a, diamond.c, diamond.b, diamond.d});
  EXPECT_EQ(acbd.liveBytes, Bytes({120, 130, 170, 75}));
  EXPECT_EQ(acbd.peakTransientBytes, 170);
  EXPECT_EQ(acbd.peakStep, 2);
}

TEST(MemorySimulatorTest, DiamondLowerBound) {
  Diamond diamond;
  // Footprints: a = 100 + 20 = 120, b = 100 + 60 = 160, c = 20 + 10 = 30,
  // d = 60 + 10 + 5 = 75; nothing escapes, so the bound is 160.
  EXPECT_EQ(computeLowerBoundTransientBytes(diamond.problem), 160);
}

TEST(MemorySimulatorTest, InPlaceChainSharesOneBuffer) {
  Problem problem;
  TaskId fill = problem.addTask(makeTask("fill"));
  TaskId add = problem.addTask(makeTask("add"));
  TaskId view = problem.addTask(makeTask("view"));
  TaskId mul = problem.addTask(makeTask("mul"));
  TaskId reduce = problem.addTask(makeTask("reduce"));
  BufferId buf = addBuffer(problem, "buf", 64);
  BufferId out = addBuffer(problem, "out", 8);
  addValue(problem, "v0", buf, fill, {add});
  addValue(problem, "v1", buf, add, {view, mul});
  addValue(problem, "slice", buf, view, {reduce});
  addValue(problem, "v2", buf, mul);
  addValue(problem, "r", out, reduce);

  // buf spans fill..reduce and is counted once per step, not once per value:
  //   64, 64, 64, 64, 64 + 8 = 72.
  MemoryProfile profile = simulateOrDie(problem, problem.programOrder());
  EXPECT_EQ(profile.liveBytes, Bytes({64, 64, 64, 64, 72}));
  EXPECT_EQ(profile.lifetimes[buf].start, 0);
  EXPECT_EQ(profile.lifetimes[buf].end, 4);
  EXPECT_EQ(computeLowerBoundTransientBytes(problem), 72);
}

TEST(MemorySimulatorTest, InPlaceWritesTakeADyingInputsBuffer) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a"));
  TaskId b = problem.addTask(makeTask("b"));
  TaskId c = problem.addTask(makeTask("c"));
  TaskId d = problem.addTask(makeTask("d"));
  BufferId x = addBuffer(problem, "x", 100);
  BufferId y = addBuffer(problem, "y", 100);
  BufferId z = addBuffer(problem, "z", 60);
  BufferId w = addBuffer(problem, "w", 100);
  ValueId vx = addValue(problem, "x", x, a, {b});
  ValueId vy = addValue(problem, "y", y, b, {c, d});
  ValueId vz = addValue(problem, "z", z, c, {d});
  ValueId vw = addValue(problem, "w", w, d);
  problem.buffer(w).liveToEnd = true;
  // b may write y over x (x dies at b); c may write z over y, but y is read
  // again by d; d may write w over y (y dies at d), but w is returned.
  problem.task(b).inPlaceWrites = {{vx, vy}};
  problem.task(c).inPlaceWrites = {{vy, vz}};
  problem.task(d).inPlaceWrites = {{vy, vw}};

  //   before: x = 100; x + y = 200; y + z = 160; y + z + w = 260.
  //   after: x and y in one buffer: 100, 100, 160, 260.
  std::vector<TaskId> order = problem.programOrder();
  MemoryProfile profile = simulateOrDie(problem, order);
  EXPECT_EQ(profile.liveBytes, Bytes({100, 200, 160, 260}));
  ASSERT_TRUE(applyInPlaceWrites(problem, order, profile.lifetimes));
  EXPECT_EQ(problem.value(vy).buffer, x);
  EXPECT_EQ(problem.value(vz).buffer, z);
  EXPECT_EQ(problem.value(vw).buffer, w);
  profile = simulateOrDie(problem, order);
  EXPECT_EQ(profile.liveBytes, Bytes({100, 100, 160, 260}));
  EXPECT_EQ(profile.peakTransientBytes, 260);
  // Nothing is left to write in place.
  EXPECT_FALSE(applyInPlaceWrites(problem, order, profile.lifetimes));
}

TEST(MemorySimulatorTest, InPlaceWritesNeverRaiseAStep) {
  // Random chains of equal-sized buffers with random candidate writes: the
  // writes made keep the problem valid and lower no step's bytes but raise
  // none, and each one made frees the bytes of one buffer at its step.
  std::mt19937 rng(20261130);
  auto uniform = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  int numMade = 0;
  for (int iteration = 0; iteration < 300; ++iteration) {
    Problem problem;
    int numTasks = uniform(1, 10);
    for (int t = 0; t < numTasks; ++t)
      problem.addTask(makeTask("t" + std::to_string(t)));
    // Task t writes value t into a buffer of its own and reads earlier
    // values; some results are returned.
    std::vector<ValueId> values;
    for (int t = 0; t < numTasks; ++t) {
      BufferId buffer = addBuffer(problem, "b" + std::to_string(t), 64);
      problem.buffer(buffer).liveToEnd = uniform(1, 100) <= 10;
      values.push_back(addValue(problem, "v" + std::to_string(t), buffer, t));
    }
    for (int t = 1; t < numTasks; ++t) {
      int numReads = uniform(0, 2);
      for (int k = 0; k < numReads; ++k) {
        ValueId input = values[uniform(0, t - 1)];
        problem.addConsumer(input, t);
        if (uniform(1, 100) <= 60)
          problem.task(t).inPlaceWrites.push_back({input, values[t]});
      }
    }
    std::vector<TaskId> order = problem.programOrder();
    MemoryProfile before = simulateOrDie(problem, order);
    Problem rewritten = problem;
    if (!applyInPlaceWrites(rewritten, order, before.lifetimes))
      continue;
    std::string error;
    ASSERT_TRUE(rewritten.verify(&error)) << error;
    MemoryProfile after = simulateOrDie(rewritten, order);
    int64_t freed = 0;
    for (int t = 0; t < numTasks; ++t) {
      EXPECT_LE(after.liveBytes[t], before.liveBytes[t]) << iteration;
      freed += before.liveBytes[t] - after.liveBytes[t];
    }
    int64_t writes = 0;
    for (size_t v = 0; v < problem.numValues(); ++v)
      writes += problem.value(static_cast<ValueId>(v)).buffer !=
                rewritten.value(static_cast<ValueId>(v)).buffer;
    EXPECT_GE(freed, writes * 64) << iteration;
    numMade += writes > 0;
  }
  EXPECT_GT(numMade, 50);
}

TEST(MemorySimulatorTest, LiveToEndHoldsBufferToLastStep) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a"));
  TaskId b = problem.addTask(makeTask("b"));
  TaskId c = problem.addTask(makeTask("c"));
  TaskId d = problem.addTask(makeTask("d"));
  BufferId r = addBuffer(problem, "r", 30);
  BufferId s = addBuffer(problem, "s", 10);
  BufferId u = addBuffer(problem, "u", 5);
  BufferId w = addBuffer(problem, "w", 1000);
  ValueId rv = addValue(problem, "r", r, a);
  addValue(problem, "s", s, b, {c});
  addValue(problem, "u", u, c);
  addValue(problem, "w", w, d);
  problem.value(rv).liveToEnd = true;
  problem.buffer(u).liveToEnd = true;

  // r (value flag) lives [0,3], u (buffer flag) [2,3], s [1,2], w [3,3]:
  //   step 0: 30; step 1: 30 + 10 = 40; step 2: 30 + 10 + 5 = 45;
  //   step 3: 30 + 5 + 1000 = 1035.
  MemoryProfile profile = simulateOrDie(problem, problem.programOrder());
  EXPECT_EQ(profile.liveBytes, Bytes({30, 40, 45, 1035}));
  EXPECT_EQ(profile.lifetimes[r].end, 3);
  EXPECT_EQ(profile.lifetimes[u].start, 2);
  EXPECT_EQ(profile.lifetimes[u].end, 3);
}

TEST(MemorySimulatorTest, LowerBoundWithLiveToEnd) {
  Problem problem;
  BufferId unused = addBuffer(problem, "unused", 500);
  problem.buffer(unused).liveToEnd = true;
  BufferId arg = addBuffer(problem, "arg", 700, BufferKind::Resident);
  problem.buffer(arg).liveToEnd = true;
  for (int i = 0; i < 3; ++i) {
    std::string name = "t" + std::to_string(i);
    TaskId task = problem.addTask(makeTask(name));
    ValueId value = addValue(problem, name, addBuffer(problem, name, 10), task);
    problem.value(value).liveToEnd = true;
    Value argUse;
    argUse.name = "argUse" + std::to_string(i);
    argUse.buffer = arg;
    argUse.consumers = {task};
    problem.addValue(argUse);
  }
  // Each task alone touches 10 transient bytes, but all three results are
  // returned: 10 + 10 + 10 = 30. The unused buffer and the resident argument
  // do not count.
  EXPECT_EQ(computeLowerBoundTransientBytes(problem), 30);
  MemoryProfile profile = simulateOrDie(problem, problem.programOrder());
  EXPECT_EQ(profile.liveBytes, Bytes({10, 20, 30}));
  EXPECT_FALSE(profile.lifetimes[unused].isLive());
  EXPECT_EQ(profile.residentBytes, 700);
  EXPECT_EQ(profile.peakBytes(), 730);
}

TEST(MemorySimulatorTest, ResidentBuffersAreNotTransient) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a"));
  TaskId b = problem.addTask(makeTask("b"));
  BufferId arg = addBuffer(problem, "arg", 1000, BufferKind::Resident);
  BufferId cst = addBuffer(problem, "cst", 24, BufferKind::Resident);
  BufferId tmp = addBuffer(problem, "tmp", 16);
  addValue(problem, "arg", arg, kNoId, {a});
  addValue(problem, "cst", cst, kNoId, {b});
  addValue(problem, "tmp", tmp, a, {b});

  MemoryProfile profile = simulateOrDie(problem, problem.programOrder());
  EXPECT_EQ(profile.liveBytes, Bytes({16, 16}));
  EXPECT_EQ(profile.residentBytes, 1024);
  EXPECT_EQ(profile.peakTransientBytes, 16);
  EXPECT_EQ(profile.peakBytes(), 1040);
  EXPECT_EQ(profile.lifetimes[arg].start, 0);
  EXPECT_EQ(profile.lifetimes[arg].end, 1);
  EXPECT_EQ(profile.lifetimes[cst].start, 0);
  EXPECT_EQ(profile.lifetimes[cst].end, 1);
  EXPECT_EQ(computeLowerBoundTransientBytes(problem), 16);
}

TEST(MemorySimulatorTest, WorkspaceOnlyAtItsStep) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a", /*workspace=*/100));
  TaskId b = problem.addTask(makeTask("b"));
  TaskId c = problem.addTask(makeTask("c", /*workspace=*/5));
  BufferId x = addBuffer(problem, "x", 10);
  BufferId y = addBuffer(problem, "y", 40);
  addValue(problem, "x", x, a, {b});
  addValue(problem, "y", y, b, {c});

  // Buffers: x [0,1], y [1,2] -> 10, 50, 40. Workspace adds 100 at step 0
  // and 5 at step 2 -> 110, 50, 45. The arena only needs 50.
  MemoryProfile profile = simulateOrDie(problem, problem.programOrder());
  EXPECT_EQ(profile.liveBufferBytes, Bytes({10, 50, 40}));
  EXPECT_EQ(profile.liveBytes, Bytes({110, 50, 45}));
  EXPECT_EQ(profile.peakTransientBytes, 110);
  EXPECT_EQ(profile.peakStep, 0);
  EXPECT_EQ(profile.maxLiveBytes, 50);
  // Footprints: a = 10 + 100, b = 10 + 40, c = 40 + 5.
  EXPECT_EQ(computeLowerBoundTransientBytes(problem), 110);
}

TEST(MemorySimulatorTest, EmptyTensorStartsAtFirstConsumer) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a"));
  TaskId b = problem.addTask(makeTask("b"));
  TaskId c = problem.addTask(makeTask("c"));
  BufferId x = addBuffer(problem, "x", 4);
  BufferId empty = addBuffer(problem, "empty", 32);
  BufferId never = addBuffer(problem, "never", 1 << 20);
  addValue(problem, "x", x, a, {c});
  addValue(problem, "empty", empty, kNoId, {b});
  addValue(problem, "never", never, kNoId);

  // empty lives [1,1] only: 4, 4 + 32 = 36, 4.
  MemoryProfile profile = simulateOrDie(problem, problem.programOrder());
  EXPECT_EQ(profile.liveBytes, Bytes({4, 36, 4}));
  EXPECT_EQ(profile.lifetimes[empty].start, 1);
  EXPECT_EQ(profile.lifetimes[empty].end, 1);
  EXPECT_FALSE(profile.lifetimes[never].isLive());
}

TEST(MemorySimulatorTest, EmptyProblem) {
  Problem problem;
  addBuffer(problem, "arg", 8, BufferKind::Resident);
  MemoryProfile profile = simulateOrDie(problem, {});
  EXPECT_TRUE(profile.liveBytes.empty());
  EXPECT_TRUE(profile.liveBufferBytes.empty());
  EXPECT_EQ(profile.peakTransientBytes, 0);
  EXPECT_EQ(profile.maxLiveBytes, 0);
  EXPECT_EQ(profile.peakStep, -1);
  EXPECT_FALSE(profile.lifetimes[0].isLive());
  EXPECT_EQ(computeLowerBoundTransientBytes(problem), 0);
}

TEST(MemorySimulatorTest, InvalidOrderIsRejected) {
  Diamond diamond;
  std::string error;
  EXPECT_FALSE(simulateMemory(diamond.problem,
                              {diamond.b, diamond.a, diamond.c, diamond.d},
                              &error)
                   .has_value());
  EXPECT_NE(error.find("invalid order"), std::string::npos) << error;
  EXPECT_NE(error.find("'b'"), std::string::npos) << error;
  EXPECT_FALSE(simulateMemory(diamond.problem, {diamond.a}, &error));
  EXPECT_NE(error.find("invalid order"), std::string::npos) << error;
}

TEST(MemorySimulatorTest, InvalidProblemIsRejected) {
  Problem problem;
  problem.addTask(makeTask("a"));
  Value value;
  value.name = "lost";
  value.buffer = 2;
  problem.addValue(value);
  std::string error;
  EXPECT_FALSE(simulateMemory(problem, {0}, &error).has_value());
  EXPECT_NE(error.find("'lost'"), std::string::npos) << error;
}

//===----------------------------------------------------------------------===//
// Randomized comparison against a naive model
//===----------------------------------------------------------------------===//

/// Builds a random problem: values only flow forward in id order, so
/// program order is always valid.
Problem makeRandomProblem(std::mt19937 &rng) {
  auto uniform = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  auto chance = [&](int percent) { return uniform(1, 100) <= percent; };

  Problem problem;
  int numTasks = uniform(0, 12);
  for (int t = 0; t < numTasks; ++t) {
    Task task =
        makeTask("t" + std::to_string(t), chance(25) ? uniform(1, 50) : 0);
    task.isFence = chance(10);
    problem.addTask(task);
  }
  int numBuffers = uniform(0, 8);
  for (int i = 0; i < numBuffers; ++i) {
    BufferId buffer =
        addBuffer(problem, "b" + std::to_string(i), uniform(0, 100),
                  chance(20) ? BufferKind::Resident : BufferKind::Transient);
    problem.buffer(buffer).liveToEnd = chance(15);
  }
  int numValues = numBuffers == 0 ? 0 : uniform(0, 16);
  for (int i = 0; i < numValues; ++i) {
    BufferId buffer = uniform(0, numBuffers - 1);
    TaskId producer =
        numTasks > 0 && chance(75) ? uniform(0, numTasks - 1) : kNoId;
    std::vector<TaskId> consumers;
    int numConsumers = numTasks > 0 ? uniform(0, 3) : 0;
    for (int k = 0; k < numConsumers; ++k) {
      int lo = producer == kNoId ? 0 : producer + 1;
      if (lo < numTasks)
        consumers.push_back(uniform(lo, numTasks - 1));
    }
    ValueId value =
        addValue(problem, "v" + std::to_string(i), buffer, producer, consumers);
    problem.value(value).liveToEnd = chance(10);
  }
  int numEdges = numTasks > 1 ? uniform(0, 4) : 0;
  for (int i = 0; i < numEdges; ++i) {
    TaskId before = uniform(0, numTasks - 2);
    problem.addDependence(before, uniform(before + 1, numTasks - 1));
  }
  return problem;
}

/// Picks a uniformly random ready task at each step (Kahn's algorithm).
std::vector<TaskId> randomTopologicalOrder(const Problem &problem,
                                           std::mt19937 &rng) {
  size_t n = problem.numTasks();
  std::vector<int> pending(n);
  std::vector<TaskId> ready, order;
  for (size_t t = 0; t < n; ++t) {
    pending[t] = problem.predecessors(t).size();
    if (pending[t] == 0)
      ready.push_back(t);
  }
  while (!ready.empty()) {
    size_t pick =
        std::uniform_int_distribution<size_t>(0, ready.size() - 1)(rng);
    TaskId task = ready[pick];
    ready.erase(ready.begin() + pick);
    order.push_back(task);
    for (TaskId succ : problem.successors(task))
      if (--pending[succ] == 0)
        ready.push_back(succ);
  }
  return order;
}

/// The memory model spelled out step by step, with no difference arrays.
Bytes naiveLiveBytes(const Problem &problem, const std::vector<TaskId> &order,
                     bool withWorkspace) {
  size_t n = order.size();
  Bytes live(n, 0);
  for (size_t s = 0; s < n; ++s) {
    for (size_t b = 0; b < problem.numBuffers(); ++b) {
      const Buffer &buffer = problem.buffer(b);
      if (buffer.kind == BufferKind::Resident)
        continue;
      bool usedAtOrBefore = false, usedAtOrAfter = false;
      bool escapes = buffer.liveToEnd;
      for (size_t v = 0; v < problem.numValues(); ++v) {
        const Value &value = problem.value(v);
        if (value.buffer != static_cast<BufferId>(b))
          continue;
        escapes |= value.liveToEnd;
        std::vector<TaskId> users = value.consumers;
        if (value.producer != kNoId)
          users.push_back(value.producer);
        for (TaskId user : users) {
          size_t at =
              std::find(order.begin(), order.end(), user) - order.begin();
          usedAtOrBefore |= at <= s;
          usedAtOrAfter |= at >= s;
        }
      }
      if (usedAtOrBefore && (usedAtOrAfter || escapes))
        live[s] += buffer.sizeBytes;
    }
    if (withWorkspace)
      live[s] += problem.task(order[s]).workspaceBytes;
  }
  return live;
}

TEST(MemorySimulatorTest, RandomProblemsMatchNaiveModel) {
  std::mt19937 rng(20240611);
  for (int iteration = 0; iteration < 200; ++iteration) {
    Problem problem = makeRandomProblem(rng);
    std::string error;
    ASSERT_TRUE(problem.verify(&error)) << error;
    int64_t lowerBound = computeLowerBoundTransientBytes(problem);
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<TaskId> order = trial == 0
                                      ? problem.programOrder()
                                      : randomTopologicalOrder(problem, rng);
      ASSERT_EQ(order.size(), problem.numTasks());
      std::optional<MemoryProfile> profile =
          simulateMemory(problem, order, &error);
      ASSERT_TRUE(profile.has_value()) << error;
      Bytes expected = naiveLiveBytes(problem, order, true);
      Bytes expectedBuffers = naiveLiveBytes(problem, order, false);
      ASSERT_EQ(profile->liveBytes, expected) << "iteration " << iteration;
      ASSERT_EQ(profile->liveBufferBytes, expectedBuffers)
          << "iteration " << iteration;
      int64_t peak = expected.empty()
                         ? 0
                         : *std::max_element(expected.begin(), expected.end());
      int64_t maxLive = expectedBuffers.empty()
                            ? 0
                            : *std::max_element(expectedBuffers.begin(),
                                                expectedBuffers.end());
      EXPECT_EQ(profile->peakTransientBytes, peak);
      EXPECT_EQ(profile->maxLiveBytes, maxLive);
      int32_t firstPeak = expected.empty() ? -1
                                           : std::max_element(expected.begin(),
                                                              expected.end()) -
                                                 expected.begin();
      EXPECT_EQ(profile->peakStep, firstPeak);
      EXPECT_EQ(profile->residentBytes, problem.residentBytes());
      EXPECT_GE(profile->peakTransientBytes, lowerBound)
          << "iteration " << iteration << " trial " << trial;
    }
  }
}

} // namespace
