"""memsched-remat on the model zoo: for each model and budget (a fraction of
the planned bytes before memsched, as `budget=0.5x` means), the plans of
`auto` (ours) and of the baselines Chen et al.'s segments (`chen`, segment
count searched from sqrt(n)), PyTorch's checkpoint_sequential
(`sequential`, round(sqrt(n)) segments) and `auto` with `recompute-once=1`
(the smaller plan space of earlier versions: each value recomputed at most
once, at its first late reader), side by side: the modelled peak and the
planned bytes (memsched-report), the modelled recompute time as a fraction
of the modelled step time, the ratio of a baseline's recompute time to ours
at the same budget, and the wall-clock time of the pass (this machine).
Where a budget is out of reach, the smallest reachable footprint the pass
reported.

Usage: python3 bench/remat_models.py [--build build] [--models a,b]
       [--fractions 0.9,0.8,0.7,0.6,0.5,0.4,0.3]
"""
import argparse
import json
import os
import re
import subprocess
import tempfile
import time

import zoo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ["resnet18", "resnet50", "mobilenet_v2", "vgg11", "vit_b_16", "gpt",
          "lstm"]
FRACTIONS = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3]
SMALLEST = re.compile(r"smallest reachable footprint is [^(]*\((\d+) B")


def run(opt, path, args):
    command = [opt, path, "-mlir-print-op-on-diagnostic=false"] + args + [
        "-memsched-report=format=json", "-o", os.devnull]
    done = subprocess.run(command, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def mib(value):
    return f"{value / 2**20:.1f}"


def remat(opt, path, fraction, algorithm, step, options=""):
    """One memsched-remat run: a dict of figures, or the smallest reachable
    footprint."""
    start = time.perf_counter()
    code, out, err = run(opt, path, [
        f"-memsched-remat=budget={fraction}x algorithm={algorithm}"
        f"{' ' + options if options else ''}"])
    seconds = time.perf_counter() - start
    if code != 0:
        match = SMALLEST.search(err)
        return {"met": False,
                "smallest": mib(int(match.group(1))) if match else "?"}
    function = json.loads(out)["functions"][0]
    report = function["remat"]
    return {"met": True, "peak": function["peak_bytes"],
            "planned": function["planned_bytes"],
            "chosen": report["algorithm"],
            "extra": report["recompute_time_s"] / step,
            "ops": report["recomputed_ops"], "solve": seconds * 1e3}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--fractions",
                        default=",".join(str(f) for f in FRACTIONS))
    options = parser.parse_args()
    opt = os.path.join(options.build, "bin", "memsched-opt")
    fractions = [float(f) for f in options.fractions.split(",")]
    print("| model | budget | ours (auto): peak / planned (MiB) | "
          "ours: recompute / step | ours: ops | ours: pass (ms) | "
          "chen: recompute / step | chen / ours | "
          "sequential: recompute / step | sequential / ours | "
          "recompute-once: recompute / step | recompute-once / ours |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        for model in options.models.split(","):
            path = zoo.unpack(model, scratch)
            _, base, _ = run(opt, path, [])
            function = json.loads(base)["functions"][0]
            step = function["modeled_time_s"]
            planned = function["planned_bytes"]
            print(f"| {model} | 1.0x | {mib(function['peak_bytes'])} / "
                  f"{mib(planned)} | 0 | 0 | | | | | | | |")
            for fraction in fractions:
                ours = remat(opt, path, fraction, "auto", step)
                cells = [model, f"{fraction}x"]
                if ours["met"]:
                    cells += [f"{mib(ours['peak'])} / {mib(ours['planned'])}"
                              f" ({ours['chosen']})",
                              f"{ours['extra']:.3f}", str(ours["ops"]),
                              f"{ours['solve']:.0f}"]
                else:
                    cells += [f"not met (smallest {ours['smallest']})",
                              "", "", ""]
                for baseline, extra in [("chen", ""), ("sequential", ""),
                                        ("auto", "recompute-once=1")]:
                    other = remat(opt, path, fraction, baseline, step, extra)
                    if not other["met"]:
                        cells += [f"not met (smallest {other['smallest']})",
                                  ""]
                        continue
                    ratio = ""
                    if ours["met"] and ours["extra"] > 0:
                        ratio = f"{other['extra'] / ours['extra']:.2f}"
                    cells += [f"{other['extra']:.3f}", ratio]
                print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
