// RUN: memsched-opt %s --mlir-disable-threading -test-memsched-print-peak-memory -o /dev/null | FileCheck %s

// Tests that a tensor read inside a payload region (tensor.extract in a
// linalg.generic, as memsched.torch emits for embeddings and gather) is a use
// of its buffer: %a stays live until the generic has read it.

// resident = 64*4 + 4*8 = 288; %a = 256 bytes, %b = 16 bytes. The empties
// are free (no step of their own): step 0 is the exp, step 1 the generic.
// CHECK-LABEL: peak-memory @captured
// CHECK-SAME: peak_transient 272
// CHECK: step 0 linalg.exp live 256{{$}}
// CHECK: step 1 linalg.generic live 272{{$}}
func.func @captured(%x: tensor<64xf32>, %i: tensor<4xindex>) -> tensor<4xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%i : tensor<4xindex>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%idx: index, %out: f32):
    %v = tensor.extract %a[%idx] : tensor<64xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %b : tensor<4xf32>
}
