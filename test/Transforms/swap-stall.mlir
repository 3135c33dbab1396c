// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=0.85x -cse -canonicalize 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// RUN: memsched-opt %s -test-memsched-print-swap-plan=budget=0.8x -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: not memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap="budget=0.85x allow-stalls=false" 2>&1 | FileCheck %s --check-prefix=NOSTALL
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=0.85x -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=0.85x -memsched-lower-swaps=target=gpu 2>/dev/null | FileCheck %s --check-prefix=GPU
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=0.85x -memsched-lower-swaps=target=cpu 2>/dev/null | FileCheck %s --check-prefix=CPU
// RUN: memsched-opt %s -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=0.85x -cse -canonicalize -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.swapped
// RUN: diff %t.original %t.swapped

// Tests a swap that stalls compute. Six 256x256 f32 matmuls (256 KiB each)
// of 1 us each; %a is read by %b and again by the last matmul. Its copy out
// (256 KiB at 55 GB/s plus 8 us latency: about 12.8 us) cannot end before
// %d, the peak (resident %x + %b, %c, %d + %a + returned: 1.50 MiB planned).
// The budget, 0.85x = 1336934 B, needs %a gone at %d: the only plan waits
// for the copy out right before %d (memsched.swap_wait) and then prefetches
// %a after %d. It reaches 1.25 MiB, the floor (%d's working set with the
// resident and returned buffers), at the cost of the stall. Without stalls
// nothing is freed: the smallest reachable footprint stays 1.50 MiB.
// Cleanup keeps the wait, and the zero fills apart (merged, one fill
// buffer would live from the first matmul to the last); the CPU lowering
// drops the wait (copies are
// synchronous) and results are bit-identical; the GPU lowering waits for
// the copy's token there.

// CHECK-LABEL: func.func @chain
// CHECK-SAME: chosen = "swap"{{.*}}planned_after_bytes = 1310720 : i64
// CHECK: %[[A:.*]] = linalg.matmul
// CHECK-NEXT: %[[H:.*]] = memsched.swap_out %[[A]]
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: %[[B:.*]] = linalg.matmul {{.*}}ins(%[[A]],
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: %[[C:.*]] = linalg.matmul {{.*}}ins(%[[B]],
// CHECK-NEXT: memsched.swap_wait %[[H]] : !memsched.host<tensor<256x256xf32>>
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: %[[D:.*]] = linalg.matmul {{.*}}ins(%[[C]], %[[B]] :
// CHECK-NEXT: %[[BACK:.*]] = memsched.swap_in %[[H]]
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: %[[G:.*]] = linalg.matmul {{.*}}ins(%[[D]],
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.matmul {{.*}}ins(%[[G]], %[[BACK]] :

// REMARK: remark: memsched-swap: planned memory 1.50 MiB -> 1.25 MiB within 1.27 MiB with swap

// PLAN: swap-plan @chain target {{[0-9]+}} within yes smallest 786432 algorithm planned
// PLAN-NEXT: swap %2 out after #0 wait before #3 in after #3 for #5

// NOSTALL: error: memsched-swap: cannot meet the budget of 1.27 MiB (1336934 B) for '@chain'; the smallest reachable footprint is 1.50 MiB (1572864 B, the function as it is)

// JSON: "planned_bytes": 1310720
// JSON: "swap_bytes": 524288
// JSON: "swap_exposed_time_s": {{[1-9]}}

// GPU: %[[TOKEN:.*]] = gpu.memcpy async
// GPU: linalg.matmul
// GPU: linalg.matmul
// GPU-NEXT: gpu.wait [%[[TOKEN]]]
// GPU: linalg.matmul
// GPU-NOT: memsched.swap_wait

// CPU-NOT: memsched.swap_wait

func.func @chain(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x256xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %a = linalg.matmul {memsched.cost = 1.0e-6 : f64} ins(%x, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %b = linalg.matmul {memsched.cost = 1.0e-6 : f64} ins(%a, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256x256xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul {memsched.cost = 1.0e-6 : f64} ins(%b, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f2 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e3 = tensor.empty() : tensor<256x256xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %d = linalg.matmul {memsched.cost = 1.0e-6 : f64} ins(%c, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f3 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e4 = tensor.empty() : tensor<256x256xf32>
  %f4 = linalg.fill ins(%z : f32) outs(%e4 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %g = linalg.matmul {memsched.cost = 1.0e-6 : f64} ins(%d, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f4 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e5 = tensor.empty() : tensor<256x256xf32>
  %f5 = linalg.fill ins(%z : f32) outs(%e5 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %f = linalg.matmul {memsched.cost = 1.0e-6 : f64} ins(%g, %a : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f5 : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %f : tensor<256x256xf32>
}
