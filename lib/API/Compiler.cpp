//===- Compiler.cpp - Coarse string-level API to memsched -------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "memsched/API/Compiler.h"
#include "memsched/Analysis/Budget.h"
#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Analysis/MemoryReport.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/InitAll.h"
#include "memsched/Transforms/BudgetPlanning.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
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
#include "llvm/Support/JSON.h"
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

/// Parses `moduleText` in a fresh context whose diagnostics are collected
/// into the result, and runs `body` on the module; the call succeeds when
/// `body` does and no error was emitted.
static api::CallResult callOnModule(
    StringRef moduleText,
    llvm::function_ref<LogicalResult(ModuleOp, api::CallResult &)> body) {
  api::CallResult result;
  std::unique_ptr<MLIRContext> context = api::createContext();
  DiagnosticCollector collector(*context, result.diagnostics);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(moduleText, context.get(), "<input>");
  if (!module)
    return result;
  result.succeeded = succeeded(body(*module, result)) && !collector.sawError();
  if (!result.succeeded)
    result.output.clear();
  return result;
}

api::CallResult api::runPipeline(StringRef moduleText, StringRef pipeline) {
  return callOnModule(moduleText, [&](ModuleOp module, CallResult &result) {
    PassManager pm(module.getContext());
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
      return failure();
    }
    if (failed(pm.run(module)))
      return failure();
    // With locations, so that a report of the result (analyze, the plan
    // list) still names where each op came from: the PyTorch module path
    // for imported models, the input's lines otherwise.
    llvm::raw_string_ostream os(result.output);
    module.print(os, OpPrintingFlags().enableDebugInfo());
    return success();
  });
}

api::CallResult api::analyze(StringRef moduleText, StringRef device,
                             bool includeTimeline) {
  return callOnModule(moduleText, [&](ModuleOp module, CallResult &result) {
    FailureOr<std::vector<FunctionReport>> reports =
        analyzeModule(module, device, "memsched");
    if (failed(reports))
      return failure();
    ReportOptions options;
    options.includeTimeline = includeTimeline;
    llvm::raw_string_ostream os(result.output);
    os << llvm::formatv("{0:2}", toJSON(*reports, options));
    return success();
  });
}

api::CallResult api::sweep(StringRef moduleText, ArrayRef<std::string> budgets,
                           StringRef device, bool allowRemat, bool allowSwap) {
  return callOnModule(moduleText, [&](ModuleOp module, CallResult &result) {
    SmallVector<Budget> parsed;
    for (const std::string &text : budgets) {
      std::string error;
      std::optional<Budget> budget = parseBudget(text, error);
      if (!budget) {
        result.diagnostics += "error: " + error + "\n";
        return failure();
      }
      parsed.push_back(*budget);
    }
    BudgetPassConfig config;
    config.passName = "memsched-sweep";
    config.allowRemat = allowRemat;
    config.allowSwap = allowSwap;
    llvm::json::Array functions;
    WalkResult walked = module.walk([&](func::FuncOp func) {
      if (func.isExternal() || func->hasAttr(kHostAttrName))
        return WalkResult::advance();
      FailureOr<DeviceSpec> spec =
          device.empty()
              ? DeviceSpec::resolveOrEmitError("", func, config.passName)
              : DeviceSpec::lookupOrEmitError(device, func, config.passName);
      if (failed(spec))
        return WalkResult::interrupt();
      CostModel costModel(*spec);
      FunctionReport input = analyzeFunction(func, costModel);
      FailureOr<SmallVector<BudgetSweepPoint>> points =
          sweepBudgets(func, costModel, config, parsed);
      if (failed(points))
        return WalkResult::interrupt();
      llvm::json::Array curve;
      for (auto [text, point] : llvm::zip(budgets, *points)) {
        llvm::json::Object entry{{"budget", text},
                                 {"budget_bytes", point.budgetBytes},
                                 {"met", point.met},
                                 {"planned_bytes", point.plannedBytes}};
        if (point.met) {
          entry["modeled_time_s"] = point.timeSeconds;
          entry["chosen"] = point.strategy;
        }
        curve.push_back(std::move(entry));
      }
      functions.push_back(
          llvm::json::Object{{"name", func.getSymName()},
                             {"device", spec->name},
                             {"planned_bytes", input.plannedBytes()},
                             {"modeled_time_s", input.modeledTimeSeconds},
                             {"points", std::move(curve)}});
      return WalkResult::advance();
    });
    if (walked.wasInterrupted())
      return failure();
    llvm::raw_string_ostream os(result.output);
    os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                     {"functions", std::move(functions)}}));
    return success();
  });
}
