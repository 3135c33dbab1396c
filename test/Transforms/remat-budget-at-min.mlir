// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-remat=budget=35328 -memsched-report=format=json -o %t.mlir 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-remat=budget=min -memsched-report=format=json -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIN
// CSE and canonicalization keep the plan within the budget.
// RUN: memsched-opt %s -memsched-remat=budget=35328 -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=AFTER-CSE
// One byte less: refused, with the figure `min` reaches.
// RUN: not memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-remat=budget=35327 2>&1 | FileCheck %s --check-prefix=BELOW
// Results are bit-identical on CPU.
// RUN: memsched-opt %s -memsched-exec-harness=func=train_step -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-remat=budget=35328 -cse -canonicalize -memsched-exec-harness=func=train_step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.remat
// RUN: diff %t.original %t.remat

// Tests that a budget at what `min` reaches is met. One search at a budget
// plans the function in its own order; `min` also plans again from its
// result, whose order moved, and goes lower. Before a budget is refused,
// the budget passes now plan at `min` and keep that plan where it is
// within the budget, and an error names what `min` reaches. The function is
// the fuzzer's generated training step 37 (`bench/fuzz.py`, `--max-ops
// 25`): `min` reaches 35328 B, and before this change a budget of 35328 B
// was refused with "the smallest reachable footprint is 38912 B".

// CHECK: remark: memsched-remat: planned memory 77.25 KiB -> 34.50 KiB within 34.50 KiB with remat
// CHECK: "planned_bytes": 35328,

// IR: memsched.fit = {budget_bytes = 35328 : i64

// MIN: within 34.50 KiB with remat
// MIN: "planned_bytes": 35328,

// AFTER-CSE: "planned_bytes": 35328,

// BELOW: error: memsched-remat: cannot meet the budget of 34.50 KiB (35327 B) for '@train_step'; the smallest reachable footprint is 34.50 KiB (35328 B, remat)

func.func @train_step(%x: tensor<9x64xf32>, %w0: tensor<2x64xf32>, %w1: tensor<2x64xf32>, %w2: tensor<1x64xf32>, %w3: tensor<1x64xf32>, %w4: tensor<1x64xf32>, %w5: tensor<2x64xf32>, %w6: tensor<1x64xf32>, %w7: tensor<2x64xf32>, %w8: tensor<2x64xf32>, %w9: tensor<2x64xf32>, %w10: tensor<2x64xf32>, %w11: tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>, tensor<2x64xf32>, tensor<2x64xf32>, tensor<2x64xf32>, tensor<2x64xf32>, tensor<1x64xf32>, tensor<2x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<2x64xf32>) {
  %e0 = tensor.empty() : tensor<28x64xf32>
  %h1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %w1 : tensor<9x64xf32>, tensor<2x64xf32>) outs(%e0 : tensor<28x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<28x64xf32>
  %e1 = tensor.empty() : tensor<19x64xf32>
  %h2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%h1, %w2 : tensor<28x64xf32>, tensor<1x64xf32>) outs(%e1 : tensor<19x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<19x64xf32>
  %e2 = tensor.empty() : tensor<22x64xf32>
  %h3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%h2, %w3 : tensor<19x64xf32>, tensor<1x64xf32>) outs(%e2 : tensor<22x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<22x64xf32>
  %e3 = tensor.empty() : tensor<24x64xf32>
  %h4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%h3, %w4 : tensor<22x64xf32>, tensor<1x64xf32>) outs(%e3 : tensor<24x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<24x64xf32>
  %e4 = tensor.empty() : tensor<11x64xf32>
  %h5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%h4, %w5, %x : tensor<24x64xf32>, tensor<2x64xf32>, tensor<9x64xf32>) outs(%e4 : tensor<11x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<11x64xf32>
  %e5 = tensor.empty() : tensor<29x64xf32>
  %h6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%h5, %w6 : tensor<11x64xf32>, tensor<1x64xf32>) outs(%e5 : tensor<29x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<29x64xf32>
  %e6 = tensor.empty() : tensor<22x64xf32>
  %h7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%h6, %w7 : tensor<29x64xf32>, tensor<2x64xf32>) outs(%e6 : tensor<22x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<22x64xf32>
  %e7 = tensor.empty() : tensor<27x64xf32>
  %h8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%h7, %w8, %h4 : tensor<22x64xf32>, tensor<2x64xf32>, tensor<24x64xf32>) outs(%e7 : tensor<27x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<27x64xf32>
  %e8 = tensor.empty() : tensor<17x64xf32>
  %h9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%h8, %w9, %h5 : tensor<27x64xf32>, tensor<2x64xf32>, tensor<11x64xf32>) outs(%e8 : tensor<17x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<17x64xf32>
  %e9 = tensor.empty() : tensor<20x64xf32>
  %h10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%h9, %w10 : tensor<17x64xf32>, tensor<2x64xf32>) outs(%e9 : tensor<20x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<20x64xf32>
  %e10 = tensor.empty() : tensor<31x64xf32>
  %h11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%h10, %w11, %x : tensor<20x64xf32>, tensor<1x64xf32>, tensor<9x64xf32>) outs(%e10 : tensor<31x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<31x64xf32>
  %e11 = tensor.empty() : tensor<1x64xf32>
  %loss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h11 : tensor<31x64xf32>) outs(%e11 : tensor<1x64xf32>) {
  ^bb0(%a0: f32, %o: f32):
    linalg.yield %a0 : f32
  } -> tensor<1x64xf32>
  %e12 = tensor.empty() : tensor<20x64xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%loss, %h10, %w11 : tensor<1x64xf32>, tensor<20x64xf32>, tensor<1x64xf32>) outs(%e12 : tensor<20x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<20x64xf32>
  %e13 = tensor.empty() : tensor<17x64xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g11, %h9, %w10 : tensor<20x64xf32>, tensor<17x64xf32>, tensor<2x64xf32>) outs(%e13 : tensor<17x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<17x64xf32>
  %e14 = tensor.empty() : tensor<1x64xf32>
  %dw11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%loss, %h10 : tensor<1x64xf32>, tensor<20x64xf32>) outs(%e14 : tensor<1x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x64xf32>
  %e15 = tensor.empty() : tensor<2x64xf32>
  %dw9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g10, %h8 : tensor<17x64xf32>, tensor<27x64xf32>) outs(%e15 : tensor<2x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x64xf32>
  %e16 = tensor.empty() : tensor<27x64xf32>
  %g9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g10, %h8, %w9 : tensor<17x64xf32>, tensor<27x64xf32>, tensor<2x64xf32>) outs(%e16 : tensor<27x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<27x64xf32>
  %e17 = tensor.empty() : tensor<2x64xf32>
  %dw10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g11, %h9 : tensor<20x64xf32>, tensor<17x64xf32>) outs(%e17 : tensor<2x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x64xf32>
  %e18 = tensor.empty() : tensor<2x64xf32>
  %dw8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g9, %h7 : tensor<27x64xf32>, tensor<22x64xf32>) outs(%e18 : tensor<2x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x64xf32>
  %e19 = tensor.empty() : tensor<22x64xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g9, %h7, %w8 : tensor<27x64xf32>, tensor<22x64xf32>, tensor<2x64xf32>) outs(%e19 : tensor<22x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<22x64xf32>
  %e20 = tensor.empty() : tensor<2x64xf32>
  %dw7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g8, %h6 : tensor<22x64xf32>, tensor<29x64xf32>) outs(%e20 : tensor<2x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x64xf32>
  %e21 = tensor.empty() : tensor<29x64xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g8, %h6, %w7 : tensor<22x64xf32>, tensor<29x64xf32>, tensor<2x64xf32>) outs(%e21 : tensor<29x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<29x64xf32>
  %e22 = tensor.empty() : tensor<11x64xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g7, %h5, %w6 : tensor<29x64xf32>, tensor<11x64xf32>, tensor<1x64xf32>) outs(%e22 : tensor<11x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<11x64xf32>
  %e23 = tensor.empty() : tensor<24x64xf32>
  %g5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g6, %h4, %w5 : tensor<11x64xf32>, tensor<24x64xf32>, tensor<2x64xf32>) outs(%e23 : tensor<24x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<24x64xf32>
  %e24 = tensor.empty() : tensor<2x64xf32>
  %dw5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g6, %h4 : tensor<11x64xf32>, tensor<24x64xf32>) outs(%e24 : tensor<2x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x64xf32>
  %e25 = tensor.empty() : tensor<1x64xf32>
  %dw4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g5, %h3 : tensor<24x64xf32>, tensor<22x64xf32>) outs(%e25 : tensor<1x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x64xf32>
  %e26 = tensor.empty() : tensor<22x64xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g5, %h3, %w4 : tensor<24x64xf32>, tensor<22x64xf32>, tensor<1x64xf32>) outs(%e26 : tensor<22x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<22x64xf32>
  %e27 = tensor.empty() : tensor<1x64xf32>
  %dw6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g7, %h5 : tensor<29x64xf32>, tensor<11x64xf32>) outs(%e27 : tensor<1x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x64xf32>
  %e28 = tensor.empty() : tensor<1x64xf32>
  %dw3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g4, %h2 : tensor<22x64xf32>, tensor<19x64xf32>) outs(%e28 : tensor<1x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x64xf32>
  %e29 = tensor.empty() : tensor<19x64xf32>
  %g3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g4, %h2, %w3 : tensor<22x64xf32>, tensor<19x64xf32>, tensor<1x64xf32>) outs(%e29 : tensor<19x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<19x64xf32>
  %e30 = tensor.empty() : tensor<1x64xf32>
  %dw2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g3, %h1 : tensor<19x64xf32>, tensor<28x64xf32>) outs(%e30 : tensor<1x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x64xf32>
  %e31 = tensor.empty() : tensor<28x64xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g3, %h1, %w2 : tensor<19x64xf32>, tensor<28x64xf32>, tensor<1x64xf32>) outs(%e31 : tensor<28x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<28x64xf32>
  %e32 = tensor.empty() : tensor<2x64xf32>
  %dw1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g2, %x : tensor<28x64xf32>, tensor<9x64xf32>) outs(%e32 : tensor<2x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x64xf32>
  return %loss, %dw11, %dw10, %dw9, %dw8, %dw7, %dw6, %dw5, %dw4, %dw3, %dw2, %dw1 : tensor<1x64xf32>, tensor<1x64xf32>, tensor<2x64xf32>, tensor<2x64xf32>, tensor<2x64xf32>, tensor<2x64xf32>, tensor<1x64xf32>, tensor<2x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<2x64xf32>
}
