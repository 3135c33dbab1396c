// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-remat=budget=144KiB reorder-after=false" 2>/dev/null | FileCheck %s
// RUN: memsched-opt %s "-memsched-remat=budget=144KiB reorder-after=false" -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=AFTER-CSE
// RUN: memsched-opt %s -memsched-remat=budget=144KiB -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=ORDER
// Results are bit-identical on CPU at the floor, at 144 KiB and at 176 KiB.
// RUN: memsched-opt %s -memsched-exec-harness=func=conv_like -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-remat=budget=min -cse -canonicalize -memsched-exec-harness=func=conv_like -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.min
// RUN: diff %t.original %t.min
// RUN: memsched-opt %s -memsched-remat=budget=144KiB -cse -canonicalize -memsched-exec-harness=func=conv_like -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.144
// RUN: diff %t.original %t.144
// RUN: memsched-opt %s -memsched-remat=budget=176KiB -cse -canonicalize -memsched-exec-harness=func=conv_like -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.176
// RUN: diff %t.original %t.176

// Tests the copy made right after the last read of an input's input: the
// pattern of a convolution's backward. The input's gradient %gi is computed
// from a scratch %d (the output gradient %go spread over the rows) that dies
// at once; the weight's gradient then pads the forward's %r (%p) and reduces
// it with %go (%w); the activation's mask %m from %t comes last, then %gx.
// Planned as written 232 KiB; the floor is 136 KiB (the pad's working set).
// At 144 KiB, %gi is dropped across the pad and made again right after %w,
// the last read of %go, recomputing %d from it; the loss and %go are
// recomputed for %w, and %t for the mask: 5 clone groups. Before, %gi could
// be made only at %gx, after %go had died, so %t, %r, the loss and %go were
// recomputed after %w for it (6 groups, recompute time 3.2e-05 s against
// 2.8e-05).

// CHECK-LABEL: func.func @conv_like
// CHECK-SAME: memsched.remat = {algorithm = "greedy", dropped_buffers = 3 : i64, recompute_time_s = {{.*}}, recomputed_ops = 5 : i64}
// CHECK: tensor.pad
// CHECK: %[[GO:.+]] = linalg.generic {{.*}} outs({{.*}} : tensor<4x1024xf32>) attrs = {memsched.recompute
// CHECK: linalg.generic {{.*}} ins(%[[GO]] : tensor<4x1024xf32>) outs(
// CHECK: linalg.generic {{.*}} ins(%[[GO]] : tensor<4x1024xf32>) outs({{.*}} : tensor<10x1024xf32>) attrs = {memsched.recompute
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<1024xf32>) outs({{.*}} : tensor<10x1024xf32>) attrs = {memsched.recompute
// CHECK: return

// AFTER-CSE: "planned_bytes": 143360
// AFTER-CSE: "recomputed_ops": 5

// With the order after recomputation (reorder-after, the default), a plan
// that recomputes less meets 144 KiB: ordered for the planned bytes, the
// driver's plan at a looser target (2 drops, 3 recomputed ops, recompute
// time 1.6e-05 s against 2.8e-05) measures 136 KiB.
// ORDER: "planned_bytes": 139264
// ORDER: "recomputed_ops": 3

#m2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#kj = affine_map<(d0, d1, d2) -> (d2, d1)>
#ij3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @conv_like(%x: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<10x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  // Forward: t and r (40 KiB each) from the resident x.
  %e0 = tensor.empty() : tensor<10x1024xf32>
  %t = linalg.generic {indexing_maps = [#col, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1024xf32>) outs(%e0 : tensor<10x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.subf %a, %one : f32
    linalg.yield %s : f32
  } -> tensor<10x1024xf32>
  %e1 = tensor.empty() : tensor<10x1024xf32>
  %r = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<10x1024xf32>) outs(%e1 : tensor<10x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<10x1024xf32>
  // The loss (4 KiB) and its gradient go (16 KiB).
  %e2 = tensor.empty() : tensor<1024xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1024xf32>) -> tensor<1024xf32>
  %loss = linalg.generic {indexing_maps = [#m2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%r : tensor<10x1024xf32>) outs(%f2 : tensor<1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  %e3 = tensor.empty() : tensor<4x1024xf32>
  %go = linalg.generic {indexing_maps = [#col, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%loss : tensor<1024xf32>) outs(%e3 : tensor<4x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %three : f32
    linalg.yield %s : f32
  } -> tensor<4x1024xf32>
  // The scratch d (40 KiB, dead at once) and the input's gradient gi from it.
  %e4 = tensor.empty() : tensor<10x1024xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<10x1024xf32>) -> tensor<10x1024xf32>
  %d = linalg.generic {indexing_maps = [#kj, #ij3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%go : tensor<4x1024xf32>) outs(%f4 : tensor<10x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<10x1024xf32>
  %e5 = tensor.empty() : tensor<10x1024xf32>
  %gi = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<10x1024xf32>) outs(%e5 : tensor<10x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %two : f32
    linalg.yield %s : f32
  } -> tensor<10x1024xf32>
  // The weight's gradient: p (40 KiB) from r, then w from p and go.
  %p = tensor.pad %r low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<10x1024xf32> to tensor<12x1024xf32>
  %e7 = tensor.empty() : tensor<1024xf32>
  %f7 = linalg.fill ins(%zero : f32) outs(%e7 : tensor<1024xf32>) -> tensor<1024xf32>
  %w0 = linalg.generic {indexing_maps = [#m2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%p : tensor<12x1024xf32>) outs(%f7 : tensor<1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  %w = linalg.generic {indexing_maps = [#m2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%go : tensor<4x1024xf32>) outs(%w0 : tensor<1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  // The activation's mask m (10 KiB) from t, then the gradient gx.
  %e8 = tensor.empty() : tensor<10x1024xi8>
  %m = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<10x1024xf32>) outs(%e8 : tensor<10x1024xi8>) {
  ^bb0(%a: f32, %o: i8):
    %c = arith.cmpf ogt, %a, %zero : f32
    %b = arith.extui %c : i1 to i8
    linalg.yield %b : i8
  } -> tensor<10x1024xi8>
  %e9 = tensor.empty() : tensor<10x1024xf32>
  %gx = linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%gi, %m : tensor<10x1024xf32>, tensor<10x1024xi8>) outs(%e9 : tensor<10x1024xf32>) {
  ^bb0(%a: f32, %b: i8, %o: f32):
    %c = arith.trunci %b : i8 to i1
    %s = arith.select %c, %a, %zero : f32
    linalg.yield %s : f32
  } -> tensor<10x1024xf32>
  return %w, %gx : tensor<1024xf32>, tensor<10x1024xf32>
}
