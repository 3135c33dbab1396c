// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-reorder=fuse-elementwise=true 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// Without the option the functions keep their ops.
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-reorder 2>/dev/null | FileCheck %s --check-prefix=PLAIN
// Results are bit-identical on CPU.
// RUN: memsched-opt %s -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-reorder=fuse-elementwise=true -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.fused
// RUN: diff %t.original %t.fused
// RUN: memsched-opt %s -memsched-exec-harness=func=sum -memsched-to-cpu-pipeline | %run_harness > %t.sum.original
// RUN: memsched-opt %s -memsched-reorder=fuse-elementwise=true -memsched-exec-harness=func=sum -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.sum.fused
// RUN: diff %t.sum.original %t.sum.fused
// memsched-optimize passes the option on, with and without a budget.
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-optimize=fuse-elementwise=true 2>/dev/null | FileCheck %s --check-prefix=OPT
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-optimize=budget=min fuse-elementwise=true" 2>/dev/null | FileCheck %s --check-prefix=FIT
// RUN: memsched-opt %s "-memsched-optimize=budget=min fuse-elementwise=true" -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.optimized
// RUN: diff %t.original %t.optimized

// Tests that memsched-reorder's fuse-elementwise option plans the function
// after upstream elementwise fusion too and keeps it only where its peak is
// lower.
//
// @chain: %x (4 KiB) resident; exp then negf, 4 KiB each: the negf holds
// both, peak 4 + 8 = 12 KiB in every order. Fused into one op that reads %x
// and writes the result: 4 + 4 = 8 KiB. Kept, with the input's figures
// before.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: chosen = "fused+liu"
// CHECK-SAME: peak_after_bytes = 8192 : i64, peak_before_bytes = 12288 : i64
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: arith.negf
// CHECK-NOT: linalg.generic
// CHECK: return
// REMARK: remark: memsched-reorder: peak 12.00 KiB -> 8.00 KiB (1.50x) with fused+liu (optimal)
// PLAIN-LABEL: func.func @chain
// PLAIN-COUNT-2: linalg.generic
// OPT-LABEL: func.func @chain
// OPT-SAME: chosen = "fused+liu"
// OPT: linalg.generic
// OPT-NOT: linalg.generic
// OPT: return
// With a budget memsched-fit plans the fused function: nothing left to do
// (without the option it writes the negf in place, at twice the time). Its
// reordered copy keeps the input's figures before in memsched.reorder.
// FIT-LABEL: func.func @chain
// FIT-SAME: memsched.fit = {{{.*}}chosen = "none"
// FIT-SAME: memsched.reorder = {{{.*}}peak_before_bytes = 12288 : i64{{.*}}planned_before_bytes = 12288 : i64
// FIT: linalg.generic
// FIT-NOT: linalg.generic
// FIT: return
//
// @sum: %w (256 KiB) and three 256-byte vectors resident; three matvecs of
// 4 KiB each summed by two adds. Unfused, the first add frees two products
// before the third is made: 3 x 4 KiB at most, peak 268.75 KiB. Fusion
// merges the adds into one op reading the three products at once: 272.75
// KiB. Not kept: both adds remain.
// CHECK-LABEL: func.func @sum
// CHECK-SAME: chosen = "liu"
// CHECK-SAME: peak_after_bytes = 275200 : i64
// CHECK-COUNT-2: linalg.generic
// REMARK: remark: memsched-reorder: peak 268.75 KiB -> 268.75 KiB (1.00x) with liu (optimal)
#id = affine_map<(d0) -> (d0)>
func.func @chain(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e0 = tensor.empty() : tensor<1024xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  return %b : tensor<1024xf32>
}

func.func @sum(%w: tensor<1024x64xf32>, %v1: tensor<64x1xf32>, %v2: tensor<64x1xf32>, %v3: tensor<64x1xf32>) -> tensor<1024x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1024x1xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1024x1xf32>) -> tensor<1024x1xf32>
  %m1 = linalg.matmul ins(%w, %v1 : tensor<1024x64xf32>, tensor<64x1xf32>) outs(%f1 : tensor<1024x1xf32>) -> tensor<1024x1xf32>
  %e2 = tensor.empty() : tensor<1024x1xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1024x1xf32>) -> tensor<1024x1xf32>
  %m2 = linalg.matmul ins(%w, %v2 : tensor<1024x64xf32>, tensor<64x1xf32>) outs(%f2 : tensor<1024x1xf32>) -> tensor<1024x1xf32>
  %e3 = tensor.empty() : tensor<1024x1xf32>
  %s1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m1, %m2 : tensor<1024x1xf32>, tensor<1024x1xf32>) outs(%e3 : tensor<1024x1xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<1024x1xf32>
  %e4 = tensor.empty() : tensor<1024x1xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1024x1xf32>) -> tensor<1024x1xf32>
  %m3 = linalg.matmul ins(%w, %v3 : tensor<1024x64xf32>, tensor<64x1xf32>) outs(%f4 : tensor<1024x1xf32>) -> tensor<1024x1xf32>
  %e5 = tensor.empty() : tensor<1024x1xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s1, %m3 : tensor<1024x1xf32>, tensor<1024x1xf32>) outs(%e5 : tensor<1024x1xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<1024x1xf32>
  return %s2 : tensor<1024x1xf32>
}
