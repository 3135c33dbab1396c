// Found by bench/fuzz.py (plan, -test-memsched-check-bufferization-model,
// seed 13817, calls; reduced by hand). A callee that writes into an
// argument (here an insertion into it) makes the caller copy an operand it
// cannot give up: a constant, or a buffer it reads later. The model does not
// know which arguments a callee writes, so it counts no copy at the call
// (24 B here), below what bufferization allocates. Known, not fixed yet.
// XFAIL: *
// RUN: memsched-opt %s --mlir-disable-threading -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s

// CHECK: bufferization-model @main predicted 32 bufferized 32{{$}}
func.func private @helper(%a: tensor<12xbf16>, %b: tensor<8xbf16>, %x: tensor<1x8xbf16>, %w: tensor<8x4xbf16>) -> tensor<1x4xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<1x4xbf16>
  %fill = linalg.fill ins(%zero : bf16) outs(%e : tensor<1x4xbf16>) -> tensor<1x4xbf16>
  %mm = linalg.matmul ins(%x, %w : tensor<1x8xbf16>, tensor<8x4xbf16>) outs(%fill : tensor<1x4xbf16>) -> tensor<1x4xbf16>
  %ins = tensor.insert_slice %b into %a[3] [8] [1] : tensor<8xbf16> into tensor<12xbf16>
  return %mm : tensor<1x4xbf16>
}

func.func @main(%b: tensor<8xbf16>, %x: tensor<1x8xbf16>, %w: tensor<8x4xbf16>) -> tensor<1x4xbf16> {
  %cst = arith.constant dense<2.0> : tensor<12xbf16>
  %r = func.call @helper(%cst, %b, %x, %w) : (tensor<12xbf16>, tensor<8xbf16>, tensor<1x8xbf16>, tensor<8x4xbf16>) -> tensor<1x4xbf16>
  return %r : tensor<1x4xbf16>
}
