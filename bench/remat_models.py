"""memsched-remat on the model zoo: for each model and budget (a fraction of
the no-remat peak) and each algorithm, the peak reached (or the smallest
peak the algorithm can reach when the budget is out of its reach), the
modelled recompute time as a fraction of the modelled step time, and the
solve time. Figures come from the `memsched.remat` report of memsched-opt.

Usage: python3 bench/remat_models.py [--build build] [--models a,b]
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ["resnet18", "resnet50", "mobilenet_v2", "vgg11", "vit_b_16", "gpt",
          "lstm"]
FRACTIONS = [0.9, 0.7, 0.5, 0.3]
ALGORITHMS = ["auto", "chen", "sequential"]


def run(opt, path, args):
    command = [opt, path, "-mlir-print-op-on-diagnostic=false"] + args + [
        "-memsched-report=format=json", "-o", os.devnull]
    done = subprocess.run(command, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--models", default=",".join(MODELS))
    options = parser.parse_args()
    opt = os.path.join(options.build, "bin", "memsched-opt")
    print("| model | budget | algorithm | peak reached (MiB) | "
          "recompute / step time | recomputed ops | solve (ms) |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        for model in options.models.split(","):
            path = os.path.join(scratch, model + ".mlir")
            with gzip.open(os.path.join(ROOT, "bench", "models",
                                        model + ".mlir.gz"), "rt") as source:
                with open(path, "w") as out:
                    out.write(source.read())
            _, base, _ = run(opt, path, [])
            function = json.loads(base)["functions"][0]
            step = function["modeled_time_s"]
            print(f"| {model} | 1.0x | none | "
                  f"{function['peak_bytes'] / 2**20:.1f} | 0 | 0 | |")
            for fraction in FRACTIONS:
                for algorithm in ALGORITHMS:
                    code, out, err = run(opt, path, [
                        f"-memsched-remat=budget={fraction}x "
                        f"algorithm={algorithm}"])
                    if code != 0:
                        match = re.search(r"smallest peak \S+ reaches is "
                                          r"[^(]*\((\d+) B", err)
                        smallest = (f"{int(match.group(1)) / 2**20:.1f}"
                                    if match else "?")
                        print(f"| {model} | {fraction}x | {algorithm} | "
                              f"not met (smallest {smallest}) | | | |")
                        continue
                    remat = json.loads(out)["functions"][0]["remat"]
                    print(f"| {model} | {fraction}x | {algorithm} "
                          f"({remat['chosen']}) | "
                          f"{remat['peak_after_bytes'] / 2**20:.1f} | "
                          f"{remat['recompute_time_s'] / step:.3f} | "
                          f"{remat['recomputed_ops']} | "
                          f"{remat['solve_time_ms']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
