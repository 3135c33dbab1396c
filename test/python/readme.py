# RUN: rm -rf %t && mkdir -p %t
# RUN: %PYTHON %s %S/../.. %t | FileCheck %s
# Tests that every command of the README runs as written: each ```sh block
# as one bash script from the repository root (with `python3` the Python
# lit uses), the commands scripts/demo.sh runs after installing and
# building, and each ```python block. Skipped, each for its reason: the
# install/build/test scripts themselves, the GPU run without --emulate
# when no CUDA device is configured for the tests, and PyTorch blocks
# without PyTorch. A skip that matches no README command fails the test.

import os
import re
import subprocess
import sys

source, scratch = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
packages = next(entry for entry in
                os.environ.get("PYTHONPATH", "").split(os.pathsep)
                if os.path.exists(os.path.join(entry, "memsched",
                                               "__init__.py")))
build = os.path.dirname(os.path.abspath(packages))

# A working directory that looks like the repository after a build.
work = os.path.join(scratch, "repo")
os.makedirs(work)
for name in ["examples", "bench", "docs", "scripts", "README.md"]:
    os.symlink(os.path.join(source, name), os.path.join(work, name))
os.symlink(build, os.path.join(work, "build"))
tools = os.path.join(scratch, "bin")
os.makedirs(tools)
os.symlink(sys.executable, os.path.join(tools, "python3"))
env = dict(os.environ, PATH=tools + os.pathsep + os.environ["PATH"])

has_torch = subprocess.run(
    [sys.executable, "-c", "import torch, torchvision"],
    capture_output=True).returncode == 0
has_gpu = os.environ.get("MEMSCHED_HAS_CUDA_DEVICE") == "1"

SKIPS = [
    (r"^bash scripts/demo\.sh$", "installs and builds; the commands it "
     "runs after the build run below", None),
    (r"^bash scripts/test\.sh$", "runs the tests, this one among them", None),
    (r"memsched\.run .*--budget [^ ]+$", "needs a CUDA device; the same "
     "command with --emulate runs", "gpu"),
]
used_skips = set()


def commands_of(block):
    """Logical commands: continuation lines joined, comments dropped."""
    commands, current = [], ""
    for line in block.splitlines():
        if not current and (not line.strip() or
                            line.lstrip().startswith("#")):
            continue
        current += line.rstrip()
        if current.endswith("\\"):
            current = current[:-1].rstrip() + " "
        elif current.endswith("|"):
            current += " "
        else:
            commands.append(current.strip())
            current = ""
    if current:
        commands.append(current.strip())
    return commands


def skip_reason(command):
    for index, (pattern, reason, feature) in enumerate(SKIPS):
        if re.search(pattern, command):
            used_skips.add(index)
            if feature == "gpu" and has_gpu:
                return None
            return reason
    return None


def run_script(label, script):
    completed = subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + script], cwd=work, env=env,
        capture_output=True, text=True)
    if completed.returncode != 0:
        print("FAILED: %s (exit %d)\n%s\n%s" % (
            label, completed.returncode, script,
            (completed.stdout + completed.stderr)[-3000:]))
        return False
    return True


readme = open(os.path.join(source, "README.md")).read()
blocks = re.findall(r"^```(\w*)\n(.*?)^```$", readme, re.M | re.S)
ran_commands = ran_python = failed = 0
for number, (language, body) in enumerate(blocks, 1):
    if language == "sh":
        commands = []
        for command in commands_of(body):
            reason = skip_reason(command)
            if reason:
                print("skipped: %s (%s)" % (command, reason))
            else:
                commands.append(command)
        if commands:
            ran_commands += len(commands)
            failed += not run_script("README block %d" % number,
                                     "\n".join(commands))
    elif language == "python":
        if re.search(r"^import .*\btorch\b", body, re.M) and not has_torch:
            print("skipped: Python block %d (needs PyTorch)" % number)
            continue
        ran_python += 1
        failed += not run_script("README Python block %d" % number,
                                 "python3 - <<'README_PYTHON'\n%s"
                                 "README_PYTHON" % body)

# What scripts/demo.sh runs once memsched is built.
demo = open(os.path.join(source, "scripts", "demo.sh")).read()
after_build = demo.split("bash scripts/build.sh\n", 1)[1]
demo_commands = commands_of(after_build)
ran_commands += len(demo_commands)
failed += not run_script("scripts/demo.sh after the build",
                         "\n".join(demo_commands))
for name in ["resnet50_memory.png", "resnet50_sweep.png",
             "resnet50_report.json",
             "resnet50_trace.json", "resnet50_optimized.mlir"]:
    if not os.path.exists(os.path.join(work, "memsched-demo", name)):
        print("FAILED: scripts/demo.sh wrote no memsched-demo/%s" % name)
        failed += 1

for index, (pattern, _, _) in enumerate(SKIPS):
    if index not in used_skips:
        print("FAILED: stale skip %r matches no README command" % pattern)
        failed += 1
print("ran %d shell commands and %d Python blocks; failed %d" % (
    ran_commands, ran_python, failed))
# CHECK-NOT: FAILED
# CHECK: ran {{[1-9][0-9]+}} shell commands and {{[1-9][0-9]*}} Python blocks; failed 0
