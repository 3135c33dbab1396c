// RUN: rm -rf %t && split-file %s %t
// RUN: memsched-opt %t/reorder.mlir -test-memsched-print-tensor-graph -o /dev/null | FileCheck %s --check-prefix=GRAPH
// RUN: memsched-opt %t/reorder.mlir -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=MODEL
// RUN: memsched-opt %t/reorder.mlir -memsched-reorder -test-memsched-print-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=REORDER
// RUN: memsched-opt %t/reorder.mlir -memsched-reorder -o - 2>/dev/null | FileCheck %s --check-prefix=ORDER
// Results are bit-identical with and without memsched-optimize.
// RUN: memsched-opt %t/reorder.mlir -memsched-exec-harness=func=loop -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t/original.txt
// RUN: memsched-opt %t/reorder.mlir -memsched-optimize=budget=min 2>/dev/null | memsched-opt -memsched-exec-harness=func=loop -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t/optimized.txt
// RUN: diff %t/original.txt %t/optimized.txt
// RUN: memsched-opt %t/choice.mlir -test-memsched-print-tensor-graph -o /dev/null | FileCheck %s --check-prefix=CHOICE
// RUN: memsched-opt %t/choice.mlir -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=CHOICE-MODEL
// A loop whose body yields a new tensor each iteration bufferizes (it
// returns a new buffer), and runs alike before and after planning.
// RUN: memsched-opt %t/fresh-yield.mlir -test-memsched-check-bufferization-model=upper-bound -o /dev/null | FileCheck %s --check-prefix=FRESH
// RUN: memsched-opt %t/fresh-yield.mlir -memsched-exec-harness=func=fresh -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t/fresh-original.txt
// RUN: memsched-opt %t/fresh-yield.mlir -memsched-optimize=budget=min 2>/dev/null | memsched-opt -memsched-exec-harness=func=fresh -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t/fresh-optimized.txt
// RUN: diff %t/fresh-original.txt %t/fresh-optimized.txt
// RUN: memsched-opt %t/forall.mlir -test-memsched-print-tensor-graph -o /dev/null | FileCheck %s --check-prefix=FORALL
// RUN: memsched-opt %t/forall.mlir -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=FORALL-MODEL
// RUN: memsched-opt %t/forall.mlir -memsched-reorder -test-memsched-print-peak-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORALL-REORDER
// RUN: memsched-opt %t/forall.mlir -memsched-reorder -test-memsched-check-bufferization-model -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=FORALL-MODEL-AFTER
// RUN: memsched-opt %t/forall.mlir -memsched-exec-harness=func=tiles -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t/forall-original.txt
// RUN: memsched-opt %t/forall.mlir -memsched-optimize=budget=min 2>/dev/null | memsched-opt -memsched-exec-harness=func=tiles -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t/forall-optimized.txt
// RUN: diff %t/forall-original.txt %t/forall-optimized.txt
// A body's allocations share bytes by their lifetimes in one iteration
// (memsched-plan-buffers plans bodies too); the results are the same with
// and without planning, and after memsched-optimize.
// RUN: memsched-opt %t/body-lifetimes.mlir -test-memsched-print-tensor-graph -o /dev/null | FileCheck %s --check-prefix=BODY
// RUN: memsched-opt %t/body-lifetimes.mlir -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=BODY-MODEL
// RUN: memsched-opt %t/body-lifetimes.mlir -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline=plan-buffers=false 2>/dev/null | %run_harness > %t/body-unplanned.txt
// RUN: memsched-opt %t/body-lifetimes.mlir -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t/body-planned.txt
// RUN: memsched-opt %t/body-lifetimes.mlir -memsched-optimize=budget=min 2>/dev/null | memsched-opt -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t/body-optimized.txt
// RUN: diff %t/body-unplanned.txt %t/body-planned.txt
// RUN: diff %t/body-unplanned.txt %t/body-optimized.txt
// memsched-reorder reorders a body: each product is reduced before the
// next one is made.
// RUN: memsched-opt %t/body-order.mlir -test-memsched-print-tensor-graph -o /dev/null | FileCheck %s --check-prefix=BODY-ORDER-BEFORE
// RUN: memsched-opt %t/body-order.mlir -test-memsched-print-tensor-graph=bodies=1 -o /dev/null | FileCheck %s --check-prefix=BODY-GRAPH
// RUN: memsched-opt %t/body-order.mlir -memsched-reorder -test-memsched-print-tensor-graph=bodies=1 -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=BODY-GRAPH-AFTER
// RUN: memsched-opt %t/body-order.mlir -memsched-reorder -test-memsched-print-tensor-graph -o /dev/null 2>&1 | FileCheck %s --check-prefix=BODY-ORDER
// RUN: memsched-opt %t/body-order.mlir -memsched-reorder -test-memsched-check-bufferization-model -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=BODY-ORDER-MODEL
// RUN: memsched-opt %t/body-order.mlir -memsched-exec-harness=func=sums -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t/body-order-original.txt
// RUN: memsched-opt %t/body-order.mlir -memsched-reorder 2>/dev/null | memsched-opt -memsched-exec-harness=func=sums -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t/body-order-reordered.txt
// RUN: diff %t/body-order-original.txt %t/body-order-reordered.txt
// RUN: memsched-opt %t/call.mlir -memsched-annotate-calls -test-memsched-print-tensor-graph -o /dev/null | FileCheck %s --check-prefix=CALL
// RUN: memsched-opt %t/call.mlir -test-memsched-print-tensor-graph -o /dev/null | FileCheck %s --check-prefix=CALL-PLAIN
// RUN: memsched-opt %t/recursive.mlir -memsched-annotate-calls | FileCheck %s --check-prefix=RECURSIVE
// RUN: memsched-opt %t/call.mlir -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s --check-prefix=CALL-MODEL

// Tests that structured control flow is planned as one task: its memory is
// what crosses its boundary (a loop's result reuses its init's buffer, as
// bufferization writes it in place) plus what its body allocates while it
// runs, its time its body's times its constant trip count; passes plan
// around it.

//--- body-lifetimes.mlir
// Three matmuls in a chain in the body: %p1 is dead once %p2 is made, so
// %p3 takes its bytes; the body holds two 16 KiB products at a time, not
// three.
// BODY: task {{.*}} scf.for after [] {{.*}} workspace 32768
// BODY-MODEL: bufferization-model @chain scf.for body predicted 32768 bufferized 32768
#body_id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (tensor<64x64xf32>) {
    %e1 = tensor.empty() : tensor<64x64xf32>
    %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %p1 = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z1 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %e2 = tensor.empty() : tensor<64x64xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %p2 = linalg.matmul ins(%p1, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z2 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %e3 = tensor.empty() : tensor<64x64xf32>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %p3 = linalg.matmul ins(%p2, %x : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z3 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %n = linalg.generic {indexing_maps = [#body_id, #body_id, #body_id], iterator_types = ["parallel", "parallel"]} ins(%acc, %p3 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<64x64xf32>
    scf.yield %n : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

//--- body-order.mlir
// Both 16 KiB products are made before either is reduced: the body holds
// both and the first 256 B sum (33024 B). Reduced one after the other, it
// holds one product and the two sums at a time (16896 B).
// BODY-ORDER-BEFORE: task {{.*}} scf.for after [] {{.*}} workspace 33024
// The body's graph: each op a task, each allocation with the tasks using
// it (the matmul writes into its fill's buffer, the reductions into
// theirs, the last op into the carried accumulator).
// BODY-GRAPH: body of scf.for region 0 peak 33024 tasks 13
// BODY-GRAPH: task 8 linalg.generic after [1, 2, 7] workspace 0
// BODY-GRAPH: allocation 16384 by task 1 used by [2, 8]
// BODY-GRAPH-NEXT: allocation 16384 by task 4 used by [5, 11]
// BODY-GRAPH-NEXT: allocation 256 by task 7 used by [8, 12]
// BODY-GRAPH-NEXT: allocation 256 by task 10 used by [11, 12]
// BODY-GRAPH-AFTER: body of scf.for region 0 peak 16896 tasks 13
// BODY-ORDER: memsched-reorder: peak {{.*}}; 1 control-flow body reordered
// BODY-ORDER: task {{.*}} scf.for after [] {{.*}} workspace 16896
// BODY-ORDER-MODEL: bufferization-model @sums scf.for body predicted 16896 bufferized 16896
#order_id = affine_map<(d0, d1) -> (d0, d1)>
#order_row = affine_map<(d0, d1) -> (d0)>
#order_vec = affine_map<(d0) -> (d0)>
func.func @sums(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %init) -> (tensor<64xf32>) {
    %e1 = tensor.empty() : tensor<64x64xf32>
    %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %p1 = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z1 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %e2 = tensor.empty() : tensor<64x64xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %p2 = linalg.matmul ins(%w, %x : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z2 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %er1 = tensor.empty() : tensor<64xf32>
    %zr1 = linalg.fill ins(%zero : f32) outs(%er1 : tensor<64xf32>) -> tensor<64xf32>
    %s1 = linalg.generic {indexing_maps = [#order_id, #order_row], iterator_types = ["parallel", "reduction"]} ins(%p1 : tensor<64x64xf32>) outs(%zr1 : tensor<64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %t = arith.addf %a, %o : f32
      linalg.yield %t : f32
    } -> tensor<64xf32>
    %er2 = tensor.empty() : tensor<64xf32>
    %zr2 = linalg.fill ins(%zero : f32) outs(%er2 : tensor<64xf32>) -> tensor<64xf32>
    %s2 = linalg.generic {indexing_maps = [#order_id, #order_row], iterator_types = ["parallel", "reduction"]} ins(%p2 : tensor<64x64xf32>) outs(%zr2 : tensor<64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %t = arith.addf %a, %o : f32
      linalg.yield %t : f32
    } -> tensor<64xf32>
    %n = linalg.generic {indexing_maps = [#order_vec, #order_vec, #order_vec], iterator_types = ["parallel"]} ins(%s1, %s2 : tensor<64xf32>, tensor<64xf32>) outs(%acc : tensor<64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %t = arith.addf %a, %b : f32
      %u = arith.addf %t, %o : f32
      linalg.yield %u : f32
    } -> tensor<64xf32>
    scf.yield %n : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

//--- reorder.mlir
// %big is made before the loop but read after it: the loop runs with it
// live (16 KiB besides the loop's accumulator and its body's 16 KiB
// product). Reordering makes it after the loop: 80 KiB -> 64.25 KiB.
// The body's fill + matmul allocate 16 KiB once (the matmul writes into the
// fill's buffer, the add into the accumulator); four trips of a 64^3
// matmul and a 64^2 add.
// GRAPH: tensor-graph @loop tasks 3
// GRAPH: task 1 scf.for after [] flops 2134016 {{.*}} workspace 16384
// GRAPH: buffer transient 16384 values [%2, %3, %4]
// MODEL: bufferization-model @loop scf.for body predicted 16384 bufferized 16384
// MODEL: bufferization-model @loop predicted 33024 bufferized 33024
// REORDER: memsched-reorder: peak 80.00 KiB -> 64.25 KiB (1.25x)
// REORDER: peak-memory @loop resident 32768 peak_transient 33024 peak 65792
// ORDER: scf.for
// ORDER: arith.mulf
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @loop(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %big = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x64xf32>) outs(%e0 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %f) -> (tensor<64x64xf32>) {
    %e2 = tensor.empty() : tensor<64x64xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %p = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
    %n = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%acc, %p : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<64x64xf32>
    scf.yield %n : tensor<64x64xf32>
  }
  %e3 = tensor.empty() : tensor<64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]} ins(%big, %r : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f3 : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %o : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  return %out : tensor<64xf32>
}

//--- choice.mlir
// An scf.if's result is a buffer its branch allocates (1 KiB); the branch's
// other temporary (1 KiB) is the op's workspace; the larger branch counts.
// CHOICE: task 0 scf.if after [] {{.*}} workspace 1024
// CHOICE: buffer transient 1024 values [%0] returned
// CHOICE-MODEL: bufferization-model @choice scf.if body predicted 1024 bufferized 1024
// CHOICE-MODEL: bufferization-model @choice predicted 1024 bufferized 1024
#id1 = affine_map<(d0) -> (d0)>
func.func @choice(%x: tensor<256xf32>, %c: i1) -> tensor<256xf32> {
  %r = scf.if %c -> (tensor<256xf32>) {
    %e = tensor.empty() : tensor<256xf32>
    %n = linalg.negf ins(%x : tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
    %e2 = tensor.empty() : tensor<256xf32>
    %m = linalg.mul ins(%n, %x : tensor<256xf32>, tensor<256xf32>) outs(%e2 : tensor<256xf32>) -> tensor<256xf32>
    scf.yield %m : tensor<256xf32>
  } else {
    %e = tensor.empty() : tensor<256xf32>
    %n = linalg.exp ins(%x : tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
    scf.yield %n : tensor<256xf32>
  }
  return %r : tensor<256xf32>
}

//--- fresh-yield.mlir
// The body yields a new tensor, not its carried one: bufferization
// allocates it in the body (1 KiB) and the loop returns it; while it is
// made, the previous iteration's (1 KiB) is still live, which the checker,
// counting each allocation once, does not see.
// FRESH: bufferization-model @fresh scf.for body predicted 2048 bufferized 1024
func.func @fresh(%x: tensor<256xf32>) -> tensor<256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<256xf32>) {
    %e = tensor.empty() : tensor<256xf32>
    %n = linalg.add ins(%acc, %x : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
    scf.yield %n : tensor<256xf32>
  }
  return %r : tensor<256xf32>
}

//--- forall.mlir
// An scf.forall computing its shared output in tiles: each tile is written
// in place into its slice (the output's buffer is the result's), the exp
// temporary (16x64 f32, 4 KiB) is allocated per iteration (the workspace);
// four iterations one after another. %big, read after the loop, is made
// after it once reordered: 52 KiB -> 48.25 KiB.
// FORALL: tensor-graph @tiles tasks 3
// FORALL: task 1 scf.forall after [] {{.*}} workspace 4096
// FORALL: buffer transient 16384 values [%2, %3]
// FORALL-MODEL: bufferization-model @tiles scf.forall body predicted 4096 bufferized 4096
// FORALL-MODEL: bufferization-model @tiles predicted 33024 bufferized 33024
// FORALL-REORDER: memsched-reorder: peak 52.00 KiB -> 48.25 KiB
// FORALL-REORDER: step 0 scf.forall live 20480
// FORALL-MODEL-AFTER: bufferization-model @tiles predicted 33024 bufferized 33024
#fid = affine_map<(d0, d1) -> (d0, d1)>
#frow = affine_map<(d0, d1) -> (d0)>
func.func @tiles(%x: tensor<64x64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %big = linalg.generic {indexing_maps = [#fid, #fid], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x64xf32>) outs(%e0 : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %r = scf.forall (%i) in (4) shared_outs(%acc = %e1) -> (tensor<64x64xf32>) {
    %c16 = arith.constant 16 : index
    %off = arith.muli %i, %c16 : index
    %src = tensor.extract_slice %x[%off, 0] [16, 64] [1, 1] : tensor<64x64xf32> to tensor<16x64xf32>
    %et = tensor.empty() : tensor<16x64xf32>
    %t = linalg.exp ins(%src : tensor<16x64xf32>) outs(%et : tensor<16x64xf32>) -> tensor<16x64xf32>
    %dst = tensor.extract_slice %acc[%off, 0] [16, 64] [1, 1] : tensor<64x64xf32> to tensor<16x64xf32>
    %s = linalg.add ins(%t, %src : tensor<16x64xf32>, tensor<16x64xf32>) outs(%dst : tensor<16x64xf32>) -> tensor<16x64xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %acc[%off, 0] [16, 64] [1, 1] : tensor<16x64xf32> into tensor<64x64xf32>
    }
  }
  %e3 = tensor.empty() : tensor<64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  %out = linalg.generic {indexing_maps = [#fid, #fid, #frow], iterator_types = ["parallel", "reduction"]} ins(%big, %r : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f3 : tensor<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %o : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  return %out : tensor<64xf32>
}

//--- call.mlir
// A call's result is a buffer the caller holds (bufferization returns the
// callee's allocation); what the callee holds while it runs (the exp and
// the mul, 2 KiB, less the 1 KiB result) is the call's memsched.workspace,
// which memsched-annotate-calls sets (no function pass reads another
// function); without it the call counts its result only.
// CALL: tensor-graph @caller tasks 2
// CALL: task 0 func.call after [] {{.*}} workspace 1024 fence
// CALL-PLAIN: tensor-graph @caller tasks 2
// CALL-PLAIN: task 0 func.call after [] {{.*}} workspace 0 fence
// CALL-MODEL: bufferization-model @helper predicted 2048 bufferized 2048
// CALL-MODEL: bufferization-model @caller predicted 2048 bufferized 2048
func.func private @helper(%x: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %a = linalg.exp ins(%x : tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %e2 = tensor.empty() : tensor<256xf32>
  %b = linalg.mul ins(%a, %x : tensor<256xf32>, tensor<256xf32>) outs(%e2 : tensor<256xf32>) -> tensor<256xf32>
  return %b : tensor<256xf32>
}
func.func @caller(%x: tensor<256xf32>) -> tensor<256xf32> {
  %r = func.call @helper(%x) : (tensor<256xf32>) -> tensor<256xf32>
  %e = tensor.empty() : tensor<256xf32>
  %n = linalg.negf ins(%r : tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  return %n : tensor<256xf32>
}

//--- recursive.mlir
// A recursive callee has no order to simulate: every tensor its body makes
// counts at once (the negf's, the call's and the scf.if's results, 1 KiB
// each; empty tensors allocate nothing themselves), less the call's result.
// RECURSIVE: func.call @down({{.*}}) {memsched.recursive, memsched.workspace = 2048 : i64}
func.func @down(%x: tensor<256xf32>, %c: i1) -> tensor<256xf32> {
  %r = scf.if %c -> (tensor<256xf32>) {
    %e = tensor.empty() : tensor<256xf32>
    %n = linalg.negf ins(%x : tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
    %f = arith.constant false
    %d = func.call @down(%n, %f) : (tensor<256xf32>, i1) -> tensor<256xf32>
    scf.yield %d : tensor<256xf32>
  } else {
    scf.yield %x : tensor<256xf32>
  }
  return %r : tensor<256xf32>
}
