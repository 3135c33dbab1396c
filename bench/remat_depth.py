"""The largest model that fits a fixed memory budget, with and without
memsched-remat: ResNets of growing depth (torchvision's ResNet with n
BasicBlocks per stage, depth 8n + 2) at a fixed batch, and ResNet-18 at a
growing batch. The budget is the peak without recomputation of the smallest
member (ResNet-18, or ResNet-18 at the smallest batch); each member is
exported by memsched.torch, and memsched-remat is asked to meet that budget
(in bytes, resident included). A member "fits" without remat when its own
peak is within the budget, and with remat when memsched-remat meets it.
Reported: peak, the memory after buffer planning (resident + arena +
escaping, memsched-report), the modelled recompute time over the step time.

With `--lever remat-split` the member is planned by memsched-fit with
recomputation alone (allow-swap=false) and its split lever: where
recomputation misses the budget, the function is planned again with the
ops setting its floor split (memsched-split).

With `--lever joint` the member is planned by memsched-reorder then
memsched-fit (recomputation, swapping with stalls, and both), with
`--lever swap` by memsched-fit allow-remat=false, with `--lever offload`
by memsched-optimize with parameters and gradients in host memory
(offload=params,grads) and every other lever; the last column is then the
modelled step time over the member's own step without a plan.

Usage: PYTHONPATH=build/python_packages python3 bench/remat_depth.py
       [--build build] [--image 128] [--batch 32] [--blocks 2,3,4,6,8]
       [--batches 32,48,64,96,128]
       [--lever remat|remat-split|joint|swap|offload]
"""
import argparse
import json
import os
import re
import subprocess
import tempfile

import torch
import torchvision

import memsched.torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def report(opt, path, args):
    command = [opt, path, "-mlir-print-op-on-diagnostic=false"] + args + [
        "-memsched-report=format=json", "-o", os.devnull]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return None, done.stderr
    return json.loads(done.stdout)["functions"][0], ""


def mib(value):
    return f"{value / 2**20:.1f}"


def planned(function):
    return (function["resident_bytes"] + function["arena_bytes"] +
            function["escaping_bytes"])


def export(model, batch, image, scratch, name):
    torch.manual_seed(0)
    model.train()
    inputs = (torch.randn(batch, 3, image, image),)
    target = torch.randint(0, 10, (batch,))
    text = memsched.torch.export_training_step(model, inputs, target)
    path = os.path.join(scratch, name + ".mlir")
    with open(path, "w") as out:
        out.write(text)
    return path


LEVERS = {
    "remat": lambda budget: [f"-memsched-remat=budget={budget}B"],
    "joint": lambda budget: ["-memsched-reorder",
                             f"-memsched-fit=budget={budget}B"],
    "swap": lambda budget: ["-memsched-reorder",
                            f"-memsched-fit=budget={budget}B "
                            "allow-remat=false"],
    "offload": lambda budget: [f"-memsched-optimize=offload=params,grads "
                               f"budget={budget}B"],
    # Recomputation alone, and where it misses the budget, recomputation
    # on the function with its floor-setting ops split (memsched-split).
    "remat-split": lambda budget: [f"-memsched-fit=budget={budget}B "
                                   "allow-swap=false"],
}


def sweep(opt, members, scratch, lever="remat"):
    """members: (label, build) pairs, smallest first."""
    budget = None
    largest = [None, None]
    for label, build in members:
        path = build()
        base, error = report(opt, path, [])
        if base is None:
            raise SystemExit(f"{label}: {error}")
        # Budgets bound the planned bytes (resident + arena + returned),
        # as everywhere; with --lever remat the peak, as the first tables.
        measure = "peak_bytes" if lever == "remat" else "planned_bytes"
        if budget is None:
            budget = base[measure]
            print(f"Budget: {budget} B ({mib(budget)} MiB), the "
                  f"{measure.split('_')[0]} bytes of {label} without a "
                  f"plan.\n")
            last = ("recompute / step" if lever == "remat" else
                    "step time after / before")
            print(f"| model | peak without remat (MiB) | fits without remat | "
                  f"with {lever}: peak / planned (MiB) | {last} |")
            print("|---|---|---|---|---|")
        fits = base[measure] <= budget
        if fits:
            largest[0] = label
        cells = [label, mib(base["peak_bytes"]), "yes" if fits else "no"]
        if fits:
            cells += ["(not needed)", "0"]
            largest[1] = label
        else:
            after, error = report(opt, path, LEVERS[lever](budget))
            if after is None:
                match = re.search(r"(?:reaches|reachable footprint) is "
                                  r"[^(]*\((\d+) B", error)
                if match:
                    cells += [f"not met (smallest "
                              f"{mib(int(match.group(1)))}, floor "
                              f"{mib(base['floor_bytes'])})", ""]
                else:
                    reason = re.search(r"error: (.*)", error)
                    cells += ["not met: " + (reason.group(1)[:100] if reason
                                             else error.strip()[:100]), ""]
            else:
                largest[1] = label
                ratio = (after["remat"]["recompute_time_s"] if lever == "remat"
                         else after["modeled_time_s"]) / base["modeled_time_s"]
                if "split" in after:
                    cells[0] += (f" (split: floor {mib(base['floor_bytes'])}"
                                 f" -> {mib(after['split']['floor_after_bytes'])})")
                cells += [f"{mib(after['peak_bytes'])} / "
                          f"{mib(planned(after))}", f"{ratio:.3f}"]
        print("| " + " | ".join(cells) + " |", flush=True)
    print(f"\nLargest that fits: {largest[0]} without a plan, "
          f"{largest[1]} with {lever}.\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--image", type=int, default=128)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--blocks", default="2,3,4,6,8")
    parser.add_argument("--batches", default="32,48,64,96,128")
    parser.add_argument("--lever", default="remat", choices=sorted(LEVERS))
    options = parser.parse_args()
    opt = os.path.join(options.build, "bin", "memsched-opt")
    block = torchvision.models.resnet.BasicBlock
    with tempfile.TemporaryDirectory() as scratch:
        print(f"## Depth: ResNet (BasicBlock) at batch {options.batch}, "
              f"3x{options.image}x{options.image}, 10 classes\n")
        members = []
        for n in [int(b) for b in options.blocks.split(",")]:
            label = f"ResNet-{8 * n + 2}"
            members.append((label, lambda n=n, label=label: export(
                torchvision.models.resnet.ResNet(block, [n] * 4,
                                                 num_classes=10),
                options.batch, options.image, scratch, label)))
        sweep(opt, members, scratch, options.lever)
        print(f"## Batch: ResNet-18, 3x{options.image}x{options.image}, "
              f"10 classes\n")
        members = []
        for batch in [int(b) for b in options.batches.split(",")]:
            label = f"ResNet-18, batch {batch}"
            members.append((label, lambda batch=batch, label=label: export(
                torchvision.models.resnet18(num_classes=10), batch,
                options.image, scratch, label.replace(", ", "-b"))))
        sweep(opt, members, scratch, options.lever)


if __name__ == "__main__":
    main()
