#!/usr/bin/env python3
"""Gradient accumulation: a training step run over micro-batches in an
scf.for, against the same step run once.

Usage: python3 bench/accumulation.py [--opt build/bin/memsched-opt]
       [--models mlp_train_step cnn_train_step resnet18 ...] [--trips 4]

Each model's `@train_step` (examples/*.mlir, bench/models/*.mlir.gz) is
wrapped in a loop of `--trips` iterations whose carried values are the
step's results, each iteration adding its loss and gradients to them
(linalg.add in place): gradient accumulation over micro-batches, here the
same micro-batch each time (memory does not depend on the values). For the
step and for the loop, in one run:
  model      planned_bytes of memsched-report (what a budget bounds);
  all        every allocation one-shot bufferization makes, summed: what a
             loop body holds when its buffers are freed only at the end of
             each iteration (deallocation's rule, and memsched's body rule
             before bodies were planned);
  planned    the arena of memsched-plan-buffers plus the allocations it
             leaves alone (after memsched-inplace and bufferization), as
             memsched-to-cpu-pipeline allocates; and the same with
             memsched-reorder first (which reorders the loop's body).
The loop should hold about what the step does (plus its accumulators):
loop planned / step planned near 1, where all-at-once is far above.

With --remat, two more columns: the smallest footprint memsched-remat
reaches (budget=min) on the step, and on the loop after memsched-reorder,
where the budget driver plans inside the loop's body (recomputation only:
swaps stay outside bodies); the loop's figure includes the accumulators
the step returns, so the two are comparable.
"""

import argparse
import gzip
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "python", "Inputs"))
from planning_models import BUFFERIZE, alloc_bytes  # noqa: E402
from random_programs import accumulate  # noqa: E402


def read_model(name):
    example = os.path.join(ROOT, "examples", name + ".mlir")
    if os.path.exists(example):
        with open(example) as handle:
            return handle.read()
    with gzip.open(os.path.join(ROOT, "bench", "models", name + ".mlir.gz"),
                   "rt") as handle:
        return handle.read()


def opt(binary, path, arguments):
    return subprocess.run([binary, path, "-mlir-print-op-on-diagnostic=false"]
                          + arguments, capture_output=True, text=True,
                          check=True).stdout


def planned_bytes(binary, path, first):
    """Arena + unplanned allocations after `first`, memsched-inplace,
    bufferization and memsched-plan-buffers (checked by the verifier)."""
    planned_ir = opt(binary, path, first + [
        "--memsched-inplace", BUFFERIZE, "--memsched-plan-buffers",
        "--test-memsched-verify-plan"])
    arena = sum(int(m) for m in re.findall(r"arena_bytes = (\d+)",
                                           planned_ir))
    return arena + alloc_bytes(re.sub(r".*memsched\.arena.*\n", "",
                                      planned_ir))


def measure(binary, path, reorder):
    report = opt(binary, path, ["-memsched-report=format=json", "-o",
                                "/dev/null"])
    model = int(re.search(r'"planned_bytes": (\d+)', report).group(1))
    everything = alloc_bytes(opt(binary, path, ["--memsched-inplace",
                                                BUFFERIZE]))
    return (model, everything, planned_bytes(binary, path, []),
            planned_bytes(binary, path, ["--memsched-reorder"])
            if reorder else None)


def remat_min(binary, path, first):
    """planned_bytes after `first` and memsched-remat=budget=min."""
    report = opt(binary, path, first + ["--memsched-remat=budget=min",
                                        "-memsched-report=format=json",
                                        "-o", "/dev/null"])
    return int(re.search(r'"planned_bytes": (\d+)', report).group(1))


def mib(value):
    return "%.1f" % (value / 2**20) if value >= 2**20 else "%.3f" % (
        value / 2**20)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default="build/bin/memsched-opt")
    parser.add_argument("--models", nargs="*",
                        default=["mlp_train_step", "cnn_train_step",
                                 "resnet18", "vgg11"])
    parser.add_argument("--trips", type=int, default=4)
    parser.add_argument("--remat", action="store_true",
                        help="also the smallest footprint of memsched-remat "
                        "on the step and on the loop")
    args = parser.parse_args()
    print("| model | step: model / all / planned (MiB) | loop of %d: model / "
          "all / planned (MiB) | loop planned / step planned | loop all / "
          "loop planned | loop planned <= model | loop planned after "
          "memsched-reorder (MiB) |%s" % (
              args.trips, " remat min: step / loop (MiB) | loop / step |"
              if args.remat else ""))
    print("|---|---|---|---:|---:|---|---:|" +
          ("---:|---:|" if args.remat else ""))
    with tempfile.TemporaryDirectory() as directory:
        for name in args.models:
            source = os.path.join(directory, name + "_source.mlir")
            with open(source, "w") as handle:
                handle.write(read_model(name))
            # Printed by memsched-opt: one op per line.
            text = opt(args.opt, source, [])
            step = os.path.join(directory, name + ".mlir")
            loop = os.path.join(directory, name + "_loop.mlir")
            with open(step, "w") as handle:
                handle.write(text)
            with open(loop, "w") as handle:
                handle.write(accumulate(text, args.trips))
            s = measure(args.opt, step, reorder=False)
            l = measure(args.opt, loop, reorder=True)
            extra = ""
            if args.remat:
                step_min = remat_min(args.opt, step, [])
                loop_min = remat_min(args.opt, loop, ["--memsched-reorder"])
                extra = " %s / %s | %.3f |" % (mib(step_min), mib(loop_min),
                                               loop_min / step_min)
            print("| %s | %s / %s / %s | %s / %s / %s | %.3f | %.2fx | %s "
                  "| %s |%s"
                  % (name, mib(s[0]), mib(s[1]), mib(s[2]), mib(l[0]),
                     mib(l[1]), mib(l[2]), l[2] / s[2], l[1] / l[2],
                     "yes" if l[2] <= l[0] else "NO", mib(l[3]), extra),
                  flush=True)


if __name__ == "__main__":
    main()
