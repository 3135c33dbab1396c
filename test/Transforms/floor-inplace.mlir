// RUN: memsched-opt %s -memsched-report=format=json -o /dev/null | FileCheck %s
// RUN: memsched-opt %s -memsched-inplace -memsched-report=format=json -o /dev/null | FileCheck %s

// The floor counts an elementwise op's result once where it may share an
// input's buffer, and never lets it share two: whether the result is written
// into a fresh buffer (@fresh) or already into its first input's (@written,
// memsched-inplace's output for @fresh), the subtraction's working set is its
// two 1 MiB inputs, and memsched-inplace leaves both floors as they were.
// And the floor lets a result take any input it may (@call_first: the
// product's first input is a call's result, which memsched-inplace never
// writes over; it writes into the reduction's buffer instead, reaching the
// floor).

#map = affine_map<(d0, d1) -> (d0, d1)>
#reduce = affine_map<(d0, d1) -> ()>
#rows = affine_map<(d0, d1) -> (d0)>

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

func.func private @callee(%x: tensor<32xf32>) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<32xf32>
  %r = linalg.exp ins(%x : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// Resident 8320, returned 128; at the reduction the 4 KiB product and the
// reduction's 128 bytes, which may become the returned buffer: 4096.
// CHECK: "floor_bytes": 12544,
// CHECK: "floor_working_set_bytes": 4096,
// CHECK: "name": "call_first",
// CHECK: "planned_bytes": {{12544|12672}},
func.func @call_first(%a: tensor<32x32xf32>, %w: tensor<32x32xf32>, %b: tensor<32xf32>) -> tensor<32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<32x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %big = linalg.matmul ins(%a, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e1 = tensor.empty() : tensor<32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<32xf32>) -> tensor<32xf32>
  %red = linalg.generic {indexing_maps = [#map, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%big : tensor<32x32xf32>) outs(%f1 : tensor<32xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %c = func.call @callee(%b) : (tensor<32xf32>) -> tensor<32xf32>
  %e2 = tensor.empty() : tensor<32xf32>
  %m = linalg.mul ins(%c, %red : tensor<32xf32>, tensor<32xf32>) outs(%e2 : tensor<32xf32>) -> tensor<32xf32>
  return %m : tensor<32xf32>
}
