#!/usr/bin/env python3
"""memsched-optimize with a budget: planning the input's order too, against
reordering first.

    python3 bench/fit_orders.py [--opt build/bin/memsched-opt]
        [--models resnet18 vgg11 ...] [--budgets min 0.5x 0.7x]
        [--accumulated gpt]

For each model (bench/models/*.mlir.gz) and budget, in one run:
  reorder first  memsched-reorder, then memsched-fit (what memsched-optimize
                 ran before memsched-fit planned both orders);
  optimize       memsched-optimize (memsched-fit with reorder=auto: the
                 function planned reordered and in its own order, the better
                 kept);
each with memsched-report's planned_bytes (or the smallest reachable
footprint where the budget is not met), the modelled step time, and the
wall time of memsched-opt on this machine. `--accumulated` adds, for the
models named, the step with its gradients accumulated into arguments
(acc += grad after the step, as a loop body of gradient accumulation has).
"""

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "python", "Inputs"))
from random_programs import accumulate_into_arguments  # noqa: E402

SMALLEST = re.compile(r"smallest reachable footprint is [^(]*\((\d+) B")


def measure(binary, path, passes):
    started = time.time()
    result = subprocess.run(
        [binary, path, "-mlir-print-op-on-diagnostic=false"] + passes +
        ["-memsched-report=format=json", "-o", os.devnull],
        capture_output=True, text=True)
    wall = time.time() - started
    if result.returncode != 0:
        match = SMALLEST.search(result.stderr)
        return {"met": False, "bytes": int(match.group(1)) if match else None,
                "wall_s": wall}
    report = json.loads(result.stdout[result.stdout.index("{"):])
    function = report["functions"][0]
    return {"met": True, "bytes": function["planned_bytes"],
            "time_s": function["modeled_time_s"], "wall_s": wall}


def cell(row):
    if row["bytes"] is None:
        return "error | - | %.1f" % row["wall_s"]
    if not row["met"]:
        return "not met (smallest %.1f MiB) | - | %.1f" % (
            row["bytes"] / 2 ** 20, row["wall_s"])
    return "%.1f MiB | %.4f | %.1f" % (row["bytes"] / 2 ** 20, row["time_s"],
                                       row["wall_s"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default="build/bin/memsched-opt")
    parser.add_argument("--models", nargs="*",
                        default=["resnet18", "vgg11", "mobilenet_v2",
                                 "resnet50", "gpt"])
    parser.add_argument("--budgets", nargs="*", default=["min", "0.5x",
                                                        "0.7x"])
    parser.add_argument("--accumulated", nargs="*", default=["gpt"])
    args = parser.parse_args()
    print("| model | budget | reorder first: planned | time (s) | wall (s) "
          "| optimize: planned | time (s) | wall (s) |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        cases = [(name, False) for name in args.models] + \
            [(name, True) for name in args.accumulated]
        for name, accumulate in cases:
            with gzip.open(os.path.join(ROOT, "bench", "models",
                                        name + ".mlir.gz"), "rt") as handle:
                text = handle.read()
            if accumulate:
                text = accumulate_into_arguments(subprocess.run(
                    [args.opt, "-"], input=text, capture_output=True,
                    text=True, check=True).stdout)
                name += " (accumulated)"
            path = os.path.join(directory, "model.mlir")
            with open(path, "w") as handle:
                handle.write(text)
            for budget in args.budgets:
                first = measure(args.opt, path, [
                    "-memsched-reorder", "-memsched-fit=budget=" + budget])
                both = measure(args.opt, path,
                               ["-memsched-optimize=budget=" + budget])
                print("| %s | %s | %s | %s |" % (name, budget, cell(first),
                                                 cell(both)))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
