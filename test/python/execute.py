# RUN: %PYTHON %s %examples | FileCheck %s
# Tests that the examples run on CPU, that a rewrite that must not change
# results leaves them bit-identical, and that they agree with the numpy
# reference implementation of the same training steps.
#
# Tolerance for the numpy comparison: MLIR computes in f32 with a fixed loop
# order, numpy in float64; a relative error of 1e-5 (of each tensor's largest
# magnitude) is far above f32 rounding on these sizes (~1e-7 measured) and far
# below any real bug (a wrong gradient term is off by O(1)).

import os
import sys

import numpy as np

import memsched
import memsched.execute as execute

examples = sys.argv[1]
sys.path.insert(0, examples)
import reference  # noqa: E402

# CHECK: mlp results 7 numpy-match True
# CHECK-NEXT: mlp bit-identical None
# CHECK-NEXT: mlp seed-changes-results True
# CHECK-NEXT: cnn results 7 numpy-match True
# CHECK-NEXT: cnn bit-identical None
# CHECK-NEXT: cnn seed-changes-results True
for name in ["mlp", "cnn"]:
    with open(os.path.join(examples, name + "_train_step.mlir")) as handle:
        text = handle.read()
    results = execute.run_on_cpu(text)
    values = [np.array(bits, dtype=np.int64).astype(np.int32).view(np.float32)
              for bits in results]
    loss, grads = reference.run(name, np.float64)
    expected = [np.ravel(loss)] + [np.ravel(g) for g in grads]
    error = max(float(np.max(np.abs(v - e)) / np.max(np.abs(e)))
                for v, e in zip(values, expected))
    print(name, "results", len(values), "numpy-match", error < 1e-5)
    rewritten = memsched.run_pipeline(text, "canonicalize,cse")
    print(name, "bit-identical", execute.compare_on_cpu(text, rewritten))
    # A different seed gives different inputs, so the comparison can fail.
    other = execute.run_on_cpu(text, seed=5)
    print(name, "seed-changes-results", other != results)
