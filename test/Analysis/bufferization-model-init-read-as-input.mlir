// RUN: memsched-opt %s -split-input-file --mlir-disable-threading -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s

// An op that reads its init's buffer through an input at other indices
// (matmul, transpose) cannot write in place; one-shot bufferization allocates
// a new result buffer and the model must count it.

// Tests that a matmul whose lhs is also its init gets a new result buffer.

// A (fill + exp, 4*4*4 = 64) is still read while the matmul writes its
// result M (64): 64 + 64 = 128.
// CHECK: bufferization-model @matmul_lhs_is_init predicted 128 bufferized 128{{$}}
func.func @matmul_lhs_is_init(%w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %a = linalg.exp ins(%w : tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

// Tests that a transpose whose input is also its init gets a new result
// buffer.

// B (4*4*4 = 64) is read transposed while T (64) is written: 128.
// CHECK: bufferization-model @transpose_input_is_init predicted 128 bufferized 128{{$}}
func.func @transpose_input_is_init(%x: tensor<4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %b = linalg.broadcast ins(%x : tensor<4xf32>) outs(%e : tensor<4x4xf32>) dimensions = [0]
  %t = linalg.transpose ins(%b : tensor<4x4xf32>) outs(%b : tensor<4x4xf32>) permutation = [1, 0]
  return %t : tensor<4x4xf32>
}
