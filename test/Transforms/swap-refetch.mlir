// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=min -cse -canonicalize 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// RUN: memsched-opt %s -test-memsched-print-swap-plan=budget=0.7x -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=min -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=min -memsched-lower-swaps=target=gpu 2>/dev/null | FileCheck %s --check-prefix=GPU
// RUN: memsched-opt %s -memsched-exec-harness=func=reread -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=min -cse -canonicalize -memsched-exec-harness=func=reread -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.swapped
// RUN: diff %t.original %t.swapped

// Tests a value brought back twice from one copy out (a refetch). Eight
// 256x256 f32 matmuls (256 KiB each, 20 us each); %a is read by %b, by %e
// and by the last matmul. Two steps hold four buffers: %d (with %a, %b,
// %c) and %h (with %a, %e, %g), and only %a can leave either (every other
// buffer there is read right before and right after). One copy brought
// back for %e and kept to the end frees %a at %d only; the floor, 1.25 MiB
// (resident %x + returned + %d's working set), needs that copy freed after
// %e and %a brought back again, from the same host copy, after %h. Before
// refetches the smallest reachable footprint was 1.50 MiB, the function
// as it is. Cleanup keeps the two swap-ins apart, and results are
// bit-identical on CPU.

// CHECK-LABEL: func.func @reread
// CHECK-SAME: planned_after_bytes = 1310720 : i64
// CHECK: %[[A:.*]] = linalg.matmul
// CHECK-NEXT: %[[H:.*]] = memsched.swap_out %[[A]]
// CHECK: %[[B:.*]] = linalg.matmul {{.*}}ins(%[[A]],
// CHECK: %[[C:.*]] = linalg.matmul {{.*}}ins(%[[B]],
// CHECK: %[[D:.*]] = linalg.matmul {{.*}}ins(%[[C]], %[[B]] :
// CHECK-NEXT: %[[BACK1:.*]] = memsched.swap_in %[[H]]
// CHECK: %[[E:.*]] = linalg.matmul {{.*}}ins(%[[D]], %[[BACK1]] :
// CHECK: %[[G:.*]] = linalg.matmul {{.*}}ins(%[[E]],
// CHECK: %[[HH:.*]] = linalg.matmul {{.*}}ins(%[[G]], %[[E]] :
// CHECK-NEXT: %[[BACK2:.*]] = memsched.swap_in %[[H]]
// CHECK: linalg.matmul {{.*}}ins(%[[HH]], %[[BACK2]] :

// REMARK: remark: memsched-swap: planned memory 1.50 MiB -> 1.25 MiB within 1.25 MiB with swap

// PLAN: swap-plan @reread target {{[0-9]+}} within yes smallest 786432 algorithm planned
// PLAN-NEXT: swap %2 out after #0 in after #3 for #4 freed after #4 in after #6 for #7

// JSON: "floor_bytes": 1310720
// JSON: "planned_bytes": 1310720
// JSON: "swap_bytes": 786432

// GPU: memref.global "private" @__memsched_host_arena_reread : memref<262144xi8>
// GPU-COUNT-3: gpu.memcpy async
// GPU-NOT: gpu.memcpy

func.func @reread(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x256xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %a = linalg.matmul {memsched.cost = 2.0e-5 : f64} ins(%x, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %b = linalg.matmul {memsched.cost = 2.0e-5 : f64} ins(%a, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256x256xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul {memsched.cost = 2.0e-5 : f64} ins(%b, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f2 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e3 = tensor.empty() : tensor<256x256xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %d = linalg.matmul {memsched.cost = 2.0e-5 : f64} ins(%c, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f3 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e4 = tensor.empty() : tensor<256x256xf32>
  %f4 = linalg.fill ins(%z : f32) outs(%e4 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e = linalg.matmul {memsched.cost = 2.0e-5 : f64} ins(%d, %a : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f4 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e5 = tensor.empty() : tensor<256x256xf32>
  %f5 = linalg.fill ins(%z : f32) outs(%e5 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %g = linalg.matmul {memsched.cost = 2.0e-5 : f64} ins(%e, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f5 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e6 = tensor.empty() : tensor<256x256xf32>
  %f6 = linalg.fill ins(%z : f32) outs(%e6 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %h = linalg.matmul {memsched.cost = 2.0e-5 : f64} ins(%g, %e : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f6 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e7 = tensor.empty() : tensor<256x256xf32>
  %f7 = linalg.fill ins(%z : f32) outs(%e7 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %f = linalg.matmul {memsched.cost = 2.0e-5 : f64} ins(%h, %a : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f7 : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %f : tensor<256x256xf32>
}
