// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-fit=budget=0.8x 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// The plan holds after standard cleanup: the report's planned bytes.
// RUN: memsched-opt %s -memsched-fit=budget=0.6x -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=AFTER-CLEANUP
// The decisions without rewriting, the candidates the driver measured.
// The text report leads with the device memory and the time, before and
// after, against the budget and, where the driver searched for it (always
// at `min`), the smallest reachable footprint.
// RUN: memsched-opt %s -memsched-fit=budget=0.6x -memsched-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=HEADLINE
// RUN: memsched-opt %s -memsched-fit=budget=min -memsched-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=MIN-HEADLINE
// RUN: memsched-opt %s -test-memsched-print-fit-plan=budget=0.8x -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: memsched-opt %s -test-memsched-print-remat-plan=budget=0.8x -o /dev/null | FileCheck %s --check-prefix=REMAT-PLAN
// The curve: one driver run per budget, an unmet budget answered with the
// smallest reachable footprint, which `min` meets.
// RUN: memsched-opt %s "-test-memsched-budget-sweep=budgets=1MiB,0.8x,0.6x,0.3x,min" -o /dev/null | FileCheck %s --check-prefix=SWEEP
// Out of reach: one error naming the smallest reachable footprint; the IR
// is unchanged.
// RUN: not memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-fit=budget=0.3x 2>&1 >/dev/null | FileCheck %s --check-prefix=UNMET
// RUN: memsched-opt %s -memsched-fit=budget=12288B 2>/dev/null | FileCheck %s --check-prefix=GIVEN-BACK
// Results are bit-identical on CPU, whichever lever was chosen.
// RUN: memsched-opt %s -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-fit=budget=0.6x -cse -canonicalize -memsched-exec-harness=func=chain -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.remat
// RUN: diff %t.original %t.remat

// Tests memsched-fit, the budget driver with every lever, on the chain of
// remat.mlir. Buffers of 1024 x f32 = 4096 B, resident %x = 4096 B; as
// written: planned = 4096 + 16384 (arena) + 4096 (returned) = 24576 B.
//
// At 0.8x (19660 B) the in-place writes alone fit (16384 B): they cost no
// time, so the driver tries them first and keeps them. At 0.6x (14745 B)
// only recomputing %a (one more exp) fits: 12288 B, the smallest reachable.

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @chain
// CHECK-SAME: memsched.fit = {budget_bytes = 19660 : i64, chosen = "inplace", {{.*}}planned_after_bytes = 16384 : i64, planned_before_bytes = 24576 : i64
// CHECK-NOT: memsched.remat
// CHECK-NOT: memsched.swap
// REMARK: remark: memsched-fit: planned memory 24.00 KiB -> 16.00 KiB within 19.20 KiB with inplace
// REMARK-NOT: remark
// AFTER-CLEANUP: "chosen": "remat"
// AFTER-CLEANUP: "planned_bytes": 12288
// HEADLINE: memsched report for @chain
// HEADLINE-NEXT: planned (device) 12.00 KiB (12288 bytes)
// HEADLINE-NEXT: modeled time 2.402e-05 s (device h100)
// HEADLINE-NEXT: planned before 24.00 KiB (24576 bytes)
// HEADLINE-NEXT: budget 14.40 KiB (14745 bytes), met with remat
// The recomputation planner's model leaves out the write of the returned %f
// over %d (see REMAT-PLAN), so none of its plans aimed at 0.6x fits in it.
// The swap planner's does: %b waits for the copy of %a out and writes over
// it (+81% time). Recomputation's floor plan, which the writes lower to
// 12288 B, is then built too, and it is faster.
// HEADLINE-NEXT: time before 2.001e-05 s (+20.0% after)
// MIN-HEADLINE: budget 12.00 KiB (12288 bytes), met with remat
// MIN-HEADLINE-NEXT: smallest reachable 12.00 KiB (12288 bytes)
// The floor of the planned function is below the plan: the last op writes
// into its first input's buffer, which is returned, and reads the recomputed
// %a, which needs a buffer of its own there (a result takes one input's
// buffer, not two); elsewhere an op's input may be the returned buffer's
// storage (through chains of in-place writes), which no one order allows for
// all of them, and the chain may start in the argument's buffer (donated).
// HEADLINE-NEXT: floor 8.00 KiB (8192 bytes = resident + returned + 4.00 KiB for 'linalg.generic' at {{.*}}fit.mlir:{{[0-9]+}}:8)
// At the peak, the last op, its input (line 70) and its returned result.
// HEADLINE-NEXT: peak at {{.*}}fit.mlir:[[#P:]]:8 ('linalg.generic'), largest live buffers:
// HEADLINE-NEXT: 4.00 KiB {{.*}}fit.mlir:{{[0-9]+}}:8 (linalg.generic)
// HEADLINE-NEXT: 4.00 KiB {{.*}}fit.mlir:[[#P]]:8 (linalg.generic, returned)
// The arena (returned buffers apart) peaks earlier, at the recomputed op.
// HEADLINE-NEXT: arena peaks at {{.*}}fit.mlir:[[#A:]]:8 ('linalg.generic'), largest live buffers:
// HEADLINE-NEXT: 4.00 KiB {{.*}}fit.mlir:[[#A]]:8 (linalg.generic)
// The one recomputed op saved all 12288 bytes and added its own time.
// HEADLINE-NEXT: plan (1 decision, largest first):
// HEADLINE-NEXT: recompute 12.00 KiB +4.00e-06 s {{.*}}fit.mlir:{{[0-9]+}}:8 (linalg.generic)
// HEADLINE-NEXT: secondary figures:
// PLAN: fit-plan @chain met yes chosen inplace planned 16384 budget 19660
// PLAN-NEXT: inplace target 11468 planned 16384
// PLAN-NOT: remat target
// The recomputation planners' model makes the in-place writes the driver
// makes afterwards (b into a's buffer, d into c's; not the returned f into
// d's, which inside a body planned as a function would be a yield): its
// peak is 12288 B of transient bytes, not 16384, so 0.8x needs no clone.
// REMAT-PLAN: remat-plan @chain target 15564 within yes peak 12288 -> 12288
// REMAT-PLAN-NEXT: dropped 0 buffers, 0 reads redirected
// SWEEP: sweep @chain
// SWEEP-NEXT: budget 1MiB = 1048576 B: met with none, planned 24576 B
// SWEEP-NEXT: budget 0.8x = 19660 B: met with inplace, planned 16384 B
// SWEEP-NEXT: budget 0.6x = 14745 B: met with remat, planned 12288 B
// SWEEP-NEXT: budget 0.3x = 7372 B: not met, smallest reachable [[SMALLEST:[0-9]+]] B
// SWEEP-NEXT: budget min = [[SMALLEST]] B: met with remat, planned [[SMALLEST]] B
// UNMET: error: memsched-fit: cannot meet the budget of 7.20 KiB (7372 B) for '@chain'; the smallest reachable footprint is 12.00 KiB (12288 B, remat)
// UNMET-NOT: error
// GIVEN-BACK: planned_after_bytes = 12288 : i64
func.func @chain(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e0 = tensor.empty() : tensor<1024xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.sin %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e2 = tensor.empty() : tensor<1024xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : tensor<1024xf32>) outs(%e2 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.cos %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e3 = tensor.empty() : tensor<1024xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%c, %b : tensor<1024xf32>, tensor<1024xf32>) outs(%e3 : tensor<1024xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %r = arith.mulf %in, %in2 : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e4 = tensor.empty() : tensor<1024xf32>
  %f = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%d, %a : tensor<1024xf32>, tensor<1024xf32>) outs(%e4 : tensor<1024xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %r = arith.addf %in, %in2 : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  return %f : tensor<1024xf32>
}
