//===- CheckGpuTarget.cpp - memsched-check-gpu-target pass ------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file checks the target of memsched-to-gpu-pipeline up front. The NVPTX
// backend aborts the process on a PTX version too old for the chip, and
// binary serialization fails late on a missing ptxas; both are turned into
// diagnostics that say what to change.
//
//===----------------------------------------------------------------------===//

#include "memsched/Conversion/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Triple.h"

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
}

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDCHECKGPUTARGETPASS
#include "memsched/Conversion/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {
struct CheckGpuTargetPass
    : public memsched::impl::MemschedCheckGpuTargetPassBase<
          CheckGpuTargetPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// The oldest PTX ISA version (times ten) the NVPTX backend accepts for
/// `chip`, or 0 when the chip predates the table (LLVM's default suffices).
static int getMinimumPtxVersion(StringRef chip) {
  // From the PTX ISA's target table, as LLVM 22 enforces it.
  static const std::pair<StringRef, int> table[] = {
      {"sm_121", 88}, {"sm_120", 87}, {"sm_110", 90}, {"sm_103", 88},
      {"sm_101", 86}, {"sm_100", 86}, {"sm_90a", 80}, {"sm_90", 78},
      {"sm_89", 78},  {"sm_88", 90},  {"sm_87", 74},  {"sm_86", 71},
      {"sm_80", 70},  {"sm_75", 63},  {"sm_72", 61},  {"sm_70", 60},
  };
  // Architecture- and family-specific variants (sm_100a, sm_120f) need what
  // their base chip needs, and sm_90a its own entry.
  for (auto [prefix, version] : table) {
    if (chip == prefix)
      return version;
    if (chip.starts_with(prefix) && chip.size() == prefix.size() + 1 &&
        prefix != "sm_90")
      // Family-specific targets (sm_100f, sm_120f) came with PTX 8.8.
      return chip.ends_with("f") ? std::max(version, 88) : version;
  }
  return 0;
}

/// The PTX version a feature string asks for (`+ptx80` gives 80), or 0.
static int getRequestedPtxVersion(StringRef features) {
  int version = 0;
  SmallVector<StringRef> parts;
  features.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    part = part.trim();
    int value;
    if (part.consume_front("+ptx") && !part.getAsInteger(10, value))
      version = std::max(version, value);
  }
  return version;
}

/// Finds `tool` where MLIR's NVVM serializer looks: the toolkit's bin
/// directory, then PATH. Returns the path or empty.
static std::string findCudaTool(StringRef tool) {
  StringRef toolkit = NVVM::getCUDAToolkitPath();
  if (!toolkit.empty()) {
    SmallString<128> path(toolkit);
    llvm::sys::path::append(path, "bin", tool);
    if (llvm::sys::fs::can_execute(path))
      return std::string(path);
  }
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(tool))
    return *found;
  return "";
}

void CheckGpuTargetPass::runOnOperation() {
  ModuleOp module = getOperation();
  auto fail = [&](const Twine &message) {
    emitError(module.getLoc()) << "memsched-to-gpu-pipeline: " << message;
    signalPassFailure();
  };
  if (format != "isa" && format != "bin" && format != "fatbin")
    return fail("unknown format '" + format +
                "'; expected isa (PTX), bin (cubin) or fatbin");

  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return fail("this LLVM has no NVPTX backend: " + error);
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, chip, ""));
  if (!subtarget || !subtarget->isCPUStringValid(chip))
    return fail("chip '" + chip +
                "' is not a GPU LLVM's NVPTX backend supports (for example "
                "sm_80, sm_90, sm_90a, sm_100)");
  int needed = getMinimumPtxVersion(chip);
  int requested = getRequestedPtxVersion(features);
  if (needed && requested < needed)
    return fail("chip '" + chip + "' needs PTX " + Twine(needed / 10) + "." +
                Twine(needed % 10) + " or newer, but features='" + features +
                "' " +
                (requested ? "asks for PTX " + Twine(requested / 10) + "." +
                                 Twine(requested % 10)
                           : Twine("names no PTX version")) +
                "; add features=+ptx" + Twine(needed));
  if (!checkToolkit)
    return;
  // Math functions become calls into libdevice, which the serializer links
  // from the toolkit only when it knows where the toolkit is; without it the
  // driver would fail to load the module.
  WalkResult math = module.walk([](Operation *op) {
    auto func = op->getParentOfType<func::FuncOp>();
    return isa<math::MathDialect>(op->getDialect()) && func &&
                   !func->hasAttr(kHostAttrName)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (math.wasInterrupted() && NVVM::getCUDAToolkitPath().empty())
    return fail("math functions on the GPU need libdevice from the CUDA "
                "toolkit, and no toolkit directory is set; set CUDA_ROOT to "
                "the toolkit (the directory with nvvm/libdevice)");
  if (format == "isa")
    return;
  for (StringRef tool : {StringRef("ptxas"), StringRef("fatbinary")}) {
    if (tool == "fatbinary" && format != "fatbin")
      continue;
    if (findCudaTool(tool).empty()) {
      StringRef toolkit = NVVM::getCUDAToolkitPath();
      return fail("format=" + format + " needs '" + tool +
                  "' from the CUDA toolkit, which is neither in " +
                  (toolkit.empty() ? Twine("a toolkit directory (none is "
                                           "set: CUDA_ROOT)")
                                   : "the toolkit directory ('" + toolkit +
                                         "', set CUDA_ROOT to change it)") +
                  " nor on PATH; install the toolkit or use format=isa (the "
                  "driver compiles PTX when the module is loaded)");
    }
  }
}
