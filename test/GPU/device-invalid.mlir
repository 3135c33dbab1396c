// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-device-boundary -memsched-device-allocations -memsched-launches-to-loops -mlir-print-op-on-diagnostic=false

// Tests that functions the GPU lowering cannot run on the device are
// refused with a diagnostic naming what is wrong. memsched-device-boundary
// checks every function before it rewrites any.

// expected-error @below {{memsched-device-boundary: cannot run '@dynamic' on the device: argument #0 has a dynamic shape}}
func.func @dynamic(%a: memref<?xf32>) {
  return
}

// -----

// expected-error @below {{memsched-device-boundary: cannot run '@unranked' on the device: result #0 is an unranked memref}}
func.func @unranked(%a: memref<4xf32>) -> memref<*xf32> {
  %c = memref.cast %a : memref<4xf32> to memref<*xf32>
  return %c : memref<*xf32>
}

// -----

// expected-error @below {{memsched-device-boundary: cannot run '@strided' on the device: argument #0 has a non-identity layout}}
func.func @strided(%a: memref<4xf32, strided<[2]>>) {
  return
}

// -----

func.func private @callee(memref<4xf32>)
func.func @calls(%a: memref<4xf32>) {
  // expected-error @below {{memsched-device-boundary: calls are not supported in a device function}}
  func.call @callee(%a) : (memref<4xf32>) -> ()
  return
}

// -----

func.func @host_load(%a: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @below {{memsched-device-allocations: 'memref.load' would access device memory from the host}}
  %v = memref.load %a[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// A loop may carry device buffers; what its body does with them is checked.
func.func @load_in_loop(%a: memref<4xf32>, %n: index) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (memref<4xf32>) {
    // expected-error @below {{memsched-device-allocations: 'memref.load' would access device memory from the host}}
    %v = memref.load %x[%c0] : memref<4xf32>
    scf.yield %x : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// -----

func.func @nested(%a: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{memsched-device-allocations: an allocation in a nested region has no planned lifetime}}
    %b = memref.alloc() : memref<4xf32>
    linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  }
  return
}

// -----

func.func @stack(%a: memref<4xf32>) {
  // expected-error @below {{memsched-device-allocations: a stack allocation is host memory that kernels cannot read}}
  %b = memref.alloca() : memref<4xf32>
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

func.func @barrier() attributes {memsched.host} {
  %c1 = arith.constant 1 : index
  // expected-error @below {{memsched-launches-to-loops: this launch uses barriers, shuffles, shared memory, clusters or async tokens}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

memref.global "private" @state : memref<4xf32> = dense<0.0>
func.func @mutable_global(%a: memref<4xf32>) {
  // expected-error @below {{memsched-device-boundary: global '@state' is mutable host memory that device code would read or write; only constant globals are copied to the device}}
  %g = memref.get_global @state : memref<4xf32>
  linalg.copy ins(%a : memref<4xf32>) outs(%g : memref<4xf32>)
  return
}
