// RUN: memsched-opt %s -split-input-file -verify-diagnostics

// Tests that swapping out a value that is not a ranked tensor is rejected.

func.func @swap_out_scalar(%x: f32) {
  // expected-error @below {{operand #0 must be ranked tensor of any type values}}
  %h = "memsched.swap_out"(%x) : (f32) -> !memsched.host<tensor<4xf32>>
  return
}

// -----

// Tests that swapping out a memref is rejected.

func.func @swap_out_memref(%x: memref<4xf32>) {
  // expected-error @below {{operand #0 must be ranked tensor of any type values}}
  %h = "memsched.swap_out"(%x) : (memref<4xf32>) -> !memsched.host<tensor<4xf32>>
  return
}

// -----

// Tests that a swap-out whose host copy is never read back is rejected.

func.func @unmatched_swap_out(%a: tensor<4xf32>) {
  // expected-error @below {{has no matching memsched.swap_in}}
  %h = memsched.swap_out %a : tensor<4xf32> -> !memsched.host<tensor<4xf32>>
  return
}

// -----

// Tests that a swap-in of a host value no swap-out produced is rejected.

func.func @unmatched_swap_in(%h: !memsched.host<tensor<4xf32>>) -> tensor<4xf32> {
  // expected-error @below {{has no matching memsched.swap_out}}
  %a = memsched.swap_in %h : !memsched.host<tensor<4xf32>> -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that a swap-out's host type must hold its source type.

func.func @mismatched_out(%a: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @below {{does not hold the source type}}
  %h = memsched.swap_out %a : tensor<4xf32> -> !memsched.host<tensor<8xf32>>
  %b = memsched.swap_in %h : !memsched.host<tensor<8xf32>> -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// Tests that a swap-in must return the swapped-out type.

func.func @mismatched_in(%a: tensor<4xf32>) -> tensor<4xf16> {
  %h = memsched.swap_out %a : tensor<4xf32> -> !memsched.host<tensor<4xf32>>
  // expected-error @below {{differs from the swapped-out type}}
  %b = memsched.swap_in %h : !memsched.host<tensor<4xf32>> -> tensor<4xf16>
  return %b : tensor<4xf16>
}

// -----

// Tests that the host copy may only be read by swap-ins.

func.func @host_copy_returned(%a: tensor<4xf32>) -> !memsched.host<tensor<4xf32>> {
  // expected-error @below {{result may only be read by memsched.swap_in}}
  %h = memsched.swap_out %a : tensor<4xf32> -> !memsched.host<tensor<4xf32>>
  %b = memsched.swap_in %h : !memsched.host<tensor<4xf32>> -> tensor<4xf32>
  return %h : !memsched.host<tensor<4xf32>>
}

// -----

// Tests that the host type needs a static shape.

// expected-error @below {{!memsched.host needs a statically shaped tensor}}
func.func @dynamic_host(%h: !memsched.host<tensor<?xf32>>)

// -----

// Tests that a wait needs a swap-out to wait for.

func.func @unmatched_swap_wait(%h: !memsched.host<tensor<4xf32>>) {
  // expected-error @below {{has no matching memsched.swap_out}}
  memsched.swap_wait %h : !memsched.host<tensor<4xf32>>
  return
}

// -----

// Tests that a swap-out read only by a wait is still never read back.

func.func @wait_only(%a: tensor<4xf32>) {
  // expected-error @below {{has no matching memsched.swap_in}}
  %h = memsched.swap_out %a : tensor<4xf32> -> !memsched.host<tensor<4xf32>>
  memsched.swap_wait %h : !memsched.host<tensor<4xf32>>
  return
}
