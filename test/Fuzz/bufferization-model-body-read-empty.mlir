// Found when the budget driver began planning inside loop bodies
// (memsched-fit=budget=min on the CNN training step in a gradient-
// accumulation loop): a recomputed max-pooling read its window, a
// tensor.empty, far from the first pooling. The body model took every
// empty tensor for one allocated at its writers and counted nothing for
// the window; bufferization allocates a read empty where it is made, and
// here it lives from the first pooling to the second, across the 4 KiB
// temporary between them.
// RUN: memsched-opt %s -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s

// CHECK: bufferization-model @main scf.for body predicted 5392 bufferized 5392{{$}}
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @main(%x: tensor<1x1x32x32xf32>, %n: index) -> tensor<1x1x2x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x1x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<1x1x2x2xf32>) {
    %window = tensor.empty() : tensor<16x16xf32>
    %e1 = tensor.empty() : tensor<1x1x2x2xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
    %p1 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<16> : tensor<2xi64>} ins(%x, %window : tensor<1x1x32x32xf32>, tensor<16x16xf32>) outs(%f1 : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
    %e2 = tensor.empty() : tensor<1x1x32x32xf32>
    %big = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x1x32x32xf32>) outs(%e2 : tensor<1x1x32x32xf32>) {
    ^bb0(%a: f32, %o: f32):
      %v = math.exp %a : f32
      linalg.yield %v : f32
    } -> tensor<1x1x32x32xf32>
    %e3 = tensor.empty() : tensor<1x1x2x2xf32>
    %f2 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
    %p2 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<16> : tensor<2xi64>} ins(%big, %window : tensor<1x1x32x32xf32>, tensor<16x16xf32>) outs(%f2 : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
    %s = linalg.add ins(%p1, %p2 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) outs(%acc : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
    scf.yield %s : tensor<1x1x2x2xf32>
  }
  return %r : tensor<1x1x2x2xf32>
}
