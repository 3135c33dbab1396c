// Found by bench/fuzz.py (budget, memsched-concat-in-place then memsched-fit
// at 0.7973x, seed 13537; reduced). Decomposing the concatenations alone
// planned the arena 4 B larger here; the rewrites beat the decomposed
// function but not the one given, and were kept: a budget relative to the
// input was then relative to a larger figure. The pass now keeps its
// rewrites only if they beat the function as it came.
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false \
// RUN:   --pass-pipeline='builtin.module(memsched-report{format=json output=-},func.func(memsched-concat-in-place),memsched-report{format=json output=-})' \
// RUN:   -o /dev/null | FileCheck %s
// CHECK: "planned_bytes": [[PLANNED:[0-9]+]]
// CHECK: "planned_bytes": [[PLANNED]]{{,?$}}

func.func @main(%arg0: tensor<2x2xf32>, %arg2: tensor<16x16xf32>, %arg3: tensor<8x8xf32>, %arg4: tensor<1x1xf32>, %arg5: tensor<5x3xf32>, %arg7: tensor<16x2xf32>, %arg8: tensor<1x8xf32>, %arg9: tensor<1x2xf32>, %arg12: tensor<8xf32>, %arg13: tensor<12x12xf32>, %arg14: tensor<11x3xf32>, %arg23: tensor<4x6xf32>, %arg53: tensor<1x1xf32>, %arg62: tensor<16x8xf32>, %arg72: tensor<1xf32>, %arg88: tensor<1x8xf32>, %arg92: tensor<6x1xf32>, %arg112: tensor<3xf32>, %arg113: tensor<1x1xf32>, %arg119: tensor<1x1xf32>, %arg120: tensor<1x1xf32>, %arg124: tensor<2x8xf32>, %arg129: tensor<21x12xf32>, %arg131: tensor<1x6xf32>, %arg133: tensor<2x12xf32>, %arg143: tensor<2xf32>, %arg149: tensor<5x2xf32>, %arg155: tensor<1x1xf32>, %arg178: tensor<4x6xf32>, %arg180: tensor<6x4xf32>, %arg183: tensor<1x4xf32>, %arg184: tensor<1x4xf32>, %arg200: tensor<10xf32>, %arg202: tensor<6x5xf32>, %arg212: tensor<8xf32>, %arg221: tensor<1xf32>, %arg224: tensor<1xf32>, %arg232: tensor<8x8xf32>, %arg233: tensor<8xf32>, %arg235: tensor<8xf32>, %arg252: tensor<5x21xf32>, %arg255: tensor<4x1xf32>, %arg259: tensor<1x8xf32>, %arg270: tensor<2x10xf32>, %arg299: tensor<4x8xf32>, %arg319: tensor<8x2xf32>, %arg328: tensor<8x8xf32>, %arg335: tensor<4x6xf32>, %arg342: tensor<2xf32>, %arg346: tensor<2x2xf32>, %arg352: tensor<8x8xf32>, %arg354: tensor<4xf32>, %arg355: tensor<4x1xf32>, %arg357: tensor<8x8xf32>, %arg364: tensor<2x10xf32>, %arg367: tensor<12x6xf32>, %arg372: tensor<4x12xf32>, %arg381: tensor<1x2xf32>, %arg382: tensor<12x18xf32>, %arg395: tensor<18x3xf32>, %arg412: tensor<4x6xf32>) -> (tensor<4x6xf32>) {
  %e18 = tensor.empty() : tensor<8x8xf32>
  %ew19 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg3, %arg235 : tensor<8x8xf32>, tensor<8xf32>) outs(%e18 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.maximumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %tr23 = linalg.transpose ins(%arg3 : tensor<8x8xf32>) outs(%arg232 : tensor<8x8xf32>) permutation = [1, 0]
  %e43 = tensor.empty() : tensor<1xf32>
  %ew44 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg224, %arg221 : tensor<1xf32>, tensor<1xf32>) outs(%e43 : tensor<1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  %c53 = arith.constant 0.0 : f32
  %e54 = tensor.empty() : tensor<4x1xf32>
  %fill55 = linalg.fill ins(%c53 : f32) outs(%e54 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %mm56 = linalg.matmul ins(%arg355, %arg4 : tensor<4x1xf32>, tensor<1x1xf32>) outs(%fill55 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %cat62 = tensor.concat dim(0) %arg212, %ew44 : (tensor<8xf32>, tensor<1xf32>) -> tensor<9xf32>
  %ins72 = tensor.insert_slice %arg5 into %arg3[1, 0] [5, 3] [1, 1] : tensor<5x3xf32> into tensor<8x8xf32>
  %c76 = arith.constant 2.0 : f32
  %e77 = tensor.empty() : tensor<1x2xf32>
  %fill78 = linalg.fill ins(%c76 : f32) outs(%e77 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mm89 = linalg.matmul ins(%arg372, %arg367 : tensor<4x12xf32>, tensor<12x6xf32>) outs(%arg412 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %c91 = arith.constant 0.0 : f32
  %e92 = tensor.empty() : tensor<6xf32>
  %fill93 = linalg.fill ins(%c91 : f32) outs(%e92 : tensor<6xf32>) -> tensor<6xf32>
  %c96 = arith.constant 0.0 : f32
  %e97 = tensor.empty() : tensor<4x5xf32>
  %fill98 = linalg.fill ins(%c96 : f32) outs(%e97 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %mm99 = linalg.matmul ins(%arg412, %arg202 : tensor<4x6xf32>, tensor<6x5xf32>) outs(%fill98 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %c100 = arith.constant 0.0 : f32
  %e101 = tensor.empty() : tensor<3x3xf32>
  %fill102 = linalg.fill ins(%c100 : f32) outs(%e101 : tensor<3x3xf32>) -> tensor<3x3xf32>
  %c105 = arith.constant -1.5 : f32
  %e106 = tensor.empty() : tensor<3x16xf32>
  %fill107 = linalg.fill ins(%c105 : f32) outs(%e106 : tensor<3x16xf32>) -> tensor<3x16xf32>
  %e108 = tensor.empty() : tensor<8x8xf32>
  %ew109 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%tr23, %arg328 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e108 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %ew111 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ew109, %tr23 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%arg352 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.minimumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %sl115 = tensor.extract_slice %fill98[1, 0] [2, 2] [2, 1] : tensor<4x5xf32> to tensor<2x2xf32>
  %e119 = tensor.empty() : tensor<2x2xf32>
  %nm120 = linalg.add ins(%sl115, %arg0 : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e119 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %c121 = arith.constant -2.0 : f32
  %e122 = tensor.empty() : tensor<2x8xf32>
  %fill123 = linalg.fill ins(%c121 : f32) outs(%e122 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %cat124 = tensor.concat dim(1) %fill123, %arg346 : (tensor<2x8xf32>, tensor<2x2xf32>) -> tensor<2x10xf32>
  %e126 = tensor.empty() : tensor<2x10xf32>
  %ew127 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cat124, %arg200 : tensor<2x10xf32>, tensor<10xf32>) outs(%e126 : tensor<2x10xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x10xf32>
  %nm129 = linalg.mul ins(%cat124, %cat124 : tensor<2x10xf32>, tensor<2x10xf32>) outs(%arg270 : tensor<2x10xf32>) -> tensor<2x10xf32>
  %ew133 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ew127, %arg200 : tensor<2x10xf32>, tensor<10xf32>) outs(%arg364 : tensor<2x10xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.minimumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x10xf32>
  %c134 = arith.constant 0.0 : f32
  %e135 = tensor.empty() : tensor<8x16xf32>
  %fill136 = linalg.fill ins(%c134 : f32) outs(%e135 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e176 = tensor.empty() : tensor<1x2xf32>
  %ew177 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%fill78, %fill78 : tensor<1x2xf32>, tensor<1x2xf32>) outs(%e176 : tensor<1x2xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2xf32>
  %e182 = tensor.empty() : tensor<2x8xf32>
  %tr183 = linalg.transpose ins(%arg319 : tensor<8x2xf32>) outs(%e182 : tensor<2x8xf32>) permutation = [1, 0]
  %red192 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%tr183 : tensor<2x8xf32>) outs(%arg342 : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %c193 = arith.constant 1.5 : f32
  %e194 = tensor.empty() : tensor<1xf32>
  %fill195 = linalg.fill ins(%c193 : f32) outs(%e194 : tensor<1xf32>) -> tensor<1xf32>
  %e209 = tensor.empty() : tensor<1x8xf32>
  %ew210 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg259, %arg8 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%e209 : tensor<1x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x8xf32>
  %cat213 = tensor.concat dim(1) %arg184, %arg9 : (tensor<1x4xf32>, tensor<1x2xf32>) -> tensor<1x6xf32>
  %e214 = tensor.empty() : tensor<1x4xf32>
  %ew215 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg183, %arg183 : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e214 : tensor<1x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x4xf32>
  %col216 = tensor.collapse_shape %arg3 [[0, 1]] : tensor<8x8xf32> into tensor<64xf32>
  %e219 = tensor.empty() : tensor<1x4xf32>
  %ew220 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ew215, %arg354 : tensor<1x4xf32>, tensor<4xf32>) outs(%e219 : tensor<1x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x4xf32>
  %tr227 = linalg.transpose ins(%arg180 : tensor<6x4xf32>) outs(%arg178 : tensor<4x6xf32>) permutation = [1, 0]
  %cat286 = tensor.concat dim(0) %sl115, %arg149 : (tensor<2x2xf32>, tensor<5x2xf32>) -> tensor<7x2xf32>
  %e294 = tensor.empty() : tensor<2xf32>
  %ew295 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg342, %arg143 : tensor<2xf32>, tensor<2xf32>) outs(%e294 : tensor<2xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %e305 = tensor.empty() : tensor<16x16xf32>
  %ew306 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg2, %arg2 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e305 : tensor<16x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<16x16xf32>
  %exp308 = tensor.expand_shape %fill195 [[0, 1]] output_shape [1, 1] : tensor<1xf32> into tensor<1x1xf32>
  %c309 = arith.constant -3.5 : f32
  %e310 = tensor.empty() : tensor<16x12xf32>
  %fill311 = linalg.fill ins(%c309 : f32) outs(%e310 : tensor<16x12xf32>) -> tensor<16x12xf32>
  %c312 = arith.constant 0.0 : f32
  %e313 = tensor.empty() : tensor<16x12xf32>
  %fill314 = linalg.fill ins(%c312 : f32) outs(%e313 : tensor<16x12xf32>) -> tensor<16x12xf32>
  %mm315 = linalg.matmul ins(%ew306, %fill311 : tensor<16x16xf32>, tensor<16x12xf32>) outs(%fill314 : tensor<16x12xf32>) -> tensor<16x12xf32>
  %cat317 = tensor.concat dim(0) %arg133, %fill311 : (tensor<2x12xf32>, tensor<16x12xf32>) -> tensor<18x12xf32>
  %mm321 = linalg.matmul ins(%ew215, %mm89 : tensor<1x4xf32>, tensor<4x6xf32>) outs(%arg131 : tensor<1x6xf32>) -> tensor<1x6xf32>
  %exp322 = tensor.expand_shape %red192 [[0, 1]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
  %e325 = tensor.empty() : tensor<1x2xf32>
  %nm326 = linalg.max ins(%exp322, %fill78 : tensor<1x2xf32>, tensor<1x2xf32>) outs(%e325 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %e327 = tensor.empty() : tensor<12x21xf32>
  %tr328 = linalg.transpose ins(%arg129 : tensor<21x12xf32>) outs(%e327 : tensor<12x21xf32>) permutation = [1, 0]
  %exp334 = tensor.expand_shape %ew295 [[0, 1]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
  %e336 = tensor.empty() : tensor<1x2xf32>
  %ew337 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%exp334, %arg9 : tensor<1x2xf32>, tensor<1x2xf32>) outs(%e336 : tensor<1x2xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.minimumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2xf32>
  %ew339 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%tr183, %arg12 : tensor<2x8xf32>, tensor<8xf32>) outs(%arg124 : tensor<2x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %nm347 = linalg.mul ins(%ew19, %ins72 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%arg357 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c348 = arith.constant 0.0 : f32
  %e349 = tensor.empty() : tensor<16x8xf32>
  %fill350 = linalg.fill ins(%c348 : f32) outs(%e349 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %mm351 = linalg.matmul ins(%arg7, %fill123 : tensor<16x2xf32>, tensor<2x8xf32>) outs(%fill350 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %ins353 = tensor.insert_slice %arg120 into %cat213[0, 0] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<1x6xf32>
  %ew355 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg120, %exp308 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%arg119 : tensor<1x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x1xf32>
  %tr357 = linalg.transpose ins(%cat317 : tensor<18x12xf32>) outs(%arg382 : tensor<12x18xf32>) permutation = [1, 0]
  %e359 = tensor.empty() : tensor<12x18xf32>
  %ew360 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%tr357, %tr357 : tensor<12x18xf32>, tensor<12x18xf32>) outs(%e359 : tensor<12x18xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<12x18xf32>
  %e363 = tensor.empty() : tensor<18x12xf32>
  %tr364 = linalg.transpose ins(%tr357 : tensor<12x18xf32>) outs(%e363 : tensor<18x12xf32>) permutation = [1, 0]
  %c366 = arith.constant 0.0 : f32
  %e367 = tensor.empty() : tensor<18x12xf32>
  %fill368 = linalg.fill ins(%c366 : f32) outs(%e367 : tensor<18x12xf32>) -> tensor<18x12xf32>
  %mm369 = linalg.matmul ins(%tr364, %arg13 : tensor<18x12xf32>, tensor<12x12xf32>) outs(%fill368 : tensor<18x12xf32>) -> tensor<18x12xf32>
  %sl370 = tensor.extract_slice %fill368[0, 0] [18, 11] [1, 1] : tensor<18x12xf32> to tensor<18x11xf32>
  %c371 = arith.constant 0.0 : f32
  %e372 = tensor.empty() : tensor<12xf32>
  %fill373 = linalg.fill ins(%c371 : f32) outs(%e372 : tensor<12xf32>) -> tensor<12xf32>
  %e377 = tensor.empty() : tensor<1x1xf32>
  %tr378 = linalg.transpose ins(%arg113 : tensor<1x1xf32>) outs(%e377 : tensor<1x1xf32>) permutation = [1, 0]
  %e380 = tensor.empty() : tensor<3xf32>
  %nm381 = linalg.sub ins(%arg112, %arg112 : tensor<3xf32>, tensor<3xf32>) outs(%e380 : tensor<3xf32>) -> tensor<3xf32>
  %ew385 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ew337, %ew177 : tensor<1x2xf32>, tensor<1x2xf32>) outs(%arg381 : tensor<1x2xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2xf32>
  %c390 = arith.constant 0.0 : f32
  %e391 = tensor.empty() : tensor<1xf32>
  %fill392 = linalg.fill ins(%c390 : f32) outs(%e391 : tensor<1xf32>) -> tensor<1xf32>
  %tr395 = linalg.transpose ins(%ew220 : tensor<1x4xf32>) outs(%arg255 : tensor<4x1xf32>) permutation = [1, 0]
  %c399 = arith.constant 3.5 : f32
  %e400 = tensor.empty() : tensor<12x3xf32>
  %fill401 = linalg.fill ins(%c399 : f32) outs(%e400 : tensor<12x3xf32>) -> tensor<12x3xf32>
  %c402 = arith.constant 0.0 : f32
  %e403 = tensor.empty() : tensor<2xf32>
  %fill404 = linalg.fill ins(%c402 : f32) outs(%e403 : tensor<2xf32>) -> tensor<2xf32>
  %mm409 = linalg.matmul ins(%sl370, %arg14 : tensor<18x11xf32>, tensor<11x3xf32>) outs(%arg395 : tensor<18x3xf32>) -> tensor<18x3xf32>
  %c410 = arith.constant 0.0 : f32
  %e411 = tensor.empty() : tensor<11x1xf32>
  %fill412 = linalg.fill ins(%c410 : f32) outs(%e411 : tensor<11x1xf32>) -> tensor<11x1xf32>
  %c416 = arith.constant -2.0 : f32
  %e417 = tensor.empty() : tensor<6x1xf32>
  %fill418 = linalg.fill ins(%c416 : f32) outs(%e417 : tensor<6x1xf32>) -> tensor<6x1xf32>
  %ins420 = tensor.insert_slice %ew385 into %ew337[0, 0] [1, 2] [1, 1] : tensor<1x2xf32> into tensor<1x2xf32>
  %c425 = arith.constant 0.0 : f32
  %e426 = tensor.empty() : tensor<1x5xf32>
  %fill427 = linalg.fill ins(%c425 : f32) outs(%e426 : tensor<1x5xf32>) -> tensor<1x5xf32>
  %e435 = tensor.empty() : tensor<4x6xf32>
  %ew436 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg335 : tensor<4x6xf32>) outs(%e435 : tensor<4x6xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %e437 = tensor.empty() : tensor<4x8xf32>
  %ew438 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg299 : tensor<4x8xf32>) outs(%e437 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %e439 = tensor.empty() : tensor<4x6xf32>
  %nm440 = linalg.sub ins(%arg335, %tr227 : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e439 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %c441 = arith.constant -1.5 : f32
  %e442 = tensor.empty() : tensor<8x12xf32>
  %fill443 = linalg.fill ins(%c441 : f32) outs(%e442 : tensor<8x12xf32>) -> tensor<8x12xf32>
  %c448 = arith.constant 0.0 : f32
  %e449 = tensor.empty() : tensor<8x2xf32>
  %fill450 = linalg.fill ins(%c448 : f32) outs(%e449 : tensor<8x2xf32>) -> tensor<8x2xf32>
  %e453 = tensor.empty() : tensor<6x1xf32>
  %ew454 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg92, %arg92 : tensor<6x1xf32>, tensor<6x1xf32>) outs(%e453 : tensor<6x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.maximumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<6x1xf32>
  %c457 = arith.constant 0.0 : f32
  %e458 = tensor.empty() : tensor<8x6xf32>
  %fill459 = linalg.fill ins(%c457 : f32) outs(%e458 : tensor<8x6xf32>) -> tensor<8x6xf32>
  %ew464 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg8, %ew210 : tensor<1x8xf32>, tensor<1x8xf32>) outs(%arg88 : tensor<1x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.maximumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x8xf32>
  %ins473 = tensor.insert_slice %arg252 into %tr328[2, 0] [5, 21] [1, 1] : tensor<5x21xf32> into tensor<12x21xf32>
  %ins485 = tensor.insert_slice %arg4 into %fill55[1, 0] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<4x1xf32>
  %red511 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%mm56 : tensor<4x1xf32>) outs(%arg72 : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  %ew537 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%fill350, %arg233 : tensor<16x8xf32>, tensor<8xf32>) outs(%arg62 : tensor<16x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.minimumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  %sl549 = tensor.extract_slice %nm326[0, 1] [1, 1] [1, 1] : tensor<1x2xf32> to tensor<1x1xf32>
  %nm551 = linalg.sub ins(%sl549, %arg155 : tensor<1x1xf32>, tensor<1x1xf32>) outs(%arg53 : tensor<1x1xf32>) -> tensor<1x1xf32>
  return %arg23 : tensor<4x6xf32>
}
