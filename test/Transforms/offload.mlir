// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-offload=offload=params,grads -cse -canonicalize 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// RUN: memsched-opt %s -memsched-offload=offload=params -memsched-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=PARAMS
// RUN: memsched-opt %s -memsched-report -o /dev/null | FileCheck %s --check-prefix=BEFORE
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-optimize='offload=params,grads budget=0.8x' -memsched-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=BUDGET
// RUN: not memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-optimize='budget=0.8x' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOOFFLOAD
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-fit='offload=params,grads budget=0.8x' -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=CHOSEN
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-fit='offload=params,grads budget=1.0x' -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=NOTCHOSEN
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-optimize='offload=params,grads budget=0.8x' -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=CHOSEN
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-optimize='offload=params,grads budget=1.0x' -o - 2>/dev/null | FileCheck %s --check-prefix=OPTNOT
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-optimize='offload=params,grads' -o - 2>/dev/null | FileCheck %s --check-prefix=OPTFORCED
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-fit='offload=params,grads budget=0.8x reorder=auto' -o - 2>/dev/null | FileCheck %s --check-prefix=FITREORDER
// RUN: not memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-fit='offload=params budget=0.8x reorder=bogus' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADREORDER
// memsched-to-gpu-pipeline passes offload= on to memsched-optimize (it ran
// without it before): the parameters stay in host memory, registered with
// the runtime, and the emulated device's results equal the CPU's.
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false '-memsched-to-gpu-pipeline=offload=params stop-at-launches=true' 2>/dev/null | FileCheck %s --check-prefix=GPU-PIPELINE
// RUN: memsched-opt %s -memsched-exec-harness=func=step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.cpu
// RUN: memsched-opt %s -memsched-exec-harness=func=step '-memsched-to-gpu-pipeline=emulate-kernels offload=params' 2>/dev/null | %run_gpu_harness%mock_gpu_runtime > %t.emulated
// RUN: grep -v '^mgpu' %t.emulated | diff %t.cpu -
// RUN: FileCheck %s --check-prefix=GPU-RUN --input-file=%t.emulated

// Tests memsched-offload on a two-layer training step (params w1, w2; the
// input x; results loss, grads): each parameter is in host memory and read
// by one swap-in per group of readers (at this size w2's forward and
// backward readers are closer in modelled time than two copies of it, so
// one swap-in serves both; both are prefetched from the start, where the
// compute before their first readers is shorter than the copies), each
// gradient is copied out right after it
// is made and returned in host memory; the report counts neither as
// resident; a budget fraction refers to the planned bytes before offload:
// 0.8x of 2 MiB is met with offload and below every plan without.
// memsched-fit{offload=} plans with and without offload and keeps the
// better: offload at 0.8x, none at 1.0x (met as it is, faster without
// copies). memsched-optimize with a budget does the same through
// memsched-fit, which with reorder= orders each way's copy itself; without
// a budget there is nothing to weigh, and the state is offloaded.

// CHECK-LABEL: func.func @step
// CHECK-SAME: %[[W1:[a-z0-9]+]]: tensor<256x256xf32> {memsched.host_memory}
// CHECK-SAME: %[[W2:[a-z0-9]+]]: tensor<256x256xf32> {memsched.host_memory}
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<256x256xf32>)
// CHECK-SAME: -> (tensor<f32>, tensor<256x256xf32> {memsched.host_memory}, tensor<256x256xf32> {memsched.host_memory})
// CHECK-DAG: %[[H1:.*]] = memsched.host_argument %[[W1]]
// CHECK-DAG: %[[H2:.*]] = memsched.host_argument %[[W2]]
// CHECK-DAG: %[[A:.*]] = memsched.swap_in %[[H1]]
// CHECK-DAG: %[[B:.*]] = memsched.swap_in %[[H2]]
// CHECK: linalg.matmul ins(%[[X]], %[[A]]
// CHECK: linalg.matmul ins(%{{.*}}, %[[B]]
// CHECK: %[[G2:.*]] = linalg.matmul
// CHECK-NEXT: %[[O2:.*]] = memsched.swap_out %[[G2]]
// CHECK: linalg.transpose ins(%[[B]]
// CHECK: linalg.transpose ins(%[[X]]
// CHECK: %[[G1:.*]] = linalg.matmul
// CHECK-NEXT: %[[O1:.*]] = memsched.swap_out %[[G1]]
// CHECK-DAG: %[[R1:.*]] = memsched.host_result %[[O1]]
// CHECK-DAG: %[[R2:.*]] = memsched.host_result %[[O2]]
// CHECK: return %{{.*}}, %[[R1]], %[[R2]]

// REMARK: remark: memsched-offload: 2 arguments in host memory, 2 results copied out; 1.00 MiB no longer resident on the device

// BEFORE: resident {{ *}}768.00 KiB
// PARAMS: resident {{ *}}256.00 KiB
// BUDGET: planned (device) {{ *}}1.50 MiB
// NOOFFLOAD: error: memsched-fit: cannot meet the budget of 1.60 MiB
// CHOSEN: "fit": {
// CHOSEN: "offload": true
// NOTCHOSEN: "fit": {
// NOTCHOSEN: "offload": false
// OPTNOT-NOT: memsched.host_memory
// OPTNOT: memsched.fit = {{.*}}offload = false
// OPTNOT-NOT: memsched.swap_in
// OPTFORCED: memsched.host_memory
// FITREORDER: memsched.fit = {{.*}}offload = true
// FITREORDER-SAME: memsched.reorder = {algorithm = "auto"
// BADREORDER: memsched-fit: unknown reorder algorithm 'bogus'; expected one of: auto,
// OPTFORCED: memsched.swap_in

#id = affine_map<(d0, d1) -> (d0, d1)>
#sum = affine_map<(d0, d1) -> ()>
func.func @step(%w1: tensor<256x256xf32>, %w2: tensor<256x256xf32>, %x: tensor<256x256xf32>) -> (tensor<f32>, tensor<256x256xf32>, tensor<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  // Forward: h = x w1, y = h w2.
  %h = linalg.matmul ins(%x, %w1 : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  // Loss: sum of y; its gradient is all ones.
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction", "reduction"]} ins(%y : tensor<256x256xf32>) outs(%z0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %one = arith.constant 1.0 : f32
  %dy = linalg.fill ins(%one : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  // Backward: dw2 = h^T dy, dh = dy w2^T, dw1 = x^T dh.
  %ht = linalg.transpose ins(%h : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) permutation = [1, 0]
  %dw2 = linalg.matmul ins(%ht, %dy : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) permutation = [1, 0]
  %dh = linalg.matmul ins(%dy, %w2t : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  %xt = linalg.transpose ins(%x : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) permutation = [1, 0]
  %dw1 = linalg.matmul ins(%xt, %dh : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %loss, %dw1, %dw2 : tensor<f32>, tensor<256x256xf32>, tensor<256x256xf32>
}

// GPU-PIPELINE: func.func @step(%arg0: memref<256x256xf32> {memsched.host_memory}, %arg1: memref<256x256xf32> {memsched.host_memory}, %arg2: memref<256x256xf32>)
// GPU-RUN-COUNT-2: mgpu host_register bytes=262144
