// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-plan-buffers -test-memsched-verify-plan | FileCheck %s
// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-plan-buffers=algorithm=greedy-by-size -test-memsched-verify-plan | FileCheck %s --check-prefix=GREEDY
// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-plan-buffers=alignment=64 -test-memsched-verify-plan | FileCheck %s --check-prefix=ALIGN64

// Tests that memsched-plan-buffers places static allocations in one arena,
// reusing the bytes of buffers that are dead, extends lifetimes through
// aliases, removes deallocations, and leaves alone what it cannot plan.

// A chain: %a dies before %c is written, so %c takes %a's bytes.
// CHECK-LABEL: func.func @chain
// CHECK-SAME:    memsched.plan = {algorithm = "{{.+}}", alignment = 256 : i64, arena_bytes = 2048 : i64, fragmentation = 1.000000e+00 : f64, max_live_bytes = 2048 : i64, optimal = true, planned_buffers = 3 : i64, unplanned_buffers = 0 : i64}
// CHECK:         %[[ARENA:.+]] = memref.alloc() {alignment = 256 : i64, memsched.arena} : memref<2048xi8>
// CHECK:         %[[OFFA:.+]] = arith.constant [[A:[0-9]+]] : index
// CHECK:         %[[VA:.+]] = memref.view %[[ARENA]][%[[OFFA]]][] : memref<2048xi8> to memref<256xf32>
// CHECK:         linalg.exp ins(%arg0 : memref<256xf32>) outs(%[[VA]] : memref<256xf32>)
// CHECK:         memref.view %[[ARENA]]
// CHECK:         %[[OFFC:.+]] = arith.constant [[A]] : index
// CHECK:         %[[VC:.+]] = memref.view %[[ARENA]][%[[OFFC]]][]
// CHECK:         memref.copy %[[VC]], %arg1
// CHECK-NEXT:    memref.dealloc %[[ARENA]]
// CHECK-NEXT:    return
// GREEDY-LABEL:  func.func @chain
// GREEDY-SAME:     algorithm = "greedy-by-size"{{.*}}arena_bytes = 2048 : i64
// ALIGN64-LABEL: func.func @chain
// ALIGN64-SAME:    alignment = 64 : i64
// expected-remark @below {{memsched-plan-buffers: 3 buffers in one arena of 2.00 KiB (max live 2.00 KiB, fragmentation 1.000x}}
func.func @chain(%x: memref<256xf32>, %out: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.exp ins(%a : memref<256xf32>) outs(%b : memref<256xf32>)
  memref.dealloc %a : memref<256xf32>
  %c = memref.alloc() : memref<256xf32>
  linalg.exp ins(%b : memref<256xf32>) outs(%c : memref<256xf32>)
  memref.dealloc %b : memref<256xf32>
  memref.copy %c, %out : memref<256xf32> to memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  return
}

// -----

// %a is read through a collapse_shape after %b is written: the alias keeps
// %a live, so %c (written after) cannot take its bytes either.
// CHECK-LABEL: func.func @alias_extends_lifetime
// CHECK-SAME:    arena_bytes = 3072 : i64
// CHECK-SAME:    max_live_bytes = 3072 : i64
// expected-remark @below {{memsched-plan-buffers: 3 buffers in one arena of 3.00 KiB}}
func.func @alias_extends_lifetime(%x: memref<16x16xf32>, %out: memref<256xf32>) {
  %a = memref.alloc() : memref<16x16xf32>
  linalg.exp ins(%x : memref<16x16xf32>) outs(%a : memref<16x16xf32>)
  %flat = memref.collapse_shape %a [[0, 1]] : memref<16x16xf32> into memref<256xf32>
  %b = memref.alloc() : memref<16x16xf32>
  linalg.exp ins(%x : memref<16x16xf32>) outs(%b : memref<16x16xf32>)
  %c = memref.alloc() : memref<256xf32>
  linalg.exp ins(%flat : memref<256xf32>) outs(%c : memref<256xf32>)
  %bflat = memref.collapse_shape %b [[0, 1]] : memref<16x16xf32> into memref<256xf32>
  linalg.add ins(%c, %bflat : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  return
}

// -----

// What cannot be planned stays: a dynamic size, a returned buffer, a buffer
// passed to a call, an allocation in a loop body. No remark per allocation:
// the summary counts them (4) and names the reason of the first (the dynamic
// size); -verify-diagnostics fails on any other remark.
// CHECK-LABEL: func.func @left_alone
// CHECK-SAME:    planned_buffers = 1 : i64, unplanned_buffers = 4 : i64
// CHECK:         memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK:         memref.alloc() : memref<64xf32>
// CHECK:         memref.alloc() : memref<32xf32>
// CHECK:         scf.for
// CHECK:           memref.alloc() : memref<8xf32>
func.func private @consume(memref<32xf32>)
// expected-remark-re @below {{memsched-plan-buffers: 1 buffers in one arena of 64 B (max live 64 B, fragmentation 1.000x, {{.*}}), 4 left as they are (the first: it has a dynamic size)}}
func.func @left_alone(%n: index, %x: memref<64xf32>) -> memref<64xf32> {
  %dyn = memref.alloc(%n) : memref<?xf32>
  %ret = memref.alloc() : memref<64xf32>
  linalg.exp ins(%x : memref<64xf32>) outs(%ret : memref<64xf32>)
  %arg = memref.alloc() : memref<32xf32>
  call @consume(%arg) : (memref<32xf32>) -> ()
  %tmp = memref.alloc() : memref<16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %inner = memref.alloc() : memref<8xf32>
    %v = memref.load %tmp[%i] : memref<16xf32>
    memref.store %v, %inner[%i] : memref<8xf32>
  }
  return %ret : memref<64xf32>
}

// -----

// No allocation: nothing changes, no attribute, no remark.
// CHECK-LABEL: func.func @nothing
// CHECK-NOT:     memsched.plan
func.func @nothing(%x: memref<4xf32>) {
  return
}
