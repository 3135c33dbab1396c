// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=min -cse -canonicalize 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// RUN: memsched-opt %s -memsched-inplace -test-memsched-print-swap-plan=budget=0.8x -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap="budget=min allow-stalls=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSTALL
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=min -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false "-memsched-fit=budget=min allow-remat=false allow-split=false" -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=min -memsched-lower-swaps=target=gpu 2>/dev/null | FileCheck %s --check-prefix=GPU
// RUN: memsched-opt %s -memsched-exec-harness=func=softmax_like -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-swap=budget=min -cse -canonicalize -memsched-exec-harness=func=softmax_like -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.swapped
// RUN: diff %t.original %t.swapped

// Tests a swap whose last early reader writes over the swapped value. The
// shape of a softmax: %a (256 KiB) is exponentiated into %b, which a row
// sum reads; %a is read again by the subtraction after the sum. Swapping
// %a across the sum frees it there, but the exponential still holds %a
// and %b (two 256 KiB buffers beside the resident %x): the smallest plan
// with plain swaps is the function's peak. Waiting for the copy out right
// before the exponential (memsched.swap_wait) lets the exponential write
// its result over %a (outs(%a)), and the subtraction reads %a brought
// back, in place too: one 256 KiB buffer at a time, the floor (the
// exponential's working set written in place, with the resident %x and
// the returned and reduced rows). Without stalls nothing is reached.
// Results are bit-identical on the CPU; the GPU lowering waits for the
// copy's token before the exponential.

// CHECK-LABEL: func.func @softmax_like
// CHECK-SAME: chosen = "swap"
// CHECK: %[[A:.*]] = linalg.matmul
// CHECK-NEXT: %[[H:.*]] = memsched.swap_out %[[A]]
// CHECK-NEXT: memsched.swap_wait %[[H]] : !memsched.host<tensor<256x256xf32>>
// CHECK-NEXT: %[[B:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<256x256xf32>) outs(%[[A]] : tensor<256x256xf32>)
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[B]] :
// CHECK: %[[BACK:.*]] = memsched.swap_in %[[H]]
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[BACK]], %[[SUM]] : {{.*}}) outs(%[[BACK]] :

// REMARK: remark: memsched-swap: planned memory 770.00 KiB -> 514.00 KiB within 514.00 KiB with swap

// PLAN: swap-plan @softmax_like target {{[0-9]+}} within yes smallest 263168 algorithm planned
// PLAN-NEXT: swap %2 out after #0 wait before #1 written over by %4 in after #2 for #3

// NOSTALL: remark: memsched-swap: planned memory 770.00 KiB -> 770.00 KiB within 770.00 KiB with none

// JSON: "floor_bytes": [[FLOOR:[0-9]+]]
// JSON: "planned_bytes": [[FLOOR]]
// JSON: "swap_bytes": 524288

// GPU: %[[TOKEN:.*]] = gpu.memcpy async
// GPU-NEXT: gpu.wait [%[[TOKEN]]]
// GPU-NEXT: linalg.generic
// GPU-NEXT: ^bb0
// GPU-NEXT: math.exp
// GPU-NOT: memsched.swap_wait

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_like(%x: tensor<256x256xf32>) -> tensor<256xf32> {
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x256xf32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %a = linalg.matmul {memsched.cost = 1.0e-6 : f64} ins(%x, %x : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<256x256xf32>) outs(%e1 : tensor<256x256xf32>) attrs = {memsched.cost = 1.0e-6 : f64} {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<256xf32>) -> tensor<256xf32>
  %c = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%b : tensor<256x256xf32>) outs(%f2 : tensor<256xf32>) attrs = {memsched.cost = 1.0e-5 : f64} {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<256xf32>
  %e3 = tensor.empty() : tensor<256x256xf32>
  %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %c : tensor<256x256xf32>, tensor<256xf32>) outs(%e3 : tensor<256x256xf32>) attrs = {memsched.cost = 1.0e-6 : f64} {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %v = arith.subf %in, %in2 : f32
    linalg.yield %v : f32
  } -> tensor<256x256xf32>
  %e4 = tensor.empty() : tensor<256xf32>
  %f4 = linalg.fill ins(%z : f32) outs(%e4 : tensor<256xf32>) -> tensor<256xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%d : tensor<256x256xf32>) outs(%f4 : tensor<256xf32>) attrs = {memsched.cost = 1.0e-6 : f64} {
  ^bb0(%in: f32, %out: f32):
    %v = arith.maximumf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
