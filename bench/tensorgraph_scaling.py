#!/usr/bin/env python3
"""Times TensorGraph construction + memory and time simulation on synthetic
functions of 1k, 10k and 100k ops (memsched-report, one thread).

Usage: python3 bench/tensorgraph_scaling.py [--opt build/bin/memsched-opt]
       [--sizes 1000,10000,100000] [--repeat 3]

The synthetic function is a residual-style DAG: every other op is a
tensor.empty, the rest are linalg.add ops reading the previous value and a
random earlier one (seeded), so buffers have long and short lifetimes. The
figure reported is the wall time of the memsched-report pass alone, from
MLIR's own pass timing (--mlir-timing), best of --repeat runs; parsing and
printing are excluded.
"""

import argparse
import os
import random
import re
import subprocess
import tempfile


def make_function(num_ops, seed=0):
    rng = random.Random(seed)
    lines = ["func.func @synthetic(%x: tensor<256xf32>) -> tensor<256xf32> {"]
    values = ["%x"]
    for index in range(num_ops // 2):
        a = values[-1]
        b = values[max(0, len(values) - 1 - rng.randint(0, 64))]
        lines.append("  %%e%d = tensor.empty() : tensor<256xf32>" % index)
        lines.append(
            "  %%v%d = linalg.add ins(%s, %s : tensor<256xf32>, "
            "tensor<256xf32>) outs(%%e%d : tensor<256xf32>) -> "
            "tensor<256xf32>" % (index, a, b, index))
        values.append("%%v%d" % index)
    lines.append("  return %s : tensor<256xf32>" % values[-1])
    lines.append("}")
    return "\n".join(lines) + "\n"


def time_pass(opt, path, pass_flag, pass_class):
    """Wall time of one pass (`pass_class` in MLIR's timing list) when
    memsched-opt runs `pass_flag` on `path` with threading disabled."""
    completed = subprocess.run(
        [opt, path, "--mlir-disable-threading", "--mlir-timing",
         "--mlir-timing-display=list", "-mlir-print-op-on-diagnostic=false",
         pass_flag, "-o", "/dev/null"],
        capture_output=True, text=True, check=True)
    for line in completed.stderr.splitlines():
        if pass_class in line:
            return float(re.search(r"([0-9.]+)\s*\(", line).group(1))
    raise RuntimeError("no timing line for %s:\n%s" %
                       (pass_class, completed.stderr))


def time_report(opt, path):
    return time_pass(opt, path,
                     "--memsched-report=format=json output=/dev/null",
                     "MemschedReportPass")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default="build/bin/memsched-opt")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| ops | memsched-report (TensorGraph + simulation) | per op |")
    print("|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch:
        for size in [int(s) for s in args.sizes.split(",")]:
            path = os.path.join(scratch, "synthetic_%d.mlir" % size)
            with open(path, "w") as handle:
                handle.write(make_function(size))
            best = min(time_report(args.opt, path)
                       for _ in range(args.repeat))
            print("| %d | %.3f s | %.2f us |" % (size, best,
                                                 best / size * 1e6))


if __name__ == "__main__":
    main()
