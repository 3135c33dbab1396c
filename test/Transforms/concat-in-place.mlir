// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-concat-in-place | FileCheck %s
// RUN: memsched-opt %s -split-input-file -memsched-concat-in-place -mlir-print-op-on-diagnostic=false 2>/dev/null | memsched-opt -split-input-file -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=MODEL
// RUN: memsched-opt %s -split-input-file -memsched-concat-in-place -mlir-print-op-on-diagnostic=false 2>/dev/null | memsched-opt -split-input-file -canonicalize -cse -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=MODEL
// RUN: memsched-opt %s -split-input-file -memsched-concat-in-place -memsched-reorder -mlir-print-op-on-diagnostic=false 2>/dev/null | memsched-opt -split-input-file -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=MODEL

// Tests that memsched-concat-in-place computes the pieces of
// concatenations and pads in their slices of the result where only that
// reads them, keeps the others as copies, leaves overlapping slices alone,
// chooses which pieces to compute in place, and that the memory model then
// matches what one-shot bufferization allocates (also after canonicalize
// and CSE, and after memsched-reorder).

// Two branches of an inception-like block, concatenated. Before: both
// pieces (16 KiB each) and the result (32 KiB) coexist at the concatenation.
// After: each matmul writes its slice of the result; the elementwise op of
// the second branch runs before the first insertion (it is not a piece).
// CHECK-LABEL: func.func @branches
// CHECK:         %[[R:.+]] = tensor.empty() {memsched.concat = 0 : i64} : tensor<128x64xf32>
// CHECK:         %[[S0:.+]] = tensor.extract_slice %[[R]][0, 0] [64, 64] [1, 1]
// CHECK:         %[[F0:.+]] = linalg.fill {{.*}} outs(%[[S0]] :
// CHECK:         %[[A:.+]] = linalg.matmul {{.*}} outs(%[[F0]] :
// CHECK:         %[[I0:.+]] = tensor.insert_slice %[[A]] into %[[R]][0, 0] [64, 64] [1, 1]
// CHECK:         linalg.generic
// CHECK:         %[[S1:.+]] = tensor.extract_slice %[[I0]][64, 0] [64, 64] [1, 1]
// CHECK:         %[[F1:.+]] = linalg.fill {{.*}} outs(%[[S1]] :
// CHECK:         %[[B:.+]] = linalg.matmul {{.*}} outs(%[[F1]] :
// CHECK:         %[[I1:.+]] = tensor.insert_slice %[[B]] into %[[I0]][64, 0] [64, 64] [1, 1]
// CHECK:         return %[[I1]]
// MODEL: bufferization-model @branches predicted 49152 bufferized 49152
#id = affine_map<(d0, d1) -> (d0, d1)>
// expected-remark @below {{memsched-concat-in-place: 2 pieces of 1 concatenations and pads computed in place; planned 112.00 KiB -> 80.00 KiB, peak 96.00 KiB -> 80.00 KiB}}
func.func @branches(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<128x64xf32> {
  %c0 = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64x64xf32>
  %f1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %a = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.mulf %i, %i : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %f3 = linalg.fill ins(%c0 : f32) outs(%e3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = linalg.matmul ins(%t, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = tensor.concat dim(0) %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
  return %c : tensor<128x64xf32>
}

// -----

// As memsched.torch lowers cat: insertions into an empty tensor, here in the
// reverse of the order the pieces are computed. %a is also returned, so it
// stays a copy, inserted where the concatenation was; %b and %c are inserted
// in the order they are computed.
// CHECK-LABEL: func.func @chain
// CHECK:         %[[R:.+]] = tensor.empty() {memsched.concat = 0 : i64} : tensor<3x1024xf32>
// CHECK:         %[[A:.+]] = linalg.exp ins(%arg0
// CHECK:         %[[SB:.+]] = tensor.extract_slice %[[R]][1, 0] [1, 1024] [1, 1] : tensor<3x1024xf32> to tensor<1024xf32>
// CHECK:         %[[B:.+]] = linalg.negf ins(%arg0 : tensor<1024xf32>) outs(%[[SB]]
// CHECK:         %[[IB:.+]] = tensor.insert_slice %[[B]] into %[[R]][1, 0] [1, 1024] [1, 1]
// CHECK:         %[[SC:.+]] = tensor.extract_slice %[[IB]][0, 0] [1, 1024] [1, 1]
// CHECK:         %[[C:.+]] = linalg.exp ins(%[[A]] : tensor<1024xf32>) outs(%[[SC]]
// CHECK:         %[[IC:.+]] = tensor.insert_slice %[[C]] into %[[IB]][0, 0] [1, 1024] [1, 1]
// CHECK:         %[[IA:.+]] = tensor.insert_slice %[[A]] into %[[IC]][2, 0] [1, 1024] [1, 1]
// CHECK:         return %[[IA]], %[[A]]
// MODEL: bufferization-model @chain predicted 16384 bufferized 16384
// expected-remark @below {{memsched-concat-in-place: 2 pieces of 1 concatenations and pads computed in place; planned 28.00 KiB -> 20.00 KiB, peak 28.00 KiB -> 20.00 KiB}}
func.func @chain(%x: tensor<1024xf32>) -> (tensor<3x1024xf32>, tensor<1024xf32>) {
  %ea = tensor.empty() : tensor<1024xf32>
  %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%ea : tensor<1024xf32>) -> tensor<1024xf32>
  %eb = tensor.empty() : tensor<1024xf32>
  %b = linalg.negf ins(%x : tensor<1024xf32>) outs(%eb : tensor<1024xf32>) -> tensor<1024xf32>
  %ec = tensor.empty() : tensor<1024xf32>
  %c = linalg.exp ins(%a : tensor<1024xf32>) outs(%ec : tensor<1024xf32>) -> tensor<1024xf32>
  %r = tensor.empty() : tensor<3x1024xf32>
  %r0 = tensor.insert_slice %c into %r[0, 0] [1, 1024] [1, 1] : tensor<1024xf32> into tensor<3x1024xf32>
  %r1 = tensor.insert_slice %b into %r0[1, 0] [1, 1024] [1, 1] : tensor<1024xf32> into tensor<3x1024xf32>
  %r2 = tensor.insert_slice %a into %r1[2, 0] [1, 1024] [1, 1] : tensor<1024xf32> into tensor<3x1024xf32>
  return %r2, %a : tensor<3x1024xf32>, tensor<1024xf32>
}

// -----

// The first piece is computed before a large temporary: in its slice, the
// whole result (8 KiB) would be live across the temporary instead of the
// piece (4 KiB), so it stays a copy. Computing the second piece in place
// leaves the planned bytes and the peak as they are but lowers the lower
// steps (the tie-break that lets one of several equal peaks go first).
// CHECK-LABEL: func.func @raises_peak
// CHECK-NOT:     tensor.extract_slice %{{.*}}[0] [1024] [1] : tensor<2048xf32>
// CHECK:         tensor.extract_slice %{{.*}}[1024] [1024] [1] : tensor<2048xf32>
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0] [1024] [1]
// MODEL: bufferization-model @raises_peak
// expected-remark @below {{memsched-concat-in-place: 1 pieces of 1 concatenations and pads computed in place; planned 84.00 KiB -> 84.00 KiB, peak 76.00 KiB -> 76.00 KiB}}
func.func @raises_peak(%x: tensor<1024xf32>, %y: tensor<8192xf32>) -> (tensor<2048xf32>, tensor<1024xf32>) {
  %ea = tensor.empty() : tensor<1024xf32>
  %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%ea : tensor<1024xf32>) -> tensor<1024xf32>
  %eg = tensor.empty() : tensor<8192xf32>
  %big = linalg.exp ins(%y : tensor<8192xf32>) outs(%eg : tensor<8192xf32>) -> tensor<8192xf32>
  %head = tensor.extract_slice %big[0] [1024] [1] : tensor<8192xf32> to tensor<1024xf32>
  %er = tensor.empty() : tensor<1024xf32>
  %small = linalg.exp ins(%head : tensor<1024xf32>) outs(%er : tensor<1024xf32>) -> tensor<1024xf32>
  %eb = tensor.empty() : tensor<1024xf32>
  %b = linalg.negf ins(%x : tensor<1024xf32>) outs(%eb : tensor<1024xf32>) -> tensor<1024xf32>
  %r = tensor.empty() : tensor<2048xf32>
  %r0 = tensor.insert_slice %a into %r[0] [1024] [1] : tensor<1024xf32> into tensor<2048xf32>
  %r1 = tensor.insert_slice %b into %r0[1024] [1024] [1] : tensor<1024xf32> into tensor<2048xf32>
  %eo = tensor.empty() : tensor<2048xf32>
  %out = linalg.exp ins(%r1 : tensor<2048xf32>) outs(%eo : tensor<2048xf32>) -> tensor<2048xf32>
  return %out, %small : tensor<2048xf32>, tensor<1024xf32>
}


// -----

// As above with a smaller temporary (9 KiB, of a size no other tensor has,
// so that CSE merges no empty tensors of the function), so that the
// concatenation holds the peak: the second piece is computed in its slice, the first stays a copy
// (its slice would hold the result's buffer across the temporary).
// CHECK-LABEL: func.func @first_stays_a_copy
// CHECK:         %[[R:.+]] = tensor.empty() {memsched.concat = 0 : i64} : tensor<2048xf32>
// CHECK:         %[[A:.+]] = linalg.exp ins(%arg0
// CHECK:         %[[S:.+]] = tensor.extract_slice %[[R]][1024] [1024] [1]
// CHECK:         %[[B:.+]] = linalg.negf ins(%arg0 : tensor<1024xf32>) outs(%[[S]]
// CHECK:         %[[IB:.+]] = tensor.insert_slice %[[B]] into %[[R]][1024] [1024] [1]
// CHECK:         tensor.insert_slice %[[A]] into %[[IB]][0] [1024] [1]
// MODEL: bufferization-model @first_stays_a_copy predicted 20480 bufferized 20480
// expected-remark @below {{memsched-concat-in-place: 1 pieces of 1 concatenations and pads computed in place; planned 41.00 KiB -> 38.00 KiB, peak 33.00 KiB -> 33.00 KiB}}
func.func @first_stays_a_copy(%x: tensor<1024xf32>, %y: tensor<2304xf32>) -> (tensor<2048xf32>, tensor<1024xf32>) {
  %ea = tensor.empty() : tensor<1024xf32>
  %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%ea : tensor<1024xf32>) -> tensor<1024xf32>
  %eg = tensor.empty() : tensor<2304xf32>
  %big = linalg.exp ins(%y : tensor<2304xf32>) outs(%eg : tensor<2304xf32>) -> tensor<2304xf32>
  %head = tensor.extract_slice %big[0] [1024] [1] : tensor<2304xf32> to tensor<1024xf32>
  %er = tensor.empty() : tensor<1024xf32>
  %small = linalg.exp ins(%head : tensor<1024xf32>) outs(%er : tensor<1024xf32>) -> tensor<1024xf32>
  %eb = tensor.empty() : tensor<1024xf32>
  %b = linalg.negf ins(%x : tensor<1024xf32>) outs(%eb : tensor<1024xf32>) -> tensor<1024xf32>
  %r = tensor.empty() : tensor<2048xf32>
  %r0 = tensor.insert_slice %a into %r[0] [1024] [1] : tensor<1024xf32> into tensor<2048xf32>
  %r1 = tensor.insert_slice %b into %r0[1024] [1024] [1] : tensor<1024xf32> into tensor<2048xf32>
  %eo = tensor.empty() : tensor<2048xf32>
  %out = linalg.exp ins(%r1 : tensor<2048xf32>) outs(%eo : tensor<2048xf32>) -> tensor<2048xf32>
  return %out, %small : tensor<2048xf32>, tensor<1024xf32>
}

// -----

// Overlapping slices: the order of the insertions matters, nothing changes
// (and there is no remark).
// CHECK-LABEL: func.func @overlapping
// CHECK:         %[[A:.+]] = linalg.exp
// CHECK:         %[[B:.+]] = linalg.exp
// CHECK:         tensor.insert_slice %[[A]] into %{{.*}}[0] [1024] [1]
// CHECK:         tensor.insert_slice %[[B]] into %{{.*}}[512] [1024] [1]
// MODEL: bufferization-model @overlapping
func.func @overlapping(%x: tensor<1024xf32>) -> tensor<2048xf32> {
  %ea = tensor.empty() : tensor<1024xf32>
  %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%ea : tensor<1024xf32>) -> tensor<1024xf32>
  %eb = tensor.empty() : tensor<1024xf32>
  %b = linalg.exp ins(%a : tensor<1024xf32>) outs(%eb : tensor<1024xf32>) -> tensor<1024xf32>
  %r = tensor.empty() : tensor<2048xf32>
  %r0 = tensor.insert_slice %a into %r[0] [1024] [1] : tensor<1024xf32> into tensor<2048xf32>
  %r1 = tensor.insert_slice %b into %r0[512] [1024] [1] : tensor<1024xf32> into tensor<2048xf32>
  return %r1 : tensor<2048xf32>
}

// -----

// A pad by a constant of a piece computed into an empty tensor: the pad
// becomes a fill of the padded tensor and the piece is computed in its
// interior, so piece and padded copy never coexist.
// CHECK-LABEL: func.func @pad
// CHECK:         %[[P:.+]] = tensor.empty() {memsched.concat = 0 : i64} : tensor<66x66xf32>
// CHECK:         %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[P]] : tensor<66x66xf32>)
// CHECK:         %[[S:.+]] = tensor.extract_slice %[[F]][1, 1] [64, 64] [1, 1]
// CHECK:         %[[A:.+]] = linalg.exp ins(%arg0 : tensor<64x64xf32>) outs(%[[S]]
// CHECK:         %[[I:.+]] = tensor.insert_slice %[[A]] into %[[F]][1, 1] [64, 64] [1, 1]
// CHECK:         linalg.negf ins(%[[I]]
// CHECK-NOT:     tensor.pad
// MODEL: bufferization-model @pad predicted 34848 bufferized 34848
// expected-remark @below {{memsched-concat-in-place: 1 pieces of 1 concatenations and pads computed in place; planned 66.03 KiB -> 50.03 KiB, peak 50.03 KiB -> 50.03 KiB}}
func.func @pad(%x: tensor<64x64xf32>) -> tensor<66x66xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<64x64xf32>
  %a = linalg.exp ins(%x : tensor<64x64xf32>) outs(%ea : tensor<64x64xf32>) -> tensor<64x64xf32>
  %p = tensor.pad %a low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<64x64xf32> to tensor<66x66xf32>
  %eo = tensor.empty() : tensor<66x66xf32>
  %o = linalg.negf ins(%p : tensor<66x66xf32>) outs(%eo : tensor<66x66xf32>) -> tensor<66x66xf32>
  return %o : tensor<66x66xf32>
}

// -----

// A pad of a concatenation: the pieces are computed in their slices of the
// concatenation, which is the interior of the padded tensor.
// CHECK-LABEL: func.func @pad_of_concat
// CHECK:         %[[F:.+]] = linalg.fill
// CHECK:         %[[C:.+]] = tensor.extract_slice %[[F]][1, 0] [128, 64] [1, 1]
// CHECK:         %[[S0:.+]] = tensor.extract_slice %[[C]][0, 0] [64, 64] [1, 1]
// CHECK:         %[[A:.+]] = linalg.exp ins(%arg0 : tensor<64x64xf32>) outs(%[[S0]]
// CHECK:         %[[I0:.+]] = tensor.insert_slice %[[A]] into %[[C]][0, 0] [64, 64] [1, 1]
// CHECK:         %[[S1:.+]] = tensor.extract_slice %[[I0]][64, 0] [64, 64] [1, 1]
// CHECK:         %[[B:.+]] = linalg.negf ins(%arg0 : tensor<64x64xf32>) outs(%[[S1]]
// CHECK:         %[[I1:.+]] = tensor.insert_slice %[[B]] into %[[I0]][64, 0] [64, 64] [1, 1]
// CHECK:         %[[P:.+]] = tensor.insert_slice %[[I1]] into %[[F]][1, 0] [128, 64] [1, 1]
// CHECK:         linalg.exp ins(%[[P]]
// MODEL: bufferization-model @pad_of_concat predicted 66560 bufferized 66560
// expected-remark @below {{memsched-concat-in-place: 3 pieces of 1 concatenations and pads computed in place; planned 113.00 KiB -> 81.00 KiB, peak 81.00 KiB -> 81.00 KiB}}
func.func @pad_of_concat(%x: tensor<64x64xf32>) -> tensor<130x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<64x64xf32>
  %a = linalg.exp ins(%x : tensor<64x64xf32>) outs(%ea : tensor<64x64xf32>) -> tensor<64x64xf32>
  %eb = tensor.empty() : tensor<64x64xf32>
  %b = linalg.negf ins(%x : tensor<64x64xf32>) outs(%eb : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = tensor.concat dim(0) %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
  %p = tensor.pad %c low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<128x64xf32> to tensor<130x64xf32>
  %eo = tensor.empty() : tensor<130x64xf32>
  %o = linalg.exp ins(%p : tensor<130x64xf32>) outs(%eo : tensor<130x64xf32>) -> tensor<130x64xf32>
  return %o : tensor<130x64xf32>
}

// -----

// A tensor inserted into itself (a fuzzed program made the model recurse
// forever on it): no piece, nothing changes.
// CHECK-LABEL: func.func @self_insert
// CHECK:         tensor.insert_slice %arg0 into %arg0
// MODEL: bufferization-model @self_insert
func.func @self_insert(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %s = tensor.extract_slice %x[0, 0] [2, 5] [1, 1] : tensor<2x5xf32> to tensor<2x5xf32>
  %r = tensor.insert_slice %x into %x[0, 0] [2, 5] [1, 1] : tensor<2x5xf32> into tensor<2x5xf32>
  %e = tensor.empty() : tensor<2x5xf32>
  %o = linalg.add ins(%r, %s : tensor<2x5xf32>, tensor<2x5xf32>) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %o : tensor<2x5xf32>
}
