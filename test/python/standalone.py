# RUN: %PYTHON %s %examples %t | FileCheck %s
# Tests memsched.standalone: programs built as executables that need no MLIR
# where they run print what mlir-runner prints. The CPU pipeline's program
# needs no runtime; the GPU pipeline's, with kernels emulated on the host,
# runs on the mock GPU runtime placed beside it, with results bit-identical
# to the CPU and the device high-water mark equal to the plan. This is the
# path `bench/gpu/measure.py --prepare/--run` takes to a GPU machine.

import os
import subprocess
import sys

import memsched.run as runner
import memsched.standalone as standalone
from memsched.outputs import make_report

examples, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
model = os.path.join(examples, "cnn_train_step.mlir")
args = runner.build_parser().parse_args(
    [model, "--emulate", "--budget", "0.9x"])
program = runner.lower(args)

# The CPU reference, built and run standalone, prints what mlir-runner
# prints.
reference = os.path.join(work, "reference")
standalone.build_executable(program["reference_ir"], reference)
built = subprocess.run([reference], capture_output=True, text=True,
                       check=True).stdout
by_runner = runner._run_lowered(
    runner._llvm_tool("mlir-runner"), program["reference_ir"],
    [os.path.join("/usr/lib/llvm-22/lib", name) for name in
     ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]],
    dict(os.environ), "mlir-runner").stdout
# CHECK: cpu program: same output as mlir-runner: True, results: 7
print("cpu program: same output as mlir-runner: %s, results: %d" % (
    built == by_runner, built.count("memsched-result")))

# The device program with emulated kernels on the mock runtime, found
# beside the executable.
device = os.path.join(work, "device")
standalone.build_executable(program["lowered"], device,
                            runner.find_runtime("mock"))
completed = subprocess.run([device], capture_output=True, text=True,
                           check=True)
report = make_report(args, program, completed.stdout, completed.stderr,
                     built)
# CHECK: device program: identical True, peak = plan True
print("device program: identical %s, peak = plan %s" % (
    report["check"]["identical"], report["peak_matches_plan"]))

# A program that does not translate is a BuildError naming the tool.
try:
    standalone.build_executable("this is not MLIR", os.path.join(work, "x"))
except standalone.BuildError as error:
    # CHECK: BuildError: mlir-translate failed
    print("BuildError: %s" % str(error).splitlines()[0].split(" (")[0])
