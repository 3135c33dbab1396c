// RUN: memsched-opt %examples/mlp_train_step.mlir -memsched-import-profile="profile=%S/Inputs/mlp-profile.json calls=2" -mlir-print-op-on-diagnostic=false 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// The measured costs replace the model's estimates in the report.
// RUN: memsched-opt %examples/mlp_train_step.mlir -memsched-import-profile="profile=%S/Inputs/mlp-profile.json calls=2" -memsched-report=format=json -o /dev/null -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: not memsched-opt %examples/mlp_train_step.mlir -memsched-import-profile=profile=%t.missing.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not memsched-opt %examples/mlp_train_step.mlir -memsched-import-profile=profile=%s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTJSON
// RUN: not memsched-opt %examples/mlp_train_step.mlir -memsched-import-profile=profile=%S/Inputs/profile-no-total.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIELDS
// RUN: not memsched-opt %examples/mlp_train_step.mlir -memsched-import-profile -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPROFILE
// RUN: not memsched-opt %examples/mlp_train_step.mlir -memsched-import-profile="profile=%S/Inputs/mlp-profile.json calls=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CALLS

// Tests that per-kernel times measured by the runtime (MEMSCHED_PROFILE)
// come back as memsched.cost on the ops the kernels were made from: the
// kernel names are memsched-tag-kernels' names of the program as given;
// totals are divided by the calls of the profiled run.

// CHECK: linalg.fill {memsched.cost = 5.000000e-06 : f64, memsched.kernel = "train_step_5_fill"}
// CHECK: linalg.matmul {memsched.cost = 1.000000e-04 : f64, memsched.kernel = "train_step_6_matmul"}
// CHECK: linalg.matmul {memsched.cost = 5.000000e-05 : f64, memsched.kernel = "train_step_13_matmul"}
// CHECK-NOT: memsched.cost
// REMARK: remark: memsched-import-profile: measured costs for 3 of {{[0-9]+}} ops (4 kernels in the profile)
// REPORT: "measured_ops": 3,

// MISSING: error: memsched-import-profile: cannot read '{{.*}}missing.json': No such file or directory
// NOTJSON: error: memsched-import-profile: '{{.*}}import-profile.mlir' is not JSON
// FIELDS: error: memsched-import-profile: '{{.*}}profile-no-total.json': every kernel needs a "name" and a non-negative "total_s"
// NOPROFILE: error: memsched-import-profile: profile= is required
// CALLS: error: memsched-import-profile: calls must be positive
