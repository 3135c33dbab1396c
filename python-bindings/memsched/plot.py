"""Pictures of memsched reports (matplotlib, no display needed)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _unit_for(count):
    """Binary unit (name, bytes) that keeps ``count`` readable."""
    for name, size in [("GiB", 1024.0**3), ("MiB", 1024.0**2),
                       ("KiB", 1024.0)]:
        if count >= size:
            return name, size
    return "B", 1.0


def _function_with_timeline(report, function):
    """The entry of ``function`` (default: the first function with a
    timeline) in an ``analyze`` or ``optimize`` report; a ValueError that
    says how to get a timeline when it has none."""
    entries = [f for f in report["functions"] if "skipped" not in f]
    if function is not None:
        entries = [f for f in entries if f["name"] == function]
        if not entries:
            raise ValueError("report has no function named %s" % function)
    with_timeline = [f for f in entries if "timeline" in f]
    if not with_timeline:
        raise ValueError(
            "report has no function with a timeline%s: make it with "
            "memsched.analyze(module) or memsched.optimize(text, ..., "
            "timeline=True) (the default)" %
            ("" if function is None else " named " + function))
    return with_timeline[0]


def _memory_steps(entry, scale):
    """Times (ms) and device memory (resident + live transient, in units
    of ``scale``) of a step plot: each op holds its bytes from start to
    end."""
    resident = entry["resident_bytes"] / scale
    timeline = entry["timeline"]
    times, live = [], []
    for start, end, transient in zip(timeline["start_s"], timeline["end_s"],
                                     timeline["live_bytes"]):
        times += [start * 1e3, end * 1e3]
        live += [resident + transient / scale] * 2
    return times, live


def before_after(before, after, path, function=None, budget_bytes=None,
                 floor_bytes=None, title=None):
    """Plots device memory over modelled time before and after
    ``memsched.optimize`` on one plot and writes it to ``path``.

    ``before`` is ``memsched.analyze`` of the input, ``after`` the report
    ``optimize`` returned (or ``analyze`` of its module); both need their
    timelines. The budget (``budget_bytes``, default: the ``fit`` entry's),
    the floor no plan goes below (``floor_bytes``, default: the report's
    ``floor_bytes``) and, when the budget pass searched it, the smallest
    footprint it reached are horizontal lines, as are the planned bytes
    before and after (what the budget bounds: the live memory plus what the
    arena cannot pack, plus returned buffers).
    ``function`` picks a function by name (default: the first). Returns the
    path written.
    """
    first = _function_with_timeline(before, function)
    second = _function_with_timeline(after, first["name"])
    fit = second.get("fit", {})
    if budget_bytes is None:
        budget_bytes = fit.get("budget_bytes")
    if floor_bytes is None:
        floor_bytes = second.get("floor_bytes")
    smallest_bytes = fit.get("smallest_bytes")
    planned_before = first["planned_bytes"]
    planned_after = second["planned_bytes"]
    unit, scale = _unit_for(max(planned_before, first["peak_bytes"]))

    figure, axes = plt.subplots(figsize=(11, 4.8))
    for entry, planned, colour, label in [
            (first, planned_before, "#969696", "before"),
            (second, planned_after, "#3182bd", "after")]:
        times, live = _memory_steps(entry, scale)
        axes.plot(times, live, color=colour, linewidth=1.2,
                  label="%s: live memory, %.4g ms" %
                  (label, entry["modeled_time_s"] * 1e3))
        axes.axhline(planned / scale, color=colour, linestyle="-.",
                     linewidth=0.9, label="%s: planned %.2f %s" %
                     (label, planned / scale, unit))
    if budget_bytes is not None:
        axes.axhline(budget_bytes / scale, color="#d62728", linestyle="--",
                     label="budget %.2f %s" % (budget_bytes / scale, unit))
    if smallest_bytes is not None and smallest_bytes != floor_bytes:
        axes.axhline(smallest_bytes / scale, color="#ff7f0e", linestyle=":",
                     label="smallest reachable %.2f %s" %
                     (smallest_bytes / scale, unit))
    if floor_bytes is not None:
        axes.axhline(floor_bytes / scale, color="#2ca02c", linestyle=":",
                     label="floor %.2f %s" % (floor_bytes / scale, unit))
    axes.set_xlabel("modelled time on %s (ms)" % second["device"])
    axes.set_ylabel("device memory (%s)" % unit)
    chosen = fit.get("chosen")
    axes.set_title(title or "memory over time before and after: @%s%s" %
                   (second["name"], " (%s)" % chosen if chosen else ""))
    axes.set_ylim(bottom=0)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0),
                fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def memory_timeline(report, path, function=None, title=None):
    """Plots device memory over modelled time and writes it to ``path``.

    ``report`` is the dict returned by ``memsched.analyze`` or
    ``memsched.optimize`` (with its timeline). The plot stacks resident
    memory (arguments, constants) and live transient buffers per op, and
    marks the peak and the lower bound.
    ``function`` picks a function by name (default: the first one with a
    timeline). Returns the path written.
    """
    entry = _function_with_timeline(report, function)
    unit, scale = _unit_for(entry["peak_bytes"])
    resident = entry["resident_bytes"] / scale
    times, live = _memory_steps(entry, scale)

    figure, axes = plt.subplots(figsize=(9, 4.5))
    axes.fill_between(times, 0, [resident] * len(times), color="#9ecae1",
                      label="resident (arguments, constants)", step=None)
    axes.fill_between(times, [resident] * len(times), live, color="#fd8d3c",
                      label="transient buffers")
    axes.axhline(entry["peak_bytes"] / scale, color="#d62728", linestyle="--",
                 label="peak %.2f %s" % (entry["peak_bytes"] / scale, unit))
    axes.axhline(entry["lower_bound_bytes"] / scale, color="#2ca02c",
                 linestyle=":", label="lower bound %.2f %s" %
                 (entry["lower_bound_bytes"] / scale, unit))
    axes.set_xlabel("modelled time on %s (ms)" % entry["device"])
    axes.set_ylabel("device memory (%s)" % unit)
    axes.set_title(title or "memory over time: @%s" % entry["name"])
    axes.set_ylim(bottom=0)
    axes.legend(loc="upper left", fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def budget_sweep(sweep, path, function=None, title=None):
    """Plots the memory-vs-time curve of ``memsched.sweep`` to ``path``.

    Each met budget is a point (planned bytes, modelled step time) labelled
    with the plan chosen; the function as it is is the first point, and the
    smallest reachable footprint is a vertical line when some budget was out
    of reach. ``function`` picks a function by name (default: the first).
    Returns the path written.
    """
    entries = sweep["functions"]
    if function is not None:
        entries = [f for f in entries if f["name"] == function]
    if not entries:
        raise ValueError("sweep has no function%s" %
                         ("" if function is None else " named " + function))
    entry = entries[0]
    unit, scale = _unit_for(entry["planned_bytes"])
    met = sorted((p for p in entry["points"] if p["met"]),
                 key=lambda p: -p["planned_bytes"])
    memory = [entry["planned_bytes"] / scale] + [
        p["planned_bytes"] / scale for p in met]
    time = [entry["modeled_time_s"] * 1e3] + [
        p["modeled_time_s"] * 1e3 for p in met]

    figure, axes = plt.subplots(figsize=(7, 4.5))
    axes.plot(memory, time, marker="o", color="#3182bd")
    axes.annotate("as given", (memory[0], time[0]), fontsize="small",
                  textcoords="offset points", xytext=(4, 4))
    for point, x, y in zip(met, memory[1:], time[1:]):
        axes.annotate("%s: %s" % (point["budget"], point["chosen"]), (x, y),
                      fontsize="small", textcoords="offset points",
                      xytext=(4, 4))
    unmet = [p for p in entry["points"] if not p["met"]]
    if unmet:
        smallest = unmet[0]["planned_bytes"] / scale
        axes.axvline(smallest, color="#d62728", linestyle="--",
                     label="smallest reachable %.2f %s" % (smallest, unit))
        axes.legend(loc="upper right", fontsize="small")
    axes.set_xlabel("planned device memory (%s)" % unit)
    axes.set_ylabel("modelled step time on %s (ms)" % entry["device"])
    axes.set_title(title or "memory vs time: @%s" % entry["name"])
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path
