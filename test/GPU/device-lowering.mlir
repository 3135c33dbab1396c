// RUN: memsched-opt %s -memsched-tag-kernels --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -memsched-device-boundary | FileCheck %s --check-prefix=BOUNDARY
// RUN: memsched-opt %s -memsched-tag-kernels --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -memsched-device-boundary -memsched-plan-buffers -memsched-device-allocations -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=ALLOC
// RUN: memsched-opt %s -memsched-tag-kernels --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -memsched-device-boundary -memsched-plan-buffers -memsched-device-allocations -memsched-linalg-to-gpu -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=KERNELS
// The whole pipeline, run against the logging mock runtime: one arena
// allocation at its planned size, the launch shapes, the copies.
// RUN: memsched-opt %s -memsched-exec-harness=func=step -memsched-to-gpu-pipeline -mlir-print-op-on-diagnostic=false 2>/dev/null | %run_gpu_harness%mock_gpu_runtime | FileCheck %s --check-prefix=MOCK
// The kernels run as host loops over the mock's host memory give the CPU
// pipeline's results bit for bit.
// RUN: memsched-opt %s -memsched-exec-harness=func=step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.cpu
// RUN: memsched-opt %s -memsched-exec-harness=func=step -memsched-to-gpu-pipeline=emulate-kernels 2>/dev/null | %run_gpu_harness%mock_gpu_runtime > %t.emulated
// RUN: grep -v '^mgpu' %t.emulated | diff %t.cpu -
// RUN: FileCheck %s --check-prefix=EMULATED --input-file=%t.emulated

// Tests the steps of memsched-to-gpu-pipeline before NVVM: the host/device
// boundary (argument and constant copies in, result copies out), device
// allocation of the planned arena, and tiled, named kernels.

// BOUNDARY-LABEL: func.func @step(
// BOUNDARY-SAME: %[[X:[a-z0-9]*]]: memref<64x128xf32>, %[[W:[a-z0-9]*]]: memref<128x32xf32>)
// BOUNDARY-SAME: memsched.device = {argument_bytes = 49152 : i64, constant_bytes = 128 : i64, copied_back_arguments = 0 : i64, resident_bytes = 49280 : i64, result_bytes = 8324 : i64}
// BOUNDARY: %[[DX:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<64x128xf32>
// BOUNDARY: gpu.memcpy async [%{{.*}}] %[[DX]], %[[X]]
// BOUNDARY: %[[DW:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<128x32xf32>
// BOUNDARY: gpu.memcpy async [%{{.*}}] %[[DW]], %[[W]]
// BOUNDARY: %[[C:.*]] = memref.get_global @__constant_32xf32
// BOUNDARY: %[[DC:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<32xf32>
// BOUNDARY: gpu.memcpy async [%{{.*}}] %[[DC]], %[[C]]
// BOUNDARY: linalg.matmul {memsched.kernel = "step_4_matmul"} ins(%[[DX]], %[[DW]] :
// BOUNDARY: ins(%{{.*}}, %[[DC]] : memref<64x32xf32>, memref<32xf32>)
// BOUNDARY: %[[R0:.*]] = memref.alloc() {memsched.host_buffer} : memref<64x32xf32>
// BOUNDARY: gpu.memcpy async [%{{.*}}] %[[R0]], %{{.*}}
// BOUNDARY: %[[R1:.*]] = memref.alloc() {memsched.host_buffer} : memref<32xf32>
// BOUNDARY: %[[R2:.*]] = memref.alloc() {memsched.host_buffer} : memref<f32>
// BOUNDARY: gpu.dealloc async [%{{.*}}] %[[DX]]
// BOUNDARY: gpu.dealloc async [%{{.*}}] %[[DW]]
// BOUNDARY: gpu.dealloc async [%{{.*}}] %[[DC]]
// BOUNDARY: return %[[R0]], %[[R1]], %[[R2]]

// Every device buffer, results included, is in the one arena; only the
// host result buffers stay memref.alloc.
// ALLOC-LABEL: func.func @step
// ALLOC-SAME: device_allocations = 1 : i64, device_bytes = 65664 : i64
// ALLOC-SAME: memsched.plan = {{{.*}}arena_bytes = 16384 : i64
// ALLOC: %[[ARENA:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () {memsched.arena} : memref<16384xi8>
// ALLOC-NOT: memref.alloc() {alignment
// ALLOC: memref.view %[[ARENA]]
// ALLOC: memref.alloc() {memsched.host_buffer} : memref<64x32xf32>
// ALLOC: gpu.dealloc async [%{{.*}}] %[[ARENA]] : memref<16384xi8>
// ALLOC-NEXT: gpu.wait
// ALLOC-NEXT: return

// One launch per op, named after the op, in one kernel module; reductions
// stay sequential loops, in the op's order, inside the thread that owns the
// output elements. The matmul's threads each accumulate 4 rows of outputs
// (8 threads and 4 outputs per thread over its 64 rows, 32 threads over
// its 32 columns) in registers, stored once, each guarded.
// KERNELS-LABEL: func.func @step
// KERNELS: gpu.launch {{.*}} module(@step_kernels) function(@step_3_fill)
// KERNELS: gpu.launch {{.*}} module(@step_kernels) function(@step_4_matmul)
// KERNELS: scf.for %{{.*}} = %{{.*}} to %c128 step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32)
// KERNELS-COUNT-4: scf.if
// KERNELS: gpu.launch {{.*}} module(@step_kernels) function(@step_6_generic)
// KERNELS: gpu.launch {{.*}} module(@step_kernels) function(@step_8_fill)
// KERNELS: gpu.launch {{.*}} module(@step_kernels) function(@step_9_reduce)
// KERNELS: scf.for %{{.*}} = %{{.*}} to %c64{{.*}} iter_args({{.*}}) -> (f32)
// KERNELS: gpu.launch {{.*}} module(@step_kernels) function(@step_11_fill)
// KERNELS: gpu.launch {{.*}} module(@step_kernels) function(@step_12_reduce)
// KERNELS: scf.for %{{.*}} = %{{.*}} to %c32
// KERNELS-NOT: linalg.
// KERNELS-NOT: SCFToGPU_visited

// 64x32 outputs: 32 threads in x over the inner dimension, 8 in y, 8
// blocks in y; the matmul's 4 rows per thread make 2 blocks. A 1-D op of 32
// elements: one block of 32 threads. A full reduction: one thread.
// MOCK: mgpu module.load_jit
// MOCK-NEXT: mgpu alloc bytes=16384
// MOCK-NEXT: mgpu alloc bytes=32768
// MOCK-NEXT: mgpu memcpy bytes=32768
// MOCK-NEXT: mgpu alloc bytes=16384
// MOCK-NEXT: mgpu memcpy bytes=16384
// MOCK-NEXT: mgpu alloc bytes=128
// MOCK-NEXT: mgpu memcpy bytes=128
// MOCK-NEXT: mgpu launch step_3_fill grid=(1,8,1) block=(32,8,1)
// MOCK-NEXT: mgpu launch step_4_matmul grid=(1,2,1) block=(32,8,1)
// MOCK-NEXT: mgpu launch step_6_generic grid=(1,8,1) block=(32,8,1)
// MOCK-NEXT: mgpu launch step_8_fill grid=(1,1,1) block=(32,1,1)
// MOCK-NEXT: mgpu launch step_9_reduce grid=(1,1,1) block=(32,1,1)
// MOCK-NEXT: mgpu launch step_11_fill grid=(1,1,1) block=(1,1,1)
// MOCK-NEXT: mgpu launch step_12_reduce grid=(1,1,1) block=(1,1,1)
// MOCK-NEXT: mgpu memcpy bytes=8192
// MOCK-NEXT: mgpu memcpy bytes=128
// MOCK-NEXT: mgpu memcpy bytes=4
// MOCK-NEXT: mgpu free bytes=32768
// MOCK-NEXT: mgpu free bytes=16384
// MOCK-NEXT: mgpu free bytes=128
// MOCK-NEXT: mgpu free bytes=16384 live=0
// MOCK: memsched-result 0 tensor<64x32xf32>
// MOCK: mgpu summary allocations=4 launches=7 {{.*}} peak_bytes=65664 live_bytes=0

// EMULATED: mgpu alloc bytes=16384
// EMULATED-NOT: mgpu launch
// EMULATED: mgpu summary allocations=4 launches=0 {{.*}} peak_bytes=65664 live_bytes=0

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @step(%x: tensor<64x128xf32>, %w: tensor<128x32xf32>) -> (tensor<64x32xf32>, tensor<32xf32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %bias = arith.constant dense<0.5> : tensor<32xf32>
  %e0 = tensor.empty() : tensor<64x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<64x128xf32>, tensor<128x32xf32>) outs(%f0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e1 = tensor.empty() : tensor<64x32xf32>
  %z = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %bias : tensor<64x32xf32>, tensor<32xf32>) outs(%e1 : tensor<64x32xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  %e2 = tensor.empty() : tensor<32xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<32xf32>) -> tensor<32xf32>
  %col = linalg.reduce ins(%z : tensor<64x32xf32>) outs(%f2 : tensor<32xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e3 = tensor.empty() : tensor<f32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<f32>) -> tensor<f32>
  %total = linalg.reduce ins(%col : tensor<32xf32>) outs(%f3 : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %z, %col, %total : tensor<64x32xf32>, tensor<32xf32>, tensor<f32>
}
