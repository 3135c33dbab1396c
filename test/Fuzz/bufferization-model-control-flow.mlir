// Found by bench/fuzz.py (plan, -test-memsched-check-bufferization-model
// =upper-bound, --kind control-flow). The model of control flow is meant to
// bound bufferization from above; in this program it was below.
// RUN: rm -rf %t && split-file %s %t
// RUN: memsched-opt %t/choice-yields-outside-view.mlir -test-memsched-check-bufferization-model=upper-bound -o /dev/null | FileCheck %s

// Tests a program with a branch yielding a view of a buffer defined outside,
// whose result then initialises a loop, among dead values (seed 725). The
// model predicted 80 B of max-live, bufferization allocates 84 B: the 4 B
// missing were not the control flow's but the return's copy of the returned
// slice %sl1 (11 x f32 at offset 3), which the model now counts.

// CHECK: bufferization-model @main predicted 84 bufferized 84{{$}}

//--- choice-yields-outside-view.mlir
func.func @main(%arg0: tensor<16xf32>) -> (tensor<2x5xf32>, tensor<11xf32>) {
  %sl1 = tensor.extract_slice %arg0[3] [11] [1] : tensor<16xf32> to tensor<11xf32>
  %c2 = arith.constant -3.5 : f32
  %e3 = tensor.empty() : tensor<4xf32>
  %fill4 = linalg.fill ins(%c2 : f32) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
  %e5 = tensor.empty() : tensor<11xf32>
  %ew6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sl1, %sl1 : tensor<11xf32>, tensor<11xf32>) outs(%e5 : tensor<11xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<11xf32>
  %sl7 = tensor.extract_slice %fill4[0] [4] [1] : tensor<4xf32> to tensor<4xf32>
  %flag9 = arith.constant true
  %cf8 = scf.if %flag9 -> (tensor<4xf32>) {
    scf.yield %sl7 : tensor<4xf32>
  } else {
    %c2010 = arith.constant -2.0 : f32
    %e2011 = tensor.empty() : tensor<8xf32>
    %fill2012 = linalg.fill ins(%c2010 : f32) outs(%e2011 : tensor<8xf32>) -> tensor<8xf32>
    %cat2013 = tensor.concat dim(0) %fill2012, %fill4 : (tensor<8xf32>, tensor<4xf32>) -> tensor<12xf32>
    %e2014 = tensor.empty() : tensor<12xf32>
    %ew2015 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%cat2013, %cat2013 : tensor<12xf32>, tensor<12xf32>) outs(%e2014 : tensor<12xf32>) {
    ^bb0(%a0: f32, %a1: f32, %o: f32):
      %r = arith.maximumf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<12xf32>
    %e2016 = tensor.empty() : tensor<12xf32>
    %ew2017 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%cat2013, %ew2015 : tensor<12xf32>, tensor<12xf32>) outs(%e2016 : tensor<12xf32>) {
    ^bb0(%a0: f32, %a1: f32, %o: f32):
      %r = arith.subf %a0, %a1 : f32
      linalg.yield %r : f32
    } -> tensor<12xf32>
    scf.yield %sl7 : tensor<4xf32>
  }
  %lb2019 = arith.constant 0 : index
  %ub2020 = arith.constant 4 : index
  %st2021 = arith.constant 1 : index
  %cf2018 = scf.for %icf2018 = %lb2019 to %ub2020 step %st2021 iter_args(%acccf2018 = %cf8) -> (tensor<4xf32>) {
    %c3022 = arith.constant 0.0 : f32
    %e3023 = tensor.empty() : tensor<3xf32>
    %fill3024 = linalg.fill ins(%c3022 : f32) outs(%e3023 : tensor<3xf32>) -> tensor<3xf32>
    %exp3025 = tensor.expand_shape %ew6 [[0, 1]] output_shape [11, 1] : tensor<11xf32> into tensor<11x1xf32>
    scf.yield %acccf2018 : tensor<4xf32>
  }
  %flag3027 = arith.constant true
  %cf3026 = scf.if %flag3027 -> (tensor<16xf32>) {
    %c4028 = arith.constant 1.5 : f32
    %e4029 = tensor.empty() : tensor<5x16xf32>
    %fill4030 = linalg.fill ins(%c4028 : f32) outs(%e4029 : tensor<5x16xf32>) -> tensor<5x16xf32>
    %e4031 = tensor.empty() : tensor<4xf32>
    %ew4032 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sl7 : tensor<4xf32>) outs(%e4031 : tensor<4xf32>) {
    ^bb0(%a0: f32, %o: f32):
      %r = arith.minimumf %a0, %a0 : f32
      linalg.yield %r : f32
    } -> tensor<4xf32>
    scf.yield %arg0 : tensor<16xf32>
  } else {
    scf.yield %arg0 : tensor<16xf32>
  }
  %c5033 = arith.constant 2.0 : f32
  %e5034 = tensor.empty() : tensor<2x5xf32>
  %fill5035 = linalg.fill ins(%c5033 : f32) outs(%e5034 : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %fill5035, %sl1 : tensor<2x5xf32>, tensor<11xf32>
}
