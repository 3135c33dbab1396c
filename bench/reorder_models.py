#!/usr/bin/env python3
"""Peak memory after memsched-reorder on MLIR models, against the program
order, every XLA and Inductor heuristic and the lower bound; and the pass's
compile time on synthetic functions of 1k, 10k and 100k ops.

Usage: python3 bench/reorder_models.py [--opt build/bin/memsched-opt]
       [--models examples/*.mlir bench/models/*.mlir] [--sizes 1000,10000,100000]

Every candidate comes from one run of `memsched-reorder` (algorithm=auto
evaluates all of them on the same graph) followed by `memsched-report`;
peaks are resident + peak transient bytes of the memory model. The compile
time is the wall time of the MemschedReorderPass alone from MLIR's pass
timing (threading disabled), best of --repeat runs.
"""

import argparse
import glob
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tensorgraph_scaling import make_function, time_pass  # noqa: E402

HEURISTICS = ["postorder", "xla-list", "xla-dfs", "inductor-lpmf",
              "inductor-bfs", "inductor-dfs"]


def reorder_figures(opt, path, time_limit_ms):
    completed = subprocess.run(
        [opt, path, "-mlir-print-op-on-diagnostic=false",
         "--memsched-reorder=time-limit-ms=%d" % time_limit_ms,
         "--memsched-report=format=json", "-o", "/dev/null"],
        capture_output=True, text=True, check=True)
    report = json.loads(completed.stdout)
    return [f for f in report["functions"] if "reorder" in f]


def time_reorder(opt, path, repeat):
    return min(time_pass(opt, path, "--memsched-reorder",
                         "MemschedReorderPass") for _ in range(repeat))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default="build/bin/memsched-opt")
    parser.add_argument("--models", nargs="*")
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit-ms", type=int, default=2000)
    args = parser.parse_args()
    models = args.models or sorted(glob.glob("examples/*.mlir") +
                                   glob.glob("bench/models/*.mlir"))

    print("## Peak after reordering (resident + transient bytes; ratio = "
          "program / algorithm, higher is better)\n")
    columns = ["program"] + HEURISTICS + ["xla", "inductor", "auto"]
    print("| model | ops | program bytes | " + " | ".join(columns[1:]) +
          " | auto bytes | lower bound | auto / LB | chosen | optimal | "
          "solve ms |")
    print("|---|---:|---:|" + "---:|" * (len(columns) - 1) +
          "---:|---:|---:|---|---|---:|")
    ratios = []
    for path in models:
        for function in reorder_figures(args.opt, path, args.time_limit_ms):
            reorder = function["reorder"]
            candidates = reorder["candidates"]
            program = candidates["program"]
            peaks = dict(candidates)
            peaks["xla"] = min(candidates[n] for n in
                               ["postorder", "xla-list", "xla-dfs"])
            peaks["inductor"] = min(candidates[n] for n in
                                    ["program", "inductor-lpmf",
                                     "inductor-bfs", "inductor-dfs"])
            peaks["auto"] = reorder["peak_after_bytes"]
            cells = ["%.3f" % (program / peaks[name]) for name in columns[1:]]
            ratios.append(program / peaks["auto"])
            print("| %s @%s | %d | %d | %s | %d | %d | %.3f | %s | %s | %.1f |"
                  % (os.path.basename(path), function["name"],
                     function["ops"], program, " | ".join(cells),
                     peaks["auto"], reorder["lower_bound_bytes"],
                     peaks["auto"] / reorder["lower_bound_bytes"],
                     reorder["chosen"], reorder["optimal"],
                     reorder["solve_time_ms"]))
    if ratios:
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print("\nGeomean program / auto over %d functions: %.3fx" %
              (len(ratios), geomean))

    print("\n## memsched-reorder compile time (algorithm=auto, default "
          "2 s limit)\n")
    print("| ops | pass time | per op |")
    print("|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as directory:
        for size in [int(s) for s in args.sizes.split(",")]:
            path = os.path.join(directory, "synthetic_%d.mlir" % size)
            with open(path, "w") as f:
                f.write(make_function(size))
            seconds = time_reorder(args.opt, path, args.repeat)
            print("| %d | %.3f s | %.2f us |" % (size, seconds,
                                                  seconds / size * 1e6))


if __name__ == "__main__":
    main()
