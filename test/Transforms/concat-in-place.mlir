// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-concat-in-place | FileCheck %s
// RUN: memsched-opt %s -split-input-file -memsched-concat-in-place -mlir-print-op-on-diagnostic=false 2>/dev/null | memsched-opt -split-input-file -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=MODEL
// RUN: memsched-opt %s -split-input-file -memsched-concat-in-place -mlir-print-op-on-diagnostic=false 2>/dev/null | memsched-opt -split-input-file -canonicalize -cse -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=MODEL
// RUN: memsched-opt %s -split-input-file -memsched-concat-in-place -memsched-reorder -mlir-print-op-on-diagnostic=false 2>/dev/null | memsched-opt -split-input-file -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=MODEL

// Tests that memsched-concat-in-place computes a concatenation's pieces in
// their slices of its result where only the concatenation reads them, keeps
// the others as copies, leaves overlapping slices and rewrites that save
// nothing alone, chooses which pieces to compute in place, and that the memory model then matches what one-shot
// bufferization allocates (also after canonicalization and CSE).

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
// expected-remark @below {{memsched-concat-in-place: 2 pieces of 1 concatenations computed in place; planned 112.00 KiB -> 80.00 KiB, peak 96.00 KiB -> 80.00 KiB}}
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
// expected-remark @below {{memsched-concat-in-place: 2 pieces of 1 concatenations computed in place; planned 28.00 KiB -> 20.00 KiB, peak 28.00 KiB -> 20.00 KiB}}
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
// piece (4 KiB), and the concatenation is not where the peak is. Nothing
// saves, so nothing changes (and there is no remark).
// CHECK-LABEL: func.func @raises_peak
// CHECK-NOT:     tensor.extract_slice %{{.*}} : tensor<2048xf32> to
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0] [1024] [1]
// MODEL: bufferization-model @raises_peak
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
// expected-remark @below {{memsched-concat-in-place: 1 pieces of 1 concatenations computed in place; planned 41.00 KiB -> 38.00 KiB, peak 33.00 KiB -> 33.00 KiB}}
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
