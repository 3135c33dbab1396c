// RUN: memsched-opt %s -memsched-order-globals | FileCheck %s
// RUN: memsched-opt %s -memsched-order-globals -memsched-order-globals | FileCheck %s

// Tests that the private constant globals bufferization creates are sorted
// by type and contents, named from that order, moved to the top of the
// module, and that every use follows the new names; other globals keep
// their names and order. Running the pass twice gives the same module.
//
// The input is named as one run of bufferization might name it; another
// run may swap the two 4xf32 names. Sorted, the splat 7.0 comes before
// [1, 2, 3, 4] (by the hash of their contents), so it becomes
// @__constant_4xf32 whichever name it had.

// CHECK-LABEL: module
// CHECK-NEXT:    memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<5.000000e+00>
// CHECK-NEXT:    memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<7.000000e+00>
// CHECK-NEXT:    memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-NEXT:    memref.global "private" @__constant_8xf32 : memref<8xf32>
// CHECK-NEXT:    memref.global "private" @state : memref<3xf32>
// CHECK-LABEL: func.func @first
// CHECK:         memref.get_global @__constant_2xf32 : memref<2xf32>
// CHECK:         memref.get_global @__constant_4xf32_0 : memref<4xf32>
// CHECK-LABEL: func.func @second
// CHECK:         memref.get_global @__constant_4xf32 : memref<4xf32>
module {
  memref.global "private" @__constant_8xf32 : memref<8xf32>
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  memref.global "private" @state : memref<3xf32>
  memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<7.0>
  memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<5.0>
  func.func @first() -> (memref<2xf32>, memref<4xf32>) {
    %a = memref.get_global @__constant_2xf32 : memref<2xf32>
    %b = memref.get_global @__constant_4xf32 : memref<4xf32>
    return %a, %b : memref<2xf32>, memref<4xf32>
  }
  func.func @second() -> memref<4xf32> {
    %c = memref.get_global @__constant_4xf32_0 : memref<4xf32>
    return %c : memref<4xf32>
  }
}
