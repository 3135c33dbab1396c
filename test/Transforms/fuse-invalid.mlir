// RUN: rm -rf %t && split-file %s %t
// RUN: memsched-opt %t/ratio.mlir -verify-diagnostics -memsched-fuse=input-ratio=0
// RUN: memsched-opt %t/several-blocks.mlir -verify-diagnostics -memsched-fuse
// RUN: memsched-opt %t/nothing.mlir -verify-diagnostics -memsched-fuse | FileCheck %t/nothing.mlir

// Tests that memsched-fuse rejects a bad option and functions outside the
// memory model with one error, and changes nothing then; and that it
// leaves a function without a fusable generator as it is.

//--- ratio.mlir
// expected-error @below {{memsched-fuse: input-ratio must be at least 1}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- several-blocks.mlir
// expected-error @below {{memsched-fuse cannot analyze '@f': it has 2 blocks, only single-block functions are supported}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^next
^next:
  return %x : tensor<4xf32>
}

//--- nothing.mlir
// A fill only a matmul reads (as its init), and an elementwise op whose
// input is as large as its result: no generator has a reader that fusion
// takes, and no elementwise producer has one reader.
// CHECK-LABEL: func.func @f(
// CHECK-NOT: memsched.fuse
// CHECK: linalg.fill
// CHECK: linalg.matmul
// CHECK: linalg.generic
func.func @f(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<16x16xf32>) outs(%e2 : tensor<16x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
