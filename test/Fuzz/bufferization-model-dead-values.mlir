// Found by bench/fuzz.py (plan, -test-memsched-check-bufferization-model).
// Ops whose results are never used (valid input; frontends rarely emit them,
// canonicalize removes them) were modelled differently from what one-shot
// bufferization allocates, more in some cases, less in others: a fill
// folded into its reader across another fill that runs on its own, a
// transpose and a concatenation nobody reads, an insertion into an argument
// followed by a view of it that nobody reads (a view reads nothing itself).
// RUN: memsched-opt %s -split-input-file -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s

// Tests that a dead insert_slice into a filled tensor, beside a dead fill,
// is predicted as bufferized: 360 B, the dead 4x6 fill live at once with
// the others (the model once folded the 12x5 fill into the insertion, after
// the 4x6 one, and predicted 264 B).

// CHECK: bufferization-model @dead_insert_and_fill predicted [[N0:[0-9]+]] bufferized [[N0]]{{$}}
func.func @dead_insert_and_fill(%arg1: tensor<11x4xf32>) -> (tensor<6xf32>) {
  %c1 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<6xf32>
  %fill3 = linalg.fill ins(%c1 : f32) outs(%e2 : tensor<6xf32>) -> tensor<6xf32>
  %c5 = arith.constant -2.0 : f32
  %e6 = tensor.empty() : tensor<12x5xf32>
  %fill7 = linalg.fill ins(%c5 : f32) outs(%e6 : tensor<12x5xf32>) -> tensor<12x5xf32>
  %c8 = arith.constant 3.5 : f32
  %e9 = tensor.empty() : tensor<4x6xf32>
  %fill10 = linalg.fill ins(%c8 : f32) outs(%e9 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %ins17 = tensor.insert_slice %arg1 into %fill7[1, 1] [11, 4] [1, 1] : tensor<11x4xf32> into tensor<12x5xf32>
  return %fill3 : tensor<6xf32>
}

// -----

// Tests that a dead transpose and a dead concat are predicted as bufferized
// (224 B; the model once predicted 160 B).

// CHECK: bufferization-model @dead_transpose_and_concat predicted [[N1:[0-9]+]] bufferized [[N1]]{{$}}
func.func @dead_transpose_and_concat(%arg0: tensor<1x16xf64>, %arg1: tensor<6x2xf64>) -> (tensor<16xf64>) {
  %c1 = arith.constant 0.0 : f64
  %e2 = tensor.empty() : tensor<8x1xf64>
  %fill3 = linalg.fill ins(%c1 : f64) outs(%e2 : tensor<8x1xf64>) -> tensor<8x1xf64>
  %cst4 = arith.constant dense<[[-2.0, 3.5], [-4.0, 0.0], [-4.0, -3.5], [-4.0, 0.0]]> : tensor<4x2xf64>
  %cat5 = tensor.concat dim(0) %arg1, %cst4 : (tensor<6x2xf64>, tensor<4x2xf64>) -> tensor<10x2xf64>
  %e10 = tensor.empty() : tensor<1x8xf64>
  %tr11 = linalg.transpose ins(%fill3 : tensor<8x1xf64>) outs(%e10 : tensor<1x8xf64>) permutation = [1, 0]
  %col14 = tensor.collapse_shape %arg0 [[0, 1]] : tensor<1x16xf64> into tensor<16xf64>
  return %col14 : tensor<16xf64>
}

// -----

// Tests that a dead insert_slice into an argument is predicted as bufferized:
// with function boundaries one-shot bufferization writes into the argument
// (its result is never read, so nothing conflicts) and allocates only the
// fill (12 B); the model once copied the argument first (44 B).

// CHECK: bufferization-model @dead_insert_into_argument predicted [[N2:[0-9]+]] bufferized [[N2]]{{$}}
func.func @dead_insert_into_argument(%arg0: tensor<8xf32>) -> (tensor<8xf32>) {
  %c1 = arith.constant -3.5 : f32
  %e2 = tensor.empty() : tensor<3xf32>
  %fill3 = linalg.fill ins(%c1 : f32) outs(%e2 : tensor<3xf32>) -> tensor<3xf32>
  %ins4 = tensor.insert_slice %fill3 into %arg0[2] [3] [1] : tensor<3xf32> into tensor<8xf32>
  %sl6 = tensor.extract_slice %arg0[1] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %cst14 = arith.constant dense<[4.0, -3.5, -1.5, 2.0, -1.5, -2.0, -2.0, 3.5]> : tensor<8xf32>
  return %cst14 : tensor<8xf32>
}
