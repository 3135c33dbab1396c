#!/usr/bin/env python3
"""The benchmark harness: memsched's pipeline stages on every zoo model.

    PYTHONPATH=build/python_packages python3 bench/run.py [--models NAME...]
        [--device h100] [--time-limit-ms 2000] [--anchor] [--no-write]

For each model of bench/models/*.mlir.gz (regenerate them with
bench/models/generate.py) it measures, in one run:

  program order  the captured (eager PyTorch) op order: ops, resident bytes,
                 peak (resident + transient), lower bound, modelled step time;
  reorder        memsched-reorder{algorithm=auto}: peak / program-order peak;
  plan           memsched-reorder + memsched-inplace, then the predicted
                 memsched-plan-buffers footprint (resident + arena + escaping
                 buffers) / program-order peak;
  remat, swap    the smallest footprint memsched-optimize reaches with
                 recomputation alone and with swapping alone (budget=min,
                 the other lever off) / program-order peak; "n/a" where it
                 fails;

plus the compile time of each stage (wall clock, this machine). With
--anchor it also exports the configurations of the independent PyTorch
measurements (memsched.torch_models.zoo("anchor"): batch 8) and prints
memsched's modelled figures next to the published ones, to check the
importer and the memory model against them.

It writes bench/results.json and the section between the run.py markers of
bench/RESULTS.md (unless --no-write). Progress goes to stderr.
"""

import argparse
import glob
import gzip
import json
import os
import sys
import time

import memsched

HERE = os.path.dirname(os.path.abspath(__file__))
BEGIN = "<!-- bench/run.py: begin -->"
END = "<!-- bench/run.py: end -->"

# Published captured-order figures (MiB) of the anchor measurements:
# resident, peak (transient), lower bound. Batch 8, fp32.
ANCHOR = {
    "resnet18": (49.2, 196.3, 194.3),
    "resnet50": (102.3, 699.0, 691.1),
    "mobilenet_v2": (18.1, 600.9, 411.6),
    "vgg11": (511.4, 863.3, 506.8),
    "vit_b_16": (334.8, 1092.4, 1080.4),
    "gpt_small": (105.5, 2599.4, 2599.4),
    "lstm_lm": (47.3, 255.5, 255.5),
}

MIB = 1024.0 * 1024.0


def progress(message):
    print("[%7.1f s] %s" % (time.time() - START, message), file=sys.stderr,
          flush=True)


def function_report(text, device):
    report = memsched.analyze(text, device=device, timeline=False)
    functions = [f for f in report["functions"] if "skipped" not in f]
    if len(functions) != 1:
        raise RuntimeError("expected one analysable function, got %s" %
                           [f.get("name") for f in report["functions"]])
    return functions[0]


def measure(name, text, device, time_limit_ms):
    row = {"model": name}
    start = time.time()
    base = function_report(text, device)
    row["analyze_s"] = time.time() - start
    for key in ("ops", "resident_bytes", "peak_bytes", "lower_bound_bytes",
                "modeled_time_s"):
        row[key] = base[key]
    progress("%s: %d ops, peak %.1f MiB (program order)" %
             (name, base["ops"], base["peak_bytes"] / MIB))

    reorder = "func.func(memsched-reorder{algorithm=auto time-limit-ms=%d " \
        "device=%s})" % (time_limit_ms, device)
    start = time.time()
    reordered = memsched.run_pipeline(text, reorder)
    row["reorder_s"] = time.time() - start
    after = function_report(reordered, device)
    row["reorder_peak_bytes"] = after["peak_bytes"]
    row["reorder_algorithm"] = after.get("reorder", {}).get("algorithm", "")
    row["reorder_ratio"] = after["peak_bytes"] / base["peak_bytes"]
    progress("%s: reorder %.3fx in %.1f s" % (name, row["reorder_ratio"],
                                             row["reorder_s"]))

    start = time.time()
    planned_text = memsched.run_pipeline(reordered,
                                         "func.func(memsched-inplace)")
    planned = function_report(planned_text, device)
    row["plan_s"] = time.time() - start + row["reorder_s"]
    footprint = (planned["resident_bytes"] + planned["arena_bytes"] +
                 planned["escaping_bytes"])
    row["plan_footprint_bytes"] = footprint
    row["plan_arena_bytes"] = planned["arena_bytes"]
    row["plan_ratio"] = footprint / base["peak_bytes"]
    progress("%s: planned footprint %.3fx (arena %.1f MiB)" % (
        name, row["plan_ratio"], planned["arena_bytes"] / MIB))
    for lever, options in [("remat", {"allow_swap": False}),
                           ("swap", {"allow_remat": False})]:
        start = time.time()
        try:
            _, fitted = memsched.optimize(text, budget="min", device=device,
                                          timeline=False, **options)
            smallest = fitted["functions"][0]["planned_bytes"]
            row["%s_bytes" % lever] = smallest
            row["%s_ratio" % lever] = smallest / base["peak_bytes"]
        except memsched.MLIRError as error:
            row["%s_bytes" % lever] = None
            row["%s_ratio" % lever] = None
            progress("%s: %s failed: %s" % (name, lever,
                                            str(error).splitlines()[-1]))
        row["%s_s" % lever] = time.time() - start
        progress("%s: smallest with %s alone %s in %.1f s" % (
            name, lever, fmt_ratio(row["%s_ratio" % lever]),
            row["%s_s" % lever]))
    return row


def fmt_ratio(value):
    return "n/a" if value is None else "%.3f" % value


def markdown(rows, anchors, device, time_limit_ms):
    lines = [
        BEGIN,
        "## Model zoo: pipeline stages (bench/run.py)",
        "",
        "Command: `PYTHONPATH=build/python_packages python3 bench/run.py%s` "
        "(device `%s`, reorder time limit %d ms; 2-core machine, Release "
        "build). Memory columns are modelled bytes; stage columns are ratios "
        "to the program-order peak (lower is better): `reorder` = peak after "
        "memsched-reorder; `plan` = resident + planned arena + escaping "
        "buffers after reorder and memsched-inplace; `remat`, `swap` = the "
        "smallest planned bytes memsched-optimize reaches (budget=min) with "
        "recomputation alone, with swapping alone. Times are wall-clock "
        "compile times of the stage on this machine." %
        (" --anchor" if anchors else "", device, time_limit_ms),
        "",
        "| model | ops | resident MiB | peak MiB | lower bound MiB | "
        "modelled step s | reorder | plan | remat | swap | reorder s | "
        "plan s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            "| %s | %d | %.1f | %.1f | %.1f | %.4f | %s | %s | %s | %s | "
            "%.2f | %.2f |" % (
                r["model"], r["ops"], r["resident_bytes"] / MIB,
                r["peak_bytes"] / MIB, r["lower_bound_bytes"] / MIB,
                r["modeled_time_s"], fmt_ratio(r["reorder_ratio"]),
                fmt_ratio(r["plan_ratio"]), fmt_ratio(r["remat_ratio"]),
                fmt_ratio(r["swap_ratio"]), r["reorder_s"], r["plan_s"]))
    if anchors:
        lines += [
            "",
            "Importer check against the anchor measurements (same "
            "configurations, batch 8; published figures are PyTorch 1.13's "
            "AOT joint graph under the same memory model). Transient peak = "
            "peak − resident.",
            "",
            "| model | ops | resident MiB (anchor) | transient peak MiB "
            "(anchor) | lower bound MiB (anchor) | reorder |",
            "|---|---|---|---|---|---|",
        ]
        for r in anchors:
            resident, peak, bound = ANCHOR[r["model"]]
            lines.append(
                "| %s | %d | %.1f (%.1f) | %.1f (%.1f) | %.1f (%.1f) | %s |" %
                (r["model"], r["ops"], r["resident_bytes"] / MIB, resident,
                 (r["peak_bytes"] - r["resident_bytes"]) / MIB, peak,
                 (r["lower_bound_bytes"] - r["resident_bytes"]) / MIB, bound,
                 fmt_ratio(r["reorder_ratio"])))
    lines.append(END)
    return "\n".join(lines) + "\n"


def write_results(section):
    path = os.path.join(HERE, "RESULTS.md")
    text = open(path).read() if os.path.exists(path) else "# Results\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        text = head + section.rstrip("\n") + tail
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(path, "w") as out:
        out.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="*", help="zoo models (default: "
                        "every bench/models/*.mlir.gz)")
    parser.add_argument("--device", default="h100")
    parser.add_argument("--time-limit-ms", type=int, default=2000)
    parser.add_argument("--anchor", action="store_true",
                        help="also export and measure the anchor "
                        "configurations (needs PyTorch)")
    parser.add_argument("--no-write", action="store_true",
                        help="print, do not write RESULTS.md/results.json")
    args = parser.parse_args()

    paths = sorted(glob.glob(os.path.join(HERE, "models", "*.mlir.gz")))
    names = [os.path.basename(p)[:-len(".mlir.gz")] for p in paths]
    if args.models:
        unknown = set(args.models) - set(names)
        if unknown:
            parser.error("no bench/models/%s.mlir.gz" % sorted(unknown)[0])
        paths = [p for p, n in zip(paths, names) if n in args.models]
        names = [n for n in names if n in args.models]
    if not paths:
        parser.error("no models in bench/models (run generate.py)")
    rows = []
    for name, path in zip(names, paths):
        with gzip.open(path, "rt") as f:
            text = f.read()
        rows.append(measure(name, text, args.device, args.time_limit_ms))
    anchors = []
    if args.anchor:
        import memsched.torch
        from memsched.torch_models import zoo
        for name in ANCHOR:
            (model, inputs, target), = zoo("anchor", [name]).values()
            progress("%s (anchor): exporting" % name)
            text = memsched.torch.export_training_step(model, inputs, target)
            anchors.append(measure(name, text, args.device,
                                   args.time_limit_ms))
    section = markdown(rows, anchors, args.device, args.time_limit_ms)
    print(section)
    if not args.no_write:
        write_results(section)
        with open(os.path.join(HERE, "results.json"), "w") as out:
            json.dump({"device": args.device,
                       "time_limit_ms": args.time_limit_ms, "models": rows,
                       "anchor": anchors}, out, indent=1, sort_keys=True)
        progress("wrote bench/RESULTS.md and bench/results.json")


START = time.time()
if __name__ == "__main__":
    main()
