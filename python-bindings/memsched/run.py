"""Run a function on the GPU and check it against the CPU.

``python3 -m memsched.run MODEL.mlir [--budget 0.8x] [...]`` lowers the
function with ``memsched-exec-harness`` (deterministic inputs) and
``memsched-to-gpu-pipeline``, runs it with ``mlir-runner`` on memsched's CUDA
runtime, runs the unoptimised program on the CPU, compares every result, and
prints the run time, the device high-water mark next to the planned device
memory (resident copies + arena), and the modelled time.

Without a GPU, ``--runtime mock`` runs the lowered program with the logging
mock runtime (kernels do not run: no result check), and ``--emulate`` runs
the kernels as host loops over host memory (the whole device program, bit
for bit, on the CPU). Nothing is then measured on a device: the device peak
is the mock runtime's tally of the program's allocations, and the report
says so (``device_peak_source``); emulated kernels are counted in the
device program, since they never reach the runtime as launches.
"""

import argparse
import ctypes
import gzip
import json
import os
import re
import subprocess
import sys

import memsched
import memsched.budgets
from memsched.execute import _llvm_tool
from memsched.outputs import make_report


class RunError(Exception):
    """A failure the runner reports as one message, without a traceback:
    something needed to run is missing (exit status 2)."""


class WrongRunError(RunError):
    """The lowered program ran and failed (exit status 1, like wrong
    results)."""


# Where a CUDA toolkit usually lives; MLIR links libdevice from the toolkit
# directory named by CUDA_ROOT, CUDA_HOME or CUDA_PATH only.
_DEFAULT_TOOLKIT = "/usr/local/cuda"


def _ensure_toolkit_directory():
    if any(os.environ.get(name) for name in
           ["CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"]):
        return
    if os.path.exists(os.path.join(_DEFAULT_TOOLKIT, "nvvm", "libdevice")):
        os.environ["CUDA_ROOT"] = _DEFAULT_TOOLKIT


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
# Build tree and install tree alike: <root>/python_packages/memsched and
# <root>/lib.
_LIB_DIR = os.path.normpath(os.path.join(_PACKAGE_DIR, "..", "..", "lib"))

# Math ops whose device implementation (libdevice) may round differently
# from the host's libm.
_TRANSCENDENTAL = re.compile(
    r"\bmath\.(exp|exp2|expm1|log|log2|log10|log1p|tanh|sinh|cosh|sin|cos|"
    r"tan|asin|acos|atan|atan2|erf|erfc|powf|fpowi|rsqrt|cbrt)\b")


def _read_model(path):
    try:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as handle:
            return handle.read()
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise RunError("cannot read %s: %s" % (
            path, getattr(error, "strerror", None) or error))


def find_runtime(name):
    """Path of a runtime library: ``cuda``, ``mock``, or a path."""
    if name not in ("cuda", "mock"):
        return name
    file = ("libmemsched_cuda_runtime.so" if name == "cuda"
            else "libmemsched_mock_gpu_runtime.so")
    candidates = [os.environ.get("MEMSCHED_LIB_DIR", ""), _LIB_DIR]
    for directory in candidates:
        path = os.path.join(directory, file) if directory else ""
        if path and os.path.exists(path):
            return path
    if name == "cuda":
        raise RunError(
            "memsched's CUDA runtime (%s) is not built: it is built only "
            "when CMake finds a CUDA toolkit; install one and rebuild, or "
            "use --emulate / --runtime mock" % file)
    raise RunError("cannot find %s (set MEMSCHED_LIB_DIR)" % file)


def check_cuda_device():
    """Raises RunError naming what is missing when no GPU can run code."""
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        raise RunError("no CUDA driver on this machine (libcuda.so.1 cannot "
                       "be loaded); run on a machine with an NVIDIA GPU and "
                       "driver, or use --emulate")
    result = driver.cuInit(0)
    count = ctypes.c_int(0)
    if result == 0:
        result = driver.cuDeviceGetCount(ctypes.byref(count))
    if result != 0 or count.value == 0:
        name = ctypes.c_char_p()
        driver.cuGetErrorName(result, ctypes.byref(name))
        raise RunError("no usable CUDA device: cuInit/cuDeviceGetCount gave "
                       "%s, %d devices" % ((name.value or b"?").decode(),
                                           count.value))


def _harness(args):
    return "memsched-exec-harness{func=%s seed=%d}" % (args.func, args.seed)


def _gpu_pipeline(args, emulate, stop_at_launches=False):
    """The harness and the GPU lowering of an already optimised program
    (with ``stop_at_launches``, only as far as its kernel launches)."""
    options = ["chip=%s" % args.chip, "features=%s" % args.features,
               "format=%s" % args.format, "device=%s" % args.device]
    if emulate:
        options.append("emulate-kernels=true")
    if stop_at_launches:
        options.append("stop-at-launches=true")
    return "%s,memsched-to-gpu-pipeline{%s}" % (_harness(args),
                                                " ".join(options))


def _device_kernel_count(program, args):
    """The kernels the device program of ``program`` launches: the
    ``gpu.launch`` ops of ``memsched-to-gpu-pipeline`` before they become
    host loops (a training step is straight-line code, so each runs once;
    a kernel in a loop body is counted once)."""
    lowered = memsched.run_pipeline(
        program, _gpu_pipeline(args, emulate=True, stop_at_launches=True))
    return len(re.findall(r"\bgpu\.launch\b(?!_)", lowered))


def _run_lowered(runner, lowered, libs, env, what):
    """Runs `memsched_main` of lowered IR; a failure is the program's."""
    completed = subprocess.run(
        [runner, "-e", "memsched_main", "-entry-point-result=void",
         "-shared-libs=" + ",".join(libs)], input=lowered,
        capture_output=True, text=True, env=env, check=False)
    if completed.returncode != 0:
        raise WrongRunError("%s failed (exit %d):\n%s" % (
            what, completed.returncode, completed.stderr[-4000:]))
    return completed


def _planned_device_bytes(lowered, func):
    """The `memsched.device` figures of `func` in lowered IR."""
    match = re.search(r"llvm\.func @%s\(.*?memsched\.device = \{([^}]*)\}"
                      % re.escape(func), lowered)
    if not match:
        return {}
    return {key: int(value) for key, value in
            re.findall(r"(\w+) = (-?\d+) : i64", match.group(1))}


def lower(args):
    """Optimises and lowers ``args.model`` for the GPU (or the emulating
    host loops). Returns a dict: ``lowered`` (LLVM dialect text of the
    harnessed program), ``planned`` (its ``memsched.device`` figures),
    ``modeled`` (the modelled time and peak of the optimised program),
    ``reference_ir`` and ``reference_on_device`` (the program to compare
    with, and whether it needs the device runtime), ``exact`` (whether
    results must match bit for bit) and ``emulated_launches``."""
    try:
        budget = memsched.budgets.normalize(args.budget or None)
    except ValueError as error:
        raise RunError(str(error))
    text = _read_model(args.model)
    emulate = args.emulate
    if not emulate:
        _ensure_toolkit_directory()
    lowered_program = {}
    try:
        # Kernel names are positions in the program as given (for
        # --profile), so they are given before optimisation moves ops.
        tagged = memsched.run_pipeline(text, "memsched-tag-kernels")
        offload = [name for name in args.offload.split(",") if name]
        if budget or args.optimize or offload:
            program, analysis = memsched.optimize(
                tagged, budget=budget, device=args.device,
                allow_remat=args.remat, allow_swap=args.swap,
                timeline=False, offload=offload)
        else:
            program = tagged
            analysis = memsched.analyze(tagged, device=args.device,
                                        timeline=False)
        lowered = memsched.run_pipeline(program, _gpu_pipeline(args, emulate))
        lowered_program["emulated_launches"] = (
            _device_kernel_count(program, args) if emulate else None)
        reference_ir = None
        if args.reference == "cpu":
            reference_ir = memsched.run_pipeline(
                text, _harness(args) + ",memsched-to-cpu-pipeline")
        elif args.reference == "gpu":
            # The unoptimised program on the same device: for models whose
            # CPU run would take hours.
            reference_ir = memsched.run_pipeline(
                tagged, _gpu_pipeline(args, emulate))
    except memsched.MLIRError as error:
        raise RunError("lowering failed:\n%s" % error)
    modeled = {}
    # The modelled figures of what runs: the optimised tensor program.
    for function in analysis["functions"]:
        if function["name"] == args.func and "modeled_time_s" in function:
            modeled = {"modeled_time_s": function["modeled_time_s"],
                       "modeled_peak_bytes": function["peak_bytes"]}
    # The same kernels on the same device, or host loops compared with
    # host loops, round alike; libdevice and libm may not.
    exact = args.tolerance == "exact" or (
        args.tolerance == "auto" and
        (emulate or args.reference == "gpu" or
         not _TRANSCENDENTAL.search(text)))
    lowered_program.update(
        lowered=lowered, planned=_planned_device_bytes(lowered, args.func),
        modeled=modeled, reference_ir=reference_ir,
        reference_on_device=args.reference == "gpu", exact=exact)
    return lowered_program


def run(args):
    """Lowers, runs and checks ``args.model``; returns the report."""
    emulate = args.emulate
    runtime_name = "mock" if emulate else args.runtime
    runtime = find_runtime(runtime_name)
    if runtime_name == "cuda":
        check_cuda_device()
    lowered_program = lower(args)
    runner = _llvm_tool("mlir-runner")
    lib_dir = os.path.join(os.path.dirname(os.path.dirname(runner)), "lib")
    libs = [os.path.join(lib_dir, name) for name in
            ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]]
    env = dict(os.environ, MEMSCHED_STATS="1")
    if args.profile:
        env["MEMSCHED_PROFILE"] = os.path.abspath(args.profile)
    completed = _run_lowered(runner, lowered_program["lowered"],
                             libs + [runtime], env,
                             "running the lowered program")
    reference_stdout = None
    if (runtime_name != "mock" or emulate) and args.reference != "none":
        reference_libs = libs + ([runtime]
                                 if lowered_program["reference_on_device"]
                                 else [])
        # The reference run must not overwrite the profile of the run.
        reference_env = {key: value for key, value in os.environ.items()
                         if key != "MEMSCHED_PROFILE"}
        reference_stdout = _run_lowered(
            runner, lowered_program["reference_ir"], reference_libs,
            reference_env, "the %s reference run" % args.reference).stdout
    try:
        return make_report(args, lowered_program, completed.stdout,
                           completed.stderr, reference_stdout)
    except ValueError as error:
        raise RunError(str(error))


def format_report(report):
    lines = ["memsched run of @%s in %s (%s runtime%s)" % (
        report["func"], report["model"], report["runtime"],
        ", kernels emulated on the host" if report["emulated"] else "")]
    if report["budget"]:
        lines.append("  budget                  %s" % report["budget"])
    check = report.get("check")
    if check:
        against = ("the CPU" if check["reference"] == "cpu" else
                   "the unoptimised program on the same runtime")
        verdict = ("bit-identical to " + against if check["identical"] else
                   "within %s of %s" % (check["tolerance"], against)
                   if check["within_tolerance"] else
                   "DIFFERENT from " + against)
        lines.append("  results                 %s (%d results, %d elements, "
                     "%d differ, max rel diff %.3g)" % (
                         verdict, check["results"], check["elements"],
                         check["differing"], check["max_rel_diff"]))
    else:
        lines.append("  results                 not checked (the mock "
                     "runtime runs no kernels)")
    source = report.get("device_peak_source", "measured")
    peak_label = {"measured": "device peak (measured)",
                  "mock": "device peak (mock)",
                  "emulated": "device peak (emulated)"}[source]
    for label, key in [(peak_label, "device_peak_bytes"),
                       ("device planned", "planned_device_bytes"),
                       ("  of which resident", "planned_resident_bytes"),
                       ("modelled peak", "modeled_peak_bytes")]:
        if report.get(key) is not None:
            lines.append("  %-24s%s (%d bytes)" % (
                label, memsched.format_bytes(report[key]), report[key]))
    if "peak_matches_plan" in report:
        lines.append("  %-24s%s" % ("peak = plan",
                                    "yes" if report["peak_matches_plan"]
                                    else "NO"))
    for label, key in [("run time (measured)", "run_time_s"),
                       ("kernel time (measured)", "kernel_time_s"),
                       ("modelled time", "modeled_time_s")]:
        if report.get(key) is not None:
            lines.append("  %-24s%.6f s" % (label, report[key]))
    if report.get("launches") is not None:
        lines.append("  %-24s%d" % (
            {"measured": "kernel launches",
             "mock": "kernel launches (mock)",
             "emulated": "launches (emulated)"}[
                 report.get("launches_source", "measured")],
            report["launches"]))
    return "\n".join(lines)


def build_parser():
    """The command line of ``python3 -m memsched.run``."""
    parser = argparse.ArgumentParser(
        prog="python3 -m memsched.run",
        description="Lower a function to the GPU, run it on deterministic "
        "inputs, check its results against the CPU, and print time and "
        "device peak memory.")
    parser.add_argument("model", help="MLIR file (linalg on tensors; .gz ok)")
    parser.add_argument("--func", default="train_step")
    parser.add_argument("--seed", type=int, default=0,
                        help="input seed of memsched-exec-harness")
    parser.add_argument("--budget", default="",
                        help="memsched-optimize budget: 0.8x (of the "
                        "planned bytes), 12GiB, '12 GiB', 12GB, 12e9 or min")
    parser.add_argument("--optimize", action="store_true",
                        help="reorder and write in place even without a "
                        "budget")
    parser.add_argument("--device", default="h100",
                        help="device preset or JSON file for the cost model")
    parser.add_argument("--offload", default="",
                        help="keep resident state in host memory: a "
                        "comma-separated subset of params, grads, optimizer, "
                        "inputs")
    parser.add_argument("--no-remat", dest="remat", action="store_false")
    parser.add_argument("--no-swap", dest="swap", action="store_false")
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--features", default="+ptx80")
    parser.add_argument("--format", default="isa", choices=["isa", "bin",
                                                            "fatbin"])
    parser.add_argument("--runtime", default="cuda",
                        help="cuda (memsched's CUDA runtime), mock, or the "
                        "path of a runtime library")
    parser.add_argument("--emulate", action="store_true",
                        help="run kernels as host loops over host memory "
                        "(no GPU needed)")
    parser.add_argument("--reference", default="cpu",
                        choices=["cpu", "gpu", "none"],
                        help="what results are compared with: the CPU "
                        "pipeline (default), the unoptimised program on the "
                        "same runtime (for models too slow on the CPU), or "
                        "nothing")
    parser.add_argument("--tolerance", default="auto",
                        choices=["auto", "exact", "relative"],
                        help="auto: exact unless the program calls "
                        "transcendental math (libdevice and libm may round "
                        "differently), then --rtol/--atol")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-6)
    parser.add_argument("--profile",
                        help="write the runtime's per-kernel profile here "
                        "(memsched-import-profile reads it)")
    parser.add_argument("--json", help="write the report as JSON here")
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        report = run(args)
    except WrongRunError as error:
        print("memsched.run: error: %s" % error, file=sys.stderr)
        return 1
    except (RunError, FileNotFoundError) as error:
        print("memsched.run: error: %s" % error, file=sys.stderr)
        return 2
    print(format_report(report))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(report, handle, indent=2)
    check = report.get("check")
    if check and not check["within_tolerance"]:
        return 1
    if report.get("peak_matches_plan") is False:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
