// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-remat=budget=105472 2>/dev/null | FileCheck %s
// Without the chain phase, the drop-set searches need 13 s of recomputation.
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-remat=budget=105472 rotor-max-stages=0" 2>/dev/null | FileCheck %s --check-prefix=OFF
// CSE and canonicalization keep the clones apart: the budget still holds.
// RUN: memsched-opt %s -memsched-remat=budget=105472 -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=AFTER-CSE
// memsched-fit and memsched-optimize plan with the phase too.
// RUN: memsched-opt %s "-memsched-fit=budget=105472 allow-swap=false" 2>/dev/null | FileCheck %s --check-prefix=FIT
// Results are bit-identical on CPU.
// RUN: memsched-opt %s -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-remat=budget=105472 -cse -canonicalize -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.remat
// RUN: diff %t.original %t.remat
// RUN: not memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-remat=budget=105472 rotor-max-stages=257" 2>&1 | FileCheck %s --check-prefix=BAD

// Tests memsched-remat's chain phase: Rotor's dynamic program on a function
// that reads as a chain of stages. The function is the homogeneous 16-stage
// chain of memsched-remat-chain-bench (`--emit-mlir`: forward 1 s, backward
// 2 s, 4 KiB outputs, 12 KiB saved per stage, costs given by
// memsched.cost), planned at 205 KiB; at 0.5 of Rotor's store-all peak
// (103 KiB) Rotor's optimum recomputes 10 s, which the pass reaches (the
// plan is Rotor's, algorithm "rotor"); the drop-set searches alone need
// 13 s.

// CHECK-LABEL: func.func @chain
// CHECK-SAME: memsched.remat = {algorithm = "rotor", dropped_buffers = {{[0-9]+}} : i64, recompute_time_s = 1.000000e+01 : f64, recomputed_ops = 10 : i64}
// CHECK-COUNT-10: memsched.recompute =
// CHECK-NOT: memsched.recompute =
// CHECK: return

// OFF: memsched.remat = {algorithm = "greedy", {{.*}}recompute_time_s = 1.300000e+01 : f64

// At most the budget, 105472 B:
// AFTER-CSE: "planned_bytes": {{([0-9]{1,5}|10[0-4][0-9]{3}|105[0-3][0-9]{2}|1054[0-6][0-9]|10547[0-2])}},

// FIT: memsched.remat = {algorithm = "rotor"

// BAD: error: memsched-remat: time-limit-ms, segments, ilp-max-tasks and local-search-work must not be negative, and rotor-max-stages must be in [0, 256]

func.func @chain(%x0: tensor<4x256xf32>) -> tensor<1x256xf32> {
  %e0 = tensor.empty() : tensor<4x256xf32>
  %d16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x0 : tensor<4x256xf32>) outs(%e0 : tensor<4x256xf32>) attrs = {memsched.cost = 0.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<4x256xf32>
  %e1 = tensor.empty() : tensor<4x256xf32>
  %e2 = tensor.empty() : tensor<8x256xf32>
  %x1, %xbar1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x0 : tensor<4x256xf32>) outs(%e1, %e2 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e3 = tensor.empty() : tensor<4x256xf32>
  %e4 = tensor.empty() : tensor<8x256xf32>
  %x2, %xbar2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x1 : tensor<4x256xf32>) outs(%e3, %e4 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e5 = tensor.empty() : tensor<4x256xf32>
  %e6 = tensor.empty() : tensor<8x256xf32>
  %x3, %xbar3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x2 : tensor<4x256xf32>) outs(%e5, %e6 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e7 = tensor.empty() : tensor<4x256xf32>
  %e8 = tensor.empty() : tensor<8x256xf32>
  %x4, %xbar4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x3 : tensor<4x256xf32>) outs(%e7, %e8 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e9 = tensor.empty() : tensor<4x256xf32>
  %e10 = tensor.empty() : tensor<8x256xf32>
  %x5, %xbar5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x4 : tensor<4x256xf32>) outs(%e9, %e10 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e11 = tensor.empty() : tensor<4x256xf32>
  %e12 = tensor.empty() : tensor<8x256xf32>
  %x6, %xbar6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x5 : tensor<4x256xf32>) outs(%e11, %e12 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e13 = tensor.empty() : tensor<4x256xf32>
  %e14 = tensor.empty() : tensor<8x256xf32>
  %x7, %xbar7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x6 : tensor<4x256xf32>) outs(%e13, %e14 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e15 = tensor.empty() : tensor<4x256xf32>
  %e16 = tensor.empty() : tensor<8x256xf32>
  %x8, %xbar8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x7 : tensor<4x256xf32>) outs(%e15, %e16 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e17 = tensor.empty() : tensor<4x256xf32>
  %e18 = tensor.empty() : tensor<8x256xf32>
  %x9, %xbar9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x8 : tensor<4x256xf32>) outs(%e17, %e18 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e19 = tensor.empty() : tensor<4x256xf32>
  %e20 = tensor.empty() : tensor<8x256xf32>
  %x10, %xbar10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x9 : tensor<4x256xf32>) outs(%e19, %e20 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e21 = tensor.empty() : tensor<4x256xf32>
  %e22 = tensor.empty() : tensor<8x256xf32>
  %x11, %xbar11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x10 : tensor<4x256xf32>) outs(%e21, %e22 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e23 = tensor.empty() : tensor<4x256xf32>
  %e24 = tensor.empty() : tensor<8x256xf32>
  %x12, %xbar12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x11 : tensor<4x256xf32>) outs(%e23, %e24 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e25 = tensor.empty() : tensor<4x256xf32>
  %e26 = tensor.empty() : tensor<8x256xf32>
  %x13, %xbar13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x12 : tensor<4x256xf32>) outs(%e25, %e26 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e27 = tensor.empty() : tensor<4x256xf32>
  %e28 = tensor.empty() : tensor<8x256xf32>
  %x14, %xbar14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x13 : tensor<4x256xf32>) outs(%e27, %e28 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e29 = tensor.empty() : tensor<4x256xf32>
  %e30 = tensor.empty() : tensor<8x256xf32>
  %x15, %xbar15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x14 : tensor<4x256xf32>) outs(%e29, %e30 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e31 = tensor.empty() : tensor<4x256xf32>
  %e32 = tensor.empty() : tensor<8x256xf32>
  %x16, %xbar16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x15 : tensor<4x256xf32>) outs(%e31, %e32 : tensor<4x256xf32>, tensor<8x256xf32>) attrs = {memsched.cost = 1.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<8x256xf32>)
  %e33 = tensor.empty() : tensor<4x256xf32>
  %d15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d16, %x16, %xbar16, %x15 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e33 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e34 = tensor.empty() : tensor<4x256xf32>
  %d14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d15, %x15, %xbar15, %x14 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e34 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e35 = tensor.empty() : tensor<4x256xf32>
  %d13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d14, %x14, %xbar14, %x13 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e35 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e36 = tensor.empty() : tensor<4x256xf32>
  %d12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d13, %x13, %xbar13, %x12 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e36 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e37 = tensor.empty() : tensor<4x256xf32>
  %d11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d12, %x12, %xbar12, %x11 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e37 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e38 = tensor.empty() : tensor<4x256xf32>
  %d10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d11, %x11, %xbar11, %x10 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e38 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e39 = tensor.empty() : tensor<4x256xf32>
  %d9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d10, %x10, %xbar10, %x9 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e39 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e40 = tensor.empty() : tensor<4x256xf32>
  %d8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d9, %x9, %xbar9, %x8 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e40 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e41 = tensor.empty() : tensor<4x256xf32>
  %d7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d8, %x8, %xbar8, %x7 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e41 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e42 = tensor.empty() : tensor<4x256xf32>
  %d6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d7, %x7, %xbar7, %x6 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e42 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e43 = tensor.empty() : tensor<4x256xf32>
  %d5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d6, %x6, %xbar6, %x5 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e43 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e44 = tensor.empty() : tensor<4x256xf32>
  %d4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d5, %x5, %xbar5, %x4 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e44 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e45 = tensor.empty() : tensor<4x256xf32>
  %d3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d4, %x4, %xbar4, %x3 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e45 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e46 = tensor.empty() : tensor<4x256xf32>
  %d2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d3, %x3, %xbar3, %x2 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e46 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e47 = tensor.empty() : tensor<4x256xf32>
  %d1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d2, %x2, %xbar2, %x1 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>, tensor<4x256xf32>) outs(%e47 : tensor<4x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<4x256xf32>
  %e48 = tensor.empty() : tensor<1x256xf32>
  %d0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d1, %x1, %xbar1 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<8x256xf32>) outs(%e48 : tensor<1x256xf32>) attrs = {memsched.cost = 2.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<1x256xf32>
  return %d0 : tensor<1x256xf32>
}
