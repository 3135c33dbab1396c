// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-offload=offload=inputs
// RUN: not memsched-opt %s -split-input-file -mlir-print-op-on-diagnostic=false -memsched-offload=offload=inputs 2>/dev/null | FileCheck %s

// Tests memsched-offload's refusals for `inputs` (each decided before any
// rewrite): an input written in place, an input returned, an input in host
// memory already. The IR is left as it was (the pass fails, and the
// functions the pass accepts are printed offloaded).

func.func @written_in_place(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{memsched-offload: input #1 of '@written_in_place' is written in place by 'linalg.mul'; an offloaded input is read only}}
  %r = linalg.mul ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// expected-error @below {{memsched-offload: input #0 of '@returned' is returned; an offloaded input stays in host memory}}
func.func @returned(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.mul ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = tensor.extract_slice %r[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %x, %s : tensor<8xf32>, tensor<4xf32>
}

// -----

// expected-error @below {{memsched-offload: '@twice' is offloaded already (argument #0 is in host memory)}}
func.func @twice(%x: tensor<8xf32> {memsched.host_memory}) -> tensor<8xf32> {
  %h = memsched.host_argument %x : tensor<8xf32> -> !memsched.host<tensor<8xf32>>
  %x0 = memsched.swap_in %h : !memsched.host<tensor<8xf32>> -> tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.mul ins(%x0, %x0 : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Accepted: the scalar stays, the tensor moves.
// CHECK-LABEL: func.func @accepted
// CHECK-SAME: tensor<8xf32> {memsched.host_memory}
// CHECK-SAME: %{{[a-z0-9]+}}: f32)
// CHECK: memsched.swap_in
// expected-remark @below {{memsched-offload: 1 arguments in host memory, 0 results copied out; 32 B no longer resident on the device}}
func.func @accepted(%x: tensor<8xf32>, %s: f32) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.mul ins(%x, %f : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
