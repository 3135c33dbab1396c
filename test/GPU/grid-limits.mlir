// RUN: memsched-opt %s -memsched-exec-harness=func=tall -memsched-to-gpu-pipeline=threads-y=1 -mlir-print-op-on-diagnostic=false 2>/dev/null | %run_gpu_harness%mock_gpu_runtime | FileCheck %s

// Tests that launches stay within CUDA's grid: 70000 rows in tiles of 1
// (threads-y=1) would need 70000 blocks in y (at most 65535), so the rows
// run sequentially in each thread and the grid keeps only x; and that an op
// over an empty tensor launches nothing (CUDA refuses empty grids).

// CHECK: mgpu launch tall_1_generic grid=(1,1,1) block=(4,1,1)
// CHECK-NOT: mgpu launch
// CHECK: memsched-result 0 tensor<70000x4xf32>

#id = affine_map<(i, j) -> (i, j)>
func.func @tall(%a: tensor<70000x4xf32>, %b: tensor<0x4xf32>) -> (tensor<70000x4xf32>, tensor<0x4xf32>) {
  %e = tensor.empty() : tensor<70000x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<70000x4xf32>) outs(%e : tensor<70000x4xf32>) {
  ^bb0(%v: f32, %out: f32):
    %s = arith.addf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<70000x4xf32>
  %e0 = tensor.empty() : tensor<0x4xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<0x4xf32>) outs(%e0 : tensor<0x4xf32>) {
  ^bb0(%v: f32, %out: f32):
    %s = arith.addf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<0x4xf32>
  return %r, %r0 : tensor<70000x4xf32>, tensor<0x4xf32>
}
