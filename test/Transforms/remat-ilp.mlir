// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-remat=budget=0.75x ilp-max-tasks=40" 2>/dev/null | FileCheck %s
// Without the ILP phase the budget is out of reach.
// RUN: not memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-remat=budget=0.75x 2>&1 >/dev/null | FileCheck %s --check-prefix=DROP-SETS
// CSE and canonicalization keep the clones apart: the budget still holds.
// RUN: memsched-opt %s "-memsched-remat=budget=0.75x ilp-max-tasks=40" -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=AFTER-CSE
// The report names what is live at the peak, clones marked as recomputed.
// RUN: memsched-opt %s "-memsched-remat=budget=0.75x ilp-max-tasks=40" -cse -canonicalize -memsched-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=PEAK
// PEAK: peak at {{.*}}remat-ilp.mlir:{{[0-9]+}}:{{[0-9]+}} ('linalg.generic'), largest live buffers:
// PEAK-NEXT: {{^ +[0-9.]+ KiB  .*}}remat-ilp.mlir:{{[0-9]+}}:{{[0-9]+}} (linalg.generic, recomputed){{$}}
// memsched-fit (recomputation only) and memsched-optimize take the option too.
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-fit=budget=0.75x allow-swap=false ilp-max-tasks=40" 2>/dev/null | FileCheck %s --check-prefix=FIT
// RUN: memsched-opt %s "-memsched-optimize=budget=0.75x allow-swap=false ilp-max-tasks=40" -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=AFTER-CSE
// Results are bit-identical on CPU.
// RUN: memsched-opt %s -memsched-exec-harness=func=f -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s "-memsched-remat=budget=0.75x ilp-max-tasks=40" -cse -canonicalize -memsched-exec-harness=func=f -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.remat
// RUN: diff %t.original %t.remat

// Tests memsched-remat's ILP phase (ilp-max-tasks=): on a random 23-op DAG
// (test/python/Inputs/random_graphs.py, random_dag of seed 52 with 14-22
// ops and rows of 256 f32: each op writes 1-8 rows and reduces over 1-3
// earlier ops, then a chain folds in what nothing read), planned at 46.00
// KiB, auto's drop sets reach 37.00 KiB at best, while Checkmate's
// schedule space, recomputing values at any point and several times, meets
// 0.75x (34.50 KiB). The plan is the ILP's (algorithm "ilp"), applied as clones
// that CSE cannot fold back.

// CHECK-LABEL: func.func @f
// CHECK-SAME: chosen = "remat"
// CHECK-SAME: memsched.remat = {algorithm = "ilp", dropped_buffers = {{[0-9]+}} : i64, recompute_time_s = {{[^,]+}}, recomputed_ops = {{[0-9]+}} : i64}
// CHECK: memsched.recompute = 0 : i64
// CHECK: return

// FIT: memsched.remat = {algorithm = "ilp"

// DROP-SETS: error: memsched-remat: cannot meet the budget of 34.50 KiB (35328 B) for '@f'; the smallest reachable footprint is 37.00 KiB (37888 B, remat)

// At most the budget, 35328 B:
// AFTER-CSE: "planned_bytes": {{([0-9]{1,4}|[1-2][0-9]{4}|3[0-4][0-9]{3}|35[0-2][0-9]{2}|353[0-1][0-9]|3532[0-8])}},

func.func @f(%x: tensor<1x256xf32>) -> tensor<1x256xf32> {
  %e0 = tensor.empty() : tensor<1x256xf32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x256xf32>) outs(%e0 : tensor<1x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    linalg.yield %a0 : f32
  } -> tensor<1x256xf32>
  %e1 = tensor.empty() : tensor<8x256xf32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%n0 : tensor<1x256xf32>) outs(%e1 : tensor<8x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    linalg.yield %a0 : f32
  } -> tensor<8x256xf32>
  %e2 = tensor.empty() : tensor<6x256xf32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%n0, %n1 : tensor<1x256xf32>, tensor<8x256xf32>) outs(%e2 : tensor<6x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<6x256xf32>
  %e3 = tensor.empty() : tensor<7x256xf32>
  %n3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%n1 : tensor<8x256xf32>) outs(%e3 : tensor<7x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    linalg.yield %a0 : f32
  } -> tensor<7x256xf32>
  %e4 = tensor.empty() : tensor<1x256xf32>
  %n4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%n0 : tensor<1x256xf32>) outs(%e4 : tensor<1x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    linalg.yield %a0 : f32
  } -> tensor<1x256xf32>
  %e5 = tensor.empty() : tensor<3x256xf32>
  %n5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%n0, %n3, %n4 : tensor<1x256xf32>, tensor<7x256xf32>, tensor<1x256xf32>) outs(%e5 : tensor<3x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<3x256xf32>
  %e6 = tensor.empty() : tensor<3x256xf32>
  %n6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%n2, %n5 : tensor<6x256xf32>, tensor<3x256xf32>) outs(%e6 : tensor<3x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<3x256xf32>
  %e7 = tensor.empty() : tensor<7x256xf32>
  %n7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%n1, %n3 : tensor<8x256xf32>, tensor<7x256xf32>) outs(%e7 : tensor<7x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<7x256xf32>
  %e8 = tensor.empty() : tensor<3x256xf32>
  %n8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%n1, %n2, %n4 : tensor<8x256xf32>, tensor<6x256xf32>, tensor<1x256xf32>) outs(%e8 : tensor<3x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<3x256xf32>
  %e9 = tensor.empty() : tensor<6x256xf32>
  %n9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%n2, %n6 : tensor<6x256xf32>, tensor<3x256xf32>) outs(%e9 : tensor<6x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<6x256xf32>
  %e10 = tensor.empty() : tensor<8x256xf32>
  %n10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%n0, %n6, %n9 : tensor<1x256xf32>, tensor<3x256xf32>, tensor<6x256xf32>) outs(%e10 : tensor<8x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<8x256xf32>
  %e11 = tensor.empty() : tensor<1x256xf32>
  %n11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%n0 : tensor<1x256xf32>) outs(%e11 : tensor<1x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    linalg.yield %a0 : f32
  } -> tensor<1x256xf32>
  %e12 = tensor.empty() : tensor<1x256xf32>
  %n12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%n10 : tensor<8x256xf32>) outs(%e12 : tensor<1x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    linalg.yield %a0 : f32
  } -> tensor<1x256xf32>
  %e13 = tensor.empty() : tensor<7x256xf32>
  %n13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%n7, %n8 : tensor<7x256xf32>, tensor<3x256xf32>) outs(%e13 : tensor<7x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<7x256xf32>
  %e14 = tensor.empty() : tensor<8x256xf32>
  %n14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%n2 : tensor<6x256xf32>) outs(%e14 : tensor<8x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    linalg.yield %a0 : f32
  } -> tensor<8x256xf32>
  %e15 = tensor.empty() : tensor<1x256xf32>
  %n15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%n1, %n2, %n12 : tensor<8x256xf32>, tensor<6x256xf32>, tensor<1x256xf32>) outs(%e15 : tensor<1x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<1x256xf32>
  %e16 = tensor.empty() : tensor<4x256xf32>
  %n16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%n4 : tensor<1x256xf32>) outs(%e16 : tensor<4x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    linalg.yield %a0 : f32
  } -> tensor<4x256xf32>
  %e17 = tensor.empty() : tensor<2x256xf32>
  %n17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%n6, %n9 : tensor<3x256xf32>, tensor<6x256xf32>) outs(%e17 : tensor<2x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x256xf32>
  %e18 = tensor.empty() : tensor<1x256xf32>
  %n18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%n11, %n13 : tensor<1x256xf32>, tensor<7x256xf32>) outs(%e18 : tensor<1x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x256xf32>
  %e19 = tensor.empty() : tensor<1x256xf32>
  %n19 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%n18, %n14 : tensor<1x256xf32>, tensor<8x256xf32>) outs(%e19 : tensor<1x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x256xf32>
  %e20 = tensor.empty() : tensor<1x256xf32>
  %n20 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%n19, %n15 : tensor<1x256xf32>, tensor<1x256xf32>) outs(%e20 : tensor<1x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x256xf32>
  %e21 = tensor.empty() : tensor<1x256xf32>
  %n21 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%n20, %n16 : tensor<1x256xf32>, tensor<4x256xf32>) outs(%e21 : tensor<1x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x256xf32>
  %e22 = tensor.empty() : tensor<1x256xf32>
  %n22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%n21, %n17 : tensor<1x256xf32>, tensor<2x256xf32>) outs(%e22 : tensor<1x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x256xf32>
  return %n22 : tensor<1x256xf32>
}
