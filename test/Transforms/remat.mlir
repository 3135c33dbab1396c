// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-remat=budget=0.8x 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// CSE and canonicalization keep the clone apart from its original, so the
// budget still holds afterwards.
// RUN: memsched-opt %s -memsched-remat=budget=0.8x -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=AFTER-CSE
// Already within budget: nothing is cloned.
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-remat=budget=1MiB 2>&1 >/dev/null | FileCheck %s --check-prefix=NOTHING
// Results are bit-identical on CPU.
// RUN: memsched-opt %s -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-remat=budget=0.8x -cse -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.remat
// RUN: diff %t.original %t.remat

// Tests that memsched-remat frees %a after its forward use and recomputes it
// (with its own empty tensor) right before the late reader, which is what
// brings the peak from 20 KiB to the 16 KiB lower bound (the working set of
// the op computing %d).

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @chain
// CHECK-SAME: memsched.remat = {algorithm = "auto", budget_bytes = 16384 : i64, chosen = "greedy", dropped_buffers = 1 : i64, peak_after_bytes = 16384 : i64, peak_before_bytes = 20480 : i64, recompute_time_s = {{.*}}, recomputed_ops = 2 : i64
// CHECK: %[[A:.+]] = linalg.generic {{.*}} ins(%arg0
// CHECK: math.exp
// CHECK: %[[B:.+]] = linalg.generic {{.*}} ins(%[[A]] :
// CHECK: math.sin
// CHECK: %[[C:.+]] = linalg.generic {{.*}} ins(%[[B]] :
// CHECK: %[[D:.+]] = linalg.generic {{.*}} ins(%[[C]], %[[B]] :
// CHECK: %[[E:.+]] = tensor.empty() {memsched.allocation = {{[0-9]+}} : i64, memsched.recompute = 0 : i64}
// CHECK: %[[A2:.+]] = linalg.generic {{.*}} ins(%arg0 : {{.*}} outs(%[[E]] : {{.*}} attrs = {memsched.recompute = 1 : i64}
// CHECK: math.exp
// CHECK: linalg.generic {{.*}} ins(%[[D]], %[[A2]] :
// REMARK: remark: memsched-remat: peak 20.00 KiB -> 16.00 KiB within 16.00 KiB by recomputing 2 ops
// AFTER-CSE: "peak_bytes": 16384
// AFTER-CSE: "remat": {
// AFTER-CSE-DAG: "recomputed_ops": 2
// AFTER-CSE-DAG: "recompute_time_s":
// NOTHING: remark: memsched-remat: peak 20.00 KiB -> 20.00 KiB within 1.00 MiB; no recomputation needed
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
