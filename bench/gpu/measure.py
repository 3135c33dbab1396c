"""Measures memsched's GPU lowering on a CUDA device.

    PYTHONPATH=build/python_packages python3 bench/gpu/measure.py \
        [--models mlp,cnn,chain,resnet18] [--json out.json]

For every model and budget (none, then memsched-optimize at 0.9x, 0.8x and
0.7x with recomputation and swapping chosen jointly, and 0.7x with
recomputation only), one run of ``python3 -m memsched.run`` gives side by
side: the measured device peak and the planned device memory (resident
copies + arena), the measured run time and kernel time and the modelled
time. Results are checked against the CPU for the examples and against the
unoptimised program on the GPU for zoo models.

Then matmuls of 1024, 2048 and 4096 (float32, square) time our kernel (the
runtime's per-kernel profile, best of three runs) and cuBLAS's SGEMM
(``cublasSgemm_v2`` through ctypes, default math mode: no TF32; median of
20 after 3 warm-up calls) on the same device; the ratio ours / cuBLAS is
the factor the GPU issue asks for.

Without a CUDA device it says so and exits with status 2.
"""

import argparse
import ctypes
import json
import os
import statistics
import sys
import tempfile

import memsched.run as runner

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
}
CONFIGS = [("", True, True), ("0.9x", True, True), ("0.8x", True, True),
           ("0.7x", True, True), ("0.7x", True, False)]


def run_model(path, reference, budget, remat, swap, extra=()):
    argv = [path, "--reference", reference]
    if budget:
        argv += ["--budget", budget]
    if not remat:
        argv.append("--no-remat")
    if not swap:
        argv.append("--no-swap")
    argv += list(extra)
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


def our_matmul_seconds(n, runs=3):
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
            run_model(model, "none", "", True, True,
                      ["--func", "mm", "--profile", profile])
            with open(profile) as handle:
                kernels = json.load(handle)["kernels"]
            seconds = sum(k["total_s"] for k in kernels
                          if k["name"].endswith("_matmul"))
            best = seconds if best is None else min(best, seconds)
    return best


def cublas_matmul_seconds(n, warmup=3, repeats=20):
    cudart = _load(["libcudart.so.13", "libcudart.so.12", "libcudart.so"])
    cublas = _load(["libcublas.so.13", "libcublas.so.12", "libcublas.so"])
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


def _load(names):
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise runner.RunError("cannot load any of %s" % ", ".join(names))


def _check(status, what):
    if status != 0:
        raise runner.RunError("%s failed with status %d" % (what, status))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="mlp,cnn,chain,resnet18")
    parser.add_argument("--sizes", default="1024,2048,4096")
    parser.add_argument("--json")
    parser.add_argument("--emulate", action="store_true",
                        help="check this script without a GPU: kernels as "
                        "host loops, no timings, no cuBLAS")
    args = parser.parse_args()
    extra = ["--emulate"] if args.emulate else []
    if not args.emulate:
        try:
            runner.find_runtime("cuda")
            runner.check_cuda_device()
        except runner.RunError as error:
            print("bench/gpu/measure.py: %s" % error, file=sys.stderr)
            return 2

    rows = []
    print("| model | budget | plan | results | peak measured | planned "
          "| = | run time | kernel time | modelled | run / modelled |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in args.models.split(","):
        path, reference = MODELS[name]
        for budget, remat, swap in CONFIGS:
            try:
                report = run_model(path, reference, budget, remat, swap,
                                   extra)
            except runner.RunError as error:
                lines = str(error).splitlines()
                reason = next((line.split("error: ", 1)[1] for line in lines
                               if "error: " in line), lines[0])
                print("| %s | %s | %s | %s |" % (
                    name, budget or "-", "joint" if swap else "remat",
                    reason[:120]))
                continue
            report["model"], report["plan"] = name, ("joint" if swap
                                                     else "remat")
            rows.append(report)
            check = report.get("check", {})
            ratio = (report["run_time_s"] / report["modeled_time_s"]
                     if report.get("run_time_s") and
                     report.get("modeled_time_s") else float("nan"))
            for key in ["device_peak_bytes", "planned_device_bytes",
                        "modeled_time_s"]:
                report.setdefault(key, None)
            print("| %s | %s | %s | %s | %d | %d | %s | %.6f | %.6f | %.6f "
                  "| %.2f |" % (
                      name, budget or "-", report["plan"],
                      "identical" if check.get("identical") else
                      "max rel %.2g" % check.get("max_rel_diff", float("nan")),
                      report["device_peak_bytes"] or -1,
                      report["planned_device_bytes"] or -1,
                      "yes" if report.get("peak_matches_plan") else "NO",
                      report.get("run_time_s") or 0,
                      report.get("kernel_time_s") or 0,
                      report["modeled_time_s"] or float("nan"), ratio))

    matmuls = []
    if args.emulate:
        _write_json(args.json, rows, matmuls)
        return 0
    print()
    print("| matmul n | ours (s) | cuBLAS SGEMM (s) | ours / cuBLAS |")
    print("|---|---|---|---|")
    for n in [int(size) for size in args.sizes.split(",")]:
        ours = our_matmul_seconds(n)
        theirs = cublas_matmul_seconds(n)
        matmuls.append({"n": n, "ours_s": ours, "cublas_s": theirs,
                        "ratio": ours / theirs})
        print("| %d | %.6f | %.6f | %.1f |" % (n, ours, theirs,
                                                ours / theirs))
    _write_json(args.json, rows, matmuls)
    return 0


def _write_json(path, rows, matmuls):
    if path:
        with open(path, "w") as handle:
            json.dump({"runs": rows, "matmul": matmuls}, handle, indent=2)


if __name__ == "__main__":
    sys.exit(main())
