// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-offload=offload=optimizer

// Tests memsched-offload's refusals of offload=optimizer: a function
// without optimizer state, and a memsched.training_step that does not
// match the signature.

// expected-error @below {{memsched-offload: '@no_optimizer_state' has no optimizer state (export the step with memsched.torch's optimizer=)}}
func.func @no_optimizer_state(%w: tensor<8xf32>, %x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {memsched.training_step = {parameters = 1 : i64, optimizer_state = 0 : i64}} {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.mul ins(%w, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %y, %y : tensor<8xf32>, tensor<8xf32>
}

// -----

// expected-error @below {{memsched-offload: '@wrong_counts' says it has 1 parameters and 1 optimizer state tensors, but 1 leading arguments are updated by its results}}
func.func @wrong_counts(%w: tensor<8xf32>, %x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {memsched.training_step = {parameters = 1 : i64, optimizer_state = 1 : i64}} {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.mul ins(%w, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %y, %y : tensor<8xf32>, tensor<8xf32>
}

