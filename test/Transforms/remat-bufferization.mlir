// RUN: memsched-opt %examples/cnn_train_step.mlir -memsched-remat=budget=0.95x | memsched-opt -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s

// Tests that a recomputation writes into an allocation of its own: one-shot
// bufferization of the recomputed CNN step allocates exactly what the model
// predicts (the check pass fails otherwise). Sharing the original's
// tensor.empty let bufferization give both writers one buffer living across
// the gap the plan freed.

// CHECK: bufferization-model @train_step predicted [[BYTES:[0-9]+]] bufferized [[BYTES]]
