// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-offload=offload=params,grads 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// RUN: memsched-opt %s -memsched-exec-harness=func=train_step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.cpu
// RUN: memsched-opt %s -memsched-exec-harness=func=train_step '-memsched-to-gpu-pipeline=emulate-kernels offload=params,grads' 2>/dev/null | %run_gpu_harness%mock_gpu_runtime > %t.offloaded
// RUN: grep -v '^mgpu' %t.offloaded | diff %t.cpu -
// RUN: memsched-opt %s -memsched-exec-harness=func=train_step '-memsched-to-gpu-pipeline=emulate-kernels offload=params,grads,inputs budget=min' 2>/dev/null | %run_gpu_harness%mock_gpu_runtime > %t.min
// RUN: grep -v '^mgpu' %t.min | diff %t.cpu -

// Tests memsched-offload on a step that writes into a parameter (an op's
// destination), as torchvision's Swin V2 does when it zeroes part of a
// clone of its qkv bias (functionalized, the clone is gone and the
// parameter is the destination of a tensor.insert_slice). Value semantics
// leave the parameter as it was, so it moves like the others: the write
// takes the group's swapped-in copy as destination, and bufferization
// copies it where that copy is read afterwards (%r reads the unmasked
// bias). The offloaded step's results, also at the smallest budget with
// the batch offloaded too, equal the CPU's bit for bit.

// CHECK-LABEL: func.func @train_step
// CHECK-SAME: tensor<16xf32> {memsched.host_memory}
// CHECK: %[[HOST:.+]] = memsched.host_argument %arg1
// CHECK: %[[BIAS:.+]] = memsched.swap_in %[[HOST]]
// CHECK: tensor.insert_slice %{{.+}} into %[[BIAS]][4] [4] [1]
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %[[BIAS]] : tensor<8x16xf32>, tensor<16xf32>)
// REMARK: remark: memsched-offload: 2 arguments in host memory, 2 results copied out; 2.12 KiB no longer resident on the device

//   @train_step(w: 16x16, b: 16, x: 8x16) -> (loss, dw: 16x16, db: 16)

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#red = affine_map<(d0, d1) -> ()>

module {
  func.func @train_step(%w: tensor<16x16xf32>, %b: tensor<16xf32>,
                        %x: tensor<8x16xf32>)
      -> (tensor<f32>, tensor<16x16xf32>, tensor<16xf32>) {
    %zero = arith.constant 0.0 : f32
    %two = arith.constant 2.0 : f32
    %e4 = tensor.empty() : tensor<4xf32>
    %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    // The masked bias: the parameter with its middle quarter zeroed.
    %bm = tensor.insert_slice %z4 into %b[4] [4] [1] : tensor<4xf32> into tensor<16xf32>
    %e816 = tensor.empty() : tensor<8x16xf32>
    %f816 = linalg.fill ins(%zero : f32) outs(%e816 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %h = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f816 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %hb = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%h, %bm : tensor<8x16xf32>, tensor<16xf32>) outs(%e816 : tensor<8x16xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    } -> tensor<8x16xf32>
    %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%hb, %b : tensor<8x16xf32>, tensor<16xf32>) outs(%e816 : tensor<8x16xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.mulf %a, %c : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
    } -> tensor<8x16xf32>
    %el = tensor.empty() : tensor<f32>
    %fl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
    %loss = linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["reduction", "reduction"]}
        ins(%r : tensor<8x16xf32>) outs(%fl : tensor<f32>) {
    ^bb0(%a: f32, %acc: f32):
      %sq = arith.mulf %a, %a : f32
      %s = arith.addf %acc, %sq : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    // Backward (any function of the step's values of the gradients' types
    // serves: the check is that offloaded and plain steps agree bit for bit).
    %dr = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%r : tensor<8x16xf32>) outs(%e816 : tensor<8x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %d = arith.mulf %a, %two : f32
      linalg.yield %d : f32
    } -> tensor<8x16xf32>
    %e1616 = tensor.empty() : tensor<16x16xf32>
    %f1616 = linalg.fill ins(%zero : f32) outs(%e1616 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %e168 = tensor.empty() : tensor<16x8xf32>
    %xt = linalg.transpose ins(%x : tensor<8x16xf32>) outs(%e168 : tensor<16x8xf32>) permutation = [1, 0]
    %dw = linalg.matmul ins(%xt, %dr : tensor<16x8xf32>, tensor<8x16xf32>) outs(%f1616 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %e16 = tensor.empty() : tensor<16xf32>
    %f16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
    %dsum = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
        ins(%dr : tensor<8x16xf32>) outs(%f16 : tensor<16xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %acc, %a : f32
      linalg.yield %s : f32
    } -> tensor<16xf32>
    %db = tensor.insert_slice %z4 into %dsum[4] [4] [1] : tensor<4xf32> into tensor<16xf32>
    return %loss, %dw, %db : tensor<f32>, tensor<16x16xf32>, tensor<16xf32>
  }
}
