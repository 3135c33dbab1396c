// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-annotate-calls -memsched-fit=budget=min -verify-diagnostics -o /dev/null
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-annotate-calls -memsched-swap=budget=min -verify-diagnostics -o /dev/null
// RUN: memsched-opt %s -memsched-annotate-calls | FileCheck %s

// Tests that the budget passes refuse a function whose calls can recurse:
// memsched-annotate-calls counts one level of a recursion as the call's
// workspace and marks the call memsched.recursive (directly recursive
// @down, @caller through it, @ping and @pong through each other); the
// device would hold more with every level, so no budget is promised. A
// function whose calls end (@plain) is planned as before.

// CHECK-LABEL: func.func @down
// CHECK: call @down({{.*}}) {memsched.recursive, memsched.workspace = 2048 : i64}
func.func @down(%x: tensor<256xf32>, %c: i1) -> tensor<256xf32> {
  %r = scf.if %c -> (tensor<256xf32>) {
    %e = tensor.empty() : tensor<256xf32>
    %n = linalg.negf ins(%x : tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
    %f = arith.constant false
    // expected-error @below {{'@down' makes a call that can recurse; the memory a recursion holds grows with its depth}}
    %d = func.call @down(%n, %f) : (tensor<256xf32>, i1) -> tensor<256xf32>
    scf.yield %d : tensor<256xf32>
  } else {
    scf.yield %x : tensor<256xf32>
  }
  return %r : tensor<256xf32>
}

// CHECK-LABEL: func.func @caller
// CHECK: call @down({{.*}}) {memsched.recursive, memsched.workspace
func.func @caller(%x: tensor<256xf32>) -> tensor<256xf32> {
  %t = arith.constant true
  // expected-error @below {{'@caller' makes a call that can recurse}}
  %r = func.call @down(%x, %t) : (tensor<256xf32>, i1) -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// CHECK-LABEL: func.func @ping
// CHECK: call @pong({{.*}}) {memsched.recursive
func.func @ping(%x: tensor<256xf32>, %c: i1) -> tensor<256xf32> {
  %r = scf.if %c -> (tensor<256xf32>) {
    // expected-error @below {{'@ping' makes a call that can recurse}}
    %d = func.call @pong(%x, %c) : (tensor<256xf32>, i1) -> tensor<256xf32>
    scf.yield %d : tensor<256xf32>
  } else {
    scf.yield %x : tensor<256xf32>
  }
  return %r : tensor<256xf32>
}

// CHECK-LABEL: func.func @pong
// CHECK: call @ping({{.*}}) {memsched.recursive
func.func @pong(%x: tensor<256xf32>, %c: i1) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %n = linalg.negf ins(%x : tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %f = arith.constant false
  // expected-error @below {{'@pong' makes a call that can recurse}}
  %d = func.call @ping(%n, %f) : (tensor<256xf32>, i1) -> tensor<256xf32>
  return %d : tensor<256xf32>
}

// CHECK-LABEL: func.func @helper
// CHECK-NOT: memsched.recursive
// CHECK-LABEL: func.func @plain
// CHECK-NOT: memsched.recursive
// expected-remark @below {{planned memory}}
func.func @helper(%x: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %n = linalg.negf ins(%x : tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  return %n : tensor<256xf32>
}
// expected-remark @below {{planned memory}}
func.func @plain(%x: tensor<256xf32>) -> tensor<256xf32> {
  %r = func.call @helper(%x) : (tensor<256xf32>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}
