// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-reorder | FileCheck %s
// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-reorder=algorithm=exact | FileCheck %s
// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-reorder=algorithm=program | FileCheck %s --check-prefix=PROGRAM
// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-reorder -memsched-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON

// Tests that memsched-reorder moves ops into the order of least peak, keeps
// the relative order of side-effecting ops, records what it did on the
// function, and that memsched-report includes it.

// Two independent chains, each a large intermediate reduced to a scalar. In
// program order both intermediates are live together (8 KiB resident + 2 x
// 4 KiB); finishing one chain before starting the other needs 4 KiB less.

// CHECK-LABEL: func.func @two_chains
// CHECK-SAME:    memsched.reorder = {algorithm =
// CHECK-SAME:    optimal = true, peak_after_bytes = 12296 : i64, peak_before_bytes = 16388 : i64
// CHECK:         %[[A:.+]] = linalg.exp ins(%arg0
// CHECK-NEXT:    %[[FA:.+]] = linalg.fill
// CHECK-NEXT:    linalg.reduce ins(%[[A]] {{.*}} outs(%[[FA]]
// CHECK:         %[[B:.+]] = linalg.exp ins(%arg1
// CHECK-NEXT:    %[[FB:.+]] = linalg.fill
// CHECK-NEXT:    linalg.reduce ins(%[[B]] {{.*}} outs(%[[FB]]
// CHECK:         return

// Free ops (the empties and the constant) go first; the tasks keep program
// order, each fill folded into its reduce's task right before it.
// PROGRAM-LABEL: func.func @two_chains
// PROGRAM-SAME:    chosen = "program"
// PROGRAM-COUNT-2: tensor.empty() : tensor<1024xf32>
// PROGRAM-NEXT:    arith.constant
// PROGRAM-COUNT-2: tensor.empty() : tensor<f32>
// PROGRAM-NEXT:    linalg.exp ins(%arg0
// PROGRAM-NEXT:    linalg.exp ins(%arg1
// PROGRAM-NEXT:    linalg.fill
// PROGRAM-NEXT:    linalg.reduce

// JSON:      "name": "two_chains"
// JSON:      "peak_bytes": 12296
// JSON:      "reorder": {
// JSON:        "candidates": {
// With the fills folded into the reduces, the graph is an in-tree (two
// chains into the return), so auto takes Liu's optimal order.
// JSON:          "liu": 12296
// JSON:          "program": 16388
// JSON:        "chosen": "liu"
// JSON:        "lower_bound_bytes": 12292
// JSON:        "optimal": true
// JSON:        "peak_after_bytes": 12296
// JSON:        "peak_before_bytes": 16388
// Planned bytes count the returned scalars (2 x 4 B) from their producers to
// the end: before, 8192 + 2 x 4096 + 8 = 16392; after, 8192 + 4096 + 8.
// JSON:        "planned_after_bytes": 12296
// JSON:        "planned_before_bytes": 16392
// No wall-clock figures: the same input gives the same output anywhere.
// JSON-NOT:    solve_time_ms
// JSON:        "resident_bytes": 8192

// expected-remark @below {{memsched-reorder: peak}}
func.func @two_chains(%x: tensor<1024xf32>, %y: tensor<1024xf32>)
    -> (tensor<f32>, tensor<f32>) {
  %e0 = tensor.empty() : tensor<1024xf32>
  %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.exp ins(%y : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  %zero = arith.constant 0.0 : f32
  %i0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%i0 : tensor<f32>) -> tensor<f32>
  %ra = linalg.reduce ins(%a : tensor<1024xf32>) outs(%f0 : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %i1 = tensor.empty() : tensor<f32>
  %f1 = linalg.fill ins(%zero : f32) outs(%i1 : tensor<f32>) -> tensor<f32>
  %rb = linalg.reduce ins(%b : tensor<1024xf32>) outs(%f1 : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %ra, %rb : tensor<f32>, tensor<f32>
}

// -----

// Calls are fences: @log(%b) stays before @log(%a). Pure ops still move:
// the exp of %a moves after @log(%b), so only one 4 KiB intermediate is
// live at a time. No remark for the calls (no cost model, fences).

// CHECK-LABEL: func.func @fences
// CHECK:         %[[B:.+]] = linalg.exp ins(%arg1
// CHECK-NEXT:    call @log(%[[B]]) : (tensor<1024xf32>) -> ()
// CHECK-NEXT:    %[[A:.+]] = linalg.exp ins(%arg0
// CHECK-NEXT:    call @log(%[[A]]) : (tensor<1024xf32>) -> ()
// CHECK:         return

func.func private @log(tensor<1024xf32>)

// expected-remark @below {{memsched-reorder: peak}}
func.func @fences(%x: tensor<1024xf32>, %y: tensor<1024xf32>) {
  %e0 = tensor.empty() : tensor<1024xf32>
  %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.exp ins(%y : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  call @log(%b) : (tensor<1024xf32>) -> ()
  call @log(%a) : (tensor<1024xf32>) -> ()
  return
}

// -----

// A scalar captured by a linalg.generic payload is a dependence too: the
// constant must stay before the generic that uses it.

// CHECK-LABEL: func.func @captured_scalar
// CHECK:         %[[C:.+]] = arith.constant 2.0
// CHECK:         linalg.generic
// CHECK:           arith.mulf %{{.+}}, %[[C]]

// expected-remark @below {{memsched-reorder: peak}}
func.func @captured_scalar(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %two : f32
      linalg.yield %m : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
