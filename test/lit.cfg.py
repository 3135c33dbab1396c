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
# GPU tests run only where a CUDA device is present and says so.
if os.environ.get("MEMSCHED_HAS_CUDA_DEVICE") == "1":
    config.available_features.add("cuda-device")

config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%memsched_obj_root", config.memsched_obj_root))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
