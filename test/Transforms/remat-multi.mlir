// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-remat=budget=0.8x 2>/dev/null | FileCheck %s
// RUN: not memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-remat=budget=0.8x recompute-once=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=ONCE
// RUN: memsched-opt %s -memsched-remat=budget=0.8x -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=AFTER-CSE
// Results are bit-identical on CPU.
// RUN: memsched-opt %s -memsched-exec-harness=func=twice -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-remat=budget=0.8x -cse -canonicalize -memsched-exec-harness=func=twice -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.remat
// RUN: diff %t.original %t.remat

// Tests that memsched-remat recomputes a value once per group of late
// readers. %a (16 KiB) is read by %u, %w and %out, with a 32 KiB temporary
// between each pair of reads. Planned as written: resident %x 16 KiB +
// returned 4 KiB + the arena, 52 KiB at %big1 (%a, %u, %big1) = 72 KiB.
// Freeing %a across both temporaries needs two copies of it, made before %w
// and before %out: planned 16 + 4 + 36 = 56 KiB, the floor (the working set
// of %big1's op). With one recomputation per value (recompute-once=1), %a
// stays live across one of the temporaries and 0.8x (57.6 KiB) is out of
// reach.

// CHECK-LABEL: func.func @twice
// CHECK-SAME: planned_after_bytes = 57344 : i64
// CHECK-SAME: memsched.remat = {algorithm = "greedy", dropped_buffers = 1 : i64, recompute_time_s = {{.*}}, recomputed_ops = 2 : i64}
// CHECK: %[[A:.+]] = linalg.generic {{.*}} ins(%arg0 : {{.*}}) outs(
// CHECK: linalg.generic {{.*}} ins(%[[A]] :
// CHECK: %[[A1:.+]] = linalg.generic {{.*}} ins(%arg0 : {{.*}} attrs = {memsched.recompute = 0 : i64}
// CHECK: linalg.generic {{.*}} ins(%[[A1]] :
// CHECK: %[[A2:.+]] = linalg.generic {{.*}} ins(%arg0 : {{.*}} attrs = {memsched.recompute = 1 : i64}
// CHECK: linalg.generic {{.*}} ins(%[[A2]] :
// CHECK: return

// ONCE: error: memsched-remat: cannot meet the budget of 57.60 KiB (58982 B) for '@twice'; the smallest reachable footprint is 72.00 KiB

// AFTER-CSE: "planned_bytes": 57344
// AFTER-CSE: "recomputed_ops": 2

#v = affine_map<(d0) -> (d0)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @twice(%x: tensor<4x1024xf32>) -> tensor<1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x1024xf32>
  %a = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x1024xf32>) outs(%e0 : tensor<4x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<4x1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  %u = linalg.generic {indexing_maps = [#m2, #col], iterator_types = ["reduction", "parallel"]} ins(%a : tensor<4x1024xf32>) outs(%f1 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e2 = tensor.empty() : tensor<8x1024xf32>
  %big1 = linalg.generic {indexing_maps = [#col, #m2], iterator_types = ["parallel", "parallel"]} ins(%u : tensor<1024xf32>) outs(%e2 : tensor<8x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.sin %in : f32
    linalg.yield %r : f32
  } -> tensor<8x1024xf32>
  %e3 = tensor.empty() : tensor<1024xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1024xf32>) -> tensor<1024xf32>
  %v = linalg.generic {indexing_maps = [#m2, #col], iterator_types = ["reduction", "parallel"]} ins(%big1 : tensor<8x1024xf32>) outs(%f3 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %w = linalg.generic {indexing_maps = [#m2, #col], iterator_types = ["reduction", "parallel"]} ins(%a : tensor<4x1024xf32>) outs(%v : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e5 = tensor.empty() : tensor<8x1024xf32>
  %big2 = linalg.generic {indexing_maps = [#col, #m2], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<1024xf32>) outs(%e5 : tensor<8x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.cos %in : f32
    linalg.yield %r : f32
  } -> tensor<8x1024xf32>
  %e6 = tensor.empty() : tensor<1024xf32>
  %f6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<1024xf32>) -> tensor<1024xf32>
  %z = linalg.generic {indexing_maps = [#m2, #col], iterator_types = ["reduction", "parallel"]} ins(%big2 : tensor<8x1024xf32>) outs(%f6 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %out = linalg.generic {indexing_maps = [#m2, #col], iterator_types = ["reduction", "parallel"]} ins(%a : tensor<4x1024xf32>) outs(%z : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  return %out : tensor<1024xf32>
}
