// REQUIRES: ptxas, fatbinary
// RUN: memsched-opt %examples/cnn_train_step.mlir -memsched-exec-harness -memsched-to-gpu-pipeline=format=bin -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=BIN
// RUN: memsched-opt %examples/cnn_train_step.mlir -memsched-exec-harness -memsched-to-gpu-pipeline="format=bin budget=0.9x" -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=BIN
// RUN: memsched-opt %examples/mlp_train_step.mlir -memsched-to-gpu-pipeline=format=fatbin -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=FATBIN
// RUN: memsched-opt %examples/mlp_train_step.mlir -memsched-to-gpu-pipeline="format=bin chip=sm_80 features=+ptx70" -mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=BIN

// Tests, where the CUDA toolkit is installed, that ptxas accepts the PTX
// memsched-to-gpu-pipeline generates (kernels of the examples, including
// register-tiled matmuls and convolutions, for sm_90 and sm_80): the
// embedded object is an ELF cubin, or a fat binary.

// BIN: llvm.func @train_step(
// BIN: gpu.binary @train_step_kernels {{.*}}bin = "\7FELF
// FATBIN: gpu.binary @train_step_kernels {{.*}}"P\EDU\BA
