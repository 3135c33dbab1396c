"""What a lowered program printed: its results and the runtime's figures.

Only the standard library is used, so that a GPU machine without MLIR can
check programs built elsewhere (``bench/gpu/measure.py --run``).
"""

import json
import math
import re
import struct


def parse_output(stdout):
    """Results (type, list of bit patterns) from memsched-exec-harness's
    output; other lines are ignored."""
    results = []
    for line in stdout.splitlines():
        if line.startswith("memsched-result"):
            parts = line.split(" ", 2)
            results.append((parts[2] if len(parts) > 2 else "", []))
        elif results and re.fullmatch(r"-?\d+", line.strip()):
            results[-1][1].append(int(line))
    return results


def _float_of(bits, element):
    if element == "f32":
        return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
    if element == "f64":
        return struct.unpack("<d", struct.pack(
            "<Q", bits & 0xFFFFFFFFFFFFFFFF))[0]
    return None


def compare(reference, measured, rtol, atol):
    """Compares two parsed outputs. Returns a dict with `identical`,
    `within_tolerance`, the number of differing elements, of those where
    one side is NaN and the other not (`nan_mismatches`), the largest
    absolute and relative differences, and the first few differences
    (`first_differences`: result, element, reference and measured bits)."""
    summary = {"results": len(reference), "elements": 0, "differing": 0,
               "nan_mismatches": 0, "max_abs_diff": 0.0,
               "max_rel_diff": 0.0, "identical": True,
               "within_tolerance": True, "first_differences": []}
    if len(reference) != len(measured):
        raise ValueError("the GPU run printed %d results, the CPU run %d"
                       % (len(measured), len(reference)))
    for index, ((type_a, a), (_, b)) in enumerate(zip(reference, measured)):
        if len(a) != len(b):
            raise ValueError("result %d: %d elements on the GPU, %d on the CPU"
                           % (index, len(b), len(a)))
        # The element type follows the last dimension ("x") or the "<".
        element = re.search(r"[<x]([a-z]\w*)>$", type_a)
        element = element.group(1) if element else ""
        for position, (x, y) in enumerate(zip(a, b)):
            summary["elements"] += 1
            if x == y:
                continue
            summary["differing"] += 1
            summary["identical"] = False
            if len(summary["first_differences"]) < 8:
                summary["first_differences"].append(
                    {"result": index, "element": position, "reference": x,
                     "measured": y})
            fx, fy = _float_of(x, element), _float_of(y, element)
            if fx is None or math.isnan(fx) != math.isnan(fy):
                summary["within_tolerance"] = False
                summary["nan_mismatches"] += fx is not None
                continue
            if math.isnan(fx):
                continue
            diff = abs(fx - fy)
            rel = diff / max(abs(fx), 1e-30)
            summary["max_abs_diff"] = max(summary["max_abs_diff"], diff)
            summary["max_rel_diff"] = max(summary["max_rel_diff"], rel)
            if diff > atol + rtol * abs(fx):
                summary["within_tolerance"] = False
    return summary


def runtime_stats(stdout, stderr):
    """The runtime's figures: the CUDA runtime's `memsched-runtime` JSON
    line (MEMSCHED_STATS=1), else the mock runtime's summary."""
    for line in stderr.splitlines():
        if line.startswith("memsched-runtime {"):
            return json.loads(line[len("memsched-runtime "):])
    for line in stdout.splitlines():  # the mock's summary
        if line.startswith("mgpu summary"):
            stats = dict(re.findall(r"(\w+)=(\d+)", line))
            return {"device_peak_bytes": int(stats["peak_bytes"]),
                    "launches": int(stats["launches"]),
                    "allocations": int(stats["allocations"])}
    return {}


def make_report(args, lowered_program, stdout, stderr, reference_stdout):
    """The report of one run of a program lowered by ``memsched.run.lower``
    (``args``: its command line; the IR texts are not needed): ``stdout``
    and ``stderr`` are what the run printed, ``reference_stdout`` what the
    reference printed (None: no check). Raises ValueError when the outputs
    cannot be compared."""
    emulate = args.emulate
    runtime_name = "mock" if emulate else args.runtime
    stats = runtime_stats(stdout, stderr)
    planned = lowered_program["planned"]
    # What the device figures come from: a CUDA device measures them; the
    # mock runtime tallies the program's allocations and launches without
    # a device, and with emulated kernels no launch reaches it.
    source = ("emulated" if emulate else "mock" if runtime_name == "mock"
              else "measured")
    report = {"model": args.model, "func": args.func,
              "runtime": runtime_name, "emulated": emulate,
              "budget": args.budget or None,
              "planned_device_bytes": planned.get("device_bytes"),
              "planned_resident_bytes": planned.get("resident_bytes"),
              "device_peak_bytes": stats.get("device_peak_bytes"),
              "device_peak_source": source,
              "measured_device_peak_bytes": (stats.get("device_peak_bytes")
                                             if source == "measured"
                                             else None),
              "run_time_s": stats.get("run_time_s"),
              "kernel_time_s": stats.get("kernel_time_s"),
              "launches": (lowered_program["emulated_launches"] if emulate
                           else stats.get("launches")),
              "launches_source": source}
    if report["planned_device_bytes"] is not None and \
            report["device_peak_bytes"] is not None:
        report["peak_matches_plan"] = (report["device_peak_bytes"]
                                       == report["planned_device_bytes"])
    report.update(lowered_program["modeled"])
    if reference_stdout is not None:
        rtol, atol = ((0.0, 0.0) if lowered_program["exact"]
                      else (args.rtol, args.atol))
        check = compare(parse_output(reference_stdout),
                        parse_output(stdout), rtol, atol)
        check["reference"] = args.reference
        check["tolerance"] = ("exact" if lowered_program["exact"] else
                              "rtol=%g atol=%g" % (rtol, atol))
        report["check"] = check
    return report
