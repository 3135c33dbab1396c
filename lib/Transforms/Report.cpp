//===- Report.cpp - memsched-report pass ------------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the report pass: the figures of every function in text
// or JSON, and a Chrome trace of the modelled execution.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Transforms/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDREPORTPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

/// Writes `text` to `path` ("-" is standard output); reports failures on
/// `module`.
static LogicalResult writeOutput(ModuleOp module, StringRef path,
                                 function_ref<void(raw_ostream &)> write) {
  if (path == "-") {
    write(llvm::outs());
    llvm::outs().flush();
    return success();
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return emitError(module.getLoc()) << "memsched-report: " << error;
  write(file->os());
  file->keep();
  return success();
}

namespace {
struct ReportPass : public memsched::impl::MemschedReportPassBase<ReportPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void ReportPass::runOnOperation() {
  ModuleOp module = getOperation();
  ReportOptions reportOptions;
  reportOptions.includeTimeline = timeline;
  FailureOr<std::vector<FunctionReport>> reports =
      analyzeModule(module, device);
  if (failed(reports))
    return signalPassFailure();

  if (failed(writeOutput(module, output, [&](raw_ostream &os) {
        if (format == ReportFormat::Json)
          os << llvm::formatv("{0:2}", toJSON(*reports, reportOptions)) << "\n";
        else
          printTextReport(*reports, os);
      })))
    return signalPassFailure();
  if (!trace.empty() && failed(writeOutput(module, trace, [&](raw_ostream &os) {
        writeChromeTrace(*reports, os);
      })))
    return signalPassFailure();
  markAllAnalysesPreserved();
}
