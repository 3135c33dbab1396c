//===- MemschedOps.h - memsched dialect ops ---------------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDOPS_H
#define MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDOPS_H

#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"
#include "memsched/Dialect/Memsched/IR/MemschedInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::memsched {
/// The copy engines between device and host memory, written by the swap ops.
struct CopyEngineResource
    : public SideEffects::Resource::Base<CopyEngineResource> {
  StringRef getName() final { return "memsched::CopyEngine"; }
};
} // namespace mlir::memsched

#define GET_TYPEDEF_CLASSES
#include "memsched/Dialect/Memsched/IR/MemschedOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "memsched/Dialect/Memsched/IR/MemschedOps.h.inc"

#endif // MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDOPS_H
