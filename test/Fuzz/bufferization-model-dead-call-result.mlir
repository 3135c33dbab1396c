// Found by bench/fuzz.py (plan, -test-memsched-check-bufferization-model,
// seed 13707, calls; 15 of the 16 mismatches of seeds 13367-13766). A call
// whose result nothing reads still gets that result from its callee, which
// allocates it: the model counts it at the call; the check counted a call
// result only from its first reader on, so never when unread.
// RUN: memsched-opt %s --mlir-disable-threading -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s

// The callee's 16x8xf64 result (1024 B) is live at the call, beside
// nothing else of @main's.
// CHECK: bufferization-model @main predicted 1024 bufferized 1024{{$}}
func.func private @helper(%a: tensor<16x8xf64>) -> tensor<16x8xf64> {
  %e = tensor.empty() : tensor<16x8xf64>
  %n = linalg.negf ins(%a : tensor<16x8xf64>) outs(%e : tensor<16x8xf64>) -> tensor<16x8xf64>
  return %n : tensor<16x8xf64>
}

func.func @main(%a: tensor<16x8xf64>, %x: tensor<4xf64>) -> tensor<4xf64> {
  %unread = func.call @helper(%a) : (tensor<16x8xf64>) -> tensor<16x8xf64>
  %e = tensor.empty() : tensor<4xf64>
  %n = linalg.negf ins(%x : tensor<4xf64>) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  return %n : tensor<4xf64>
}
