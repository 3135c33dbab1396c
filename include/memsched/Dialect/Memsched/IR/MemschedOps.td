//===- MemschedOps.td - memsched dialect ops ---------------*- tablegen -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the ops of the memsched dialect.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDOPS_TD
#define MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDOPS_TD

include "memsched/Dialect/Memsched/IR/MemschedBase.td"
include "memsched/Dialect/Memsched/IR/MemschedInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

#endif // MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDOPS_TD
