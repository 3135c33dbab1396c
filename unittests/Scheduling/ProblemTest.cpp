//===- ProblemTest.cpp - Tests for the scheduling problem -----------------===//
//
// This file tests dependence derivation, order checking and verification of
// the scheduling problem.
//
//===----------------------------------------------------------------------===//

#include "memsched/Scheduling/Problem.h"

#include <gtest/gtest.h>

using namespace mlir::memsched::scheduling;

namespace {

using Ids = std::vector<int32_t>;

Task makeTask(std::string name, bool isFence = false) {
  Task task;
  task.name = std::move(name);
  task.isFence = isFence;
  return task;
}

Buffer makeBuffer(std::string name, int64_t size) {
  Buffer buffer;
  buffer.name = std::move(name);
  buffer.sizeBytes = size;
  return buffer;
}

Value makeValue(std::string name, BufferId buffer, TaskId producer,
                std::vector<TaskId> consumers = {}) {
  Value value;
  value.name = std::move(name);
  value.buffer = buffer;
  value.producer = producer;
  value.consumers = std::move(consumers);
  return value;
}

TEST(ProblemTest, DependencesFromValues) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a"));
  TaskId b = problem.addTask(makeTask("b"));
  TaskId c = problem.addTask(makeTask("c"));
  BufferId buf = problem.addBuffer(makeBuffer("buf", 8));
  ValueId x = problem.addValue(makeValue("x", buf, a, {c}));
  problem.addConsumer(x, b);
  problem.addValue(makeValue("y", buf, b, {c}));

  EXPECT_EQ(problem.predecessors(a), Ids());
  EXPECT_EQ(problem.predecessors(b), Ids({a}));
  EXPECT_EQ(problem.predecessors(c), Ids({a, b}));
  EXPECT_EQ(problem.successors(a), Ids({b, c}));
  EXPECT_EQ(problem.successors(b), Ids({c}));
  EXPECT_EQ(problem.successors(c), Ids());
  EXPECT_EQ(problem.buffersUsedBy(b), Ids({buf}));
  std::string error;
  EXPECT_TRUE(problem.verify(&error)) << error;
}

TEST(ProblemTest, ExtraEdgesAreDeduplicatedAndSelfEdgesDropped) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a"));
  TaskId b = problem.addTask(makeTask("b"));
  BufferId buf = problem.addBuffer(makeBuffer("buf", 8));
  // b reads x twice and also has an extra edge from a: one edge a->b.
  problem.addValue(makeValue("x", buf, a, {b, b}));
  problem.addDependence(a, b);
  problem.addDependence(a, b);
  problem.addDependence(b, b);
  EXPECT_EQ(problem.predecessors(b), Ids({a}));
  EXPECT_EQ(problem.successors(a), Ids({b}));
  EXPECT_EQ(problem.predecessors(a), Ids());
  EXPECT_EQ(problem.buffersUsedBy(b), Ids({buf}));
}

TEST(ProblemTest, ExtraEdgeWithoutValues) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a"));
  TaskId b = problem.addTask(makeTask("b"));
  problem.addDependence(b, a);
  EXPECT_EQ(problem.predecessors(a), Ids({b}));
  EXPECT_FALSE(problem.isTopologicalOrder(problem.programOrder()));
  EXPECT_TRUE(problem.isTopologicalOrder({b, a}));
}

TEST(ProblemTest, FencesFormAChainInProgramOrder) {
  Problem problem;
  TaskId f0 = problem.addTask(makeTask("f0", /*isFence=*/true));
  TaskId plain = problem.addTask(makeTask("plain"));
  TaskId f1 = problem.addTask(makeTask("f1", /*isFence=*/true));
  TaskId f2 = problem.addTask(makeTask("f2", /*isFence=*/true));
  EXPECT_EQ(problem.predecessors(f0), Ids());
  EXPECT_EQ(problem.predecessors(f1), Ids({f0}));
  EXPECT_EQ(problem.predecessors(f2), Ids({f1}));
  EXPECT_EQ(problem.successors(f0), Ids({f1}));
  // Non-fence tasks are not ordered by fences.
  EXPECT_EQ(problem.predecessors(plain), Ids());
  EXPECT_EQ(problem.successors(plain), Ids());
  EXPECT_TRUE(problem.isTopologicalOrder({plain, f0, f1, f2}));
  EXPECT_FALSE(problem.isTopologicalOrder({f1, f0, plain, f2}));
}

TEST(ProblemTest, CacheIsRebuiltAfterMutation) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a", /*isFence=*/true));
  TaskId b = problem.addTask(makeTask("b"));
  EXPECT_EQ(problem.predecessors(b), Ids());
  problem.task(b).isFence = true;
  EXPECT_EQ(problem.predecessors(b), Ids({a}));
  BufferId buf = problem.addBuffer(makeBuffer("buf", 8));
  ValueId x = problem.addValue(makeValue("x", buf, kNoId));
  EXPECT_EQ(problem.buffersUsedBy(a), Ids());
  problem.value(x).producer = a;
  EXPECT_EQ(problem.buffersUsedBy(a), Ids({buf}));
}

TEST(ProblemTest, ResidentBytesAndProgramOrder) {
  Problem problem;
  problem.addTask(makeTask("a"));
  problem.addTask(makeTask("b"));
  problem.addTask(makeTask("c"));
  Buffer arg = makeBuffer("arg", 100);
  arg.kind = BufferKind::Resident;
  Buffer cst = makeBuffer("cst", 20);
  cst.kind = BufferKind::Resident;
  problem.addBuffer(arg);
  problem.addBuffer(makeBuffer("tmp", 7));
  problem.addBuffer(cst);
  EXPECT_EQ(problem.residentBytes(), 120);
  EXPECT_EQ(problem.programOrder(), Ids({0, 1, 2}));
}

TEST(ProblemTest, VerifyCatchesCycle) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a"));
  TaskId b = problem.addTask(makeTask("b"));
  TaskId c = problem.addTask(makeTask("c"));
  problem.addTask(makeTask("d"));
  BufferId buf = problem.addBuffer(makeBuffer("buf", 8));
  problem.addValue(makeValue("x", buf, a, {b}));
  problem.addValue(makeValue("y", buf, b, {c}));
  problem.addDependence(c, b);
  std::string error;
  EXPECT_FALSE(problem.verify(&error));
  EXPECT_NE(error.find("cycle"), std::string::npos) << error;
  EXPECT_NE(error.find("'b'"), std::string::npos) << error;
  EXPECT_NE(error.find("'c'"), std::string::npos) << error;
  EXPECT_EQ(error.find("'a'"), std::string::npos) << error;
  EXPECT_FALSE(problem.isTopologicalOrder(problem.programOrder()));
}

TEST(ProblemTest, VerifyCatchesBadIds) {
  {
    Problem problem;
    problem.addTask(makeTask("a"));
    problem.addBuffer(makeBuffer("buf", 8));
    problem.addValue(makeValue("v", /*buffer=*/3, kNoId));
    std::string error;
    EXPECT_FALSE(problem.verify(&error));
    EXPECT_NE(error.find("'v'"), std::string::npos) << error;
    EXPECT_NE(error.find("buffer"), std::string::npos) << error;
  }
  {
    Problem problem;
    problem.addTask(makeTask("a"));
    problem.addBuffer(makeBuffer("buf", 8));
    problem.addValue(makeValue("v", 0, /*producer=*/5));
    std::string error;
    EXPECT_FALSE(problem.verify(&error));
    EXPECT_NE(error.find("'v'"), std::string::npos) << error;
    EXPECT_NE(error.find("producer"), std::string::npos) << error;
    // Derived queries stay safe on a malformed problem.
    EXPECT_EQ(problem.predecessors(0), Ids());
  }
  {
    Problem problem;
    problem.addTask(makeTask("a"));
    problem.addBuffer(makeBuffer("buf", 8));
    ValueId v = problem.addValue(makeValue("v", 0, 0));
    problem.addConsumer(v, 9);
    std::string error;
    EXPECT_FALSE(problem.verify(&error));
    EXPECT_NE(error.find("consumer"), std::string::npos) << error;
  }
  {
    Problem problem;
    problem.addTask(makeTask("a"));
    problem.addDependence(0, -7);
    std::string error;
    EXPECT_FALSE(problem.verify(&error));
    EXPECT_NE(error.find("-7"), std::string::npos) << error;
  }
}

TEST(ProblemTest, VerifyCatchesMissingBuffer) {
  Problem problem;
  problem.addTask(makeTask("a"));
  problem.addValue(makeValue("orphan", kNoId, 0));
  std::string error;
  EXPECT_FALSE(problem.verify(&error));
  EXPECT_EQ(error, "value 'orphan' has no buffer");
}

TEST(ProblemTest, VerifyCatchesNegativeSizes) {
  {
    Problem problem;
    problem.addBuffer(makeBuffer("neg", -1));
    std::string error;
    EXPECT_FALSE(problem.verify(&error));
    EXPECT_NE(error.find("'neg'"), std::string::npos) << error;
    EXPECT_NE(error.find("negative"), std::string::npos) << error;
  }
  {
    Problem problem;
    Task task = makeTask("ws");
    task.workspaceBytes = -5;
    problem.addTask(task);
    std::string error;
    EXPECT_FALSE(problem.verify(&error));
    EXPECT_NE(error.find("'ws'"), std::string::npos) << error;
  }
  {
    Problem problem;
    problem.addBuffer(makeBuffer("buf", 4));
    Value value = makeValue("small", 0, kNoId);
    value.sizeBytes = -2;
    problem.addValue(value);
    std::string error;
    EXPECT_FALSE(problem.verify(&error));
    EXPECT_NE(error.find("'small'"), std::string::npos) << error;
  }
}

TEST(ProblemTest, VerifyCatchesProducerConsumingItsOwnValue) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a"));
  BufferId buf = problem.addBuffer(makeBuffer("buf", 8));
  problem.addValue(makeValue("loop", buf, a, {a}));
  // The self use must not turn into a self edge.
  EXPECT_EQ(problem.predecessors(a), Ids());
  std::string error;
  EXPECT_FALSE(problem.verify(&error));
  EXPECT_NE(error.find("'loop'"), std::string::npos) << error;
  EXPECT_NE(error.find("own producer"), std::string::npos) << error;
}

TEST(ProblemTest, VerifyAcceptsEmptyProblem) {
  Problem problem;
  std::string error;
  EXPECT_TRUE(problem.verify(&error)) << error;
  EXPECT_TRUE(problem.isTopologicalOrder({}));
}

TEST(ProblemTest, IsTopologicalOrderRejectsNonPermutations) {
  Problem problem;
  problem.addTask(makeTask("a"));
  problem.addTask(makeTask("b"));
  problem.addTask(makeTask("c"));
  std::string why;
  EXPECT_FALSE(problem.isTopologicalOrder({0, 1}, &why));
  EXPECT_NE(why.find("2 entries"), std::string::npos) << why;
  EXPECT_FALSE(problem.isTopologicalOrder({0, 1, 2, 0}, &why));
  EXPECT_FALSE(problem.isTopologicalOrder({0, 1, 1}, &why));
  EXPECT_NE(why.find("'b'"), std::string::npos) << why;
  EXPECT_NE(why.find("twice"), std::string::npos) << why;
  EXPECT_FALSE(problem.isTopologicalOrder({0, 3, 1}, &why));
  EXPECT_NE(why.find("out of range"), std::string::npos) << why;
  EXPECT_FALSE(problem.isTopologicalOrder({0, -1, 1}, &why));
  EXPECT_TRUE(problem.isTopologicalOrder({2, 0, 1}, &why)) << why;
}

TEST(ProblemTest, IsTopologicalOrderRejectsViolations) {
  Problem problem;
  TaskId a = problem.addTask(makeTask("a"));
  TaskId b = problem.addTask(makeTask("b"));
  TaskId c = problem.addTask(makeTask("c"));
  BufferId buf = problem.addBuffer(makeBuffer("buf", 8));
  problem.addValue(makeValue("x", buf, a, {c}));
  std::string why;
  EXPECT_TRUE(problem.isTopologicalOrder({b, a, c}, &why)) << why;
  EXPECT_TRUE(problem.isTopologicalOrder({a, c, b}, &why)) << why;
  EXPECT_FALSE(problem.isTopologicalOrder({c, a, b}, &why));
  EXPECT_EQ(why, "task 'c' at position 0 runs before its predecessor 'a' at "
                 "position 1");
}

} // namespace
