// RUN: memsched-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics --mlir-disable-threading -test-memsched-print-peak-memory -o /dev/null | FileCheck %s --check-prefix=PEAK
// RUN: memsched-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics --mlir-disable-threading -memsched-report -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: memsched-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics --mlir-disable-threading -memsched-report=output=%t.report | FileCheck %s --check-prefix=IR
// RUN: memsched-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics --mlir-disable-threading -memsched-report="format=json" -o /dev/null | FileCheck %s --check-prefix=JSON

// Tests that a function with several blocks is an error, said once by the
// pass (prefixed "memsched" by the test pass, "memsched-report" by the
// report; the expectations below match both).

// PEAK: peak-memory @multiple_blocks not built: function has 2 blocks; memsched handles single-block functions
// The report pass fails: nothing is printed for this input.
// REPORT-NOT: @multiple_blocks
// IR-NOT: @multiple_blocks

// expected-error @below {{cannot analyze '@multiple_blocks': it has 2 blocks, only single-block functions are supported}}
func.func @multiple_blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1
^bb1:
  return %x : tensor<4xf32>
}

// -----

// Tests that a parallel loop with a reduction (scf.parallel) is an error:
// memsched plans scf.forall, whose iterations write disjoint slices, but
// not reductions across iterations.

// PEAK: peak-memory @scf_parallel not built: op with regions
// REPORT-NOT: @scf_parallel
// IR-NOT: @scf_parallel

func.func @scf_parallel(%x: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  // expected-error @below {{cannot schedule an op with regions ('scf.parallel'; supported: linalg, tensor.pad and tensor.generate payloads, and scf.for, scf.forall, scf.if, scf.while, scf.execute_region and scf.index_switch)}}
  %r = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%z) -> f32 {
    %v = tensor.extract %x[%i] : tensor<4xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}

// -----

// Tests that an unsupported region op inside a loop is an error at that op.

// PEAK: peak-memory @parallel_in_for not built: op with regions
// REPORT-NOT: @parallel_in_for
// IR-NOT: @parallel_in_for

func.func @parallel_in_for(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    // expected-error @below {{cannot schedule an op with regions ('scf.parallel'}}
    %n = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%z) -> f32 {
      %v = tensor.extract %acc[%i] : tensor<4xf32>
      scf.reduce(%v : f32) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        scf.reduce.return %s : f32
      }
    }
    %u = tensor.insert %n into %acc[%c0] : tensor<4xf32>
    scf.yield %u : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Tests that a dynamic shape inside a loop body makes memsched skip the
// function: the loop's memory cannot be bounded.

// PEAK: peak-memory @dynamic_in_loop not built: dynamic or unsized tensor type
// REPORT:      memsched report for @dynamic_in_loop
// REPORT-NEXT:   skipped: dynamic or unsized tensor type

func.func @dynamic_in_loop(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    // expected-remark @below {{leaves '@dynamic_in_loop' unchanged: 'tensor<?xf32>' has no static size}}
    %e = tensor.empty(%n) : tensor<?xf32>
    %c = tensor.cast %acc : tensor<4xf32> to tensor<?xf32>
    %d = tensor.cast %c : tensor<?xf32> to tensor<4xf32>
    scf.yield %d : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Tests that a dynamically shaped argument makes memsched skip the function
// with a remark and leave it unchanged.

// PEAK: peak-memory @dynamic_argument not built: dynamic or unsized argument type
// REPORT:      memsched report for @dynamic_argument
// REPORT-NEXT:   skipped: dynamic or unsized argument type
// IR-LABEL: func.func @dynamic_argument(%{{.*}}: tensor<?xf32>) -> tensor<?xf32>
// IR-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// IR-NEXT:    %[[DIM:.*]] = tensor.dim %{{.*}}, %[[C0]] : tensor<?xf32>
// IR-NEXT:    %[[E:.*]] = tensor.empty(%[[DIM]]) : tensor<?xf32>
// IR-NEXT:    %[[N:.*]] = linalg.negf ins(%{{.*}} : tensor<?xf32>) outs(%[[E]] : tensor<?xf32>) -> tensor<?xf32>
// IR-NEXT:    return %[[N]] : tensor<?xf32>

// expected-remark @below {{leaves '@dynamic_argument' unchanged: argument type 'tensor<?xf32>' has no static size}}
func.func @dynamic_argument(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %n = linalg.negf ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %n : tensor<?xf32>
}

// -----

// Tests that a dynamically shaped value inside the body makes memsched skip
// the function with a remark on the op and leave it unchanged.

// PEAK: peak-memory @dynamic_value not built: dynamic or unsized tensor type
// REPORT:      memsched report for @dynamic_value
// REPORT-NEXT:   skipped: dynamic or unsized tensor type
// IR-LABEL: func.func @dynamic_value(%{{.*}}: index) -> tensor<?xf32>
// IR-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// IR-NEXT:    %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?xf32>
// IR-NEXT:    %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<?xf32>) -> tensor<?xf32>
// IR-NEXT:    return %[[F]] : tensor<?xf32>

func.func @dynamic_value(%n: index) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{leaves '@dynamic_value' unchanged: 'tensor<?xf32>' has no static size}}
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %f : tensor<?xf32>
}

// -----

// Tests that an op without a cost model (here unregistered) is analyzed with
// an estimate and counted in the report's estimated_ops, without a remark
// (-verify-diagnostics fails on any), and, having unknown effects, is kept
// as a fence.

// The estimate: flops = 4 result elements; bytes = 4*4 in + 4*4 out = 32.
// resident 16 (%x); the result 16 is live at step 0 and returned.
// PEAK: peak-memory @unknown_op resident 16 peak_transient 16 peak 32 lower_bound 32 max_live 16 peak_step 0
// REPORT:      memsched report for @unknown_op
// REPORT:        ops 1
// Keys are sorted: estimated_ops comes before name.
// JSON: "estimated_ops": 1,
// JSON: "name": "unknown_op"
// IR-LABEL: func.func @unknown_op
// IR-NEXT:    "foo.bar"

func.func @unknown_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "foo.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that side-effecting ops and calls are kept in place, without a
// remark, and are still analyzed; both are counted as estimated.

func.func private @external(tensor<4xf32>) -> tensor<4xf32>

// resident 16 (%x) + 16 (%m) = 32; transient: the call result (16, returned).
// PEAK: peak-memory @side_effects resident 32 peak_transient 16 peak 48 lower_bound 48 max_live 16 peak_step 0
// The constants are free: two tasks, the call and the store.
// REPORT:      memsched report for @side_effects
// REPORT:        ops 2
// Keys are sorted: estimated_ops comes before name.
// JSON: "estimated_ops": 2,
// JSON: "name": "side_effects"
// IR-LABEL: func.func @side_effects
// IR:         call @external
// IR:         memref.store

func.func @side_effects(%x: tensor<4xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  %r = func.call @external(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %m[%c0] : memref<4xf32>
  return %r : tensor<4xf32>
}
