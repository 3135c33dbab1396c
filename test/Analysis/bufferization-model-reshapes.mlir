// RUN: memsched-opt %s -split-input-file --mlir-disable-threading -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s

// Tests that collapsing or reshaping a view is modelled as bufferization
// does it: a view whose dims cannot merge without a copy (a slice that skips
// columns, a strided slice) is copied into a new buffer; a contiguous one
// stays a view.

// The 8x2 column slice of an 8x12 buffer is not contiguous: the collapse
// copies it (64 B) besides the negf's result (64 B).
// CHECK: bufferization-model @collapse_columns predicted 128 bufferized 128{{$}}
func.func @collapse_columns(%x: tensor<8x12xf32>) -> tensor<16xf32> {
  %s = tensor.extract_slice %x[0, 2] [8, 2] [1, 1] : tensor<8x12xf32> to tensor<8x2xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<8x2xf32> into tensor<16xf32>
  %e = tensor.empty() : tensor<16xf32>
  %n = linalg.negf ins(%c : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %n : tensor<16xf32>
}

// -----

// Two whole rows are contiguous: the collapse is a view; only the negf
// allocates (96 B).
// CHECK: bufferization-model @collapse_rows predicted 96 bufferized 96{{$}}
func.func @collapse_rows(%x: tensor<8x12xf32>) -> tensor<24xf32> {
  %s = tensor.extract_slice %x[3, 0] [2, 12] [1, 1] : tensor<8x12xf32> to tensor<2x12xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<2x12xf32> into tensor<24xf32>
  %e = tensor.empty() : tensor<24xf32>
  %n = linalg.negf ins(%c : tensor<24xf32>) outs(%e : tensor<24xf32>) -> tensor<24xf32>
  return %n : tensor<24xf32>
}

// -----

// A strided slice expanded (a view) and collapsed back merges dims that
// keep one stride (2): a view. Only the negf allocates (32 B).
// CHECK: bufferization-model @strided_expand_collapse predicted 32 bufferized 32{{$}}
func.func @strided_expand_collapse(%x: tensor<64xf32>) -> tensor<8xf32> {
  %s = tensor.extract_slice %x[0] [8] [2] : tensor<64xf32> to tensor<8xf32>
  %x2 = tensor.expand_shape %s [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %c = tensor.collapse_shape %x2 [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %n = linalg.negf ins(%c : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %n : tensor<8xf32>
}

// -----

// Every other row of an 8x8 buffer: rows 16 elements apart, 4 wide, do not
// merge: the collapse copies (64 B) besides the negf's result (64 B).
// CHECK: bufferization-model @collapse_every_other_row predicted 128 bufferized 128{{$}}
func.func @collapse_every_other_row(%x: tensor<8x8xf32>) -> tensor<16xf32> {
  %s = tensor.extract_slice %x[0, 0] [4, 4] [2, 1] : tensor<8x8xf32> to tensor<4x4xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
  %e = tensor.empty() : tensor<16xf32>
  %n = linalg.negf ins(%c : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %n : tensor<16xf32>
}

// -----

// tensor.reshape of a column slice copies it too (memref.reshape needs a
// contiguous source): 64 B copied, 64 B of negf.
// CHECK: bufferization-model @reshape_columns predicted 128 bufferized 128{{$}}
func.func @reshape_columns(%x: tensor<8x12xf32>) -> tensor<16xf32> {
  %shape = arith.constant dense<[16]> : tensor<1xindex>
  %s = tensor.extract_slice %x[0, 2] [8, 2] [1, 1] : tensor<8x12xf32> to tensor<8x2xf32>
  %c = tensor.reshape %s(%shape) : (tensor<8x2xf32>, tensor<1xindex>) -> tensor<16xf32>
  %e = tensor.empty() : tensor<16xf32>
  %n = linalg.negf ins(%c : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %n : tensor<16xf32>
}

// -----

// tensor.reshape needs its source to start at its buffer's first element
// with row-major strides: two whole rows from row 3 are contiguous but
// offset, so they are copied too (96 B, and 96 B of negf).
// CHECK: bufferization-model @reshape_rows predicted 192 bufferized 192{{$}}
func.func @reshape_rows(%x: tensor<8x12xf32>) -> tensor<24xf32> {
  %shape = arith.constant dense<[24]> : tensor<1xindex>
  %s = tensor.extract_slice %x[3, 0] [2, 12] [1, 1] : tensor<8x12xf32> to tensor<2x12xf32>
  %c = tensor.reshape %s(%shape) : (tensor<2x12xf32>, tensor<1xindex>) -> tensor<24xf32>
  %e = tensor.empty() : tensor<24xf32>
  %n = linalg.negf ins(%c : tensor<24xf32>) outs(%e : tensor<24xf32>) -> tensor<24xf32>
  return %n : tensor<24xf32>
}

// -----

// A column of an 8x8 buffer collapsed with its unit dim: a dim of size 1
// has no stride that matters, so the collapse is a view of the column
// (strided by 8) and copies nothing; the 256 B sum stays live until the max
// reads it through the view, beside the 512 B fill made in between.
// CHECK: bufferization-model @collapse_column_with_unit_dim predicted 768 bufferized 768{{$}}
func.func @collapse_column_with_unit_dim(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %x: tensor<4xf32>, %o: tensor<4xf32>) -> (tensor<4xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %sum = linalg.add ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %column = tensor.extract_slice %sum[3, 7] [4, 1] [1, 1] : tensor<8x8xf32> to tensor<4x1xf32>
  %c = tensor.collapse_shape %column [[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<8x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.max ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return %m, %fill : tensor<4xf32>, tensor<8x16xf32>
}
