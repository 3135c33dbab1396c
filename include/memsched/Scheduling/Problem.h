//===- Problem.h - Scheduling problem for memory-aware ordering -*- C++ -*-===//
//
// This file declares the order-independent description of a function body
// that the memory-aware schedulers work on: tasks (ops) in program order,
// tensor values, and the buffers (alias groups) those values live in. It is
// plain C++17 so that the scheduling core can be tested and benchmarked
// without building MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_PROBLEM_H
#define MEMSCHED_SCHEDULING_PROBLEM_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace memsched {
namespace scheduling {

/// Index of a task; tasks are numbered in program order.
using TaskId = int32_t;
/// Index of a tensor value.
using ValueId = int32_t;
/// Index of a buffer (alias group).
using BufferId = int32_t;

/// Marks an absent task, value or buffer reference.
inline constexpr int32_t kNoId = -1;

/// Whether a buffer competes for transient memory.
enum class BufferKind {
  /// Allocated inside the function; counted while live.
  Transient,
  /// A function argument or constant; present for the whole call.
  Resident,
};

/// One op of the function body.
struct Task {
  /// Name used in diagnostics.
  std::string name;
  /// Compute time in seconds.
  double duration = 0.0;
  /// Scratch memory the task needs only while it runs.
  int64_t workspaceBytes = 0;
  /// Fences keep their relative program order (e.g. side effects).
  bool isFence = false;
  /// (input, result) value pairs of an elementwise write whose result may
  /// take the input's buffer where no later task uses that buffer: what
  /// memsched-inplace rewrites after a budget plan. The recomputation
  /// planners model it (applyInPlaceWrites), and reorder() with
  /// ReorderOptions::modelInPlaceWrites; the other simulators do not.
  std::vector<std::pair<ValueId, ValueId>> inPlaceWrites;
};

/// Memory shared by an alias group of values.
struct Buffer {
  /// Name used in diagnostics.
  std::string name;
  /// Bytes the buffer occupies while live.
  int64_t sizeBytes = 0;
  /// Whether the buffer is transient or resident.
  BufferKind kind = BufferKind::Transient;
  /// The buffer escapes the function (e.g. is returned), so it stays live
  /// until the last step.
  bool liveToEnd = false;
};

/// A tensor value living in a buffer.
struct Value {
  /// Name used in diagnostics.
  std::string name;
  /// Bytes of the value; informational, the buffer size is what is counted.
  int64_t sizeBytes = 0;
  /// The buffer (alias group) the value lives in; must be set.
  BufferId buffer = kNoId;
  /// The task writing the value, or kNoId (e.g. an empty tensor).
  TaskId producer = kNoId;
  /// Tasks reading the value; may contain duplicates.
  std::vector<TaskId> consumers;
  /// The task whose op defines the value: the producer for values that are
  /// written, and also the op of a view or an empty tensor, which write
  /// nothing. kNoId for function arguments. Rematerialization clones it.
  /// addValue() sets it to the producer when left unset.
  TaskId definedBy = kNoId;
  /// The value escapes the function, which keeps its buffer live to the end.
  bool liveToEnd = false;
  /// For a view (a value no task writes, in the buffer of the value it is
  /// derived from by a reshape, slice or cast): that value; else kNoId.
  ValueId viewOf = kNoId;
};

/// Sets every field of \p to from \p from but the consumers, which are
/// cleared with their storage kept (for a builder that fills in place).
inline void assignAllButConsumers(Value &to, const Value &from) {
  to.name = from.name;
  to.sizeBytes = from.sizeBytes;
  to.buffer = from.buffer;
  to.producer = from.producer;
  to.consumers.clear();
  to.definedBy = from.definedBy;
  to.liveToEnd = from.liveToEnd;
  to.viewOf = from.viewOf;
}

/// A scheduling problem: tasks, buffers, values and the dependences between
/// tasks.
///
/// Derived data (dependence lists, buffers used per task) is computed lazily
/// on the first query and cached; every add* call and every non-const
/// accessor drops the cache. Because of this, const queries are not safe to
/// call concurrently unless finalize() was called first, and a mutable
/// reference obtained from an accessor must not be written through after a
/// later query.
class Problem {
public:
  /// Appends a task; tasks must be added in program order.
  TaskId addTask(Task task);
  /// Resizes to this many tasks, buffers and values, without extra
  /// dependences, for a builder that then sets every element in place
  /// through the mutable accessors: the elements kept keep their storage
  /// (names, lists), which spares a planner that builds many problems of
  /// about one size most of its allocations.
  void resizeForRebuild(size_t numTasks, size_t numBuffers, size_t numValues);
  /// Appends a buffer.
  BufferId addBuffer(Buffer buffer);
  /// Appends a value; its ids are checked by verify(), not here.
  ValueId addValue(Value value);
  /// Records that \p task reads \p value. \p value must be a valid id.
  void addConsumer(ValueId value, TaskId task);
  /// Adds an ordering edge not implied by values, e.g. write-after-read
  /// between in-place writes, or between side effects.
  void addDependence(TaskId before, TaskId after);

  /// Number of tasks.
  size_t numTasks() const { return tasks.size(); }
  /// Number of buffers.
  size_t numBuffers() const { return buffers.size(); }
  /// Number of values.
  size_t numValues() const { return values.size(); }

  /// Task \p id.
  const Task &task(TaskId id) const;
  /// Task \p id, for modification; drops the derived-data cache.
  Task &task(TaskId id);
  /// Buffer \p id.
  const Buffer &buffer(BufferId id) const;
  /// Buffer \p id, for modification; drops the derived-data cache.
  Buffer &buffer(BufferId id);
  /// Value \p id.
  const Value &value(ValueId id) const;
  /// Value \p id, for modification; drops the derived-data cache.
  Value &value(ValueId id);

  /// Extra edges added with addDependence, as (before, after) pairs.
  const std::vector<std::pair<TaskId, TaskId>> &extraDependences() const {
    return extraEdges;
  }

  /// Computes the derived data now, so that later const queries do not
  /// mutate the object (and may run concurrently).
  void finalize() const;

  /// Tasks that must run before \p id: producers of the values it reads,
  /// extra edges, and the previous fence if \p id is a fence. Sorted,
  /// deduplicated, without self edges; out-of-range ids are ignored.
  const std::vector<TaskId> &predecessors(TaskId id) const;
  /// Tasks that must run after \p id; the inverse of predecessors(), sorted.
  const std::vector<TaskId> &successors(TaskId id) const;
  /// Distinct buffers task \p id produces into or consumes, sorted.
  const std::vector<BufferId> &buffersUsedBy(TaskId id) const;

  /// Sum of the sizes of all resident buffers.
  int64_t residentBytes() const;
  /// Whether each buffer (by BufferId) stays live to the end, through its
  /// own flag or through a value in it. Assumes verified references.
  std::vector<bool> escapingBuffers() const;
  /// A copy in which the buffers that escape are resident: its transient
  /// bytes are those of the arena (Footprint), escaping buffers being
  /// allocated whole apart.
  Problem withEscapingResident() const;
  /// The identity order 0..n-1, which is the program order.
  std::vector<TaskId> programOrder() const;

  /// Returns true if \p order is a permutation of all tasks that respects
  /// every dependence; otherwise explains why in \p why (if non-null).
  bool isTopologicalOrder(const std::vector<TaskId> &order,
                          std::string *why = nullptr) const;

  /// Checks ids, sizes and the per-value rules but not acyclicity; cheap
  /// (O(values + uses + edges)) and enough to make the simulators safe.
  bool verifyReferences(std::string *error) const;
  /// Checks everything verifyReferences() checks plus acyclicity of the
  /// dependence graph. Messages are lowercase and name the offender.
  bool verify(std::string *error) const;

  /// Describes task \p id for diagnostics: its quoted name, or #id if unnamed
  /// or out of range.
  std::string describeTask(TaskId id) const;

private:
  void invalidate() { derivedValid = false; }
  void ensureDerived() const;

  std::vector<Task> tasks;
  std::vector<Buffer> buffers;
  std::vector<Value> values;
  std::vector<std::pair<TaskId, TaskId>> extraEdges;

  // Lazily derived adjacency; see the class comment.
  mutable bool derivedValid = false;
  mutable std::vector<std::vector<TaskId>> preds;
  mutable std::vector<std::vector<TaskId>> succs;
  mutable std::vector<std::vector<BufferId>> bufferUses;
};

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_PROBLEM_H
