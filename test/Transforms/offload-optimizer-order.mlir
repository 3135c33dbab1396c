// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-offload=offload=optimizer 2>/dev/null | FileCheck %s
// RUN: memsched-opt %s -mlir-print-op-on-diagnostic=false -memsched-offload=offload=params 2>/dev/null | FileCheck %s --check-prefix=PARAMS
// RUN: memsched-opt %s -memsched-exec-harness=func=step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.original
// RUN: memsched-opt %s -memsched-offload=offload=params,grads,optimizer -memsched-exec-harness=func=step -memsched-to-cpu-pipeline 2>/dev/null | %run_harness > %t.offloaded
// RUN: diff %t.original %t.offloaded

// Tests that memsched-offload moves the optimizer's update of each
// parameter (SGD with momentum here: the buffer b' = b + g, then
// w' = w - b') to right after its gradient, as one group, before planning
// the copies: the exporter updates every parameter after the backward pass
// (torch.optim's order), where no compute hides the state's copies. The
// gradient of w2 is made first, so its update comes first; constants and
// empties sit right before their first user. Results are unchanged on CPU.

// CHECK-LABEL: func.func @step
// CHECK:         %[[G2:.+]] = linalg.add ins(%[[H:.+]], %[[H]] :
// CHECK:         %[[B2:.+]] = linalg.add ins(%{{.+}}, %[[G2]] :
// CHECK:         linalg.sub ins(%arg1, %[[B2]] :
// CHECK:         %[[G1:.+]] = linalg.mul ins(%arg1, %arg4 :
// CHECK:         %[[B1:.+]] = linalg.add ins(%{{.+}}, %[[G1]] :
// CHECK:         linalg.sub ins(%{{.+}}, %[[B1]] :
// CHECK:         return
// Offloading only the parameters moves the updates too (the step has
// optimizer state).
// PARAMS-LABEL: func.func @step
// PARAMS:         %[[G2:.+]] = linalg.add
// PARAMS:         linalg.add ins(%arg3, %[[G2]] :
// PARAMS:         linalg.mul
func.func @step(%w1: tensor<64xf32>, %w2: tensor<64xf32>, %b1: tensor<64xf32>, %b2: tensor<64xf32>, %x: tensor<64xf32>)
    -> (tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
    attributes {memsched.training_step = {parameters = 2 : i64, optimizer_state = 2 : i64}} {
  %e0 = tensor.empty() : tensor<64xf32>
  %h = linalg.mul ins(%w1, %x : tensor<64xf32>, tensor<64xf32>) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %y = linalg.mul ins(%w2, %h : tensor<64xf32>, tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce ins(%y : tensor<64xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e3 = tensor.empty() : tensor<64xf32>
  %g2 = linalg.add ins(%h, %h : tensor<64xf32>, tensor<64xf32>) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
  %e4 = tensor.empty() : tensor<64xf32>
  %g1 = linalg.mul ins(%w2, %x : tensor<64xf32>, tensor<64xf32>) outs(%e4 : tensor<64xf32>) -> tensor<64xf32>
  %e5 = tensor.empty() : tensor<64xf32>
  %nb1 = linalg.add ins(%b1, %g1 : tensor<64xf32>, tensor<64xf32>) outs(%e5 : tensor<64xf32>) -> tensor<64xf32>
  %e6 = tensor.empty() : tensor<64xf32>
  %nb2 = linalg.add ins(%b2, %g2 : tensor<64xf32>, tensor<64xf32>) outs(%e6 : tensor<64xf32>) -> tensor<64xf32>
  %e7 = tensor.empty() : tensor<64xf32>
  %nw1 = linalg.sub ins(%w1, %nb1 : tensor<64xf32>, tensor<64xf32>) outs(%e7 : tensor<64xf32>) -> tensor<64xf32>
  %e8 = tensor.empty() : tensor<64xf32>
  %nw2 = linalg.sub ins(%w2, %nb2 : tensor<64xf32>, tensor<64xf32>) outs(%e8 : tensor<64xf32>) -> tensor<64xf32>
  return %loss, %nw1, %nw2, %nb1, %nb2 : tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}
