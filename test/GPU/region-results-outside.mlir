// RUN: memsched-opt %s -memsched-region-results-outside | FileCheck %s
// RUN: memsched-opt %s -memsched-region-results-outside=loops=false | FileCheck %s --check-prefix=LOOPS-OFF
// RUN: memsched-opt %s -memsched-exec-harness=func=step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.cpu
// RUN: memsched-opt %s -memsched-exec-harness=func=step -memsched-to-gpu-pipeline=emulate-kernels 2>/dev/null | %run_gpu_harness%mock_gpu_runtime > %t.emulated
// RUN: grep -v '^mgpu' %t.emulated | diff %t.cpu -
// RUN: FileCheck %s --check-prefix=DEVICE --input-file=%t.emulated

// Tests that a loop yielding a tensor it computes anew and a branch yielding
// one run on the device: their values are materialized into the loop's
// carried tensor and into an empty tensor made before the branch (a branch
// computing its value into an empty tensor of its own computes it there), so
// bufferization allocates nothing a region returns and every buffer of the
// device function is planned. Results are the CPU pipeline's, bit for bit.

// CHECK-LABEL: func.func @step
// CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK: %[[NEW:.*]] = linalg.generic
// CHECK: %[[M:.*]] = bufferization.materialize_in_destination %[[NEW]] in %[[ACC]]
// CHECK: scf.yield %[[M]]
// CHECK: %[[DEST:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK: scf.if
// CHECK: bufferization.materialize_in_destination %[[LOOP]] in %[[DEST]]
// CHECK: } else {
// CHECK: %[[NEG:.*]] = linalg.negf ins(%{{.*}} : tensor<4x4xf32>) outs(%[[DEST]] : tensor<4x4xf32>)
// CHECK-NEXT: scf.yield %[[NEG]]

// Without the pass, the device lowering refuses the loop's and the
// branch's allocations (they would have no planned lifetime).
// DEVICE-NOT: error
// DEVICE: memsched-result 0 tensor<4x4xf32>

func.func @step(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %loop = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<4x4xf32>) {
    %e = tensor.empty() : tensor<4x4xf32>
    %new = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%acc, %acc : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<4x4xf32>
    scf.yield %new : tensor<4x4xf32>
  }
  %true = arith.constant true
  %r = scf.if %true -> (tensor<4x4xf32>) {
    scf.yield %loop : tensor<4x4xf32>
  } else {
    %e = tensor.empty() : tensor<4x4xf32>
    %neg = linalg.negf ins(%loop : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %neg : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// Tests that with loops=false (the CPU pipeline) only branches get a tensor
// of their own.

// LOOPS-OFF-LABEL: func.func @branch_and_loop
// LOOPS-OFF: scf.for
// LOOPS-OFF-NOT: materialize_in_destination
// LOOPS-OFF: scf.yield
// LOOPS-OFF: %[[DEST:.*]] = tensor.empty() : tensor<4xf32>
// LOOPS-OFF: scf.if
// LOOPS-OFF: bufferization.materialize_in_destination %{{.*}} in %[[DEST]]
func.func @branch_and_loop(%x: tensor<4xf32>, %flag: i1) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %loop = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %new = linalg.negf ins(%acc : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %new : tensor<4xf32>
  }
  %r = scf.if %flag -> (tensor<4xf32>) {
    scf.yield %loop : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %loop, %r : tensor<4xf32>, tensor<4xf32>
}

// Tests that a loop yielding a whole slice of its carried tensor yields the
// carried tensor itself (found by bench/fuzz.py, device runs of control-flow
// seeds 29413 and 29673: materializing the slice into the tensor it views
// made bufferization fail with a read-after-write conflict).

// CHECK-LABEL: func.func @yield_whole_slice
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-NOT: materialize_in_destination
// CHECK: scf.yield %[[ACC]]
func.func @yield_whole_slice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %s = tensor.extract_slice %acc[0] [4] [1] : tensor<4xf32> to tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// Tests that a loop whose value is computed element by element from its
// carried tensor, into an empty tensor of its own, computes it in the
// carried tensor: no buffer of the body's own and no copy at the end of the
// iteration (the body's buffers as the memory model counts them at most).
// Where the carried value is read after that op, or read at other elements
// (a transpose, as @step's loop does), the value is copied at the end.
// RUN: memsched-opt %s -memsched-exec-harness=func=accumulate -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.acc.cpu
// RUN: memsched-opt %s -memsched-exec-harness=func=accumulate -memsched-to-gpu-pipeline=emulate-kernels 2>/dev/null | %run_gpu_harness%mock_gpu_runtime > %t.acc.emulated
// RUN: grep -v '^mgpu' %t.acc.emulated | diff %t.acc.cpu -

// CHECK-LABEL: func.func @accumulate
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[a-z0-9]+]] = %{{.*}}, %[[OTHER:[a-z0-9]+]] = %{{.*}}, %[[LAST:[a-z0-9]+]] = %{{.*}})
// CHECK: %[[SUM:.*]] = linalg.add ins(%[[ACC]], %{{.*}} : tensor<8xf32>, tensor<8xf32>) outs(%[[ACC]] : tensor<8xf32>)
// CHECK: %[[NEW:.*]] = linalg.mul ins(%[[OTHER]], %{{.*}} : tensor<8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK-NOT: outs(%[[OTHER]]
// CHECK: %[[MIX:.*]] = linalg.add ins(%[[OTHER]], %[[NEW]] : tensor<8xf32>, tensor<8xf32>) outs(%[[LAST]] : tensor<8xf32>)
// CHECK: %[[M:.*]] = bufferization.materialize_in_destination %[[NEW]] in %[[OTHER]]
// CHECK: scf.yield %[[SUM]], %[[M]], %[[MIX]]
func.func @accumulate(%x: tensor<8xf32>, %g: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %r:3 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init, %other = %x, %last = %x) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
    %e1 = tensor.empty() : tensor<8xf32>
    %sum = linalg.add ins(%acc, %g : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
    %e2 = tensor.empty() : tensor<8xf32>
    %new = linalg.mul ins(%other, %g : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
    %e3 = tensor.empty() : tensor<8xf32>
    %mix = linalg.add ins(%other, %new : tensor<8xf32>, tensor<8xf32>) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %sum, %new, %mix : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// The same through a write in place (as memsched-inplace makes them): the
// yielded value is written into %a, which is written into an empty tensor
// of its own; %a is then computed in the carried tensor, and so is the
// value, with no copy.
// RUN: memsched-opt %s -memsched-exec-harness=func=accumulate_in_place -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.chain.cpu
// RUN: memsched-opt %s -memsched-exec-harness=func=accumulate_in_place -memsched-to-gpu-pipeline=emulate-kernels 2>/dev/null | %run_gpu_harness%mock_gpu_runtime > %t.chain.emulated
// RUN: grep -v '^mgpu' %t.chain.emulated | diff %t.chain.cpu -

// CHECK-LABEL: func.func @accumulate_in_place
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[a-z0-9]+]] = %{{.*}})
// CHECK: %[[A:.*]] = linalg.add ins(%[[ACC]], %{{.*}} : tensor<8xf32>, tensor<8xf32>) outs(%[[ACC]] : tensor<8xf32>)
// CHECK: %[[B:.*]] = linalg.mul ins(%[[A]], %[[A]] : tensor<8xf32>, tensor<8xf32>) outs(%[[A]] : tensor<8xf32>)
// CHECK-NOT: materialize_in_destination
// CHECK: scf.yield %[[B]]
func.func @accumulate_in_place(%x: tensor<8xf32>, %g: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.add ins(%acc, %g : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %b = linalg.mul ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %b : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// A branch and a loop whose value is an insertion into a tensor from
// outside (here an argument the function reads again, and a constant):
// the tensor is copied into the destination (linalg.copy) and the piece
// inserted there, so the region allocates nothing of its own, where it
// would copy the tensor for the insertion and then copy the value again
// (found by bench/fuzz.py, control-flow seeds 31230 and 29962).
// RUN: memsched-opt %s -memsched-exec-harness=func=insert_outside -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.insert.cpu
// RUN: memsched-opt %s -memsched-exec-harness=func=insert_outside -memsched-to-gpu-pipeline=emulate-kernels 2>/dev/null | %run_gpu_harness%mock_gpu_runtime > %t.insert.emulated
// RUN: grep -v '^mgpu' %t.insert.emulated | diff %t.insert.cpu -

// CHECK-LABEL: func.func @insert_outside
// CHECK: %[[CST:.*]] = arith.constant dense<2.000000e+00> : tensor<6xf32>
// CHECK: %[[DEST:.*]] = tensor.empty() : tensor<6xf32>
// CHECK: scf.if
// CHECK: %[[COPY:.*]] = linalg.copy ins(%[[X:.*]] : tensor<6xf32>) outs(%[[DEST]] : tensor<6xf32>)
// CHECK: %[[INS:.*]] = tensor.insert_slice %{{.*}} into %[[COPY]][1] [2] [1]
// CHECK-NEXT: scf.yield %[[INS]]
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[a-z0-9]+]] = %{{.*}})
// CHECK: %[[LCOPY:.*]] = linalg.copy ins(%[[CST]] : tensor<6xf32>) outs(%[[ACC]] : tensor<6xf32>)
// CHECK: %[[LINS:.*]] = tensor.insert_slice %{{.*}} into %[[LCOPY]][0] [2] [1]
// CHECK-NOT: materialize_in_destination
// CHECK: scf.yield %[[LINS]]
func.func @insert_outside(%x: tensor<6xf32>, %p: tensor<2xf32>, %flag: i1) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %cst = arith.constant dense<2.0> : tensor<6xf32>
  %b = scf.if %flag -> (tensor<6xf32>) {
    %ins = tensor.insert_slice %p into %x[1] [2] [1] : tensor<2xf32> into tensor<6xf32>
    scf.yield %ins : tensor<6xf32>
  } else {
    scf.yield %x : tensor<6xf32>
  }
  %l = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<6xf32>) {
    %e = tensor.empty() : tensor<2xf32>
    %piece = tensor.extract_slice %acc[2] [2] [1] : tensor<6xf32> to tensor<2xf32>
    %neg = linalg.negf ins(%piece : tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    %ins = tensor.insert_slice %neg into %cst[0] [2] [1] : tensor<2xf32> into tensor<6xf32>
    scf.yield %ins : tensor<6xf32>
  }
  return %b, %l, %x : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}

// Not through a value read again after its writer in place: bufferization
// would copy it for that write, and the loop yield a buffer of the body's
// own. The value is copied into the carried tensor at the end instead, and
// every device buffer is planned.
// RUN: memsched-opt %s -memsched-exec-harness=func=chain_read_later -memsched-to-gpu-pipeline=emulate-kernels 2>&1 >/dev/null | FileCheck %s --check-prefix=READ-LATER
// READ-LATER: memsched-plan-buffers: 3 buffers in one arena of 544 B (max live 544 B, fragmentation 1.000x, {{[a-z-]+}}), 1 left as they are (the first: returned from the function)

// CHECK-LABEL: func.func @chain_read_later
// CHECK: iter_args(%[[ACC:[a-z0-9]+]] = %{{.*}})
// CHECK: %[[A:.*]] = linalg.add ins(%[[ACC]], %{{.*}} : tensor<8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: %[[B:.*]] = linalg.mul
// CHECK: bufferization.materialize_in_destination %[[B]] in %[[ACC]]
func.func @chain_read_later(%x: tensor<8xf32>, %g: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.add ins(%acc, %g : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %b = linalg.mul ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
    %e2 = tensor.empty() : tensor<8xf32>
    %c = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %b : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
