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


def memory_timeline(report, path, function=None, title=None):
    """Plots device memory over modelled time and writes it to ``path``.

    ``report`` is the dict returned by ``memsched.analyze`` (with its
    timeline). The plot stacks resident memory (arguments, constants) and
    live transient buffers per op, and marks the peak and the lower bound.
    ``function`` picks a function by name (default: the first one with a
    timeline). Returns the path written.
    """
    entries = [f for f in report["functions"] if "timeline" in f]
    if function is not None:
        entries = [f for f in entries if f["name"] == function]
    if not entries:
        raise ValueError("report has no function with a timeline%s" %
                         ("" if function is None else " named " + function))
    entry = entries[0]
    timeline = entry["timeline"]
    unit, scale = _unit_for(entry["peak_bytes"])
    resident = entry["resident_bytes"] / scale
    # Step plot over time: each op holds its live bytes from start to end.
    times, live = [], []
    for start, end, transient in zip(timeline["start_s"], timeline["end_s"],
                                     timeline["live_bytes"]):
        times += [start * 1e3, end * 1e3]
        live += [resident + transient / scale] * 2

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
