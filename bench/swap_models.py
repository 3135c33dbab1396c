"""Swapping and the joint remat + swap plan on the model zoo.

For each model, device and budget (a fraction of the planned device bytes
of the unoptimised step, as `budget=0.5x` means everywhere, given as an
absolute size so every variant gets the same bound), side by side in one
run, each after memsched-reorder:

  remat         memsched-fit allow-swap=false  (recomputation only)
  swap          memsched-fit allow-remat=false (swapping only, our planner;
                                                copies may stall compute)
  swap without  memsched-swap allow-stalls=false (copies must end before
  stalls                                        the memory is needed)
  joint         memsched-fit                   (remat-only, swap-only and
                                                joint plans, fastest kept)
  joint +       memsched-optimize              (parameters and gradients
  offload       offload=params,grads           in host memory first, then
                                                reorder and the joint plan)
  vdnn          memsched-swap algorithm=everything (swap every candidate,
                                                stall after its last early
                                                use, prefetch one op ahead;
                                                no budget)

Each cell is the modelled step time relative to the reordered step without
remat or swap (1.000 = no overhead), or "-" where the variant cannot meet
the budget. For swap and joint, the share of copy time hidden behind compute
is given too. The budget bounds memsched-report's planned_bytes (resident +
arena + returned buffers) on the rewritten function. The floor is the
report's floor_bytes of the step (no plan of any kind goes below it). vDNN's
row is followed by our swap-only plan at vDNN's planned bytes. All figures
come from memsched-report's JSON (modeled_time_s, swap_hidden_fraction, ...)
on the two-stream time model of the project guide with each device's
host-link bandwidths (h100: 55 GB/s per direction, a100-80gb: 25 GB/s).

Usage: python3 bench/swap_models.py [--build build] [--models a,b]
       [--fractions 0.9,0.7,0.5,0.3] [--devices h100,a100-80gb] [--jobs 2]
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
FRACTIONS = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]
DEVICES = ["h100", "a100-80gb"]


def report(opt, path, passes, device):
    command = [opt, path, "-mlir-print-op-on-diagnostic=false"] + passes + [
        f"-memsched-report=format=json device={device}", "-o", os.devnull]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return None
    return json.loads(done.stdout)["functions"][0]


def footprint(function):
    """What the budget bounds: the planned device bytes."""
    return function["planned_bytes"]


def measure(opt, path, device, fraction, base, budget=None):
    """All variants at one budget: {variant: figures or None}."""
    if budget is None:
        budget = int(fraction * base["planned_bytes"])
    reorder = f"-memsched-reorder=device={device}"
    results = {}
    for variant, step in [
            ("remat", f"-memsched-fit=budget={budget}B device={device} "
                      "allow-swap=false"),
            ("swap", f"-memsched-fit=budget={budget}B device={device} "
                     "allow-remat=false"),
            ("swap-nostall", f"-memsched-swap=budget={budget}B "
                             f"device={device} allow-stalls=false"),
            ("joint", f"-memsched-fit=budget={budget}B device={device}"),
            ("offload", f"-memsched-optimize=budget={budget}B "
                        f"device={device} offload=params,grads")]:
        # memsched-optimize reorders itself, after offloading.
        passes = [step] if variant == "offload" else [reorder, step]
        function = report(opt, path, passes, device)
        if function is None:
            results[variant] = None
            continue
        results[variant] = {
            "time": function["modeled_time_s"] / base["modeled_time_s"],
            "footprint": footprint(function),
            "transient": footprint(function) - function["resident_bytes"],
            "hidden": function["swap_hidden_fraction"],
            "swap_bytes": function["swap_bytes"],
            "chosen": function.get("fit", {}).get("chosen", "none"),
        }
    return fraction, budget, results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--fractions",
                        default=",".join(str(f) for f in FRACTIONS))
    parser.add_argument("--devices", default=",".join(DEVICES))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", help="also write every figure here")
    args = parser.parse_args()
    opt = os.path.join(args.build, "bin", "memsched-opt")
    fractions = [float(f) for f in args.fractions.split(",")]
    everything = {}
    with tempfile.TemporaryDirectory() as scratch:
        for model in args.models.split(","):
            path = zoo.unpack(model, scratch)
            for device in args.devices.split(","):
                reorder = f"-memsched-reorder=device={device}"
                original = report(opt, path, [], device)
                base = report(opt, path, [reorder], device)
                base["planned_bytes"] = original["planned_bytes"]
                vdnn = report(opt, path, [
                    reorder,
                    f"-memsched-swap=algorithm=everything device={device}"],
                    device)
                with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                    rows = list(pool.map(
                        lambda f: measure(opt, path, device, f, base),
                        fractions))
                planned = base["planned_bytes"]
                print(f"\n### {model} on {device}: planned "
                      f"{planned / 2**20:.1f} MiB (resident "
                      f"{base['resident_bytes'] / 2**20:.1f} MiB), step "
                      f"{base['modeled_time_s'] * 1e3:.2f} ms, floor "
                      f"{original['floor_bytes'] / planned:.3f}x")
                if vdnn:
                    print(f"vdnn (swap everything): planned "
                          f"{vdnn['planned_bytes'] / planned:.3f}x, "
                          f"time {vdnn['modeled_time_s'] / base['modeled_time_s']:.3f}, "
                          f"{vdnn['swap_bytes'] / 2**30:.2f} GiB copied, "
                          f"hidden {vdnn['swap_hidden_fraction']:.2f}")
                    _, _, at_vdnn = measure(opt, path, device, 0, base,
                                            vdnn["planned_bytes"])
                    swap = at_vdnn["swap"]
                    print("ours, swap only, at vdnn's planned bytes: " +
                          (f"time {swap['time']:.3f}, hidden "
                           f"{swap['hidden']:.2f}" if swap else "not met"))
                print("\n| budget | remat | swap (hidden) | swap without "
                      "stalls | joint (hidden, chosen) | activation "
                      "reduction of joint | joint + offload |")
                print("|---|---|---|---|---|---|---|")
                base_transient = planned - base["resident_bytes"]
                entry = {"base": base, "vdnn": vdnn, "rows": []}
                for fraction, budget, results in rows:
                    def cell(name, extra):
                        result = results[name]
                        if result is None:
                            return "-"
                        text = f"{result['time']:.3f}"
                        if extra:
                            text += f" ({result['hidden']:.2f}"
                            if name == "joint":
                                text += f", {result['chosen']}"
                            text += ")"
                        return text
                    joint = results["joint"]
                    reduction = (f"{base_transient / joint['transient']:.2f}x"
                                 if joint and joint["transient"] > 0 else "-")
                    print(f"| {fraction}x | {cell('remat', False)} | "
                          f"{cell('swap', True)} | "
                          f"{cell('swap-nostall', False)} | "
                          f"{cell('joint', True)} | {reduction} | "
                          f"{cell('offload', False)} |")
                    entry["rows"].append({"fraction": fraction,
                                          "budget": budget,
                                          "results": results})
                everything[f"{model}/{device}"] = entry
    if args.json:
        with open(args.json, "w") as out:
            json.dump(everything, out, indent=1)


if __name__ == "__main__":
    main()
