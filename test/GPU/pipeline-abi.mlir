// RUN: memsched-opt %S/Inputs/matmul-relu.mlir -memsched-exec-harness -memsched-to-gpu-pipeline -mlir-print-op-on-diagnostic=false 2>/dev/null > %t.plain.mlir
// RUN: FileCheck %s --check-prefix=ISA --input-file=%t.plain.mlir
// A program with swaps also registers host memory.
// RUN: memsched-opt %S/Inputs/swapped.mlir -memsched-exec-harness -memsched-to-gpu-pipeline -mlir-print-op-on-diagnostic=false 2>/dev/null > %t.swapped.mlir
// RUN: FileCheck %s --check-prefix=SWAPPED --input-file=%t.swapped.mlir
// Another chip and PTX version.
// RUN: memsched-opt %S/Inputs/matmul-relu.mlir -memsched-to-gpu-pipeline="chip=sm_80 features=+ptx70" -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=SM80
//
// The ABI check: the mgpu* functions the lowered programs declare, with
// their LLVM types, are the ones our runtimes implement (docs/gpu.md), and
// the logging mock exports every one of them (the CUDA runtime is checked
// in runtime-exports.test when it is built).
// RUN: mlir-translate --mlir-to-llvmir %t.plain.mlir > %t.plain.ll
// RUN: mlir-translate --mlir-to-llvmir %t.swapped.mlir > %t.swapped.ll
// RUN: cat %t.plain.ll %t.swapped.ll | grep -o '^declare [^@]*@mgpu[A-Za-z0-9]*([^)]*)' | sort -u > %t.declared
// RUN: FileCheck %s --check-prefix=ABI --input-file=%t.declared
// RUN: sed -e 's/.*@\(mgpu[A-Za-z0-9]*\).*/\1/' %t.declared > %t.symbols
// RUN: llvm-nm -D --defined-only %mock_gpu_runtime | awk '{print $3}' > %t.mock-exports
// RUN: not grep -vxFf %t.mock-exports %t.symbols

// Tests that memsched-to-gpu-pipeline lowers training steps to host LLVM
// code with embedded PTX for the requested chip, one kernel module per
// function, and calls of the mgpu* ABI of LLVM 22.1. The inputs call no
// math functions, so no CUDA toolkit (libdevice) is needed; the examples,
// which do, are lowered in pipeline-examples.mlir.

// ISA: llvm.func @train_step({{.*}}memsched.device = {{{.*}}device_bytes = 21252 : i64
// ISA: gpu.launch_func @train_step_kernels::@train_step_2_fill
// ISA: gpu.binary @train_step_kernels {{.*}}#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// ISA-SAME: .version 8.0
// ISA-SAME: .target sm_90
// ISA-SAME: .entry train_step_2_fill(
// ISA-SAME: .entry train_step_3_matmul(
// ISA-NOT: gpu.binary
// ISA-NOT: linalg.
// ISA-NOT: scf.

// SWAPPED: llvm.mlir.global private @__memsched_host_arena_train_step
// SWAPPED: llvm.func @train_step({{.*}}memsched.device = {{{.*}}device_bytes = 65536 : i64

// SM80: #nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">
// SM80-SAME: .version 7.0
// SM80-SAME: .target sm_80

// ABI: declare ptr @mgpuMemAlloc(i64, ptr, i8)
// ABI-NEXT: declare ptr @mgpuModuleGetFunction(ptr, ptr)
// ABI-NEXT: declare ptr @mgpuModuleLoadJIT(ptr, i32)
// ABI-NEXT: declare ptr @mgpuStreamCreate()
// ABI-NEXT: declare void @mgpuLaunchKernel(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)
// ABI-NEXT: declare void @mgpuMemFree(ptr, ptr)
// ABI-NEXT: declare void @mgpuMemHostRegisterMemRef(i64, ptr, i64)
// ABI-NEXT: declare void @mgpuMemcpy(ptr, ptr, i64, ptr)
// ABI-NEXT: declare void @mgpuModuleUnload(ptr)
// ABI-NEXT: declare void @mgpuStreamDestroy(ptr)
// ABI-NEXT: declare void @mgpuStreamSynchronize(ptr)
// ABI-NOT: declare
