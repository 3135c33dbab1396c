//===- Compiler.cpp - Coarse string-level API to memsched -------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/API/Compiler.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"

#include <mutex>

using namespace mlir;
using namespace mlir::memsched;

std::unique_ptr<MLIRContext> api::createContext() {
  static std::once_flag registerPassesOnce;
  std::call_once(registerPassesOnce, [] {
    registerAllPasses();
    registerAllMemschedPasses();
  });
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllMemschedDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  // Python users read messages, not the generic form of the failing op.
  context->printOpOnDiagnostic(false);
  return context;
}

namespace {
/// Collects every diagnostic of a context as text while alive.
class DiagnosticCollector {
public:
  DiagnosticCollector(MLIRContext &context, std::string &text)
      : os(text), handler(&context, [this](Diagnostic &diagnostic) {
          record(diagnostic);
          return success();
        }) {}

  bool sawError() const { return hadError; }

private:
  void record(Diagnostic &diagnostic) {
    switch (diagnostic.getSeverity()) {
    case DiagnosticSeverity::Error:
      hadError = true;
      os << diagnostic.getLocation() << ": error: ";
      break;
    case DiagnosticSeverity::Warning:
      os << diagnostic.getLocation() << ": warning: ";
      break;
    case DiagnosticSeverity::Remark:
      os << diagnostic.getLocation() << ": remark: ";
      break;
    case DiagnosticSeverity::Note:
      os << diagnostic.getLocation() << ": note: ";
      break;
    }
    os << diagnostic << "\n";
    for (Diagnostic &note : diagnostic.getNotes())
      os << note.getLocation() << ": note: " << note << "\n";
  }

  llvm::raw_string_ostream os;
  ScopedDiagnosticHandler handler;
  bool hadError = false;
};
} // namespace

/// Parses `text` with diagnostics going to `collector`'s context.
static OwningOpRef<ModuleOp> parseModule(StringRef text, MLIRContext &context) {
  return parseSourceString<ModuleOp>(text, &context, "<input>");
}

api::CallResult api::runPipeline(StringRef moduleText, StringRef pipeline) {
  CallResult result;
  std::unique_ptr<MLIRContext> context = createContext();
  DiagnosticCollector collector(*context, result.diagnostics);
  OwningOpRef<ModuleOp> module = parseModule(moduleText, *context);
  if (!module)
    return result;
  PassManager pm(context.get());
  // The pass manager is anchored on the module already: an explicit
  // "builtin.module(...)" anchor is unwrapped, a bare list is taken as is.
  StringRef pipelineText = pipeline.trim();
  if (pipelineText.consume_front("builtin.module("))
    pipelineText.consume_back(")");
  std::string parseErrors;
  llvm::raw_string_ostream errorStream(parseErrors);
  if (failed(parsePassPipeline(pipelineText, pm, errorStream))) {
    result.diagnostics += "error: invalid pipeline '" + pipeline.str() +
                          "': " + parseErrors + "\n";
    return result;
  }
  if (failed(pm.run(*module)) || collector.sawError())
    return result;
  llvm::raw_string_ostream os(result.output);
  module->print(os);
  result.succeeded = true;
  return result;
}

api::CallResult api::analyze(StringRef moduleText, StringRef device,
                             bool includeTimeline) {
  CallResult result;
  std::unique_ptr<MLIRContext> context = createContext();
  DiagnosticCollector collector(*context, result.diagnostics);
  OwningOpRef<ModuleOp> module = parseModule(moduleText, *context);
  if (!module)
    return result;
  FailureOr<std::vector<FunctionReport>> reports =
      analyzeModule(*module, device, "memsched");
  if (failed(reports) || collector.sawError())
    return result;
  ReportOptions options;
  options.includeTimeline = includeTimeline;
  llvm::raw_string_ostream os(result.output);
  os << llvm::formatv("{0:2}", toJSON(*reports, options));
  result.succeeded = true;
  return result;
}
