// RUN: memsched-opt %s | memsched-opt | FileCheck %s
// RUN: memsched-opt %s -canonicalize -cse | FileCheck %s --check-prefix=KEPT

// Tests that the swap ops round-trip, and that canonicalization and CSE
// neither merge two swap-ins of one host copy nor drop an unused swap-in or
// a wait.

// CHECK-LABEL: func.func @round_trip
// CHECK: %[[H:.*]] = memsched.swap_out %{{.*}} : tensor<4x8xf32> -> !memsched.host<tensor<4x8xf32>>
// CHECK: memsched.swap_wait %[[H]] : !memsched.host<tensor<4x8xf32>>
// CHECK: memsched.swap_in %[[H]] : !memsched.host<tensor<4x8xf32>> -> tensor<4x8xf32>
// KEPT-LABEL: func.func @round_trip
// KEPT: memsched.swap_out
// KEPT-COUNT-2: memsched.swap_wait
// KEPT-COUNT-3: memsched.swap_in
func.func @round_trip(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %h = memsched.swap_out %a : tensor<4x8xf32> -> !memsched.host<tensor<4x8xf32>>
  memsched.swap_wait %h : !memsched.host<tensor<4x8xf32>>
  memsched.swap_wait %h : !memsched.host<tensor<4x8xf32>>
  %b = memsched.swap_in %h : !memsched.host<tensor<4x8xf32>> -> tensor<4x8xf32>
  %c = memsched.swap_in %h : !memsched.host<tensor<4x8xf32>> -> tensor<4x8xf32>
  %unused = memsched.swap_in %h : !memsched.host<tensor<4x8xf32>> -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %d = linalg.add ins(%b, %c : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
