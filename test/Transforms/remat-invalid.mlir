// RUN: rm -rf %t && split-file %s %t
// RUN: memsched-opt %t/unknown-algorithm.mlir -verify-diagnostics -memsched-remat="budget=1KiB algorithm=revolve"
// RUN: memsched-opt %t/missing-budget.mlir -verify-diagnostics -memsched-remat
// RUN: memsched-opt %t/bad-unit.mlir -verify-diagnostics -memsched-remat=budget=12parsecs
// RUN: memsched-opt %t/negative-limit.mlir -verify-diagnostics -memsched-remat="budget=1KiB time-limit-ms=-5"
// RUN: memsched-opt %t/below-resident.mlir -verify-diagnostics -memsched-remat=budget=1KiB
// RUN: memsched-opt %t/unreachable.mlir -verify-diagnostics -memsched-remat=budget=0.7x
// RUN: memsched-opt %t/side-effects.mlir -verify-diagnostics -memsched-remat=budget=0.6x
// RUN: memsched-opt %t/dynamic.mlir -verify-diagnostics -memsched-remat=budget=0.5x

// Tests that memsched-remat rejects bad options, budgets it cannot meet and
// functions outside the memory model with a diagnostic. The pass rewrites a
// copy of the function and only swaps it in once the budget is met, so a
// failure leaves the input as it was.

//--- unknown-algorithm.mlir
// expected-error @below {{memsched-remat: unknown algorithm 'revolve'; expected one of: auto, greedy, chen, sequential}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- missing-budget.mlir
// expected-error @below {{memsched-remat: a budget is required (e.g. budget=16GiB or budget=0.5x)}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- bad-unit.mlir
// expected-error @below {{memsched-remat: unknown budget unit 'parsecs': expected B, KB, MB, GB, TB, KiB, MiB, GiB, TiB or x}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- negative-limit.mlir
// expected-error @below {{memsched-remat: time-limit-ms and segments must not be negative}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- below-resident.mlir
// expected-error @below {{memsched-remat: the budget of 1.00 KiB (1024 B) is below the resident memory of '@f', 4.00 KiB (4096 B of arguments and constants), which no recomputation can free}}
func.func @f(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  return %x : tensor<1024xf32>
}

//--- unreachable.mlir
// The op computing %d needs %b, %c and %d at once: 12 KiB of transient
// memory on top of the 4 KiB argument, so 0.7x of the 20 KiB peak cannot be
// met.
#id = affine_map<(d0) -> (d0)>
// expected-error @below {{memsched-remat: cannot meet the budget of 14.00 KiB (14336 B) for '@chain'; the smallest peak greedy reaches is 16.00 KiB (16384 B: resident 4096 B + transient 12288 B)}}
func.func @chain(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e0 = tensor.empty() : tensor<1024xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.sin %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e2 = tensor.empty() : tensor<1024xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : tensor<1024xf32>) outs(%e2 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.cos %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e3 = tensor.empty() : tensor<1024xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%c, %b : tensor<1024xf32>, tensor<1024xf32>) outs(%e3 : tensor<1024xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %r = arith.mulf %in, %in2 : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e4 = tensor.empty() : tensor<1024xf32>
  %f = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%d, %a : tensor<1024xf32>, tensor<1024xf32>) outs(%e4 : tensor<1024xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %r = arith.addf %in, %in2 : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  return %f : tensor<1024xf32>
}

//--- side-effects.mlir
// %a comes from a call, which memsched treats as having side effects: it is
// never recomputed, so nothing can free it before its late use.
#id = affine_map<(d0) -> (d0)>
func.func private @produce(tensor<1024xf32>) -> tensor<1024xf32>
// expected-error @below {{memsched-remat: cannot meet the budget of 9.60 KiB (9830 B) for '@f'; the smallest peak greedy reaches is 16.00 KiB (16384 B: resident 4096 B + transient 12288 B)}}
func.func @f(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-note @below {{values defined by this op are not recomputed because it has side effects}}
  // expected-remark @below {{memsched keeps 'func.call' in place relative to other side-effecting ops}}
  // expected-remark @below {{memsched has no cost model for 'func.call'}}
  %a = func.call @produce(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.sin %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e2 = tensor.empty() : tensor<1024xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : tensor<1024xf32>) outs(%e2 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.cos %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e4 = tensor.empty() : tensor<1024xf32>
  %f = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%c, %a : tensor<1024xf32>, tensor<1024xf32>) outs(%e4 : tensor<1024xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %r = arith.addf %in, %in2 : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  return %f : tensor<1024xf32>
}

//--- dynamic.mlir
// expected-error @below {{memsched-remat cannot bound the memory of '@f': dynamic or unsized argument type}}
// expected-remark @below {{memsched leaves '@f' unchanged: argument type 'tensor<?xf32>' has no static size}}
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
