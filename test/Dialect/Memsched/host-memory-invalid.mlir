// RUN: memsched-opt %s -split-input-file -verify-diagnostics

// Tests that memsched.host_argument reads only arguments marked
// memsched.host_memory.

func.func @unmarked(%w: tensor<8xf32>) {
  // expected-error @below {{operand must be an argument of the enclosing function marked 'memsched.host_memory'}}
  %h = memsched.host_argument %w : tensor<8xf32> -> !memsched.host<tensor<8xf32>>
  return
}

// -----

// Tests that an argument in host memory is read only through
// memsched.host_argument.

// expected-error @below {{argument #0 is in host memory ('memsched.host_memory'): only memsched.host_argument may read it, but 'linalg.mul' does}}
func.func @read_directly(%w: tensor<8xf32> {memsched.host_memory}) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.mul ins(%w, %w : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Tests that a result in host memory is a memsched.host_result.

// expected-error @below {{result #0 is in host memory ('memsched.host_memory'): it must be returned by memsched.host_result}}
func.func @plain_result(%x: tensor<8xf32>) -> (tensor<8xf32> {memsched.host_memory}) {
  return %x : tensor<8xf32>
}

// -----

// Tests that memsched.host_result is only returned, at a result marked
// memsched.host_memory.

func.func @unmarked_result(%x: tensor<8xf32>) -> tensor<8xf32> {
  %h = memsched.swap_out %x : tensor<8xf32> -> !memsched.host<tensor<8xf32>>
  // expected-error @below {{result may only be returned, at a result marked 'memsched.host_memory'}}
  %r = memsched.host_result %h : !memsched.host<tensor<8xf32>> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Tests that the attribute is a unit attribute.

// expected-error @below {{'memsched.host_memory' is a unit attribute of function arguments and results}}
func.func @not_unit(%w: tensor<8xf32> {memsched.host_memory = 1 : i64}) {
  return
}

// -----

// Tests that a swap wait does not take a host argument.

func.func @wait_on_argument(%w: tensor<8xf32> {memsched.host_memory}) {
  %h = memsched.host_argument %w : tensor<8xf32> -> !memsched.host<tensor<8xf32>>
  // expected-error @below {{has no matching memsched.swap_out}}
  memsched.swap_wait %h : !memsched.host<tensor<8xf32>>
  return
}

// -----

// Tests that memsched.training_step is a dictionary of two counts.

// expected-error @below {{expects 'memsched.training_step' on a function, as {parameters = <integer>, optimizer_state = <integer>}}}
func.func @bad_training_step(%w: tensor<8xf32>) attributes {memsched.training_step = {parameters = 1 : i64}} {
  return
}
