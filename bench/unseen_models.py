"""Training steps of torchvision models outside the zoo at one budget,
with and without resident state in host memory.

    PYTHONPATH=build/python_packages python3 bench/unseen_models.py \
        [--models googlenet,...] [--batch 16] [--image 128] [--budget 0.4x]
        [--smallest] [--opt memsched-opt] [--keep DIR]

Each model (10 classes, batch and image as given, train mode) is exported
by memsched.torch, then memsched-optimize is asked for the budget (a
fraction of the step's planned bytes) as it is and with
offload=params,grads. Reported: met or not (with the smallest reachable
footprint), the modelled step time over the unoptimised step's, and the
report's floor of the step without and with offload (memsched-report after
memsched-offload).

With --smallest, each step is planned by recomputation alone at the
smallest footprint it reaches (memsched-remat budget=min) instead, and that
footprint is given over the floor, with the modelled time and the planner
that won. --opt names the memsched-opt to run (to compare two builds on the
same exported steps), --keep a folder where the exported steps are kept
and, when already there, read back.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import torch
import torchvision

import memsched.torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPT = os.path.join(ROOT, "build", "bin", "memsched-opt")
MODELS = ["googlenet", "regnet_x_400mf", "efficientnet_b0", "densenet121",
          "shufflenet_v2_x1_0", "mnasnet1_0", "squeezenet1_1",
          "mobilenet_v3_large"]


def run(opt, path, passes):
    command = [opt, path, "-mlir-print-op-on-diagnostic=false"] + passes + [
        "-memsched-report=format=json", "-o", os.devnull]
    done = subprocess.run(command, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        match = re.search(r"smallest reachable footprint is [^(]*\((\d+) B",
                          done.stderr)
        return None, int(match.group(1)) if match else None
    return json.loads(done.stdout)["functions"][0], None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--image", type=int, default=128)
    parser.add_argument("--budget", default="0.4x")
    parser.add_argument("--smallest", action="store_true")
    parser.add_argument("--opt", default=OPT)
    parser.add_argument("--keep")
    args = parser.parse_args()
    if args.smallest:
        print("| model | planned (MiB) | floor (MiB) | smallest with remat "
              "(MiB) | smallest / floor | time / unplanned | planner |")
        print("|---|---|---|---|---|---|---|")
    else:
        print("| model | planned (MiB) | floor | floor with offload | %s | "
              "%s with offload |" % (args.budget, args.budget))
        print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        directory = args.keep or scratch
        os.makedirs(directory, exist_ok=True)
        for name in args.models.split(","):
            torch.manual_seed(0)
            kwargs = {"num_classes": 10}
            if name in ("googlenet", "inception_v3"):
                kwargs.update(aux_logits=False, init_weights=False)
            model = getattr(torchvision.models, name)(**kwargs)
            model.train()
            inputs = (torch.randn(args.batch, 3, args.image, args.image),)
            target = torch.randint(0, 10, (args.batch,))
            path = os.path.join(directory, name + ".mlir")
            if not (args.keep and os.path.exists(path)):
                with open(path, "w") as handle:
                    handle.write(memsched.torch.export_training_step(
                        model, inputs, target))
            base, _ = run(args.opt, path, [])
            if args.smallest:
                result, _ = run(args.opt, path, ["-memsched-remat=budget=min"])
                planned = base["planned_bytes"]
                print("| %s | %.1f | %.1f | %.1f | %.3fx | %.3f | %s |" % (
                    name, planned / 2**20, base["floor_bytes"] / 2**20,
                    result["planned_bytes"] / 2**20,
                    result["planned_bytes"] / base["floor_bytes"],
                    result["modeled_time_s"] / base["modeled_time_s"],
                    result.get("remat", {}).get("algorithm", "-")))
                sys.stdout.flush()
                continue
            offloaded, _ = run(args.opt, path,
                               ["-memsched-offload=offload=params,grads"])
            planned = base["planned_bytes"]

            def cell(offload):
                option = "budget=%s" % args.budget + (
                    " offload=params,grads" if offload else "")
                result, smallest = run(args.opt, path,
                                       ["-memsched-optimize=%s" % option])
                if result is None:
                    return "not met (smallest %s)" % (
                        "%.3fx" % (smallest / planned) if smallest else "?")
                return "met, %.3f" % (result["modeled_time_s"] /
                                      base["modeled_time_s"])

            print("| %s | %.1f | %.3fx | %.3fx | %s | %s |" % (
                name, planned / 2**20, base["floor_bytes"] / planned,
                offloaded["floor_bytes"] / planned, cell(False), cell(True)))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
