#!/usr/bin/env python3
"""In-place reuse and buffer sharing on MLIR models: bytes allocated with one
buffer per tensor (one-shot bufferization alone) against memsched-inplace +
memsched-plan-buffers (one arena plus the buffers that escape).

Usage: python3 bench/planning_models.py [--opt build/bin/memsched-opt]
       [--models examples/*.mlir bench/models/*.mlir]

For each model, in one run per configuration:
  no sharing   sum of the sizes of every memref.alloc after one-shot
               bufferization (function boundaries, identity layouts): what a
               program that gives every tensor its own buffer holds at once
               in the worst case;
  + in-place   the same after memsched-inplace;
  planned      arena bytes of memsched-plan-buffers (after in-place) plus
               the allocations it leaves alone (returned values);
  max live     max-live of the planned buffers (no planner can do better);
and the ratios no sharing / planned and arena / max live.
"""

import argparse
import glob
import math
import os
import re
import subprocess

BUFFERIZE = ("--one-shot-bufferize=bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map")
ELEMENT_BYTES = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2, "i64": 8, "i32": 4,
                 "i16": 2, "i8": 1, "i1": 1, "index": 8}


def alloc_bytes(ir):
    total = 0
    for match in re.finditer(
            r"= memref\.alloc\(\)(?: \{[^}]*\})? : memref<([^>]*)>", ir):
        parts = match.group(1).split(",")[0].split("x")
        count = 1
        for dim in parts[:-1]:
            count *= int(dim)
        total += count * ELEMENT_BYTES[parts[-1].strip()]
    return total


def run(opt, path, passes):
    return subprocess.run([opt, path, "-mlir-print-op-on-diagnostic=false"] +
                          passes, capture_output=True, text=True,
                          check=True).stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default="build/bin/memsched-opt")
    parser.add_argument("--models", nargs="*")
    args = parser.parse_args()
    models = args.models or sorted(glob.glob("examples/*.mlir") +
                                   glob.glob("bench/models/*.mlir"))
    print("| model | no sharing | + in-place | planned (arena + escaping) | "
          "max live | no sharing / planned | arena / max live | "
          "with memsched-reorder first | no sharing / that |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    ratios = []
    for path in models:
        plain = alloc_bytes(run(args.opt, path, [BUFFERIZE]))
        inplace = alloc_bytes(run(args.opt, path,
                                  ["--memsched-inplace", BUFFERIZE]))
        planned_ir = run(args.opt, path, ["--memsched-inplace", BUFFERIZE,
                                          "--memsched-plan-buffers",
                                          "--test-memsched-verify-plan"])
        arena = sum(int(m) for m in
                    re.findall(r"arena_bytes = (\d+)", planned_ir))
        max_live = sum(int(m) for m in
                       re.findall(r"max_live_bytes = (\d+)", planned_ir))
        # Allocations the planner left alone (not the arena itself).
        unplanned = alloc_bytes(re.sub(r".*memsched\.arena.*\n", "",
                                       planned_ir))
        total = arena + unplanned
        reordered_ir = run(args.opt, path, ["--memsched-reorder",
                                            "--memsched-inplace", BUFFERIZE,
                                            "--memsched-plan-buffers",
                                            "--test-memsched-verify-plan"])
        reordered = sum(int(m) for m in
                        re.findall(r"arena_bytes = (\d+)", reordered_ir))
        reordered += alloc_bytes(re.sub(r".*memsched\.arena.*\n", "",
                                        reordered_ir))
        ratios.append(plain / reordered)
        print("| %s | %d | %d | %d (%d + %d) | %d | %.2fx | %.4f | %d | "
              "%.2fx |" %
              (os.path.basename(path), plain, inplace, total, arena,
               unplanned, max_live, plain / total,
               arena / max_live if max_live else 1.0, reordered,
               plain / reordered))
    if ratios:
        print("\nGeomean no sharing / (reorder + in-place + planned): %.2fx "
              "over %d models" %
              (math.exp(sum(map(math.log, ratios)) / len(ratios)),
               len(ratios)))


if __name__ == "__main__":
    main()
