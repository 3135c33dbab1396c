// RUN: rm -rf %t && split-file %s %t
// RUN: memsched-opt %t/odd-widths.mlir -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=SIZES
// Planning buffers of odd-width integers into one arena must not change
// results: CPU runs with and without memsched-plan-buffers agree bit for bit.
// RUN: memsched-opt %t/odd-widths.mlir -memsched-exec-harness=func=odd -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t/planned.txt
// RUN: memsched-opt %t/odd-widths.mlir -memsched-exec-harness=func=odd "-memsched-to-cpu-pipeline=plan-buffers=false" 2>/dev/null | %run_harness > %t/unplanned.txt
// RUN: diff %t/planned.txt %t/unplanned.txt
// RUN: memsched-opt %t/odd-widths.mlir -memsched-to-cpu-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=ARENA
// RUN: memsched-opt %t/f8-reorder.mlir -verify-diagnostics -memsched-reorder -o /dev/null
// RUN: memsched-opt %t/f8-fit.mlir -verify-diagnostics -memsched-fit=budget=0.5x -o /dev/null
// RUN: memsched-opt %t/too-large.mlir -verify-diagnostics -memsched-reorder -o /dev/null
// RUN: memsched-opt %t/too-large-product.mlir -verify-diagnostics -memsched-report -o /dev/null
// RUN: memsched-opt %t/too-large-total.mlir -verify-diagnostics -memsched-fit=budget=1KiB -o /dev/null

// Tests that element sizes are what the LLVM lowering allocates (an integer
// of N bits takes ceil(N/8) bytes rounded up to the next power of two, up to
// 16), that byte counts beyond 2^62 are refused instead of wrapping, and that
// element types without a defined storage are refused by name.

//--- odd-widths.mlir
// i24 takes 4 bytes and i33 8 (before: 3 and 5, so that planned buffers
// overlapped): resident = 64 x 4 + 64 x 8 = 768 B; the arena holds the two
// i24 temporaries a and b (2 x 256 B).
// SIZES: "arena_bytes": 512
// SIZES: "resident_bytes": 768
// ARENA: memsched-plan-buffers: 3 buffers in one arena of 512 B
#id = affine_map<(d0) -> (d0)>
func.func @odd(%x: tensor<64xi24>, %y: tensor<64xi33>) -> (tensor<64xi24>, tensor<64xi33>) {
  %e0 = tensor.empty() : tensor<64xi24>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %x : tensor<64xi24>, tensor<64xi24>) outs(%e0 : tensor<64xi24>) {
  ^bb0(%p: i24, %q: i24, %o: i24):
    %r = arith.muli %p, %q : i24
    linalg.yield %r : i24
  } -> tensor<64xi24>
  %e1 = tensor.empty() : tensor<64xi24>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a, %x : tensor<64xi24>, tensor<64xi24>) outs(%e1 : tensor<64xi24>) {
  ^bb0(%p: i24, %q: i24, %o: i24):
    %r = arith.addi %p, %q : i24
    linalg.yield %r : i24
  } -> tensor<64xi24>
  %e2 = tensor.empty() : tensor<64xi24>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%b, %a : tensor<64xi24>, tensor<64xi24>) outs(%e2 : tensor<64xi24>) {
  ^bb0(%p: i24, %q: i24, %o: i24):
    %r = arith.xori %p, %q : i24
    linalg.yield %r : i24
  } -> tensor<64xi24>
  %e3 = tensor.empty() : tensor<64xi33>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%y, %y : tensor<64xi33>, tensor<64xi33>) outs(%e3 : tensor<64xi33>) {
  ^bb0(%p: i33, %q: i33, %o: i33):
    %r = arith.muli %p, %q : i33
    linalg.yield %r : i33
  } -> tensor<64xi33>
  %e4 = tensor.empty() : tensor<64xi33>
  %f = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%d, %y : tensor<64xi33>, tensor<64xi33>) outs(%e4 : tensor<64xi33>) {
  ^bb0(%p: i33, %q: i33, %o: i33):
    %r = arith.subi %p, %q : i33
    linalg.yield %r : i33
  } -> tensor<64xi33>
  return %c, %f : tensor<64xi24>, tensor<64xi33>
}

//--- f8-reorder.mlir
// A pass with nothing to promise leaves the function as it is, and says so.
// expected-remark @below {{memsched-reorder leaves '@f' unchanged: argument type 'tensor<4xf8E4M3FN>' has an element type memsched cannot size (supported: integers, index, f16, bf16, f32, f64, f80, f128 and complex of those)}}
func.func @f(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  return %x : tensor<4xf8E4M3FN>
}

//--- f8-fit.mlir
// A budget pass cannot keep its promise: an error.
// expected-error @below {{memsched-fit leaves '@f' unchanged: argument type 'tensor<4xf6E3M2FN>' has an element type memsched cannot size}}
func.func @f(%x: tensor<4xf6E3M2FN>) -> tensor<4xf6E3M2FN> {
  return %x : tensor<4xf6E3M2FN>
}

//--- too-large.mlir
// 2^62 f32 elements: 2^64 bytes, which wrapped to 0 B before.
// expected-error @below {{memsched-reorder cannot analyze '@f': 'tensor<4611686018427387904xf32>' holds more than 2^62 bytes, the largest size memsched plans with}}
func.func @f(%x: tensor<4611686018427387904xf32>) -> tensor<4611686018427387904xf32> {
  return %x : tensor<4611686018427387904xf32>
}

//--- too-large-product.mlir
// 3037000500^2 elements fit in 64 bits, their bytes do not (reported as
// 2.17 GiB before).
// expected-error @below {{memsched-report cannot analyze '@f': 'tensor<3037000500x3037000500xf32>' holds more than 2^62 bytes}}
func.func @f(%x: tensor<3037000500x3037000500xf32>) -> tensor<3037000500x3037000500xf32> {
  return %x : tensor<3037000500x3037000500xf32>
}

//--- too-large-total.mlir
// Three arguments of 2^61 bytes each: each fits, their sum does not fit the
// bound every byte figure stays within (before, the sum wrapped and the
// budget was compared with the wrapped value).
// expected-error @below {{memsched-fit cannot analyze '@f': its buffers and workspaces total more than 2^62 bytes}}
func.func @f(%a: tensor<2305843009213693952xi8>, %b: tensor<2305843009213693952xi8>, %c: tensor<2305843009213693952xi8>) -> tensor<2305843009213693952xi8> {
  return %a : tensor<2305843009213693952xi8>
}
