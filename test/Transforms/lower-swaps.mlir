// RUN: memsched-opt %s -memsched-lower-swaps | FileCheck %s --check-prefix=CPU
// RUN: memsched-opt %s -memsched-lower-swaps=target=gpu | FileCheck %s --check-prefix=GPU
// RUN: not memsched-opt %s -memsched-lower-swaps=target=tpu 2>&1 | FileCheck %s --check-prefix=BAD

// Tests that swaps become copies into a host arena slot: a synchronous
// materialization and a copy back on CPU; on GPU, a pinned arena, an async
// copy out, an allocation and async copy in chained on its token, and a
// wait right before the first reader only.

// CPU: memref.global "private" @__memsched_host_arena_f : memref<128xi8> {alignment = 64 : i64}
// CPU-LABEL: func.func @f
// CPU: %[[ARENA:.*]] = memref.get_global @__memsched_host_arena_f : memref<128xi8>
// CPU: %[[SLOT:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<128xi8> to memref<4x8xf32>
// CPU: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[SLOT]]
// CPU: %[[BACK:.*]] = bufferization.to_tensor %{{.*}} restrict
// CPU: %[[COPY:.*]] = linalg.copy ins(%[[BACK]] : tensor<4x8xf32>)
// CPU: linalg.add ins(%{{.*}}, %[[COPY]] :
// CPU-NOT: memsched.swap

// GPU: memref.global "private" @__memsched_host_arena_f
// GPU-LABEL: func.func @f
// GPU: %[[ARENA:.*]] = memref.get_global
// GPU: %[[CAST:.*]] = memref.cast %[[ARENA]] : memref<128xi8> to memref<*xi8>
// GPU: gpu.host_register %[[CAST]] : memref<*xi8>
// GPU: %[[SRC:.*]] = bufferization.to_buffer %{{.*}} read_only
// GPU: %[[OUT:.*]] = gpu.memcpy async %{{.*}}, %[[SRC]]
// GPU: %[[DEV:.*]], %[[ALLOC:.*]] = gpu.alloc async [%[[OUT]]] () : memref<4x8xf32>
// GPU: %[[IN:.*]] = gpu.memcpy async [%[[ALLOC]]] %[[DEV]], %{{.*}}
// GPU: linalg.exp
// GPU: tensor.empty
// GPU-NEXT: gpu.wait [%[[IN]]]
// GPU-NEXT: %[[T:.*]] = bufferization.to_tensor %[[DEV]] restrict
// GPU-NEXT: linalg.add ins(%{{.*}}, %[[T]] :

// BAD: unknown target 'tpu'; expected cpu or gpu
func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %x = linalg.exp ins(%a : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = memsched.swap_out %x : tensor<4x8xf32> -> !memsched.host<tensor<4x8xf32>>
  %b = memsched.swap_in %h : !memsched.host<tensor<4x8xf32>> -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.exp ins(%a : tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %z = linalg.add ins(%y, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}
