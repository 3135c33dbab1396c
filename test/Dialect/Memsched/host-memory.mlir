// RUN: memsched-opt %s | memsched-opt | FileCheck %s
// RUN: memsched-opt %s -canonicalize -cse | FileCheck %s --check-prefix=KEPT

// Tests that an offloaded parameter and gradient round-trip: an argument and
// a result in host memory (memsched.host_memory), the argument read through
// memsched.host_argument and two swap-ins, the gradient copied out and
// returned by memsched.host_result; cleanup keeps both swap-ins.

// CHECK-LABEL: func.func @offloaded
// CHECK-SAME: %{{.*}}: tensor<8xf32> {memsched.host_memory}
// CHECK-SAME: (tensor<8xf32> {memsched.host_memory})
// CHECK: %[[H:.*]] = memsched.host_argument %{{.*}} : tensor<8xf32> -> !memsched.host<tensor<8xf32>>
// CHECK: memsched.swap_in %[[H]] : !memsched.host<tensor<8xf32>> -> tensor<8xf32>
// CHECK: %[[G:.*]] = memsched.swap_out
// CHECK: memsched.host_result %[[G]] : !memsched.host<tensor<8xf32>> -> tensor<8xf32>
// KEPT-LABEL: func.func @offloaded
// KEPT-COUNT-2: memsched.swap_in
// KEPT: memsched.host_result
func.func @offloaded(%w: tensor<8xf32> {memsched.host_memory}, %x: tensor<8xf32>) -> (tensor<8xf32> {memsched.host_memory}) {
  %h = memsched.host_argument %w : tensor<8xf32> -> !memsched.host<tensor<8xf32>>
  %w0 = memsched.swap_in %h : !memsched.host<tensor<8xf32>> -> tensor<8xf32>
  %e0 = tensor.empty() : tensor<8xf32>
  %y = linalg.mul ins(%w0, %x : tensor<8xf32>, tensor<8xf32>) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %w1 = memsched.swap_in %h : !memsched.host<tensor<8xf32>> -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %g = linalg.mul ins(%w1, %y : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %hg = memsched.swap_out %g : tensor<8xf32> -> !memsched.host<tensor<8xf32>>
  %r = memsched.host_result %hg : !memsched.host<tensor<8xf32>> -> tensor<8xf32>
  return %r : tensor<8xf32>
}
