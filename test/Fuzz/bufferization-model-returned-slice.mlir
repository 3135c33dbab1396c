// Found by bench/fuzz.py (plan, -test-memsched-check-bufferization-model).
// One-shot bufferization with identity layouts at function boundaries copies
// a returned view whose layout is not the identity (an offset, or strides
// other than row-major) into a new allocation right before the return. The
// memory model counts these copies as made by the return, a task after
// every other. The model still equals bufferization after memsched-reorder
// and after -canonicalize -cse (MATCH).
// RUN: memsched-opt %s -split-input-file -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s
// RUN: memsched-opt %s -split-input-file -memsched-reorder -test-memsched-check-bufferization-model -o /dev/null 2>&1 | FileCheck %s --check-prefix=MATCH
// RUN: memsched-opt %s -split-input-file -canonicalize -cse -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=MATCH

// Tests that the copy of a returned slice of an argument is predicted.

// The copy: 2 x f32 = 8 B.
// CHECK: bufferization-model @returned_slice_of_argument predicted 8 bufferized 8{{$}}
// MATCH: bufferization-model @returned_slice_of_argument predicted [[N:[0-9]+]] bufferized [[N]]{{$}}
func.func @returned_slice_of_argument(%x: tensor<6xf32>) -> tensor<2xf32> {
  %s = tensor.extract_slice %x[2] [2] [1] : tensor<6xf32> to tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

// Tests that the copy of a returned slice of a computed value is predicted.

// The max result (2x6 x i64 = 96 B) and the copy of its slice (1x4 x i64 =
// 32 B).
// CHECK: bufferization-model @returned_slice_of_result predicted 128 bufferized 128{{$}}
// MATCH: bufferization-model @returned_slice_of_result predicted [[N:[0-9]+]] bufferized [[N]]{{$}}
func.func @returned_slice_of_result(%x: tensor<2x6xi64>) -> tensor<1x4xi64> {
  %e = tensor.empty() : tensor<2x6xi64>
  %m = linalg.max ins(%x, %x : tensor<2x6xi64>, tensor<2x6xi64>) outs(%e : tensor<2x6xi64>) -> tensor<2x6xi64>
  %s = tensor.extract_slice %m[1, 2] [1, 4] [1, 1] : tensor<2x6xi64> to tensor<1x4xi64>
  return %s : tensor<1x4xi64>
}

// -----

// Tests that views with the identity layout are returned as they are: a
// leading row (offset 0, row-major strides), a rank-reducing row slice, and
// an expanded argument. Nothing is allocated.

// CHECK: bufferization-model @identity_views predicted 0 bufferized 0{{$}}
// MATCH: bufferization-model @identity_views predicted [[N:[0-9]+]] bufferized [[N]]{{$}}
func.func @identity_views(%x: tensor<4x4xf32>, %y: tensor<16xf32>) -> (tensor<1x4xf32>, tensor<4xf32>, tensor<4x4xf32>) {
  %row = tensor.extract_slice %x[0, 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<1x4xf32>
  %flat = tensor.extract_slice %x[0, 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<4xf32>
  %e = tensor.expand_shape %y [[0, 1]] output_shape [4, 4] : tensor<16xf32> into tensor<4x4xf32>
  return %row, %flat, %e : tensor<1x4xf32>, tensor<4xf32>, tensor<4x4xf32>
}

// -----

// Tests that a column (strides [4, 1] for a 4x1 result) and a row taken with
// a stride are copied, and that one view returned twice is copied twice:
// 16 + 16 + 2 x 16 B.

// CHECK: bufferization-model @strided_views predicted 64 bufferized 64{{$}}
// MATCH: bufferization-model @strided_views predicted [[N:[0-9]+]] bufferized [[N]]{{$}}
func.func @strided_views(%x: tensor<4x4xf32>) -> (tensor<4x1xf32>, tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %col = tensor.extract_slice %x[0, 0] [4, 1] [1, 1] : tensor<4x4xf32> to tensor<4x1xf32>
  %row = tensor.extract_slice %x[0, 0] [1, 4] [2, 1] : tensor<4x4xf32> to tensor<1x4xf32>
  %mid = tensor.extract_slice %x[1, 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<4xf32>
  return %col, %row, %mid, %mid : tensor<4x1xf32>, tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Tests a collapsed slice of an argument (a view with an offset) and a slice
// of a constant: 32 + 8 B.

// CHECK: bufferization-model @collapsed_and_constant predicted 40 bufferized 40{{$}}
// MATCH: bufferization-model @collapsed_and_constant predicted [[N:[0-9]+]] bufferized [[N]]{{$}}
func.func @collapsed_and_constant(%x: tensor<4x4xf32>) -> (tensor<8xf32>, tensor<2xf32>) {
  %s = tensor.extract_slice %x[2, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %t = tensor.extract_slice %k[2] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %c, %t : tensor<8xf32>, tensor<2xf32>
}

// -----

// Tests that the copy is made at the return, after every computation: a
// (64 B) lives to the end, b (64 B) is dead after its step, then the copy of
// the 32 B slice is made. Peak 128 B (a and b); a copy made at the slice
// would have been live beside both (160 B).

// CHECK: bufferization-model @copy_at_the_end predicted 128 bufferized 128{{$}}
// MATCH: bufferization-model @copy_at_the_end predicted [[N:[0-9]+]] bufferized [[N]]{{$}}
func.func @copy_at_the_end(%x: tensor<16xf32>) -> (tensor<8xf32>) {
  %e0 = tensor.empty() : tensor<16xf32>
  %a = linalg.negf ins(%x : tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %s = tensor.extract_slice %a[4] [8] [1] : tensor<16xf32> to tensor<8xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %b = linalg.exp ins(%x : tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  return %s : tensor<8xf32>
}

// -----

// Tests that the return's copies can set the peak: the 64 B result and its
// copied 32 B slice at the return (96 B) against 64 B before.

// CHECK: bufferization-model @copy_sets_the_peak predicted 96 bufferized 96{{$}}
// MATCH: bufferization-model @copy_sets_the_peak predicted [[N:[0-9]+]] bufferized [[N]]{{$}}
func.func @copy_sets_the_peak(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<8xf32>) {
  %e0 = tensor.empty() : tensor<16xf32>
  %a = linalg.negf ins(%x : tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %s = tensor.extract_slice %a[4] [8] [1] : tensor<16xf32> to tensor<8xf32>
  return %a, %s : tensor<16xf32>, tensor<8xf32>
}
