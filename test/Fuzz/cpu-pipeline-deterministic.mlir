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
// With locations: a constant several functions share becomes one global,
// which took the location of whichever constant bufferization met first
// (found by bench/fuzz.py, seed 5859, in-process runs). It now takes that of
// its first use in program order.
// RUN: memsched-opt %s -memsched-to-cpu-pipeline -mlir-print-debuginfo -o %t.d1
// RUN: memsched-opt %s -memsched-to-cpu-pipeline -mlir-print-debuginfo -o %t.d2
// RUN: memsched-opt %s -memsched-to-cpu-pipeline -mlir-print-debuginfo -o %t.d3
// RUN: memsched-opt %s -memsched-to-cpu-pipeline -mlir-print-debuginfo -o %t.d4
// RUN: memsched-opt %s -memsched-to-cpu-pipeline -mlir-print-debuginfo -o %t.d5
// RUN: memsched-opt %s -memsched-to-cpu-pipeline -mlir-print-debuginfo -o %t.d6
// RUN: diff %t.d1 %t.d2
// RUN: diff %t.d1 %t.d3
// RUN: diff %t.d1 %t.d4
// RUN: diff %t.d1 %t.d5
// RUN: diff %t.d1 %t.d6

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

// Four functions returning the same constant: one global, four uses.
func.func @same0() -> tensor<4xf32> {
  %c = arith.constant dense<7.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}
func.func @same1() -> tensor<4xf32> {
  %c = arith.constant dense<7.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}
func.func @same2() -> tensor<4xf32> {
  %c = arith.constant dense<7.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}
func.func @same3() -> tensor<4xf32> {
  %c = arith.constant dense<7.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}
