"""Command line: ``python3 -m memsched MODEL.mlir[.gz] [--budget B]
[--device D] [--plot P.png] [--json R.json] [--trace T.json]``.

Without ``--budget`` it prints the memory table of every function in the
module (after reordering its ops with ``--reorder``). With ``--budget``
(``0.5x``, ``12GiB``, ``12 GiB``, ``12GB``, ``12e9``, ``min``) it runs
``memsched.optimize`` and prints what the device must hold and the modelled
step time before and after, against the budget, and what was chosen. It
optionally writes the memory-over-time plot (before and after on one plot
with ``--budget``), the JSON report, a Chrome trace and the optimised module.

Bad input (a missing or unreadable file, a malformed budget, an unknown
device, an MLIR error) is one message on stderr and exit status 1.
"""

import argparse
import contextlib
import gzip
import json
import os
import re
import sys
import threading

import memsched
import memsched.budgets


class UserError(Exception):
    """A failure reported as one message, without a traceback."""


# A progress line is printed on stderr for a step still running after this
# many seconds (MEMSCHED_PROGRESS_AFTER_S overrides it; 0: always).
_PROGRESS_AFTER_S = 2.0


@contextlib.contextmanager
def progress(message):
    """Prints ``memsched: MESSAGE ...`` on stderr if the block runs longer
    than a few seconds. The native calls release the GIL, so the timer
    fires while they run."""
    try:
        delay = float(os.environ.get("MEMSCHED_PROGRESS_AFTER_S",
                                     _PROGRESS_AFTER_S))
    except ValueError:
        delay = _PROGRESS_AFTER_S
    if delay <= 0:
        print("memsched: %s ..." % message, file=sys.stderr, flush=True)
        yield
        return
    timer = threading.Timer(delay, lambda: print(
        "memsched: %s ..." % message, file=sys.stderr, flush=True))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def read_model(path):
    """The text of an MLIR file, gzip-compressed or not (by its content)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise UserError("cannot read %s: %s" % (
            path, error.strerror or error))
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise UserError("cannot read %s: not a valid gzip file (%s)"
                            % (path, error))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError("cannot read %s: not an MLIR text file (nor gzip "
                        "of one)" % path)


_DIAGNOSTIC = re.compile(r'^(?:loc\((?:"<input>":(?P<line>\d+):(?P<column>'
                         r'\d+)|[^)]*)\): )?(?P<severity>error|note|remark|'
                         r'warning): (?P<message>.*)$')


def mlir_error_lines(error, path=None):
    """The errors and notes of an MLIRError, without remarks. A pass's
    message (``memsched-fit: ...``) stands alone; other errors (the
    parser's) keep their line and column in ``path``."""
    lines = []
    for line in str(error).splitlines():
        match = _DIAGNOSTIC.match(line.strip())
        if not match:
            continue
        message = match.group("message")
        if message.startswith("memsched: "):
            message = message[len("memsched: "):]
        if match.group("severity") == "error":
            if (match.group("line") and path and
                    not match.group("message").startswith("memsched")):
                message = "%s:%s:%s: %s" % (path, match.group("line"),
                                            match.group("column"), message)
            lines.append(message)
        elif match.group("severity") == "note" and lines:
            lines.append("  note: " + message)
    if not lines:
        lines = [line for line in str(error).splitlines() if line.strip()]
    return lines or ["MLIR error"]


def _bytes(count):
    return memsched.format_bytes(count) if count is not None else "-"


def _time(seconds):
    if seconds is None:
        return "-"
    if seconds >= 1.0:
        return "%.3f s" % seconds
    if seconds >= 1e-3:
        return "%.3f ms" % (seconds * 1e3)
    return "%.1f us" % (seconds * 1e6)


def _change(before, after):
    if not before or after is None:
        return ""
    return "%+.1f%%" % (100.0 * (after - before) / before)


def fit_table(before, after, budget=None):
    """The before/after table of one ``memsched.optimize`` run.

    ``before`` is ``memsched.analyze`` of the input, ``after`` the report
    ``optimize`` returned. Leads with what the device must hold
    (``planned_bytes``) and the modelled step time, before and after,
    against the budget; then what was chosen and the plan's largest
    entries when the report has them.
    """
    lines = []
    before_by_name = {f["name"]: f for f in before["functions"]}
    for function in after["functions"]:
        name = function["name"]
        if "skipped" in function:
            lines.append("@%s: skipped: %s" % (name, function["skipped"]))
            continue
        first = before_by_name.get(name, {})
        fit = function.get("fit", {})
        # Before: the program as given (the fit entry's "before" is after
        # reordering); after: the program as optimised.
        planned_before = first.get("planned_bytes",
                                   fit.get("planned_before_bytes"))
        planned_after = function["planned_bytes"]
        time_before = first.get("modeled_time_s", fit.get("time_before_s"))
        time_after = function["modeled_time_s"]
        lines.append("memsched: @%s on %s%s" % (
            name, function["device"],
            " with budget %s" % budget if budget is not None else ""))
        lines.append("  %-28s%14s  %14s  %s" % ("", "before", "after",
                                                "change"))
        lines.append("  %-28s%14s  %14s  %s" % (
            "device memory (planned)", _bytes(planned_before),
            _bytes(planned_after), _change(planned_before, planned_after)))
        lines.append("  %-28s%14s  %14s  %s" % (
            "step time (modelled)", _time(time_before), _time(time_after),
            _change(time_before, time_after)))
        if "budget_bytes" in fit:
            lines.append("  %-28s%14s  %14s  %s" % (
                "budget", "", _bytes(fit["budget_bytes"]),
                "met" if planned_after <= fit["budget_bytes"] else "NOT MET"))
        if fit.get("smallest_bytes") is not None:
            lines.append("  %-28s%14s  %14s" % (
                "smallest reachable", "", _bytes(fit["smallest_bytes"])))
        if "floor_bytes" in function:
            lines.append("  %-28s%14s  %14s  %s" % (
                "floor (no plan goes below)", "",
                _bytes(function["floor_bytes"]), "'%s' at %s" % (
                    function["floor_op"], function["floor_location"])))
            if function["recompute_floor_bytes"] > function["floor_bytes"]:
                lines.append("  %-28s%14s  %14s  %s" % (
                    "floor without swaps", "",
                    _bytes(function["recompute_floor_bytes"]),
                    "operands of '%s' at %s" % (
                        function["recompute_floor_op"],
                        function["recompute_floor_location"])))
        lines.append("  %-28s%14s  %14s" % (
            "peak live (modelled)", _bytes(first.get("peak_bytes")),
            _bytes(function["peak_bytes"])))
        if function.get("peak_op"):
            # What holds the memory there: what a lower budget must cut.
            lines.append("  %-28s%s ('%s')" % (
                "peak at", function["peak_location"], function["peak_op"]))
            for buffer in function["peak_buffers"][:3]:
                lines.append("    %-26s%14s  %s" % (
                    "", _bytes(buffer["bytes"]),
                    memsched._describe_peak_buffer(buffer)))
        lines.append("  %-28s%s" % ("chosen", fit.get("chosen", "none")
                                    if fit else "no budget: reorder and "
                                    "in-place writes only"))
        reorder = function.get("reorder")
        if reorder:
            lines.append("  %-28s%s" % ("reordered by", reorder["chosen"]))
        remat = function.get("remat")
        if remat:
            lines.append("  %-28s%d op%s, +%s" % (
                "recomputed", remat["recomputed_ops"],
                "" if remat["recomputed_ops"] == 1 else "s",
                _time(remat["recompute_time_s"])))
        if function.get("swap_ops"):
            count = function["swap_ops"]
            lines.append("  %-28s%s (%d value%s), %.0f%% of the copy time "
                         "hidden" % ("swapped to host",
                                     _bytes(function["swap_bytes"]), count,
                                     "" if count == 1 else "s",
                                     100.0 * function["swap_hidden_fraction"]))
        plan = function.get("plan")
        if plan:
            lines.append("  largest decisions of the plan (%d in all):"
                         % len(plan))
            largest = sorted(plan, key=lambda entry: -entry.get("bytes", 0))
            for entry in largest[:10]:
                lines.append("    %-10s %12s  %10s  %s" % (
                    entry.get("kind", "?"), _bytes(entry.get("bytes")),
                    "+" + _time(entry.get("time_s")) if entry.get(
                        "time_s") is not None else "",
                    entry.get("location", "")))
    return "\n".join(lines)


# The budgets of --sweep without a list: from a little under the planned
# bytes to the smallest reachable footprint.
DEFAULT_SWEEP = "0.9x,0.75x,0.6x,0.45x,0.3x,min"


def sweep_table(curve):
    """The memory-vs-time table of a ``memsched.sweep`` result."""
    lines = []
    for function in curve["functions"]:
        lines.append("memsched: memory vs time of @%s on %s (budget sweep)"
                     % (function["name"], function["device"]))
        lines.append("  %-10s%14s  %14s  %12s  %s" % (
            "budget", "budget bytes", "planned", "step time", "chosen"))
        lines.append("  %-10s%14s  %14s  %12s" % (
            "no budget", "", _bytes(function["planned_bytes"]),
            _time(function["modeled_time_s"])))
        for point in function["points"]:
            if point["met"]:
                lines.append("  %-10s%14s  %14s  %12s  %s" % (
                    point["budget"], _bytes(point["budget_bytes"]),
                    _bytes(point["planned_bytes"]),
                    _time(point["modeled_time_s"]), point["chosen"]))
            else:
                lines.append("  %-10s%14s  not met: the smallest reachable "
                             "is %s" % (point["budget"],
                                        _bytes(point["budget_bytes"]),
                                        _bytes(point["planned_bytes"])))
    return "\n".join(lines)


def build_parser():
    """The command line of ``python3 -m memsched``."""
    parser = argparse.ArgumentParser(
        prog="python3 -m memsched",
        description="Report the device memory a tensor program needs, and "
        "with --budget make it fit.")
    parser.add_argument("model", help="MLIR file (linalg on tensors; "
                        "gzip-compressed .mlir.gz too)")
    parser.add_argument("--budget",
                        help="fit the program in this much device memory: "
                        "0.5x (of its planned bytes), 12GiB, '12 GiB', 12GB "
                        "(powers of 1000), 12e9 (bytes) or min (the "
                        "smallest reachable)")
    parser.add_argument("--device", default="h100",
                        help="device preset (h100, h200, a100-80gb, cpu) or "
                        "a .json device file (default: h100)")
    parser.add_argument("--no-remat", dest="remat", action="store_false",
                        help="with --budget: do not recompute")
    parser.add_argument("--no-swap", dest="swap", action="store_false",
                        help="with --budget: do not swap to host memory")
    parser.add_argument("--plot", help="write the memory-over-time PNG here "
                        "(before and after, with the budget, with --budget)")
    parser.add_argument("--json", help="write the JSON report here")
    parser.add_argument("--trace", help="write a Chrome trace (Perfetto) here")
    parser.add_argument("-o", "--output",
                        help="write the (reordered or optimised) module here")
    parser.add_argument("--sweep", nargs="?", const=DEFAULT_SWEEP,
                        metavar="B1,B2,...",
                        help="also print the memory-vs-time curve: the plan "
                        "for each budget (default: %s)" % DEFAULT_SWEEP)
    parser.add_argument("--sweep-plot", metavar="S.png",
                        help="write the memory-vs-time curve's plot here "
                        "(implies --sweep)")
    parser.add_argument("--func", help="function to plot (default: first)")
    parser.add_argument("--reorder", metavar="ALGORITHM",
                        help="without --budget: first reorder ops to lower "
                        "the peak (auto, exact, liu, xla, inductor, ...; see "
                        "docs/scheduling.md)")
    parser.add_argument("--fuse-elementwise", action="store_true",
                        help="let the reordering also plan the model after "
                        "upstream elementwise fusion and keep it where its "
                        "peak is lower (with --budget: the function then "
                        "fitted)")
    return parser


def _write_json(report, path):
    try:
        with open(path, "w") as handle:
            json.dump(report, handle, indent=2)
    except OSError as error:
        raise UserError("cannot write %s: %s" % (path,
                                                 error.strerror or error))


def _write_text(text, path):
    try:
        with open(path, "w") as handle:
            handle.write(text)
    except OSError as error:
        raise UserError("cannot write %s: %s" % (path,
                                                 error.strerror or error))


def _check_writable(*paths):
    """Fails before any long step when an output cannot be written."""
    for path in paths:
        if not path:
            continue
        directory = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(directory):
            raise UserError("cannot write %s: no directory %s"
                            % (path, directory))


def _plot_module():
    """memsched.plot, which needs matplotlib: only --plot does."""
    try:
        import memsched.plot
    except ImportError as error:
        raise UserError("--plot needs matplotlib (%s; Debian: "
                        "python3-matplotlib)" % error)
    return memsched.plot


def _write_trace(text, device, path):
    if os.path.exists(path):
        os.remove(path)
    memsched.run_pipeline(
        text, "memsched-report{format=json output=/dev/null "
        "device=%s trace=%s}" % (device, path))
    if not os.path.exists(path):
        raise UserError("cannot write %s" % path)


def _run(args):
    budget = None
    if args.budget is not None:
        if args.reorder:
            raise UserError("--reorder and --budget do not go together: "
                            "with a budget, memsched reorders with the best "
                            "order it finds")
        try:
            budget = memsched.budgets.normalize(args.budget)
        except ValueError as error:
            raise UserError(str(error))
    sweep = args.sweep or (DEFAULT_SWEEP if args.sweep_plot else None)
    if sweep is not None:
        try:
            sweep = [memsched.budgets.normalize(entry)
                     for entry in sweep.split(",")]
        except ValueError as error:
            raise UserError("--sweep: %s" % error)
    _check_writable(args.plot, args.json, args.trace, args.output,
                    args.sweep_plot)
    plot = _plot_module() if args.plot or args.sweep_plot else None
    text = source = read_model(args.model)
    name = os.path.basename(args.model)

    with progress("analysing %s" % name):
        before = memsched.analyze(text, device=args.device)
    if budget is None:
        if args.reorder or args.fuse_elementwise:
            algorithm = args.reorder or "auto"
            with progress("reordering %s (%s)" % (name, algorithm)):
                text = memsched.reorder(
                    text, algorithm=algorithm, device=args.device,
                    fuse_elementwise=args.fuse_elementwise)
            report = memsched.analyze(text, device=args.device)
        else:
            report = before
        print(memsched.report(report))
    else:
        with progress("fitting %s into %s on %s (reorder, recompute, swap; "
                      "this can take a minute)" % (name, args.budget,
                                                   args.device)):
            text, report = memsched.optimize(
                text, budget=budget, device=args.device,
                allow_remat=args.remat, allow_swap=args.swap,
                fuse_elementwise=args.fuse_elementwise)
        print(fit_table(before, report, budget=args.budget))

    if sweep is not None:
        with progress("sweeping %d budgets of %s (this can take a minute)"
                      % (len(sweep), name)):
            curve = memsched.sweep(source, sweep,
                                   device=args.device,
                                   allow_remat=args.remat,
                                   allow_swap=args.swap)
        print(sweep_table(curve))
    if args.json:
        _write_json(report, args.json)
        print("wrote %s" % args.json)
    if args.plot:
        with progress("plotting"):
            try:
                if budget is None:
                    plot.memory_timeline(report, args.plot,
                                         function=args.func)
                else:
                    plot.before_after(before, report, args.plot,
                                      function=args.func)
            except ValueError as error:
                raise UserError(str(error))
        print("wrote %s" % args.plot)
    if args.sweep_plot:
        try:
            plot.budget_sweep(curve, args.sweep_plot, function=args.func)
        except ValueError as error:
            raise UserError(str(error))
        print("wrote %s" % args.sweep_plot)
    if args.trace:
        with progress("writing the trace"):
            _write_trace(text, args.device, args.trace)
        print("wrote %s" % args.trace)
    if args.output:
        _write_text(text, args.output)
        print("wrote %s" % args.output)


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        _run(args)
    except UserError as error:
        print("memsched: error: %s" % error, file=sys.stderr)
        return 1
    except memsched.MLIRError as error:
        lines = mlir_error_lines(error, args.model)
        print("memsched: error: %s" % "\n".join(lines), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("memsched: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
