// RUN: memsched-opt %s -split-input-file --mlir-disable-threading -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s
// RUN: memsched-opt %examples/mlp_train_step.mlir --mlir-disable-threading -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=MLP
// RUN: memsched-opt %examples/cnn_train_step.mlir --mlir-disable-threading -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=CNN

// The pass fails (and the RUN line with it) when the predicted max-live
// differs from what one-shot bufferization allocates; the checks below also
// pin the figure itself.

// MLP: bufferization-model @train_step predicted [[N:[0-9]+]] bufferized [[N]]{{$}}
// CNN: bufferization-model @train_step predicted [[N:[0-9]+]] bufferized [[N]]{{$}}

// Tests that an empty -> fill -> matmul chain bufferizes to one allocation.

// One 4x16xf32 buffer: 4*16*4 = 256.
// CHECK: bufferization-model @chain predicted 256 bufferized 256{{$}}
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// -----

// Tests that an init read by a later op gets its own allocation.

// F (fill), G (exp, out of place), H (add): 16*4 = 64 bytes each, all live
// at the add: 192.
// CHECK: bufferization-model @init_read_later predicted 192 bufferized 192{{$}}
func.func @init_read_later(%a: tensor<16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %g = linalg.exp ins(%a : tensor<16xf32>) outs(%f : tensor<16xf32>) -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %h = linalg.add ins(%f, %g : tensor<16xf32>, tensor<16xf32>)
                  outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  return %h : tensor<16xf32>
}

// -----

// Tests that an empty tensor used as the init of two ops gets two buffers:
// the first write is out of place because the second op reuses %e.

// A (exp), B (negf, in place into %e), C (add): 64 bytes each: 192.
// CHECK: bufferization-model @empty_two_writers predicted 192 bufferized 192{{$}}
func.func @empty_two_writers(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.exp ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %b = linalg.negf ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %c = linalg.add ins(%a, %b : tensor<16xf32>, tensor<16xf32>)
                  outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  return %c : tensor<16xf32>
}

// -----

// Tests that an in-place write after an earlier read of the same buffer needs
// no copy.

// %e/%f/%g share 64 bytes, %e3/%n/%h share 64 bytes: 128.
// CHECK: bufferization-model @write_after_read predicted 128 bufferized 128{{$}}
func.func @write_after_read(%a: tensor<16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %e3 = tensor.empty() : tensor<16xf32>
  %n = linalg.negf ins(%f : tensor<16xf32>) outs(%e3 : tensor<16xf32>) -> tensor<16xf32>
  %g = linalg.exp ins(%a : tensor<16xf32>) outs(%f : tensor<16xf32>) -> tensor<16xf32>
  %h = linalg.add ins(%n, %g : tensor<16xf32>, tensor<16xf32>)
                  outs(%n : tensor<16xf32>) -> tensor<16xf32>
  return %h : tensor<16xf32>
}

// -----

// Tests that views (collapse, expand, extract_slice) allocate nothing and
// keep their source allocation live while they are used.

// A = 64*4 = 256 (read through a slice by the negf), N = 2*16*4 = 128,
// R = 32*4 = 128. At the negf: A + N = 384.
// CHECK: bufferization-model @views predicted 384 bufferized 384{{$}}
func.func @views(%x: tensor<4x16xf32>) -> tensor<32xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  %e = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%c : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %v = tensor.expand_shape %a [[0, 1]] output_shape [4, 16] : tensor<64xf32> into tensor<4x16xf32>
  %s = tensor.extract_slice %v[0, 0] [2, 16] [1, 1] : tensor<4x16xf32> to tensor<2x16xf32>
  %e2 = tensor.empty() : tensor<2x16xf32>
  %n = linalg.negf ins(%s : tensor<2x16xf32>) outs(%e2 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %nc = tensor.collapse_shape %n [[0, 1]] : tensor<2x16xf32> into tensor<32xf32>
  %e3 = tensor.empty() : tensor<32xf32>
  %r = linalg.exp ins(%nc : tensor<32xf32>) outs(%e3 : tensor<32xf32>) -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// -----

// Tests that a returned slice keeps its whole source allocation to the end.

// A = 64*4 = 256 (returned through the slice) + B = 256 at the negf: 512.
// CHECK: bufferization-model @returned_view predicted 512 bufferized 512{{$}}
func.func @returned_view(%x: tensor<64xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = tensor.extract_slice %a[0] [16] [1] : tensor<64xf32> to tensor<16xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %b = linalg.negf ins(%x : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  return %s : tensor<16xf32>
}

// -----

// Tests that writing into a function argument in place allocates nothing, and
// that a later op still gets its own allocation.

// CHECK: bufferization-model @inplace_into_argument predicted 0 bufferized 0{{$}}
func.func @inplace_into_argument(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.exp ins(%b : tensor<16xf32>) outs(%a : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// Only the negf result: 16*4 = 64.
// CHECK: bufferization-model @inplace_into_argument_then_op predicted 64 bufferized 64{{$}}
func.func @inplace_into_argument_then_op(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.exp ins(%b : tensor<16xf32>) outs(%a : tensor<16xf32>) -> tensor<16xf32>
  %e = tensor.empty() : tensor<16xf32>
  %n = linalg.negf ins(%r : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %n : tensor<16xf32>
}

// An argument that is also returned cannot be overwritten: the exp result
// gets 16*4 = 64 bytes.
// CHECK: bufferization-model @returned_argument_not_overwritten predicted 64 bufferized 64{{$}}
func.func @returned_argument_not_overwritten(%a: tensor<16xf32>, %b: tensor<16xf32>)
    -> (tensor<16xf32>, tensor<16xf32>) {
  %r = linalg.exp ins(%b : tensor<16xf32>) outs(%a : tensor<16xf32>) -> tensor<16xf32>
  return %a, %r : tensor<16xf32>, tensor<16xf32>
}

// -----

// Tests that returned values stay allocated to the end, also when returned
// twice.

// A, B, C: 64*4 = 256 each; A is returned, so at the last exp A + B + C = 768.
// CHECK: bufferization-model @returned_early predicted 768 bufferized 768{{$}}
func.func @returned_early(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %b = linalg.negf ins(%x : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %e3 = tensor.empty() : tensor<64xf32>
  %c = linalg.exp ins(%b : tensor<64xf32>) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  return %a, %c : tensor<64xf32>, tensor<64xf32>
}

// One buffer of 16*4 = 64 bytes, returned twice.
// CHECK: bufferization-model @returned_twice predicted 64 bufferized 64{{$}}
func.func @returned_twice(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.exp ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %a, %a : tensor<16xf32>, tensor<16xf32>
}

// -----

// Tests that a constant used as an init is copied into a new allocation (the
// constant itself is a global, not an allocation).

// The exp result: 4*4 = 16.
// CHECK: bufferization-model @constant_init predicted 16 bufferized 16{{$}}
func.func @constant_init(%a: tensor<4xf32>) -> tensor<4xf32> {
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = linalg.exp ins(%a : tensor<4xf32>) outs(%cst : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Tests a reduction into a filled accumulator and an insert_slice into a
// filled destination, both in place.

// One 8xf32 accumulator: 32.
// CHECK: bufferization-model @reduce predicted 32 bufferized 32{{$}}
func.func @reduce(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.reduce ins(%x : tensor<8x16xf32>) outs(%f : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8xf32>
}

// One 16xf32 destination: 64.
// CHECK: bufferization-model @insert_slice predicted 64 bufferized 64{{$}}
func.func @insert_slice(%a: tensor<4xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %i = tensor.insert_slice %a into %f[4] [4] [1] : tensor<4xf32> into tensor<16xf32>
  return %i : tensor<16xf32>
}

// -----

// Tests tensor ops that allocate their result: pad, concat, generate.

// 8xf32: 32.
// CHECK: bufferization-model @pad predicted 32 bufferized 32{{$}}
func.func @pad(%a: tensor<4xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %a low[2] high[2] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<4xf32> to tensor<8xf32>
  return %p : tensor<8xf32>
}

// (4 + 4)xf32: 32.
// CHECK: bufferization-model @concat predicted 32 bufferized 32{{$}}
func.func @concat(%x: tensor<4xf32>) -> tensor<8xf32> {
  %g = tensor.concat dim(0) %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// 8xf32: 32.
// CHECK: bufferization-model @generate predicted 32 bufferized 32{{$}}
func.func @generate(%n: f32) -> tensor<8xf32> {
  %g = tensor.generate {
  ^bb0(%i: index):
    tensor.yield %n : f32
  } : tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

// Tests a diamond whose join writes in place into one of its inputs.

// A, B, C: 64*4 = 256 each; A + B + C live at the second exp: 768.
// CHECK: bufferization-model @diamond predicted 768 bufferized 768{{$}}
func.func @diamond(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %b = linalg.negf ins(%a : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %c = linalg.exp ins(%a : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %d = linalg.add ins(%b, %c : tensor<64xf32>, tensor<64xf32>)
                  outs(%b : tensor<64xf32>) -> tensor<64xf32>
  return %d : tensor<64xf32>
}
