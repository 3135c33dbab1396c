// Found by bench/fuzz.py (plan, -test-memsched-check-bufferization-model
// =upper-bound, --kind control-flow, seed 7646). The second scf.if's else
// branch yields a matmul written in place into its fill (%fill5051).
// Bufferization copies that fill for the matmul and yields the copy, so
// the fill stays in the branch, planned with the other allocations (at
// 256 B alignment). The body model counted the fill outside the body's
// arena at its raw size, as an allocation that escapes: 448 B against 548
// B. A write in place into an allocation that a choice yields now keeps
// the allocation in the body's plan, live to the end of the branch.
// RUN: memsched-opt %s -test-memsched-check-bufferization-model=upper-bound -o /dev/null | FileCheck %s

// CHECK: bufferization-model @main scf.if body predicted 328 bufferized 328
// CHECK: bufferization-model @main scf.for body predicted {{[0-9]+}} bufferized 448
// CHECK: bufferization-model @main scf.if body predicted {{[0-9]+}} bufferized 548

func.func @main(%arg0: tensor<6x6xf32>, %arg1: tensor<12xf32>, %arg2: tensor<8x3xf32>) -> (tensor<8x3xf32>, tensor<12xf32>) {
  %e1 = tensor.empty() : tensor<12xf32>
  %ew2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %arg1 : tensor<12xf32>, tensor<12xf32>) outs(%e1 : tensor<12xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.maximumf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<12xf32>
  %flag4 = arith.constant true
  %cf3 = scf.if %flag4 -> (tensor<12xf32>) {
    %c1005 = arith.constant -2.0 : f32
    %e1006 = tensor.empty() : tensor<6x3xf32>
    %fill1007 = linalg.fill ins(%c1005 : f32) outs(%e1006 : tensor<6x3xf32>) -> tensor<6x3xf32>
    %c1008 = arith.constant 0.0 : f32
    %e1009 = tensor.empty() : tensor<6x3xf32>
    %fill1010 = linalg.fill ins(%c1008 : f32) outs(%e1009 : tensor<6x3xf32>) -> tensor<6x3xf32>
    %mm1011 = linalg.matmul ins(%arg0, %fill1007 : tensor<6x6xf32>, tensor<6x3xf32>) outs(%fill1010 : tensor<6x3xf32>) -> tensor<6x3xf32>
    scf.yield %ew2 : tensor<12xf32>
  } else {
    %c2012 = arith.constant -1.5 : f32
    %e2013 = tensor.empty() : tensor<6xf32>
    %fill2014 = linalg.fill ins(%c2012 : f32) outs(%e2013 : tensor<6xf32>) -> tensor<6xf32>
    %ins2015 = tensor.insert_slice %fill2014 into %ew2[0] [6] [1] : tensor<6xf32> into tensor<12xf32>
    %e2016 = tensor.empty() : tensor<12xf32>
    %ew2017 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ins2015, %arg1 : tensor<12xf32>, tensor<12xf32>) outs(%e2016 : tensor<12xf32>) {
    ^bb0(%a0: f32, %a1: f32, %o: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<12xf32>
    scf.yield %ew2017 : tensor<12xf32>
  }
  %lb2019 = arith.constant 0 : index
  %ub2020 = arith.constant 4 : index
  %st2021 = arith.constant 1 : index
  %cf2018 = scf.for %icf2018 = %lb2019 to %ub2020 step %st2021 iter_args(%acccf2018 = %arg2) -> (tensor<8x3xf32>) {
    %cst3022 = arith.constant dense<1.5> : tensor<3xf32>
    %e3023 = tensor.empty() : tensor<8x3xf32>
    %ew3024 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%acccf2018, %cst3022 : tensor<8x3xf32>, tensor<3xf32>) outs(%e3023 : tensor<8x3xf32>) {
    ^bb0(%a0: f32, %a1: f32, %o: f32):
      %r = arith.maximumf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<8x3xf32>
    %col3025 = tensor.collapse_shape %ew3024 [[0, 1]] : tensor<8x3xf32> into tensor<24xf32>
    %c3026 = arith.constant -1.5 : f32
    %e3027 = tensor.empty() : tensor<8x3xf32>
    %fill3028 = linalg.fill ins(%c3026 : f32) outs(%e3027 : tensor<8x3xf32>) -> tensor<8x3xf32>
    %e3029 = tensor.empty() : tensor<8x3xf32>
    %ew3030 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ew3024, %fill3028 : tensor<8x3xf32>, tensor<8x3xf32>) outs(%e3029 : tensor<8x3xf32>) {
    ^bb0(%a0: f32, %a1: f32, %o: f32):
      %r = arith.mulf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<8x3xf32>
    %cst3031 = arith.constant dense<2.0> : tensor<3x4xf32>
    %c3032 = arith.constant 0.0 : f32
    %e3033 = tensor.empty() : tensor<8x4xf32>
    %fill3034 = linalg.fill ins(%c3032 : f32) outs(%e3033 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %mm3035 = linalg.matmul ins(%ew3030, %cst3031 : tensor<8x3xf32>, tensor<3x4xf32>) outs(%fill3034 : tensor<8x4xf32>) -> tensor<8x4xf32>
    scf.yield %ew3030 : tensor<8x3xf32>
  }
  %flag3037 = arith.constant true
  %cf3036 = scf.if %flag3037 -> (tensor<8x3xf32>) {
    %exp4038 = tensor.expand_shape %cf3 [[0, 1]] output_shape [12, 1] : tensor<12xf32> into tensor<12x1xf32>
    scf.yield %cf2018 : tensor<8x3xf32>
  } else {
    %e5039 = tensor.empty() : tensor<8x3xf32>
    %nm5040 = linalg.add ins(%arg2, %arg2 : tensor<8x3xf32>, tensor<8x3xf32>) outs(%e5039 : tensor<8x3xf32>) -> tensor<8x3xf32>
    %c5041 = arith.constant 0.0 : f32
    %e5042 = tensor.empty() : tensor<8x3xf32>
    %fill5043 = linalg.fill ins(%c5041 : f32) outs(%e5042 : tensor<8x3xf32>) -> tensor<8x3xf32>
    %e5044 = tensor.empty() : tensor<8x3xf32>
    %ew5045 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cf2018, %fill5043 : tensor<8x3xf32>, tensor<8x3xf32>) outs(%e5044 : tensor<8x3xf32>) {
    ^bb0(%a0: f32, %a1: f32, %o: f32):
      %r = arith.addf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<8x3xf32>
    %c5046 = arith.constant -2.0 : f32
    %e5047 = tensor.empty() : tensor<3x3xf32>
    %fill5048 = linalg.fill ins(%c5046 : f32) outs(%e5047 : tensor<3x3xf32>) -> tensor<3x3xf32>
    %c5049 = arith.constant 0.0 : f32
    %e5050 = tensor.empty() : tensor<8x3xf32>
    %fill5051 = linalg.fill ins(%c5049 : f32) outs(%e5050 : tensor<8x3xf32>) -> tensor<8x3xf32>
    %mm5052 = linalg.matmul ins(%ew5045, %fill5048 : tensor<8x3xf32>, tensor<3x3xf32>) outs(%fill5051 : tensor<8x3xf32>) -> tensor<8x3xf32>
    scf.yield %mm5052 : tensor<8x3xf32>
  }
  %e5053 = tensor.empty() : tensor<8x3xf32>
  %ew5054 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cf2018, %arg2 : tensor<8x3xf32>, tensor<8x3xf32>) outs(%e5053 : tensor<8x3xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<8x3xf32>
  %c5055 = arith.constant 0.0 : f32
  %e5056 = tensor.empty() : tensor<6xf32>
  %fill5057 = linalg.fill ins(%c5055 : f32) outs(%e5056 : tensor<6xf32>) -> tensor<6xf32>
  %red5058 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<6x6xf32>) outs(%fill5057 : tensor<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<6xf32>
  %cst5059 = arith.constant dense<0.0> : tensor<7x3xf32>
  %ins5060 = tensor.insert_slice %cst5059 into %cf2018[0, 0] [7, 3] [1, 1] : tensor<7x3xf32> into tensor<8x3xf32>
  return %ins5060, %arg1 : tensor<8x3xf32>, tensor<12xf32>
}
