// Found by bench/fuzz.py (nondeterministic, bufferize+plan and
// cpu-pipeline). One-shot bufferization with function boundaries (upstream
// MLIR 22) visits functions that do not call each other in an order that
// changes from run to run, and creates the memref.global of each constant in
// that order. memsched-order-globals, right after bufferization in the
// pipelines, sorts and renames them, so the same input lowers to the same
// module (bufferization alone, outside the pipelines, still varies).
// RUN: memsched-opt %s -memsched-to-cpu-pipeline -o %t.1
// RUN: memsched-opt %s -memsched-to-cpu-pipeline -o %t.2
// RUN: memsched-opt %s -memsched-to-cpu-pipeline -o %t.3
// RUN: memsched-opt %s -memsched-to-cpu-pipeline -o %t.4
// RUN: diff %t.1 %t.2
// RUN: diff %t.1 %t.3
// RUN: diff %t.1 %t.4

// Tests that memsched-to-cpu-pipeline gives the same output on every run of
// a module of eight independent functions, each returning a constant.

func.func @f0() -> tensor<2xf32> {
  %c = arith.constant dense<0.0> : tensor<2xf32>
  return %c : tensor<2xf32>
}
func.func @f1() -> tensor<3xf32> {
  %c = arith.constant dense<1.0> : tensor<3xf32>
  return %c : tensor<3xf32>
}
func.func @f2() -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}
func.func @f3() -> tensor<5xf32> {
  %c = arith.constant dense<3.0> : tensor<5xf32>
  return %c : tensor<5xf32>
}
func.func @f4() -> tensor<6xf32> {
  %c = arith.constant dense<4.0> : tensor<6xf32>
  return %c : tensor<6xf32>
}
func.func @f5() -> tensor<7xf32> {
  %c = arith.constant dense<5.0> : tensor<7xf32>
  return %c : tensor<7xf32>
}
func.func @f6() -> tensor<8xf32> {
  %c = arith.constant dense<6.0> : tensor<8xf32>
  return %c : tensor<8xf32>
}
func.func @f7() -> tensor<9xf32> {
  %c = arith.constant dense<7.0> : tensor<9xf32>
  return %c : tensor<9xf32>
}
