// RUN: memsched-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON

// Tests that `memsched.work = {flops, bytes}` round-trips and replaces the
// work the cost interface computes: an exp over 64 elements annotated with
// the work of an exp over 4096 elements (4096 flops; 4096 * 4 bytes read and
// written) is modelled as long as the larger exp.

// CHECK-LABEL: func.func @natural
// JSON:       "modeled_time_s": [[TIME:[0-9.e+-]+]],
// JSON-NEXT:  "name": "natural",
func.func @natural(%x: tensor<4096xf32>) -> tensor<4096xf32> {
  %e = tensor.empty() : tensor<4096xf32>
  %a = linalg.exp ins(%x : tensor<4096xf32>) outs(%e : tensor<4096xf32>) -> tensor<4096xf32>
  return %a : tensor<4096xf32>
}

// -----

// CHECK-LABEL: func.func @annotated
// CHECK: linalg.exp {memsched.work = {bytes = 32768 : i64, flops = 4096 : i64}}
// JSON:       "modeled_time_s": [[TIME]],
// JSON-NEXT:  "name": "annotated",
func.func @annotated(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %a = linalg.exp {memsched.work = {flops = 4096 : i64, bytes = 32768 : i64}}
         ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %a : tensor<64xf32>
}

// -----

func.func @missing_bytes(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{expects 'memsched.work' to be {flops = <integer>, bytes = <integer>} with non-negative values, got {flops = 4 : i64}}}
  %a = linalg.exp {memsched.work = {flops = 4 : i64}} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

func.func @negative_flops(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{expects 'memsched.work'}}
  %a = linalg.exp {memsched.work = {flops = -1 : i64, bytes = 16 : i64}} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

func.func @not_a_dictionary(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{expects 'memsched.work'}}
  %a = linalg.exp {memsched.work = 4 : i64} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
