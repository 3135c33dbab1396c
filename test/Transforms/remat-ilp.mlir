// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-remat=budget=0.9287x ilp-max-tasks=40 device=cpu" 2>/dev/null | FileCheck %s
// Without the ILP phase the budget is out of reach.
// RUN: not memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-remat=budget=0.9287x device=cpu" 2>&1 >/dev/null | FileCheck %s --check-prefix=DROP-SETS
// CSE and canonicalization keep the clones apart: the budget still holds.
// RUN: memsched-opt %s "-memsched-remat=budget=0.9287x ilp-max-tasks=40 device=cpu" -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=AFTER-CSE
// The report names what is live at the peak, clones marked as recomputed.
// RUN: memsched-opt %s "-memsched-remat=budget=0.9287x ilp-max-tasks=40 device=cpu" -cse -canonicalize -memsched-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=PEAK
// PEAK: peak at {{.*}}remat-ilp.mlir:{{[0-9]+}}:{{[0-9]+}} ('linalg.generic'), largest live buffers:
// PEAK-NEXT: {{^ +[0-9.]+ KiB  .*}}remat-ilp.mlir:{{[0-9]+}}:{{[0-9]+}} (linalg.generic, recomputed){{$}}
// memsched-fit (recomputation only) and memsched-optimize take the option too.
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-fit=budget=0.9287x allow-swap=false ilp-max-tasks=40 device=cpu" 2>/dev/null | FileCheck %s --check-prefix=FIT
// RUN: memsched-opt %s "-memsched-optimize=budget=0.9287x allow-swap=false ilp-max-tasks=40 device=cpu" -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=AFTER-CSE
// Results are bit-identical on CPU.
// RUN: memsched-opt %s -memsched-exec-harness=func=train_step -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s "-memsched-remat=budget=0.9287x ilp-max-tasks=40 device=cpu" -cse -canonicalize -memsched-exec-harness=func=train_step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.remat
// RUN: diff %t.original %t.remat

// Tests memsched-remat's ILP phase (ilp-max-tasks=): on a random training
// step (test/python/Inputs/random_graphs.py, training_step of the property
// test remat_ilp_property.py, seed 8, trial 5), planned at 20.25 KiB,
// auto's drop sets reach 19.50 KiB at best, while Checkmate's schedule
// space, recomputing values at any point and several times, meets 0.9287x
// (18.81 KiB). The plan is the ILP's (algorithm "ilp"), applied as clones
// that CSE cannot fold back. (The random DAG this test used before is now
// met by the drop sets' private variants alone.)

// CHECK-LABEL: func.func @train_step
// CHECK-SAME: chosen = "remat"
// CHECK-SAME: memsched.remat = {algorithm = "ilp", dropped_buffers = {{[0-9]+}} : i64, recompute_time_s = {{[^,]+}}, recomputed_ops = {{[0-9]+}} : i64}
// CHECK: memsched.recompute = 0 : i64
// CHECK: return

// FIT: memsched.remat = {algorithm = "ilp"

// DROP-SETS: error: memsched-remat: cannot meet the budget of 18.81 KiB (19257 B) for '@train_step'; the smallest reachable footprint is 19.50 KiB (19968 B, remat)

// At most the budget, 19257 B:
// AFTER-CSE: "planned_bytes": {{([0-9]{1,4}|1[0-8][0-9]{3}|19[0-1][0-9]{2}|192[0-4][0-9]|1925[0-7])}},

func.func @train_step(%x: tensor<8x64xf32>, %w0: tensor<1x64xf32>, %w1: tensor<2x64xf32>, %w2: tensor<1x64xf32>, %w3: tensor<1x64xf32>, %w4: tensor<1x64xf32>, %w5: tensor<2x64xf32>) -> (tensor<1x64xf32>, tensor<2x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<2x64xf32>) {
  %e0 = tensor.empty() : tensor<14x64xf32>
  %h1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %w1 : tensor<8x64xf32>, tensor<2x64xf32>) outs(%e0 : tensor<14x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<14x64xf32>
  %e1 = tensor.empty() : tensor<10x64xf32>
  %h2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%h1, %w2 : tensor<14x64xf32>, tensor<1x64xf32>) outs(%e1 : tensor<10x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<10x64xf32>
  %e2 = tensor.empty() : tensor<7x64xf32>
  %h3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%h2, %w3, %x : tensor<10x64xf32>, tensor<1x64xf32>, tensor<8x64xf32>) outs(%e2 : tensor<7x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<7x64xf32>
  %e3 = tensor.empty() : tensor<9x64xf32>
  %h4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%h3, %w4 : tensor<7x64xf32>, tensor<1x64xf32>) outs(%e3 : tensor<9x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<9x64xf32>
  %e4 = tensor.empty() : tensor<7x64xf32>
  %h5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%h4, %w5 : tensor<9x64xf32>, tensor<2x64xf32>) outs(%e4 : tensor<7x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<7x64xf32>
  %e5 = tensor.empty() : tensor<1x64xf32>
  %loss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h5 : tensor<7x64xf32>) outs(%e5 : tensor<1x64xf32>) {
  ^bb0(%a0: f32, %o: f32):
    linalg.yield %a0 : f32
  } -> tensor<1x64xf32>
  %e6 = tensor.empty() : tensor<2x64xf32>
  %dw5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%loss, %h4 : tensor<1x64xf32>, tensor<9x64xf32>) outs(%e6 : tensor<2x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x64xf32>
  %e7 = tensor.empty() : tensor<9x64xf32>
  %g5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%loss, %h4, %w5 : tensor<1x64xf32>, tensor<9x64xf32>, tensor<2x64xf32>) outs(%e7 : tensor<9x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<9x64xf32>
  %e8 = tensor.empty() : tensor<7x64xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g5, %h3, %w4 : tensor<9x64xf32>, tensor<7x64xf32>, tensor<1x64xf32>) outs(%e8 : tensor<7x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<7x64xf32>
  %e9 = tensor.empty() : tensor<1x64xf32>
  %dw3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g4, %h2 : tensor<7x64xf32>, tensor<10x64xf32>) outs(%e9 : tensor<1x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x64xf32>
  %e10 = tensor.empty() : tensor<10x64xf32>
  %g3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g4, %h2, %w3 : tensor<7x64xf32>, tensor<10x64xf32>, tensor<1x64xf32>) outs(%e10 : tensor<10x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<10x64xf32>
  %e11 = tensor.empty() : tensor<14x64xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g3, %h1, %w2 : tensor<10x64xf32>, tensor<14x64xf32>, tensor<1x64xf32>) outs(%e11 : tensor<14x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<14x64xf32>
  %e12 = tensor.empty() : tensor<1x64xf32>
  %dw4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g5, %h3 : tensor<9x64xf32>, tensor<7x64xf32>) outs(%e12 : tensor<1x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x64xf32>
  %e13 = tensor.empty() : tensor<1x64xf32>
  %dw2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g3, %h1 : tensor<10x64xf32>, tensor<14x64xf32>) outs(%e13 : tensor<1x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x64xf32>
  %e14 = tensor.empty() : tensor<2x64xf32>
  %dw1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g2, %x : tensor<14x64xf32>, tensor<8x64xf32>) outs(%e14 : tensor<2x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x64xf32>
  return %loss, %dw5, %dw4, %dw3, %dw2, %dw1 : tensor<1x64xf32>, tensor<2x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<2x64xf32>
}
