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
// GPU: %[[S0:.*]] = gpu.wait async
// GPU: %[[OUT:.*]] = gpu.memcpy async [%[[S0]]] %{{.*}}, %[[SRC]]
// The swap-in follows at once: the swap-out is waited for right before it.
// GPU-NEXT: gpu.wait [%[[OUT]]]
// GPU: %[[DEV:.*]] = memref.alloc() : memref<4x8xf32>
// GPU: %[[S1:.*]] = gpu.wait async
// GPU: %[[IN:.*]] = gpu.memcpy async [%[[S1]]] %[[DEV]], %{{.*}}
// GPU: linalg.exp
// GPU: tensor.empty
// GPU-NEXT: gpu.wait [%[[IN]]]
// GPU-NEXT: %[[T:.*]] = bufferization.to_tensor %[[DEV]] restrict writable
// GPU-NEXT: linalg.add ins(%{{.*}}, %[[T]] :

// BAD: for the --target option: Cannot find option named 'tpu'!
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

// A 1 MiB swap-out takes about 19 us on h100's link (55 GB/s) and 42 us on
// a100-80gb's (25 GB/s), next to 4 us per 4 MiB exp (h100) and 6 us (a100):
// the wait for it lands after the ops the copy overlaps in the time model,
// well before the swap-in, so that buffer planning reuses the buffer early.
// RUN: memsched-opt %s -memsched-lower-swaps=target=gpu | FileCheck %s --check-prefix=RELEASE
// RUN: memsched-opt %s -memsched-lower-swaps="target=gpu device=a100-80gb" | FileCheck %s --check-prefix=RELEASE-SLOW
// RELEASE-LABEL: func.func @release
// RELEASE: %[[OUT:.*]] = gpu.memcpy async
// RELEASE-COUNT-5: linalg.exp {{.*}}tensor<1024x1024xf32>
// RELEASE-NEXT: gpu.wait [%[[OUT]]]
// RELEASE-NEXT: tensor.empty
// RELEASE-NEXT: linalg.exp
// RELEASE-SLOW-LABEL: func.func @release
// RELEASE-SLOW: %[[OUT:.*]] = gpu.memcpy async
// RELEASE-SLOW-COUNT-6: linalg.exp {{.*}}tensor<1024x1024xf32>
// RELEASE-SLOW-NEXT: gpu.wait [%[[OUT]]]
func.func @release(%a: tensor<1024x1024xf32>) -> tensor<256x1024xf32> {
  %e0 = tensor.empty() : tensor<256x1024xf32>
  %s = tensor.extract_slice %a[0, 0] [256, 1024] [1, 1] : tensor<1024x1024xf32> to tensor<256x1024xf32>
  %x = linalg.exp ins(%s : tensor<256x1024xf32>) outs(%e0 : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %h = memsched.swap_out %x : tensor<256x1024xf32> -> !memsched.host<tensor<256x1024xf32>>
  %e1 = tensor.empty() : tensor<1024x1024xf32>
  %y1 = linalg.exp ins(%a : tensor<1024x1024xf32>) outs(%e1 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %e2 = tensor.empty() : tensor<1024x1024xf32>
  %y2 = linalg.exp ins(%y1 : tensor<1024x1024xf32>) outs(%e2 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %e3 = tensor.empty() : tensor<1024x1024xf32>
  %y3 = linalg.exp ins(%y2 : tensor<1024x1024xf32>) outs(%e3 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %e4 = tensor.empty() : tensor<1024x1024xf32>
  %y4 = linalg.exp ins(%y3 : tensor<1024x1024xf32>) outs(%e4 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %e5 = tensor.empty() : tensor<1024x1024xf32>
  %y5 = linalg.exp ins(%y4 : tensor<1024x1024xf32>) outs(%e5 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %e6 = tensor.empty() : tensor<1024x1024xf32>
  %y6 = linalg.exp ins(%y5 : tensor<1024x1024xf32>) outs(%e6 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %e7 = tensor.empty() : tensor<1024x1024xf32>
  %y7 = linalg.exp ins(%y6 : tensor<1024x1024xf32>) outs(%e7 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %e8 = tensor.empty() : tensor<1024x1024xf32>
  %y8 = linalg.exp ins(%y7 : tensor<1024x1024xf32>) outs(%e8 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %b = memsched.swap_in %h : !memsched.host<tensor<256x1024xf32>> -> tensor<256x1024xf32>
  %t = tensor.extract_slice %y8[0, 0] [256, 1024] [1, 1] : tensor<1024x1024xf32> to tensor<256x1024xf32>
  %e9 = tensor.empty() : tensor<256x1024xf32>
  %z = linalg.add ins(%t, %b : tensor<256x1024xf32>, tensor<256x1024xf32>) outs(%e9 : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  return %z : tensor<256x1024xf32>
}

// Several swap-ins of one host copy: the copy out (4 MiB, ~80 us) is waited
// for before the first of them, not only before the last.
// RUN: memsched-opt %s -memsched-lower-swaps=target=gpu | FileCheck %s --check-prefix=TWICE
// TWICE-LABEL: func.func @twice
// TWICE: %[[OUT:.*]] = gpu.memcpy async
// TWICE-NEXT: gpu.wait [%[[OUT]]]
// TWICE: gpu.memcpy async
// TWICE: linalg.exp
// TWICE-NOT: gpu.wait [%[[OUT]]]
// TWICE: gpu.memcpy async
func.func @twice(%a: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %e0 = tensor.empty() : tensor<1024x1024xf32>
  %x = linalg.exp ins(%a : tensor<1024x1024xf32>) outs(%e0 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %h = memsched.swap_out %x : tensor<1024x1024xf32> -> !memsched.host<tensor<1024x1024xf32>>
  %b = memsched.swap_in %h : !memsched.host<tensor<1024x1024xf32>> -> tensor<1024x1024xf32>
  %e1 = tensor.empty() : tensor<1024x1024xf32>
  %y = linalg.exp ins(%b : tensor<1024x1024xf32>) outs(%e1 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %c = memsched.swap_in %h : !memsched.host<tensor<1024x1024xf32>> -> tensor<1024x1024xf32>
  %e2 = tensor.empty() : tensor<1024x1024xf32>
  %z = linalg.add ins(%y, %c : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%e2 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %z : tensor<1024x1024xf32>
}
