// RUN: memsched-opt %s -split-input-file -memsched-explicit-copies | FileCheck %s

// Tests that a write whose init is still read later gets a new buffer of its
// own, without the init's contents where the payload does not read them.

// CHECK-LABEL: func.func @overwrite_read_through_slice
// CHECK: %[[F:.*]] = linalg.fill
// CHECK: %[[S:.*]] = tensor.extract_slice %[[F]]
// CHECK: %[[NEW:.*]] = bufferization.alloc_tensor() : tensor<16xf32>
// CHECK: linalg.exp ins(%{{.*}} : tensor<16xf32>) outs(%[[NEW]] : tensor<16xf32>)
func.func @overwrite_read_through_slice(%x: tensor<16xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = tensor.extract_slice %f[4] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %g = linalg.exp ins(%x : tensor<16xf32>) outs(%f : tensor<16xf32>) -> tensor<16xf32>
  %gs = tensor.extract_slice %g[0] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %c = linalg.add ins(%s, %gs : tensor<4xf32>, tensor<4xf32>)
                  outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// Tests that an accumulation into a buffer still read later starts from a
// copy of it, and that the last accumulation writes in place.

// CHECK-LABEL: func.func @accumulate_twice
// CHECK: %[[C:.*]] = linalg.fill
// CHECK: %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[C]]) : tensor<4x4xf32>
// CHECK: %[[M1:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%[[COPY]] : tensor<4x4xf32>)
// CHECK-NOT: alloc_tensor
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%[[C]] : tensor<4x4xf32>)
func.func @accumulate_twice(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = linalg.matmul ins(%b, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m1, %m2 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Tests that a loop whose init is read after it starts from a copy.

// CHECK-LABEL: func.func @loop_init_read_later
// CHECK: %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[X:.*]]) : tensor<8xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[COPY]])
func.func @loop_init_read_later(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.exp ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %y) -> (tensor<8xf32>) {
    %n = linalg.negf ins(%t : tensor<8xf32>) outs(%t : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %n : tensor<8xf32>
  }
  %e2 = tensor.empty() : tensor<8xf32>
  %s = linalg.add ins(%y, %r : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  return %r, %s : tensor<8xf32>, tensor<8xf32>
}

// -----

// Tests that writes the model makes in place, and functions it skips, are
// left alone.

// CHECK-LABEL: func.func @in_place
// CHECK-NOT: alloc_tensor
// CHECK: return
func.func @in_place(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.exp ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %z = linalg.negf ins(%y : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return %z : tensor<8xf32>
}

// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: alloc_tensor
// CHECK: return
func.func @dynamic(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %y = linalg.negf ins(%x : tensor<?xf32>) outs(%x : tensor<?xf32>) -> tensor<?xf32>
  return %x, %y : tensor<?xf32>, tensor<?xf32>
}
