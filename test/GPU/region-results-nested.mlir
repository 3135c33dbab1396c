// RUN: memsched-opt %s -memsched-exec-harness=func=step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.cpu
// RUN: memsched-opt %s -memsched-exec-harness=func=step -memsched-to-gpu-pipeline=emulate-kernels 2>/dev/null | %run_gpu_harness%mock_gpu_runtime > %t.emulated
// RUN: grep -v '^mgpu' %t.emulated | diff %t.cpu -
// RUN: FileCheck %s --input-file=%t.emulated

// Tests memsched-region-results-outside on nested regions in the device
// pipeline: an scf.index_switch inside a loop inside a loop, each yielding
// a tensor computed anew. Inner ops' values are written into destinations
// of the region around them; every buffer, the loops' carried ones
// included, is planned in the arena (the run allocates it and the
// argument's copy, nothing per iteration), and the results are the CPU
// pipeline's, bit for bit.

// CHECK-COUNT-2: mgpu alloc
// CHECK-NOT: mgpu alloc
// CHECK: memsched-result 0 tensor<8xf32>

func.func @step(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %outer = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<8xf32>) {
    %inner = scf.for %j = %c0 to %c2 step %c1 iter_args(%b = %a) -> (tensor<8xf32>) {
      %k = arith.addi %i, %j : index
      %case = arith.remui %k, %c3 : index
      %s = scf.index_switch %case -> tensor<8xf32>
      case 0 {
        %e = tensor.empty() : tensor<8xf32>
        %n = linalg.negf ins(%b : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %n : tensor<8xf32>
      }
      case 1 {
        %e = tensor.empty() : tensor<8xf32>
        %d = linalg.add ins(%b, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
        scf.yield %d : tensor<8xf32>
      }
      default {
        scf.yield %b : tensor<8xf32>
      }
      scf.yield %s : tensor<8xf32>
    }
    %e = tensor.empty() : tensor<8xf32>
    %m = linalg.mul ins(%inner, %a : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %m : tensor<8xf32>
  }
  return %outer : tensor<8xf32>
}
