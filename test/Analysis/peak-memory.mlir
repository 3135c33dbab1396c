// RUN: memsched-opt %s -split-input-file -verify-diagnostics --mlir-disable-threading -test-memsched-print-peak-memory -o /dev/null | FileCheck %s
// RUN: memsched-opt %s -split-input-file -verify-diagnostics --mlir-disable-threading "-test-memsched-print-peak-memory=live-at-peak" -o /dev/null | FileCheck %s --check-prefix=LIVE

// Tests that a straight chain keeps only a producer and its consumer live, and
// that a tensor constant is resident.

// resident = 256*4 (%x) + 256*4 (%cst) = 2048. A, B, C: 1024 bytes each.
// The constant and the empties are free ops: no step of their own, so the
// steps are the three computations.
// peak_transient = A + B at step 1 = 2048 (first step with the maximum).
// lower_bound = 2048 + max(mul: A + B = 2048, returned C = 1024) = 4096.
// CHECK-LABEL: peak-memory @chain
// CHECK-SAME: resident 2048 peak_transient 2048 peak 4096 lower_bound 4096 max_live 2048 peak_step 1{{$}}
// CHECK-NEXT: step 0 linalg.exp live 1024{{$}}
// CHECK-NEXT: step 1 linalg.mul live 2048{{$}}
// A is dead after step 1; C is written at step 2: B + C = 2048.
// CHECK-NEXT: step 2 linalg.negf live 2048{{$}}
// CHECK-NOT: step
// With live-at-peak, the buffers live at the peak step, largest first, and
// the op that writes each.
// LIVE-LABEL: peak-memory @chain
// LIVE: live at step 1 (linalg.mul):
// LIVE-NEXT: 1024 B lifetime 0-1 written by linalg.exp at loc({{.*}}peak-memory.mlir":[[@LINE+6]]:8)
// LIVE-NEXT: 1024 B lifetime 1-2 written by linalg.mul at loc({{.*}}peak-memory.mlir":[[@LINE+7]]:8)
// LIVE-LABEL: peak-memory @diamond
func.func @chain(%x: tensor<256xf32>) -> tensor<256xf32> {
  %cst = arith.constant dense<2.0> : tensor<256xf32>
  %e0 = tensor.empty() : tensor<256xf32>
  %a = linalg.exp ins(%x : tensor<256xf32>) outs(%e0 : tensor<256xf32>) -> tensor<256xf32>
  %e1 = tensor.empty() : tensor<256xf32>
  %b = linalg.mul ins(%a, %cst : tensor<256xf32>, tensor<256xf32>)
                  outs(%e1 : tensor<256xf32>) -> tensor<256xf32>
  %e2 = tensor.empty() : tensor<256xf32>
  %c = linalg.negf ins(%b : tensor<256xf32>) outs(%e2 : tensor<256xf32>) -> tensor<256xf32>
  return %c : tensor<256xf32>
}

// -----

// Tests a diamond: A feeds B and C, which meet in an add written in place
// into B; the peak (A + B + C) is above the largest single-op footprint.

// resident = 64*4 = 256; A, B, C: 256 bytes each.
// peak_transient = A + B + C at step 2 = 768 (the empties have no steps).
// lower_bound = 256 + max(negf: A + B, exp: A + C, add: B + C = 512,
// returned B = 256) = 768, below peak = 256 + 768 = 1024.
// CHECK-LABEL: peak-memory @diamond
// CHECK-SAME: resident 256 peak_transient 768 peak 1024 lower_bound 768 max_live 768 peak_step 2{{$}}
// CHECK-NEXT: step 0 linalg.exp live 256{{$}}
// CHECK-NEXT: step 1 linalg.negf live 512{{$}}
// CHECK-NEXT: step 2 linalg.exp live 768{{$}}
// CHECK-NEXT: step 3 linalg.add live 512{{$}}
// CHECK-NOT: step
func.func @diamond(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e0 = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %b = linalg.negf ins(%a : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %c = linalg.exp ins(%a : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %d = linalg.add ins(%b, %c : tensor<64xf32>, tensor<64xf32>)
                  outs(%b : tensor<64xf32>) -> tensor<64xf32>
  return %d : tensor<64xf32>
}

// -----

// Tests that collapse_shape, expand_shape and extract_slice take no memory and
// keep their source buffer live as long as the view is used.

// resident = 4*16*4 = 256. A = 64*4 = 256; N = 2*16*4 = 128; R = 32*4 = 128.
// The collapse of the resident %x is free (no step, no transient memory);
// the views of A are part of the first exp's step, the collapse of N part of
// the negf's.
// Step 1 (negf) reads the slice of A, so A is live there: A + N = 384.
// lower_bound = 256 + max(exp: A = 256, negf: A + N = 384, exp: N + R =
// 256, returned R = 128) = 640.
// CHECK-LABEL: peak-memory @views
// CHECK-SAME: resident 256 peak_transient 384 peak 640 lower_bound 640 max_live 384 peak_step 1{{$}}
// CHECK-NEXT: step 0 linalg.exp live 256{{$}}
// CHECK-NEXT: step 1 linalg.negf live 384{{$}}
// A is dead: N + R = 256.
// CHECK-NEXT: step 2 linalg.exp live 256{{$}}
// CHECK-NOT: step
func.func @views(%x: tensor<4x16xf32>) -> tensor<32xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x16xf32> into tensor<64xf32>
  %e = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%c : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %v = tensor.expand_shape %a [[0, 1]] output_shape [4, 16] : tensor<64xf32> into tensor<4x16xf32>
  %s = tensor.extract_slice %v[0, 0] [2, 16] [1, 1] : tensor<4x16xf32> to tensor<2x16xf32>
  %e2 = tensor.empty() : tensor<2x16xf32>
  %n = linalg.negf ins(%s : tensor<2x16xf32>) outs(%e2 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %nc = tensor.collapse_shape %n [[0, 1]] : tensor<2x16xf32> into tensor<32xf32>
  %e3 = tensor.empty() : tensor<32xf32>
  %r = linalg.exp ins(%nc : tensor<32xf32>) outs(%e3 : tensor<32xf32>) -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// -----

// Tests that returning a slice keeps the whole source buffer live to the end.

// resident = 64*4 = 256. A = 256 (returned through %s), B = 256.
// The slice is part of the exp's step. Step 1: A (live to the end) + B = 512.
// lower_bound = 256 + max(exp: A = 256, negf: B = 256, returned A = 256) = 512.
// CHECK-LABEL: peak-memory @returned_view
// CHECK-SAME: resident 256 peak_transient 512 peak 768 lower_bound 512 max_live 512 peak_step 1{{$}}
// CHECK-NEXT: step 0 linalg.exp live 256{{$}}
// CHECK-NEXT: step 1 linalg.negf live 512{{$}}
// CHECK-NOT: step
func.func @returned_view(%x: tensor<64xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = tensor.extract_slice %a[0] [16] [1] : tensor<64xf32> to tensor<16xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %b = linalg.negf ins(%x : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  return %s : tensor<16xf32>
}

// -----

// Tests that an empty -> fill -> matmul -> elementwise chain written in place
// takes a single buffer.

// resident = 8*16*4 (%a) + 16*4*4 (%b) = 512 + 256 = 768. The fill is folded
// into the matmul's step (0). One buffer of 8*4*4 = 128 bytes from that step
// to the end (returned).
// lower_bound = 768 + 128 = 896.
// CHECK-LABEL: peak-memory @inplace_chain
// CHECK-SAME: resident 768 peak_transient 128 peak 896 lower_bound 896 max_live 128 peak_step 0{{$}}
// CHECK-NEXT: step 0 linalg.matmul live 128{{$}}
// CHECK-NEXT: step 1 linalg.exp live 128{{$}}
// CHECK-NEXT: step 2 linalg.negf live 128{{$}}
// CHECK-NOT: step
func.func @inplace_chain(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>)
                     outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.exp ins(%m : tensor<8x4xf32>) outs(%m : tensor<8x4xf32>) -> tensor<8x4xf32>
  %n = linalg.negf ins(%r : tensor<8x4xf32>) outs(%r : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %n : tensor<8x4xf32>
}

// -----

// Tests that a tensor.empty created first but written last allocates nothing
// until that write.

// resident = 64*4 = 256; A, B, C: 256 bytes each.
// %late is created first but first written by the last exp (step 2).
// Counting it from the start would give 768 at step 1; allocated late, the
// peak is A + B = 512.
// lower_bound = 256 + max(negf: A + B, exp: B + C = 512, returned C) = 768.
// CHECK-LABEL: peak-memory @empty_allocated_late
// CHECK-SAME: resident 256 peak_transient 512 peak 768 lower_bound 768 max_live 512 peak_step 1{{$}}
// CHECK-NEXT: step 0 linalg.exp live 256{{$}}
// CHECK-NEXT: step 1 linalg.negf live 512{{$}}
// A is dead, C is allocated: B + C = 512.
// CHECK-NEXT: step 2 linalg.exp live 512{{$}}
// CHECK-NOT: step
func.func @empty_allocated_late(%x: tensor<64xf32>) -> tensor<64xf32> {
  %late = tensor.empty() : tensor<64xf32>
  %e = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %b = linalg.negf ins(%a : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %c = linalg.exp ins(%b : tensor<64xf32>) outs(%late : tensor<64xf32>) -> tensor<64xf32>
  return %c : tensor<64xf32>
}

// -----

// Tests that a value returned early stays live to the end, after its last use.

// resident = 64*4 = 256; A, B, C: 256 bytes each.
// A is produced at step 0 and used by no op, but is returned: live to step 2.
// lower_bound = 256 + max(exp: B + C = 512, returned A + C = 512) = 768.
// CHECK-LABEL: peak-memory @returned_early
// CHECK-SAME: resident 256 peak_transient 768 peak 1024 lower_bound 768 max_live 768 peak_step 2{{$}}
// CHECK-NEXT: step 0 linalg.exp live 256{{$}}
// CHECK-NEXT: step 1 linalg.negf live 512{{$}}
// CHECK-NEXT: step 2 linalg.exp live 768{{$}}
// CHECK-NOT: step
func.func @returned_early(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %b = linalg.negf ins(%x : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %e3 = tensor.empty() : tensor<64xf32>
  %c = linalg.exp ins(%b : tensor<64xf32>) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  return %a, %c : tensor<64xf32>, tensor<64xf32>
}

// -----

// Tests that the lower bound is the total of the returned buffers when that is
// more than any single op's footprint.

// resident = 64*4 = 256; A, B, C: 256 bytes each, all returned.
// Every op uses one transient buffer (256), but A + B + C = 768 coexist at the
// end: lower_bound = 256 + 768 = 1024 = peak.
// CHECK-LABEL: peak-memory @lower_bound_from_returns
// CHECK-SAME: resident 256 peak_transient 768 peak 1024 lower_bound 1024 max_live 768 peak_step 2{{$}}
// CHECK-NEXT: step 0 linalg.exp live 256{{$}}
// CHECK-NEXT: step 1 linalg.negf live 512{{$}}
// CHECK-NEXT: step 2 linalg.exp live 768{{$}}
// CHECK-NOT: step
func.func @lower_bound_from_returns(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %e0 = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %b = linalg.negf ins(%x : tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %c = linalg.exp ins(%x : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  return %a, %b, %c : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// Tests that a call is a fence, without a remark (-verify-diagnostics fails
// on any), and that its tensor result is a new transient buffer.

func.func private @external(tensor<64xf32>) -> tensor<64xf32>

// resident = 64*4 = 256; A (exp) = 256, C (call result) = 256; the add
// writes in place into C.
// lower_bound = 256 + max(call: A + C = 512, add: A + C = 512, returned C =
// 256) = 768.
// CHECK-LABEL: peak-memory @fence
// CHECK-SAME: resident 256 peak_transient 512 peak 768 lower_bound 768 max_live 512 peak_step 1{{$}}
// CHECK-NEXT: step 0 linalg.exp live 256{{$}}
// CHECK-NEXT: step 1 func.call live 512{{$}}
// CHECK-NEXT: step 2 linalg.add live 512{{$}}
// CHECK-NOT: step
func.func @fence(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %a = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %c = func.call @external(%a) : (tensor<64xf32>) -> tensor<64xf32>
  %d = linalg.add ins(%a, %c : tensor<64xf32>, tensor<64xf32>)
                  outs(%c : tensor<64xf32>) -> tensor<64xf32>
  return %d : tensor<64xf32>
}

// -----

// Tests the storage sizes of i1 and i8 (1 byte), index (8 bytes) and
// complex<f32> (8 bytes) elements.

// resident = 10*1 (%m, i1) + 10*8 (%i, index) + 4*8 (%z, complex<f32>) =
// 10 + 80 + 32 = 122. N (i1) = 10, B (i8) = 10, J (index) = 80, C (complex)
// = 32; B, J and C are returned.
// Step 3 (the copy; the empty has no step): B + J + C = 10 + 80 + 32 = 122.
// lower_bound = 122 + max(extui: N + B = 20, addi: J = 80, copy: C = 32,
// returned B + J + C = 122) = 244.
// CHECK-LABEL: peak-memory @element_types
// CHECK-SAME: resident 122 peak_transient 122 peak 244 lower_bound 244 max_live 122 peak_step 3{{$}}
// CHECK-NEXT: step 0 arith.xori live 10{{$}}
// N + B = 20.
// CHECK-NEXT: step 1 arith.extui live 20{{$}}
// N is dead: B + J = 90.
// CHECK-NEXT: step 2 arith.addi live 90{{$}}
// CHECK-NEXT: step 3 linalg.copy live 122{{$}}
// CHECK-NOT: step
func.func @element_types(%m: tensor<10xi1>, %i: tensor<10xindex>, %z: tensor<4xcomplex<f32>>)
    -> (tensor<10xi8>, tensor<10xindex>, tensor<4xcomplex<f32>>) {
  %n = arith.xori %m, %m : tensor<10xi1>
  %b = arith.extui %n : tensor<10xi1> to tensor<10xi8>
  %j = arith.addi %i, %i : tensor<10xindex>
  %e = tensor.empty() : tensor<4xcomplex<f32>>
  %c = linalg.copy ins(%z : tensor<4xcomplex<f32>>) outs(%e : tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %b, %j, %c : tensor<10xi8>, tensor<10xindex>, tensor<4xcomplex<f32>>
}

// -----

// Tests that a `memsched.workspace` attribute adds to live memory at its op
// only, and to the lower bound, but not to max_live (buffers only).

// resident = 64*4 = 256; A, B: 256 bytes each; the exp has 1000 bytes of
// workspace.
// Step 0: A + 1000 = 1256 (the peak); step 1: A + B = 512 (max_live).
// lower_bound = 256 + max(exp: A + 1000 = 1256, negf: A + B = 512) = 1512.
// CHECK-LABEL: peak-memory @workspace
// CHECK-SAME: resident 256 peak_transient 1256 peak 1512 lower_bound 1512 max_live 512 peak_step 0{{$}}
// CHECK-NEXT: step 0 linalg.exp live 1256{{$}}
// The workspace is gone after its op: A + B = 512.
// CHECK-NEXT: step 1 linalg.negf live 512{{$}}
// CHECK-NOT: step
func.func @workspace(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %a = linalg.exp {memsched.workspace = 1000 : i64}
         ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %b = linalg.negf ins(%a : tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  return %b : tensor<64xf32>
}

// -----

// Constants inside control-flow bodies are resident too (the lowering makes
// each a global, which the device copies in at entry): once per distinct
// value, and not again where the top level has the same one.
// resident = 64 (%x) + 64 (%top) + 32 (%inner, 8xf32) = 160; %same is
// %top's value and %twice %inner's.
// CHECK-LABEL: peak-memory @nested_constants
// CHECK-SAME: resident 160 {{.*}}
func.func @nested_constants(%x: tensor<16xf32>, %flag: i1) -> tensor<16xf32> {
  %top = arith.constant dense<1.0> : tensor<16xf32>
  %r = scf.if %flag -> (tensor<16xf32>) {
    %same = arith.constant dense<1.0> : tensor<16xf32>
    %inner = arith.constant dense<2.0> : tensor<8xf32>
    %twice = arith.constant dense<2.0> : tensor<8xf32>
    %e = tensor.empty() : tensor<16xf32>
    %a = linalg.add ins(%x, %same : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    %b = tensor.insert_slice %inner into %a[0] [8] [1] : tensor<8xf32> into tensor<16xf32>
    %c = tensor.insert_slice %twice into %b[8] [8] [1] : tensor<8xf32> into tensor<16xf32>
    scf.yield %c : tensor<16xf32>
  } else {
    %e = tensor.empty() : tensor<16xf32>
    %a = linalg.add ins(%x, %top : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    scf.yield %a : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
