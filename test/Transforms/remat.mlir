// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-remat=budget=0.6x 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// CSE and canonicalization keep the clone apart from its original, so the
// budget still holds afterwards.
// RUN: memsched-opt %s -memsched-remat=budget=0.6x -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=AFTER-CSE
// Already within budget: nothing is cloned.
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-remat=budget=1MiB 2>&1 >/dev/null | FileCheck %s --check-prefix=NOTHING
// budget=min asks for the smallest reachable footprint: the same plan.
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-remat=budget=min 2>&1 >/dev/null | FileCheck %s --check-prefix=MIN
// Results are bit-identical on CPU.
// RUN: memsched-opt %s -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-remat=budget=0.6x -cse -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.remat
// RUN: diff %t.original %t.remat

// Tests that memsched-remat frees %a after its forward use and recomputes it
// right before the late reader, and that the budget bounds the planned bytes
// (resident + arena + returned buffers).
//
// Buffers of 1024 x f32 = 4096 B; resident %x = 4096 B. As written, a, b, c
// and d are all live while d is computed (arena 4 x 4096 = 16384) and the
// returned f has a buffer of its own: planned = 4096 + 16384 + 4096 = 24576
// (24.00 KiB). Budget 0.6x = floor(0.6 * 24576) = 14745 B. (At 0.8x the
// in-place writes alone would do: 16384 B.)
// Recomputing a (one task: its generic) lets a die after b; with the in-place
// writes the driver takes (b into a's buffer, d into c's, f into d's) the
// arena holds one buffer (a, then b, then the recomputed a) and c/d/f is the
// returned buffer: planned = 4096 + 4096 + 4096 = 12288 B (12.00 KiB).

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @chain
// CHECK-SAME: memsched.fit = {budget_bytes = 14745 : i64, chosen = "remat", {{.*}}planned_after_bytes = 12288 : i64, planned_before_bytes = 24576 : i64, remat_time_s = {{[^,]+}}, {{(smallest_bytes = [0-9]+ : i64, )?}}time_after_s = {{[^,]+}}, time_before_s = {{[^,]+}}}
// CHECK-SAME: memsched.remat = {algorithm = "greedy", dropped_buffers = 1 : i64, recompute_time_s = {{.*}}, recomputed_ops = 1 : i64}
// CHECK: %[[E0:.+]] = tensor.empty()
// CHECK: %[[A:.+]] = linalg.generic {{.*}} ins(%arg0 : {{.*}} outs(%[[E0]] :
// CHECK: math.exp
// CHECK: %[[B:.+]] = linalg.generic {{.*}} ins(%[[A]] :
// CHECK: math.sin
// CHECK: %[[C:.+]] = linalg.generic {{.*}} ins(%[[B]] :
// CHECK: %[[D:.+]] = linalg.generic {{.*}} ins(%[[C]], %[[B]] :
// CHECK: %[[A2:.+]] = linalg.generic {{.*}} ins(%arg0 : {{.*}} outs(%{{[^ ]+}} : {{.*}} attrs = {memsched.recompute = 0 : i64}
// CHECK: math.exp
// CHECK: linalg.generic {{.*}} ins(%[[D]], %[[A2]] :
// REMARK: remark: memsched-remat: planned memory 24.00 KiB -> 12.00 KiB within 14.40 KiB with remat, modelled time {{.*}} s -> {{.*}} s
// AFTER-CSE: "fit": {
// AFTER-CSE: "planned_bytes": 12288
// AFTER-CSE: "remat": {
// AFTER-CSE-DAG: "recomputed_ops": 1
// AFTER-CSE-DAG: "recompute_time_s":
// MIN: remark: memsched-remat: planned memory 24.00 KiB -> 12.00 KiB within 12.00 KiB with remat
// NOTHING: remark: memsched-remat: planned memory 24.00 KiB -> 24.00 KiB within 1.00 MiB with none, modelled time
func.func @chain(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e0 = tensor.empty() : tensor<1024xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.sin %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e2 = tensor.empty() : tensor<1024xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : tensor<1024xf32>) outs(%e2 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.cos %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e3 = tensor.empty() : tensor<1024xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%c, %b : tensor<1024xf32>, tensor<1024xf32>) outs(%e3 : tensor<1024xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %r = arith.mulf %in, %in2 : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e4 = tensor.empty() : tensor<1024xf32>
  %f = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%d, %a : tensor<1024xf32>, tensor<1024xf32>) outs(%e4 : tensor<1024xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %r = arith.addf %in, %in2 : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  return %f : tensor<1024xf32>
}
