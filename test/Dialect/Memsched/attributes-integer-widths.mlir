// RUN: memsched-opt %s -split-input-file -verify-diagnostics --mlir-disable-threading -test-memsched-print-peak-memory -o /dev/null | FileCheck %s

// Known bugs (fail until the attribute verifier and CostModel are fixed):
// integer attribute values are read with getSExtValue, so an unsigned value
// with its top bit set is taken as negative, and a value wider than 64 bits is
// silently truncated.

// Tests that an unsigned workspace with its top bit set (200 : ui8) is a
// valid non-negative byte count.

// resident = 4*4 = 16; step 0 (the exp; the empty is a free op with no
// step): the exp result (16) + 200 workspace = 216.
// lower_bound = 16 + 216 = 232.
// CHECK-LABEL: peak-memory @unsigned_workspace
// CHECK-SAME: resident 16 peak_transient 216 peak 232 lower_bound 232 max_live 16 peak_step 0{{$}}
func.func @unsigned_workspace(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp {memsched.workspace = 200 : ui8} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that a workspace that does not fit in 64 bits is rejected instead of
// being truncated.

// CHECK-NOT: peak-memory @huge_workspace
func.func @huge_workspace(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @below {{memsched.workspace}}
  %a = linalg.exp {memsched.workspace = 100000000000000000000000 : i128} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
