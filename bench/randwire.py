#!/usr/bin/env python3
"""Peak memory after memsched-reorder on RandWire inference graphs (Xie et
al. 2019, "Exploring Randomly Wired Neural Networks"), against the captured
order, the XLA and Inductor heuristics and the lower bound.

Usage: PYTHONPATH=build/python_packages python3 bench/randwire.py
       [--opt build/bin/memsched-opt] [--kinds ws er ba] [--seeds 0 1 2]
       [--torchvision googlenet inception_v3 densenet121]
       [--darts 8 14] [--darts-channels 16]
       [--nodes 32] [--stages 3] [--channels 32] [--time-limit-ms 0]
       [--verify first|all|none] [--save-dir DIR] [--json OUT]

Every stage of a RandWire network is a random graph of --nodes nodes from
one of the paper's generators: Watts-Strogatz (ws, K=4, P=0.75), Erdős-Rényi
(er, P=0.2) or Barabási-Albert (ba, M=5), written here with
random.Random. Edges point from the lower to the higher node index; nodes
without inputs read the stage input (with stride 2, changing the channel
count), nodes without outputs are averaged into the stage output. A node is
the sigmoid-weighted sum of its inputs followed by ReLU, a separable 3x3
convolution and batch norm. The network (batch 1, 3x32x32 input) is a stem
convolution to C/2 channels, --stages stages of C, 2C, 4C... channels (C is
--channels) and global average pooling + a linear classifier;
memsched.torch exports it in eval mode, in the order PyTorch captured it
(the program order).

With --darts, DARTS-V2 networks (the NAS cells Serenity and HMCOS also
schedule; 16 channels, 32x32, batch 1) of the given numbers of cells are
measured too.

For each graph, memsched-opt runs memsched-reorder with algorithm=auto,
with xla and inductor (the best of each compiler's heuristics) and with each
single heuristic, each followed by memsched-report; and auto once more after
upstream MLIR's elementwise fusion (-linalg-fuse-elementwise-ops), a graph
rewrite that keeps results bit-identical (the same arithmetic per element,
no intermediate tensors), after memsched-inplace, and with memsched-reorder's
option fuse-elementwise=true (the pass plans both and keeps the lower
peak). The figures compared are transient bytes, the
activations whose peak depends on the order (the parameters, batch-norm
statistics and input are resident whatever the order; Serenity compares
activation memory too). The pass time is the wall time of
MemschedReorderPass from MLIR's pass timing (threading disabled, one run);
it includes the pass's memory analysis of the order before and after (with
buffer offset planning), not only the scheduler. With --verify, both
resulting modules of the first seed of each kind (or of every graph) run on
CPU next to the captured one (memsched.execute.compare_on_cpu) and must give
bit-identical results.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import torch

import memsched.execute
import memsched.torch
from memsched.randwire import GENERATORS, RandWire

HEURISTICS = ["postorder", "xla-list", "xla-dfs", "inductor-lpmf",
              "inductor-bfs", "inductor-dfs"]
ALGORITHMS = ["auto", "xla", "inductor"] + HEURISTICS


def export(model, size, name, directory):
    """Exports `model` in eval mode on one `size`x`size` image to
    `directory`/`name`.mlir; returns the file's path."""
    text = memsched.torch.export_inference(model.eval(),
                                           (torch.randn(1, 3, size, size),))
    path = os.path.join(directory, name + ".mlir")
    with open(path, "w") as handle:
        handle.write(text)
    return path


def randwire_graph(kind, seed, args, directory):
    """The RandWire network of `kind` and `seed`: (name, path, figures)."""
    torch.manual_seed(seed)
    model = RandWire(kind, seed, args.nodes, args.stages, args.channels)
    name = "%s-%d" % (kind, seed)
    path = export(model, 32, "randwire_%s_%d" % (kind, seed), directory)
    return name, path, {"kind": kind, "seed": seed,
                        "edges": [stage.edges() for stage in model.stages]}


# Branchy torchvision classifiers (Inception cells, dense blocks) and the
# smallest input each takes.
TORCHVISION = {"googlenet": 64, "inception_v3": 80, "densenet121": 64}


def torchvision_graph(name, directory):
    """A torchvision classifier (10 classes, random weights) at a small
    input: (name, path, figures)."""
    import torchvision
    torch.manual_seed(0)
    options = {"num_classes": 10}
    if name in ("googlenet", "inception_v3"):
        options.update(aux_logits=False, init_weights=False)
    model = getattr(torchvision.models, name)(**options)
    return name, export(model, TORCHVISION[name], name, directory), {}


# DARTS-V2's cells (Liu et al. 2019, "DARTS: Differentiable Architecture
# Search", its published genotype): per cell, four nodes, each the sum of
# two operations on earlier states (0 and 1 are the two previous cells'
# outputs); the cell's output concatenates nodes 2-5.
DARTS_NORMAL = [("sep_conv_3x3", 0), ("sep_conv_3x3", 1),
                ("sep_conv_3x3", 0), ("sep_conv_3x3", 1),
                ("sep_conv_3x3", 1), ("skip_connect", 0),
                ("skip_connect", 0), ("dil_conv_3x3", 2)]
DARTS_REDUCE = [("max_pool_3x3", 0), ("max_pool_3x3", 1),
                ("skip_connect", 2), ("max_pool_3x3", 1),
                ("max_pool_3x3", 0), ("skip_connect", 2),
                ("skip_connect", 2), ("max_pool_3x3", 1)]


def darts_network(channels, layers):
    """A DARTS-V2 network for 32x32 images: a stem convolution to
    3 x `channels`, `layers` cells (reduction cells, which halve the size
    and double the channels, at 1/3 and 2/3 of the depth), global average
    pooling and a linear classifier (10 classes)."""
    nn = torch.nn

    def relu_conv_bn(c_in, c_out, kernel, stride, padding, dilation=1,
                     groups=1):
        return [nn.ReLU(), nn.Conv2d(c_in, c_out, kernel, stride, padding,
                                     dilation, groups, bias=False),
                nn.BatchNorm2d(c_out)]

    class FactorizedReduce(nn.Module):
        def __init__(self, c_in, c_out):
            super().__init__()
            self.relu = nn.ReLU()
            self.even = nn.Conv2d(c_in, c_out // 2, 1, 2, bias=False)
            self.odd = nn.Conv2d(c_in, c_out // 2, 1, 2, bias=False)
            self.bn = nn.BatchNorm2d(c_out)

        def forward(self, x):
            x = self.relu(x)
            return self.bn(torch.cat([self.even(x),
                                      self.odd(x[:, :, 1:, 1:])], dim=1))

    def operation(name, c, stride):
        if name == "skip_connect":
            return nn.Identity() if stride == 1 else FactorizedReduce(c, c)
        if name == "max_pool_3x3":
            return nn.MaxPool2d(3, stride, 1)
        if name == "sep_conv_3x3":
            return nn.Sequential(
                *relu_conv_bn(c, c, 3, stride, 1, groups=c)[:2],
                nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c),
                *relu_conv_bn(c, c, 3, 1, 1, groups=c)[:2],
                nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c))
        assert name == "dil_conv_3x3"
        return nn.Sequential(
            *relu_conv_bn(c, c, 3, stride, 2, dilation=2, groups=c)[:2],
            nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c))

    class Cell(nn.Module):
        def __init__(self, c_pp, c_p, c, reduction, reduction_prev):
            super().__init__()
            self.pre0 = (FactorizedReduce(c_pp, c) if reduction_prev else
                         nn.Sequential(*relu_conv_bn(c_pp, c, 1, 1, 0)))
            self.pre1 = nn.Sequential(*relu_conv_bn(c_p, c, 1, 1, 0))
            genotype = DARTS_REDUCE if reduction else DARTS_NORMAL
            self.inputs = [index for _, index in genotype]
            self.ops = nn.ModuleList(
                operation(name, c, 2 if reduction and index < 2 else 1)
                for name, index in genotype)

        def forward(self, s0, s1):
            states = [self.pre0(s0), self.pre1(s1)]
            for node in range(4):
                a, b = 2 * node, 2 * node + 1
                states.append(self.ops[a](states[self.inputs[a]]) +
                              self.ops[b](states[self.inputs[b]]))
            return torch.cat(states[2:], dim=1)

    class Network(nn.Module):
        def __init__(self):
            super().__init__()
            c = channels
            self.stem = nn.Sequential(nn.Conv2d(3, 3 * c, 3, padding=1,
                                                bias=False),
                                      nn.BatchNorm2d(3 * c))
            c_pp, c_p, reduction_prev = 3 * c, 3 * c, False
            self.cells = nn.ModuleList()
            for layer in range(layers):
                reduction = layer in (layers // 3, 2 * layers // 3)
                if reduction:
                    c *= 2
                self.cells.append(Cell(c_pp, c_p, c, reduction,
                                       reduction_prev))
                reduction_prev = reduction
                c_pp, c_p = c_p, 4 * c
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.classifier = nn.Linear(c_p, 10)

        def forward(self, x):
            s0 = s1 = self.stem(x)
            for cell in self.cells:
                s0, s1 = s1, cell(s0, s1)
            return self.classifier(torch.flatten(self.pool(s1), 1))

    return Network()


def darts_graph(layers, args, directory):
    """The DARTS-V2 network of `layers` cells: (name, path, figures)."""
    torch.manual_seed(0)
    model = darts_network(args.darts_channels, layers)
    name = "darts-%d" % layers
    return name, export(model, 32, "darts_%d" % layers, directory), {}


# Passes run before memsched-reorder in the variants measured besides it.
FUSE = ["--linalg-fuse-elementwise-ops"]
INPLACE = ["--memsched-inplace"]


def reorder(opt, path, algorithm, time_limit_ms, output=os.devnull,
            before=(), options=""):
    """Runs the passes `before`, memsched-reorder with `algorithm`, then
    memsched-report, on `path` (the resulting module goes to `output`);
    returns the function's report and the wall time of MemschedReorderPass
    in seconds."""
    command = [opt, path, "--mlir-disable-threading", "--mlir-timing",
               "--mlir-timing-display=list",
               "-mlir-print-op-on-diagnostic=false"] + list(before)
    command += ["--memsched-reorder=algorithm=%s time-limit-ms=%d %s" %
                (algorithm, time_limit_ms, options),
                "--memsched-report=format=json",
                "-o", output]
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode != 0:
        raise RuntimeError("memsched-opt failed on %s with algorithm=%s:\n%s"
                           % (path, algorithm, completed.stderr))
    function, = json.loads(completed.stdout)["functions"]
    for line in completed.stderr.splitlines():
        if "MemschedReorderPass" in line:
            return function, float(re.search(r"([0-9.]+)\s*\(",
                                             line).group(1))
    raise RuntimeError("no timing line for MemschedReorderPass:\n%s" %
                       completed.stderr)


def identical_on_cpu(before_path, after_path):
    """None if both modules give bit-identical results on CPU, else the
    first difference."""
    with open(before_path) as before, open(after_path) as after:
        return memsched.execute.compare_on_cpu(before.read(), after.read(),
                                               func="forward")


def measure(graph, args, verify, algorithms=ALGORITHMS):
    """The figures of one graph (name, path, figures), as a JSON-ready
    dict. Peaks are resident + transient bytes; the transient ones
    (activations, what depends on the order) are the figures compared."""
    name, path, extra = graph
    reordered = path[:-len(".mlir")] + ".auto.mlir"
    fused = path[:-len(".mlir")] + ".fused.auto.mlir"
    reports, seconds = {}, {}
    for algorithm in algorithms:
        reports[algorithm], seconds[algorithm] = reorder(
            args.opt, path, algorithm, args.time_limit_ms,
            reordered if algorithm == "auto" else os.devnull)
    fused_report, fused_seconds = reorder(args.opt, path, "auto",
                                          args.time_limit_ms, fused,
                                          before=FUSE)
    inplace = path[:-len(".mlir")] + ".inplace.auto.mlir"
    inplace_report, inplace_seconds = reorder(
        args.opt, path, "auto", args.time_limit_ms, inplace, before=INPLACE)
    option = path[:-len(".mlir")] + ".fuse-option.auto.mlir"
    option_report, option_seconds = reorder(
        args.opt, path, "auto", args.time_limit_ms, option,
        options="fuse-elementwise=true")
    auto = reports["auto"]
    figures = auto["reorder"]
    resident = auto["resident_bytes"]
    transient = {algorithm: report["reorder"]["peak_after_bytes"] - resident
                 for algorithm, report in reports.items()}
    fused_figures = fused_report["reorder"]
    row = dict(extra, graph=name)
    row.update({
           "ops": auto["ops"], "resident_bytes": resident,
           "program_bytes": figures["peak_before_bytes"] - resident,
           "transient_peak_bytes": transient,
           "lower_bound_bytes": figures["lower_bound_bytes"] - resident,
           "chosen": figures["chosen"], "optimal": figures["optimal"],
           "planned_before_bytes": figures["planned_before_bytes"],
           "planned_after_bytes": figures["planned_after_bytes"],
           "auto_candidates": figures["candidates"],
           "pass_seconds": seconds,
           "fused": {
               "ops": fused_report["ops"],
               "program_bytes":
                   fused_figures["peak_before_bytes"] - resident,
               "auto_bytes": fused_figures["peak_after_bytes"] - resident,
               "lower_bound_bytes":
                   fused_figures["lower_bound_bytes"] - resident,
               "optimal": fused_figures["optimal"],
               "pass_seconds": fused_seconds},
           "fuse_option": {
               "auto_bytes": option_report["reorder"]["peak_after_bytes"] -
               resident,
               "optimal": option_report["reorder"]["optimal"],
               "chosen": option_report["reorder"]["chosen"],
               "pass_seconds": option_seconds},
           "inplace": {
               "auto_bytes": inplace_report["reorder"]["peak_after_bytes"] -
               resident,
               "optimal": inplace_report["reorder"]["optimal"],
               "pass_seconds": inplace_seconds}})
    if verify:
        for key, module in [("bit_identical", reordered),
                            ("fused_bit_identical", fused),
                            ("inplace_bit_identical", inplace),
                            ("fuse_option_bit_identical", option)]:
            mismatch = identical_on_cpu(path, module)
            row[key] = mismatch is None
            if mismatch:
                row[key + "_mismatch"] = mismatch
    return row


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def kib(count):
    return "%.1f" % (count / 1024)


def best_heuristic(row):
    peaks = row["transient_peak_bytes"]
    return min(peaks["xla"], peaks["inductor"])


def verdict(row, key):
    if key not in row:
        return "-"
    return "yes" if row[key] else "NO: " + row[key + "_mismatch"]


def variant_cells(row, key):
    """The cells of a table of passes run before memsched-reorder: its
    transient peak, the gain over the captured program, optimality, pass
    time and the CPU comparison."""
    variant = row[key]
    return [kib(variant["auto_bytes"]),
            "%.3f" % (row["program_bytes"] / variant["auto_bytes"]),
            "yes" if variant["optimal"] else "no",
            "%.0f" % (variant["pass_seconds"] * 1e3),
            verdict(row, key + "_bit_identical")]


def print_table(rows):
    print("## Transient peak after memsched-reorder on RandWire graphs (KiB; "
          "gain = other / auto, higher is better)\n")
    print("| graph | ops | program | XLA | Inductor | auto | program / auto "
          "| best heuristic / auto | lower bound | auto / LB | optimal | "
          "chosen | pass ms | bit-identical |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|"
          "---|")
    for row in rows:
        peaks = row["transient_peak_bytes"]
        auto = peaks["auto"]
        cells = [row["graph"], str(row["ops"]), kib(row["program_bytes"]),
                 kib(peaks["xla"]), kib(peaks["inductor"]), kib(auto),
                 "%.3f" % (row["program_bytes"] / auto),
                 "%.3f" % (best_heuristic(row) / auto),
                 kib(row["lower_bound_bytes"]),
                 "%.3f" % (auto / row["lower_bound_bytes"]),
                 "yes" if row["optimal"] else "no", row["chosen"],
                 "%.0f" % (row["pass_seconds"]["auto"] * 1e3),
                 verdict(row, "bit_identical")]
        print("| " + " | ".join(cells) + " |")
    randwire = [r for r in rows if "kind" in r]
    if randwire:
        print("\nGeomean over %d RandWire graphs: program / auto %.3fx, best "
              "heuristic / auto %.3fx, auto / lower bound %.3fx" % (
                  len(randwire),
                  geomean([r["program_bytes"] /
                           r["transient_peak_bytes"]["auto"]
                           for r in randwire]),
                  geomean([best_heuristic(r) /
                           r["transient_peak_bytes"]["auto"]
                           for r in randwire]),
                  geomean([r["transient_peak_bytes"]["auto"] /
                           r["lower_bound_bytes"] for r in randwire])))

    print("\n## With upstream elementwise fusion first "
          "(-linalg-fuse-elementwise-ops, then memsched-reorder)\n")
    print("| graph | ops | fused program | fused auto | program / fused "
          "auto | optimal | pass ms | bit-identical |")
    print("|---|---:|---:|---:|---:|---|---:|---|")
    for row in rows:
        fused = row["fused"]
        cells = [row["graph"], str(fused["ops"]),
                 kib(fused["program_bytes"])] + variant_cells(row, "fused")
        print("| " + " | ".join(cells) + " |")
    if randwire:
        print("\nGeomean over %d RandWire graphs: program (unfused) / fused "
              "auto %.3fx; %d of %d proven optimal" % (
                  len(randwire),
                  geomean([r["program_bytes"] / r["fused"]["auto_bytes"]
                           for r in randwire]),
                  sum(r["fused"]["optimal"] for r in randwire),
                  len(randwire)))

    print("\n## With memsched-inplace first (elementwise ops write into a "
          "dead input, then memsched-reorder)\n")
    print("| graph | program | inplace + auto | program / inplace + auto | "
          "optimal | pass ms | bit-identical |")
    print("|---|---:|---:|---:|---|---:|---|")
    for row in rows:
        cells = [row["graph"], kib(row["program_bytes"])] + variant_cells(
            row, "inplace")
        print("| " + " | ".join(cells) + " |")
    if randwire:
        print("\nGeomean over %d RandWire graphs: program / inplace + auto "
              "%.3fx" % (len(randwire),
                         geomean([r["program_bytes"] /
                                  r["inplace"]["auto_bytes"]
                                  for r in randwire])))


def print_option_table(rows):
    print("\n## memsched-reorder with fuse-elementwise=true (the unfused and "
          "the fused function planned, the lower peak kept)\n")
    print("| graph | program | auto | program / auto | optimal | pass ms | "
          "bit-identical | chosen |")
    print("|---|---:|---:|---:|---|---:|---|---|")
    for row in rows:
        cells = ([row["graph"], kib(row["program_bytes"])] +
                 variant_cells(row, "fuse_option") +
                 [row["fuse_option"]["chosen"]])
        print("| " + " | ".join(cells) + " |")
    randwire = [r for r in rows if "kind" in r]
    if randwire:
        print("\nGeomean over %d RandWire graphs: program / auto with "
              "fuse-elementwise %.3fx" % (
                  len(randwire),
                  geomean([r["program_bytes"] /
                           r["fuse_option"]["auto_bytes"]
                           for r in randwire])))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default="build/bin/memsched-opt")
    parser.add_argument("--kinds", nargs="+", default=list(GENERATORS),
                        choices=list(GENERATORS))
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--torchvision", nargs="*", default=[],
                        choices=list(TORCHVISION),
                        help="branchy torchvision classifiers to measure "
                        "too (auto, xla and inductor only)")
    parser.add_argument("--darts", nargs="*", type=int, default=[],
                        metavar="LAYERS",
                        help="DARTS-V2 cell networks of these many cells "
                        "to measure too (auto, xla and inductor only)")
    parser.add_argument("--darts-channels", type=int, default=16)
    parser.add_argument("--nodes", type=int, default=32)
    parser.add_argument("--stages", type=int, default=3)
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--time-limit-ms", type=int, default=0,
                        help="wall-clock limit of auto (0: work limits "
                        "only, deterministic)")
    parser.add_argument("--verify", choices=["first", "all", "none"],
                        default="first",
                        help="graphs whose auto order is run on CPU: the "
                        "first seed of each kind, all or none")
    parser.add_argument("--save-dir",
                        help="keep the exported and reordered MLIR here")
    parser.add_argument("--json", help="write the rows to this file")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        directory = args.save_dir or scratch
        os.makedirs(directory, exist_ok=True)
        for kind in args.kinds:
            for seed in args.seeds:
                verify = args.verify == "all" or (
                    args.verify == "first" and seed == args.seeds[0])
                rows.append(measure(randwire_graph(kind, seed, args,
                                                   directory), args, verify))
                print("measured %s" % rows[-1]["graph"], file=sys.stderr)
        for layers in args.darts:
            rows.append(measure(darts_graph(layers, args, directory), args,
                                args.verify != "none",
                                ["auto", "xla", "inductor"]))
            print("measured darts-%d" % layers, file=sys.stderr)
        for name in args.torchvision:
            rows.append(measure(torchvision_graph(name, directory), args,
                                args.verify != "none",
                                ["auto", "xla", "inductor"]))
            print("measured %s" % name, file=sys.stderr)
    print_table(rows)
    print_option_table(rows)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)


if __name__ == "__main__":
    main()
