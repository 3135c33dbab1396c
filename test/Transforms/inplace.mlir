// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-inplace | FileCheck %s
// RUN: memsched-opt %s -split-input-file -memsched-inplace=donate-arguments -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=DONATE
// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-inplace -test-memsched-check-bufferization-model -o /dev/null

// Tests that memsched-inplace makes a dead input the init of an
// elementwise op, never an input read later, an argument (unless donated),
// a constant or a returned value; and that the memory model's prediction
// still matches what bufferization allocates.

// A chain of three elementwise ops: each intermediate dies at the next op,
// so the second and third write into the first one's buffer.
// CHECK-LABEL: func.func @chain
// CHECK:         %[[A:.+]] = linalg.exp ins(%arg0 : tensor<1024xf32>) outs(%{{.+}} : tensor<1024xf32>)
// CHECK:         %[[B:.+]] = linalg.exp ins(%[[A]] : tensor<1024xf32>) outs(%[[A]] : tensor<1024xf32>)
// CHECK:         linalg.exp ins(%[[B]] : tensor<1024xf32>) outs(%[[B]] : tensor<1024xf32>)
// expected-remark @below {{memsched-inplace: 2 ops write into a dead input; peak 12.00 KiB -> 8.00 KiB}}
func.func @chain(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e0 = tensor.empty() : tensor<1024xf32>
  %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.exp ins(%a : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  %e2 = tensor.empty() : tensor<1024xf32>
  %c = linalg.exp ins(%b : tensor<1024xf32>) outs(%e2 : tensor<1024xf32>) -> tensor<1024xf32>
  return %c : tensor<1024xf32>
}

// -----

// %a is read again by the add, so the second exp cannot overwrite it; the
// add can overwrite %b (dead after it) but not %a... nor the argument.
// CHECK-LABEL: func.func @read_later
// CHECK:         %[[A:.+]] = linalg.exp ins(%arg0 : tensor<256xf32>) outs(%{{.+}} : tensor<256xf32>)
// CHECK:         %[[B:.+]] = linalg.exp ins(%[[A]] : tensor<256xf32>) outs(%{{.+}} : tensor<256xf32>)
// CHECK-NOT:     outs(%[[A]]
// CHECK:         linalg.add ins(%[[A]], %[[B]] : tensor<256xf32>, tensor<256xf32>) outs(%[[A]] : tensor<256xf32>)
// expected-remark @below {{memsched-inplace: 1 ops write into a dead input}}
func.func @read_later(%x: tensor<256xf32>) -> tensor<256xf32> {
  %e0 = tensor.empty() : tensor<256xf32>
  %a = linalg.exp ins(%x : tensor<256xf32>) outs(%e0 : tensor<256xf32>) -> tensor<256xf32>
  %e1 = tensor.empty() : tensor<256xf32>
  %b = linalg.exp ins(%a : tensor<256xf32>) outs(%e1 : tensor<256xf32>) -> tensor<256xf32>
  %e2 = tensor.empty() : tensor<256xf32>
  %c = linalg.add ins(%a, %b : tensor<256xf32>, tensor<256xf32>) outs(%e2 : tensor<256xf32>) -> tensor<256xf32>
  return %c : tensor<256xf32>
}

// -----

// Arguments are only overwritten when donated; constants and returned values
// never; a payload that reads its init keeps it.
// CHECK-LABEL: func.func @not_destinations
// CHECK:         linalg.exp ins(%arg0 : tensor<64xf32>) outs(%{{[0-9]+}} : tensor<64xf32>)
// CHECK:         linalg.exp ins(%cst : tensor<64xf32>) outs(%{{[0-9]+}} : tensor<64xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%{{[0-9]+}} : tensor<64xf32>)
// DONATE-LABEL: func.func @not_destinations
// DONATE:         linalg.exp ins(%arg0 : tensor<64xf32>) outs(%arg0 : tensor<64xf32>)
#id = affine_map<(d0) -> (d0)>
func.func @not_destinations(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %e0 = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %cst = arith.constant dense<1.0> : tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %b = linalg.exp ins(%cst : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %c = linalg.exp ins(%b : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%y : tensor<64xf32>) outs(%a : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
  } -> tensor<64xf32>
  return %a, %b, %c, %d : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// A donated argument's chain continues: the negf writes over the exp's
// result, which lives in %x's buffer; undonated, %x's buffer is kept.
// CHECK-LABEL: func.func @donated_chain
// CHECK:         %[[A:.+]] = linalg.exp ins(%arg0 : tensor<64xf32>) outs(%{{[0-9]+}} : tensor<64xf32>)
// CHECK:         linalg.negf ins(%[[A]] : tensor<64xf32>) outs(%[[A]] : tensor<64xf32>)
// DONATE-LABEL: func.func @donated_chain(%arg0
// DONATE:         %[[A:.+]] = linalg.exp ins(%arg0 : tensor<64xf32>) outs(%arg0 : tensor<64xf32>)
// DONATE:         linalg.negf ins(%[[A]] : tensor<64xf32>) outs(%[[A]] : tensor<64xf32>)
// expected-remark @below {{memsched-inplace: 1 ops write into a dead input}}
func.func @donated_chain(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %b = linalg.negf ins(%a : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  return %b : tensor<64xf32>
}

// -----

// An op already written over one of its dead inputs keeps that write: the
// other dead input is not taken instead (a plan made on these writes relies
// on which buffer the result, here returned, lives in), and nothing changes.
// CHECK-LABEL: func.func @already_in_place
// CHECK:         %[[A:.*]] = linalg.exp
// CHECK:         %[[B:.*]] = linalg.exp
// CHECK:         linalg.add ins(%[[A]], %[[B]] : tensor<64xf32>, tensor<64xf32>) outs(%[[A]] : tensor<64xf32>)
func.func @already_in_place(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %b = linalg.exp ins(%x : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.add ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%a : tensor<64xf32>) -> tensor<64xf32>
  return %s : tensor<64xf32>
}

// -----

// An insertion over its whole destination is no destination: cleanup folds
// it into its source, which would move the write into an argument (%i) or
// into a value read later (%j, whose source %a the add reads), where
// bufferization copies.
// CHECK-LABEL: func.func @whole_insertion
// CHECK:         %[[I:.+]] = tensor.insert_slice %arg1 into %arg0
// CHECK:         linalg.negf ins(%[[I]] : tensor<64xf32>) outs(%{{[0-9]+}} : tensor<64xf32>)
// CHECK:         %[[A:.+]] = linalg.exp
// CHECK:         %[[J:.+]] = tensor.insert_slice %[[A]]
// CHECK:         %[[M:.+]] = linalg.negf ins(%[[J]] : tensor<64xf32>) outs(%{{[0-9]+}} : tensor<64xf32>)
// CHECK:         linalg.add ins(%[[A]], %[[M]] : tensor<64xf32>, tensor<64xf32>) outs(%[[A]] : tensor<64xf32>)
// expected-remark @below {{memsched-inplace: 1 ops write into a dead input}}
func.func @whole_insertion(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %i = tensor.insert_slice %y into %x[0] [64] [1] : tensor<64xf32> into tensor<64xf32>
  %e0 = tensor.empty() : tensor<64xf32>
  %n = linalg.negf ins(%i : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %j = tensor.insert_slice %a into %e2[0] [64] [1] : tensor<64xf32> into tensor<64xf32>
  %e3 = tensor.empty() : tensor<64xf32>
  %m = linalg.negf ins(%j : tensor<64xf32>) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  %e4 = tensor.empty() : tensor<64xf32>
  %s = linalg.add ins(%a, %m : tensor<64xf32>, tensor<64xf32>) outs(%e4 : tensor<64xf32>) -> tensor<64xf32>
  return %n, %s, %x : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// Written into the slice of %big, %r would keep all of %big's 4 KiB live
// until the add, beside the 16 KiB exp, where it holds 1 KiB on its own: a
// write into a larger buffer is made only where no step then holds more
// than the peak (here it would raise the planned bytes from 38 to 40 KiB).
// CHECK-LABEL: func.func @slice_of_larger_kept
// CHECK:         %[[S:.+]] = tensor.extract_slice
// CHECK:         %[[R:.+]] = linalg.negf ins(%[[S]] : tensor<256xf32>) outs(%{{[0-9]+}} : tensor<256xf32>)
// CHECK:         linalg.add ins(%[[R]], %{{.+}} : tensor<256xf32>, tensor<256xf32>) outs(%[[R]] : tensor<256xf32>)
// expected-remark @below {{memsched-inplace: 1 ops write into a dead input; peak 38.00 KiB -> 37.00 KiB}}
func.func @slice_of_larger_kept(%x: tensor<1024xf32>, %w: tensor<4096xf32>) -> tensor<256xf32> {
  %e0 = tensor.empty() : tensor<1024xf32>
  %big = linalg.exp ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) -> tensor<1024xf32>
  %s = tensor.extract_slice %big[0] [256] [1] : tensor<1024xf32> to tensor<256xf32>
  %e1 = tensor.empty() : tensor<256xf32>
  %r = linalg.negf ins(%s : tensor<256xf32>) outs(%e1 : tensor<256xf32>) -> tensor<256xf32>
  %e2 = tensor.empty() : tensor<4096xf32>
  %p = linalg.exp ins(%w : tensor<4096xf32>) outs(%e2 : tensor<4096xf32>) -> tensor<4096xf32>
  %p3 = tensor.extract_slice %p[0] [256] [1] : tensor<4096xf32> to tensor<256xf32>
  %e3 = tensor.empty() : tensor<256xf32>
  %q = linalg.add ins(%r, %p3 : tensor<256xf32>, tensor<256xf32>) outs(%e3 : tensor<256xf32>) -> tensor<256xf32>
  return %q : tensor<256xf32>
}

// -----

// Where the larger buffer's bytes stay under the peak (the 16 KiB exp is
// returned, so counted from the start), the write into the slice is made:
// %big's 4 KiB replace %big and %r side by side at the negf.
// CHECK-LABEL: func.func @slice_of_larger_written
// CHECK:         %[[S:.+]] = tensor.extract_slice
// CHECK:         linalg.negf ins(%[[S]] : tensor<256xf32>) outs(%[[S]] : tensor<256xf32>)
// expected-remark @below {{memsched-inplace: 1 ops write into a dead input}}
func.func @slice_of_larger_written(%x: tensor<1024xf32>, %w: tensor<4096xf32>) -> (tensor<256xf32>, tensor<4096xf32>) {
  %e0 = tensor.empty() : tensor<1024xf32>
  %big = linalg.exp ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) -> tensor<1024xf32>
  %s = tensor.extract_slice %big[0] [256] [1] : tensor<1024xf32> to tensor<256xf32>
  %e1 = tensor.empty() : tensor<256xf32>
  %r = linalg.negf ins(%s : tensor<256xf32>) outs(%e1 : tensor<256xf32>) -> tensor<256xf32>
  %e2 = tensor.empty() : tensor<4096xf32>
  %p = linalg.exp ins(%w : tensor<4096xf32>) outs(%e2 : tensor<4096xf32>) -> tensor<4096xf32>
  %e3 = tensor.empty() : tensor<256xf32>
  %q = linalg.add ins(%r, %r : tensor<256xf32>, tensor<256xf32>) outs(%e3 : tensor<256xf32>) -> tensor<256xf32>
  return %q, %p : tensor<256xf32>, tensor<4096xf32>
}
