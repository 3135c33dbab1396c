// RUN: rm -rf %t && split-file %s %t
// RUN: memsched-opt %t/unknown-algorithm.mlir -verify-diagnostics -memsched-swap="budget=1KiB algorithm=lru"
// RUN: memsched-opt %t/missing-budget.mlir -verify-diagnostics -memsched-swap
// RUN: memsched-opt %t/working-set.mlir -verify-diagnostics -memsched-swap=budget=150B
// RUN: memsched-opt %t/working-set.mlir -verify-diagnostics -memsched-fit=budget=150B
// RUN: memsched-opt %t/below-resident.mlir -verify-diagnostics -memsched-swap=budget=10B
// RUN: memsched-opt %t/unreachable.mlir -verify-diagnostics -memsched-swap=budget=1100B
// RUN: memsched-opt %t/vector.mlir -verify-diagnostics -memsched-swap=budget=0.8x
// RUN: memsched-opt %t/already.mlir -verify-diagnostics -memsched-swap=budget=0.5x
// RUN: memsched-opt %t/fit-unreachable.mlir -verify-diagnostics -memsched-fit="budget=1100B allow-remat=false"

// Tests that memsched-swap and memsched-fit reject bad options and budgets
// they cannot meet (below the resident memory, below the largest op's
// working set, or simply out of reach) with a diagnostic, and leave the IR
// unchanged (verify-diagnostics fails on any other output).

//--- unknown-algorithm.mlir
// expected-error @below {{memsched-swap: unknown algorithm 'lru'; expected one of: planned, size-idle, everything}}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

//--- missing-budget.mlir
// expected-error @below {{memsched-swap: }}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

//--- working-set.mlir
// expected-error @below {{is below the largest single op's working set: 192 B (192 B: resident 64 B + 128 B of operands, results and workspace)}}
func.func @f(%a: tensor<16xf32>) -> tensor<16xf32> {
  %e0 = tensor.empty() : tensor<16xf32>
  %x = linalg.exp ins(%a : tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  // expected-note @below {{this op needs all of its operands and results in device memory at once}}
  %y = linalg.add ins(%x, %x : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}

//--- below-resident.mlir
// expected-error @below {{memsched-swap: the budget of 10 B (10 B) is below the resident memory of '@f', 16 B (16 B of arguments and constants)}}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

//--- unreachable.mlir
// Only %w is idle across the peak op, and its copy out (8 us of latency)
// cannot end before that op starts: nothing the link allows fits.
// expected-error @below {{memsched-swap: cannot meet the budget of 1.07 KiB (1100 B) for '@f'; the smallest peak planned reaches is 1.25 KiB (1280 B: resident 256 B + transient 1024 B)}}
func.func @f(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %x = linalg.exp ins(%a : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %y = linalg.exp ins(%a : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %w = linalg.exp ins(%a : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %e3 = tensor.empty() : tensor<64xf32>
  %z = linalg.add ins(%x, %y : tensor<64xf32>, tensor<64xf32>) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  %e4 = tensor.empty() : tensor<64xf32>
  %r = linalg.add ins(%z, %w : tensor<64xf32>, tensor<64xf32>) outs(%e4 : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

//--- vector.mlir
// %v is idle across the peak but is a vector, which has no host form: it is
// never swapped, and nothing else can be.
// expected-error @below {{memsched-swap: cannot meet the budget of 64.00 KiB (65536 B) for '@f'; the smallest peak planned reaches is 80.00 KiB}}
func.func @f(%s: f32, %a: tensor<4096xf32>) -> tensor<4096xf32> {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{no cost model for 'vector.broadcast'}}
  %v = vector.broadcast %s : f32 to vector<4096xf32>
  %e0 = tensor.empty() : tensor<4096xf32>
  %x = linalg.exp {memsched.cost = 1.0e-3 : f64} ins(%a : tensor<4096xf32>) outs(%e0 : tensor<4096xf32>) -> tensor<4096xf32>
  %e1 = tensor.empty() : tensor<4096xf32>
  %y = linalg.exp {memsched.cost = 1.0e-3 : f64} ins(%x : tensor<4096xf32>) outs(%e1 : tensor<4096xf32>) -> tensor<4096xf32>
  %e2 = tensor.empty() : tensor<4096xf32>
  %z = linalg.add {memsched.cost = 1.0e-3 : f64} ins(%x, %y : tensor<4096xf32>, tensor<4096xf32>) outs(%e2 : tensor<4096xf32>) -> tensor<4096xf32>
  %e3 = tensor.empty() : tensor<4096xf32>
  %w = linalg.exp {memsched.cost = 1.0e-3 : f64} ins(%z : tensor<4096xf32>) outs(%e3 : tensor<4096xf32>) -> tensor<4096xf32>
  // expected-remark @below {{no cost model for 'vector.transfer_write'}}
  %r = vector.transfer_write %v, %w[%c0] : vector<4096xf32>, tensor<4096xf32>
  return %r : tensor<4096xf32>
}

//--- already.mlir
// expected-error @below {{memsched-swap: '@f' already has swap ops; run the pass once}}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %h = memsched.swap_out %a : tensor<4xf32> -> !memsched.host<tensor<4xf32>>
  %b = memsched.swap_in %h : !memsched.host<tensor<4xf32>> -> tensor<4xf32>
  return %b : tensor<4xf32>
}

//--- fit-unreachable.mlir
// The same function with recomputation disabled.
// expected-error @below {{memsched-fit: cannot meet the budget of 1.07 KiB (1100 B) for '@f'; the smallest reachable peak is 1.25 KiB (1280 B, recomputation disabled)}}
func.func @f(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %x = linalg.exp ins(%a : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %y = linalg.exp ins(%a : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %w = linalg.exp ins(%a : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %e3 = tensor.empty() : tensor<64xf32>
  %z = linalg.add ins(%x, %y : tensor<64xf32>, tensor<64xf32>) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  %e4 = tensor.empty() : tensor<64xf32>
  %r = linalg.add ins(%z, %w : tensor<64xf32>, tensor<64xf32>) outs(%e4 : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

