//===- OrderGlobals.cpp - memsched-order-globals ----------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the pass that makes the constants one-shot
// bufferization creates deterministic: their order and their uniqued names
// follow the order in which bufferization visited the functions, which
// changes from run to run for functions that do not call each other. The
// pass sorts them by type and contents and names them from that order.
//
//===----------------------------------------------------------------------===//

#include "memsched/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/xxhash.h"

namespace mlir::memsched {
#define GEN_PASS_DEF_MEMSCHEDORDERGLOBALSPASS
#include "memsched/Transforms/Passes.h.inc"
} // namespace mlir::memsched

using namespace mlir;
using namespace mlir::memsched;

namespace {
/// What a constant global is, independent of when it was created.
struct GlobalKey {
  std::string type;
  uint64_t contentHash = 0;
  std::string contents;
  memref::GlobalOp global;
};

std::string printed(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

std::string printed(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The shape part of a constant's name: "4x3xf32" for memref<4x3xf32>.
std::string shapeName(MemRefType type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  for (int64_t size : type.getShape())
    os << size << "x";
  type.getElementType().print(os);
  return name;
}

class OrderGlobalsPass
    : public mlir::memsched::impl::MemschedOrderGlobalsPassBase<
          OrderGlobalsPass> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::vector<GlobalKey> keys;
    for (auto global : module.getOps<memref::GlobalOp>()) {
      // Only what bufferization creates: private constants with a value.
      if (!global.getConstant() || !global.isPrivate() ||
          !global.getInitialValue())
        continue;
      GlobalKey key;
      key.type = printed(global.getType());
      Attribute value = *global.getInitialValue();
      if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
        ArrayRef<char> raw = dense.getRawData();
        key.contentHash = llvm::xxh3_64bits(ArrayRef<uint8_t>(
            reinterpret_cast<const uint8_t *>(raw.data()), raw.size()));
        key.contents = dense.isSplat() ? "splat" : "";
      } else {
        key.contents = printed(value);
      }
      key.global = global;
      keys.push_back(std::move(key));
    }
    if (keys.empty())
      return;
    std::stable_sort(keys.begin(), keys.end(),
                     [](const GlobalKey &a, const GlobalKey &b) {
                       return std::tie(a.type, a.contentHash, a.contents) <
                              std::tie(b.type, b.contentHash, b.contents);
                     });

    // Rename in two steps so that no new name meets an old one, then move
    // the globals to the top of the module in the sorted order.
    auto rename = [&](memref::GlobalOp global, StringRef name) {
      StringAttr newName = StringAttr::get(&getContext(), name);
      if (failed(SymbolTable::replaceAllSymbolUses(global, newName, module)))
        return failure();
      SymbolTable::setSymbolName(global, newName);
      return success();
    };
    for (auto [index, key] : llvm::enumerate(keys))
      if (failed(rename(key.global,
                        "__memsched_order_globals_" + std::to_string(index))))
        return signalPassFailure();
    llvm::StringMap<int> perShape;
    for (GlobalKey &key : keys) {
      std::string base =
          "__constant_" + shapeName(cast<MemRefType>(key.global.getType()));
      // Each name once, past any the module already uses for other globals.
      std::string name;
      do {
        int count = perShape[base]++;
        name = count == 0 ? base : base + "_" + std::to_string(count - 1);
      } while (SymbolTable::lookupSymbolIn(module, name));
      if (failed(rename(key.global, name)))
        return signalPassFailure();
    }
    Block &body = module.getBodyRegion().front();
    for (GlobalKey &key : llvm::reverse(keys))
      key.global->moveBefore(&body, body.begin());
    // A global has the location of whichever constant bufferization met
    // first; give it that of its first use in program order instead.
    llvm::DenseMap<StringAttr, Location> firstUse;
    module.walk([&](memref::GetGlobalOp use) {
      firstUse.try_emplace(use.getNameAttr().getAttr(), use.getLoc());
    });
    for (GlobalKey &key : keys)
      if (auto it = firstUse.find(key.global.getSymNameAttr());
          it != firstUse.end())
        key.global->setLoc(it->second);
  }
};
} // namespace
