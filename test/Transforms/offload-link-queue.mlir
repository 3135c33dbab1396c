// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-offload=offload=params 2>/dev/null | FileCheck %s

// Tests that memsched-offload places parameter copies for the host-to-device
// link, which runs one copy at a time in issue order: %wb's 64 MiB copy
// would take 1.2 ms, more than the compute before %w2's reader, so %w2's
// 4 MiB copy is issued ahead of it rather than queued behind it (where it
// would delay %a4 and everything after; issuing each copy only as early as
// its own time needs did that).

// CHECK-LABEL: func.func @step
// CHECK-DAG: %[[H2:.*]] = memsched.host_argument %arg1
// CHECK-DAG: %[[HB:.*]] = memsched.host_argument %arg2
// CHECK: memsched.swap_in %[[H2]]
// CHECK: memsched.swap_in %[[HB]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> ()>
func.func @step(%w1: tensor<1024x1024xf32>, %w2: tensor<1024x1024xf32>,
                %wb: tensor<1024x16384xf32>, %x: tensor<1024x1024xf32>)
    -> (tensor<f32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>,
        tensor<1024x16384xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %a1 = linalg.matmul ins(%x, %w1 : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%z : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %a2 = linalg.matmul ins(%a1, %a1 : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%z : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %a3 = linalg.matmul ins(%a2, %a2 : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%z : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %a4 = linalg.matmul ins(%a3, %w2 : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%z : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %a5 = linalg.matmul ins(%a4, %a4 : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%z : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %eb = tensor.empty() : tensor<1024x16384xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<1024x16384xf32>) -> tensor<1024x16384xf32>
  %o = linalg.matmul ins(%a5, %wb : tensor<1024x1024xf32>, tensor<1024x16384xf32>) outs(%zb : tensor<1024x16384xf32>) -> tensor<1024x16384xf32>
  %es = tensor.empty() : tensor<f32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["reduction", "reduction"]} ins(%o : tensor<1024x16384xf32>) outs(%zs : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %g1 = linalg.matmul ins(%a2, %x : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%z : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %g2 = linalg.matmul ins(%a4, %a3 : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%z : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %gb = linalg.matmul ins(%a5, %o : tensor<1024x1024xf32>, tensor<1024x16384xf32>) outs(%zb : tensor<1024x16384xf32>) -> tensor<1024x16384xf32>
  return %loss, %g1, %g2, %gb : tensor<f32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x16384xf32>
}
