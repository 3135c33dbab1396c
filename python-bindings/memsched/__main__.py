"""Command line: ``python3 -m memsched MODEL.mlir [--reorder ALGO] [--plot PNG]
[--json F]``.

Prints the memory table of every function in the module (after reordering
its ops with ``--reorder``), and optionally writes the memory-over-time
plot, the JSON report and a Chrome trace.
"""

import argparse
import json
import sys

import memsched
import memsched.plot


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m memsched",
        description="Report the device memory a tensor program needs.")
    parser.add_argument("model", help="MLIR file (linalg on tensors)")
    parser.add_argument("--device", default="h100",
                        help="device preset (h100, h200, a100-80gb, cpu) or "
                        "a .json device file (default: h100)")
    parser.add_argument("--plot", help="write the memory timeline PNG here")
    parser.add_argument("--json", help="write the JSON report here")
    parser.add_argument("--trace", help="write a Chrome trace (Perfetto) here")
    parser.add_argument("--func", help="function to plot (default: first)")
    parser.add_argument("--reorder", metavar="ALGORITHM",
                        help="first reorder ops to lower the peak (auto, "
                        "exact, liu, xla, inductor, ...; see "
                        "docs/scheduling.md)")
    args = parser.parse_args(argv)

    with open(args.model) as handle:
        text = handle.read()
    try:
        if args.reorder:
            text = memsched.reorder(text, algorithm=args.reorder,
                                    device=args.device)
        report = memsched.analyze(text, device=args.device)
        if args.trace:
            memsched.run_pipeline(
                text, "memsched-report{format=json output=/dev/null "
                "device=%s trace=%s}" % (args.device, args.trace))
    except memsched.MLIRError as error:
        print("memsched: error:\n%s" % error, file=sys.stderr)
        return 1
    print(memsched.report(report))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(report, handle, indent=2)
        print("wrote %s" % args.json)
    if args.plot:
        memsched.plot.memory_timeline(report, args.plot, function=args.func)
        print("wrote %s" % args.plot)
    if args.trace:
        print("wrote %s" % args.trace)
    return 0


if __name__ == "__main__":
    sys.exit(main())
