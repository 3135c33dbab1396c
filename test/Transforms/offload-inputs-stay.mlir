// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-offload=offload=inputs
// RUN: not memsched-opt %s -split-input-file -mlir-print-op-on-diagnostic=false -memsched-offload=offload=inputs 2>/dev/null | FileCheck %s
// RUN: not memsched-opt %s -split-input-file -mlir-print-op-on-diagnostic=false "-memsched-optimize=budget=min offload=inputs" 2>&1 >/dev/null | FileCheck %s --check-prefix=FIT

// Tests memsched-offload's `inputs` on arguments that cannot move: an input
// returned would need a device copy of its own, and one the function may
// write through memory would need its host copy updated, so they stay on
// the device
// (the others move, and so does an input written in place: the write takes
// its swapped-in copy); an input in host memory already is refused, with
// the IR unchanged (the pass fails and prints nothing for it), also through
// memsched-optimize's budget driver, which reports it (FIT).

// CHECK-LABEL: func.func @written_in_place
// CHECK-SAME: (%{{[a-z0-9]+}}: tensor<8xf32> {memsched.host_memory}, %{{[a-z0-9]+}}: tensor<8xf32> {memsched.host_memory})
// CHECK: %[[Y:.+]] = memsched.swap_in
// CHECK: linalg.mul {{.+}} outs(%[[Y]] : tensor<8xf32>)
// expected-remark @below {{memsched-offload: 2 arguments in host memory, 0 results copied out; 64 B no longer resident on the device}}
func.func @written_in_place(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.mul ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @returned
// CHECK-SAME: (%{{[a-z0-9]+}}: tensor<8xf32>, %{{[a-z0-9]+}}: tensor<8xf32> {memsched.host_memory})
// expected-remark @below {{memsched-offload: 1 arguments in host memory, 0 results copied out; 32 B no longer resident on the device}}
func.func @returned(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.mul ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = tensor.extract_slice %r[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %x, %s : tensor<8xf32>, tensor<4xf32>
}

// -----

// A buffer of %y the function may write: the caller would see the write.
// CHECK-LABEL: func.func @exposed
// CHECK-SAME: (%{{[a-z0-9]+}}: tensor<8xf32> {memsched.host_memory}, %{{[a-z0-9]+}}: tensor<8xf32>)
// expected-remark @below {{memsched-offload: 1 arguments in host memory, 0 results copied out; 32 B no longer resident on the device}}
func.func @exposed(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %m = bufferization.to_buffer %y : tensor<8xf32> to memref<8xf32>
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %m[%c0] : memref<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.mul ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
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
// FIT: error: memsched-offload: '@twice' is offloaded already (argument #0 is in host memory)

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
