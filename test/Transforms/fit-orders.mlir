// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-fit=budget=min -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=GIVEN
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-reorder -memsched-fit=budget=min -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REORDERED
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-fit="budget=min reorder=auto" -memsched-report=format=json 2>/dev/null | FileCheck %s --check-prefixes=BOTH,GIVEN
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-optimize=budget=min -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=GIVEN
// Where both ways meet the budget the faster plan is kept, and on a tie (as
// here: neither needs to recompute) the reordered one.
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-fit="budget=2.6KiB reorder=auto" 2>/dev/null | FileCheck %s --check-prefix=FASTER
// Results are bit-identical.
// RUN: memsched-opt %s -memsched-exec-harness -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-optimize=budget=min -cse -canonicalize -memsched-exec-harness -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.optimized
// RUN: diff %t.original %t.optimized

// Tests that memsched-fit with reorder= plans the function both in its own
// order and reordered, and keeps the better plan: the order with the
// smallest peak (memsched-reorder's) is not always the best start for the
// budget planners; on this random training step (the fuzzer's program
// 1237) the program order reached a smaller footprint at `min`, 1456 B
// against 1696 B, until recomputation's private variants (docs/remat.md)
// took the reordered one to 1456 B too; swaps brought back more than once
// and swaps of each value of an in-place chain (docs/swap.md) take both
// to 1248 B. On a tie the reordered plan is kept. memsched-optimize plans
// this way.

// GIVEN: "planned_bytes": 1248
// REORDERED: "planned_bytes": 1248
// BOTH: memsched.fit = {{{.*}}reordered = true
// FASTER: memsched.fit = {{{.*}}reordered = true

func.func @train_step(%x: tensor<6x4xf32>, %w0: tensor<1x4xf32>, %w1: tensor<2x4xf32>, %w2: tensor<2x4xf32>, %w3: tensor<2x4xf32>, %w4: tensor<2x4xf32>, %w5: tensor<1x4xf32>, %w6: tensor<2x4xf32>, %w7: tensor<2x4xf32>, %w8: tensor<2x4xf32>) -> (tensor<1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %e0 = tensor.empty() : tensor<6x4xf32>
  %h1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %w1 : tensor<6x4xf32>, tensor<2x4xf32>) outs(%e0 : tensor<6x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<6x4xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %h2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%h1, %w2, %x : tensor<6x4xf32>, tensor<2x4xf32>, tensor<6x4xf32>) outs(%e1 : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<7x4xf32>
  %h3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%h2, %w3 : tensor<4x4xf32>, tensor<2x4xf32>) outs(%e2 : tensor<7x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<7x4xf32>
  %e3 = tensor.empty() : tensor<5x4xf32>
  %h4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%h3, %w4, %h2 : tensor<7x4xf32>, tensor<2x4xf32>, tensor<4x4xf32>) outs(%e3 : tensor<5x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<5x4xf32>
  %e4 = tensor.empty() : tensor<5x4xf32>
  %h5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%h4, %w5 : tensor<5x4xf32>, tensor<1x4xf32>) outs(%e4 : tensor<5x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<5x4xf32>
  %e5 = tensor.empty() : tensor<8x4xf32>
  %h6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%h5, %w6, %h1 : tensor<5x4xf32>, tensor<2x4xf32>, tensor<6x4xf32>) outs(%e5 : tensor<8x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<8x4xf32>
  %e6 = tensor.empty() : tensor<3x4xf32>
  %h7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%h6, %w7 : tensor<8x4xf32>, tensor<2x4xf32>) outs(%e6 : tensor<3x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<3x4xf32>
  %e7 = tensor.empty() : tensor<6x4xf32>
  %h8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%h7, %w8, %h4 : tensor<3x4xf32>, tensor<2x4xf32>, tensor<5x4xf32>) outs(%e7 : tensor<6x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<6x4xf32>
  %e8 = tensor.empty() : tensor<1x4xf32>
  %loss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h8 : tensor<6x4xf32>) outs(%e8 : tensor<1x4xf32>) {
  ^bb0(%a0: f32, %o: f32):
    linalg.yield %a0 : f32
  } -> tensor<1x4xf32>
  %e9 = tensor.empty() : tensor<3x4xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%loss, %h7, %w8 : tensor<1x4xf32>, tensor<3x4xf32>, tensor<2x4xf32>) outs(%e9 : tensor<3x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<3x4xf32>
  %e10 = tensor.empty() : tensor<2x4xf32>
  %dw7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g8, %h6 : tensor<3x4xf32>, tensor<8x4xf32>) outs(%e10 : tensor<2x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x4xf32>
  %e11 = tensor.empty() : tensor<8x4xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g8, %h6, %w7 : tensor<3x4xf32>, tensor<8x4xf32>, tensor<2x4xf32>) outs(%e11 : tensor<8x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<8x4xf32>
  %e12 = tensor.empty() : tensor<2x4xf32>
  %dw6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g7, %h5 : tensor<8x4xf32>, tensor<5x4xf32>) outs(%e12 : tensor<2x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x4xf32>
  %e13 = tensor.empty() : tensor<2x4xf32>
  %dw8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%loss, %h7 : tensor<1x4xf32>, tensor<3x4xf32>) outs(%e13 : tensor<2x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x4xf32>
  %e14 = tensor.empty() : tensor<5x4xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g7, %h5, %w6 : tensor<8x4xf32>, tensor<5x4xf32>, tensor<2x4xf32>) outs(%e14 : tensor<5x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<5x4xf32>
  %e15 = tensor.empty() : tensor<5x4xf32>
  %g5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g6, %h4, %w5 : tensor<5x4xf32>, tensor<5x4xf32>, tensor<1x4xf32>) outs(%e15 : tensor<5x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<5x4xf32>
  %e16 = tensor.empty() : tensor<2x4xf32>
  %dw4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g5, %h3 : tensor<5x4xf32>, tensor<7x4xf32>) outs(%e16 : tensor<2x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x4xf32>
  %e17 = tensor.empty() : tensor<1x4xf32>
  %dw5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g6, %h4 : tensor<5x4xf32>, tensor<5x4xf32>) outs(%e17 : tensor<1x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<1x4xf32>
  %e18 = tensor.empty() : tensor<7x4xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g5, %h3, %w4 : tensor<5x4xf32>, tensor<7x4xf32>, tensor<2x4xf32>) outs(%e18 : tensor<7x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<7x4xf32>
  %e19 = tensor.empty() : tensor<4x4xf32>
  %g3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g4, %h2, %w3 : tensor<7x4xf32>, tensor<4x4xf32>, tensor<2x4xf32>) outs(%e19 : tensor<4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<4x4xf32>
  %e20 = tensor.empty() : tensor<2x4xf32>
  %dw3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g4, %h2 : tensor<7x4xf32>, tensor<4x4xf32>) outs(%e20 : tensor<2x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x4xf32>
  %e21 = tensor.empty() : tensor<2x4xf32>
  %dw2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g3, %h1 : tensor<4x4xf32>, tensor<6x4xf32>) outs(%e21 : tensor<2x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x4xf32>
  %e22 = tensor.empty() : tensor<6x4xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%g3, %h1, %w2 : tensor<4x4xf32>, tensor<6x4xf32>, tensor<2x4xf32>) outs(%e22 : tensor<6x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<6x4xf32>
  %e23 = tensor.empty() : tensor<2x4xf32>
  %dw1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%g2, %x : tensor<6x4xf32>, tensor<6x4xf32>) outs(%e23 : tensor<2x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %s1 = arith.addf %a0, %a1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x4xf32>
  return %loss, %dw8, %dw7, %dw6, %dw5, %dw4, %dw3, %dw2, %dw1 : tensor<1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
