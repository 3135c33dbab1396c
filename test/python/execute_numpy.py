# RUN: %PYTHON %s %examples | FileCheck %s
# Tests memsched.execute.run_with_inputs: a module compiled to a shared
# object and called on numpy arrays gives the numpy reference's loss and
# gradients for the MLP example, the same bits as run_on_cpu on the same
# inputs, exact values on small hand-written functions (f32, i64 and i1
# arguments, a 0-d result, one and several results), and ValueError for
# inputs of the wrong shape, dtype or number.
#
# Tolerance for the numpy comparison as in execute.py: 1e-5 of each tensor's
# largest magnitude, far above f32 rounding (~1e-7) and far below a real bug.

import importlib.util
import os
import sys

import numpy as np

import memsched.execute as execute

examples = sys.argv[1]
spec = importlib.util.spec_from_file_location(
    "reference", os.path.join(examples, "reference.py"))
reference = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reference)

# CHECK: mlp results 7 shapes True dtypes {{\[}}'float32'] numpy-match True
# CHECK-NEXT: mlp same-bits-as-run_on_cpu True
# CHECK-NEXT: mlp inputs-unchanged True
with open(os.path.join(examples, "mlp_train_step.mlir")) as handle:
    mlp = handle.read()
inputs = reference.make_inputs("mlp")
saved = [array.copy() for array in inputs]
results = execute.run_with_inputs(mlp, inputs)
loss, grads = reference.run("mlp", np.float64)
expected = [np.asarray(loss)] + grads
error = max(float(np.max(np.abs(v - e)) / np.max(np.abs(e)))
            for v, e in zip(results, expected))
print("mlp results", len(results), "shapes",
      [r.shape for r in results] == [e.shape for e in expected],
      "dtypes", sorted({str(r.dtype) for r in results}),
      "numpy-match", error < 1e-5)
bits = execute.run_on_cpu(mlp)
print("mlp same-bits-as-run_on_cpu",
      [[int(b) for b in np.ravel(r).view(np.uint32)] for r in results] ==
      [[b & 0xffffffff for b in result] for result in bits])
print("mlp inputs-unchanged",
      all(np.array_equal(a, b) for a, b in zip(inputs, saved)))

SMALL = """
#id1 = affine_map<(d0) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0, d1) -> ()>
module {
  // r0 = sum(r1), r1[i, j] = a[i, j] * b[j], r2 = 2 * b + 1
  func.func @small(%a: tensor<2x3xf32>, %b: tensor<3xi64>)
      -> (tensor<f32>, tensor<2x3xf32>, tensor<3xi64>) {
    %e1 = tensor.empty() : tensor<2x3xf32>
    %r1 = linalg.generic {indexing_maps = [#id2, #col, #id2],
                          iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<2x3xf32>, tensor<3xi64>)
        outs(%e1 : tensor<2x3xf32>) {
    ^bb0(%x: f32, %y: i64, %o: f32):
      %f = arith.sitofp %y : i64 to f32
      %m = arith.mulf %x, %f : f32
      linalg.yield %m : f32
    } -> tensor<2x3xf32>
    %zero = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<f32>
    %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>)
        -> tensor<f32>
    %r0 = linalg.generic {indexing_maps = [#id2, #all],
                          iterator_types = ["reduction", "reduction"]}
        ins(%r1 : tensor<2x3xf32>) outs(%init : tensor<f32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %x, %o : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    %e2 = tensor.empty() : tensor<3xi64>
    %r2 = linalg.generic {indexing_maps = [#id1, #id1],
                          iterator_types = ["parallel"]}
        ins(%b : tensor<3xi64>) outs(%e2 : tensor<3xi64>) {
    ^bb0(%y: i64, %o: i64):
      %c2 = arith.constant 2 : i64
      %c1 = arith.constant 1 : i64
      %t = arith.muli %y, %c2 : i64
      %u = arith.addi %t, %c1 : i64
      linalg.yield %u : i64
    } -> tensor<3xi64>
    return %r0, %r1, %r2 : tensor<f32>, tensor<2x3xf32>, tensor<3xi64>
  }
  // (a > 0) xor m
  func.func @mask(%a: tensor<5xf64>, %m: tensor<5xi1>) -> tensor<5xi1> {
    %e = tensor.empty() : tensor<5xi1>
    %zero = arith.constant 0.0 : f64
    %r = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                         iterator_types = ["parallel"]}
        ins(%a, %m : tensor<5xf64>, tensor<5xi1>) outs(%e : tensor<5xi1>) {
    ^bb0(%x: f64, %k: i1, %o: i1):
      %c = arith.cmpf ogt, %x, %zero : f64
      %r = arith.xori %c, %k : i1
      linalg.yield %r : i1
    } -> tensor<5xi1>
    return %r : tensor<5xi1>
  }
}
"""

# CHECK: small 3 results
# CHECK-NEXT: r0 () float32 -1.5
# CHECK-NEXT: r1 (2, 3) float32 {{\[\[}}1.0, -4.0, 0.0], [-0.5, 2.0, 0.0]]
# CHECK-NEXT: r2 (3,) int64 [3, -3, 1]
a = np.array([[1.0, 2.0, 3.0], [-0.5, -1.0, 7.0]], dtype=np.float32)
b = np.array([1, -2, 0], dtype=np.int64)
small = execute.run_with_inputs(SMALL, [a, b], func="small")
print("small", len(small), "results")
for index, result in enumerate(small):
    print("r%d" % index, result.shape, result.dtype, result.tolist())

# CHECK: mask (5,) bool [False, True, True, False, True]
# CHECK-NEXT: mask plan-buffers=false [False, True, True, False, True]
x = np.array([1.0, -2.0, 3.0, -4.0, 0.0])
m = np.array([True, True, False, False, True])
result, = execute.run_with_inputs(SMALL, [x, m], func="mask")
print("mask", result.shape, result.dtype, result.tolist())
result, = execute.run_with_inputs(SMALL, [x, m], func="mask",
                                  pipeline_options="plan-buffers=false")
print("mask plan-buffers=false", result.tolist())

# CHECK: ValueError: argument 1 of @small: expected tensor<3xi64> (numpy int64, shape (3,)), got int64, shape (4,)
# CHECK-NEXT: ValueError: argument 0 of @small: expected tensor<2x3xf32> (numpy float32, shape (2, 3)), got float64, shape (2, 3)
# CHECK-NEXT: ValueError: @small takes 2 arguments, got 1 inputs
# CHECK-NEXT: ValueError: the module has no func.func @missing
for args, func in [([a, np.arange(4, dtype=np.int64)], "small"),
                   ([a.astype(np.float64), b], "small"),
                   ([a], "small"),
                   ([a, b], "missing")]:
    try:
        execute.run_with_inputs(SMALL, args, func=func)
        print("no error")
    except ValueError as error:
        print("ValueError:", error)
