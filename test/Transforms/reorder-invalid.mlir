// RUN: rm -rf %t && split-file %s %t
// RUN: memsched-opt %t/unknown-algorithm.mlir -verify-diagnostics -memsched-reorder=algorithm=fastest
// RUN: memsched-opt %t/exact-too-large.mlir -verify-diagnostics -memsched-reorder="algorithm=exact exact-max-tasks=3"
// RUN: memsched-opt %t/liu-not-a-tree.mlir -verify-diagnostics -memsched-reorder=algorithm=liu
// RUN: memsched-opt %t/exact-with-writes.mlir -verify-diagnostics -memsched-reorder="algorithm=exact inplace-writes=true"
// RUN: memsched-opt %t/several-blocks.mlir -verify-diagnostics -memsched-reorder
// RUN: memsched-opt %t/region-op.mlir -verify-diagnostics -memsched-reorder
// RUN: memsched-opt %t/unknown-device.mlir -verify-diagnostics -memsched-reorder=device=tpu
// RUN: memsched-opt %t/negative-limit.mlir -verify-diagnostics -memsched-reorder=time-limit-ms=-1
// RUN: memsched-opt %t/unknown-objective.mlir -verify-diagnostics -memsched-reorder=objective=time
// RUN: memsched-opt %t/dynamic.mlir -verify-diagnostics -memsched-reorder | FileCheck %t/dynamic.mlir

// Tests that memsched-reorder rejects bad options and functions outside the
// memory model with a diagnostic, and leaves the IR unchanged.

//--- unknown-algorithm.mlir
// expected-error @below {{memsched-reorder: unknown algorithm 'fastest'; expected one of: auto, program, exact, liu, liu-postorder, postorder, xla-list, xla-dfs, inductor-lpmf, inductor-bfs, inductor-dfs, xla, inductor}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- exact-with-writes.mlir
// %b may be written over %a, which dies there: the exact search does not
// count such writes.
// expected-error @below {{memsched-reorder: algorithm 'exact' does not model in-place writes}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e0 = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %b = linalg.exp ins(%a : tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
//--- exact-too-large.mlir
// Four independent ops (the tensor.empty ops do not count: they are free ops,
// in no task).
// expected-error @below {{memsched-reorder: algorithm 'exact' handles parts of at most 3 tasks between cut tasks, but this problem has a part of 4 tasks (use 'auto')}}
func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e0 = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %b = linalg.exp ins(%x : tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %c = linalg.exp ins(%x : tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %e3 = tensor.empty() : tensor<4xf32>
  %d = linalg.exp ins(%x : tensor<4xf32>) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
  return %a, %b, %c, %d : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

//--- liu-not-a-tree.mlir
// %a is read by two ops, so its buffer joins three tasks: not a tree.
// expected-error @below {{memsched-reorder: algorithm 'liu' needs an in-tree or out-tree}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e0 = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %b = linalg.exp ins(%a : tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %c = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

//--- several-blocks.mlir
// expected-error @below {{memsched-reorder cannot analyze '@f': it has 2 blocks, only single-block functions are supported}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1
^bb1:
  return %x : tensor<4xf32>
}

//--- region-op.mlir
func.func @f(%x: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  // expected-error @below {{memsched-reorder cannot schedule an op with regions ('scf.parallel'; supported: linalg, tensor.pad and tensor.generate payloads, and scf.for, scf.forall, scf.if, scf.while, scf.execute_region and scf.index_switch)}}
  %r = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%z) -> f32 {
    %v = tensor.extract %x[%i] : tensor<4xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}

//--- unknown-device.mlir
// expected-error @below {{memsched-reorder: unknown device 'tpu'}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- negative-limit.mlir
// expected-error @below {{memsched-reorder: time-limit-ms and exact-max-tasks must not be negative}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- dynamic.mlir
// A dynamic shape puts the function outside the model: a remark, and the
// function is left as it is (no attribute, same order).
// CHECK-LABEL: func.func @f
// CHECK-NOT:     memsched.reorder
// CHECK:         linalg.exp ins(%arg0
// CHECK-NEXT:    tensor.empty
// CHECK-NEXT:    linalg.exp ins(%arg1
// expected-remark @below {{memsched-reorder leaves '@f' unchanged: argument type 'tensor<?xf32>' has no static size}}
func.func @f(%x: tensor<?xf32>, %y: tensor<4xf32>) -> (tensor<?xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e0 = tensor.empty(%d) : tensor<?xf32>
  %a = linalg.exp ins(%x : tensor<?xf32>) outs(%e0 : tensor<?xf32>) -> tensor<?xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %b = linalg.exp ins(%y : tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  return %a, %b : tensor<?xf32>, tensor<4xf32>
}

//--- unknown-objective.mlir
// expected-error @below {{memsched-reorder: unknown objective 'time'; expected peak or planned}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
