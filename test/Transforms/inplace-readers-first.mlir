// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-inplace | FileCheck %s
// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-inplace -test-memsched-check-bufferization-model -o /dev/null
// RUN: memsched-opt %s -split-input-file -memsched-inplace -mlir-print-op-on-diagnostic=false -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: memsched-opt %s -split-input-file -mlir-print-op-on-diagnostic=false -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=BEFORE
// RUN: memsched-opt %s -memsched-exec-harness=func=readers_first -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-inplace -memsched-exec-harness=func=readers_first -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.inplace
// RUN: diff %t.original %t.inplace

// Tests that memsched-inplace runs the readers of an input after an
// elementwise op that could write into it ahead of that op, with what they
// need (the reduction's fill), where they do not depend on the op and make
// fewer bytes than the write saves; the op then writes into the input.

// The sum of %a comes after the negation that could take %a's buffer.
// CHECK-LABEL: func.func @readers_first
// CHECK:         %[[A:.+]] = linalg.exp
// CHECK:         linalg.fill
// CHECK:         linalg.reduce ins(%[[A]] : tensor<1024xf32>)
// CHECK:         linalg.negf ins(%[[A]] : tensor<1024xf32>) outs(%[[A]] : tensor<1024xf32>)
// CHECK:         return
// REPORT:        "name": "readers_first"
// REPORT:        "peak_bytes": 8196
// BEFORE:        "name": "readers_first"
// BEFORE:        "peak_bytes": 12292
// expected-remark @below {{memsched-inplace: 1 ops write into a dead input (1 once later readers of it ran first); peak 12.00 KiB -> 8.00 KiB}}
func.func @readers_first(%x: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1024xf32>
  %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.negf ins(%a : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  %e2 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%a : tensor<1024xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  return %b, %s : tensor<1024xf32>, tensor<f32>
}

// -----

// The reader makes four times the bytes the write would save: running it
// first would raise the steps in between, so the order stays.
// CHECK-LABEL: func.func @reader_too_large
// CHECK:         %[[A:.+]] = linalg.exp
// CHECK:         linalg.negf ins(%[[A]] : tensor<256xf32>) outs(%{{.+}} : tensor<256xf32>)
// CHECK-NOT:     outs(%[[A]]
// CHECK:         linalg.broadcast ins(%[[A]]
func.func @reader_too_large(%x: tensor<256xf32>) -> (tensor<256xf32>, tensor<4x256xf32>) {
  %e0 = tensor.empty() : tensor<256xf32>
  %a = linalg.exp ins(%x : tensor<256xf32>) outs(%e0 : tensor<256xf32>) -> tensor<256xf32>
  %e1 = tensor.empty() : tensor<256xf32>
  %b = linalg.negf ins(%a : tensor<256xf32>) outs(%e1 : tensor<256xf32>) -> tensor<256xf32>
  %e2 = tensor.empty() : tensor<4x256xf32>
  %c = linalg.broadcast ins(%a : tensor<256xf32>) outs(%e2 : tensor<4x256xf32>) dimensions = [0]
  return %b, %c : tensor<256xf32>, tensor<4x256xf32>
}

// -----

// The reader needs the write's result: it cannot run first.
// CHECK-LABEL: func.func @reader_needs_write
// CHECK:         %[[A:.+]] = linalg.exp
// CHECK:         %[[B:.+]] = linalg.negf ins(%[[A]] : tensor<256xf32>) outs(%{{.+}} : tensor<256xf32>)
// CHECK:         linalg.reduce ins(%[[A]], %[[B]]
func.func @reader_needs_write(%x: tensor<256xf32>) -> (tensor<256xf32>, tensor<f32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256xf32>
  %a = linalg.exp ins(%x : tensor<256xf32>) outs(%e0 : tensor<256xf32>) -> tensor<256xf32>
  %e1 = tensor.empty() : tensor<256xf32>
  %b = linalg.negf ins(%a : tensor<256xf32>) outs(%e1 : tensor<256xf32>) -> tensor<256xf32>
  %e2 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<f32>) -> tensor<f32>
  %s:2 = linalg.reduce ins(%a, %b : tensor<256xf32>, tensor<256xf32>) outs(%init, %init : tensor<f32>, tensor<f32>) dimensions = [0]
    (%in: f32, %in2: f32, %acc: f32, %acc2: f32) {
      %sum = arith.addf %in, %acc : f32
      %sum2 = arith.addf %in2, %acc2 : f32
      linalg.yield %sum, %sum2 : f32, f32
    }
  return %b, %s#0, %s#1 : tensor<256xf32>, tensor<f32>, tensor<f32>
}
