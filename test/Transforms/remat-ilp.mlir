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

// Tests memsched-remat's ILP phase (ilp-max-tasks=): on a random 18-op DAG
// (each op writes a fresh tensor of 1-8 rows of 256 f32 and reads 1-3
// earlier ones, row 0 where the shapes differ), planned at 74.00 KiB,
// auto's drop sets reach 62.00 KiB at best, while Checkmate's schedule
// space, recomputing values at any point and several times, meets 0.75x
// (55.50 KiB). The plan is the ILP's (algorithm "ilp"), applied as clones
// that CSE cannot fold back.

// CHECK-LABEL: func.func @f
// CHECK-SAME: chosen = "remat"
// CHECK-SAME: memsched.remat = {algorithm = "ilp", dropped_buffers = {{[0-9]+}} : i64, recompute_time_s = {{[^,]+}}, recomputed_ops = {{[0-9]+}} : i64}
// CHECK: memsched.recompute = 0 : i64
// CHECK: return

// FIT: memsched.remat = {algorithm = "ilp"

// DROP-SETS: error: memsched-remat: cannot meet the budget of 55.50 KiB (56832 B) for '@f'; the smallest reachable footprint is 62.00 KiB (63488 B, remat)

// At most the budget, 56832 B:
// AFTER-CSE: "planned_bytes": {{([0-9]{1,4}|[1-4][0-9]{4}|5[0-5][0-9]{3}|56[0-7][0-9]{2}|568[0-2][0-9]|5683[0-2])}},

func.func @f(%x: tensor<1x256xf32>) -> (tensor<5x256xf32>, tensor<3x256xf32>, tensor<2x256xf32>, tensor<3x256xf32>, tensor<5x256xf32>, tensor<2x256xf32>) {
  %e0 = tensor.empty() : tensor<7x256xf32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x256xf32>) outs(%e0 : tensor<7x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = math.sin %a0 : f32
    linalg.yield %r : f32
  } -> tensor<7x256xf32>
  %e1 = tensor.empty() : tensor<7x256xf32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n0 : tensor<7x256xf32>) outs(%e1 : tensor<7x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = math.sin %a0 : f32
    linalg.yield %r : f32
  } -> tensor<7x256xf32>
  %e2 = tensor.empty() : tensor<1x256xf32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n0, %n1 : tensor<7x256xf32>, tensor<7x256xf32>) outs(%e2 : tensor<1x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %r = math.sin %s1 : f32
    linalg.yield %r : f32
  } -> tensor<1x256xf32>
  %e3 = tensor.empty() : tensor<5x256xf32>
  %n3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n2 : tensor<1x256xf32>) outs(%e3 : tensor<5x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = math.sin %a0 : f32
    linalg.yield %r : f32
  } -> tensor<5x256xf32>
  %e4 = tensor.empty() : tensor<8x256xf32>
  %n4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n3 : tensor<5x256xf32>) outs(%e4 : tensor<8x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = math.sin %a0 : f32
    linalg.yield %r : f32
  } -> tensor<8x256xf32>
  %e5 = tensor.empty() : tensor<7x256xf32>
  %n5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n2, %n4 : tensor<1x256xf32>, tensor<8x256xf32>) outs(%e5 : tensor<7x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %r = math.sin %s1 : f32
    linalg.yield %r : f32
  } -> tensor<7x256xf32>
  %e6 = tensor.empty() : tensor<5x256xf32>
  %n6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n4 : tensor<8x256xf32>) outs(%e6 : tensor<5x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = math.sin %a0 : f32
    linalg.yield %r : f32
  } -> tensor<5x256xf32>
  %e7 = tensor.empty() : tensor<8x256xf32>
  %n7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n0 : tensor<7x256xf32>) outs(%e7 : tensor<8x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = math.sin %a0 : f32
    linalg.yield %r : f32
  } -> tensor<8x256xf32>
  %e8 = tensor.empty() : tensor<6x256xf32>
  %n8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n0, %n6, %n7 : tensor<7x256xf32>, tensor<5x256xf32>, tensor<8x256xf32>) outs(%e8 : tensor<6x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %r = math.sin %s2 : f32
    linalg.yield %r : f32
  } -> tensor<6x256xf32>
  %e9 = tensor.empty() : tensor<4x256xf32>
  %n9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n3, %n5 : tensor<5x256xf32>, tensor<7x256xf32>) outs(%e9 : tensor<4x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %r = math.sin %s1 : f32
    linalg.yield %r : f32
  } -> tensor<4x256xf32>
  %e10 = tensor.empty() : tensor<3x256xf32>
  %n10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1, %n3, %n9 : tensor<7x256xf32>, tensor<5x256xf32>, tensor<4x256xf32>) outs(%e10 : tensor<3x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %r = math.sin %s2 : f32
    linalg.yield %r : f32
  } -> tensor<3x256xf32>
  %e11 = tensor.empty() : tensor<5x256xf32>
  %n11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n3 : tensor<5x256xf32>) outs(%e11 : tensor<5x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = math.sin %a0 : f32
    linalg.yield %r : f32
  } -> tensor<5x256xf32>
  %e12 = tensor.empty() : tensor<3x256xf32>
  %n12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n8 : tensor<6x256xf32>) outs(%e12 : tensor<3x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = math.sin %a0 : f32
    linalg.yield %r : f32
  } -> tensor<3x256xf32>
  %e13 = tensor.empty() : tensor<2x256xf32>
  %n13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1 : tensor<7x256xf32>) outs(%e13 : tensor<2x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = math.sin %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x256xf32>
  %e14 = tensor.empty() : tensor<5x256xf32>
  %n14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n7, %n8 : tensor<8x256xf32>, tensor<6x256xf32>) outs(%e14 : tensor<5x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %r = math.sin %s1 : f32
    linalg.yield %r : f32
  } -> tensor<5x256xf32>
  %e15 = tensor.empty() : tensor<3x256xf32>
  %n15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n4 : tensor<8x256xf32>) outs(%e15 : tensor<3x256xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = math.sin %a0 : f32
    linalg.yield %r : f32
  } -> tensor<3x256xf32>
  %e16 = tensor.empty() : tensor<5x256xf32>
  %n16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n3, %n9, %n10 : tensor<5x256xf32>, tensor<4x256xf32>, tensor<3x256xf32>) outs(%e16 : tensor<5x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %r = math.sin %s2 : f32
    linalg.yield %r : f32
  } -> tensor<5x256xf32>
  %e17 = tensor.empty() : tensor<2x256xf32>
  %n17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n6, %n9, %n14 : tensor<5x256xf32>, tensor<4x256xf32>, tensor<5x256xf32>) outs(%e17 : tensor<2x256xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %r = math.sin %s2 : f32
    linalg.yield %r : f32
  } -> tensor<2x256xf32>
  return %n11, %n12, %n13, %n15, %n16, %n17 : tensor<5x256xf32>, tensor<3x256xf32>, tensor<2x256xf32>, tensor<3x256xf32>, tensor<5x256xf32>, tensor<2x256xf32>
}
