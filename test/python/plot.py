# RUN: rm -rf %t && mkdir -p %t
# RUN: %PYTHON %s %examples/mlp_train_step.mlir %t/mlp.png | FileCheck %s
# Tests that the memory timeline plot of an example is written as a PNG.

import sys

import memsched
import memsched.plot

with open(sys.argv[1]) as handle:
    report = memsched.analyze(handle.read())
path = memsched.plot.memory_timeline(report, sys.argv[2])
with open(path, "rb") as handle:
    # CHECK: png True
    print("png", handle.read(8) == b"\x89PNG\r\n\x1a\n")
try:
    memsched.plot.memory_timeline(report, sys.argv[2], function="missing")
except ValueError as error:
    # CHECK: ValueError report has no function with a timeline named missing
    print("ValueError", error)
