// RUN: memsched-opt %s -split-input-file -verify-diagnostics

// Tests that a negative float cost is rejected.

func.func @negative_cost(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'linalg.exp' op expects 'memsched.cost' to be a non-negative number of seconds, got -1.000000e+00 : f64}}
  %a = linalg.exp {memsched.cost = -1.0 : f64} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that a negative integer cost is rejected.

func.func @negative_integer_cost(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{expects 'memsched.cost' to be a non-negative number of seconds, got -3 : i64}}
  %a = linalg.exp {memsched.cost = -3 : i64} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that an infinite cost is rejected.

func.func @infinite_cost(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{expects 'memsched.cost' to be a non-negative number of seconds, got 0x7FF0000000000000 : f64}}
  %a = linalg.exp {memsched.cost = 0x7FF0000000000000 : f64} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that a NaN cost is rejected.

func.func @nan_cost(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{expects 'memsched.cost' to be a non-negative number of seconds}}
  %a = linalg.exp {memsched.cost = 0x7FF8000000000000 : f64} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that a cost that is not a number is rejected.

func.func @string_cost(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{expects 'memsched.cost' to be a non-negative number of seconds, got "fast"}}
  %a = linalg.exp {memsched.cost = "fast"} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that a cost without a value (a unit attribute) is rejected.

func.func @unit_cost(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{expects 'memsched.cost' to be a non-negative number of seconds, got unit}}
  %a = linalg.exp {memsched.cost} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that a negative workspace is rejected.

func.func @negative_workspace(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'linalg.exp' op expects 'memsched.workspace' to be a non-negative integer number of bytes, got -5 : i64}}
  %a = linalg.exp {memsched.workspace = -5 : i64} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that a floating-point workspace is rejected, even a whole number.

func.func @float_workspace(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{expects 'memsched.workspace' to be a non-negative integer number of bytes, got 1.000000e+00 : f64}}
  %a = linalg.exp {memsched.workspace = 1.0 : f64} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that a string workspace is rejected.

func.func @string_workspace(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{expects 'memsched.workspace' to be a non-negative integer number of bytes, got "1KiB"}}
  %a = linalg.exp {memsched.workspace = "1KiB"} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that an unknown attribute in the memsched namespace is rejected.

func.func @unknown_attribute(%x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'linalg.exp' op has unknown memsched attribute 'memsched.foo'}}
  %a = linalg.exp {memsched.foo = 1 : i64} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that an unknown memsched attribute on a function is rejected.

// expected-error @below {{'func.func' op has unknown memsched attribute 'memsched.costs'}}
func.func @unknown_function_attribute() attributes {memsched.costs = 1.0 : f64} {
  return
}
