// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-remat=budget=min -memsched-report=format=json -o %t.mlir 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// Without the chain phase the drop-set searches stop above the floor.
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-remat=budget=min rotor-max-stages=0" -memsched-report=format=json -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// CSE and canonicalization keep the clones apart.
// RUN: memsched-opt %s -memsched-remat=budget=min -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=AFTER-CSE
// Results are bit-identical on CPU.
// RUN: memsched-opt %s -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-remat=budget=min -cse -canonicalize -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.remat
// RUN: diff %t.original %t.remat

// Tests memsched-remat at `min` on a chain: where no plan meets the budget,
// the chain phase returns Rotor's plan of the least memory, so the budget
// driver's first request (budget 0) already counts it in the smallest peak
// and its next one (that peak) gets it. The function is the random chain
// of 32 stages (seed 2024) of memsched-remat-chain-bench (`--emit-mlir`,
// costs given by memsched.cost). Rotor's least-memory plan reaches the
// floor of recompute plans, 210944 B; before the phase returned it, and
// without the phase, the smallest plan found was 222208 B.

// CHECK: remark: memsched-remat: planned memory 1.36 MiB -> 206.00 KiB within 206.00 KiB with remat
// CHECK: "planned_bytes": 210944,
// CHECK: "recompute_floor_bytes": 210944,

// IR: memsched.remat = {algorithm = "rotor"

// OFF: remark: memsched-remat: planned memory 1.36 MiB -> 217.00 KiB within 217.00 KiB with remat
// OFF: "planned_bytes": 222208,

// AFTER-CSE: "planned_bytes": 210944,

func.func @chain(%x0: tensor<22x256xf32>) -> tensor<1x256xf32> {
  %e0 = tensor.empty() : tensor<6x256xf32>
  %d32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x0 : tensor<22x256xf32>) outs(%e0 : tensor<6x256xf32>) attrs = {memsched.cost = 0.00000000000000000e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<6x256xf32>
  %e1 = tensor.empty() : tensor<32x256xf32>
  %e2 = tensor.empty() : tensor<96x256xf32>
  %x1, %xbar1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x0 : tensor<22x256xf32>) outs(%e1, %e2 : tensor<32x256xf32>, tensor<96x256xf32>) attrs = {memsched.cost = 8.40311679706924441e-01 : f64, memsched.workspace = 2048 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<32x256xf32>, tensor<96x256xf32>)
  %e3 = tensor.empty() : tensor<17x256xf32>
  %e4 = tensor.empty() : tensor<51x256xf32>
  %x2, %xbar2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x1 : tensor<32x256xf32>) outs(%e3, %e4 : tensor<17x256xf32>, tensor<51x256xf32>) attrs = {memsched.cost = 2.58720465635468688e+00 : f64, memsched.workspace = 5120 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<17x256xf32>, tensor<51x256xf32>)
  %e5 = tensor.empty() : tensor<22x256xf32>
  %e6 = tensor.empty() : tensor<66x256xf32>
  %x3, %xbar3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x2 : tensor<17x256xf32>) outs(%e5, %e6 : tensor<22x256xf32>, tensor<66x256xf32>) attrs = {memsched.cost = 2.81512720777608916e+00 : f64, memsched.workspace = 9216 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<22x256xf32>, tensor<66x256xf32>)
  %e7 = tensor.empty() : tensor<17x256xf32>
  %e8 = tensor.empty() : tensor<34x256xf32>
  %x4, %xbar4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x3 : tensor<22x256xf32>) outs(%e7, %e8 : tensor<17x256xf32>, tensor<34x256xf32>) attrs = {memsched.cost = 2.06199046104169170e+00 : f64, memsched.workspace = 3072 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<17x256xf32>, tensor<34x256xf32>)
  %e9 = tensor.empty() : tensor<28x256xf32>
  %x5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x4 : tensor<17x256xf32>) outs(%e9 : tensor<28x256xf32>) attrs = {memsched.cost = 3.69414316601914150e+00 : f64, memsched.workspace = 4096 : i64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<28x256xf32>
  %e10 = tensor.empty() : tensor<22x256xf32>
  %e11 = tensor.empty() : tensor<22x256xf32>
  %x6, %xbar6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x5 : tensor<28x256xf32>) outs(%e10, %e11 : tensor<22x256xf32>, tensor<22x256xf32>) attrs = {memsched.cost = 1.51753837817858539e+00 : f64, memsched.workspace = 1024 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<22x256xf32>, tensor<22x256xf32>)
  %e12 = tensor.empty() : tensor<6x256xf32>
  %e13 = tensor.empty() : tensor<6x256xf32>
  %x7, %xbar7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x6 : tensor<22x256xf32>) outs(%e12, %e13 : tensor<6x256xf32>, tensor<6x256xf32>) attrs = {memsched.cost = 1.91801922103123945e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<6x256xf32>, tensor<6x256xf32>)
  %e14 = tensor.empty() : tensor<2x256xf32>
  %x8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x7 : tensor<6x256xf32>) outs(%e14 : tensor<2x256xf32>) attrs = {memsched.cost = 1.81130522350241030e+00 : f64, memsched.workspace = 1024 : i64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<2x256xf32>
  %e15 = tensor.empty() : tensor<22x256xf32>
  %e16 = tensor.empty() : tensor<44x256xf32>
  %x9, %xbar9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x8 : tensor<2x256xf32>) outs(%e15, %e16 : tensor<22x256xf32>, tensor<44x256xf32>) attrs = {memsched.cost = 2.84641368376096437e+00 : f64, memsched.workspace = 9216 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<22x256xf32>, tensor<44x256xf32>)
  %e17 = tensor.empty() : tensor<16x256xf32>
  %x10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x9 : tensor<22x256xf32>) outs(%e17 : tensor<16x256xf32>) attrs = {memsched.cost = 1.24876924287999191e+00 : f64, memsched.workspace = 2048 : i64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<16x256xf32>
  %e18 = tensor.empty() : tensor<25x256xf32>
  %x11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x10 : tensor<16x256xf32>) outs(%e18 : tensor<25x256xf32>) attrs = {memsched.cost = 1.97443938524132934e+00 : f64, memsched.workspace = 3072 : i64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<25x256xf32>
  %e19 = tensor.empty() : tensor<23x256xf32>
  %e20 = tensor.empty() : tensor<23x256xf32>
  %x12, %xbar12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x11 : tensor<25x256xf32>) outs(%e19, %e20 : tensor<23x256xf32>, tensor<23x256xf32>) attrs = {memsched.cost = 1.90189334185070802e+00 : f64, memsched.workspace = 4096 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<23x256xf32>, tensor<23x256xf32>)
  %e21 = tensor.empty() : tensor<19x256xf32>
  %e22 = tensor.empty() : tensor<38x256xf32>
  %x13, %xbar13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x12 : tensor<23x256xf32>) outs(%e21, %e22 : tensor<19x256xf32>, tensor<38x256xf32>) attrs = {memsched.cost = 3.30063066729903287e+00 : f64, memsched.workspace = 7168 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<19x256xf32>, tensor<38x256xf32>)
  %e23 = tensor.empty() : tensor<18x256xf32>
  %e24 = tensor.empty() : tensor<54x256xf32>
  %x14, %xbar14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x13 : tensor<19x256xf32>) outs(%e23, %e24 : tensor<18x256xf32>, tensor<54x256xf32>) attrs = {memsched.cost = 3.88597122739773138e+00 : f64, memsched.workspace = 4096 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<18x256xf32>, tensor<54x256xf32>)
  %e25 = tensor.empty() : tensor<22x256xf32>
  %x15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x14 : tensor<18x256xf32>) outs(%e25 : tensor<22x256xf32>) attrs = {memsched.cost = 2.59198771784983650e+00 : f64, memsched.workspace = 5120 : i64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<22x256xf32>
  %e26 = tensor.empty() : tensor<28x256xf32>
  %x16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x15 : tensor<22x256xf32>) outs(%e26 : tensor<28x256xf32>) attrs = {memsched.cost = 1.64525106125296383e+00 : f64, memsched.workspace = 6144 : i64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<28x256xf32>
  %e27 = tensor.empty() : tensor<6x256xf32>
  %x17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x16 : tensor<28x256xf32>) outs(%e27 : tensor<6x256xf32>) attrs = {memsched.cost = 3.53688332658185445e+00 : f64, memsched.workspace = 1024 : i64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<6x256xf32>
  %e28 = tensor.empty() : tensor<5x256xf32>
  %x18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x17 : tensor<6x256xf32>) outs(%e28 : tensor<5x256xf32>) attrs = {memsched.cost = 1.82911981338006857e+00 : f64, memsched.workspace = 2048 : i64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<5x256xf32>
  %e29 = tensor.empty() : tensor<6x256xf32>
  %e30 = tensor.empty() : tensor<18x256xf32>
  %x19, %xbar19 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x18 : tensor<5x256xf32>) outs(%e29, %e30 : tensor<6x256xf32>, tensor<18x256xf32>) attrs = {memsched.cost = 3.80949473390632809e+00 : f64, memsched.workspace = 3072 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<6x256xf32>, tensor<18x256xf32>)
  %e31 = tensor.empty() : tensor<30x256xf32>
  %e32 = tensor.empty() : tensor<60x256xf32>
  %x20, %xbar20 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x19 : tensor<6x256xf32>) outs(%e31, %e32 : tensor<30x256xf32>, tensor<60x256xf32>) attrs = {memsched.cost = 3.27848716504101212e+00 : f64, memsched.workspace = 1024 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<30x256xf32>, tensor<60x256xf32>)
  %e33 = tensor.empty() : tensor<19x256xf32>
  %x21 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x20 : tensor<30x256xf32>) outs(%e33 : tensor<19x256xf32>) attrs = {memsched.cost = 9.66112005972389554e-01 : f64, memsched.workspace = 9216 : i64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<19x256xf32>
  %e34 = tensor.empty() : tensor<26x256xf32>
  %e35 = tensor.empty() : tensor<26x256xf32>
  %x22, %xbar22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x21 : tensor<19x256xf32>) outs(%e34, %e35 : tensor<26x256xf32>, tensor<26x256xf32>) attrs = {memsched.cost = 1.88764410203611499e+00 : f64, memsched.workspace = 13312 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<26x256xf32>, tensor<26x256xf32>)
  %e36 = tensor.empty() : tensor<27x256xf32>
  %x23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x22 : tensor<26x256xf32>) outs(%e36 : tensor<27x256xf32>) attrs = {memsched.cost = 1.06366648216113036e+00 : f64, memsched.workspace = 8192 : i64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<27x256xf32>
  %e37 = tensor.empty() : tensor<24x256xf32>
  %e38 = tensor.empty() : tensor<24x256xf32>
  %x24, %xbar24 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x23 : tensor<27x256xf32>) outs(%e37, %e38 : tensor<24x256xf32>, tensor<24x256xf32>) attrs = {memsched.cost = 5.67229133924638584e-01 : f64, memsched.workspace = 6144 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<24x256xf32>, tensor<24x256xf32>)
  %e39 = tensor.empty() : tensor<18x256xf32>
  %e40 = tensor.empty() : tensor<18x256xf32>
  %x25, %xbar25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x24 : tensor<24x256xf32>) outs(%e39, %e40 : tensor<18x256xf32>, tensor<18x256xf32>) attrs = {memsched.cost = 5.90554873076704068e-01 : f64, memsched.workspace = 7168 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<18x256xf32>, tensor<18x256xf32>)
  %e41 = tensor.empty() : tensor<4x256xf32>
  %e42 = tensor.empty() : tensor<12x256xf32>
  %x26, %xbar26 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x25 : tensor<18x256xf32>) outs(%e41, %e42 : tensor<4x256xf32>, tensor<12x256xf32>) attrs = {memsched.cost = 2.49649343254991241e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<4x256xf32>, tensor<12x256xf32>)
  %e43 = tensor.empty() : tensor<29x256xf32>
  %x27 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x26 : tensor<4x256xf32>) outs(%e43 : tensor<29x256xf32>) attrs = {memsched.cost = 3.77059623669867250e+00 : f64, memsched.workspace = 10240 : i64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<29x256xf32>
  %e44 = tensor.empty() : tensor<23x256xf32>
  %e45 = tensor.empty() : tensor<23x256xf32>
  %x28, %xbar28 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x27 : tensor<29x256xf32>) outs(%e44, %e45 : tensor<23x256xf32>, tensor<23x256xf32>) attrs = {memsched.cost = 1.68786155392613302e+00 : f64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<23x256xf32>, tensor<23x256xf32>)
  %e46 = tensor.empty() : tensor<14x256xf32>
  %x29 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x28 : tensor<23x256xf32>) outs(%e46 : tensor<14x256xf32>) attrs = {memsched.cost = 5.08384913106294967e-01 : f64, memsched.workspace = 3072 : i64} {
  ^bb0(%a0: f32, %o0: f32):
    linalg.yield %a0 : f32
  } -> tensor<14x256xf32>
  %e47 = tensor.empty() : tensor<19x256xf32>
  %e48 = tensor.empty() : tensor<19x256xf32>
  %x30, %xbar30 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x29 : tensor<14x256xf32>) outs(%e47, %e48 : tensor<19x256xf32>, tensor<19x256xf32>) attrs = {memsched.cost = 3.15037395555417321e+00 : f64, memsched.workspace = 6144 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<19x256xf32>, tensor<19x256xf32>)
  %e49 = tensor.empty() : tensor<27x256xf32>
  %e50 = tensor.empty() : tensor<81x256xf32>
  %x31, %xbar31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x30 : tensor<19x256xf32>) outs(%e49, %e50 : tensor<27x256xf32>, tensor<81x256xf32>) attrs = {memsched.cost = 1.47890842662114075e+00 : f64, memsched.workspace = 9216 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<27x256xf32>, tensor<81x256xf32>)
  %e51 = tensor.empty() : tensor<6x256xf32>
  %e52 = tensor.empty() : tensor<6x256xf32>
  %x32, %xbar32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x31 : tensor<27x256xf32>) outs(%e51, %e52 : tensor<6x256xf32>, tensor<6x256xf32>) attrs = {memsched.cost = 3.56905686629729058e+00 : f64, memsched.workspace = 3072 : i64} {
  ^bb0(%a0: f32, %o0: f32, %o1: f32):
    linalg.yield %a0, %a0 : f32, f32
  } -> (tensor<6x256xf32>, tensor<6x256xf32>)
  %e53 = tensor.empty() : tensor<27x256xf32>
  %d31 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d32, %x32, %xbar32, %x31 : tensor<6x256xf32>, tensor<6x256xf32>, tensor<6x256xf32>, tensor<27x256xf32>) outs(%e53 : tensor<27x256xf32>) attrs = {memsched.cost = 5.62654094822862660e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<27x256xf32>
  %e54 = tensor.empty() : tensor<19x256xf32>
  %d30 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d31, %x31, %xbar31, %x30 : tensor<27x256xf32>, tensor<27x256xf32>, tensor<81x256xf32>, tensor<19x256xf32>) outs(%e54 : tensor<19x256xf32>) attrs = {memsched.cost = 2.67329893337518110e+00 : f64, memsched.workspace = 10240 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<19x256xf32>
  %e55 = tensor.empty() : tensor<14x256xf32>
  %d29 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d30, %x30, %xbar30, %x29 : tensor<19x256xf32>, tensor<19x256xf32>, tensor<19x256xf32>, tensor<14x256xf32>) outs(%e55 : tensor<14x256xf32>) attrs = {memsched.cost = 5.15591112644194105e+00 : f64, memsched.workspace = 2048 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<14x256xf32>
  %e56 = tensor.empty() : tensor<23x256xf32>
  %d28 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d29, %x29, %x28 : tensor<14x256xf32>, tensor<14x256xf32>, tensor<23x256xf32>) outs(%e56 : tensor<23x256xf32>) attrs = {memsched.cost = 1.15302965056276663e+00 : f64, memsched.workspace = 6144 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<23x256xf32>
  %e57 = tensor.empty() : tensor<29x256xf32>
  %d27 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d28, %x28, %xbar28, %x27 : tensor<23x256xf32>, tensor<23x256xf32>, tensor<23x256xf32>, tensor<29x256xf32>) outs(%e57 : tensor<29x256xf32>) attrs = {memsched.cost = 2.59789273577198365e+00 : f64, memsched.workspace = 11264 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<29x256xf32>
  %e58 = tensor.empty() : tensor<4x256xf32>
  %d26 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d27, %x27, %x26 : tensor<29x256xf32>, tensor<29x256xf32>, tensor<4x256xf32>) outs(%e58 : tensor<4x256xf32>) attrs = {memsched.cost = 5.97390099728716084e+00 : f64, memsched.workspace = 5120 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<4x256xf32>
  %e59 = tensor.empty() : tensor<18x256xf32>
  %d25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d26, %x26, %xbar26, %x25 : tensor<4x256xf32>, tensor<4x256xf32>, tensor<12x256xf32>, tensor<18x256xf32>) outs(%e59 : tensor<18x256xf32>) attrs = {memsched.cost = 5.41491191943146166e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<18x256xf32>
  %e60 = tensor.empty() : tensor<24x256xf32>
  %d24 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d25, %x25, %xbar25, %x24 : tensor<18x256xf32>, tensor<18x256xf32>, tensor<18x256xf32>, tensor<24x256xf32>) outs(%e60 : tensor<24x256xf32>) attrs = {memsched.cost = 8.65972532906238657e-01 : f64, memsched.workspace = 9216 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<24x256xf32>
  %e61 = tensor.empty() : tensor<27x256xf32>
  %d23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d24, %x24, %xbar24, %x23 : tensor<24x256xf32>, tensor<24x256xf32>, tensor<24x256xf32>, tensor<27x256xf32>) outs(%e61 : tensor<27x256xf32>) attrs = {memsched.cost = 1.34421668791946880e+00 : f64, memsched.workspace = 10240 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<27x256xf32>
  %e62 = tensor.empty() : tensor<26x256xf32>
  %d22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d23, %x23, %x22 : tensor<27x256xf32>, tensor<27x256xf32>, tensor<26x256xf32>) outs(%e62 : tensor<26x256xf32>) attrs = {memsched.cost = 2.39001039138034299e+00 : f64, memsched.workspace = 4096 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<26x256xf32>
  %e63 = tensor.empty() : tensor<19x256xf32>
  %d21 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d22, %x22, %xbar22, %x21 : tensor<26x256xf32>, tensor<26x256xf32>, tensor<26x256xf32>, tensor<19x256xf32>) outs(%e63 : tensor<19x256xf32>) attrs = {memsched.cost = 4.08707062114757047e+00 : f64, memsched.workspace = 6144 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<19x256xf32>
  %e64 = tensor.empty() : tensor<30x256xf32>
  %d20 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d21, %x21, %x20 : tensor<19x256xf32>, tensor<19x256xf32>, tensor<30x256xf32>) outs(%e64 : tensor<30x256xf32>) attrs = {memsched.cost = 1.09734222024800698e+00 : f64, memsched.workspace = 4096 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<30x256xf32>
  %e65 = tensor.empty() : tensor<6x256xf32>
  %d19 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d20, %x20, %xbar20, %x19 : tensor<30x256xf32>, tensor<30x256xf32>, tensor<60x256xf32>, tensor<6x256xf32>) outs(%e65 : tensor<6x256xf32>) attrs = {memsched.cost = 4.66196972523579323e+00 : f64, memsched.workspace = 12288 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<6x256xf32>
  %e66 = tensor.empty() : tensor<5x256xf32>
  %d18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d19, %x19, %xbar19, %x18 : tensor<6x256xf32>, tensor<6x256xf32>, tensor<18x256xf32>, tensor<5x256xf32>) outs(%e66 : tensor<5x256xf32>) attrs = {memsched.cost = 6.05831267539217677e+00 : f64, memsched.workspace = 3072 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<5x256xf32>
  %e67 = tensor.empty() : tensor<6x256xf32>
  %d17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d18, %x18, %x17 : tensor<5x256xf32>, tensor<5x256xf32>, tensor<6x256xf32>) outs(%e67 : tensor<6x256xf32>) attrs = {memsched.cost = 2.19366275767287577e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<6x256xf32>
  %e68 = tensor.empty() : tensor<28x256xf32>
  %d16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d17, %x17, %x16 : tensor<6x256xf32>, tensor<6x256xf32>, tensor<28x256xf32>) outs(%e68 : tensor<28x256xf32>) attrs = {memsched.cost = 7.49107674872203955e+00 : f64, memsched.workspace = 1024 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<28x256xf32>
  %e69 = tensor.empty() : tensor<22x256xf32>
  %d15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d16, %x16, %x15 : tensor<28x256xf32>, tensor<28x256xf32>, tensor<22x256xf32>) outs(%e69 : tensor<22x256xf32>) attrs = {memsched.cost = 3.67044511475424207e+00 : f64, memsched.workspace = 6144 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<22x256xf32>
  %e70 = tensor.empty() : tensor<18x256xf32>
  %d14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d15, %x15, %x14 : tensor<22x256xf32>, tensor<22x256xf32>, tensor<18x256xf32>) outs(%e70 : tensor<18x256xf32>) attrs = {memsched.cost = 4.01405539160037339e+00 : f64, memsched.workspace = 8192 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<18x256xf32>
  %e71 = tensor.empty() : tensor<19x256xf32>
  %d13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d14, %x14, %xbar14, %x13 : tensor<18x256xf32>, tensor<18x256xf32>, tensor<54x256xf32>, tensor<19x256xf32>) outs(%e71 : tensor<19x256xf32>) attrs = {memsched.cost = 8.20441253850579066e+00 : f64, memsched.workspace = 2048 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<19x256xf32>
  %e72 = tensor.empty() : tensor<23x256xf32>
  %d12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d13, %x13, %xbar13, %x12 : tensor<19x256xf32>, tensor<19x256xf32>, tensor<38x256xf32>, tensor<23x256xf32>) outs(%e72 : tensor<23x256xf32>) attrs = {memsched.cost = 4.89320080449297645e+00 : f64, memsched.workspace = 3072 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<23x256xf32>
  %e73 = tensor.empty() : tensor<25x256xf32>
  %d11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d12, %x12, %xbar12, %x11 : tensor<23x256xf32>, tensor<23x256xf32>, tensor<23x256xf32>, tensor<25x256xf32>) outs(%e73 : tensor<25x256xf32>) attrs = {memsched.cost = 2.56201588494232890e+00 : f64, memsched.workspace = 9216 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<25x256xf32>
  %e74 = tensor.empty() : tensor<16x256xf32>
  %d10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d11, %x11, %x10 : tensor<25x256xf32>, tensor<25x256xf32>, tensor<16x256xf32>) outs(%e74 : tensor<16x256xf32>) attrs = {memsched.cost = 4.53521565271806359e+00 : f64, memsched.workspace = 6144 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<16x256xf32>
  %e75 = tensor.empty() : tensor<22x256xf32>
  %d9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d10, %x10, %x9 : tensor<16x256xf32>, tensor<16x256xf32>, tensor<22x256xf32>) outs(%e75 : tensor<22x256xf32>) attrs = {memsched.cost = 2.81158285631097993e+00 : f64, memsched.workspace = 2048 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<22x256xf32>
  %e76 = tensor.empty() : tensor<2x256xf32>
  %d8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d9, %x9, %xbar9, %x8 : tensor<22x256xf32>, tensor<22x256xf32>, tensor<44x256xf32>, tensor<2x256xf32>) outs(%e76 : tensor<2x256xf32>) attrs = {memsched.cost = 6.91471312184046027e+00 : f64, memsched.workspace = 3072 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<2x256xf32>
  %e77 = tensor.empty() : tensor<6x256xf32>
  %d7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d8, %x8, %x7 : tensor<2x256xf32>, tensor<2x256xf32>, tensor<6x256xf32>) outs(%e77 : tensor<6x256xf32>) attrs = {memsched.cost = 3.68849616402192870e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<6x256xf32>
  %e78 = tensor.empty() : tensor<22x256xf32>
  %d6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d7, %x7, %xbar7, %x6 : tensor<6x256xf32>, tensor<6x256xf32>, tensor<6x256xf32>, tensor<22x256xf32>) outs(%e78 : tensor<22x256xf32>) attrs = {memsched.cost = 2.26962749834717403e+00 : f64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<22x256xf32>
  %e79 = tensor.empty() : tensor<28x256xf32>
  %d5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d6, %x6, %xbar6, %x5 : tensor<22x256xf32>, tensor<22x256xf32>, tensor<22x256xf32>, tensor<28x256xf32>) outs(%e79 : tensor<28x256xf32>) attrs = {memsched.cost = 3.09905989257441128e+00 : f64, memsched.workspace = 5120 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<28x256xf32>
  %e80 = tensor.empty() : tensor<17x256xf32>
  %d4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d5, %x5, %x4 : tensor<28x256xf32>, tensor<28x256xf32>, tensor<17x256xf32>) outs(%e80 : tensor<17x256xf32>) attrs = {memsched.cost = 6.93974793418324154e+00 : f64, memsched.workspace = 3072 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<17x256xf32>
  %e81 = tensor.empty() : tensor<22x256xf32>
  %d3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d4, %x4, %xbar4, %x3 : tensor<17x256xf32>, tensor<17x256xf32>, tensor<34x256xf32>, tensor<22x256xf32>) outs(%e81 : tensor<22x256xf32>) attrs = {memsched.cost = 4.35364254612918433e+00 : f64, memsched.workspace = 7168 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<22x256xf32>
  %e82 = tensor.empty() : tensor<17x256xf32>
  %d2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d3, %x3, %xbar3, %x2 : tensor<22x256xf32>, tensor<22x256xf32>, tensor<66x256xf32>, tensor<17x256xf32>) outs(%e82 : tensor<17x256xf32>) attrs = {memsched.cost = 6.22895750904547185e+00 : f64, memsched.workspace = 11264 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<17x256xf32>
  %e83 = tensor.empty() : tensor<32x256xf32>
  %d1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d1)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%d2, %x2, %xbar2, %x1 : tensor<17x256xf32>, tensor<17x256xf32>, tensor<51x256xf32>, tensor<32x256xf32>) outs(%e83 : tensor<32x256xf32>) attrs = {memsched.cost = 5.86269400984439226e+00 : f64, memsched.workspace = 7168 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    linalg.yield %s3 : f32
  } -> tensor<32x256xf32>
  %e84 = tensor.empty() : tensor<1x256xf32>
  %d0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%d1, %x1, %xbar1 : tensor<32x256xf32>, tensor<32x256xf32>, tensor<96x256xf32>) outs(%e84 : tensor<1x256xf32>) attrs = {memsched.cost = 1.01268523382499698e+00 : f64, memsched.workspace = 11264 : i64} {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %o0: f32):
    %s1 = arith.addf %a0, %a1 : f32
    %s2 = arith.addf %s1, %a2 : f32
    linalg.yield %s2 : f32
  } -> tensor<1x256xf32>
  return %d0 : tensor<1x256xf32>
}
