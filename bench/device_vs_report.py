#!/usr/bin/env python3
"""The device arena against the report's planned bytes, without a GPU.

    PYTHONPATH=build/python_packages python3 bench/device_vs_report.py
        [--budgets none min 0.8x] [FILE:FUNC ...]
    ... bench/device_vs_report.py --fuzz-seeds 14400-14700 [--kind K]

For each program (default: the three examples) and budget it runs
`python3 -m memsched.run --emulate` (the device pipeline, kernels emulated
on the host) and `memsched-report` on the same program after
memsched-optimize with that budget, and prints the device memory the
lowered function plans (`memsched.device`: resident + arena, which the
emulated and the real runs measure as the high-water mark) beside the
report's `planned_bytes`, the figure a budget bounds. A ratio above 1 is
device memory the report does not promise. Prints a Markdown table.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import memsched

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXAMPLES = ["examples/mlp_train_step.mlir:train_step",
            "examples/cnn_train_step.mlir:train_step",
            "examples/chain_mlp_train_step.mlir:train_step"]


def report_planned(text, func, budget):
    """planned_bytes of `func` after memsched-optimize with `budget`."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        steps = []
        if budget != "none":
            steps.append("memsched-optimize{budget=%s device=h100}" % budget)
        steps.append("memsched-report{format=json output=%s}" % out.name)
        memsched.run_pipeline(text, "builtin.module(%s)" % ",".join(steps))
        report = json.load(open(out.name))
    for function in report["functions"]:
        if function["name"] == func:
            return function["planned_bytes"]
    raise SystemExit("no function %s in the report" % func)


def device_planned(path, func, budget):
    """The lowered function's planned device bytes, from memsched.run;
    None where it fails (an unreachable budget)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [sys.executable, "-m", "memsched.run", path, "--func", func,
                   "--emulate", "--json", out.name]
        if budget != "none":
            command += ["--budget", budget]
        completed = subprocess.run(command, capture_output=True, text=True)
        if completed.returncode != 0:
            return None
        return json.load(open(out.name))["planned_device_bytes"]


def fuzz_summary(args):
    """Over the small fuzzed programs of --fuzz-seeds (at most --max-ops
    ops, as the fuzzer's device runs): how often the device holds more than
    the report plans, and by how much."""
    sys.path.insert(0, HERE)
    import fuzz
    low, high = (int(x) for x in args.fuzz_seeds.split("-"))
    compared, above, not_lowered, worst = 0, [], 0, (1.0, None)
    with tempfile.TemporaryDirectory() as directory:
        for seed in range(low, high + 1):
            _, text, entry, kind = fuzz.generate(seed)
            if args.kind and kind != args.kind:
                continue
            if fuzz.op_count(text) > args.max_ops:
                continue
            path = os.path.join(directory, "seed%d.mlir" % seed)
            with open(path, "w") as handle:
                handle.write(text)
            for budget in args.budgets:
                device = device_planned(path, entry, budget)
                if device is None:
                    not_lowered += 1
                    continue
                planned = report_planned(text, entry, budget)
                compared += 1
                ratio = device / planned
                if ratio > 1:
                    above.append("%d/%s %.3f" % (seed, budget, ratio))
                if ratio > worst[0]:
                    worst = (ratio, "%d/%s" % (seed, budget))
    print("seeds %s%s: %d runs compared, %d not lowered; device above the "
          "report in %d (%.1f%%)%s" % (
              args.fuzz_seeds, " (%s)" % args.kind if args.kind else "",
              compared, not_lowered, len(above),
              100.0 * len(above) / max(compared, 1),
              ", worst %.3f (seed %s)" % worst if worst[1] else ""))
    for entry in above:
        print("  above: " + entry)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("programs", nargs="*", default=EXAMPLES)
    parser.add_argument("--budgets", nargs="*", default=["none", "min"])
    parser.add_argument("--fuzz-seeds", metavar="A-B",
                        help="instead of programs: bench/fuzz.py's programs "
                        "of these seeds, summarized")
    parser.add_argument("--kind", help="with --fuzz-seeds: only this kind")
    parser.add_argument("--max-ops", type=int, default=40,
                        help="with --fuzz-seeds: at most this many ops")
    args = parser.parse_args()
    if args.fuzz_seeds:
        return fuzz_summary(args)
    print("| program | budget | device (resident + arena) | report planned | "
          "device / report |")
    print("|---|---|---:|---:|---:|")
    for program in args.programs:
        path, func = program.rsplit(":", 1)
        path = path if os.path.isabs(path) else os.path.join(ROOT, path)
        text = open(path).read()
        for budget in args.budgets:
            device = device_planned(path, func, budget)
            if device is None:
                print("| %s | %s | not lowered (budget out of reach?) | | |"
                      % (os.path.basename(path), budget))
                continue
            planned = report_planned(text, func, budget)
            print("| %s | %s | %d | %d | %.4f |" % (
                os.path.basename(path), budget, device, planned,
                device / planned))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
