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
// passed to a call. No remark per allocation: the summary counts them (3)
// and names the reason of the first (the dynamic size); -verify-diagnostics
// fails on any other remark. The loop body's allocation is planned in a
// nested arena (32 B) live while the loop runs, beside %tmp (256 B).
// CHECK-LABEL: func.func @left_alone
// CHECK-SAME:    arena_bytes = 288 : i64
// CHECK-SAME:    planned_buffers = 2 : i64, unplanned_buffers = 3 : i64
// CHECK:         memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK:         memref.alloc() : memref<64xf32>
// CHECK:         memref.alloc() : memref<32xf32>
// CHECK:         scf.for
// CHECK:           memref.view %{{.*}}[%c256{{.*}}][] : memref<288xi8> to memref<8xf32>
func.func private @consume(memref<32xf32>)
// expected-remark-re @below {{memsched-plan-buffers: 2 buffers in one arena of 288 B (max live 288 B, fragmentation 1.000x, {{.*}}), 3 left as they are (the first: it has a dynamic size)}}
func.func @left_alone(%n: index, %x: memref<64xf32>) -> memref<64xf32> {
  %dyn = memref.alloc(%n) : memref<?xf32>
  %ret = memref.alloc() : memref<64xf32>
  linalg.exp ins(%x : memref<64xf32>) outs(%ret : memref<64xf32>)
  %arg = memref.alloc() : memref<32xf32>
  call @consume(%arg) : (memref<32xf32>) -> ()
  %tmp = memref.alloc() : memref<64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %inner = memref.alloc() : memref<8xf32>
    %v = memref.load %tmp[%i] : memref<64xf32>
    memref.store %v, %inner[%i] : memref<8xf32>
  }
  return %ret : memref<64xf32>
}

// -----

// Bodies are planned too: a loop body's allocations share bytes by their
// lifetimes within one iteration (%d reuses %a's), in a nested arena that
// is one allocation of the function's block, live while the loop runs; the
// two branches of an scf.if share one nested arena, as large as the larger
// branch's, and it reuses the loop's bytes. An allocation a loop yields
// escapes its body and stays as it is.
// CHECK-LABEL: func.func @bodies
// CHECK-SAME:    arena_bytes = 512 : i64
// CHECK-SAME:    planned_buffers = 5 : i64, unplanned_buffers = 1 : i64
// CHECK:         %[[ARENA:.+]] = memref.alloc() {alignment = 256 : i64, memsched.arena} : memref<512xi8>
// CHECK:         scf.for
// CHECK:           %[[A0:.+]] = arith.constant 0 : index
// CHECK-NEXT:      memref.view %[[ARENA]][%[[A0]]][] : memref<512xi8> to memref<64xf32>
// CHECK:           %[[B:.+]] = arith.constant 256 : index
// CHECK-NEXT:      memref.view %[[ARENA]][%[[B]]][] : memref<512xi8> to memref<64xf32>
// CHECK:           %[[A1:.+]] = arith.constant 0 : index
// CHECK-NEXT:      memref.view %[[ARENA]][%[[A1]]][] : memref<512xi8> to memref<64xf32>
// CHECK:         scf.if
// CHECK:           memref.view %[[ARENA]]
// CHECK:         } else {
// CHECK:           memref.view %[[ARENA]][%{{.+}}][] : memref<512xi8> to memref<128xf32>
// CHECK:         scf.for
// CHECK:           memref.alloc() : memref<64xf32>
// expected-remark-re @below {{memsched-plan-buffers: 5 buffers in one arena of 512 B (max live 512 B, fragmentation 1.000x, {{.*}}), 1 left as they are (the first: yielded from a region)}}
func.func @bodies(%x: memref<64xf32>, %y: memref<128xf32>, %out: memref<64xf32>,
                  %out2: memref<128xf32>, %cond: i1) -> memref<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.alloc() : memref<64xf32>
    linalg.exp ins(%x : memref<64xf32>) outs(%a : memref<64xf32>)
    %b = memref.alloc() : memref<64xf32>
    linalg.exp ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
    %d = memref.alloc() : memref<64xf32>
    linalg.exp ins(%b : memref<64xf32>) outs(%d : memref<64xf32>)
    memref.copy %d, %out : memref<64xf32> to memref<64xf32>
  }
  scf.if %cond {
    %e = memref.alloc() : memref<64xf32>
    linalg.exp ins(%x : memref<64xf32>) outs(%e : memref<64xf32>)
    memref.copy %e, %out : memref<64xf32> to memref<64xf32>
  } else {
    %f = memref.alloc() : memref<128xf32>
    linalg.exp ins(%y : memref<128xf32>) outs(%f : memref<128xf32>)
    memref.copy %f, %out2 : memref<128xf32> to memref<128xf32>
  }
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (memref<64xf32>) {
    %g = memref.alloc() : memref<64xf32>
    linalg.exp ins(%acc : memref<64xf32>) outs(%g : memref<64xf32>)
    scf.yield %g : memref<64xf32>
  }
  return %r : memref<64xf32>
}

// -----

// No allocation: nothing changes, no attribute, no remark.
// CHECK-LABEL: func.func @nothing
// CHECK-NOT:     memsched.plan
func.func @nothing(%x: memref<4xf32>) {
  return
}

// -----

// Results a device function copies out (into memsched.host_buffer
// allocations) live to the end. Packed among the others at 256-byte
// alignment they would take 4,616 B; placed above the others' arena at
// their elements' alignment (f64, f32, then f16) the arena is the others'
// 4,096 B plus the results' 18 B, what the memory model counts.
// CHECK-LABEL: func.func @results_above_the_arena
// CHECK-SAME:    algorithm = "{{.+}} + results above"{{.*}}arena_bytes = 4114 : i64{{.*}}max_live_bytes = 4114 : i64, optimal = true, planned_buffers = 4 : i64, unplanned_buffers = 3 : i64
// CHECK:         %[[ARENA:.+]] = memref.alloc() {alignment = 256 : i64, memsched.arena} : memref<4114xi8>
// CHECK:         arith.constant 0 : index
// CHECK:         %[[OFF1:.+]] = arith.constant 4104 : index
// CHECK-NEXT:    memref.view %[[ARENA]][%[[OFF1]]][] : memref<4114xi8> to memref<f32>
// CHECK:         %[[OFF2:.+]] = arith.constant 4108 : index
// CHECK-NEXT:    memref.view %[[ARENA]][%[[OFF2]]][] : memref<4114xi8> to memref<3xf16>
// CHECK:         %[[OFF3:.+]] = arith.constant 4096 : index
// CHECK-NEXT:    memref.view %[[ARENA]][%[[OFF3]]][] : memref<4114xi8> to memref<f64>
// GREEDY-LABEL:  func.func @results_above_the_arena
// GREEDY-SAME:     arena_bytes = 4114 : i64
// ALIGN64-LABEL: func.func @results_above_the_arena
// ALIGN64-SAME:    arena_bytes = 4114 : i64
// expected-remark @below {{memsched-plan-buffers: 4 buffers in one arena of 4.02 KiB (max live 4.02 KiB, fragmentation 1.000x, }}
func.func @results_above_the_arena(%x: memref<1024xf32>, %out: memref<1024xf32>) -> (memref<f32>, memref<3xf16>, memref<f64>) {
  %t = memref.alloc() : memref<1024xf32>
  linalg.exp ins(%x : memref<1024xf32>) outs(%t : memref<1024xf32>)
  %one = arith.constant 1.0 : f32
  %r1 = memref.alloc() : memref<f32>
  linalg.fill ins(%one : f32) outs(%r1 : memref<f32>)
  %h = arith.constant 2.0 : f16
  %r2 = memref.alloc() : memref<3xf16>
  linalg.fill ins(%h : f16) outs(%r2 : memref<3xf16>)
  %d = arith.constant 3.0 : f64
  %r3 = memref.alloc() : memref<f64>
  linalg.fill ins(%d : f64) outs(%r3 : memref<f64>)
  linalg.exp ins(%t : memref<1024xf32>) outs(%out : memref<1024xf32>)
  %h1 = memref.alloc() {memsched.host_buffer} : memref<f32>
  gpu.memcpy %h1, %r1 : memref<f32>, memref<f32>
  %h2 = memref.alloc() {memsched.host_buffer} : memref<3xf16>
  gpu.memcpy %h2, %r2 : memref<3xf16>, memref<3xf16>
  %h3 = memref.alloc() {memsched.host_buffer} : memref<f64>
  gpu.memcpy %h3, %r3 : memref<f64>, memref<f64>
  return %h1, %h2, %h3 : memref<f32>, memref<3xf16>, memref<f64>
}

// -----

// A view op touches no memory: a subview nothing reads, made after %a's
// last reader, does not keep %a alive, so %b takes its bytes (the
// tensor-level model counts it so).
// CHECK-LABEL: func.func @dead_view
// CHECK-SAME:    arena_bytes = 1024 : i64
// GREEDY-LABEL:  func.func @dead_view
// ALIGN64-LABEL: func.func @dead_view
// expected-remark @below {{memsched-plan-buffers: 2 buffers in one arena of 1.00 KiB}}
func.func @dead_view(%x: memref<256xf32>, %out: memref<256xf32>) {
  %a = memref.alloc() : memref<256xf32>
  linalg.exp ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  linalg.exp ins(%a : memref<256xf32>) outs(%out : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.exp ins(%out : memref<256xf32>) outs(%b : memref<256xf32>)
  %v = memref.subview %a[0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1]>>
  linalg.exp ins(%b : memref<256xf32>) outs(%out : memref<256xf32>)
  return
}

// -----

// A returned view of a buffer is copied into a buffer of its own before it
// is copied out; the memory model counts the viewed buffer as returned too,
// so it may go above the arena with the copy: 8 B of %t (its row 1) and
// the 4-byte copy above the 8 B of %u, where packing would take 264 B.
// CHECK-LABEL: func.func @result_copied_from_a_view
// CHECK-SAME:    algorithm = "{{.+}} + results above"{{.*}}arena_bytes = 20 : i64
// GREEDY-LABEL:  func.func @result_copied_from_a_view
// ALIGN64-LABEL: func.func @result_copied_from_a_view
// expected-remark @below {{memsched-plan-buffers: 3 buffers in one arena of 20 B}}
func.func @result_copied_from_a_view(%x: memref<2x1xf32>) -> memref<1x1xf32> {
  %t = memref.alloc() : memref<2x1xf32>
  linalg.exp ins(%x : memref<2x1xf32>) outs(%t : memref<2x1xf32>)
  %u = memref.alloc() : memref<2x1xf32>
  linalg.exp ins(%t : memref<2x1xf32>) outs(%u : memref<2x1xf32>)
  linalg.exp ins(%u : memref<2x1xf32>) outs(%x : memref<2x1xf32>)
  %row = memref.subview %t[1, 0] [1, 1] [1, 1] : memref<2x1xf32> to memref<1x1xf32, strided<[1, 1], offset: 1>>
  %c = memref.alloc() : memref<1x1xf32>
  memref.copy %row, %c : memref<1x1xf32, strided<[1, 1], offset: 1>> to memref<1x1xf32>
  %h = memref.alloc() {memsched.host_buffer} : memref<1x1xf32>
  gpu.memcpy %h, %c : memref<1x1xf32>, memref<1x1xf32>
  return %h : memref<1x1xf32>
}
