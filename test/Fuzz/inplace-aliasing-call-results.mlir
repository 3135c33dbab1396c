// Found by bench/fuzz.py (wrong-result, memsched-optimize without a budget;
// seed 599 of the large run). @twice returns one buffer twice, so the two
// results of the call alias. memsched-inplace took %a#1 as the init of the
// subtraction because no later op reads %a#1, but %a#0 (returned) is the
// same buffer; one-shot bufferization, which does not see that the results
// of a call alias each other, then wrote in place, and the returned %a#0
// read as zeros. memsched-inplace now never writes into a call's result.
// (The memory model still counts the two results as separate buffers.)
// RUN: memsched-opt %s -memsched-exec-harness=func=main -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-inplace -memsched-exec-harness=func=main -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.inplace
// RUN: diff %t.original %t.inplace

// Tests that memsched-inplace leaves the results bit-identical when a callee
// returns the same value twice.

func.func private @twice(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %e = tensor.empty() : tensor<3xf32>
  %n = linalg.negf ins(%x : tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  return %n, %n : tensor<3xf32>, tensor<3xf32>
}

func.func @main(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %a:2 = func.call @twice(%x) : (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  %e = tensor.empty() : tensor<3xf32>
  %d = linalg.sub ins(%a#1, %a#0 : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  return %d, %a#0 : tensor<3xf32>, tensor<3xf32>
}
