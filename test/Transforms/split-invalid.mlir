// RUN: rm -rf %t && split-file %s %t
// RUN: memsched-opt %t/missing-budget.mlir -verify-diagnostics -memsched-split
// RUN: memsched-opt %t/bare-fraction.mlir -verify-diagnostics -memsched-split=budget=0.8
// RUN: memsched-opt %t/one-piece.mlir -verify-diagnostics "-memsched-split=budget=min max-pieces=1"
// RUN: memsched-opt %t/several-blocks.mlir -verify-diagnostics -memsched-split=budget=min

// Tests that memsched-split rejects bad options and functions outside the
// memory model with one error, and changes nothing then.

//--- missing-budget.mlir
// expected-error @below {{memsched-split: a budget is required (e.g. budget=16GiB, budget=0.5x or budget=min)}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- bare-fraction.mlir
// expected-error @below {{memsched-split: '0.8' is not a whole number of bytes; write '0.8x' for a fraction of the planned bytes}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- one-piece.mlir
// expected-error @below {{memsched-split: max-pieces must be at least 2}}
func.func @f(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

//--- several-blocks.mlir
// expected-error @below {{memsched-split cannot analyze '@f': it has 3 blocks, only single-block functions are supported}}
func.func @f(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  cf.cond_br %c, ^a, ^b
^a:
  return %x : tensor<4xf32>
^b:
  return %x : tensor<4xf32>
}
