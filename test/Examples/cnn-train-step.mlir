// RUN: memsched-opt %examples/cnn_train_step.mlir -memsched-exec-harness -memsched-to-cpu-pipeline | %run_harness > %t.original
// Swapping and memsched-optimize (reorder, then recomputation and swapping
// chosen jointly, in-place) at several budgets, on two devices, with CSE and
// canonicalization after them: bit-identical results, and every budget met.
// Budgets are fractions of the planned bytes (resident 6600 + arena 23872 +
// returned 4268 = 34740 B); the smallest reachable footprint is 28344 B
// (0.82x).
// RUN: for budget in 0.9x 0.85x; do \
// RUN:   for device in h100 cpu; do \
// RUN:     memsched-opt %examples/cnn_train_step.mlir -mlir-print-op-on-diagnostic=false -memsched-optimize="budget=$budget device=$device" -cse -canonicalize -memsched-exec-harness -memsched-to-cpu-pipeline 2>%t.fit | %run_harness > %t.optimized && \
// RUN:     diff %t.original %t.optimized && FileCheck %s --check-prefix=FIT --input-file=%t.fit || exit 1; \
// RUN:   done; \
// RUN: done
// FIT: remark: memsched-fit: planned memory {{.*}} within {{.*}} with {{remat|swap|joint}}
// RUN: memsched-opt %examples/cnn_train_step.mlir -memsched-report=output=%t.report -canonicalize -cse -memsched-exec-harness -memsched-to-cpu-pipeline | %run_harness > %t.transformed
// RUN: diff %t.original %t.transformed
// RUN: FileCheck %s --input-file=%t.original
// Every scheduler's order gives bit-identical results (-mlir-print-op-on-diagnostic=false keeps the remark short).
// RUN: for algorithm in auto xla-list xla-dfs postorder inductor-lpmf inductor-bfs inductor-dfs; do \
// RUN:   memsched-opt %examples/cnn_train_step.mlir -mlir-print-op-on-diagnostic=false -memsched-reorder=algorithm=$algorithm -memsched-exec-harness -memsched-to-cpu-pipeline 2>%t.remark.$algorithm | %run_harness > %t.reordered.$algorithm && \
// RUN:   diff %t.original %t.reordered.$algorithm && FileCheck %s --check-prefix=REMARK --input-file=%t.remark.$algorithm || exit 1; \
// RUN: done
// REMARK: remark: memsched-reorder: peak
// Buffer planning (on by default in the CPU pipeline) and in-place writes
// leave results bit-identical; the planned arena is the one the report
// predicts at tensor level, and the verifier finds no overlap.
// RUN: memsched-opt %examples/cnn_train_step.mlir -memsched-exec-harness -memsched-to-cpu-pipeline=plan-buffers=false | %run_harness > %t.unplanned
// RUN: diff %t.original %t.unplanned
// RUN: memsched-opt %examples/cnn_train_step.mlir -mlir-print-op-on-diagnostic=false -memsched-reorder -memsched-inplace -memsched-exec-harness -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.optimized
// RUN: diff %t.original %t.optimized
// RUN: memsched-opt %examples/cnn_train_step.mlir -memsched-report=format=json -o /dev/null > %t.plan
// RUN: memsched-opt %examples/cnn_train_step.mlir --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -memsched-plan-buffers -test-memsched-verify-plan -mlir-print-op-on-diagnostic=false 2>/dev/null >> %t.plan
// RUN: FileCheck %s --check-prefix=PLAN --input-file=%t.plan
// PLAN: "arena_bytes": [[ARENA:[0-9]+]]
// PLAN: memsched.plan = {{.*}}arena_bytes = [[ARENA]] : i64
// 7 headers + 1 (loss) + 4*1*3*3 (dw1) + 4 (db1) + 8*4*3*3 (dw2) + 8 (db2)
// + 72*10 (dw3) + 10 (db3) = 7 + 1 + 36 + 4 + 288 + 8 + 720 + 10 = 1074.
// RUN: count 1074 < %t.original

// The report pass alone changes nothing, and writes its report.
// RUN: memsched-opt %examples/cnn_train_step.mlir -o %t.parsed.mlir
// RUN: memsched-opt %examples/cnn_train_step.mlir -memsched-report=output=%t.report -o %t.reported.mlir
// RUN: diff %t.parsed.mlir %t.reported.mlir
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.report

// Tests that the CNN training step example runs on CPU, prints all seven
// results, and gives bit-identical results after semantics-preserving
// rewrites; and that memsched-report leaves the example's IR unchanged.

// One header per result, in signature order, each followed by its elements.
// CHECK:      memsched-result 0 tensor<f32>
// CHECK-NEXT: {{^-?[0-9]+$}}
// CHECK-NEXT: memsched-result 1 tensor<4x1x3x3xf32>
// CHECK-NEXT: {{^-?[0-9]+$}}
// CHECK:      memsched-result 2 tensor<4xf32>
// CHECK-NEXT: {{^-?[0-9]+$}}
// CHECK:      memsched-result 3 tensor<8x4x3x3xf32>
// CHECK-NEXT: {{^-?[0-9]+$}}
// CHECK:      memsched-result 4 tensor<8xf32>
// CHECK-NEXT: {{^-?[0-9]+$}}
// CHECK:      memsched-result 5 tensor<72x10xf32>
// CHECK-NEXT: {{^-?[0-9]+$}}
// CHECK:      memsched-result 6 tensor<10xf32>
// CHECK-NEXT: {{^-?[0-9]+$}}
// CHECK-NOT:  memsched-result

// REPORT: memsched report for @train_step
// REPORT: ops
