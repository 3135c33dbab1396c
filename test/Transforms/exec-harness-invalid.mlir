// RUN: rm -rf %t && split-file %s %t
// RUN: memsched-opt %t/missing-function.mlir -verify-diagnostics -memsched-exec-harness=func=train_step
// RUN: memsched-opt %t/external-function.mlir -verify-diagnostics -memsched-exec-harness=func=external
// RUN: memsched-opt %t/dynamic-argument.mlir -verify-diagnostics -memsched-exec-harness=func=dynamic
// RUN: memsched-opt %t/dynamic-result.mlir -verify-diagnostics -memsched-exec-harness=func=dynamic_result
// RUN: memsched-opt %t/memref-argument.mlir -verify-diagnostics -memsched-exec-harness=func=memref_argument
// RUN: memsched-opt %t/complex-element.mlir -verify-diagnostics -memsched-exec-harness=func=complex_element
// RUN: memsched-opt %t/existing-main.mlir -verify-diagnostics -memsched-exec-harness=func=f
// RUN: memsched-opt %t/zero-modulus.mlir -verify-diagnostics -memsched-exec-harness="func=f int-modulus=0"
// RUN: memsched-opt %t/negative-modulus.mlir -verify-diagnostics -memsched-exec-harness="func=f int-modulus=-3"
// RUN: memsched-opt %t/encoded-tensor.mlir -verify-diagnostics -memsched-exec-harness=func=encoded

// Each case below is its own input file (split-file), so that each RUN line
// can pass different harness options and verify its own diagnostic.

//--- missing-function.mlir
// Tests that naming a function that does not exist is an error (here the
// default name, train_step).
// expected-error @below {{memsched-exec-harness: no function with a body named '@train_step'}}
module {
  func.func @f() {
    return
  }
}

//--- external-function.mlir
// Tests that naming a function without a body is an error.
// expected-error @below {{memsched-exec-harness: no function with a body named '@external'}}
module {
  func.func private @external(tensor<4xf32>) -> tensor<4xf32>
}

//--- dynamic-argument.mlir
// Tests that a dynamically shaped argument is an error on the function.
module {
  // expected-error @below {{memsched-exec-harness: cannot build inputs or print results of type 'tensor<?xf32>'; only static tensors without an encoding and scalars of integer, index and float types are supported}}
  func.func @dynamic(%a: tensor<?xf32>) -> tensor<4xf32> {
    %c = tensor.cast %a : tensor<?xf32> to tensor<4xf32>
    return %c : tensor<4xf32>
  }
}

//--- dynamic-result.mlir
// Tests that a dynamically shaped result is an error on the function.
module {
  // expected-error @below {{memsched-exec-harness: cannot build inputs or print results of type 'tensor<?xf32>'}}
  func.func @dynamic_result(%a: tensor<4xf32>) -> tensor<?xf32> {
    %c = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
    return %c : tensor<?xf32>
  }
}

//--- memref-argument.mlir
// Tests that a memref argument is an error.
module {
  // expected-error @below {{memsched-exec-harness: cannot build inputs or print results of type 'memref<4xf32>'}}
  func.func @memref_argument(%a: memref<4xf32>) {
    return
  }
}

//--- complex-element.mlir
// Tests that a tensor of complex elements is an error.
module {
  // expected-error @below {{memsched-exec-harness: cannot build inputs or print results of type 'tensor<4xcomplex<f32>>'}}
  func.func @complex_element(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
    return %a : tensor<4xcomplex<f32>>
  }
}

//--- existing-main.mlir
// Tests that a module that already has @memsched_main is an error.
// expected-error @below {{memsched-exec-harness: the module already has a symbol named '@memsched_main'}}
module {
  func.func @f() {
    return
  }
  func.func @memsched_main() {
    return
  }
}

//--- zero-modulus.mlir
// Tests that int-modulus=0 is an error.
// expected-error @below {{memsched-exec-harness: int-modulus must be positive, got 0}}
module {
  func.func @f(%a: tensor<4xi32>) -> tensor<4xi32> {
    return %a : tensor<4xi32>
  }
}

//--- negative-modulus.mlir
// Tests that a negative int-modulus is an error.
// expected-error @below {{memsched-exec-harness: int-modulus must be positive, got -3}}
module {
  func.func @f(%a: tensor<4xi32>) -> tensor<4xi32> {
    return %a : tensor<4xi32>
  }
}

//--- encoded-tensor.mlir
// Tests that a tensor with an encoding is refused (the dense generic that
// builds inputs did not verify): the module is left unchanged.
module {
  // expected-error @below {{memsched-exec-harness: cannot build inputs or print results of type 'tensor<4xf32, "layout">'; only static tensors without an encoding}}
  func.func @encoded(%a: tensor<4xf32, "layout">) -> tensor<4xf32, "layout"> {
    return %a : tensor<4xf32, "layout">
  }
}
