// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-split=budget=min | FileCheck %s
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-split=budget=100000 | FileCheck %s --check-prefix=BUDGET
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-split=budget=min max-pieces=2" | FileCheck %s --check-prefix=TWO
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-split=budget=1MiB | FileCheck %s --check-prefix=WITHIN
// The floors hold after cleanup, and one-shot bufferization allocates what
// the memory model predicts for the pieces.
// RUN: memsched-opt %s -memsched-split=budget=min -cse -canonicalize -memsched-report=format=json -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: memsched-opt %s -memsched-split=budget=min -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=MODEL
// Results are bit-identical on CPU (the pieces offset `linalg.index` of the
// split loop, which @pool_backward's payload reads).
// RUN: for f in pool_backward pad_conv shared_producer two_roots; do \
// RUN:   memsched-opt %s -memsched-exec-harness=func=$f -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.$f.original && \
// RUN:   memsched-opt %s -memsched-split=budget=min -cse -canonicalize -memsched-exec-harness=func=$f -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.$f.split && \
// RUN:   diff %t.$f.original %t.$f.split || exit 1; \
// RUN: done

// Tests that memsched-split computes the op whose working set sets the
// floor in pieces along its batch, with the producers only it reads.
// @pool_backward is a max-pool backward as PyTorch's decomposition writes
// it: the gradient and the indices strided into padded tensors (f32 and
// i64, 36 KiB and 72 KiB), then a window reduction reading them through
// `h + 1 - kh` (a negative coefficient: each piece reads all 17 rows of its
// slice, not the 16 upstream's tiling would give it). Its working set is
// the floor, 164.39 KiB; in 8 pieces (the batch, one image each) the
// padded tensors exist one image at a time: 69.56 KiB. A budget of 100000
// B takes 4 pieces (85104 B; 2 give 112848 B), `max-pieces=2` stops at 2,
// and a budget above the floor changes nothing.

// CHECK-LABEL: func.func @pool_backward
// CHECK-SAME: memsched.split = {floor_after_bytes = 71232 : i64, floor_before_bytes = 168336 : i64, ops_split = 7 : i64, pieces = 8 : i64, planned_before_bytes = 168464 : i64}
// CHECK: %[[OUT:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8x4x16x16xf32>)
// CHECK: %[[G0:.+]] = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1]
// CHECK: %[[E0:.+]] = tensor.empty() {memsched.allocation = {{[0-9]+}} : i64} : tensor<1x4x17x17xf32>
// CHECK: %[[F0:.+]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E0]] :
// CHECK: %[[P0:.+]] = tensor.insert_slice %[[G0]] into %[[F0]][0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 2, 2]
// CHECK: tensor.extract_slice %arg1[0, 0, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1]
// CHECK: %[[I0:.+]] = tensor.insert_slice {{.*}} : tensor<1x4x8x8xi64> into tensor<1x4x17x17xi64>
// CHECK: %[[O0:.+]] = tensor.extract_slice %[[OUT]][0, 0, 0, 0] [1, 4, 16, 16] [1, 1, 1, 1]
// CHECK: %[[R0:.+]] = linalg.generic {{.*}} ins(%[[P0]], %[[I0]], %{{.*}} : tensor<1x4x17x17xf32>, tensor<1x4x17x17xi64>, tensor<2x2xf32>) outs(%[[O0]] : tensor<1x4x16x16xf32>)
// CHECK: %[[A0:.+]] = tensor.insert_slice %[[R0]] into %[[OUT]][0, 0, 0, 0] [1, 4, 16, 16] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %arg0[1, 0, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x17x17xf32>)
// CHECK: %[[O1:.+]] = tensor.extract_slice %[[A0]][1, 0, 0, 0] [1, 4, 16, 16] [1, 1, 1, 1]
// CHECK: linalg.generic {{.*}} outs(%[[O1]] : tensor<1x4x16x16xf32>)
// CHECK: %[[N:.+]] = linalg.index 0
// CHECK: affine.apply #{{.*}}()[%[[N]]]
// CHECK-COUNT-6: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return

// BUDGET-LABEL: func.func @pool_backward
// BUDGET-SAME: memsched.split = {floor_after_bytes = 85104 : i64, floor_before_bytes = 168336 : i64, ops_split = 7 : i64, pieces = 4 : i64, planned_before_bytes = 168464 : i64}
// BUDGET-COUNT-4: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4x16x16xf32>)
// TWO-LABEL: func.func @pool_backward
// TWO-SAME: memsched.split = {floor_after_bytes = 112848 : i64, floor_before_bytes = 168336 : i64, ops_split = 7 : i64, pieces = 2 : i64, planned_before_bytes = 168464 : i64}
// WITHIN-NOT: memsched.split
// WITHIN-NOT: extract_slice

// REPORT: "floor_bytes": 71232,
// REPORT: "name": "pool_backward",
// REPORT: "planned_bytes": 71696,
// REPORT: "split": {
// REPORT-NEXT: "floor_after_bytes": 71232,
// REPORT-NEXT: "floor_before_bytes": 168336,
// REPORT: "floor_bytes": 104640,
// REPORT: "name": "pad_conv",
// REPORT: "floor_bytes": 94336,
// REPORT: "name": "shared_producer",
// REPORT: "floor_bytes": 136256,
// REPORT: "name": "two_roots",
// REPORT: "planned_bytes": 136256,
// REPORT: "floor_bytes": 16388,
// REPORT: "name": "total",
// REPORT-NOT: "split"

// MODEL: bufferization-model @pool_backward predicted 46656 bufferized 46656
// MODEL: bufferization-model @pad_conv predicted 70720 bufferized 70720
// MODEL: bufferization-model @shared_producer predicted 86144 bufferized 86144

func.func @pool_backward(%grad: tensor<8x4x8x8xf32>, %idx: tensor<8x4x8x8xi64>) -> tensor<8x4x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %none = arith.constant -1 : i64
  %four = arith.constant 4 : i64
  %e0 = tensor.empty() : tensor<8x4x17x17xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x4x17x17xf32>) -> tensor<8x4x17x17xf32>
  %g = tensor.insert_slice %grad into %f0[0, 0, 1, 1] [8, 4, 8, 8] [1, 1, 2, 2] : tensor<8x4x8x8xf32> into tensor<8x4x17x17xf32>
  %e1 = tensor.empty() : tensor<8x4x17x17xi64>
  %f1 = linalg.fill ins(%none : i64) outs(%e1 : tensor<8x4x17x17xi64>) -> tensor<8x4x17x17xi64>
  %i = tensor.insert_slice %idx into %f1[0, 0, 1, 1] [8, 4, 8, 8] [1, 1, 2, 2] : tensor<8x4x8x8xi64> into tensor<8x4x17x17xi64>
  %e2 = tensor.empty() : tensor<8x4x16x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x4x16x16xf32>) -> tensor<8x4x16x16xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + 1 - d4, d3 + 1 - d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + 1 - d4, d3 + 1 - d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%g, %i, %w : tensor<8x4x17x17xf32>, tensor<8x4x17x17xi64>, tensor<2x2xf32>) outs(%f2 : tensor<8x4x16x16xf32>) {
  ^bb0(%a: f32, %b: i64, %c: f32, %acc: f32):
    %n = linalg.index 0 : index
    %h = linalg.index 2 : index
    %v = linalg.index 3 : index
    %p = affine.apply affine_map<(d0, d1, d2) -> (d0 * 16 + d1 + d2)>(%h, %v, %n)
    %pi = arith.index_cast %p : index to i64
    %bm = arith.remui %b, %four : i64
    %pm = arith.remui %pi, %four : i64
    %eq = arith.cmpi eq, %bm, %pm : i64
    %s = arith.addf %acc, %a : f32
    %sel = arith.select %eq, %s, %acc : f32
    linalg.yield %sel : f32
  } -> tensor<8x4x16x16xf32>
  return %r : tensor<8x4x16x16xf32>
}

// A convolution reading a padded input only it reads: the pad is split
// with it (its batch is not padded; its padding value, a constant made in
// its region, is made outside). The pad is the op setting the floor; its
// reader is split.
// CHECK-LABEL: func.func @pad_conv
// CHECK-SAME: memsched.split = {floor_after_bytes = 104640 : i64, floor_before_bytes = 140928 : i64, ops_split = 2 : i64, pieces = 8 : i64
// CHECK: %[[X0:.+]] = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 4, 16, 16] [1, 1, 1, 1]
// CHECK: %[[PAD0:.+]] = tensor.pad %[[X0]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[PAD0]], %arg1 : tensor<1x4x18x18xf32>, tensor<8x4x3x3xf32>) outs(%{{.*}} : tensor<1x8x16x16xf32>)
// CHECK-COUNT-7: tensor.pad
func.func @pad_conv(%x: tensor<8x4x16x16xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<8x8x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    %inside = arith.constant 0.5 : f32
    tensor.yield %inside : f32
  } : tensor<8x4x16x16xf32> to tensor<8x4x18x18xf32>
  %e = tensor.empty() : tensor<8x8x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8x16x16xf32>) -> tensor<8x8x16x16xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w : tensor<8x4x18x18xf32>, tensor<8x4x3x3xf32>) outs(%f : tensor<8x8x16x16xf32>) -> tensor<8x8x16x16xf32>
  return %y : tensor<8x8x16x16xf32>
}

// The padded gradient is also returned: it is not split with its reader.
// The broadcast %t (128 KiB) sets the floor; splitting it alone would still
// assemble it whole, so its reader is split and takes it along.
// CHECK-LABEL: func.func @shared_producer
// CHECK-SAME: memsched.split = {floor_after_bytes = 94336 : i64, floor_before_bytes = 209024 : i64, ops_split = 3 : i64, pieces = 8 : i64
// CHECK: %[[PADDED:.+]] = tensor.insert_slice %arg0 into %{{.*}} : tensor<8x4x8x8xf32> into tensor<8x4x17x17xf32>
// CHECK: %[[S0:.+]] = tensor.extract_slice %[[PADDED]][0, 0, 0, 0] [1, 4, 17, 17] [1, 1, 1, 1]
// CHECK: %[[T0:.+]] = linalg.generic {{.*}} ins(%[[S0]] : tensor<1x4x17x17xf32>) outs(%{{.*}} : tensor<1x4x16x16x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[T0]] : tensor<1x4x16x16x4xf32>)
// CHECK: return %{{.*}}, %[[PADDED]]
func.func @shared_producer(%grad: tensor<8x4x8x8xf32>) -> (tensor<8x4x16x16xf32>, tensor<8x4x17x17xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x4x17x17xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x4x17x17xf32>) -> tensor<8x4x17x17xf32>
  %g = tensor.insert_slice %grad into %f0[0, 0, 1, 1] [8, 4, 8, 8] [1, 1, 2, 2] : tensor<8x4x8x8xf32> into tensor<8x4x17x17xf32>
  %e2 = tensor.empty() : tensor<8x4x16x16xf32>
  %big = tensor.empty() : tensor<8x4x16x16x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2 + 1, d3 + 1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%g : tensor<8x4x17x17xf32>) outs(%big : tensor<8x4x16x16x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x4x16x16x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%t : tensor<8x4x16x16x4xf32>) outs(%e2 : tensor<8x4x16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x4x16x16xf32>
  return %r, %g : tensor<8x4x16x16xf32>, tensor<8x4x17x17xf32>
}

// Two ops, each reading a padded input twice (two slices of one piece are
// one slice), each split. Their results' empties are numbered apart: merged
// by CSE, the pieces of both would write into slices of one buffer, which
// bufferization copies (140352 B planned after -cse instead of 136256).
// CHECK-LABEL: func.func @two_roots
// CHECK-SAME: memsched.split = {floor_after_bytes = 136256 : i64, floor_before_bytes = 172544 : i64, ops_split = 8 : i64, pieces = 16 : i64
// CHECK: tensor.empty() {memsched.allocation = {{[0-9]+}} : i64} : tensor<8x4x16x16xf32>
// CHECK: tensor.empty() {memsched.allocation = {{[0-9]+}} : i64} : tensor<8x4x16x16xf32>
func.func @two_roots(%x: tensor<8x4x16x16xf32>, %y: tensor<8x4x16x16xf32>) -> (tensor<8x4x16x16xf32>, tensor<8x4x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x4x18x18xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x4x18x18xf32>) -> tensor<8x4x18x18xf32>
  %p0 = tensor.insert_slice %x into %f0[0, 0, 1, 1] [8, 4, 16, 16] [1, 1, 1, 1] : tensor<8x4x16x16xf32> into tensor<8x4x18x18xf32>
  %o0 = tensor.empty() : tensor<8x4x16x16xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 + 2, d3 + 1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 + 1, d3 + 2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p0, %p0 : tensor<8x4x18x18xf32>, tensor<8x4x18x18xf32>) outs(%o0 : tensor<8x4x16x16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %s = arith.subf %u, %v : f32
    linalg.yield %s : f32
  } -> tensor<8x4x16x16xf32>
  %e1 = tensor.empty() : tensor<8x4x18x18xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x4x18x18xf32>) -> tensor<8x4x18x18xf32>
  %p1 = tensor.insert_slice %y into %f1[0, 0, 1, 1] [8, 4, 16, 16] [1, 1, 1, 1] : tensor<8x4x16x16xf32> into tensor<8x4x18x18xf32>
  %o1 = tensor.empty() : tensor<8x4x16x16xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 + 2, d3 + 1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 + 1, d3 + 2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p1, %p1 : tensor<8x4x18x18xf32>, tensor<8x4x18x18xf32>) outs(%o1 : tensor<8x4x16x16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %s = arith.subf %u, %v : f32
    linalg.yield %s : f32
  } -> tensor<8x4x16x16xf32>
  return %a, %b : tensor<8x4x16x16xf32>, tensor<8x4x16x16xf32>
}

// A reduction to a scalar has no parallel loop: nothing to split.
// CHECK-LABEL: func.func @total
// CHECK-NOT: memsched.split
// CHECK: linalg.reduce
func.func @total(%x: tensor<64x64xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%x : tensor<64x64xf32>) outs(%f : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %b: f32) {
      %t = arith.addf %a, %b : f32
      linalg.yield %t : f32
    }
  return %s : tensor<f32>
}
