// RUN: memsched-opt %s -memsched-report -o /dev/null | FileCheck %s
// RUN: memsched-opt %s -canonicalize -memsched-inplace=donate-arguments=true -memsched-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REACHED

// Tests the floor memsched-report states (the smallest planned bytes any
// order, recomputation or swap plan reaches) where cleanup or in-place
// writes change which buffers exist: each figure is a lower bound, and all
// but @loop reach it after canonicalize and memsched-inplace. The floor lets
// a write take the buffer of an argument nothing reads afterwards (a
// donated argument; cleanup can fold a copy of one into such a write).

// CHECK-LABEL: memsched report for @dead
// CHECK-NEXT: planned (device){{ +}}64.00 KiB
// CHECK-NEXT: modeled time
// CHECK-NEXT: floor{{ +}}16.00 KiB  (16384 bytes = resident + returned + 0 B for 'linalg.exp'
// REACHED-LABEL: memsched report for @dead
// REACHED-NEXT: planned (device){{ +}}16.00 KiB
// CHECK-LABEL: memsched report for @chain
// CHECK-NEXT: planned (device){{ +}}16.00 KiB
// CHECK-NEXT: modeled time
// CHECK-NEXT: floor{{ +}}4.00 KiB  (4096 bytes = resident + returned + 0 B for 'linalg.exp'
// REACHED-LABEL: memsched report for @chain
// REACHED-NEXT: planned (device){{ +}}4.00 KiB
// CHECK-LABEL: memsched report for @into_argument
// CHECK-NEXT: planned (device){{ +}}8.00 KiB
// CHECK-NEXT: modeled time
// CHECK-NEXT: floor{{ +}}4.00 KiB  (4096 bytes = resident + returned + 0 B for 'linalg.exp'
// REACHED-LABEL: memsched report for @into_argument
// REACHED-NEXT: planned (device){{ +}}4.00 KiB
// CHECK-LABEL: memsched report for @slice_into_argument
// CHECK-NEXT: planned (device){{ +}}17.00 KiB
// CHECK-NEXT: modeled time
// CHECK-NEXT: floor{{ +}}5.00 KiB  (5120 bytes = resident + returned + 0 B for
// REACHED-LABEL: memsched report for @slice_into_argument
// REACHED-NEXT: planned (device){{ +}}5.00 KiB
// CHECK-LABEL: memsched report for @loop
// CHECK-NEXT: planned (device){{ +}}16.00 KiB
// CHECK-NEXT: modeled time
// CHECK-NEXT: floor{{ +}}4.00 KiB  (4096 bytes = resident + returned + 0 B for 'scf.for'

// @dead (16 KiB buffers): the matmul's result is never read, so cleanup
// erases it and the constant only it reads: neither counts (the floor was
// 64 KiB, the matmul's working set beside the constant), and the exp may
// write into %x.
func.func @dead(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %w = arith.constant dense<1.0> : tensor<64x64xf32>
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %unused = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %r = linalg.exp ins(%x : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// @chain: exp, negf, exp: each may write into the buffer before it and the
// last one is returned, so every intermediate may be the returned buffer
// (the floor was 12 KiB: chains into a returned buffer were not followed),
// and the chain may start in %x's buffer.
func.func @chain(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e0 = tensor.empty() : tensor<1024xf32>
  %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.negf ins(%a : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  %e2 = tensor.empty() : tensor<1024xf32>
  %c = linalg.exp ins(%b : tensor<1024xf32>) outs(%e2 : tensor<1024xf32>) -> tensor<1024xf32>
  return %c : tensor<1024xf32>
}

// @into_argument: the exp may write into its argument's buffer, so the
// returned buffer is among the resident bytes (the floor was 8 KiB).
func.func @into_argument(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// @slice_into_argument: the insertion copies %big only because the add,
// which cleanup erases, reads %big after it; without the add it writes into
// %big, and the negf into the insertion's buffer, so the returned buffer is
// %big's (the floor was 9 KiB: insertions into an argument were not
// followed).
func.func @slice_into_argument(%big: tensor<1024xf32>, %part: tensor<256xf32>) -> tensor<1024xf32> {
  %ins = tensor.insert_slice %part into %big[0] [256] [1] : tensor<256xf32> into tensor<1024xf32>
  %e0 = tensor.empty() : tensor<1024xf32>
  %unused = linalg.add ins(%ins, %big : tensor<1024xf32>, tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %r = linalg.negf ins(%ins : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// @loop: what the body holds while the loop runs (its exp and add), which
// planning inside the body can lower, is not bounded: the floor counts the
// loop's own operands and results only (here its result lives in the
// resident argument's place), a weak but safe bound.
func.func @loop(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<1024xf32>) {
    %e = tensor.empty() : tensor<1024xf32>
    %t = linalg.exp ins(%acc : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    %e2 = tensor.empty() : tensor<1024xf32>
    %u = linalg.add ins(%t, %acc : tensor<1024xf32>, tensor<1024xf32>) outs(%e2 : tensor<1024xf32>) -> tensor<1024xf32>
    scf.yield %u : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}
