// RUN: memsched-opt %s -memsched-report -o /dev/null | FileCheck %s
// RUN: memsched-opt %s -memsched-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: memsched-opt %s -memsched-remat=budget=min -memsched-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REMAT
// RUN: memsched-opt %s -memsched-swap=budget=16KiB -memsched-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=SWAP

// Tests the floor of plans that only order and recompute (memsched-report's
// recompute_floor_bytes): where an op reads two values and each is made by
// an op whose working set is large, whichever is made last is made while
// the other is held. Recomputation reaches that bound here; swaps go below
// it, to the floor of every plan.

// @pair (4 KiB tensors): the add reads %q and %s, each a transpose of a 4
// KiB tensor (8 KiB working sets, no in-place write): making either with
// the other held takes 12 KiB. The returned %u is a transpose of the sum, so
// neither %q nor %s can be the returned buffer's storage.
// CHECK-LABEL: memsched report for @pair
// CHECK-NEXT: planned (device){{ +}}20.00 KiB
// CHECK-NEXT: modeled time
// CHECK-NEXT: floor{{ +}}16.00 KiB  (16384 bytes = resident + returned + 8.00 KiB for 'linalg.generic'
// CHECK-NEXT: floor, no swaps{{ +}}20.00 KiB  (20480 bytes = resident + returned + 12.00 KiB: two operands of 'linalg.add' at {{.*}}recompute-floor.mlir:[[#@LINE+28]]:8, each made while the other is held)
// JSON: "floor_bytes": 16384,
// JSON: "recompute_floor_bytes": 20480,
// JSON-NEXT: "recompute_floor_location": "{{.*}}recompute-floor.mlir:[[#@LINE+25]]:8",
// JSON-NEXT: "recompute_floor_op": "linalg.add",
// JSON-NEXT: "recompute_floor_working_set_bytes": 12288,
// REMAT-LABEL: memsched report for @pair
// REMAT-NEXT: planned (device){{ +}}20.00 KiB
// SWAP-LABEL: memsched report for @pair
// SWAP-NEXT: planned (device){{ +}}16.00 KiB
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @pair(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e0 = tensor.empty() : tensor<32x32xf32>
  %p = linalg.exp ins(%x : tensor<32x32xf32>) outs(%e0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e1 = tensor.empty() : tensor<32x32xf32>
  %q = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<32x32xf32>) outs(%e1 : tensor<32x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<32x32xf32>
  %e2 = tensor.empty() : tensor<32x32xf32>
  %r = linalg.negf ins(%x : tensor<32x32xf32>) outs(%e2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e3 = tensor.empty() : tensor<32x32xf32>
  %s = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<32x32xf32>) outs(%e3 : tensor<32x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<32x32xf32>
  %e4 = tensor.empty() : tensor<32x32xf32>
  %t = linalg.add ins(%q, %s : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e4 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e5 = tensor.empty() : tensor<32x32xf32>
  %u = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<32x32xf32>) outs(%e5 : tensor<32x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<32x32xf32>
  return %u : tensor<32x32xf32>
}

// @pair_returned: the sum is returned, so it may be written into %q's or
// %s's buffer, which then holds the returned value (counted among the
// returned bytes): the pair does not count them again, and recomputation
// reaches 16 KiB where counting them would claim 20 KiB.
// CHECK-LABEL: memsched report for @pair_returned
// CHECK-NEXT: planned (device){{ +}}20.00 KiB
// CHECK-NEXT: modeled time
// CHECK-NEXT: floor{{ +}}12.00 KiB
// CHECK-NOT: floor, no swaps
// CHECK: peak at
// REMAT-LABEL: memsched report for @pair_returned
// REMAT-NEXT: planned (device){{ +}}16.00 KiB
func.func @pair_returned(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e0 = tensor.empty() : tensor<32x32xf32>
  %p = linalg.exp ins(%x : tensor<32x32xf32>) outs(%e0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e1 = tensor.empty() : tensor<32x32xf32>
  %q = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<32x32xf32>) outs(%e1 : tensor<32x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<32x32xf32>
  %e2 = tensor.empty() : tensor<32x32xf32>
  %r = linalg.negf ins(%x : tensor<32x32xf32>) outs(%e2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e3 = tensor.empty() : tensor<32x32xf32>
  %s = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<32x32xf32>) outs(%e3 : tensor<32x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<32x32xf32>
  %e4 = tensor.empty() : tensor<32x32xf32>
  %t = linalg.add ins(%q, %s : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e4 : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %t : tensor<32x32xf32>
}
