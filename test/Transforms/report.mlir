// RUN: memsched-opt %s -verify-diagnostics -memsched-report -o /dev/null | FileCheck %s --check-prefix=TEXT
// RUN: memsched-opt %s -verify-diagnostics -memsched-report=format=json -o /dev/null | FileCheck %s --check-prefixes=JSON,JSON-H100
// RUN: memsched-opt %s -verify-diagnostics -memsched-report="format=json device=a100-80gb" -o /dev/null | FileCheck %s --check-prefixes=JSON,JSON-A100
// RUN: memsched-opt %s -verify-diagnostics -memsched-report="format=json output=%t.json" | FileCheck %s --check-prefix=IR
// RUN: cat %t.json | FileCheck %s --check-prefixes=JSON,JSON-H100
// RUN: memsched-opt %s -verify-diagnostics -memsched-report="trace=%t.trace" -o /dev/null > /dev/null
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace

// Tests that the report gives the hand-computed figures in text and JSON, to
// standard output or a file, that the Chrome trace has op slices and a memory
// counter, and that the device changes the modelled time.

// @diamond: %x = 1024*4 = 4096 bytes resident; A (exp), B (negf), C (exp):
// 4096 bytes each; the add writes in place into B and is returned.
//   peak transient = A + B + C at the second exp = 12288 (12.00 KiB)
//   peak = 4096 + 12288 = 16384 (16.00 KiB)
//   lower bound = 4096 + max(negf: A + B, exp: A + C, add: B + C = 8192,
//                 returned 4096) = 12288 (12.00 KiB)
//   max live = 12288 (no workspace)
//   planned = resident 4096 + arena 8192 (A and C, live together at the
//             second exp) + escaping 4096 (B, returned) = 16384 (16.00 KiB)
//   floor = resident 4096 + returned 0 + the largest working set, 4096:
//           the add reads B and C together and writes into B already, so it
//           holds two buffers whatever the plan; A may become B's returned
//           buffer (the negf writing into it) and A may take the argument's
//           buffer (the first exp writing into it, donated), so B may be the
//           argument's and C is left = 8192, a bound below what one order
//           reaches (12288: A cannot be both). The add is named.
//   ops = 4 tasks (the linalg ops; the three tensor.empty are free ops)
// Time (roofline max(flops / peak, bytes / bandwidth) + launch; the three
// tensor.empty cost nothing):
//   exp, negf, exp: 1024 flops, 4096 + 4096 = 8192 bytes each;
//   add: 1024 flops, 4096 + 4096 (inputs) + 4096 (init, written only) = 12288.
//   h100 (3.35e12 B/s, 67e12 f32 flop/s, 4e-6 s launch): memory-bound;
//     3 * (8192 / 3.35e12 + 4e-6) + (12288 / 3.35e12 + 4e-6)
//     = 3 * 4.0024454e-6 + 4.0036681e-6 = 1.6011004e-5 s
//   a100-80gb (2.039e12 B/s, 19.5e12 flop/s, 5e-6 s launch):
//     3 * (8192 / 2.039e12 + 5e-6) + (12288 / 2.039e12 + 5e-6)
//     = 3 * 5.0040177e-6 + 5.0060265e-6 = 2.0018079e-5 s

// TEXT-LABEL: memsched report for @diamond
// TEXT-NEXT:    planned (device)       16.00 KiB  (16384 bytes){{$}}
// TEXT-NEXT:    modeled time         1.601e-05 s  (device h100){{$}}
// TEXT-NEXT:    floor                   8.00 KiB  (8192 bytes = resident + returned + 4.00 KiB for 'linalg.add' at {{.*}}report.mlir:[[#D:]]:8){{$}}
// The peak is at the second exp (the line above the add), where A, B
// (returned) and C are live, each named by the op writing it.
// TEXT-NEXT:    peak at               {{.*}}report.mlir:[[#D-1]]:8 ('linalg.exp'), largest live buffers:{{$}}
// TEXT-NEXT:                  4.00 KiB  {{.*}}report.mlir:[[#D-5]]:8 (linalg.exp){{$}}
// TEXT-NEXT:                  4.00 KiB  {{.*}}report.mlir:[[#D-3]]:8 (linalg.negf, returned){{$}}
// TEXT-NEXT:                  4.00 KiB  {{.*}}report.mlir:[[#D-1]]:8 (linalg.exp){{$}}
// TEXT-NEXT:    secondary figures:{{$}}
// TEXT-NEXT:    ops                            4{{$}}
// TEXT-NEXT:    resident                4.00 KiB  (4096 bytes){{$}}
// TEXT-NEXT:    peak transient         12.00 KiB  (12288 bytes){{$}}
// TEXT-NEXT:    peak                   16.00 KiB  (16384 bytes){{$}}
// TEXT-NEXT:    lower bound            12.00 KiB  (12288 bytes){{$}}
// TEXT-NEXT:    max live               12.00 KiB  (12288 bytes){{$}}
// TEXT-NEXT:    arena (predicted)       8.00 KiB  (8192 bytes){{$}}
// TEXT-NEXT:    arena max live          8.00 KiB  (8192 bytes){{$}}
// TEXT-NEXT:    escaping buffers        4.00 KiB  (4096 bytes){{$}}

// Arena: B escapes (returned, 4096 bytes); A and C are live together at
// the second exp, so the predicted arena is 8192 = their max live.
// JSON:           "functions": [
// JSON-NEXT:        {
// JSON-NEXT:          "arena_bytes": 8192,
// JSON-NEXT:          "arena_max_live_bytes": 8192,
// The arena peaks at the second exp (A and C; B is returned, so apart).
// JSON-NEXT:          "arena_peak_buffers": [
// JSON:                 "bytes": 4096,
// JSON:                 "bytes": 4096,
// JSON-NOT:             "bytes"
// JSON:               ],
// JSON-NEXT:          "arena_peak_location": "{{.*}}report.mlir:{{[0-9]+}}:8",
// JSON-NEXT:          "arena_peak_op": "linalg.exp",
// JSON-H100-NEXT:     "device": "h100",
// JSON-A100-NEXT:     "device": "a100-80gb",
// JSON-NEXT:          "escaping_bytes": 4096,
// JSON-NEXT:          "estimated_ops": 0,
// JSON-NEXT:          "floor_bytes": 8192,
// JSON-NEXT:          "floor_location": "{{.*}}report.mlir:{{[0-9]+}}:8",
// JSON-NEXT:          "floor_op": "linalg.add",
// JSON-NEXT:          "floor_working_set_bytes": 4096,
// JSON-NEXT:          "fragmentation": 1,
// JSON-NEXT:          "lower_bound_bytes": 12288,
// JSON-NEXT:          "max_live_bytes": 12288,
// JSON-NEXT:          "measured_ops": 0,
// JSON-H100-NEXT:     "modeled_time_s": 1.6011004{{[0-9]*}}e-05,
// JSON-A100-NEXT:     "modeled_time_s": 2.0018079{{[0-9]*}}e-05,
// JSON-NEXT:          "name": "diamond",
// JSON-NEXT:          "ops": 4,
// JSON-NEXT:          "peak_buffers": [
// JSON-NEXT:            {
// JSON-NEXT:              "bytes": 4096,
// JSON-NEXT:              "escapes": false,
// JSON-NEXT:              "location": "{{.*}}report.mlir:{{[0-9]+}}:8",
// JSON-NEXT:              "op": "linalg.exp",
// JSON-NEXT:              "recomputed": false
// JSON-NEXT:            },
// JSON-NEXT:            {
// JSON-NEXT:              "bytes": 4096,
// JSON-NEXT:              "escapes": true,
// JSON-NEXT:              "location": "{{.*}}report.mlir:{{[0-9]+}}:8",
// JSON-NEXT:              "op": "linalg.negf",
// JSON-NEXT:              "recomputed": false
// JSON-NEXT:            },
// JSON-NEXT:            {
// JSON-NEXT:              "bytes": 4096,
// JSON-NEXT:              "escapes": false,
// JSON-NEXT:              "location": "{{.*}}report.mlir:{{[0-9]+}}:8",
// JSON-NEXT:              "op": "linalg.exp",
// JSON-NEXT:              "recomputed": false
// JSON-NEXT:            }
// JSON-NEXT:          ],
// JSON-NEXT:          "peak_bytes": 16384,
// JSON-NEXT:          "peak_location": "{{.*}}report.mlir:{{[0-9]+}}:8",
// JSON-NEXT:          "peak_op": "linalg.exp",
// JSON-NEXT:          "peak_transient_bytes": 12288,
// JSON-NEXT:          "planned_bytes": 16384,
// JSON-NEXT:          "recompute_floor_bytes": 8192,
// JSON-NEXT:          "recompute_floor_location": "{{.*}}report.mlir:{{[0-9]+}}:8",
// JSON-NEXT:          "recompute_floor_op": "linalg.add",
// JSON-NEXT:          "recompute_floor_working_set_bytes": 4096,
// JSON-NEXT:          "resident_bytes": 4096,
// JSON-NEXT:          "swap_bytes": 0,
// JSON-NEXT:          "swap_exposed_time_s": 0,
// JSON-NEXT:          "swap_hidden_fraction": 1,
// JSON-NEXT:          "swap_ops": 0,
// JSON-NEXT:          "swap_transfer_time_s": 0
// JSON-NEXT:        },

// IR: func.func @diamond
// IR: func.func @large
// IR: func.func @dynamic
// IR-NOT: memsched report
// IR-NOT: "functions"

// TRACE:      "displayTimeUnit": "ms",
// TRACE-NEXT: "traceEvents": [
// TRACE:        "name": "@diamond"
// TRACE-NEXT:   },
// TRACE-NEXT:   "name": "process_name",
// TRACE-NEXT:   "ph": "M",
// TRACE-NEXT:   "pid": 1
// One "X" slice per task on the compute track (tid 0), named by the op's
// location (the op in its arguments), each followed by a "C" counter sample
// of resident + live transient bytes at the task's start; the empties are
// free ops, with no slice.
// TRACE-NOT:    "name": "tensor.empty"
// TRACE:        "op": "linalg.exp",
// TRACE-NEXT:   "step": 0
// The exp takes 8192 / 3.35e12 s + 4 us = 4.0024454 us.
// TRACE-NEXT:   },
// TRACE-NEXT:   "dur": 4.0024453{{[0-9]*}},
// TRACE-NEXT:   "name": "{{.*}}report.mlir:{{[0-9]+}}:8",
// TRACE-NEXT:   "ph": "X",
// TRACE-NEXT:   "pid": 1,
// TRACE-NEXT:   "tid": 0,
// TRACE-NEXT:   "ts": 0
// Step 0: 4096 resident + A (4096) = 8192.
// TRACE:        "live_bytes": 8192
// TRACE-NEXT:   },
// TRACE-NEXT:   "name": "device memory",
// TRACE-NEXT:   "ph": "C",
// TRACE:        "op": "linalg.negf",
// TRACE-NEXT:   "step": 1
// TRACE-NEXT:   },
// TRACE-NEXT:   "dur": 4.0024453{{[0-9]*}},
// TRACE-NEXT:   "name": "{{.*}}report.mlir:{{[0-9]+}}:8",
// TRACE-NEXT:   "ph": "X",
// Step 1: 4096 + A + B = 12288.
// TRACE:        "live_bytes": 12288
// Step 2 (second exp) starts after two 4.0024454 us ops: 8.0048907 us;
// 4096 + A + B + C = 16384, the peak.
// TRACE:        "op": "linalg.exp",
// TRACE-NEXT:   "step": 2
// TRACE-NEXT:   },
// TRACE-NEXT:   "dur": 4.0024453{{[0-9]*}},
// TRACE-NEXT:   "name": "{{.*}}report.mlir:{{[0-9]+}}:8",
// TRACE-NEXT:   "ph": "X",
// TRACE-NEXT:   "pid": 1,
// TRACE-NEXT:   "tid": 0,
// TRACE-NEXT:   "ts": 8.0048907{{[0-9]*}}
// TRACE:        "live_bytes": 16384
// Step 3 (add): B + C = 8192 transient + 4096 = 12288.
// TRACE:        "step": 3
// TRACE:        "live_bytes": 12288
// The second function is the second process.
// TRACE:        "name": "@large"
// TRACE-NEXT:   },
// TRACE-NEXT:   "name": "process_name",
// TRACE-NEXT:   "ph": "M",
// TRACE-NEXT:   "pid": 2
// The skipped function gets a process with its name but no slices.
// TRACE:        "name": "@dynamic"
// TRACE-NEXT:   },
// TRACE-NEXT:   "name": "process_name",
// TRACE-NEXT:   "ph": "M",
// TRACE-NEXT:   "pid": 3
// TRACE:        "name": "thread_name",
// TRACE-NEXT:   "ph": "M",
// TRACE-NEXT:   "pid": 3,
// TRACE-NEXT:   "tid": 0
// TRACE-NEXT:   }
// TRACE-NEXT: ]
func.func @diamond(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e0 = tensor.empty() : tensor<1024xf32>
  %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.negf ins(%a : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  %e2 = tensor.empty() : tensor<1024xf32>
  %c = linalg.exp ins(%a : tensor<1024xf32>) outs(%e2 : tensor<1024xf32>) -> tensor<1024xf32>
  %d = linalg.add ins(%b, %c : tensor<1024xf32>, tensor<1024xf32>)
                  outs(%b : tensor<1024xf32>) -> tensor<1024xf32>
  return %d : tensor<1024xf32>
}

// @large: 512*768*4 = 1572864 bytes = 1.50 MiB resident and 1.50 MiB for the
// exp result; peak = lower bound = 3145728 = 3.00 MiB; planned = resident +
// the returned result (escaping, no arena) = 3.00 MiB; one task. The floor
// is the resident 1.50 MiB: the exp may write into its (donated) argument.
// Time: 393216 flops, 2 * 1572864 = 3145728 bytes.
//   h100: 3145728 / 3.35e12 + 4e-6 = 9.390233e-7 + 4e-6 = 4.939023e-6 s
//   a100-80gb: 3145728 / 2.039e12 + 5e-6 = 1.542780e-6 + 5e-6 = 6.542780e-6 s

// TEXT-LABEL: memsched report for @large
// TEXT-NEXT:    planned (device)        3.00 MiB  (3145728 bytes){{$}}
// TEXT-NEXT:    modeled time         4.939e-06 s  (device h100){{$}}
// TEXT-NEXT:    floor                   1.50 MiB  (1572864 bytes = resident + returned + 0 B for 'linalg.exp' at {{.*}}report.mlir:[[#B:]]:8){{$}}
// TEXT-NEXT:    peak at               {{.*}}report.mlir:[[#B]]:8 ('linalg.exp'), largest live buffers:{{$}}
// TEXT-NEXT:                  1.50 MiB  {{.*}}report.mlir:[[#B]]:8 (linalg.exp, returned){{$}}
// TEXT-NEXT:    secondary figures:{{$}}
// TEXT-NEXT:    ops                            1{{$}}
// TEXT-NEXT:    resident                1.50 MiB  (1572864 bytes){{$}}
// TEXT-NEXT:    peak transient          1.50 MiB  (1572864 bytes){{$}}
// TEXT-NEXT:    peak                    3.00 MiB  (3145728 bytes){{$}}
// TEXT-NEXT:    lower bound             3.00 MiB  (3145728 bytes){{$}}
// TEXT-NEXT:    max live                1.50 MiB  (1572864 bytes){{$}}
// TEXT-NEXT:    arena (predicted)            0 B  (0 bytes){{$}}
// TEXT-NEXT:    arena max live               0 B  (0 bytes){{$}}
// TEXT-NEXT:    escaping buffers        1.50 MiB  (1572864 bytes){{$}}

// JSON-NEXT:        {
// JSON-NEXT:          "arena_bytes": 0,
// JSON-NEXT:          "arena_max_live_bytes": 0,
// Nothing in the arena: no step at which it peaks.
// JSON-NEXT:          "arena_peak_buffers": [],
// JSON-NEXT:          "arena_peak_location": "",
// JSON-NEXT:          "arena_peak_op": "",
// JSON-H100-NEXT:     "device": "h100",
// JSON-A100-NEXT:     "device": "a100-80gb",
// JSON-NEXT:          "escaping_bytes": 1572864,
// JSON-NEXT:          "estimated_ops": 0,
// JSON-NEXT:          "floor_bytes": 1572864,
// JSON-NEXT:          "floor_location": "{{.*}}report.mlir:{{[0-9]+}}:8",
// JSON-NEXT:          "floor_op": "linalg.exp",
// JSON-NEXT:          "floor_working_set_bytes": 0,
// JSON-NEXT:          "fragmentation": 1,
// JSON-NEXT:          "lower_bound_bytes": 3145728,
// JSON-NEXT:          "max_live_bytes": 1572864,
// JSON-NEXT:          "measured_ops": 0,
// JSON-H100-NEXT:     "modeled_time_s": 4.939023{{[0-9]*}}e-06,
// JSON-A100-NEXT:     "modeled_time_s": 6.542779{{[0-9]*}}e-06,
// JSON-NEXT:          "name": "large",
// JSON-NEXT:          "ops": 1,
// JSON-NEXT:          "peak_buffers": [
// JSON-NEXT:            {
// JSON-NEXT:              "bytes": 1572864,
// JSON-NEXT:              "escapes": true,
// JSON-NEXT:              "location": "{{.*}}report.mlir:{{[0-9]+}}:8",
// JSON-NEXT:              "op": "linalg.exp",
// JSON-NEXT:              "recomputed": false
// JSON-NEXT:            }
// JSON-NEXT:          ],
// JSON-NEXT:          "peak_bytes": 3145728,
// JSON-NEXT:          "peak_location": "{{.*}}report.mlir:{{[0-9]+}}:8",
// JSON-NEXT:          "peak_op": "linalg.exp",
// JSON-NEXT:          "peak_transient_bytes": 1572864,
// JSON-NEXT:          "planned_bytes": 3145728,
// JSON-NEXT:          "recompute_floor_bytes": 1572864,
// JSON-NEXT:          "recompute_floor_location": "{{.*}}report.mlir:{{[0-9]+}}:8",
// JSON-NEXT:          "recompute_floor_op": "linalg.exp",
// JSON-NEXT:          "recompute_floor_working_set_bytes": 0,
// JSON-NEXT:          "resident_bytes": 1572864,
// JSON-NEXT:          "swap_bytes": 0,
// JSON:               "swap_transfer_time_s": 0
// JSON-NEXT:        },
func.func @large(%x: tensor<512x768xf32>) -> tensor<512x768xf32> {
  %e = tensor.empty() : tensor<512x768xf32>
  %a = linalg.exp ins(%x : tensor<512x768xf32>) outs(%e : tensor<512x768xf32>) -> tensor<512x768xf32>
  return %a : tensor<512x768xf32>
}

// A function outside the model is listed as skipped, with its reason.

// TEXT-LABEL: memsched report for @dynamic
// TEXT-NEXT:    skipped: dynamic or unsized argument type{{$}}
// TEXT-NOT:   memsched report

// JSON-NEXT:        {
// JSON-NEXT:          "name": "dynamic",
// JSON-NEXT:          "skipped": "dynamic or unsized argument type"
// JSON-NEXT:        }
// JSON-NEXT:      ]

// expected-remark @below {{memsched-report leaves '@dynamic' unchanged: argument type 'tensor<?xf32>' has no static size}}
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// External functions are not reported.
// TEXT-NOT: @external
func.func private @external(tensor<4xf32>) -> tensor<4xf32>
