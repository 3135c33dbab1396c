// RUN: memsched-opt %s -memsched-exec-harness=func=main -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.cpu
// RUN: memsched-opt %s -memsched-exec-harness=func=main -memsched-to-gpu-pipeline=emulate-kernels 2>/dev/null | %run_gpu_harness%mock_gpu_runtime > %t.emulated
// RUN: grep -v '^mgpu' %t.emulated | diff %t.cpu -

// Found by the fuzzer's emulated device runs (seed 24 of its small range):
// memsched-device-boundary crashed when the device function's first op
// read a constant global. It copies arguments and constants in at the
// start of the function and erased each constant's reader as it went,
// among them the op its insertion point stood before. Results must match
// the CPU pipeline's, bit for bit.

func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = arith.constant dense<3.5> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %x = linalg.add ins(%a, %c1 : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %c2 = arith.constant dense<-1.5> : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %y = linalg.mul ins(%x, %c2 : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %c3 = arith.constant dense<2.0> : tensor<4xf32>
  %e3 = tensor.empty() : tensor<4xf32>
  %z = linalg.sub ins(%y, %c3 : tensor<4xf32>, tensor<4xf32>) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %w = linalg.add ins(%z, %b : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  return %w : tensor<4xf32>
}
