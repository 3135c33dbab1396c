// Found by bench/fuzz.py (plan, -test-memsched-check-bufferization-model,
// seed 16777, calls). With identity layouts at function boundaries, a slice
// at an offset passed to a call is copied into a new buffer before the
// call (the callee's argument type has no offset); the model counted no
// buffer for it (316 B predicted, 320 allocated). It counts it now among
// the call's operand copies, as those made for a callee's writes.
// RUN: memsched-opt %s --mlir-disable-threading -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s

// @main: while the call runs, the copy of %x[4..16) (48 B), in the call's
// workspace (which max-live leaves out); the slice at offset 0 is passed as
// it is. Max-live: the result and its negation, 16 B.
// CHECK: bufferization-model @main call @helper operand copies predicted 48 bufferized 48{{$}}
// CHECK: bufferization-model @main predicted 16 bufferized 16{{$}}
func.func private @helper(%a: tensor<12xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %s = tensor.extract_slice %a[0] [2] [1] : tensor<12xf32> to tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %n = linalg.add ins(%s, %b : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %n : tensor<2xf32>
}

func.func @main(%x: tensor<16xf32>) -> tensor<2xf32> {
  %head = tensor.extract_slice %x[0] [2] [1] : tensor<16xf32> to tensor<2xf32>
  %tail = tensor.extract_slice %x[4] [12] [1] : tensor<16xf32> to tensor<12xf32>
  %r = func.call @helper(%tail, %head) : (tensor<12xf32>, tensor<2xf32>) -> tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %n = linalg.negf ins(%r : tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %n : tensor<2xf32>
}
