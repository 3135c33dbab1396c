// RUN: split-file %s %t
// RUN: memsched-opt %t/step.mlir -mlir-print-op-on-diagnostic=false -memsched-offload=offload=params,grads,inputs -cse -canonicalize 2>%t.remark | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remark
// RUN: memsched-opt %s -split-input-file -mlir-print-op-on-diagnostic=false -memsched-offload=offload=inputs -cse -canonicalize 2>/dev/null | FileCheck %s --check-prefix=ALONE
// RUN: memsched-opt %t/step.mlir -memsched-offload=offload=params -memsched-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=PARAMS
// RUN: memsched-opt %t/step.mlir -memsched-offload=offload=params,inputs -memsched-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=WITHINPUTS
// With the state selected too, memsched-optimize also plans the state
// offloaded alone and keeps the better: at 0.8x both meet, and without the
// batch's copy the step is faster; at min the batch off the device wins.
// RUN: memsched-opt %t/step.mlir -mlir-print-op-on-diagnostic=false "-memsched-optimize=budget=0.8x offload=params,grads,inputs" 2>/dev/null | FileCheck %s --check-prefix=STATEALONE
// RUN: memsched-opt %t/step.mlir -mlir-print-op-on-diagnostic=false "-memsched-optimize=budget=min offload=params,grads,inputs" 2>/dev/null | FileCheck %s --check-prefix=WITHBATCH
// RUN: memsched-opt %t/call.mlir -mlir-print-op-on-diagnostic=false "-memsched-optimize=budget=min offload=inputs" 2>/dev/null | FileCheck %s --check-prefix=CALL
// The same results on the CPU with the inputs in host memory, through the
// budget driver too.
// RUN: memsched-opt %t/step.mlir -memsched-exec-harness=func=step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.before
// RUN: memsched-opt %t/step.mlir -memsched-offload=offload=params,grads,inputs -memsched-exec-harness=func=step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.after
// RUN: diff %t.before %t.after
// RUN: memsched-opt %t/step.mlir "-memsched-optimize=budget=min offload=params,grads,inputs" -cse -canonicalize -memsched-exec-harness=func=step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.min
// RUN: diff %t.before %t.min
// On the emulated device, the batch is registered with the runtime like the
// parameters (three host arguments).
// RUN: memsched-opt %t/step.mlir -memsched-exec-harness=func=step '-memsched-to-gpu-pipeline=emulate-kernels offload=params,inputs' 2>/dev/null | %run_gpu_harness%mock_gpu_runtime > %t.emulated
// RUN: grep -v '^mgpu' %t.emulated | diff %t.before -
// RUN: FileCheck %s --check-prefix=GPU-RUN --input-file=%t.emulated
// RUN: memsched-opt %t/step.mlir -mlir-print-op-on-diagnostic=false "-memsched-optimize=budget=min offload=params,grads,inputs" -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=MIN
// RUN: memsched-opt %t/step.mlir -mlir-print-op-on-diagnostic=false "-memsched-optimize=budget=min offload=params,grads" -cse -canonicalize -memsched-report=format=json -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=MINSTATE

// Tests memsched-offload's `inputs`: the arguments after the ones the step
// updates (its batch) stay in host memory like parameters, read through one
// swap-in per group of readers (here two: the forward's and the weight
// gradient's); only statically shaped tensors move (the scalar %scale, the
// dynamically shaped %b stay); with `inputs` alone a function needs no
// parameters told apart; a private function keeps its calling convention (its
// callers in the module pass device values). The report no longer counts the
// batch as resident (PARAMS against WITHINPUTS). Results are bit-identical on
// the CPU, and at `min` the input's 256 KiB come off the smallest footprint
// with the state offloaded (MIN against MINSTATE).

// CHECK-LABEL: func.func @step
// CHECK-SAME: %[[W1:[a-z0-9]+]]: tensor<256x256xf32> {memsched.host_memory}
// CHECK-SAME: %[[W2:[a-z0-9]+]]: tensor<256x256xf32> {memsched.host_memory}
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<256x256xf32> {memsched.host_memory}
// CHECK-SAME: %[[S:[a-z0-9]+]]: f32)
// CHECK-DAG: %[[HX:.*]] = memsched.host_argument %[[X]]
// CHECK-DAG: %[[XIN:.*]] = memsched.swap_in %[[HX]]
// CHECK: linalg.matmul ins(%[[XIN]],
// CHECK: %[[XIN2:.*]] = memsched.swap_in %[[HX]]
// CHECK: linalg.transpose ins(%[[XIN2]]
// CHECK: return

// REMARK: remark: memsched-offload: 3 arguments in host memory, 2 results copied out; 1.25 MiB no longer resident on the device

// ALONE-LABEL: func.func @step
// ALONE-SAME: %{{[a-z0-9]+}}: tensor<256x256xf32>,
// ALONE-SAME: %{{[a-z0-9]+}}: tensor<256x256xf32>,
// ALONE-SAME: %{{[a-z0-9]+}}: tensor<256x256xf32> {memsched.host_memory}
// ALONE-SAME: -> (tensor<f32>, tensor<256x256xf32>, tensor<256x256xf32>)
// ALONE-LABEL: func.func @inference
// ALONE-SAME: %{{[a-z0-9]+}}: tensor<32x32xf32> {memsched.host_memory}
// ALONE-SAME: %{{[a-z0-9]+}}: tensor<?xf32>)
// ALONE: memsched.swap_in
// ALONE-LABEL: func.func private @helper
// ALONE-SAME: (%{{[a-z0-9]+}}: tensor<64x64xf32>) -> tensor<64x64xf32>
// ALONE-NOT: memsched.swap_in
// ALONE-LABEL: func.func @caller
// ALONE-SAME: tensor<64x64xf32> {memsched.host_memory}

// STATEALONE: memsched.offload = {arguments = 2 : i64, grads = true, inputs = false,
// WITHBATCH: memsched.offload = {arguments = 3 : i64, grads = true, inputs = true,

// CALL-LABEL: func.func private @helper
// CALL-SAME: (%{{[a-z0-9]+}}: tensor<64x64xf32>) -> tensor<64x64xf32>
// CALL-NOT: memsched.swap_in
// CALL-LABEL: func.func @caller
// CALL-SAME: tensor<64x64xf32> {memsched.host_memory}

// GPU-RUN-COUNT-3: mgpu host_register bytes=262144
// GPU-RUN-NOT: mgpu host_register

// PARAMS: resident {{ *}}256.00 KiB
// WITHINPUTS: resident {{ *}}0 B

// MIN: "offload": true
// MIN: "planned_bytes": 1310724,
// MIN: "resident_bytes": 0,
// MINSTATE: "offload": true
// MINSTATE: "planned_bytes": 1572868,
// MINSTATE: "resident_bytes": 262144,

//--- step.mlir
#id = affine_map<(d0, d1) -> (d0, d1)>
#sum = affine_map<(d0, d1) -> ()>
func.func @step(%w1: tensor<256x256xf32>, %w2: tensor<256x256xf32>, %x: tensor<256x256xf32>, %scale: f32) -> (tensor<f32>, tensor<256x256xf32>, tensor<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  %y = linalg.matmul ins(%h, %w2 : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#id, #sum], iterator_types = ["reduction", "reduction"]} ins(%y : tensor<256x256xf32>) outs(%z0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %dy = linalg.fill ins(%scale : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %ht = linalg.transpose ins(%h : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) permutation = [1, 0]
  %dw2 = linalg.matmul ins(%ht, %dy : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) permutation = [1, 0]
  %dh = linalg.matmul ins(%dy, %w2t : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  %xt = linalg.transpose ins(%x : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) permutation = [1, 0]
  %dw1 = linalg.matmul ins(%xt, %dh : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %loss, %dw1, %dw2 : tensor<f32>, tensor<256x256xf32>, tensor<256x256xf32>
}

// -----

//--- inference.mlir
// Not a training step: nothing to tell apart, and the dynamically shaped
// argument stays.
func.func @inference(%x: tensor<32x32xf32>, %b: tensor<?xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = linalg.matmul ins(%x, %x : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %y : tensor<32x32xf32>
}

// -----

//--- call.mlir
// A private function is called within the module with device values: its
// calling convention stays, through the budget driver too.
func.func private @helper(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.mul ins(%x, %x : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
func.func @caller(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %b = linalg.add ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = func.call @helper(%b) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = linalg.add ins(%c, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
