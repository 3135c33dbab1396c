# RUN: %PYTHON %s | FileCheck %s
# Tests that diagnostics do not grow with the program: a training step of
# about 3,000 ops through reorder, fit, in-place, buffer planning and the
# report prints one summary remark per pass and function, and a budget no
# plan meets prints one error with a note, never a dump of the function.

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
    return run.returncode, run.stderr


code, stderr = stderr_of(
    "--memsched-reorder", "--memsched-fit=budget=0.9x", "--memsched-inplace",
    "--memsched-report=output=" + os.devnull, "--one-shot-bufferize",
    "--memsched-plan-buffers")
print("ops:", text.count("linalg.generic"))
print("exit:", code, "bytes:", len(stderr), "under 10 KB:", len(stderr) < 10240)
print("remarks:", stderr.count("remark:"))
code, stderr = stderr_of("--memsched-remat=budget=1KiB")
print("unmet exit:", code, "bytes:", len(stderr), "errors:",
      stderr.count("error:"), "notes:", stderr.count("note:"))

# CHECK: ops: 3{{[0-9]{3}}}
# CHECK: exit: 0 bytes: {{[0-9]+}} under 10 KB: True
# CHECK: remarks: {{[1-5]$}}
# CHECK: unmet exit: 1 bytes: {{[0-9]{1,3}}} errors: 1 notes: 1
