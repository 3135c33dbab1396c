# RUN: %PYTHON %s | FileCheck %s
# Tests that diagnostics do not grow with the program: a training step of
# 3,000 computations through reorder, fit, in-place, the report, swap
# lowering, bufferization and buffer planning prints one summary remark per
# pass and function, and a budget no plan meets prints one error with a
# note, never a dump of the function. The sizes count memsched's messages;
# MLIR also echoes the source line of each location (here the function's
# signature, one line of 1,000 arguments), which is counted apart.

import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))

from random_graphs import training_step

text = training_step(random.Random(3), depth=1000, shuffle=False)
opt = os.environ["MEMSCHED_OPT"]


def stderr_of(*passes):
    run = subprocess.run([opt, "-", "-o", os.devnull] + list(passes),
                         input=text, capture_output=True, text=True)
    # Drop the echoed source lines and their caret lines.
    lines = run.stderr.splitlines(keepends=True)
    messages = [line for line in lines
                if not line.startswith(("func.func", "^", " "))]
    return run.returncode, "".join(messages)


code, stderr = stderr_of(
    "--memsched-reorder", "--memsched-fit=budget=0.9x", "--memsched-inplace",
    "--memsched-report=output=" + os.devnull, "--memsched-lower-swaps",
    "--one-shot-bufferize", "--memsched-plan-buffers")
print("ops at least 3000:", text.count("linalg.generic") >= 3000)
print("exit:", code, "bytes:", len(stderr), "under 10 KB:", len(stderr) < 10240)
print("remarks:", stderr.count("remark:"))
code, stderr = stderr_of("--memsched-remat=budget=1KiB")
print("unmet exit:", code, "under 4 KB:", len(stderr) < 4096, "errors:",
      stderr.count("error:"), "notes:", stderr.count("note:"))

# CHECK: ops at least 3000: True
# CHECK: exit: 0 bytes: {{[0-9]+}} under 10 KB: True
# CHECK: remarks: {{[1-5]$}}
# CHECK: unmet exit: 1 under 4 KB: True errors: 1 notes: 1
