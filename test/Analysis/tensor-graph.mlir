// RUN: memsched-opt %s -split-input-file -verify-diagnostics --mlir-disable-threading -test-memsched-print-tensor-graph -o /dev/null | FileCheck %s

// Tests that an empty -> fill -> matmul chain is one task, the matmul's: the
// constant and the empty are free, the fill of the empty read only by the
// matmul is folded into it, and all three write in place into one transient
// buffer that is returned.

// CHECK-LABEL: tensor-graph @chain
// resident = 4*8*4 (%a) + 8*16*4 (%b) = 128 + 512 = 640; 4 buffers = 2
// arguments + the f32 scalar constant + the 4x16 accumulator.
// CHECK-SAME: tasks 1 buffers 4 resident 640
// The task's cost is the sum of its ops'.
// fill: flops = 4*16 = 64; bytes = 4 (f32 scalar) + 4*16*4 (init) = 260.
// matmul: flops = 4*16*8 points * 2 body ops = 1024; bytes = 128 (%a) +
// 512 (%b) + 256 (init written) + 256 (init read by the body) = 1152.
// Sum: flops 64 + 1024 = 1088, bytes 260 + 1152 = 1412.
// CHECK-NEXT: task 0 linalg.matmul after [] flops 1088 bytes 1412 workspace 0
// CHECK-NEXT: buffer resident 128 values [%arg0]
// CHECK-NEXT: buffer resident 512 values [%arg1]
// One buffer of 4*16*4 = 256 bytes for empty, fill and matmul.
// CHECK-NEXT: buffer transient 256 values [%0, %1, %2] returned
// CHECK-NOT: buffer
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// -----

// Tests that collapse_shape, expand_shape, extract_slice and cast alias their
// source's buffer (resident or transient) and take no memory of their own:
// the view of the argument is free, the views of the negf's result are part
// of the negf's task.

// CHECK-LABEL: tensor-graph @views
// resident = 4*8*4 = 128; 2 buffers: %a and the negf result.
// CHECK-SAME: tasks 1 buffers 2 resident 128
// Views cost nothing: the task costs what the negf alone does, flops = 32
// and bytes = 128 read + 128 written = 256.
// CHECK-NEXT: task 0 linalg.negf after [] flops 32 bytes 256 workspace 0
// CHECK-NEXT: buffer resident 128 values [%arg0, %collapsed]
// 32*4 = 128 bytes; the 2x8 slice and its cast stay in the 128-byte buffer.
// CHECK-NEXT: buffer transient 128 values [%0, %1, %expanded, %extracted_slice, %cast] returned
// CHECK-NOT: buffer
func.func @views(%a: tensor<4x8xf32>) -> tensor<2x8xf32> {
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e = tensor.empty() : tensor<32xf32>
  %n = linalg.negf ins(%c : tensor<32xf32>) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %x = tensor.expand_shape %n [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %s = tensor.extract_slice %x[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %k = tensor.cast %s : tensor<2x8xf32> to tensor<2x8xf32>
  return %k : tensor<2x8xf32>
}

// -----

// Tests that a tensor constant is resident and read-only: an op whose init is
// the constant gets a new transient buffer instead of writing into it.

// CHECK-LABEL: tensor-graph @constant
// resident = 4*4 (%a) + 4*4 (%cst) = 32.
// Two tasks, the add and the exp; the constant and the empty are free.
// CHECK-SAME: tasks 2 buffers 4 resident 32
// CHECK-NEXT: task 0 linalg.add after []
// CHECK-NEXT: task 1 linalg.exp after [0]
// CHECK-NEXT: buffer resident 16 values [%arg0]
// CHECK-NEXT: buffer resident 16 values [%cst]
// CHECK-NEXT: buffer transient 16 values [%0, %1]
// The exp does not overwrite %cst although nothing reads it later.
// CHECK-NEXT: buffer transient 16 values [%2] returned
// CHECK-NOT: buffer
func.func @constant(%a: tensor<4xf32>) -> tensor<4xf32> {
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %cst : tensor<4xf32>, tensor<4xf32>)
                  outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r2 = linalg.exp ins(%r : tensor<4xf32>) outs(%cst : tensor<4xf32>) -> tensor<4xf32>
  return %r2 : tensor<4xf32>
}

// -----

// Tests that a destination-style op whose init is read by a later op gets a
// new buffer (bufferization cannot overwrite contents still needed).

// CHECK-LABEL: tensor-graph @init_read_later
// resident = 16*4 = 64; buffers: %a, the f32 constant, fill, exp, add = 5.
// The fill has two readers, so it is a task of its own (not folded).
// CHECK-SAME: tasks 3 buffers 5 resident 64
// CHECK-NEXT: task 0 linalg.fill after []
// CHECK-NEXT: task 1 linalg.exp after [0]
// CHECK-NEXT: task 2 linalg.add after [0, 1]
// CHECK-NEXT: buffer resident 64 values [%arg0]
// CHECK-NEXT: buffer transient 64 values [%0, %1]
// The exp result is not in the fill's buffer: the add still reads %f.
// CHECK-NEXT: buffer transient 64 values [%2]
// CHECK-NEXT: buffer transient 64 values [%3, %4] returned
// CHECK-NOT: buffer
func.func @init_read_later(%a: tensor<16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %g = linalg.exp ins(%a : tensor<16xf32>) outs(%f : tensor<16xf32>) -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %h = linalg.add ins(%f, %g : tensor<16xf32>, tensor<16xf32>)
                  outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  return %h : tensor<16xf32>
}

// -----

// Tests that an in-place write into a buffer is ordered after every earlier
// reader of the buffer: the exp overwrites %f, which the negf read before.

// CHECK-LABEL: tensor-graph @write_after_read
// resident = 16*4 = 64; buffers: %a, the f32 constant, %e, %e3 = 4.
// The fill is read by two ops, so it stays a task: fill 0, negf 1, exp 2,
// add 3.
// CHECK-SAME: tasks 4 buffers 4 resident 64
// CHECK-NEXT: task 0 linalg.fill after []
// CHECK-NEXT: task 1 linalg.negf after [0]
// The write into %f's buffer follows its producer (0) and its reader (1).
// CHECK-NEXT: task 2 linalg.exp after [0, 1]
// CHECK-NEXT: task 3 linalg.add after [1, 2]
// CHECK-NEXT: buffer resident 64 values [%arg0]
// %e, %f and the exp result share one buffer...
// CHECK-NEXT: buffer transient 64 values [%0, %1, %4]
// ...and %e3, negf and the add (in place into %n) share another.
// CHECK-NEXT: buffer transient 64 values [%2, %3, %5] returned
// CHECK-NOT: buffer
func.func @write_after_read(%a: tensor<16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %e3 = tensor.empty() : tensor<16xf32>
  %n = linalg.negf ins(%f : tensor<16xf32>) outs(%e3 : tensor<16xf32>) -> tensor<16xf32>
  %g = linalg.exp ins(%a : tensor<16xf32>) outs(%f : tensor<16xf32>) -> tensor<16xf32>
  %h = linalg.add ins(%n, %g : tensor<16xf32>, tensor<16xf32>)
                  outs(%n : tensor<16xf32>) -> tensor<16xf32>
  return %h : tensor<16xf32>
}

// -----

// Tests that a destination-style op writes in place into a function
// argument's (resident) buffer when nothing reads the argument later.

// CHECK-LABEL: tensor-graph @inplace_into_argument
// resident = 2 * 16*4 = 128; no transient buffer.
// CHECK-SAME: tasks 1 buffers 2 resident 128
// CHECK-NEXT: task 0 linalg.exp after []
// CHECK-NEXT: buffer resident 64 values [%arg0, %0] returned
// CHECK-NEXT: buffer resident 64 values [%arg1]
// CHECK-NOT: buffer
func.func @inplace_into_argument(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.exp ins(%b : tensor<16xf32>) outs(%a : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Tests that scalars take no memory: scalar arguments, constants and results
// are values but print no buffer, and scalar arith/math ops move no bytes.

// CHECK-LABEL: tensor-graph @scalars
// resident = 4*4 (%a) + 0 (%s, a scalar) = 16; buffers: %a, %s, %c1, %x, %y,
// %z = 6, of which only %a has bytes. The index constant is free (no task).
// CHECK-SAME: tasks 3 buffers 6 resident 16
// CHECK-NEXT: task 0 tensor.extract after []
// One flop per (scalar) result; registers move no bytes.
// CHECK-NEXT: task 1 arith.addf after [0] flops 1 bytes 0
// CHECK-NEXT: task 2 math.exp after [1] flops 1 bytes 0
// CHECK-NEXT: buffer resident 16 values [%arg0]
// CHECK-NOT: buffer
func.func @scalars(%a: tensor<4xf32>, %s: f32) -> f32 {
  %c1 = arith.constant 1 : index
  %x = tensor.extract %a[%c1] : tensor<4xf32>
  %y = arith.addf %x, %s : f32
  %z = math.exp %y : f32
  return %z : f32
}

// -----

// Tests that calls and ops with memory effects are fences: each one is
// ordered after the previous fence while pure ops are not. Fences and ops
// without a cost model are marked in the graph ("fence", "estimated") and get
// no remark (-verify-diagnostics fails on any).

func.func private @external(tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: tensor-graph @fences
// resident = 4*4 (%a) + 4*4 (%m, a memref argument) = 32; buffers: %a, %m,
// %c0, the call result, %e (shared by negf), the loaded scalar %x = 6.
// The constant and the empty are free: 4 tasks.
// CHECK-SAME: tasks 4 buffers 6 resident 32
// CHECK-NEXT: task 0 func.call after [] {{.*}} fence estimated
// The negf does not depend on the call.
// CHECK-NEXT: task 1 linalg.negf after [] {{.*}} workspace 0{{$}}
// The load follows the call (previous fence).
// CHECK-NEXT: task 2 memref.load after [0] {{.*}} fence estimated
// CHECK-NEXT: task 3 memref.store after [2] {{.*}} fence estimated
// CHECK-NEXT: buffer resident 16 values [%arg0]
// CHECK-NEXT: buffer resident 16 values [%arg1]
// CHECK-NEXT: buffer transient 16 values [%0] returned
// CHECK-NEXT: buffer transient 16 values [%1, %2] returned
// CHECK-NOT: buffer
func.func @fences(%a: tensor<4xf32>, %m: memref<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %r = func.call @external(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %n = linalg.negf ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %x = memref.load %m[%c0] : memref<4xf32>
  memref.store %x, %m[%c0] : memref<4xf32>
  return %r, %n : tensor<4xf32>, tensor<4xf32>
}
