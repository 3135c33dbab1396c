// RUN: memsched-opt %s -test-memsched-keep-duplicates-apart -cse | FileCheck %s
// RUN: memsched-opt %s -cse | FileCheck %s --check-prefix=MERGED

// Tests that the ops every budget-driver candidate keeps apart include the
// ones CSE would merge only after merging what they read: two zero fills of
// two (equal) empty tensors. CSE merges the empties, then the fills, which
// would make one buffer live from the first reduction to the last; tagged,
// the second fill stays its own op.

// CHECK-LABEL: func.func @fills
// CHECK-COUNT-2: linalg.fill
// MERGED-LABEL: func.func @fills
// MERGED-COUNT-1: linalg.fill
// MERGED-NOT: linalg.fill
func.func @fills(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %s0 = linalg.reduce ins(%x : tensor<64x64xf32>) outs(%f0 : tensor<64xf32>) dimensions = [1]
    (%a: f32, %b: f32) { %r = arith.addf %a, %b : f32
      linalg.yield %r : f32 }
  %zero1 = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f1 = linalg.fill ins(%zero1 : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %s1 = linalg.reduce ins(%y : tensor<64x64xf32>) outs(%f1 : tensor<64xf32>) dimensions = [1]
    (%a: f32, %b: f32) { %r = arith.addf %a, %b : f32
      linalg.yield %r : f32 }
  return %s0, %s1 : tensor<64xf32>, tensor<64xf32>
}
