// Found by bench/fuzz.py (plan, -test-memsched-check-bufferization-model
// =upper-bound, --kind control-flow, seed 18225). @main returns %cf2010,
// an scf.if one of whose branches yields %cf4, another scf.if that yields
// a slice of %arg0 in one branch. Bufferization gives both results a
// fully dynamic layout, and the identity-layout function boundary copies
// the returned one (12 B); the model copied only returned views with a
// non-row-major layout, and was 12 B below (88 against 100). A choice's
// result is now copied on return where a branch yields a buffer whose
// type may have a layout. Since the lowering pipelines give a branch's
// result a tensor of its own before bufferization (identity layout,
// memsched-region-results-outside), nothing is copied on return: both
// figures dropped, the model's to 12 B above (a bound, as checked here).
// RUN: memsched-opt %s -test-memsched-check-bufferization-model=upper-bound -o /dev/null | FileCheck %s

// CHECK: bufferization-model @main predicted 88 bufferized 76{{$}}
func.func @main(%arg0: tensor<3x1xf32>) -> (tensor<16xf32>, tensor<3x1xf32>, tensor<3x1xf32>) {
  %cst1 = arith.constant dense<[0.0, 2.0]> : tensor<2xf32>
  %e2 = tensor.empty() : tensor<3x1xf32>
  %ew3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<3x1xf32>) outs(%e2 : tensor<3x1xf32>) {
  ^bb0(%a0: f32, %o: f32):
    %r = arith.negf %a0 : f32
    linalg.yield %r : f32
  } -> tensor<3x1xf32>
  %flag5 = arith.constant true
  %cf4 = scf.if %flag5 -> (tensor<3x1xf32>) {
    %col1006 = tensor.collapse_shape %ew3 [[0, 1]] : tensor<3x1xf32> into tensor<3xf32>
    %sl1007 = tensor.extract_slice %arg0[0, 0] [3, 1] [1, 1] : tensor<3x1xf32> to tensor<3x1xf32>
    scf.yield %sl1007 : tensor<3x1xf32>
  } else {
    %cst2008 = arith.constant dense<2.0> : tensor<3xf32>
    %cat2009 = tensor.concat dim(0) %cst1, %cst2008 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
    scf.yield %ew3 : tensor<3x1xf32>
  }
  %flag2011 = arith.constant true
  %cf2010 = scf.if %flag2011 -> (tensor<3x1xf32>) {
    %e3012 = tensor.empty() : tensor<3x1xf32>
    %ew3013 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cf4 : tensor<3x1xf32>) outs(%e3012 : tensor<3x1xf32>) {
    ^bb0(%a0: f32, %o: f32):
      %r = arith.negf %a0 : f32
      linalg.yield %r : f32
    } -> tensor<3x1xf32>
    scf.yield %ew3013 : tensor<3x1xf32>
  } else {
    %c4014 = arith.constant 0.0 : f32
    %e4015 = tensor.empty() : tensor<3xf32>
    %fill4016 = linalg.fill ins(%c4014 : f32) outs(%e4015 : tensor<3xf32>) -> tensor<3xf32>
    %red4017 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%ew3 : tensor<3x1xf32>) outs(%fill4016 : tensor<3xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %o : f32
      linalg.yield %r : f32
    } -> tensor<3xf32>
    scf.yield %cf4 : tensor<3x1xf32>
  }
  %flag4019 = arith.constant false
  %cf4018 = scf.if %flag4019 -> (tensor<3x1xf32>) {
    %exp5020 = tensor.expand_shape %cst1 [[0, 1]] output_shape [2, 1] : tensor<2xf32> into tensor<2x1xf32>
    %c5021 = arith.constant 2.0 : f32
    %e5022 = tensor.empty() : tensor<1x5xf32>
    %fill5023 = linalg.fill ins(%c5021 : f32) outs(%e5022 : tensor<1x5xf32>) -> tensor<1x5xf32>
    %c5024 = arith.constant 0.0 : f32
    %e5025 = tensor.empty() : tensor<2x5xf32>
    %fill5026 = linalg.fill ins(%c5024 : f32) outs(%e5025 : tensor<2x5xf32>) -> tensor<2x5xf32>
    %mm5027 = linalg.matmul ins(%exp5020, %fill5023 : tensor<2x1xf32>, tensor<1x5xf32>) outs(%fill5026 : tensor<2x5xf32>) -> tensor<2x5xf32>
    scf.yield %cf2010 : tensor<3x1xf32>
  } else {
    scf.yield %cf2010 : tensor<3x1xf32>
  }
  %e6028 = tensor.empty() : tensor<1x3xf32>
  %tr6029 = linalg.transpose ins(%cf4 : tensor<3x1xf32>) outs(%e6028 : tensor<1x3xf32>) permutation = [1, 0]
  %col6030 = tensor.collapse_shape %tr6029 [[0, 1]] : tensor<1x3xf32> into tensor<3xf32>
  %c6031 = arith.constant 2.0 : f32
  %e6032 = tensor.empty() : tensor<16xf32>
  %fill6033 = linalg.fill ins(%c6031 : f32) outs(%e6032 : tensor<16xf32>) -> tensor<16xf32>
  return %fill6033, %cf2010, %ew3 : tensor<16xf32>, tensor<3x1xf32>, tensor<3x1xf32>
}
