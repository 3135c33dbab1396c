//===- AnnotateCalls.cpp - memsched-annotate-calls --------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the module pass that records, on every call, what the
// callee holds while it runs (annotateCallWorkspaces), so that function
// passes, which may not look at other functions, count it as the call's
// workspace.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDANNOTATECALLSPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct MemschedAnnotateCallsPass
    : public memsched::impl::MemschedAnnotateCallsPassBase<
          MemschedAnnotateCallsPass> {
  void runOnOperation() override { annotateCallWorkspaces(getOperation()); }
};
} // namespace
