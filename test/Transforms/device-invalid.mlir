// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-reorder -o /dev/null

// Tests that an unknown recorded device is an error at the function.

// expected-error @below {{memsched-reorder: unknown device 'tpu'}}
func.func @step(%x: tensor<64xf32>) -> tensor<64xf32> attributes {memsched.target_device = "tpu"} {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Tests that the attribute must be a string.

// expected-error @below {{'func.func' op expects 'memsched.target_device' to be a string}}
func.func @bad() attributes {memsched.target_device = 3 : i64} {
  return
}
