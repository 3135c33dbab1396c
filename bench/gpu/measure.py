"""Measures memsched's GPU lowering on a CUDA device.

    PYTHONPATH=build/python_packages python3 bench/gpu/measure.py \
        [--models mlp,cnn,chain,resnet18] [--json out.json]

For every model and budget (none, then memsched-optimize at 0.9x, 0.8x,
0.7x, 0.5x and min with recomputation and swapping chosen jointly, 0.7x
with recomputation only, and 0.6x and min with parameters and gradients in
host memory, offload=params,grads), one run of ``python3 -m memsched.run`` gives side by
side: the measured device peak and the planned device memory (resident
copies + arena), the measured run time and kernel time and the modelled
time. Models ending in ``_loop`` (mlp_loop, cnn_loop, chain_loop,
resnet18_loop) are the model's step run over 4 micro-batches in an
``scf.for`` that sums its results (gradient accumulation, as
bench/accumulation.py wraps it). Results are checked against the CPU for the examples and against the
unoptimised program on the GPU for zoo models.

Then matmuls of 1024, 2048 and 4096 (float32, square) time our kernel (the
runtime's per-kernel profile, best of three runs) and cuBLAS's SGEMM
(``cublasSgemm_v2`` through ctypes, default math mode: no TF32; median of
20 after 3 warm-up calls) on the same device; the ratio ours / cuBLAS is
the factor the GPU issue asks for.

Without a CUDA device it says so and exits with status 2.

A GPU machine without MLIR runs what a machine with MLIR built:

    PYTHONPATH=build/python_packages python3 bench/gpu/measure.py \
        --prepare gpu-runs          # here: optimise, lower, link, CPU refs
    python3 bench/gpu/measure.py --run gpu-runs --json out.json   # there

``--prepare`` writes standalone executables (``memsched.standalone``),
memsched's CUDA runtime beside them, the CPU reference outputs and a
manifest; with ``--emulate`` it also runs each program with emulated
kernels, so that ``--run`` prints the emulated device peak next to the
measured one. ``--run`` needs Python's standard library, the CUDA driver
and, for the cuBLAS column, cuBLAS (through ctypes, else PyTorch).
"""

import argparse
import ctypes
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
MODELS = {
    "mlp": (os.path.join(ROOT, "examples", "mlp_train_step.mlir"), "cpu"),
    "cnn": (os.path.join(ROOT, "examples", "cnn_train_step.mlir"), "cpu"),
    "chain": (os.path.join(ROOT, "examples", "chain_mlp_train_step.mlir"),
              "cpu"),
    "resnet18": (os.path.join(ROOT, "bench", "models", "resnet18.mlir.gz"),
                 "gpu"),
    "vgg11": (os.path.join(ROOT, "bench", "models", "vgg11.mlir.gz"), "gpu"),
    "mobilenet_v2": (os.path.join(ROOT, "bench", "models",
                                  "mobilenet_v2.mlir.gz"), "gpu"),
    "gpt": (os.path.join(ROOT, "bench", "models", "gpt.mlir.gz"), "gpu"),
    "resnet50": (os.path.join(ROOT, "bench", "models", "resnet50.mlir.gz"),
                 "gpu"),
}
# Gradient accumulation: the model's step run in an scf.for over LOOP_TRIPS
# micro-batches, its results summed (bench/accumulation.py); made from the
# model by --prepare.
LOOPS = {"mlp_loop": "mlp", "cnn_loop": "cnn", "chain_loop": "chain",
         "resnet18_loop": "resnet18"}
LOOP_TRIPS = 4
CONFIGS = [("", True, True, ""), ("0.9x", True, True, ""),
           ("0.8x", True, True, ""), ("0.7x", True, True, ""),
           ("0.7x", True, False, ""), ("0.5x", True, True, ""),
           ("min", True, True, ""), ("0.6x", True, True, "params,grads"),
           ("min", True, True, "params,grads")]


def _runner():
    # Imported only where MLIR is: --run needs none of it.
    import memsched.run
    return memsched.run


def _outputs():
    """memsched.outputs, loaded from its file: the package itself needs
    MLIR's Python extension, which --run does without."""
    path = os.path.join(ROOT, "python-bindings", "memsched", "outputs.py")
    spec = importlib.util.spec_from_file_location("memsched_outputs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class MeasureError(Exception):
    pass


def model_argv(path, reference, budget, remat, swap, offload="", extra=()):
    argv = [path, "--reference", reference]
    if offload:
        argv += ["--offload", offload]
    if budget:
        argv += ["--budget", budget]
    if not remat:
        argv.append("--no-remat")
    if not swap:
        argv.append("--no-swap")
    return argv + list(extra)


def run_model(path, reference, budget, remat, swap, offload="", extra=()):
    runner = _runner()
    argv = model_argv(path, reference, budget, remat, swap, offload, extra)
    return runner.run(runner.build_parser().parse_args(argv))


MATMUL = """
func.func @mm(%a: tensor<{n}x{n}xf32>, %b: tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{n}x{n}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  %c = linalg.matmul ins(%a, %b : tensor<{n}x{n}xf32>, tensor<{n}x{n}xf32>) outs(%f : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  return %c : tensor<{n}x{n}xf32>
}}
"""


def our_matmul_seconds(n, runs=3, executable=None):
    """Our matmul kernel's time: the runtime's per-kernel profile, best of
    `runs` runs, of the prepared `executable` or of a program lowered
    here."""
    # Kernels are loaded with the module, not at their first launch, so the
    # one launch of each run is not charged for loading.
    os.environ["CUDA_MODULE_LOADING"] = "EAGER"
    best = None
    with tempfile.TemporaryDirectory() as directory:
        model = os.path.join(directory, "mm.mlir")
        with open(model, "w") as handle:
            handle.write(MATMUL.format(n=n))
        for run in range(runs):
            profile = os.path.join(directory, "profile%d.json" % run)
            if executable:
                _execute(executable, dict(os.environ,
                                          MEMSCHED_PROFILE=profile))
            else:
                run_model(model, "none", "", True, True,
                          ["--func", "mm", "--profile", profile])
            if not os.path.exists(profile):
                raise MeasureError("the runtime wrote no profile")
            with open(profile) as handle:
                kernels = json.load(handle)["kernels"]
            seconds = sum(k["total_s"] for k in kernels
                          if k["name"].endswith("_matmul"))
            best = seconds if best is None else min(best, seconds)
    return best


def cublas_matmul_seconds(n, warmup=3, repeats=20):
    """cuBLAS SGEMM's median time (default math mode: no TF32), through
    ctypes, else through PyTorch's torch.mm (which calls it)."""
    try:
        cudart = _load(["libcudart.so.13", "libcudart.so.12",
                        "libcudart.so"])
        cublas = _load(["libcublas.so.13", "libcublas.so.12",
                        "libcublas.so"])
    except MeasureError:
        return _torch_sgemm_seconds(n, warmup, repeats)
    handle = ctypes.c_void_p()
    _check(cublas.cublasCreate_v2(ctypes.byref(handle)), "cublasCreate")
    pointers = [ctypes.c_void_p() for _ in range(3)]
    for pointer in pointers:
        _check(cudart.cudaMalloc(ctypes.byref(pointer), n * n * 4),
               "cudaMalloc")
        _check(cudart.cudaMemset(pointer, 0, n * n * 4), "cudaMemset")
    alpha, beta = ctypes.c_float(1.0), ctypes.c_float(0.0)
    start, stop = ctypes.c_void_p(), ctypes.c_void_p()
    cudart.cudaEventCreate(ctypes.byref(start))
    cudart.cudaEventCreate(ctypes.byref(stop))

    def gemm():
        # CUBLAS_OP_N = 0
        _check(cublas.cublasSgemm_v2(
            handle, 0, 0, n, n, n, ctypes.byref(alpha), pointers[0], n,
            pointers[1], n, ctypes.byref(beta), pointers[2], n), "sgemm")

    for _ in range(warmup):
        gemm()
    times = []
    for _ in range(repeats):
        cudart.cudaEventRecord(start, None)
        gemm()
        cudart.cudaEventRecord(stop, None)
        cudart.cudaEventSynchronize(stop)
        milliseconds = ctypes.c_float()
        cudart.cudaEventElapsedTime(ctypes.byref(milliseconds), start, stop)
        times.append(milliseconds.value / 1e3)
    for pointer in pointers:
        cudart.cudaFree(pointer)
    cublas.cublasDestroy_v2(handle)
    return statistics.median(times)


def _torch_sgemm_seconds(n, warmup, repeats):
    try:
        import torch
    except ImportError:
        raise MeasureError("neither cuBLAS nor PyTorch can be loaded")
    torch.backends.cuda.matmul.allow_tf32 = False
    a, b = (torch.zeros(n, n, device="cuda") for _ in range(2))
    for _ in range(warmup):
        torch.mm(a, b)
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        torch.mm(a, b)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / 1e3)
    return statistics.median(times)


def _matmul_row(n, executable=None):
    """Times our matmul (prepared `executable`, else lowered here) and
    cuBLAS's at size `n`; prints the table row and returns it."""
    ours = our_matmul_seconds(n, executable=executable)
    theirs = cublas_matmul_seconds(n)
    print("| %d | %.6f | %.6f | %.1f |" % (n, ours, theirs, ours / theirs))
    return {"n": n, "ours_s": ours, "cublas_s": theirs, "ratio": ours / theirs}


def _load(names):
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise MeasureError("cannot load any of %s" % ", ".join(names))


def _check(status, what):
    if status != 0:
        raise MeasureError("%s failed with status %d" % (what, status))


def _execute(executable, env, timeout=None):
    """Runs a prepared executable; returns its stdout and stderr. A run
    past `timeout` is killed with its process group, and not waited for
    long: a process stuck in the driver may not die at once."""
    name = os.path.basename(executable)
    with tempfile.TemporaryFile("w+") as out, \
            tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen([executable], stdout=out, stderr=err,
                                   env=env, start_new_session=True)
        try:
            returncode = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(process.pid, 9)
                process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
            raise MeasureError("%s ran past %d s and was killed" % (
                name, timeout))
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if returncode != 0:
        raise MeasureError("%s failed (exit %d): %s" % (
            name, returncode, stderr[-2000:].strip()))
    return stdout, stderr


def _loop_model(name, directory):
    """Writes LOOPS[name]'s step wrapped in a loop to `directory`."""
    import gzip
    sys.path.insert(0, os.path.join(ROOT, "test", "python", "Inputs"))
    from random_programs import accumulate
    path = MODELS[LOOPS[name]][0]
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as handle:
        source = handle.read()
    # accumulate() wants one op per line, as memsched-opt prints.
    import memsched
    opt = os.path.join(os.path.dirname(os.path.abspath(memsched.__file__)),
                       "..", "..", "bin", "memsched-opt")
    printed = subprocess.run([opt, "-"], input=source, capture_output=True,
                             text=True, check=True).stdout
    loop = os.path.join(directory, name + ".mlir")
    with open(loop, "w") as handle:
        handle.write(accumulate(printed, LOOP_TRIPS))
    return loop


def _configs(models, budgets=None, directory=None):
    """(model, path, reference, budget, remat, swap, offload) of each run;
    `budgets`
    ("none,0.5x,min": a subset of CONFIGS' budgets) keeps only those.
    Loop models are written to `directory`."""
    kept = None if budgets is None else set(budgets.split(","))
    for name in models.split(","):
        if name in LOOPS:
            path = _loop_model(name, directory)
            reference = MODELS[LOOPS[name]][1]
        else:
            path, reference = MODELS[name]
        for budget, remat, swap, offload in CONFIGS:
            if kept is None or (budget or "none") in kept:
                yield name, path, reference, budget, remat, swap, offload


def _plan_name(swap, offload=""):
    return ("joint" if swap else "remat") + ("+offload" if offload else "")


def _error_reason(error):
    lines = str(error).splitlines() or [""]
    return next((line.split("error: ", 1)[1] for line in lines
                 if "error: " in line), lines[0])


def prepare(args):
    """Builds, here, everything --run needs on a GPU machine."""
    runner = _runner()
    import memsched.standalone as standalone
    runtime = runner.find_runtime("cuda")
    os.makedirs(args.prepare, exist_ok=True)
    manifest = {"runs": [], "matmul": [], "failed": []}
    references = {}
    for name, path, reference, budget, remat, swap, offload in _configs(
            args.models, args.budgets, args.prepare):
        label = "%s_%s_%s" % (name, (budget or "none").replace(".", "p"),
                              _plan_name(swap, offload).replace("+", "_"))
        argv = model_argv(path, reference, budget, remat, swap, offload,
                          ["--format", args.format])
        run_args = runner.build_parser().parse_args(argv)
        started = time.time()
        try:
            lowered = runner.lower(run_args)
            executable = os.path.join(args.prepare, label)
            standalone.build_executable(lowered["lowered"], executable,
                                        runtime)
            if name not in references:
                # One reference per model: the CPU's printed results, or
                # the unoptimised program to run on the device.
                if reference == "cpu":
                    stdout = _cpu_run(runner, lowered["reference_ir"])
                    file = name + "_reference.txt"
                    with open(os.path.join(args.prepare, file), "w") as out:
                        out.write(stdout)
                    references[name] = {"stdout": file}
                else:
                    file = name + "_reference"
                    standalone.build_executable(
                        lowered["reference_ir"],
                        os.path.join(args.prepare, file), runtime)
                    references[name] = {"executable": file}
            emulated = None
            # Emulated kernels are host loops: the zoo's models would take
            # hours, so only the examples are emulated.
            if args.emulate and reference == "cpu":
                emulated_args = runner.build_parser().parse_args(
                    argv + ["--emulate", "--reference", "none"])
                emulated = runner.run(emulated_args)["device_peak_bytes"]
        except (runner.RunError, standalone.BuildError) as error:
            print("| %s | %s | %s | %s |" % (name, budget or "-",
                                             _plan_name(swap, offload),
                                             _error_reason(error)[:120]))
            manifest["failed"].append({"model": name, "budget": budget,
                                       "plan": _plan_name(swap, offload),
                                       "reason": _error_reason(error)})
            continue
        summary = {key: value for key, value in lowered.items()
                   if key not in ("lowered", "reference_ir")}
        manifest["runs"].append({
            "model": name, "budget": budget, "plan": _plan_name(swap, offload),
            "executable": label, "reference": references[name],
            "reference_kind": reference, "lowered": summary,
            "emulated_device_peak_bytes": emulated})
        print("prepared %s in %.1f s" % (label, time.time() - started))
    for n in [int(size) for size in args.sizes.split(",") if size]:
        with tempfile.TemporaryDirectory() as directory:
            model = os.path.join(directory, "mm.mlir")
            with open(model, "w") as handle:
                handle.write(MATMUL.format(n=n))
            run_args = runner.build_parser().parse_args(
                [model, "--func", "mm", "--reference", "none", "--format",
                 args.format])
            lowered = runner.lower(run_args)
        label = "matmul_%d" % n
        standalone.build_executable(lowered["lowered"],
                                    os.path.join(args.prepare, label),
                                    runtime)
        manifest["matmul"].append({"n": n, "executable": label})
    with open(os.path.join(args.prepare, "manifest.json"), "w") as handle:
        json.dump(manifest, handle, indent=1)
    return 0


def _cpu_run(runner, reference_ir):
    from memsched.execute import _llvm_tool
    tool = _llvm_tool("mlir-runner")
    lib_dir = os.path.join(os.path.dirname(os.path.dirname(tool)), "lib")
    libs = [os.path.join(lib_dir, name) for name in
            ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]]
    return runner._run_lowered(tool, reference_ir, libs, dict(os.environ),
                               "the CPU reference run").stdout


def _print_header():
    print("| model | budget | plan | results | peak measured | planned "
          "| = | emulated | run time | kernel time | modelled "
          "| run / modelled |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")


def _verdict(check):
    if not check:
        return "not checked"
    if check["identical"]:
        return "identical"
    if check["within_tolerance"]:
        return "max rel %.2g" % check["max_rel_diff"]
    return "DIFFERENT: %d of %d (%d NaN on one side only)" % (
        check["differing"], check["elements"],
        check.get("nan_mismatches", 0))


def _print_row(report):
    check = report.get("check", {})
    ratio = (report["run_time_s"] / report["modeled_time_s"]
             if report.get("run_time_s") and report.get("modeled_time_s")
             else float("nan"))
    emulated = report.get("emulated_device_peak_bytes")
    print("| %s | %s | %s | %s | %d | %d | %s | %s | %.6f | %.6f | %.6f "
          "| %.2f |" % (
              report["model"], report["budget"] or "-", report["plan"],
              _verdict(check),
              report.get("device_peak_bytes") or -1,
              report.get("planned_device_bytes") or -1,
              "yes" if report.get("peak_matches_plan") else "NO",
              "-" if emulated is None else "%d" % emulated,
              report.get("run_time_s") or 0,
              report.get("kernel_time_s") or 0,
              report.get("modeled_time_s") or float("nan"), ratio))
    sys.stdout.flush()


def run_prepared(args):
    """Runs what --prepare built, on this machine's GPU."""
    outputs = _outputs()
    directory = os.path.abspath(args.run)
    with open(os.path.join(directory, "manifest.json")) as handle:
        manifest = json.load(handle)
    env = dict(os.environ, MEMSCHED_STATS="1")
    rows, reference_stdout = [], {}
    _print_header()
    for entry in manifest["runs"]:
        run_args = argparse.Namespace(
            model=entry["model"], func="train_step", emulate=False,
            runtime="cuda", budget=entry["budget"] or None,
            reference=entry["reference_kind"], rtol=1e-5, atol=1e-6)
        try:
            started = time.time()
            stdout, stderr = _execute(
                os.path.join(directory, entry["executable"]), env,
                args.timeout)
            reference = entry["reference"]
            key = reference.get("stdout") or reference["executable"]
            if key not in reference_stdout:
                if "stdout" in reference:
                    with open(os.path.join(directory, key)) as handle:
                        reference_stdout[key] = handle.read()
                else:
                    reference_stdout[key] = _execute(
                        os.path.join(directory, key), dict(os.environ),
                        args.timeout)[0]
            report = outputs.make_report(run_args, entry["lowered"], stdout,
                                         stderr, reference_stdout[key])
        except (MeasureError, ValueError) as error:
            print("| %s | %s | %s | %s |" % (entry["model"],
                                             entry["budget"] or "-",
                                             entry["plan"], str(error)[:300]))
            continue
        report.update(model=entry["model"], plan=entry["plan"],
                      wall_s=time.time() - started,
                      emulated_device_peak_bytes=entry[
                          "emulated_device_peak_bytes"])
        rows.append(report)
        _print_row(report)
    for entry in manifest["failed"]:
        print("| %s | %s | %s | %s |" % (entry["model"],
                                         entry["budget"] or "-",
                                         entry["plan"], entry["reason"][:120]))
    matmuls = []
    print()
    print("| matmul n | ours (s) | cuBLAS SGEMM (s) | ours / cuBLAS |")
    print("|---|---|---|---|")
    for entry in manifest["matmul"]:
        n = entry["n"]
        try:
            matmuls.append(_matmul_row(n, executable=os.path.join(
                directory, entry["executable"])))
        except MeasureError as error:
            print("| %d | %s |" % (n, error))
    _write_json(args.json, rows, matmuls)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="mlp,cnn,chain,resnet18")
    parser.add_argument("--sizes", default="1024,2048,4096")
    parser.add_argument("--budgets",
                        help="only these budgets of the table's: e.g. "
                        "none,0.8x,min")
    parser.add_argument("--json")
    parser.add_argument("--emulate", action="store_true",
                        help="check this script without a GPU: kernels as "
                        "host loops, no timings, no cuBLAS; with --prepare, "
                        "also record each program's emulated device peak")
    parser.add_argument("--prepare", metavar="DIR",
                        help="build standalone programs and references "
                        "into DIR (no GPU needed)")
    parser.add_argument("--run", metavar="DIR",
                        help="run what --prepare built in DIR (no MLIR "
                        "needed)")
    parser.add_argument("--format", default="bin",
                        choices=["isa", "bin", "fatbin"],
                        help="with --prepare: how kernels are embedded (bin: "
                        "compiled here by ptxas, nothing left to JIT-compile "
                        "on the GPU machine)")
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds one prepared program may run")
    args = parser.parse_args()
    try:
        if args.prepare:
            return prepare(args)
        if args.run:
            return run_prepared(args)
    except MeasureError as error:
        print("bench/gpu/measure.py: %s" % error, file=sys.stderr)
        return 2
    runner = _runner()
    extra = ["--emulate"] if args.emulate else []
    if not args.emulate:
        try:
            runner.find_runtime("cuda")
            runner.check_cuda_device()
        except runner.RunError as error:
            print("bench/gpu/measure.py: %s" % error, file=sys.stderr)
            return 2

    rows = []
    _print_header()
    for name, path, reference, budget, remat, swap, offload in _configs(
            args.models, args.budgets, tempfile.mkdtemp(prefix="loops-")):
        try:
            report = run_model(path, reference, budget, remat, swap, offload,
                               extra)
        except runner.RunError as error:
            print("| %s | %s | %s | %s |" % (name, budget or "-",
                                             _plan_name(swap, offload),
                                             _error_reason(error)[:120]))
            continue
        report["model"], report["plan"] = name, _plan_name(swap, offload)
        rows.append(report)
        _print_row(report)

    matmuls = []
    if args.emulate:
        _write_json(args.json, rows, matmuls)
        return 0
    print()
    print("| matmul n | ours (s) | cuBLAS SGEMM (s) | ours / cuBLAS |")
    print("|---|---|---|---|")
    for n in [int(size) for size in args.sizes.split(",") if size]:
        matmuls.append(_matmul_row(n))
    _write_json(args.json, rows, matmuls)
    return 0


def _write_json(path, rows, matmuls):
    if path:
        with open(path, "w") as handle:
            json.dump({"runs": rows, "matmul": matmuls}, handle, indent=2)


if __name__ == "__main__":
    sys.exit(main())
