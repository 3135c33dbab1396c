// RUN: memsched-opt %s -split-input-file --mlir-disable-threading -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s
// RUN: memsched-opt %s -split-input-file --mlir-disable-threading -memsched-reorder -test-memsched-check-bufferization-model -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=MATCH

// One-shot bufferization's slice rules in the model: (1) a write into an
// extract_slice that is inserted back into the same slice is in place even
// though the insert_slice reads the rest of the source later; (2) where a
// write would conflict with a later read through a view defined before it,
// bufferization copies the view where it is defined (a view writes nothing,
// so its result, often smaller, is copied) and writes in place. Once
// expected to fail (the model over- or under-estimated both); after
// memsched-reorder too (MATCH).

// Tests that an extract_slice -> compute -> insert_slice of the same slice
// writes in place into the destination, as bufferization does.

// One 16xf32 buffer: 64 (the negf writes into its slice in place).
// CHECK: bufferization-model @slice_written_and_inserted predicted 64 bufferized 64{{$}}
// MATCH: bufferization-model @slice_written_and_inserted predicted [[N:[0-9]+]] bufferized [[N]]{{$}}
func.func @slice_written_and_inserted(%x: tensor<16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = tensor.extract_slice %f[4] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %xs = tensor.extract_slice %x[0] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %n = linalg.negf ins(%xs : tensor<4xf32>) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %i = tensor.insert_slice %n into %f[4] [4] [1] : tensor<4xf32> into tensor<16xf32>
  return %i : tensor<16xf32>
}

// -----

// Tests that a slice read after its source is overwritten is copied out
// (bufferization copies the 16-byte slice rather than the 64-byte source).

// F (16*4 = 64, overwritten in place by the exp) + slice copy (4*4 = 16) +
// add result (16) = 96.
// CHECK: bufferization-model @slice_read_after_overwrite predicted 96 bufferized 96{{$}}
// MATCH: bufferization-model @slice_read_after_overwrite predicted [[N:[0-9]+]] bufferized [[N]]{{$}}
func.func @slice_read_after_overwrite(%x: tensor<16xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = tensor.extract_slice %f[4] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %g = linalg.exp ins(%x : tensor<16xf32>) outs(%f : tensor<16xf32>) -> tensor<16xf32>
  %gs = tensor.extract_slice %g[0] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %c = linalg.add ins(%s, %gs : tensor<4xf32>, tensor<4xf32>)
                  outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// Tests a write into a view of a constant: bufferization copies the view (a
// 16 x 1 expand of the constant) where it is defined, here before a 64 B
// temporary, and writes into the copy in place: 64 + 64 (the copy) at the
// temporary's step.

// CHECK: bufferization-model @write_into_constant_view predicted 128 bufferized 128{{$}}
// MATCH: bufferization-model @write_into_constant_view predicted [[N:[0-9]+]] bufferized [[N]]{{$}}
func.func @write_into_constant_view(%x: tensor<16xf32>) -> tensor<16x1xf32> {
  %c = arith.constant dense<2.0> : tensor<16xf32>
  %v = tensor.expand_shape %c [[0, 1]] output_shape [16, 1] : tensor<16xf32> into tensor<16x1xf32>
  %e = tensor.empty() : tensor<16xf32>
  %t = linalg.exp ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %tv = tensor.expand_shape %t [[0, 1]] output_shape [16, 1] : tensor<16xf32> into tensor<16x1xf32>
  %w = linalg.add ins(%tv, %tv : tensor<16x1xf32>, tensor<16x1xf32>) outs(%v : tensor<16x1xf32>) -> tensor<16x1xf32>
  return %w : tensor<16x1xf32>
}

// -----

// Tests an insertion into a slice of an argument that the function returns:
// bufferization copies the 8 x 2 slice (64 B) where it is taken and inserts
// into the copy (the insertion's result is dead). The 192 B negation runs
// while the copy is live.

// CHECK: bufferization-model @insert_into_argument_slice predicted 256 bufferized 256{{$}}
// MATCH: bufferization-model @insert_into_argument_slice predicted [[N:[0-9]+]] bufferized [[N]]{{$}}
func.func @insert_into_argument_slice(%a: tensor<16x3xf32>, %b: tensor<1x2xf32>) -> tensor<16x3xf32> {
  %s = tensor.extract_slice %a[1, 0] [8, 2] [2, 2] : tensor<16x3xf32> to tensor<8x2xf32>
  %e = tensor.empty() : tensor<16x3xf32>
  %n = linalg.negf ins(%a : tensor<16x3xf32>) outs(%e : tensor<16x3xf32>) -> tensor<16x3xf32>
  %i = tensor.insert_slice %b into %s[6, 0] [1, 2] [1, 1] : tensor<1x2xf32> into tensor<8x2xf32>
  return %a : tensor<16x3xf32>
}
