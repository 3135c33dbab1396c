// RUN: memsched-opt %s -memsched-report=format=json -o /dev/null | FileCheck %s
// RUN: memsched-opt %s -memsched-inplace -memsched-report=format=json -o /dev/null | FileCheck %s

// The floor counts an elementwise op's result once where it may share an
// input's buffer, and never lets it share two: whether the result is written
// into a fresh buffer (@fresh) or already into its first input's (@written,
// memsched-inplace's output for @fresh), the subtraction's working set is its
// two 1 MiB inputs, and memsched-inplace leaves both floors as they were.

#map = affine_map<(d0, d1) -> (d0, d1)>
#reduce = affine_map<(d0, d1) -> ()>

// Resident 2 MiB, returned 4 bytes, working set 2 MiB.
// CHECK: "floor_bytes": 4194308,
// CHECK: "floor_working_set_bytes": 2097152,
// CHECK: "name": "fresh",
func.func @fresh(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<f32> {
  %e0 = tensor.empty() : tensor<512x512xf32>
  %x = linalg.exp ins(%a : tensor<512x512xf32>) outs(%e0 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %e1 = tensor.empty() : tensor<512x512xf32>
  %y = linalg.exp ins(%b : tensor<512x512xf32>) outs(%e1 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %e2 = tensor.empty() : tensor<512x512xf32>
  %z = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<512x512xf32>, tensor<512x512xf32>) outs(%e2 : tensor<512x512xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %d = arith.subf %p, %q : f32
    linalg.yield %d : f32
  } -> tensor<512x512xf32>
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e3 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#map, #reduce], iterator_types = ["reduction", "reduction"]}
      ins(%z : tensor<512x512xf32>) outs(%init : tensor<f32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %sum : tensor<f32>
}

// CHECK: "floor_bytes": 4194308,
// CHECK: "floor_working_set_bytes": 2097152,
// CHECK: "name": "written",
func.func @written(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<f32> {
  %e0 = tensor.empty() : tensor<512x512xf32>
  %x = linalg.exp ins(%a : tensor<512x512xf32>) outs(%e0 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %e1 = tensor.empty() : tensor<512x512xf32>
  %y = linalg.exp ins(%b : tensor<512x512xf32>) outs(%e1 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %z = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<512x512xf32>, tensor<512x512xf32>) outs(%x : tensor<512x512xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %d = arith.subf %p, %q : f32
    linalg.yield %d : f32
  } -> tensor<512x512xf32>
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e3 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#map, #reduce], iterator_types = ["reduction", "reduction"]}
      ins(%z : tensor<512x512xf32>) outs(%init : tensor<f32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %sum : tensor<f32>
}
