// RUN: rm -rf %t && split-file %s %t
// RUN: memsched-opt %t/several-blocks.mlir -verify-diagnostics -memsched-concat-in-place
// RUN: memsched-opt %t/dynamic.mlir -verify-diagnostics -memsched-concat-in-place | FileCheck %t/dynamic.mlir
// RUN: memsched-opt %t/unknown-device.mlir -verify-diagnostics -memsched-concat-in-place=device=tpu

// Tests that memsched-concat-in-place refuses functions outside the memory
// model and unknown devices with a diagnostic, and leaves the IR unchanged.

//--- several-blocks.mlir
// expected-error @below {{memsched-concat-in-place cannot analyze '@f': it has 2 blocks, only single-block functions are supported}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1
^bb1:
  return %x : tensor<4xf32>
}

//--- unknown-device.mlir
// expected-error @below {{memsched-concat-in-place: unknown device 'tpu'}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.empty() : tensor<8xf32>
  %r0 = tensor.insert_slice %a into %r[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %r1 = tensor.insert_slice %x into %r0[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %x : tensor<4xf32>
}

//--- dynamic.mlir
// A dynamic shape puts the function outside the model: a remark, and the
// concatenation is left as it is.
// CHECK-LABEL: func.func @f
// CHECK:         %[[A:.+]] = linalg.exp ins(%arg0 : tensor<4xf32>) outs(%{{.+}} : tensor<4xf32>)
// CHECK:         tensor.concat dim(0) %[[A]], %arg0
// expected-remark @below {{memsched-concat-in-place leaves '@f' unchanged: argument type 'tensor<?xf32>' has no static size}}
func.func @f(%x: tensor<4xf32>, %y: tensor<?xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %c = tensor.concat dim(0) %a, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}
