"""memsched: make tensor programs fit in device memory.

The functions here take and return MLIR modules as text. Errors from MLIR
(parse errors, verifier failures, pass diagnostics) raise ``MLIRError`` with
the diagnostics as its message.
"""

import json as _json

from ._memsched import MLIRError
from . import _memsched
from . import budgets

__all__ = ["MLIRError", "analyze", "optimize", "run_pipeline", "report",
           "sweep"]


def analyze(text, device=None, timeline=True):
    """Returns the memory report of every function in ``text``.

    The result is the JSON report of ``memsched-report`` as a dict:
    ``{"functions": [{"name", "ops", "resident_bytes",
    "peak_transient_bytes", "peak_bytes", "lower_bound_bytes",
    "max_live_bytes", "modeled_time_s", "device", "timeline"}]}``.
    ``device`` is a preset name (h100, h200, a100-80gb, cpu) or the path of
    a JSON device file; ``None`` uses the device each function records
    (``memsched.target_device``, set by the passes given a device), else
    h100. With ``timeline`` each function also has per-step
    ``ops``, ``start_s``, ``end_s`` and ``live_bytes`` lists.
    """
    return _json.loads(_memsched.analyze(text, device or "", timeline))


def run_pipeline(text, pipeline):
    """Runs a textual pass pipeline on ``text`` and returns the new module,
    printed with its locations (so that a report of it names where each op
    came from: the PyTorch module path for imported models).

    ``pipeline`` is what ``memsched-opt --pass-pipeline`` takes, or a bare
    pass/pipeline list that is anchored on the module, for example
    ``"memsched-to-cpu-pipeline"`` or ``"canonicalize,cse"``.
    """
    return _memsched.run_pipeline(text, pipeline)


def reorder(text, algorithm="auto", time_limit_ms=2000, device=None,
            fuse_elementwise=False):
    """Runs ``memsched-reorder`` on every function of ``text`` and returns
    the reordered module.

    ``algorithm`` is one of the names in docs/scheduling.md (``auto``,
    ``exact``, ``liu``, ``xla-list``, ``inductor-lpmf``, ...). Each function
    then carries a ``memsched.reorder`` attribute, which ``analyze`` reports
    as the function's ``reorder`` entry (peak before and after, chosen
    algorithm, every candidate's peak). ``fuse_elementwise`` also plans
    each function after upstream elementwise fusion and keeps that version
    where its peak is lower (``chosen`` then reads ``fused+...``).
    """
    options = "algorithm=%s time-limit-ms=%d" % (algorithm, time_limit_ms)
    if device:
        options += " device=%s" % device
    if fuse_elementwise:
        options += " fuse-elementwise=true"
    return run_pipeline(text, "func.func(memsched-reorder{%s})" % options)


def optimize(text, budget=None, device=None, allow_remat=True,
             allow_swap=True, timeline=True, offload=(), ilp_max_tasks=0,
             fuse_elementwise=False, allow_split=True, allow_fuse=True):
    """Runs ``memsched-optimize`` on ``text`` and returns ``(module, report)``.

    ``budget`` bounds the planned bytes (resident + arena + escaping): bytes
    (an int, ``"12e9"``), a size with a unit (``"12GiB"``, ``"12 GiB"``,
    ``"12GB"`` in powers of 1000), a fraction of the planned bytes before
    memsched (``"0.5x"``) or ``"min"`` (see ``memsched.budgets.normalize``;
    a bare ``0.8`` raises ``ValueError`` suggesting ``"0.8x"``); ``None``
    only reorders and writes in place. Recomputation
    and swapping to host memory are chosen together by modelled step time
    (``allow_remat`` / ``allow_swap`` restrict the choice), from the
    function reordered and from its own order, the better kept
    (``fit.reordered`` says which). The report is
    ``analyze`` of the result (with timelines unless ``timeline`` is false,
    so ``memsched.plot`` can draw it): each function's ``fit``
    entry says what was chosen (``none``, ``remat``, ``swap``,
    ``joint-S``), the footprint before and after, and the time of every
    plan tried; ``swap_bytes``, ``swap_hidden_fraction`` and
    ``modeled_time_s`` describe the result. ``offload`` (a subset of
    ``"params"``, ``"grads"``, ``"optimizer"``, ``"inputs"``) is what may
    stay in host memory (``memsched-offload``; ``inputs``: the batch):
    with a budget the step is planned with and without it there and the
    better kept (the report's ``fit.offload`` says which; the arguments'
    ``memsched.host_memory`` attributes say where each lives); without one
    it is offloaded.
    ``ilp_max_tasks`` > 0 lets recomputation also solve Checkmate's ILP on
    functions of at most that many tasks without in-place chains
    (``ilp-max-tasks``; seconds per function). ``fuse_elementwise`` lets
    the reordering also plan each function after upstream elementwise
    fusion and keep it where its peak is lower (with a budget, that
    reordered function is then what is fitted). ``allow_split`` lets a
    budget under the floor split the ops whose working sets set it
    (``memsched-split``; the report's ``split`` entry says what), and
    ``allow_fuse`` lets it first compute fills, broadcasts and one-hot masks
    inside their readers and fuse elementwise chains (``memsched-fuse``;
    the report's ``fused``). An
    unreachable budget raises
    ``MLIRError`` naming the smallest reachable one.
    """
    options = ["allow-remat=%s" % ("true" if allow_remat else "false"),
               "allow-swap=%s" % ("true" if allow_swap else "false"),
               "allow-split=%s" % ("true" if allow_split else "false"),
               "allow-fuse=%s" % ("true" if allow_fuse else "false")]
    budget = budgets.normalize(budget)
    if budget is not None:
        options.append("budget=%s" % budget)
    if device:
        options.append("device=%s" % device)
    if offload:
        options.append("offload=%s" % ",".join(offload))
    if ilp_max_tasks:
        options.append("ilp-max-tasks=%d" % ilp_max_tasks)
    if fuse_elementwise:
        options.append("fuse-elementwise=true")
    module = run_pipeline(text, "memsched-optimize{%s}" % " ".join(options))
    return module, analyze(module, timeline=timeline)


def _describe_peak_buffer(buffer):
    """Where a buffer of a report's ``peak_buffers`` comes from, as the
    text report says it: its location and the op writing it (recomputed,
    returned)."""
    text = buffer["location"] or "?"
    if buffer["op"]:
        text += " (%s%s%s)" % (buffer["op"],
                               ", recomputed" if buffer["recomputed"] else "",
                               ", returned" if buffer["escapes"] else "")
    return text


def report(analysis):
    """Formats an ``analyze`` result as the text table memsched prints."""
    lines = []
    for function in analysis["functions"]:
        lines.append("memsched report for @%s" % function["name"])
        if "skipped" in function:
            lines.append("  skipped: %s" % function["skipped"])
            continue
        row = lambda label, count: lines.append(
            "  %-22s%12s  (%d bytes)" % (label, format_bytes(count), count))
        # The headline (as the C++ text report): device memory and time,
        # after a budget pass against the budget and the smallest footprint,
        # and the floor no plan goes below.
        row("planned (device)", function["planned_bytes"])
        lines.append("  %-22s%12s  (device %s)" %
                     ("modeled time", "%.3e s" % function["modeled_time_s"],
                      function["device"]))
        fit = function.get("fit")
        if fit:
            row("planned before", fit["planned_before_bytes"])
            lines.append("  %-22s%12s  (%d bytes), met with %s" %
                         ("budget", format_bytes(fit["budget_bytes"]),
                          fit["budget_bytes"], fit["chosen"]))
            if "smallest_bytes" in fit:
                row("smallest reachable", fit["smallest_bytes"])
            before = fit["time_before_s"]
            line = "  %-22s%12s" % ("time before", "%.3e s" % before)
            if before > 0:
                change = 100.0 * (function["modeled_time_s"] / before - 1)
                line += "  (%s%.1f%% after)" % ("+" if change >= 0 else "",
                                                change)
            lines.append(line)
        lines.append(
            "  %-22s%12s  (%d bytes = resident + returned + %s for '%s' at "
            "%s)" % ("floor", format_bytes(function["floor_bytes"]),
                     function["floor_bytes"],
                     format_bytes(function["floor_working_set_bytes"]),
                     function["floor_op"], function["floor_location"]))
        if function["recompute_floor_bytes"] > function["floor_bytes"]:
            lines.append(
                "  %-22s%12s  (%d bytes = resident + returned + %s: two "
                "operands of '%s' at %s, each made while the other is held)"
                % ("floor, no swaps",
                   format_bytes(function["recompute_floor_bytes"]),
                   function["recompute_floor_bytes"],
                   format_bytes(function["recompute_floor_working_set_bytes"]),
                   function["recompute_floor_op"],
                   function["recompute_floor_location"]))
        if function.get("peak_op"):
            lines.append("  %-22s%s ('%s'), largest live buffers:" % (
                "peak at", function["peak_location"], function["peak_op"]))
            for buffer in function["peak_buffers"][:5]:
                lines.append("    %22s  %s" % (format_bytes(buffer["bytes"]),
                                               _describe_peak_buffer(buffer)))
        plan = function.get("plan", [])
        if plan:
            lines.append("  plan (%d decision%s, largest first):" % (
                len(plan), "" if len(plan) == 1 else "s"))
            for entry in plan[:10]:
                line = "    %-10s%12s%13s  %s" % (
                    entry["kind"], format_bytes(entry["bytes"]),
                    "+%.2e s" % entry["time_s"], entry["location"])
                if entry["op"]:
                    line += " (%s%s)" % (entry["op"], " x%d" % entry["ops"]
                                         if entry["ops"] > 1 else "")
                lines.append(line)
        lines.append("  secondary figures:")
        lines.append("  %-22s%12d" % ("ops", function["ops"]))
        for label, key in [("resident", "resident_bytes"),
                           ("peak transient", "peak_transient_bytes"),
                           ("peak", "peak_bytes"),
                           ("lower bound", "lower_bound_bytes"),
                           ("max live", "max_live_bytes")]:
            lines.append("  %-22s%12s  (%d bytes)" %
                         (label, format_bytes(function[key]), function[key]))
        for label, key in [("arena (predicted)", "arena_bytes"),
                           ("arena max live", "arena_max_live_bytes"),
                           ("escaping buffers", "escaping_bytes")]:
            lines.append("  %-22s%12s  (%d bytes)" %
                         (label, format_bytes(function[key]), function[key]))
        reordered = function.get("reorder")
        if reordered:
            lines.append("  %-22s%12s%s" %
                         ("reordered by", reordered["chosen"],
                          "  (proven optimal)" if reordered["optimal"]
                          else ""))
            for label, key in [("peak before reorder", "peak_before_bytes"),
                               ("peak after reorder", "peak_after_bytes")]:
                row(label, reordered[key])
        remat = function.get("remat")
        if remat:
            lines.append("  %-22s%12d" % ("recomputed ops",
                                          remat["recomputed_ops"]))
            lines.append("  %-22s%12s" % ("recompute time", "%.3e s"
                                          % remat["recompute_time_s"]))
        if function.get("swap_ops"):
            lines.append("  %-22s%12d" % ("swapped values",
                                          function["swap_ops"]))
            row("swapped bytes", function["swap_bytes"])
            lines.append("  %-22s%12s" % ("swap exposed time", "%.3e s"
                                          % function["swap_exposed_time_s"]))
    return "\n".join(lines)


def format_bytes(count):
    """Formats a byte count with a binary unit, as the C++ report does."""
    value = float(count)
    for unit in ["B", "KiB", "MiB", "GiB"]:
        if abs(value) < 1024.0 or unit == "GiB":
            return "%d B" % count if unit == "B" else "%.2f %s" % (value, unit)
        value /= 1024.0
    return "%.2f TiB" % value


_normalize_budget = budgets.normalize


def sweep(text, budgets, device=None, allow_remat=True, allow_swap=True,
          reorder=True):
    """Returns the memory-vs-time curve of every function in ``text``.

    For each budget of ``budgets`` (the forms ``optimize`` takes:
    ``"0.5x"``, ``"12GiB"``, ``"min"``, an int of bytes), memsched-fit's
    budget driver plans a copy of each function, as ``optimize`` would
    (after reordering its ops, unless ``reorder`` is false). The result is
    ``{"functions": [{"name", "device", "planned_bytes",
    "modeled_time_s", "points": [{"budget", "budget_bytes", "met",
    "planned_bytes", "modeled_time_s", "chosen"}]}]}``: the function as
    given, then one point per budget in the order given. A point that is not
    met has no time and gives the smallest reachable footprint as its
    ``planned_bytes``. ``memsched.plot.budget_sweep`` draws it.
    """
    names = [_normalize_budget(b) for b in budgets]
    if reorder:
        text = run_pipeline(text, "func.func(memsched-reorder%s)" %
                            ("{device=%s}" % device if device else ""))
    return _json.loads(_memsched.sweep(text, names, device or "",
                                       allow_remat, allow_swap))
