// Found by bench/fuzz.py (plan, -test-memsched-check-bufferization-model
// =upper-bound, --kind control-flow, seed 2112) when bodies became planned
// by lifetime. The then-branch writes %outer into all of %neg (an insertion
// that would be in place) and yields it. The body model took the yielded
// value's buffer, %neg's, for the op's result and counted nothing inside;
// bufferization allocates a new buffer for the insertion and keeps %neg
// (80 B) inside the branch. Only an allocation yielded itself is the
// result.
// RUN: memsched-opt %s -test-memsched-check-bufferization-model=upper-bound -o /dev/null | FileCheck %s

// CHECK: bufferization-model @main scf.if body predicted {{[0-9]+}} bufferized 80{{$}}
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<5x4xf32>, %outer: tensor<5x4xf32>, %flag: i1) -> tensor<5x4xf32> {
  %r = scf.if %flag -> (tensor<5x4xf32>) {
    %e = tensor.empty() : tensor<5x4xf32>
    %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<5x4xf32>) outs(%e : tensor<5x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    } -> tensor<5x4xf32>
    %ins = tensor.insert_slice %outer into %neg[0, 0] [5, 4] [1, 1] : tensor<5x4xf32> into tensor<5x4xf32>
    scf.yield %ins : tensor<5x4xf32>
  } else {
    scf.yield %outer : tensor<5x4xf32>
  }
  return %r : tensor<5x4xf32>
}
