// RUN: memsched-opt %s -memsched-exec-harness=func=wide | FileCheck %s

// Known bug (fails until memsched-exec-harness is fixed): integer types wider
// than 64 bits are accepted, but their inputs are built as i64 values, so the
// pass produces IR that does not verify (a linalg.yield of i64 in an i128
// generic, a call with an i64 operand for an i128 parameter). The documented
// formula covers every integer type; the pass must either build i128 inputs
// or reject the type with a diagnostic.

// Tests that a function with i128 arguments gets a valid harness.

// CHECK-LABEL: func.func @memsched_main()
// CHECK:         linalg.generic
// CHECK:         } -> tensor<2xi128>
// CHECK:         call @wide(%{{.*}}, %{{.*}}) : (tensor<2xi128>, i128) -> (tensor<2xi128>, i128)
func.func @wide(%t: tensor<2xi128>, %s: i128) -> (tensor<2xi128>, i128) {
  return %t, %s : tensor<2xi128>, i128
}
