// Found by bench/fuzz.py (plan, -test-memsched-check-bufferization-model,
// seed 13817, calls; reduced by hand). A callee that writes into an
// argument (here an insertion into it) makes the caller copy an operand it
// cannot give up: a constant, or a buffer it reads again. The model counts
// that copy in the call's workspace (memsched-annotate-calls); it once
// counted none, 24 B below what bufferization allocates.
// RUN: memsched-opt %s --mlir-disable-threading -split-input-file -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s
// RUN: memsched-opt %s -split-input-file -memsched-annotate-calls | FileCheck %s --check-prefix=WORKSPACE

// CHECK: bufferization-model @helper predicted 8 bufferized 8{{$}}
// CHECK-NEXT: bufferization-model @main call @helper operand copies predicted 24 bufferized 24{{$}}
// CHECK-NEXT: bufferization-model @main predicted 8 bufferized 8{{$}}
// WORKSPACE-LABEL: func.func @main
// WORKSPACE: call @helper{{.*}}memsched.workspace = 24 : i64
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

// -----

// The callee writes into a view of its argument (a fill of a slice). The
// caller reads its operand again after the call: it copies it (64 B). Its
// second operand, a value it reads before the call only, is written in
// place (calls are fences: no reader moves past one); the third, which the
// callee only reads, is never copied.
// CHECK: bufferization-model @scale_rows predicted 0 bufferized 0{{$}}
// CHECK-NEXT: bufferization-model @caller call @scale_rows operand copies predicted 64 bufferized 64{{$}}
// CHECK-NEXT: bufferization-model @caller predicted 256 bufferized 256{{$}}
// WORKSPACE-LABEL: func.func @caller
// WORKSPACE: call @scale_rows{{.*}}memsched.workspace = 64 : i64
func.func private @scale_rows(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %i = arith.constant 0 : index
  %row = tensor.extract_slice %a[0, 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<1x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%row : tensor<1x4xf32>) -> tensor<1x4xf32>
  %g = linalg.fill ins(%zero : f32) outs(%b : tensor<4x4xf32>) -> tensor<4x4xf32>
  %v = tensor.extract %c[%i, %i] : tensor<4x4xf32>
  return %v : f32
}

func.func @caller(%x: tensor<4x4xf32>) -> (f32, tensor<4x4xf32>, tensor<4x4xf32>) {
  %e0 = tensor.empty() : tensor<4x4xf32>
  %a = linalg.exp ins(%x : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %b = linalg.exp ins(%x : tensor<4x4xf32>) outs(%e1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %c = linalg.exp ins(%x : tensor<4x4xf32>) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e4 = tensor.empty() : tensor<4x4xf32>
  %p = linalg.exp ins(%b : tensor<4x4xf32>) outs(%e4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = func.call @scale_rows(%a, %b, %c) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> f32
  %e3 = tensor.empty() : tensor<4x4xf32>
  %r = linalg.add ins(%a, %c : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e3 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s, %r, %p : f32, tensor<4x4xf32>, tensor<4x4xf32>
}
