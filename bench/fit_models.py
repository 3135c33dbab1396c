"""memsched's plans run in PyTorch on CPU (``memsched.torch.fit``), measured.

    PYTHONPATH=build/python_packages python3 bench/fit_models.py \
        [--models resnet18,vgg11,mobilenet_v2] [--size anchor] \
        [--budgets 0.5x,0.3x] [--offload none,params+grads] [--json out.json]
        [--device cuda]

For each zoo model (``memsched.torch_models.zoo``; ``anchor``: batch 8,
224x224 images), budget and offload choice (``none``, or resident state in
host memory: ``params+grads``), ``fit`` plans the training step and
``FittedStep.measure`` runs it. Reported per row, all measured in one run
on this machine's CPU:

- planned: memsched's planned bytes for the fitted step;
- boundary: the largest live storage at op boundaries of the fitted step
  (arguments included), and its ratio to planned;
- allocator peaks (arguments plus the most PyTorch's CPU allocator held
  during the step, kernel workspaces included) of PyTorch eager, of the
  captured FX graph run in its own order, and of the fitted step; eager
  over fitted;
- step times (best of ``--repeat``) of the FX graph and the fitted step,
  and the modelled time of the plan over the unplanned step's.

A budget no plan meets gives the smallest reachable footprint (the row is
then run at ``min``). ``--device cuda`` runs the model on a GPU (peaks from
``torch.cuda.max_memory_allocated``; rows without offload only, since an
offloaded step takes the parameters in host memory).
"""

import argparse
import json
import time

import torch

import memsched
import memsched.torch as mt
from memsched.torch_models import zoo


def mib(count):
    return count / 2 ** 20


def measure(name, model, inputs, target, budget, offload, repeat, at_min):
    row = {"model": name, "budget": budget, "offload": list(offload)}
    start = time.time()
    try:
        fitted = mt.fit(model, inputs, target, budget=budget,
                        offload=offload)
    except memsched.MLIRError as error:
        reached = [line for line in str(error).splitlines()
                   if "smallest reachable" in line]
        row["unreachable"] = reached[0].split("smallest reachable ")[-1] \
            if reached else str(error).splitlines()[-1]
        if at_min:  # measured already: a lower budget reaches the same
            return dict(at_min, budget=budget,
                        unreachable=row["unreachable"])
        fitted = mt.fit(model, inputs, target, budget="min",
                        offload=offload)
    row["plan_s"] = time.time() - start
    row["budget_bytes"] = fitted.budget_bytes
    row["estimated_bytes"] = fitted.estimated_bytes
    function = fitted.report["functions"][0]
    row["chosen"] = function["fit"]["chosen"]
    row["modelled_slowdown"] = function["fit"]["time_after_s"] / \
        function["fit"]["time_before_s"]
    row["events"] = fitted.schedule.counts()
    loss, grads = fitted(inputs, target, seed=0)
    again, expected = fitted.run_unplanned(inputs, target, seed=0)
    row["bit_identical"] = torch.equal(loss, again) and all(
        torch.equal(a, b) for a, b in zip(grads, expected))
    row.update(fitted.measure(inputs, target, seed=0, repeat=repeat))
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="resnet18,vgg11,mobilenet_v2")
    parser.add_argument("--size", default="anchor")
    parser.add_argument("--budgets", default="0.5x,0.3x")
    parser.add_argument("--offload", default="none,params+grads")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json")
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()
    rows = []
    header = ("| model | offload | budget | planned MiB | boundary MiB (/planned) | "
              "eager MiB | FX MiB | fitted MiB | eager/fitted | FX s | "
              "fitted s | modelled x | bit-identical |")
    print(header)
    print("|" + "---|" * 13)
    for name in args.models.split(","):
        (model, inputs, target), = zoo(args.size, [name]).values()
        offloads = args.offload.split(",")
        if args.device != "cpu":
            model = model.to(args.device)
            inputs = inputs.to(args.device)
            target = target.to(args.device)
            offloads = [o for o in offloads if o == "none"]
        at_min = {}
        for offload in offloads:
            for budget in args.budgets.split(","):
                chosen = () if offload == "none" else tuple(offload.split("+"))
                row = measure(name, model, inputs, target, budget, chosen,
                              args.repeat, at_min.get(offload))
                rows.append(row)
                if "unreachable" in row:
                    at_min[offload] = row
                label = budget if "unreachable" not in row else \
                    "%s: min (%s)" % (budget, row["unreachable"])
                print("| %s | %s | %s | %.1f | %.1f (%.3f) | %.1f | %.1f | "
                      "%.1f | %.2fx | %.2f | %.2f | %.3f | %s |" % (
                          name, offload, label, mib(row["planned_bytes"]),
                          mib(row["fitted_boundary_bytes"]),
                          row["fitted_boundary_bytes"] / row["planned_bytes"],
                          mib(row["eager_peak_bytes"]),
                          mib(row["unplanned_peak_bytes"]),
                          mib(row["fitted_peak_bytes"]),
                          row["eager_peak_bytes"] / row["fitted_peak_bytes"],
                          row["unplanned_time_s"], row["fitted_time_s"],
                          row["modelled_slowdown"], row["bit_identical"]),
                      flush=True)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)


if __name__ == "__main__":
    main()
