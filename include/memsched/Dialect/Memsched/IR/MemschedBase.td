//===- MemschedBase.td - memsched dialect definition -------*- tablegen -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file defines the memsched dialect and the base class of its ops.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDBASE_TD
#define MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDBASE_TD

include "mlir/IR/OpBase.td"

def Memsched_Dialect : Dialect {
  let name = "memsched";
  let cppNamespace = "::mlir::memsched";
  let summary = "Memory-aware scheduling of tensor programs";
  let description = [{
    The memsched dialect holds the ops and attributes that memsched's passes use
    to make tensor programs fit in device memory: cost annotations read by the
    cost model, and (in later passes) swap and recompute markers.

    Discardable attributes verified by the dialect:

    * `memsched.cost` — a non-negative floating-point number of seconds. It
      replaces the modelled time of the op it is attached to, for example with
      a time measured by a profiler:

      ```mlir
      %0 = linalg.matmul {memsched.cost = 1.25e-3 : f64}
             ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
             outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
      ```
    * `memsched.work` — `{flops = <integer>, bytes = <integer>}`: the work a
      device kernel for the op does. It replaces the flops and bytes of the
      cost interface when the op's linalg form does more work than the
      kernel a GPU compiler would emit, for example a scatter-add written as
      a reduction over a one-hot comparison:

      ```mlir
      %0 = linalg.generic {memsched.work = {flops = 4096 : i64, bytes = 49152 : i64}, ...}
      ```
    * `memsched.workspace` — a non-negative integer number of bytes of scratch
      memory the op needs while it runs (for example a convolution algorithm's
      workspace). It replaces the workspace given by the cost interface.
    * `memsched.host_memory` — a unit attribute on a `func.func` argument or
      result: the calling convention passes it in host memory (resident
      state offloaded by `memsched-optimize{offload=...}`). An argument so
      marked is read only by `memsched.host_argument`; a result so marked
      is a `memsched.host_result`.
    * `memsched.training_step` — `{parameters = N, optimizer_state = M}` on
      a function (memsched.torch writes it): its first N arguments are
      parameters and the next M optimizer state, updated by results 1 to
      N + M (without an optimizer, results 1 to N are the gradients).
  }];
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let useDefaultTypePrinterParser = 1;
}

class Memsched_Op<string mnemonic, list<Trait> traits = []>
    : Op<Memsched_Dialect, mnemonic, traits>;

#endif // MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDBASE_TD
