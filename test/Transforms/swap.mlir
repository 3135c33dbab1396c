// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=0.85x 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=0.85x -canonicalize -cse 2>/dev/null | FileCheck %s
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=0.85x -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=2MiB 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=algorithm=everything 2>/dev/null | FileCheck %s --check-prefix=ALL

// Tests that memsched-swap moves the activation idle across the peak to host
// memory: swapped out right after the op that defines it, prefetched just in
// time for its late reader (after the peak op, one op ahead of the reader:
// the ops take 1 ms, the copy about 13 us), which then reads the swapped-in tensor; that the copies are fully
// hidden; that CSE and canonicalization keep the ops; that a budget already
// met changes nothing; and that `everything` swaps what is idle across the peak (only %a).

// CHECK-LABEL: func.func @chain
// CHECK-SAME: memsched.swap = {algorithm = "planned", budget_bytes = 1114112 : i64, peak_after_bytes = 1048576 : i64, peak_before_bytes = 1310720 : i64
// CHECK: %[[A:.*]] = linalg.exp {{.*}}ins(%{{.*}} : tensor<256x256xf32>)
// CHECK-NEXT: %[[H:.*]] = memsched.swap_out %[[A]] : tensor<256x256xf32> -> !memsched.host<tensor<256x256xf32>>
// CHECK: linalg.exp {{.*}}ins(%[[A]] :
// CHECK: linalg.add
// CHECK: %[[BACK:.*]] = memsched.swap_in %[[H]] : !memsched.host<tensor<256x256xf32>> -> tensor<256x256xf32>
// CHECK: %[[G:.*]] = linalg.exp
// CHECK: linalg.add {{.*}}ins(%[[G]], %[[BACK]] :

// REMARK: remark: memsched-swap: peak 1.25 MiB -> 1.00 MiB within 1.06 MiB by swapping 1 values (512.00 KiB copied, 100.0% of the copy time hidden)

// JSON: "peak_bytes": 1048576
// JSON: "swap_bytes": 524288
// JSON: "swap_exposed_time_s": 0
// JSON: "swap_hidden_fraction": 1
// JSON: "swap_ops": 1

// NONE: remark: memsched-swap: peak 1.25 MiB -> 1.25 MiB within 2.00 MiB; no swap needed
// NONE-NOT: memsched.swap_out

// ALL: memsched.swap_out %{{.*}} : tensor<256x256xf32>
// ALL-NOT: memsched.swap_out
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
