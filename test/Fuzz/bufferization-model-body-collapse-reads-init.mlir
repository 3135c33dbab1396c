// Found by bench/fuzz.py (plan, -test-memsched-check-bufferization-model,
// seed 36017, control-flow). In a loop body the matmul's init is collapsed
// after the matmul, into a view nothing reads. One-shot bufferization
// counts a collapse as a read of its source, so the matmul writes out of
// place into a copy; the body model took the unread collapse for no read
// and the matmul for a write in place (288 B predicted, 544 allocated).
// RUN: memsched-opt %s -test-memsched-check-bufferization-model=upper-bound -o /dev/null | FileCheck %s

// The body's 128 B fill, the 32 B fill and the matmul's 32 B copy are live
// together at the matmul: 544 B in the body's arena with its alignment.
// CHECK: bufferization-model @main scf.for body predicted 544 bufferized 544{{$}}
func.func @main(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %lb = arith.constant 0 : index
  %ub = arith.constant 2 : index
  %step = arith.constant 1 : index
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %x) -> (tensor<2x8xf32>) {
    %c2 = arith.constant -2.0 : f32
    %e0 = tensor.empty() : tensor<8x4xf32>
    %w = linalg.fill ins(%c2 : f32) outs(%e0 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %c0 = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<2x4xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %m = linalg.matmul ins(%acc, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
    %flat = tensor.collapse_shape %z [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
    scf.yield %acc : tensor<2x8xf32>
  }
  return %r : tensor<2x8xf32>
}
