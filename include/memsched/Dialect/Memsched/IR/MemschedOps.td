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
include "mlir/IR/AttrTypeBase.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Memsched_HostTensorType : TypeDef<Memsched_Dialect, "HostTensor"> {
  let mnemonic = "host";
  let summary = "A tensor's contents held in host memory";
  let description = [{
    The value `memsched.swap_out` produces: a copy of a statically shaped
    tensor in (pinned) host memory. It takes no device memory; the only thing
    a program can do with it is bring it back with `memsched.swap_in`.

    ```mlir
    !memsched.host<tensor<64x128xf32>>
    ```
  }];
  let parameters = (ins "::mlir::RankedTensorType":$tensorType);
  let assemblyFormat = "`<` $tensorType `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Swap ops
//===----------------------------------------------------------------------===//

/// The copy engines between device and host memory. Both swap ops write it,
/// which keeps them in order with each other and out of CSE and dead-code
/// elimination: a swap is placed where its copy must be issued.
def Memsched_CopyEngineResource
    : Resource<"::mlir::memsched::CopyEngineResource">;

def Memsched_SwapOutOp : Memsched_Op<"swap_out", [
    DeclareOpInterfaceMethods<Memsched_CostOpInterface>,
    MemoryEffects<[MemWrite<Memsched_CopyEngineResource>]>]> {
  let summary = "Copy a device tensor to host memory";
  let description = [{
    Starts copying `source` from device memory to host memory and returns the
    host copy. The op's position in the block is where the copy is issued (on
    the device-to-host copy engine, concurrently with the compute that
    follows); the device buffer of `source` can be freed once the copy has
    ended and no later op reads `source`. Each result must be read by at
    least one `memsched.swap_in` or by one `memsched.host_result`, and by
    nothing else but `memsched.swap_wait`.

    ```mlir
    %host = memsched.swap_out %act : tensor<64x128xf32> -> !memsched.host<tensor<64x128xf32>>
    ```
  }];
  let arguments = (ins Arg<AnyRankedTensor, "the device tensor copied out",
                           [MemRead]>:$source);
  let results = (outs Memsched_HostTensorType:$result);
  let assemblyFormat =
      "$source attr-dict `:` type($source) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Memsched_SwapInOp : Memsched_Op<"swap_in", [
    DeclareOpInterfaceMethods<Memsched_CostOpInterface>,
    MemoryEffects<[MemWrite<Memsched_CopyEngineResource>]>]> {
  let summary = "Copy a host tensor back to device memory";
  let description = [{
    Starts copying the host copy `source` (the result of a
    `memsched.swap_out` or `memsched.host_argument` in the same block) into
    a new device buffer and
    returns it as a tensor. The op's position in the block is where the copy
    is issued (the prefetch point, on the host-to-device copy engine); the
    first op that reads the result waits for the copy to end. The device
    buffer is taken when the copy starts. Several swap-ins may read one host
    copy.

    ```mlir
    %back = memsched.swap_in %host : !memsched.host<tensor<64x128xf32>> -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins Memsched_HostTensorType:$source);
  let results = (outs Res<AnyRankedTensor, "the device copy",
                          [MemAlloc]>:$result);
  let assemblyFormat =
      "$source attr-dict `:` qualified(type($source)) `->` type($result)";
  let hasVerifier = 1;
}

def Memsched_SwapWaitOp : Memsched_Op<"swap_wait", [
    DeclareOpInterfaceMethods<Memsched_CostOpInterface>,
    MemoryEffects<[MemWrite<Memsched_CopyEngineResource>]>]> {
  let summary = "Make compute wait for a swap-out to end";
  let description = [{
    Compute stops here until the copy of the `memsched.swap_out` that
    produced `source` has ended. From here on the device buffer of the
    swapped-out tensor is free (if nothing after this point reads it), even
    when the copy would not have ended yet by the time the compute before
    this point is done: a planned stall that trades step time for memory.
    Without a `memsched.swap_wait`, the buffer is free only from the first
    op that starts after the copy has ended. An op after the wait may write
    into the swapped-out tensor (its `outs`): the copy has ended.

    ```mlir
    %host = memsched.swap_out %act : tensor<64x128xf32> -> !memsched.host<tensor<64x128xf32>>
    %y = linalg.exp ins(%act : ...) outs(...) -> ...
    memsched.swap_wait %host : !memsched.host<tensor<64x128xf32>>
    ```
  }];
  let arguments = (ins Memsched_HostTensorType:$source);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Resident state in host memory
//===----------------------------------------------------------------------===//

def Memsched_HostArgumentOp : Memsched_Op<"host_argument", [
    DeclareOpInterfaceMethods<Memsched_CostOpInterface>, Pure]> {
  let summary = "The host-memory contents of an offloaded function argument";
  let description = [{
    `source` is an argument of the enclosing function marked
    `memsched.host_memory`: the caller passes it in host memory, and the device
    holds it only where the body brings it in with `memsched.swap_in` of
    this op's result (a prefetch per group of readers, placed like a
    swap's). This op must be the argument's only reader; it copies
    nothing.

    ```mlir
    func.func @step(%w: tensor<64x128xf32> {memsched.host_memory}) ... {
      %hw = memsched.host_argument %w : tensor<64x128xf32> -> !memsched.host<tensor<64x128xf32>>
      %w0 = memsched.swap_in %hw : !memsched.host<tensor<64x128xf32>> -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source);
  let results = (outs Memsched_HostTensorType:$result);
  let assemblyFormat =
      "$source attr-dict `:` type($source) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Memsched_HostResultOp : Memsched_Op<"host_result", [
    DeclareOpInterfaceMethods<Memsched_CostOpInterface>, Pure]> {
  let summary = "Return a swapped-out tensor in host memory";
  let description = [{
    The host copy `source` (the result of a `memsched.swap_out`) as a
    function result: its only reader is the function's return, at a result
    marked `memsched.host_memory`. The device buffer of the swapped-out tensor is
    freed once its copy has ended, not held to the end of the call.

    ```mlir
    %hg = memsched.swap_out %grad : tensor<64x128xf32> -> !memsched.host<tensor<64x128xf32>>
    %g = memsched.host_result %hg : !memsched.host<tensor<64x128xf32>> -> tensor<64x128xf32>
    return %g : tensor<64x128xf32>
    ```
  }];
  let arguments = (ins Memsched_HostTensorType:$source);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat =
      "$source attr-dict `:` qualified(type($source)) `->` type($result)";
  let hasVerifier = 1;
}

#endif // MEMSCHED_DIALECT_MEMSCHED_IR_MEMSCHEDOPS_TD
