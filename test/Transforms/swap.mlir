// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=0.85x 2>%t.remark | FileCheck %s --check-prefix=INPLACE
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=algorithm=everything 2>/dev/null | FileCheck %s
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=algorithm=everything -canonicalize -cse 2>/dev/null | FileCheck %s
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=algorithm=everything -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: memsched-opt %s -test-memsched-print-swap-plan=budget=0.7x -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=2MiB 2>&1 | FileCheck %s --check-prefix=NONE

// Tests memsched-swap on a chain where the activation %a is idle across the
// peak (at %d).
//
// Buffers of 256x256 f32 = 256 KiB; resident %x = 256 KiB. As written, a, b,
// c and d are live at d (arena 1 MiB) and the returned f has its own buffer:
// planned = 256 KiB + 1 MiB + 256 KiB = 1.50 MiB = 1572864 B. Budget 0.85x =
// floor(0.85 * 1572864) = 1336934 B (1.27 MiB). The budget driver tries the
// in-place writes alone first (they cost no time): they reach 1 MiB, as low
// as swapping %a does, so nothing is swapped.
//
// The swap planner's own decision (test pass) and `algorithm=everything`
// (which swaps what is idle across the peak: only %a) show where the copies
// go: swapped out right after the op that defines %a, waited for right
// after its last early use (everything stalls for its copies as vDNN does;
// here the copy has long ended), prefetched just in time for its late reader (after the peak op, one op ahead of the reader: the ops
// take 1 ms, the copy about 13 us), which then reads the swapped-in tensor;
// the copies are hidden; CSE and canonicalization keep the ops; a budget
// already met changes nothing.

// INPLACE-LABEL: func.func @chain
// INPLACE-SAME: memsched.fit = {budget_bytes = 1336934 : i64, chosen = "inplace", {{.*}}planned_after_bytes = 1048576 : i64, planned_before_bytes = 1572864 : i64
// INPLACE-NOT: memsched.swap
// REMARK: remark: memsched-swap: planned memory 1.50 MiB -> 1.00 MiB within 1.27 MiB with inplace, modelled time 6.000e-03 s -> 6.000e-03 s

// CHECK-LABEL: func.func @chain
// CHECK-SAME: memsched.swap = {algorithm = "everything", swap_bytes = 524288 : i64, swap_exposed_time_s = 0.000000e+00 : f64, swap_hidden_fraction = 1.000000e+00 : f64, swap_transfer_time_s = {{[^,]+}}, swapped_values = 1 : i64}
// CHECK: %[[A:.*]] = linalg.exp {{.*}}ins(%{{.*}} : tensor<256x256xf32>)
// CHECK-NEXT: %[[H:.*]] = memsched.swap_out %[[A]] : tensor<256x256xf32> -> !memsched.host<tensor<256x256xf32>>
// CHECK: linalg.exp {{.*}}ins(%[[A]] :
// CHECK-NEXT: memsched.swap_wait %[[H]]
// CHECK: linalg.exp
// CHECK: linalg.add
// CHECK: %[[BACK:.*]] = memsched.swap_in %[[H]] : !memsched.host<tensor<256x256xf32>> -> tensor<256x256xf32>
// CHECK: %[[G:.*]] = linalg.exp
// CHECK: linalg.add {{.*}}ins(%[[G]], %[[BACK]] :
// CHECK-NOT: memsched.swap_out

// Without in-place writes the arena holds b, c and d at d (768 KiB): planned
// = 256 KiB + 768 KiB + 256 KiB = 1.25 MiB; the copies are hidden.
// JSON: "peak_bytes": 1048576
// JSON: "planned_bytes": 1310720
// JSON: "swap_bytes": 524288
// JSON: "swap_exposed_time_s": 0
// JSON: "swap_hidden_fraction": 1
// JSON: "swap_ops": 1

// PLAN: swap-plan @chain target {{[0-9]+}} within yes smallest 786432 algorithm planned
// PLAN-NEXT: swap %1 out after #0 in after #3 for #5

// NONE: remark: memsched-swap: planned memory 1.50 MiB -> 1.50 MiB within 2.00 MiB with none
// NONE-NOT: memsched.swap_out

func.func @chain(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %e0 = tensor.empty() : tensor<256x256xf32>
  %a = linalg.exp {memsched.cost = 1.0e-3 : f64} ins(%x : tensor<256x256xf32>) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %b = linalg.exp {memsched.cost = 1.0e-3 : f64} ins(%a : tensor<256x256xf32>) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256x256xf32>
  %c = linalg.exp {memsched.cost = 1.0e-3 : f64} ins(%b : tensor<256x256xf32>) outs(%e2 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e3 = tensor.empty() : tensor<256x256xf32>
  %d = linalg.add {memsched.cost = 1.0e-3 : f64} ins(%c, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e3 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e4 = tensor.empty() : tensor<256x256xf32>
  %g = linalg.exp {memsched.cost = 1.0e-3 : f64} ins(%d : tensor<256x256xf32>) outs(%e4 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e5 = tensor.empty() : tensor<256x256xf32>
  %f = linalg.add {memsched.cost = 1.0e-3 : f64} ins(%g, %a : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e5 : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %f : tensor<256x256xf32>
}
