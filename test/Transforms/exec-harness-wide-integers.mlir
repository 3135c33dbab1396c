// RUN: memsched-opt %s -memsched-exec-harness=func=wide | FileCheck %s

// Integer types wider than 64 bits get inputs of their own width (the input
// formula's value, zero-extended), so the harness verifies.

// Tests that a function with i128 arguments gets a valid harness.

// CHECK-LABEL: func.func @memsched_main()
// CHECK:         linalg.generic
// CHECK:         } -> tensor<2xi128>
// CHECK:         call @wide(%{{.*}}, %{{.*}}) : (tensor<2xi128>, i128) -> (tensor<2xi128>, i128)
func.func @wide(%t: tensor<2xi128>, %s: i128) -> (tensor<2xi128>, i128) {
  return %t, %s : tensor<2xi128>, i128
}
