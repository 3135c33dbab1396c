// RUN: memsched-opt %s -memsched-exec-harness=func=step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.cpu
// RUN: memsched-opt %s -memsched-exec-harness=func=step -memsched-to-gpu-pipeline=emulate-kernels 2>/dev/null | %run_gpu_harness%mock_gpu_runtime > %t.emulated
// RUN: grep -v '^mgpu' %t.emulated | diff %t.cpu -
// RUN: FileCheck %s --input-file=%t.emulated
// RUN: grep -c '^mgpu memcpy' %t.emulated | FileCheck %s --check-prefix=COPIES
// RUN: memsched-opt %s -memsched-to-gpu-pipeline=emulate-kernels -mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// Tests that structured control flow on device buffers runs on the device:
// a loop carrying buffers (gradient accumulation over micro-batches) is host
// code that only passes them on; the kernels in its body are launched each
// iteration, and their buffers are views of the one planned arena. The
// emulated run gives the CPU pipeline's results bit for bit.

// The arena (the body's buffers and the carried accumulator) and the two
// arguments' copies, allocated once: none per iteration.
// CHECK: mgpu alloc bytes=1152 shared=0 live=1152
// CHECK-COUNT-2: mgpu alloc bytes={{256|512}}
// CHECK-NOT: mgpu alloc
// CHECK: mgpu free bytes=1152 live=0
// CHECK-NEXT: memsched-result 0 tensor<16x4xf32>

// Three copies: the two arguments in and the result out. The accumulator,
// written in place into the carried buffer, is not copied onto itself
// each iteration.
// COPIES: {{^}}3{{$}}

// REMARK: remark: memsched-plan-buffers:
// REMARK-NOT: error

func.func @step(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %acc = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc1 = %acc0) -> (tensor<16x4xf32>) {
    %ey = tensor.empty() : tensor<8x4xf32>
    %fy = linalg.fill ins(%zero : f32) outs(%ey : tensor<8x4xf32>) -> tensor<8x4xf32>
    %y = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%fy : tensor<8x4xf32>) -> tensor<8x4xf32>
    %et = tensor.empty() : tensor<16x8xf32>
    %xt = linalg.transpose ins(%x : tensor<8x16xf32>) outs(%et : tensor<16x8xf32>) permutation = [1, 0]
    %eg = tensor.empty() : tensor<16x4xf32>
    %fg = linalg.fill ins(%zero : f32) outs(%eg : tensor<16x4xf32>) -> tensor<16x4xf32>
    %g = linalg.matmul ins(%xt, %y : tensor<16x8xf32>, tensor<8x4xf32>) outs(%fg : tensor<16x4xf32>) -> tensor<16x4xf32>
    %sum = linalg.add ins(%acc1, %g : tensor<16x4xf32>, tensor<16x4xf32>) outs(%acc1 : tensor<16x4xf32>) -> tensor<16x4xf32>
    scf.yield %sum : tensor<16x4xf32>
  }
  return %acc : tensor<16x4xf32>
}
