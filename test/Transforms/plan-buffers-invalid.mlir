// RUN: rm -rf %t && split-file %s %t
// RUN: memsched-opt %t/unknown-algorithm.mlir -verify-diagnostics -memsched-plan-buffers=algorithm=first-fit
// RUN: memsched-opt %t/bad-alignment.mlir -verify-diagnostics -memsched-plan-buffers=alignment=48
// RUN: memsched-opt %t/bad-memory-space.mlir -verify-diagnostics -memsched-plan-buffers=memory-space=@@
// RUN: memsched-opt %t/overlap.mlir -verify-diagnostics -test-memsched-verify-plan
// RUN: memsched-opt %t/overlap-nested.mlir -verify-diagnostics -test-memsched-verify-plan
// RUN: memsched-opt %t/overlap-in-body.mlir -verify-diagnostics -test-memsched-verify-plan
// RUN: memsched-opt %t/past-the-end.mlir -verify-diagnostics -test-memsched-verify-plan
// RUN: memsched-opt %t/memory-space.mlir -memsched-plan-buffers=memory-space=1 -test-memsched-verify-plan -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %t/memory-space.mlir

// Tests the errors of memsched-plan-buffers and that the plan verifier
// catches overlapping and out-of-bounds views.

//--- unknown-algorithm.mlir
// expected-error @below {{memsched-plan-buffers: unknown algorithm 'first-fit'; expected one of:}}
func.func @f() {
  return
}

//--- bad-alignment.mlir
// expected-error @below {{memsched-plan-buffers: alignment must be a positive power of two, got 48}}
func.func @f() {
  return
}

//--- bad-memory-space.mlir
// expected-error @below {{memsched-plan-buffers: cannot parse memory space '@@'}}
func.func @f() {
  return
}

//--- overlap.mlir
// Two views share bytes 512..1024 while both are live.
func.func @f(%x: memref<256xf32>, %out: memref<256xf32>) {
  %arena = memref.alloc() {memsched.arena} : memref<2048xi8>
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  // expected-note @below {{the other view}}
  %a = memref.view %arena[%c0][] : memref<2048xi8> to memref<256xf32>
  // expected-error @below {{verify-plan: bytes [512, 1536) overlap bytes [0, 1024) of another view live at step 6}}
  %b = memref.view %arena[%c512][] : memref<2048xi8> to memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  linalg.exp ins(%a : memref<256xf32>) outs(%b : memref<256xf32>)
  memref.copy %b, %out : memref<256xf32> to memref<256xf32>
  return
}

//--- overlap-nested.mlir
// A view inside a loop body is live while the loop runs: it may not share
// bytes with a view of the function's block live across the loop.
func.func @f(%x: memref<256xf32>, %out: memref<256xf32>) {
  %arena = memref.alloc() {memsched.arena} : memref<2048xi8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  // expected-note @below {{the other view}}
  %a = memref.view %arena[%c0][] : memref<2048xi8> to memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @below {{verify-plan: bytes [512, 1536) overlap bytes [0, 1024) of another view live at step 7}}
    %b = memref.view %arena[%c512][] : memref<2048xi8> to memref<256xf32>
    linalg.exp ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
    memref.copy %b, %out : memref<256xf32> to memref<256xf32>
  }
  memref.copy %a, %out : memref<256xf32> to memref<256xf32>
  return
}

//--- overlap-in-body.mlir
// Two views of one body live together share bytes.
func.func @f(%x: memref<256xf32>, %out: memref<256xf32>) {
  %arena = memref.alloc() {memsched.arena} : memref<2048xi8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-note @below {{the other view}}
    %a = memref.view %arena[%c0][] : memref<2048xi8> to memref<256xf32>
    // expected-error @below {{verify-plan: bytes [512, 1536) overlap bytes [0, 1024) of another view live at step 3}}
    %b = memref.view %arena[%c512][] : memref<2048xi8> to memref<256xf32>
    linalg.exp ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
    linalg.exp ins(%a : memref<256xf32>) outs(%b : memref<256xf32>)
    memref.copy %b, %out : memref<256xf32> to memref<256xf32>
  }
  return
}

//--- past-the-end.mlir
func.func @f(%x: memref<256xf32>) {
  %arena = memref.alloc() {memsched.arena} : memref<1024xi8>
  %c512 = arith.constant 512 : index
  // expected-error @below {{verify-plan: view bytes [512, 1536) exceed the arena of 1024 bytes}}
  %a = memref.view %arena[%c512][] : memref<1024xi8> to memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  return
}

//--- memory-space.mlir
// Only allocations in the requested memory space are planned, into an
// arena of that space.
// One summary remark: the allocation in another space is counted, with its
// reason, instead of a remark of its own.
// CHECK-NOT: leaves this allocation
// CHECK: remark: memsched-plan-buffers: 2 buffers in one arena of 2.00 KiB (max live 2.00 KiB, fragmentation 1.000x, best-fit-by-size), 1 left as they are (the first: it is in another memory space)
// CHECK: memref.alloc() {alignment = 256 : i64, memsched.arena} : memref<2048xi8, 1>
// CHECK: memref.view {{.*}} : memref<2048xi8, 1> to memref<256xf32, 1>
// CHECK: memref.alloc() : memref<256xf32>
func.func @f(%x: memref<256xf32, 1>, %out: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32, 1>
  linalg.exp ins(%x : memref<256xf32, 1>) outs(%a : memref<256xf32, 1>)
  %b = memref.alloc() : memref<256xf32, 1>
  linalg.exp ins(%a : memref<256xf32, 1>) outs(%b : memref<256xf32, 1>)
  %c = memref.alloc() : memref<256xf32>
  linalg.exp ins(%b : memref<256xf32, 1>) outs(%c : memref<256xf32>)
  memref.copy %c, %out : memref<256xf32> to memref<256xf32>
  return
}
