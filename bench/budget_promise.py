#!/usr/bin/env python3
"""The budget as a promise on the zoo: every budget pass at 0.3x-0.9x.

    PYTHONPATH=build/python_packages python3 bench/budget_promise.py
        [--models NAME...] [--budgets 0.3 0.5 ...] [--passes optimize ...]

For each model of bench/models and each budget it runs memsched-optimize
(and, with --passes, memsched-remat / memsched-swap / memsched-fit, or
`offload`: memsched-optimize with offload=params,grads,inputs) with
`budget=<f>x device=h100`, then canonicalize and cse, and measures with
memsched-report: planned bytes after the pass and after cleanup against
the budget, the lever chosen, the modelled time against the unplanned step,
the smallest reachable footprint for unmet budgets, the floor no plan goes
below (memsched-report's floor_bytes, of the function as the pass left it,
or of the input when the budget was out of reach), and the wall-clock time
of the pass (this machine). Prints a Markdown table; progress on stderr.
"""

import argparse
import gzip
import os
import re
import sys
import time

import memsched

HERE = os.path.dirname(os.path.abspath(__file__))
PIPELINES = {
    "optimize": "memsched-optimize{budget=%s device=h100}",
    # The state and the batch may stay in host memory: the promise counts
    # the device alone.
    "offload": "memsched-optimize{budget=%s offload=params,grads,inputs "
               "device=h100}",
    "fit": "func.func(memsched-fit{budget=%s device=h100})",
    "remat": "func.func(memsched-remat{budget=%s device=h100})",
    "swap": "func.func(memsched-swap{budget=%s device=h100})",
}
SMALLEST = re.compile(r"smallest reachable footprint is [^(]*\((\d+) B")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="*", default=[
        "resnet18", "resnet50", "mobilenet_v2", "vgg11", "vit_b_16", "gpt",
        "lstm"])
    parser.add_argument("--budgets", nargs="*", type=float,
                        default=[0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
    parser.add_argument("--passes", nargs="*", default=["optimize"])
    args = parser.parse_args()
    start = time.time()
    print("| model | pass | budget | met | planned / budget | after cleanup"
          " / budget | lever | time / unplanned | smallest / input | floor /"
          " input | pass s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    violations = 0
    for model in args.models:
        with gzip.open(os.path.join(HERE, "models", model + ".mlir.gz"),
                       "rt") as handle:
            text = handle.read()
        base = memsched.analyze(text, device="h100",
                                timeline=False)["functions"][0]
        for kind in args.passes:
            for fraction in args.budgets:
                budget = int(fraction * base["planned_bytes"])
                began = time.time()
                try:
                    output = memsched.run_pipeline(
                        text, PIPELINES[kind] % ("%gx" % fraction))
                except memsched.MLIRError as error:
                    seconds = time.time() - began
                    match = SMALLEST.search(str(error))
                    smallest = (int(match.group(1)) / base["planned_bytes"]
                                if match else float("nan"))
                    print("| %s | %s | %gx | no | | | | | %.3f | %.3f | %.1f |"
                          % (model, kind, fraction, smallest,
                             base["floor_bytes"] / base["planned_bytes"],
                             seconds), flush=True)
                    continue
                seconds = time.time() - began
                after = memsched.analyze(output, timeline=False)[
                    "functions"][0]
                cleaned = memsched.analyze(
                    memsched.run_pipeline(output, "canonicalize,cse"),
                    timeline=False)["functions"][0]
                violations += (after["planned_bytes"] > budget or
                               cleaned["planned_bytes"] > budget)
                print("| %s | %s | %gx | yes | %.4f | %.4f | %s | %.3f | |"
                      " %.3f | %.1f |" % (
                          model, kind, fraction,
                          after["planned_bytes"] / budget,
                          cleaned["planned_bytes"] / budget,
                          after.get("fit", {}).get("chosen", "?"),
                          after["modeled_time_s"] / base["modeled_time_s"],
                          after["floor_bytes"] / base["planned_bytes"],
                          seconds), flush=True)
                print("[%6.0f s] %s %s %gx" % (time.time() - start, model,
                                                  kind, fraction),
                      file=sys.stderr, flush=True)
    print("\nbudget violations: %d" % violations)


if __name__ == "__main__":
    main()
