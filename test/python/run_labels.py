# RUN: rm -rf %t && mkdir -p %t
# RUN: %PYTHON %s %examples/cnn_train_step.mlir %t | FileCheck %s
# Tests that `python3 -m memsched.run` says where its device figures come
# from when nothing runs on a device: with --emulate the peak is labelled
# emulated and the launches are the device program's kernels (as many as
# the mock runtime counts when the same program's launches reach it), with
# --runtime mock the figures are the mock's; the JSON report names the
# source and has no measured peak. Bad budgets and unreadable models are one
# message, not a traceback.

import json
import os
import re
import subprocess
import sys

model, scratch = sys.argv[1], sys.argv[2]


def run(*args):
    completed = subprocess.run([sys.executable, "-m", "memsched.run", model]
                               + list(args), capture_output=True, text=True)
    return completed


launches = {}
for mode in ["--emulate", "--runtime=mock"]:
    path = os.path.join(scratch, mode.strip("-").split("=")[0] + ".json")
    completed = run(mode, "--budget", "0.9x", "--json", path)
    for line in completed.stdout.splitlines():
        if re.search(r"device peak|launches", line):
            print(mode, line.strip())
    report = json.load(open(path))
    launches[mode] = report["launches"]
    print(mode, "json", report["device_peak_source"],
          report["launches_source"], report["measured_device_peak_bytes"],
          report["device_peak_bytes"] == report["planned_device_bytes"])
# CHECK: --emulate device peak (emulated) {{.*}} bytes)
# CHECK-NEXT: --emulate launches (emulated) {{[1-9][0-9]*}}
# CHECK-NEXT: --emulate json emulated emulated None True
# CHECK-NEXT: --runtime=mock device peak (mock) {{.*}} bytes)
# CHECK-NEXT: --runtime=mock kernel launches (mock) {{[1-9][0-9]*}}
# CHECK-NEXT: --runtime=mock json mock mock None True
# CHECK-NEXT: same launches True
print("same launches", launches["--emulate"] == launches["--runtime=mock"])

for args in [("--emulate", "--budget", "0.8"),
             ("--emulate", "--budget", "12 parsecs")]:
    completed = run(*args)
    print("rc=%d traceback=%s | %s" % (completed.returncode,
                                       "Traceback" in completed.stderr,
                                       completed.stderr.strip()))
# CHECK-NEXT: rc=2 traceback=False | memsched.run: error: budget '0.8' is not a whole number of bytes; write '0.8x'
# CHECK-NEXT: rc=2 traceback=False | memsched.run: error: unknown budget unit 'parsecs'
model = os.path.join(scratch, "missing.mlir.gz")
completed = run("--emulate")
# CHECK-NEXT: rc=2 traceback=False | memsched.run: error: cannot read {{.*}}missing.mlir.gz: No such file or directory
print("rc=%d traceback=%s | %s" % (completed.returncode,
                                   "Traceback" in completed.stderr,
                                   completed.stderr.strip()))
