# -*- Python -*-
# lit configuration of the memsched test suite.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MEMSCHED"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".py", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "lib",
                   "Inputs", "Unit"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.memsched_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.memsched_tools_dir,
                             append_path=True)

runner_libs = ",".join(
    os.path.join(config.mlir_runner_utils_dir, lib)
    for lib in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"])
# Runs the main function added by memsched-exec-harness on lowered IR.
config.substitutions.append(
    ("%run_harness",
     "mlir-runner -e memsched_main -entry-point-result=void "
     f"-shared-libs={runner_libs}"))
config.substitutions.append(("%examples",
                             os.path.join(config.memsched_src_root,
                                          "examples")))
config.substitutions.append(("%PYTHON", config.python_executable))

tool_dirs = [config.memsched_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["memsched-opt", "memsched-plan-offsets", "mlir-runner"], tool_dirs)

python_path = os.path.join(config.memsched_obj_root, "python_packages")
llvm_config.with_environment("PYTHONPATH", python_path, append_path=True)
llvm_config.with_environment("MEMSCHED_OPT",
                             os.path.join(config.memsched_tools_dir,
                                          "memsched-opt"))
llvm_config.with_environment("MEMSCHED_LLVM_TOOLS_DIR", config.llvm_tools_dir)

if config.enable_python:
    config.available_features.add("python")
    # memsched.torch's tests need PyTorch and torchvision (Debian's
    # python3-torch, python3-torchvision).
    import subprocess
    if subprocess.run([config.python_executable, "-c",
                       "import torch, torchvision"],
                      capture_output=True).returncode == 0:
        config.available_features.add("torch")
if config.memsched_install_test:
    config.available_features.add("install-test")
# The mgpu* ABI: the logging mock (always built) and the CUDA runtime (built
# when a CUDA toolkit was found).
config.substitutions.append(
    ("%mock_gpu_runtime",
     os.path.join(config.memsched_lib_dir, "libmemsched_mock_gpu_runtime.so")))
config.substitutions.append(
    ("%cuda_runtime",
     os.path.join(config.memsched_lib_dir, "libmemsched_cuda_runtime.so")))
# Runs lowered GPU code with a runtime given as %{gpu_runtime}.
config.substitutions.append(
    ("%run_gpu_harness",
     "mlir-runner -e memsched_main -entry-point-result=void "
     f"-shared-libs={runner_libs},"))
if config.cuda_runtime:
    config.available_features.add("cuda-runtime")
# format=bin/fatbin need the CUDA toolkit's ptxas and fatbinary. MLIR looks
# in the toolkit directory named by CUDA_ROOT (CUDA_HOME, CUDA_PATH), then on
# PATH; the tests get CUDA_ROOT when a toolkit is in its usual place.
import shutil
toolkit = next((os.environ[name] for name in ["CUDA_ROOT", "CUDA_HOME",
                                              "CUDA_PATH"]
                if os.environ.get(name)), "/usr/local/cuda")
libdevice = os.path.join(toolkit, "nvvm", "libdevice", "libdevice.10.bc")
if (os.access(os.path.join(toolkit, "bin", "ptxas"), os.X_OK) or
        os.path.exists(libdevice)):
    config.environment["CUDA_ROOT"] = toolkit
# Math functions in device code are linked from libdevice.
if os.path.exists(libdevice):
    config.available_features.add("libdevice")
def find_cuda_tool(name):
    return (os.access(os.path.join(toolkit, "bin", name), os.X_OK) or
            shutil.which(name, path=config.environment.get("PATH")) is not None)
if find_cuda_tool("ptxas"):
    config.available_features.add("ptxas")
if find_cuda_tool("fatbinary"):
    config.available_features.add("fatbinary")
# GPU tests run only where a CUDA device is present: MEMSCHED_HAS_CUDA_DEVICE=1
# says so, or 0 says not; otherwise the driver is asked.
has_device = os.environ.get("MEMSCHED_HAS_CUDA_DEVICE")
if has_device is None and config.cuda_runtime:
    import ctypes
    try:
        driver = ctypes.CDLL("libcuda.so.1")
        count = ctypes.c_int(0)
        has_device = "1" if (driver.cuInit(0) == 0 and
                             driver.cuDeviceGetCount(ctypes.byref(count)) == 0
                             and count.value > 0) else "0"
    except OSError:
        has_device = "0"
if has_device == "1" and config.cuda_runtime:
    config.available_features.add("cuda-device")

config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%memsched_obj_root", config.memsched_obj_root))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
