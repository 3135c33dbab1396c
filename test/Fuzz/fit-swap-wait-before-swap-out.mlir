// Found by bench/fuzz.py (crash, memsched-fit, seed 4094). A planned stall
// waits for a swap-out right before the task that releases the buffer. The
// swap-out goes after the last op of the task that issues it; where that op
// came after the release task's first op, the wait was put before the
// swap-out it waits for, and the candidate function the budget driver then
// measured did not verify (a segfault building its graph). The wait now
// follows its swap-out. No budget here is met; every function gets its
// diagnostic and no pass crashes.
// RUN: not memsched-opt %s -mlir-print-op-on-diagnostic=false "--pass-pipeline=builtin.module(func.func(memsched-fit{budget=0.3562x device=cpu}))" -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: memsched-fit: cannot meet the budget of {{.*}} for '@helper0'
// CHECK: error: memsched-fit: cannot meet the budget of {{.*}} for '@helper1'
// CHECK: error: memsched-fit: cannot meet the budget of {{.*}} for '@main'
// CHECK-NOT: Stack dump

func.func private @helper0(%arg0: tensor<4x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16x5xf32>, %arg3: tensor<4x5xf32>) -> (tensor<16x5xf32>, tensor<16x5xf32>, tensor<4x16xf32>, tensor<16x5xf32>) {
  %cst1 = arith.constant dense<[1.5, 1.5, -3.5, 1.5, 0.0, 4.0, -1.5, 1.5]> : tensor<8xf32>
  %c2 = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<4x5xf32>
  %fill4 = linalg.fill ins(%c2 : f32) outs(%e3 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %mm5 = linalg.matmul ins(%arg0, %arg2 : tensor<4x16xf32>, tensor<16x5xf32>) outs(%fill4 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %e6 = tensor.empty() : tensor<4x16xf32>
  %ew7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x16xf32>) outs(%e6 : tensor<4x16xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.negf %a0 : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  %ins8 = tensor.insert_slice %arg3 into %arg2[2, 0] [4, 5] [1, 1] : tensor<4x5xf32> into tensor<16x5xf32>
  return %ins8, %ins8, %ew7, %arg2 : tensor<16x5xf32>, tensor<16x5xf32>, tensor<4x16xf32>, tensor<16x5xf32>
}
func.func private @helper1(%arg0: tensor<4x8xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4x2xf32>, %arg3: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %e1 = tensor.empty() : tensor<2x4xf32>
  %ew2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg3 : tensor<2x4xf32>) outs(%e1 : tensor<2x4xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.negf %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %ew2, %arg2, %arg2 : tensor<2x4xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16x4xf32>, %arg3: tensor<12xf32>, %arg4: tensor<1xf32>, %arg5: tensor<1x3xf32>, %arg6: tensor<8x4xf32>, %arg7: tensor<8x6xf32>, %arg8: tensor<1xf32>, %arg9: tensor<4x8xf32>, %arg10: tensor<2x1xf32>, %arg11: tensor<1x1xf32>, %arg12: tensor<4x2xf32>, %arg13: tensor<8xf32>, %arg14: tensor<4x16xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<16x6xf32>, tensor<4x2xf32>) {
  %c1 = arith.constant -2.0 : f32
  %e2 = tensor.empty() : tensor<4x8xf32>
  %fill3 = linalg.fill ins(%c1 : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c4 = arith.constant 0.0 : f32
  %e5 = tensor.empty() : tensor<16x8xf32>
  %fill6 = linalg.fill ins(%c4 : f32) outs(%e5 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %mm7 = linalg.matmul ins(%arg2, %fill3 : tensor<16x4xf32>, tensor<4x8xf32>) outs(%fill6 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %c8 = arith.constant 1.5 : f32
  %e9 = tensor.empty() : tensor<12x1xf32>
  %fill10 = linalg.fill ins(%c8 : f32) outs(%e9 : tensor<12x1xf32>) -> tensor<12x1xf32>
  %e11 = tensor.empty() : tensor<16x8xf32>
  %ew12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm7 : tensor<16x8xf32>) outs(%e11 : tensor<16x8xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.negf %a0 : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  %ins13 = tensor.insert_slice %arg4 into %arg1[14] [1] [1] : tensor<1xf32> into tensor<16xf32>
  %e14 = tensor.empty() : tensor<16xf32>
  %ew15 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %ins13 : tensor<16xf32>, tensor<16xf32>) outs(%e14 : tensor<16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %c16 = arith.constant 0.0 : f32
  %e17 = tensor.empty() : tensor<12x3xf32>
  %fill18 = linalg.fill ins(%c16 : f32) outs(%e17 : tensor<12x3xf32>) -> tensor<12x3xf32>
  %mm19 = linalg.matmul ins(%fill10, %arg5 : tensor<12x1xf32>, tensor<1x3xf32>) outs(%fill18 : tensor<12x3xf32>) -> tensor<12x3xf32>
  %c20 = arith.constant -2.0 : f32
  %e21 = tensor.empty() : tensor<8xf32>
  %fill22 = linalg.fill ins(%c20 : f32) outs(%e21 : tensor<8xf32>) -> tensor<8xf32>
  %e23 = tensor.empty() : tensor<16xf32>
  %nm24 = linalg.sub ins(%ins13, %arg1 : tensor<16xf32>, tensor<16xf32>) outs(%e23 : tensor<16xf32>) -> tensor<16xf32>
  %c25 = arith.constant 0.0 : f32
  %e26 = tensor.empty() : tensor<16x4xf32>
  %fill27 = linalg.fill ins(%c25 : f32) outs(%e26 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %mm28 = linalg.matmul ins(%ew12, %arg6 : tensor<16x8xf32>, tensor<8x4xf32>) outs(%fill27 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %e29 = tensor.empty() : tensor<16x4xf32>
  %ew30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm28 : tensor<16x4xf32>) outs(%e29 : tensor<16x4xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.negf %a0 : f32
    linalg.yield %r : f32
  } -> tensor<16x4xf32>
  %cst31 = arith.constant dense<-1.5> : tensor<16xf32>
  %c32 = arith.constant 0.0 : f32
  %e33 = tensor.empty() : tensor<16xf32>
  %fill34 = linalg.fill ins(%c32 : f32) outs(%e33 : tensor<16xf32>) -> tensor<16xf32>
  %red35 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%mm28 : tensor<16x4xf32>) outs(%fill34 : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %c36 = arith.constant 0.0 : f32
  %e37 = tensor.empty() : tensor<4xf32>
  %fill38 = linalg.fill ins(%c36 : f32) outs(%e37 : tensor<4xf32>) -> tensor<4xf32>
  %red39 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%fill27 : tensor<16x4xf32>) outs(%fill38 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %exp40 = tensor.expand_shape %fill38 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %c41 = arith.constant 0.0 : f32
  %e42 = tensor.empty() : tensor<8xf32>
  %fill43 = linalg.fill ins(%c41 : f32) outs(%e42 : tensor<8xf32>) -> tensor<8xf32>
  %red44 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%fill6 : tensor<16x8xf32>) outs(%fill43 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %c45 = arith.constant 0.0 : f32
  %e46 = tensor.empty() : tensor<16x6xf32>
  %fill47 = linalg.fill ins(%c45 : f32) outs(%e46 : tensor<16x6xf32>) -> tensor<16x6xf32>
  %mm48 = linalg.matmul ins(%fill6, %arg7 : tensor<16x8xf32>, tensor<8x6xf32>) outs(%fill47 : tensor<16x6xf32>) -> tensor<16x6xf32>
  %cst49 = arith.constant dense<[-3.5, 3.5, -1.5, -2.0, -1.5, 1.5, 0.0, -3.5, 0.0, -2.0, -4.0, -3.5, -2.0, 4.0, -2.0, -1.5]> : tensor<16xf32>
  %sl50 = tensor.extract_slice %mm48[9, 0] [3, 3] [1, 2] : tensor<16x6xf32> to tensor<3x3xf32>
  %e51 = tensor.empty() : tensor<12xf32>
  %ew52 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg3 : tensor<12xf32>) outs(%e51 : tensor<12xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<12xf32>
  %c53 = arith.constant 1.5 : f32
  %e54 = tensor.empty() : tensor<6xf32>
  %fill55 = linalg.fill ins(%c53 : f32) outs(%e54 : tensor<6xf32>) -> tensor<6xf32>
  %cat56 = tensor.concat dim(0) %fill55, %ew52 : (tensor<6xf32>, tensor<12xf32>) -> tensor<18xf32>
  %sl57 = tensor.extract_slice %fill55[1] [4] [1] : tensor<6xf32> to tensor<4xf32>
  %exp58 = tensor.expand_shape %cat56 [[0, 1]] output_shape [1, 18] : tensor<18xf32> into tensor<1x18xf32>
  %sl59 = tensor.extract_slice %sl57[1] [3] [1] : tensor<4xf32> to tensor<3xf32>
  %cat60 = tensor.concat dim(0) %arg8, %sl59 : (tensor<1xf32>, tensor<3xf32>) -> tensor<4xf32>
  %cst61 = arith.constant dense<-1.5> : tensor<18x12xf32>
  %c62 = arith.constant 0.0 : f32
  %e63 = tensor.empty() : tensor<1x12xf32>
  %fill64 = linalg.fill ins(%c62 : f32) outs(%e63 : tensor<1x12xf32>) -> tensor<1x12xf32>
  %mm65 = linalg.matmul ins(%exp58, %cst61 : tensor<1x18xf32>, tensor<18x12xf32>) outs(%fill64 : tensor<1x12xf32>) -> tensor<1x12xf32>
  %cst66 = arith.constant dense<-2.0> : tensor<8x4xf32>
  %e67 = tensor.empty() : tensor<1x12xf32>
  %ew68 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%fill64 : tensor<1x12xf32>) outs(%e67 : tensor<1x12xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<1x12xf32>
  %col69 = tensor.collapse_shape %cst66 [[0, 1]] : tensor<8x4xf32> into tensor<32xf32>
  %c70 = arith.constant -1.5 : f32
  %e71 = tensor.empty() : tensor<4x2xf32>
  %fill72 = linalg.fill ins(%c70 : f32) outs(%e71 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %c73 = arith.constant 0.0 : f32
  %e74 = tensor.empty() : tensor<2x4xf32>
  %fill75 = linalg.fill ins(%c73 : f32) outs(%e74 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %call76:3 = func.call @helper1(%fill3, %red39, %fill72, %fill75) : (tensor<4x8xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<4x2xf32>, tensor<4x2xf32>)
  %c79 = arith.constant 2.0 : f32
  %e80 = tensor.empty() : tensor<8xf32>
  %fill81 = linalg.fill ins(%c79 : f32) outs(%e80 : tensor<8xf32>) -> tensor<8xf32>
  %c82 = arith.constant 0.0 : f32
  %e83 = tensor.empty() : tensor<16x4xf32>
  %fill84 = linalg.fill ins(%c82 : f32) outs(%e83 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %mm85 = linalg.matmul ins(%fill6, %arg6 : tensor<16x8xf32>, tensor<8x4xf32>) outs(%fill84 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %sl86 = tensor.extract_slice %fill84[2, 0] [12, 2] [1, 1] : tensor<16x4xf32> to tensor<12x2xf32>
  %cst87 = arith.constant dense<0.0> : tensor<7x3xf32>
  %ins88 = tensor.insert_slice %cst87 into %arg7[1, 3] [7, 3] [1, 1] : tensor<7x3xf32> into tensor<8x6xf32>
  %e89 = tensor.empty() : tensor<4x2xf32>
  %ew90 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%call76#2, %call76#2 : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e89 : tensor<4x2xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.maximumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  %c91 = arith.constant 2.0 : f32
  %e92 = tensor.empty() : tensor<4x2xf32>
  %fill93 = linalg.fill ins(%c91 : f32) outs(%e92 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %call94:3 = func.call @helper1(%arg9, %sl57, %fill93, %call76#0) : (tensor<4x8xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<4x2xf32>, tensor<4x2xf32>)
  %sl97 = tensor.extract_slice %call94#1[1, 1] [1, 1] [1, 1] : tensor<4x2xf32> to tensor<1x1xf32>
  %e98 = tensor.empty() : tensor<1x1xf32>
  %ew99 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sl97 : tensor<1x1xf32>) outs(%e98 : tensor<1x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<1x1xf32>
  %e100 = tensor.empty() : tensor<4x2xf32>
  %nm101 = linalg.mul ins(%call94#2, %fill72 : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e100 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %e102 = tensor.empty() : tensor<2x4xf32>
  %tr103 = linalg.transpose ins(%nm101 : tensor<4x2xf32>) outs(%e102 : tensor<2x4xf32>) permutation = [1, 0]
  %e104 = tensor.empty() : tensor<4x16xf32>
  %tr105 = linalg.transpose ins(%fill27 : tensor<16x4xf32>) outs(%e104 : tensor<4x16xf32>) permutation = [1, 0]
  %col106 = tensor.collapse_shape %tr105 [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  %e107 = tensor.empty() : tensor<7x3xf32>
  %ew108 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cst87 : tensor<7x3xf32>) outs(%e107 : tensor<7x3xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.negf %a0 : f32
    linalg.yield %r : f32
  } -> tensor<7x3xf32>
  %c109 = arith.constant 0.0 : f32
  %e110 = tensor.empty() : tensor<4xf32>
  %fill111 = linalg.fill ins(%c109 : f32) outs(%e110 : tensor<4xf32>) -> tensor<4xf32>
  %red112 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%tr103 : tensor<2x4xf32>) outs(%fill111 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %c113 = arith.constant 2.0 : f32
  %e114 = tensor.empty() : tensor<5x8xf32>
  %fill115 = linalg.fill ins(%c113 : f32) outs(%e114 : tensor<5x8xf32>) -> tensor<5x8xf32>
  %e116 = tensor.empty() : tensor<4xf32>
  %ew117 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%fill111 : tensor<4xf32>) outs(%e116 : tensor<4xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.negf %a0 : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %cst118 = arith.constant dense<[[0.0, 4.0, -1.5, -4.0], [3.5, -3.5, -2.0, 1.5]]> : tensor<2x4xf32>
  %call119:3 = func.call @helper1(%arg9, %red39, %call76#2, %cst118) : (tensor<4x8xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<4x2xf32>, tensor<4x2xf32>)
  %c122 = arith.constant 0.0 : f32
  %e123 = tensor.empty() : tensor<4x1xf32>
  %fill124 = linalg.fill ins(%c122 : f32) outs(%e123 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %mm125 = linalg.matmul ins(%call119#1, %arg10 : tensor<4x2xf32>, tensor<2x1xf32>) outs(%fill124 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sl126 = tensor.extract_slice %mm125[0, 0] [4, 1] [1, 1] : tensor<4x1xf32> to tensor<4x1xf32>
  %c127 = arith.constant 0.0 : f32
  %e128 = tensor.empty() : tensor<4x3xf32>
  %fill129 = linalg.fill ins(%c127 : f32) outs(%e128 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %mm130 = linalg.matmul ins(%sl126, %arg5 : tensor<4x1xf32>, tensor<1x3xf32>) outs(%fill129 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %e131 = tensor.empty() : tensor<4x8xf32>
  %ew132 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%fill3 : tensor<4x8xf32>) outs(%e131 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.negf %a0 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %c133 = arith.constant 0.0 : f32
  %e134 = tensor.empty() : tensor<1xf32>
  %fill135 = linalg.fill ins(%c133 : f32) outs(%e134 : tensor<1xf32>) -> tensor<1xf32>
  %red136 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%sl97 : tensor<1x1xf32>) outs(%fill135 : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  %cat137 = tensor.concat dim(0) %cst49, %red136 : (tensor<16xf32>, tensor<1xf32>) -> tensor<17xf32>
  %e138 = tensor.empty() : tensor<4xf32>
  %ew139 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sl57, %ew117 : tensor<4xf32>, tensor<4xf32>) outs(%e138 : tensor<4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.minimumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %col140 = tensor.collapse_shape %ew132 [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e141 = tensor.empty() : tensor<16xf32>
  %ew142 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%fill34, %cst31 : tensor<16xf32>, tensor<16xf32>) outs(%e141 : tensor<16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.maximumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e143 = tensor.empty() : tensor<4x2xf32>
  %nm144 = linalg.sub ins(%nm101, %call119#2 : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e143 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %sl145 = tensor.extract_slice %col140[9] [17] [1] : tensor<32xf32> to tensor<17xf32>
  %cst146 = arith.constant dense<[2.0, -2.0, 3.5, 0.0]> : tensor<4xf32>
  %cst147 = arith.constant dense<3.5> : tensor<2x4xf32>
  %call148:3 = func.call @helper1(%arg9, %cst146, %ew90, %cst147) : (tensor<4x8xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<4x2xf32>, tensor<4x2xf32>)
  %col151 = tensor.collapse_shape %ew99 [[0, 1]] : tensor<1x1xf32> into tensor<1xf32>
  %e152 = tensor.empty() : tensor<1xf32>
  %ew153 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%col151, %fill135 : tensor<1xf32>, tensor<1xf32>) outs(%e152 : tensor<1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.minimumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  %ins154 = tensor.insert_slice %arg11 into %ew99[0, 0] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<1x1xf32>
  %c155 = arith.constant 0.0 : f32
  %e156 = tensor.empty() : tensor<2x16xf32>
  %fill157 = linalg.fill ins(%c155 : f32) outs(%e156 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %mm158 = linalg.matmul ins(%call148#0, %tr105 : tensor<2x4xf32>, tensor<4x16xf32>) outs(%fill157 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %call159:3 = func.call @helper1(%fill3, %red112, %arg12, %tr103) : (tensor<4x8xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<4x2xf32>, tensor<4x2xf32>)
  %sl162 = tensor.extract_slice %call159#2[0, 0] [1, 2] [1, 1] : tensor<4x2xf32> to tensor<1x2xf32>
  %c163 = arith.constant 0.0 : f32
  %e164 = tensor.empty() : tensor<4xf32>
  %fill165 = linalg.fill ins(%c163 : f32) outs(%e164 : tensor<4xf32>) -> tensor<4xf32>
  %red166 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%call159#0 : tensor<2x4xf32>) outs(%fill165 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %col167 = tensor.collapse_shape %tr105 [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  %cat168 = tensor.concat dim(0) %red166, %ew117 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  %c169 = arith.constant -1.5 : f32
  %e170 = tensor.empty() : tensor<1x8xf32>
  %fill171 = linalg.fill ins(%c169 : f32) outs(%e170 : tensor<1x8xf32>) -> tensor<1x8xf32>
  %c172 = arith.constant -2.0 : f32
  %e173 = tensor.empty() : tensor<1x4xf32>
  %fill174 = linalg.fill ins(%c172 : f32) outs(%e173 : tensor<1x4xf32>) -> tensor<1x4xf32>
  %e175 = tensor.empty() : tensor<8xf32>
  %nm176 = linalg.mul ins(%cat168, %arg13 : tensor<8xf32>, tensor<8xf32>) outs(%e175 : tensor<8xf32>) -> tensor<8xf32>
  %ins177 = tensor.insert_slice %red136 into %ew153[0] [1] [1] : tensor<1xf32> into tensor<1xf32>
  %e178 = tensor.empty() : tensor<3xf32>
  %ew179 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sl59 : tensor<3xf32>) outs(%e178 : tensor<3xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.negf %a0 : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  %c180 = arith.constant 0.0 : f32
  %e181 = tensor.empty() : tensor<1x16xf32>
  %fill182 = linalg.fill ins(%c180 : f32) outs(%e181 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %mm183 = linalg.matmul ins(%fill174, %arg14 : tensor<1x4xf32>, tensor<4x16xf32>) outs(%fill182 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %e184 = tensor.empty() : tensor<4x2xf32>
  %ew185 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%call148#1 : tensor<4x2xf32>) outs(%e184 : tensor<4x2xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.maximumf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  %col186 = tensor.collapse_shape %fill182 [[0, 1]] : tensor<1x16xf32> into tensor<16xf32>
  %e187 = tensor.empty() : tensor<2x4xf32>
  %tr188 = linalg.transpose ins(%call148#1 : tensor<4x2xf32>) outs(%e187 : tensor<2x4xf32>) permutation = [1, 0]
  %cst189 = arith.constant dense<[-4.0, 0.0, 2.0, -4.0, 2.0, 4.0, -4.0, -3.5]> : tensor<8xf32>
  return %cst189, %red44, %fill47, %call148#1 : tensor<8xf32>, tensor<8xf32>, tensor<16x6xf32>, tensor<4x2xf32>
}
