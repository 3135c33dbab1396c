"""What splitting ops (memsched-split, TSPLIT's lever) buys on the zoo.

For each model, side by side in one run:

  floor             memsched-report's floor_bytes of the step: no order,
                    recomputation or swap plan of its ops goes below it
  floor, split      the same after memsched-split budget=min (the ops whose
                    working sets set the floor computed in batch pieces,
                    with the producers only they read), and the ops split
  min, no split     the smallest planned bytes memsched-optimize reaches
                    (budget=min allow-split=false: reorder, recomputation,
                    swapping, in-place writes) and its modelled step time
  min, split        the same with allow-split=true (the default): each way
                    is planned again from the split function, the smaller
                    kept

Planned bytes are memsched-report's planned_bytes (resident + arena +
returned buffers), of the input as it is and of every rewritten function
after -cse -canonicalize; times are the modelled step time on the device's
two-stream model relative to the input's. All figures come
from the report's JSON.

Usage: python3 bench/split_models.py [--build build] [--models a,b]
       [--device h100] [--jobs 2]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import tempfile

import zoo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ["resnet18", "resnet50", "mobilenet_v2", "vgg11", "vit_b_16", "gpt"]


def report(opt, path, passes, device):
    cleanup = ["-cse", "-canonicalize"] if passes else []
    command = [opt, path, "-mlir-print-op-on-diagnostic=false"] + passes + \
        cleanup + [f"-memsched-report=format=json device={device}", "-o",
                   os.devnull]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)["functions"][0]


def mib(value):
    return f"{value / 2**20:.1f}"


def measure(opt, model, device, scratch):
    path = zoo.unpack(model, scratch)
    base = report(opt, path, [], device)
    split = report(opt, path, ["-memsched-split=budget=min"], device)
    rows = {}
    for allow in ["false", "true"]:
        rows[allow] = report(opt, path, [
            f"-memsched-optimize=budget=min device={device} "
            f"allow-split={allow}"], device)
    cells = [model, mib(base["planned_bytes"]), mib(base["floor_bytes"])]
    ops = split.get("split", {}).get("ops_split", 0)
    cells.append(f"{mib(split['floor_bytes'])} ({ops} ops)")
    for allow in ["false", "true"]:
        after = rows[allow]
        chosen = after.get("fit", {}).get("chosen", "?")
        if after.get("fit", {}).get("split"):
            chosen += ", split"
        cells.append(f"{mib(after['planned_bytes'])} "
                     f"({after['modeled_time_s'] / base['modeled_time_s']:.3f}"
                     f", {chosen})")
    return "| " + " | ".join(cells) + " |"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--device", default="h100")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    opt = os.path.join(args.build, "bin", "memsched-opt")
    print("| model | planned (MiB) | floor (MiB) | floor after split (MiB) | "
          "min without split (MiB, time, plan) | min with split (MiB, time, "
          "plan) |")
    print("|---|---|---|---|---|---|")
    models = args.models.split(",")
    with tempfile.TemporaryDirectory() as scratch:
        for model in models:
            os.makedirs(os.path.join(scratch, model))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            rows = pool.map(
                lambda model: measure(opt, model, args.device,
                                      os.path.join(scratch, model)),
                models)
            for row in rows:
                print(row, flush=True)


if __name__ == "__main__":
    main()
