//===- TagKernels.cpp - memsched-tag-kernels pass ---------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#include "KernelTags.h"
#include "memsched/Conversion/Passes.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDTAGKERNELSPASS
#include "memsched/Conversion/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

std::string mlir::memsched::sanitizeKernelName(StringRef name) {
  std::string result;
  for (char c : name)
    result.push_back(llvm::isAlnum(c) ? c : '_');
  return result;
}

void mlir::memsched::tagKernels(func::FuncOp func) {
  if (func.isExternal() || func->hasAttr(kHostAttrName))
    return;
  Builder builder(func.getContext());
  for (auto [position, op] : llvm::enumerate(func.getBody().front())) {
    if (!isa<linalg::LinalgOp>(op) || op.hasAttr(kKernelAttrName))
      continue;
    std::string name =
        sanitizeKernelName((func.getSymName() + "_" + Twine(position) + "_" +
                            op.getName().stripDialect())
                               .str());
    op.setAttr(kKernelAttrName, builder.getStringAttr(name));
  }
}

namespace {
struct TagKernelsPass
    : public memsched::impl::MemschedTagKernelsPassBase<TagKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      tagKernels(func);
  }
};
} // namespace
