// Found when the budget driver began planning inside loop bodies: on
// ResNet-18's gradient-accumulation loop planned with recomputation, the
// body model was below what one-shot bufferization allocates. In-place
// rewrites leave writes into a reshape of a buffer (%scaled below) and
// into buffers earlier ops read (%neg into %b, %out into the carried
// %acc). The body model counted a new allocation for each, splitting one
// lifetime in two, which can pack tighter than the one buffer
// bufferization keeps: not a safe side. All are writes in place, as
// bufferization makes them.
// RUN: memsched-opt %s -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s

// CHECK: bufferization-model @main scf.for body predicted [[BYTES:[0-9]+]] bufferized [[BYTES]]{{$}}
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @main(%x: tensor<64x64xf32>, %n: index) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64x64xf32>) {
    %e1 = tensor.empty() : tensor<64x64xf32>
    %a = linalg.exp ins(%acc : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %e2 = tensor.empty() : tensor<64x64xf32>
    %b = linalg.negf ins(%a : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %e3 = tensor.empty() : tensor<64x64xf32>
    %big = linalg.exp ins(%b : tensor<64x64xf32>) outs(%e3 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %v = tensor.expand_shape %a [[0], [1, 2]] output_shape [64, 64, 1] : tensor<64x64xf32> into tensor<64x64x1xf32>
    %scaled = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : tensor<64x64x1xf32>) outs(%v : tensor<64x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %d = arith.divf %in, %two : f32
      linalg.yield %d : f32
    } -> tensor<64x64x1xf32>
    %w = tensor.collapse_shape %scaled [[0], [1, 2]] : tensor<64x64x1xf32> into tensor<64x64xf32>
    %e4 = tensor.empty() : tensor<64x64xf32>
    %sum = linalg.add ins(%w, %big : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e4 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %neg = linalg.negf ins(%sum : tensor<64x64xf32>) outs(%b : tensor<64x64xf32>) -> tensor<64x64xf32>
    %out = linalg.add ins(%neg, %big : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
    scf.yield %out : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}
