// REQUIRES: libdevice
// RUN: memsched-opt %examples/mlp_train_step.mlir -memsched-exec-harness -memsched-to-gpu-pipeline -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=MLP
// RUN: memsched-opt %examples/chain_mlp_train_step.mlir -memsched-exec-harness -memsched-to-gpu-pipeline=budget=0.8x -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=SWAPPED
// RUN: memsched-opt %examples/cnn_train_step.mlir -memsched-exec-harness -memsched-to-gpu-pipeline=budget=0.9x -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=CNN
// Without a toolkit directory (Debian's MLIR has no default one), math
// functions cannot be linked, and an error says so.
// RUN: env -u CUDA_ROOT -u CUDA_HOME -u CUDA_PATH not memsched-opt %examples/mlp_train_step.mlir -memsched-to-gpu-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTOOLKIT

// Tests that the examples, whose losses call exp and log, lower to PTX for
// sm_90 with libdevice linked (no __nv_ function is left undefined), with
// and without budgets.

// MLP: llvm.func @train_step({{.*}}memsched.device = {{{.*}}device_bytes = 70764 : i64
// MLP: gpu.binary @train_step_kernels {{.*}}.target sm_90
// MLP-NOT: .extern .func {{.*}}__nv_
// SWAPPED: llvm.mlir.global private @__memsched_host_arena_train_step
// Budgets are fractions of the planned bytes (resident + arena + returned
// buffers): chain MLP 0.8x of 162132 = 129705 B, met by swapping; on the
// device the returned buffers share the arena, so the device holds less than
// the planned bytes: 100396 B. CNN 0.9x of 34740 = 31266 B (0.8x is below its
// smallest reachable footprint, 28340 B), met by recomputing; the device holds
// 28340 B, the planned bytes (its returned buffers above the arena, where
// packed among the others their alignment padding would take 792 B more).
// SWAPPED: llvm.func @train_step({{.*}}memsched.device = {{{.*}}device_bytes = 100396 : i64
// SWAPPED-SAME: memsched.fit = {{{.*}}chosen = "swap"
// CNN: llvm.func @train_step({{.*}}memsched.device = {{{.*}}device_bytes = 28340 : i64
// CNN: gpu.binary @train_step_kernels
// NOTOOLKIT: error: memsched-to-gpu-pipeline: math functions on the GPU need libdevice from the CUDA toolkit, and no toolkit directory is set
