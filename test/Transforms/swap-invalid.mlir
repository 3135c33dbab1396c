// RUN: rm -rf %t && split-file %s %t
// RUN: not memsched-opt %t/unknown-algorithm.mlir -memsched-swap="budget=1KiB algorithm=lru" 2>&1 | FileCheck %t/unknown-algorithm.mlir
// RUN: memsched-opt %t/missing-budget.mlir -verify-diagnostics -memsched-swap
// RUN: memsched-opt %t/working-set.mlir -verify-diagnostics -memsched-swap=budget=150B
// RUN: memsched-opt %t/working-set.mlir -verify-diagnostics -memsched-fit=budget=150B
// RUN: memsched-opt %t/below-resident.mlir -verify-diagnostics -memsched-swap=budget=10B
// RUN: memsched-opt %t/unreachable.mlir -verify-diagnostics -memsched-swap=budget=1000B
// RUN: memsched-opt %t/vector.mlir -verify-diagnostics -memsched-swap=budget=56KiB
// RUN: memsched-opt %t/already.mlir -verify-diagnostics -memsched-swap=budget=0.5x
// RUN: memsched-opt %t/fit-unreachable.mlir -verify-diagnostics -memsched-fit="budget=1000B allow-remat=false allow-split=false"
// With its split lever, memsched-fit meets that budget.
// RUN: memsched-opt %t/fit-unreachable.mlir -mlir-print-op-on-diagnostic=false -memsched-fit="budget=1000B allow-remat=false" -o /dev/null 2>&1 | FileCheck %t/fit-unreachable.mlir --check-prefix=SPLIT

// Tests that memsched-swap and memsched-fit reject bad options and budgets
// they cannot meet (below the resident memory, below the largest op's
// working set, or simply out of reach) with one error stating the smallest
// reachable footprint and a note on the op that bounds every plan, and
// leave the IR unchanged (verify-diagnostics fails on any other output).
// The notes' bound lets an elementwise result share an operand's buffer,
// as the plans' in-place writes do, so it is never above what they reach.

//--- unknown-algorithm.mlir
// Tests that an unknown algorithm is refused by the option parser.
// CHECK: for the --algorithm option: Cannot find option named 'lru'!
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

//--- missing-budget.mlir
// expected-error @below {{memsched-swap: }}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

//--- working-set.mlir
// resident %a = 64 B; %x = 64 B in the arena; %y = 64 B returned. The add
// reads %x twice, and memsched-inplace does not write it in place: 64 + 64 +
// 64 = 192 B is the smallest reachable. The floor allows that write (each
// element is read before it is written), so %x may be the returned buffer,
// and so may %a's (the exp may write into its argument when donated): 64 B,
// first reached at %x.
// expected-error @below {{cannot meet the budget of 150 B (150 B) for '@f'; the smallest reachable footprint is 192 B (192 B, the function as it is)}}
func.func @f(%a: tensor<16xf32>) -> tensor<16xf32> {
  %e0 = tensor.empty() : tensor<16xf32>
  // expected-note @below {{no plan goes below 64 B (64 B): resident 64 B + returned 0 B (and 64 B that may be written into arguments nothing reads afterwards) + this op's working set, 0 B (operands, results that cannot share an operand's buffer, workspace), which must be in device memory at once}}
  %x = linalg.exp ins(%a : tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %y = linalg.add ins(%x, %x : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}

//--- below-resident.mlir
// expected-error @below {{memsched-swap: cannot meet the budget of 10 B (10 B) for '@f'; the smallest reachable footprint is 16 B (16 B, the function as it is)}}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

//--- unreachable.mlir
// Buffers of 256 B; resident %a = 256 B. Only %w is idle across the op
// computing %z, and its copy out (8 us of latency) cannot end before that op
// starts: nothing the link allows helps. With %z and %r written in place into
// %x's buffer (returned), %y and %w are in the arena together: 256 + 512 +
// 256 = 1024 B is the smallest footprint; 1000 B cannot be met. The floor
// is lower, 512 B: each op holds one buffer besides the returned one (%x,
// which %z and %r may take), which %w made after %z would reach (no swap
// plan reorders), and the returned buffer may be %a's (the last exp reading
// %a may write into it, donated).
// expected-error @below {{memsched-swap: cannot meet the budget of 1000 B (1000 B) for '@f'; the smallest reachable footprint is 1.00 KiB (1024 B, inplace)}}
func.func @f(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %x = linalg.exp ins(%a : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %y = linalg.exp ins(%a : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %w = linalg.exp ins(%a : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %e3 = tensor.empty() : tensor<64xf32>
  // expected-note @below {{no plan goes below 512 B (512 B): resident 256 B + returned 0 B (and 256 B that may be written into arguments nothing reads afterwards) + this op's working set, 256 B (operands, results that cannot share an operand's buffer, workspace), which must be in device memory at once}}
  %z = linalg.add ins(%x, %y : tensor<64xf32>, tensor<64xf32>) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  %e4 = tensor.empty() : tensor<64xf32>
  %r = linalg.add ins(%z, %w : tensor<64xf32>, tensor<64xf32>) outs(%e4 : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

//--- vector.mlir
// %v is idle across the peak but is a vector, which has no host form: it is
// never swapped, and nothing else can be. Buffers of 16 KiB; resident %a.
// With %z, %w and the write of %v written in place into %x's buffer
// (returned), %v and %y are in the arena together at %z: 16 + 32 + 16 = 64
// KiB is the smallest footprint (48 KiB if %v could go to the host). No remark
// for the ops without a cost model (the report counts them). The floor is
// 32 KiB: every op holds one 16 KiB buffer besides the returned one (%v
// made after %z would reach it; no swap plan reorders), which may be %a's
// (the first exp may write into it, donated).
// expected-error @below {{memsched-swap: cannot meet the budget of 56.00 KiB (57344 B) for '@f'; the smallest reachable footprint is 64.00 KiB (65536 B, inplace)}}
func.func @f(%s: f32, %a: tensor<4096xf32>) -> tensor<4096xf32> {
  %c0 = arith.constant 0 : index
  // expected-note @below {{no plan goes below 32.00 KiB (32768 B): resident 16384 B + returned 0 B (and 16384 B that may be written into arguments nothing reads afterwards) + this op's working set, 16384 B (operands, results that cannot share an operand's buffer, workspace), which must be in device memory at once}}
  %v = vector.broadcast %s : f32 to vector<4096xf32>
  %e0 = tensor.empty() : tensor<4096xf32>
  %x = linalg.exp {memsched.cost = 1.0e-3 : f64} ins(%a : tensor<4096xf32>) outs(%e0 : tensor<4096xf32>) -> tensor<4096xf32>
  %e1 = tensor.empty() : tensor<4096xf32>
  %y = linalg.exp {memsched.cost = 1.0e-3 : f64} ins(%x : tensor<4096xf32>) outs(%e1 : tensor<4096xf32>) -> tensor<4096xf32>
  %e2 = tensor.empty() : tensor<4096xf32>
  %z = linalg.add {memsched.cost = 1.0e-3 : f64} ins(%x, %y : tensor<4096xf32>, tensor<4096xf32>) outs(%e2 : tensor<4096xf32>) -> tensor<4096xf32>
  %e3 = tensor.empty() : tensor<4096xf32>
  %w = linalg.exp {memsched.cost = 1.0e-3 : f64} ins(%z : tensor<4096xf32>) outs(%e3 : tensor<4096xf32>) -> tensor<4096xf32>
  %r = vector.transfer_write %v, %w[%c0] : vector<4096xf32>, tensor<4096xf32>
  return %r : tensor<4096xf32>
}

//--- already.mlir
// expected-error @below {{memsched-swap: '@f' already has swap ops; plan swaps once}}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %h = memsched.swap_out %a : tensor<4xf32> -> !memsched.host<tensor<4xf32>>
  %b = memsched.swap_in %h : !memsched.host<tensor<4xf32>> -> tensor<4xf32>
  return %b : tensor<4xf32>
}

//--- fit-unreachable.mlir
// The same function with recomputation and splitting disabled: swapping is
// the only lever (memsched-fit plans this order only: reorder= is not
// given). Split (the exponentials and additions in pieces), the floor is
// 272 B and 1000 B is met.
// SPLIT: remark: memsched-fit: planned memory 1.50 KiB -> 784 B within 1000 B with inplace after splitting 9 ops (floor 512 B -> 272 B)
// expected-error @below {{memsched-fit: cannot meet the budget of 1000 B (1000 B) for '@f'; the smallest reachable footprint is 1.00 KiB (1024 B, inplace)}}
func.func @f(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %x = linalg.exp ins(%a : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %y = linalg.exp ins(%a : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %w = linalg.exp ins(%a : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %e3 = tensor.empty() : tensor<64xf32>
  // expected-note @below {{no plan goes below 512 B (512 B): resident 256 B + returned 0 B (and 256 B that may be written into arguments nothing reads afterwards) + this op's working set, 256 B (operands, results that cannot share an operand's buffer, workspace), which must be in device memory at once}}
  %z = linalg.add ins(%x, %y : tensor<64xf32>, tensor<64xf32>) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  %e4 = tensor.empty() : tensor<64xf32>
  %r = linalg.add ins(%z, %w : tensor<64xf32>, tensor<64xf32>) outs(%e4 : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

