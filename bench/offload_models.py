"""The zoo with and without resident state in host memory.

    PYTHONPATH=build/python_packages python3 bench/offload_models.py \
        [--models resnet18,...] [--device h100] [--json out.json]
        [--opt memsched-opt] [--offload params,grads]

For every model: the planned device bytes of the unoptimised step, then the
smallest footprint memsched-optimize reaches (budget=min) without offload
and with offload (--offload, default params,grads; add inputs to keep the
batch in host memory too), each with its modelled step time, and the same
budget (0.4x of the unoptimised planned bytes) tried both ways.
Every figure is the report's (memsched-report), after -cse -canonicalize.
--opt names the memsched-opt to run (a copy lets the build go on meanwhile).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zoo  # noqa: E402

ROOT = zoo.ROOT
OPT = os.path.join(ROOT, "build", "bin", "memsched-opt")
MODELS = ["resnet18", "vgg11", "mobilenet_v2", "resnet50", "vit_b_16", "gpt",
          "lstm"]


def report(opt, path, pipeline, device):
    """The JSON report of `path` after `pipeline` (None: as it is) and
    cleanup; None when the pipeline fails."""
    command = [opt, path, "-mlir-print-op-on-diagnostic=false"]
    if pipeline:
        command.append("--memsched-optimize=%s device=%s" % (pipeline,
                                                            device))
        command += ["-cse", "-canonicalize"]
    command.append("-memsched-report=format=json device=%s" % device)
    completed = subprocess.run(command + ["-o", os.devnull],
                               capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        return None
    return json.loads(completed.stdout)["functions"][0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--device", default="h100")
    parser.add_argument("--fraction", default="0.4x")
    parser.add_argument("--json")
    parser.add_argument("--opt", default=OPT)
    parser.add_argument("--offload", default="params,grads",
                        help="memsched-optimize's offload= for the columns "
                        "with offload")
    args = parser.parse_args()
    rows = []
    print("| model | planned (MiB) | min without (MiB) | x | time | "
          "min with offload (MiB) | x | time | %s without | %s with | "
          "seconds |" % (args.fraction, args.fraction))
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for model in args.models.split(","):
            started = time.time()
            path = zoo.unpack(model, directory)
            base = report(args.opt, path, None, args.device)
            row = {"model": model, "planned_bytes": base["planned_bytes"],
                   "time_s": base["modeled_time_s"]}
            for key, pipeline in [
                    ("min", "budget=min"),
                    ("min_offload", "budget=min offload=" + args.offload),
                    ("fraction", "budget=" + args.fraction),
                    ("fraction_offload", "budget=%s offload=%s" % (
                        args.fraction, args.offload))]:
                result = report(args.opt, path, pipeline, args.device)
                row[key] = None if result is None else {
                    "planned_bytes": result["planned_bytes"],
                    "time_s": result["modeled_time_s"]}
            row["seconds"] = time.time() - started
            rows.append(row)

            def cell(key):
                value = row[key]
                if value is None:
                    return "unmet | - | -"
                return "%.1f | %.3f | %.2f" % (
                    value["planned_bytes"] / 2**20,
                    value["planned_bytes"] / row["planned_bytes"],
                    value["time_s"] / row["time_s"])

            def met(key):
                value = row[key]
                return "unmet" if value is None else "met, %.2f" % (
                    value["time_s"] / row["time_s"])

            print("| %s | %.1f | %s | %s | %s | %s | %.0f |" % (
                model, row["planned_bytes"] / 2**20, cell("min"),
                cell("min_offload"), met("fraction"),
                met("fraction_offload"), row["seconds"]))
            sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
