// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=0.84x -cse -canonicalize 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// RUN: memsched-opt %s -memsched-exec-harness=func=returned_early -memsched-to-cpu-pipeline | %run_harness > %t.early
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=0.84x -cse -canonicalize -memsched-exec-harness=func=returned_early -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.early.swapped
// RUN: diff %t.early %t.early.swapped
// RUN: memsched-opt %s -memsched-exec-harness=func=written_in_place -memsched-to-cpu-pipeline | %run_harness > %t.written
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=0.84x -cse -canonicalize -memsched-exec-harness=func=written_in_place -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.written.swapped
// RUN: diff %t.written %t.written.swapped

// Tests two things the swap planner must see as the footprint does. Every
// tensor is 256 KiB; %x is resident. Results are bit-identical on CPU.
//
// @returned_early: %r is returned, so it is allocated outside the arena and
// counts whole (the footprint's escaping bytes), though it is made first.
// Planned: %x + %r + %d + the arena's peak (%a, %b, %c at %c) = 1.50 MiB.
// Swapping %a across %b and %c makes the arena 512 KiB: 1.25 MiB, the floor
// (%x + the returned %r and %d + %d's operands %c and %a). A planner that
// counted %r only from its first step would see its peak at %d, where
// nothing can be swapped, and stop at 1.50 MiB.
//
// @written_in_place: the generic reads %a for the last time and writes its
// sum over it (an in-place write, as memsched-inplace or an importer makes).
// %a's buffer then holds a second value, %g, after the gap in %a's reads.
// The swap of %a still applies: the reads after the gap, the in-place write
// included, take the copy brought back, so %g is written into the copy.
// Planned 1.25 MiB (%a, %b, %c at %c) -> 1.00 MiB.

// CHECK-LABEL: func.func @returned_early
// CHECK: %[[A:.*]] = linalg.matmul {{.*}}ins(%{{[0-9]+}}, %arg0
// CHECK-NEXT: %[[HA:.*]] = memsched.swap_out %[[A]]
// CHECK: %[[BACK:.*]] = memsched.swap_in %[[HA]]
// CHECK: linalg.matmul {{.*}}ins(%{{.*}}, %[[BACK]] :

// CHECK-LABEL: func.func @written_in_place
// CHECK: %[[A:.*]] = linalg.matmul
// CHECK-NEXT: %[[HA:.*]] = memsched.swap_out %[[A]]
// CHECK: %[[BACK:.*]] = memsched.swap_in %[[HA]]
// CHECK-NEXT: linalg.generic {{.*}}outs(%[[BACK]] :

// REMARK: remark: memsched-swap: planned memory 1.50 MiB -> 1.25 MiB within 1.26 MiB with swap
// REMARK: remark: memsched-swap: planned memory 1.25 MiB -> 1.00 MiB within 1.05 MiB with swap

#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @returned_early(%x: tensor<256x256xf32>) -> (tensor<256x256xf32>, tensor<256x256xf32>) {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x256xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul {memsched.cost = 1.0e-3 : f64} ins(%x, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %a = linalg.matmul {memsched.cost = 1.0e-3 : f64} ins(%r, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256x256xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %b = linalg.matmul {memsched.cost = 1.0e-3 : f64} ins(%a, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f2 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e3 = tensor.empty() : tensor<256x256xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul {memsched.cost = 1.0e-3 : f64} ins(%b, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f3 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e4 = tensor.empty() : tensor<256x256xf32>
  %f4 = linalg.fill ins(%z : f32) outs(%e4 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %d = linalg.matmul {memsched.cost = 1.0e-3 : f64} ins(%c, %a : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f4 : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r, %d : tensor<256x256xf32>, tensor<256x256xf32>
}

func.func @written_in_place(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x256xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %a = linalg.matmul {memsched.cost = 1.0e-3 : f64} ins(%x, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %b = linalg.matmul {memsched.cost = 1.0e-3 : f64} ins(%a, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256x256xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul {memsched.cost = 1.0e-3 : f64} ins(%b, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f2 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<256x256xf32>) outs(%a : tensor<256x256xf32>) attrs = {memsched.cost = 1.0e-4 : f64} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  %e3 = tensor.empty() : tensor<256x256xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %h = linalg.matmul {memsched.cost = 1.0e-3 : f64} ins(%g, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f3 : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %h : tensor<256x256xf32>
}
