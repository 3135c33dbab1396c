//===- ImportProfile.cpp - memsched-import-profile pass ---------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file reads the per-kernel times memsched's CUDA runtime measured back
// into the IR as `memsched.cost`, which the cost model prefers to its
// roofline estimate: profile-guided costs for reorder, remat and swap.
//
//===----------------------------------------------------------------------===//

#include "KernelTags.h"
#include "memsched/Conversion/Passes.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDIMPORTPROFILEPASS
#include "memsched/Conversion/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct ImportProfilePass
    : public memsched::impl::MemschedImportProfilePassBase<ImportProfilePass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// Reads `kernels[].name` and `kernels[].total_s` of a runtime profile.
static FailureOr<llvm::StringMap<double>>
readProfile(StringRef path, function_ref<InFlightDiagnostic()> emitError) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file)
    return emitError() << "memsched-import-profile: cannot read '" << path
                       << "': " << file.getError().message();
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*file)->getBuffer());
  if (!json)
    return emitError() << "memsched-import-profile: '" << path
                       << "' is not JSON: " << llvm::toString(json.takeError());
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *kernels = root ? root->getArray("kernels") : nullptr;
  if (!kernels)
    return emitError() << "memsched-import-profile: '" << path
                       << "' has no \"kernels\" array";
  llvm::StringMap<double> totals;
  for (const llvm::json::Value &entry : *kernels) {
    const llvm::json::Object *kernel = entry.getAsObject();
    std::optional<StringRef> name =
        kernel ? kernel->getString("name") : std::nullopt;
    std::optional<double> total =
        kernel ? kernel->getNumber("total_s") : std::nullopt;
    if (!name || !total || *total < 0)
      return emitError() << "memsched-import-profile: '" << path
                         << "': every kernel needs a \"name\" and a "
                            "non-negative \"total_s\"";
    totals[*name] += *total;
  }
  return totals;
}

void ImportProfilePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (profile.empty()) {
    emitError(module.getLoc())
        << "memsched-import-profile: profile= is required";
    return signalPassFailure();
  }
  if (calls <= 0) {
    emitError(module.getLoc())
        << "memsched-import-profile: calls must be positive";
    return signalPassFailure();
  }
  FailureOr<llvm::StringMap<double>> totals =
      readProfile(profile, [&] { return emitError(module.getLoc()); });
  if (failed(totals))
    return signalPassFailure();

  Builder builder(&getContext());
  int64_t measured = 0, tagged = 0;
  for (auto func : module.getOps<func::FuncOp>()) {
    tagKernels(func);
    func.walk([&](linalg::LinalgOp op) {
      auto name = op->getAttrOfType<StringAttr>(kKernelAttrName);
      if (!name)
        return;
      ++tagged;
      // Names given by hand may have characters kernel names cannot.
      auto it = totals->find(sanitizeKernelName(name.getValue()));
      if (it == totals->end())
        return;
      op->setAttr(kCostAttrName, builder.getF64FloatAttr(
                                     it->second / static_cast<double>(calls)));
      ++measured;
    });
  }
  emitRemark(module.getLoc())
      << "memsched-import-profile: measured costs for " << measured << " of "
      << tagged << " ops (" << totals->size() << " kernels in the profile)";
}
