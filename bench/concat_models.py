"""memsched-concat-in-place on classifiers that concatenate.

Usage: PYTHONPATH=build/python_packages python3 bench/concat_models.py
       [--opt build/bin/memsched-opt] [--models squeezenet1_1 googlenet ...]
       [--verify] [--json out.json]

A small U-Net (three levels, 16-64 channels) and torchvision classifiers
(random weights, 10 classes; all in eval mode, batch 1) are exported with memsched.torch.export_inference and run through
memsched-opt with memsched-inplace first (a convolution's bias and
activation then write into its buffer, so a concatenated piece is one chain
of ops):

- program: the captured order;  + concat: then memsched-concat-in-place;
- reordered: memsched-reorder (work limits only);  + concat: memsched-reorder,
  memsched-concat-in-place, memsched-reorder.

Figures are planned bytes (memsched-report's `planned_bytes`: resident +
arena + escaping) and, for the captured order, the transient peak (the
activations; the weights are resident in every order). `concat s` is the wall time of the concat-in-place pass
(--mlir-timing, one thread). `--verify` runs the rewritten modules on CPU
against the captured one (memsched.execute.compare_on_cpu; slow for the
larger models).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import torch

import memsched.execute
import memsched.torch

# Networks with concatenations and the input size each is measured at.
MODELS = {"squeezenet1_1-body": 55, "unet": 128, "squeezenet1_1": 224,
          "googlenet": 224, "inception_v3": 299, "densenet121": 224}


class UNet(torch.nn.Module):
    """A small U-Net (Ronneberger et al.): three levels of two 3x3
    convolutions, each decoder level reading the upsampled coarser level
    concatenated with the encoder's features of its resolution."""

    def __init__(self, channels=(16, 32, 64), classes=2):
        super().__init__()
        nn = torch.nn

        def block(inputs, outputs):
            return nn.Sequential(
                nn.Conv2d(inputs, outputs, 3, padding=1), nn.ReLU(),
                nn.Conv2d(outputs, outputs, 3, padding=1), nn.ReLU())

        self.down = nn.ModuleList()
        inputs = 3
        for width in channels:
            self.down.append(block(inputs, width))
            inputs = width
        self.up = nn.ModuleList()
        self.merge = nn.ModuleList()
        for width in reversed(channels[:-1]):
            self.up.append(nn.ConvTranspose2d(inputs, width, 2, stride=2))
            self.merge.append(block(2 * width, width))
            inputs = width
        self.head = nn.Conv2d(inputs, classes, 1)

    def forward(self, x):
        skips = []
        for index, block in enumerate(self.down):
            if index:
                x = torch.nn.functional.max_pool2d(x, 2)
            x = block(x)
            skips.append(x)
        for up, merge, skip in zip(self.up, self.merge,
                                   reversed(skips[:-1])):
            x = merge(torch.cat([skip, up(x)], 1))
        return self.head(x)

REORDER = "--memsched-reorder=time-limit-ms=0"


def export(name, size, directory):
    import torchvision
    torch.manual_seed(0)
    channels = 3
    if name == "unet":
        model = UNet().eval()
    elif name == "squeezenet1_1-body":
        # The fire modules (and pools) after SqueezeNet 1.1's stem, on the
        # stem's 64-channel output: where its activations peak.
        model = torchvision.models.squeezenet1_1().features[3:].eval()
        channels = 64
    else:
        options = {"num_classes": 10}
        if name in ("googlenet", "inception_v3"):
            options.update(aux_logits=False, init_weights=False)
        model = getattr(torchvision.models, name)(**options).eval()
    text = memsched.torch.export_inference(
        model, (torch.randn(1, channels, size, size),))
    path = os.path.join(directory, "%s_%d.mlir" % (name, size))
    with open(path, "w") as handle:
        handle.write(text)
    return path


def run(opt, path, passes, output=os.devnull):
    """Runs `passes` then memsched-report on `path`; returns the function's
    report, the concat-in-place pass's seconds (or None) and its remark."""
    command = [opt, path, "--mlir-disable-threading", "--mlir-timing",
               "--mlir-timing-display=list",
               "-mlir-print-op-on-diagnostic=false"] + passes + [
        "--memsched-report=format=json", "-o", output]
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode != 0:
        raise RuntimeError("memsched-opt %s failed:\n%s" %
                           (" ".join(passes), completed.stderr[-3000:]))
    function, = json.loads(completed.stdout)["functions"]
    seconds = None
    for line in completed.stderr.splitlines():
        if "MemschedConcatInPlacePass" in line:
            seconds = float(re.search(r"([0-9.]+)\s*\(", line).group(1))
    remark = re.search(r"memsched-concat-in-place: (\d+) pieces of (\d+) "
                       r"concatenations", completed.stderr)
    return function, seconds, (remark.groups() if remark else ("0", "0"))


def identical(before_path, after_path):
    with open(before_path) as before, open(after_path) as after:
        mismatch = memsched.execute.compare_on_cpu(
            before.read(), after.read(), func="forward")
    return "yes" if mismatch is None else "NO: %s" % mismatch


def measure(name, size, args, directory):
    path = export(name, size, directory)
    inplace = ["--memsched-inplace"]
    program, _, _ = run(args.opt, path, inplace)
    rewritten_path = os.path.join(directory, name + "_concat.mlir")
    concat, concat_s, (pieces, concats) = run(
        args.opt, path, inplace + ["--memsched-concat-in-place"],
        rewritten_path)
    reordered, _, _ = run(args.opt, path, inplace + [REORDER])
    both_path = os.path.join(directory, name + "_both.mlir")
    both, both_s, (both_pieces, both_concats) = run(
        args.opt, path,
        inplace + [REORDER, "--memsched-concat-in-place", REORDER], both_path)
    row = {"model": name, "size": size, "ops": program["ops"],
           "resident": program["resident_bytes"],
           "program": program["planned_bytes"],
           "program_transient": program["peak_transient_bytes"],
           "concat": concat["planned_bytes"],
           "concat_transient": concat["peak_transient_bytes"],
           "concat_s": concat_s,
           "pieces": int(pieces), "concats": int(concats),
           "reordered": reordered["planned_bytes"],
           "both": both["planned_bytes"], "both_s": both_s,
           "both_pieces": int(both_pieces), "both_concats": int(both_concats)}
    if args.verify:
        row["identical"] = identical(path, rewritten_path)
        row["identical_both"] = identical(path, both_path)
    return row


def kib(count):
    return "%.1f" % (count / 1024.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--opt", default="build/bin/memsched-opt")
    parser.add_argument("--models", nargs="*", default=list(MODELS))
    parser.add_argument("--verify", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        for name in args.models:
            rows.append(measure(name, MODELS[name], args, directory))
            print("measured %s" % name, file=sys.stderr)
    print("| model | input | ops | resident KiB | program KiB | + concat KiB "
          "| gain | transient: program KiB | + concat KiB | gain | "
          "pieces / concats | concat s | reordered KiB | + concat KiB | "
          "gain | bit-identical |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
          "---:|---:|---|")
    for row in rows:
        print("| %s | %d | %d | %s | %s | %s | %.3fx | %s | %s | %.3fx | "
              "%d / %d | %.2f | %s | %s | %.3fx | %s |" % (
                  row["model"], row["size"], row["ops"], kib(row["resident"]),
                  kib(row["program"]), kib(row["concat"]),
                  row["program"] / row["concat"],
                  kib(row["program_transient"]),
                  kib(row["concat_transient"]),
                  row["program_transient"] / row["concat_transient"],
                  row["pieces"], row["concats"], row["concat_s"] or 0.0,
                  kib(row["reordered"]), kib(row["both"]),
                  row["reordered"] / row["both"],
                  "%s / %s" % (row["identical"], row["identical_both"])
                  if args.verify else "-"))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)


if __name__ == "__main__":
    main()
