"""Run functions on CPU and compare two programs bit for bit.

Uses ``memsched-exec-harness`` + ``memsched-to-cpu-pipeline`` through the
native module, then ``mlir-runner`` (from LLVM 22) to execute.
"""

import os
import shutil
import subprocess

from . import run_pipeline

_LLVM_DIR_CANDIDATES = [os.environ.get("MEMSCHED_LLVM_TOOLS_DIR", ""),
                        "/usr/lib/llvm-22/bin"]


def _llvm_tool(name):
    for directory in _LLVM_DIR_CANDIDATES:
        if directory and os.path.exists(os.path.join(directory, name)):
            return os.path.join(directory, name)
    found = shutil.which(name)
    if not found:
        raise FileNotFoundError("cannot find %s (install mlir-22-tools)" % name)
    return found


def run_on_cpu(text, func="train_step", seed=0):
    """Runs ``func`` of module ``text`` on deterministic inputs.

    Returns a list of results, each a list of the integers that are the bit
    patterns of its elements (floats bitcast to integers), in order.
    """
    lowered = run_pipeline(
        text, "memsched-exec-harness{func=%s seed=%d},memsched-to-cpu-pipeline"
        % (func, seed))
    runner = _llvm_tool("mlir-runner")
    lib_dir = os.path.join(os.path.dirname(os.path.dirname(runner)), "lib")
    libs = ",".join(os.path.join(lib_dir, name) for name in
                    ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"])
    completed = subprocess.run(
        [runner, "-e", "memsched_main", "-entry-point-result=void",
         "-shared-libs=" + libs], input=lowered, capture_output=True,
        text=True, check=False)
    if completed.returncode != 0:
        raise RuntimeError("mlir-runner failed:\n" + completed.stderr)
    results = []
    for line in completed.stdout.splitlines():
        if line.startswith("memsched-result"):
            results.append([])
        elif line.strip():
            results[-1].append(int(line))
    return results


def compare_on_cpu(original, transformed, func="train_step", seed=0):
    """Returns None when both programs give bit-identical results, else a
    message naming the first result and element that differ."""
    first = run_on_cpu(original, func, seed)
    second = run_on_cpu(transformed, func, seed)
    if len(first) != len(second):
        return "different number of results: %d vs %d" % (len(first),
                                                         len(second))
    for index, (a, b) in enumerate(zip(first, second)):
        if len(a) != len(b):
            return "result %d: %d vs %d elements" % (index, len(a), len(b))
        for element, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return "result %d element %d: bits %d vs %d" % (index,
                                                                 element, x, y)
    return None
