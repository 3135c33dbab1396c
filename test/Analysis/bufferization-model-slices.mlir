// RUN: memsched-opt %s -split-input-file --mlir-disable-threading -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s

// Known gap between the memory model and one-shot bufferization, expected to
// fail until the model learns it: one-shot decides in place bottom-up, so a
// later write is made in place first and the conflict it causes with a
// read through a view defined earlier is resolved by copying that view
// where it is defined (a view writes nothing; its result, often smaller, is
// copied). The model makes the write out of place instead: (2) below
// over-estimates (a source-sized copy at the write for a slice-sized one),
// (3) under-estimates (the copy made later than bufferization makes it).
// Case (1), a write into an extract_slice inserted back into the same
// slice, is modelled since memsched-concat-in-place (it passes alone).
// XFAIL: *

// Tests that an extract_slice -> compute -> insert_slice of the same slice
// writes in place into the destination, as bufferization does.

// One 16xf32 buffer: 64 (the negf writes into its slice in place).
// CHECK: bufferization-model @slice_written_and_inserted predicted 64 bufferized 64{{$}}
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

// Tests an insertion into a slice of an argument that the function returns:
// bufferization copies the 8 x 2 slice (64 B) where it is taken and inserts
// into the copy (the insertion's result is dead); the 192 B negation runs
// while the copy is live. The model copies at the insertion (192 B peak).

// CHECK: bufferization-model @insert_into_argument_slice predicted 256 bufferized 256{{$}}
func.func @insert_into_argument_slice(%a: tensor<16x3xf32>, %b: tensor<1x2xf32>) -> tensor<16x3xf32> {
  %s = tensor.extract_slice %a[1, 0] [8, 2] [2, 2] : tensor<16x3xf32> to tensor<8x2xf32>
  %e = tensor.empty() : tensor<16x3xf32>
  %n = linalg.negf ins(%a : tensor<16x3xf32>) outs(%e : tensor<16x3xf32>) -> tensor<16x3xf32>
  %i = tensor.insert_slice %b into %s[6, 0] [1, 2] [1, 1] : tensor<1x2xf32> into tensor<8x2xf32>
  return %a : tensor<16x3xf32>
}
