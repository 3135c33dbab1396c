// Found by bench/fuzz.py (plan, -test-memsched-check-bufferization-model,
// control-flow seeds 31230 and 32613; reduced by hand). A branch yields an
// insertion into a tensor from outside that is read again after the op:
// with its value written into a tensor of the op's own
// (memsched-region-results-outside), the branch copied the tensor for the
// insertion and then copied the value again, 120 B inside the branch where
// the model counts none. The tensor is now copied into the op's tensor and
// the piece inserted there: the branch allocates nothing.
// RUN: memsched-opt %s --mlir-disable-threading -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s
// RUN: memsched-opt %s --mlir-disable-threading "-test-memsched-check-bufferization-model=region-results-outside=true" -o /dev/null | FileCheck %s

// CHECK: bufferization-model @main scf.if body predicted 0 bufferized 0{{$}}
// CHECK-NEXT: bufferization-model @main predicted 240 bufferized 240{{$}}
func.func @main(%x: tensor<5x6xf32>, %flag: i1) -> (tensor<5x6xf32>, tensor<5x6xf32>) {
  %e = tensor.empty() : tensor<5x6xf32>
  %m = linalg.exp ins(%x : tensor<5x6xf32>) outs(%e : tensor<5x6xf32>) -> tensor<5x6xf32>
  %r = scf.if %flag -> (tensor<5x6xf32>) {
    %cst = arith.constant dense<2.0> : tensor<2x4xf32>
    %ins = tensor.insert_slice %cst into %m[1, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<5x6xf32>
    scf.yield %ins : tensor<5x6xf32>
  } else {
    scf.yield %m : tensor<5x6xf32>
  }
  return %r, %m : tensor<5x6xf32>, tensor<5x6xf32>
}
