// RUN: memsched-opt %s | memsched-opt | FileCheck %s
// RUN: memsched-opt %s -memsched-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: memsched-opt %s --mlir-disable-threading -test-memsched-print-peak-memory -o /dev/null | FileCheck %s --check-prefix=PEAK

// Tests that `memsched.cost` (non-negative float or integer seconds) and
// `memsched.workspace` (non-negative integer bytes) round-trip, that measured
// costs replace the modelled time, and that workspace adds to the peak.

// CHECK-LABEL: func.func @measured
// CHECK:       linalg.exp {memsched.cost = 2.500000e-01 : f64}
// CHECK:       linalg.negf {memsched.cost = 5.000000e-01 : f32, memsched.workspace = 0 : i64}
// CHECK:       linalg.add {memsched.cost = 2 : i64, memsched.workspace = 4096 : i64}
// CHECK:       linalg.exp {memsched.cost = 0 : i64}

// Only ops with a measured cost take time: tensor.empty is a free op (no
// task, no work, no launch). 0.25 + 0.5 + 2 + 0 = 2.75 s, exactly
// representable.
// (JSON keys print sorted, so each object's figures are checked around its
// name.)
// JSON:       "modeled_time_s": 2.75,
// JSON-NEXT:  "name": "measured",
// Same peak as the PEAK lines below: 256 + 4608 = 4864.
// Four tasks: the linalg ops (the empties are free ops).
// JSON-NEXT:  "ops": 4,
// JSON:       "peak_bytes": 4864,
// The workspace puts the peak at the add.
// JSON-NEXT:  "peak_location": "{{.*}}attributes.mlir:{{[0-9]+}}:8",
// JSON-NEXT:  "peak_op": "linalg.add",

// resident = 64*4 = 256; A (exp) = 256, B (negf) = 256, the add writes in
// place into B, the last exp in place into B too.
// Without workspace the peak would be A + B = 512 at the negf; the add's
// 4096 bytes of workspace make step 2 A + B + 4096 = 4608.
// lower_bound = 256 + max(add: A + B + 4096 = 4608, returned 256) = 4864.
// PEAK-LABEL: peak-memory @measured
// PEAK-SAME: resident 256 peak_transient 4608 peak 4864 lower_bound 4864 max_live 512 peak_step 2{{$}}
// PEAK-NEXT: step 0 linalg.exp live 256{{$}}
// PEAK-NEXT: step 1 linalg.negf live 512{{$}}
// PEAK-NEXT: step 2 linalg.add live 4608{{$}}
// A is dead after the add: B = 256.
// PEAK-NEXT: step 3 linalg.exp live 256{{$}}
func.func @measured(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %a = linalg.exp {memsched.cost = 0.25 : f64}
         ins(%x : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %b = linalg.negf {memsched.cost = 0.5 : f32, memsched.workspace = 0 : i64}
         ins(%a : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %c = linalg.add {memsched.cost = 2 : i64, memsched.workspace = 4096 : i64}
         ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%b : tensor<64xf32>) -> tensor<64xf32>
  %d = linalg.exp {memsched.cost = 0 : i64}
         ins(%c : tensor<64xf32>) outs(%c : tensor<64xf32>) -> tensor<64xf32>
  return %d : tensor<64xf32>
}

// The same function without the attributes: the peak is A + B = 512.
// resident 256 + peak transient 512 = 768.
// JSON:       "name": "unannotated",
// JSON-NEXT:  "ops": 4,
// JSON:       "peak_bytes": 768,
// JSON-NEXT:  "peak_location": "{{.*}}attributes.mlir:{{[0-9]+}}:8",
// JSON-NEXT:  "peak_op": "linalg.negf",
// JSON-NEXT:  "peak_transient_bytes": 512,
// PEAK-LABEL: peak-memory @unannotated
// PEAK-SAME: resident 256 peak_transient 512 peak 768 lower_bound 768 max_live 512 peak_step 1{{$}}
func.func @unannotated(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %b = linalg.negf ins(%a : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %c = linalg.add ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%b : tensor<64xf32>) -> tensor<64xf32>
  %d = linalg.exp ins(%c : tensor<64xf32>) outs(%c : tensor<64xf32>) -> tensor<64xf32>
  return %d : tensor<64xf32>
}

// The attributes are accepted on any op, including the function itself.
// CHECK-LABEL: func.func @on_function
// CHECK-SAME:  attributes {memsched.cost = 1.000000e-03 : f64, memsched.workspace = 0 : i64}
func.func @on_function() attributes {memsched.cost = 1.0e-3 : f64, memsched.workspace = 0 : i64} {
  return
}
