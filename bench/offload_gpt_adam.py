"""A GPT-style decoder's training step with Adam inside, with its
parameters, updates and optimizer state in host memory.

    PYTHONPATH=build/python_packages python3 bench/offload_gpt_adam.py \
        [--size bench|small] [--fractions 0.25x,0.1667x,min] [--opt PATH]

Exports memsched.torch_models' GPT decoder (zoo size `--size`) with
`optimizer="adam"`: @train_step(params..., exp_avg..., exp_avg_sq...,
tokens, target) -> (loss, params'..., exp_avg'..., exp_avg_sq'...). Then,
for each budget (fractions of the planned bytes of the step as exported),
memsched-optimize without offload and with offload=params,grads,optimizer
(every argument the step updates). --opt names the memsched-opt to run.
Reported: planned device bytes after -cse -canonicalize, over the
unoptimised step, and the modelled step time over the unoptimised step's
(h100 preset).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import memsched.torch
from memsched.torch_models import zoo

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPT = os.path.join(ROOT, "build", "bin", "memsched-opt")


def report(opt, path, pipeline):
    command = [opt, path, "-mlir-print-op-on-diagnostic=false"]
    if pipeline:
        command += ["--memsched-optimize=%s" % pipeline, "-cse",
                    "-canonicalize"]
    command += ["-memsched-report=format=json", "-o", os.devnull]
    done = subprocess.run(command, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        lines = [l for l in done.stderr.splitlines() if "error:" in l]
        return None, (lines[0].split("error: ", 1)[1] if lines else
                      done.stderr.strip()[-300:])
    return json.loads(done.stdout)["functions"][0], ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="bench")
    parser.add_argument("--fractions", default="0.5x,0.25x,0.1667x,min")
    parser.add_argument("--opt", default=OPT)
    args = parser.parse_args()
    model, inputs, target = zoo(args.size, ["gpt"])["gpt"]
    started = time.time()
    text = memsched.torch.export_training_step(model, inputs, target,
                                               optimizer="adam")
    print("exported in %.0f s, %d lines" % (time.time() - started,
                                           text.count("\n")))
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "gpt_adam.mlir")
        with open(path, "w") as handle:
            handle.write(text)
        base, error = report(args.opt, path, None)
        if base is None:
            raise SystemExit(error)
        print("unoptimised: planned %.1f MiB (resident %.1f MiB), "
              "modelled %.4f s\n" % (base["planned_bytes"] / 2**20,
                                     base["resident_bytes"] / 2**20,
                                     base["modeled_time_s"]))
        print("| budget | without offload: planned (x), time | with "
              "offload: planned (x), time |")
        print("|---|---|---|")
        for fraction in args.fractions.split(","):
            cells = []
            for offload in ["", " offload=params,grads,optimizer"]:
                result, error = report(args.opt, path,
                                       "budget=%s%s" % (fraction, offload))
                if result is None:
                    cells.append("not met: " + error[:110])
                    continue
                cells.append("%.1f MiB (%.3fx), %.3f" % (
                    result["planned_bytes"] / 2**20,
                    result["planned_bytes"] / base["planned_bytes"],
                    result["modeled_time_s"] / base["modeled_time_s"]))
            print("| %s | %s | %s |" % (fraction, cells[0], cells[1]))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
