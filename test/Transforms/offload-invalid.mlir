// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-offload=offload=params,grads
// RUN: not memsched-opt %s -split-input-file -mlir-print-op-on-diagnostic=false -memsched-offload=offload=params,momentum -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// Through the budget driver, each refusal is reported as well (it was held
// back and lost: the pass failed without a word).
// RUN: not memsched-opt %s -split-input-file -mlir-print-op-on-diagnostic=false "-memsched-optimize=budget=min offload=params,grads" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIT

// Tests memsched-offload's refusals (each decided before any rewrite): no
// parameters to tell apart, a parameter the function may write through
// memory (the caller would see it, the host copy would not), a parameter
// returned, a gradient that is an argument, a function offloaded already; and an unknown entry
// (offload-optimizer-invalid.mlir: the optimizer's; a parameter written in
// place moves, offload-written.mlir).

// expected-error @below {{memsched-offload: cannot tell the parameters of '@no_gradients'}}
func.func @no_gradients(%w: tensor<8xf32>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.mul ins(%w, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func @exposed(%w: tensor<8xf32>, %x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // expected-error @below {{memsched-offload: parameter #0 of '@exposed' is exposed as writable memory by 'bufferization.to_buffer'; an offloaded parameter's host copy would miss what the function writes there}}
  %m = bufferization.to_buffer %w : tensor<8xf32> to memref<8xf32>
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %m[%c0] : memref<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.mul ins(%w, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %y, %y : tensor<8xf32>, tensor<8xf32>
}

// -----

// expected-error @below {{memsched-offload: parameter #0 of '@returned' is returned; an offloaded parameter stays in host memory}}
func.func @returned(%w: tensor<8xf32>, %x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.mul ins(%w, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %w, %y : tensor<8xf32>, tensor<8xf32>
}

// -----

// expected-error @below {{memsched-offload: gradient #0 of '@argument_gradient' is an argument, not a value the function makes}}
func.func @argument_gradient(%w: tensor<8xf32>, %x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.mul ins(%w, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %y, %x : tensor<8xf32>, tensor<8xf32>
}

// -----

// expected-error @below {{memsched-offload: '@twice' is offloaded already (argument #0 or result #1 is in host memory)}}
func.func @twice(%w: tensor<8xf32> {memsched.host_memory}, %x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %h = memsched.host_argument %w : tensor<8xf32> -> !memsched.host<tensor<8xf32>>
  %w0 = memsched.swap_in %h : !memsched.host<tensor<8xf32>> -> tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.mul ins(%w0, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %y, %y : tensor<8xf32>, tensor<8xf32>
}

// UNKNOWN: unknown offload entry 'momentum'; expected a comma-separated subset of params, grads, optimizer, inputs

// FIT: error: memsched-offload: cannot tell the parameters of '@no_gradients'
// FIT: error: memsched-offload: parameter #0 of '@exposed' is exposed as writable memory
// FIT: error: memsched-offload: parameter #0 of '@returned' is returned
// FIT: error: memsched-offload: gradient #0 of '@argument_gradient' is an argument
// FIT: error: memsched-offload: '@twice' is offloaded already
