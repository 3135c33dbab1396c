# RUN: rm -rf %t && mkdir -p %t
# RUN: %PYTHON %s %examples/chain_mlp_train_step.mlir %t | FileCheck %s
# Tests that bad input to `python3 -m memsched` is one message on stderr
# and exit status 1, never a traceback: missing, unreadable, binary and
# broken gzip files, MLIR parse errors (with the line in the file),
# malformed budgets, unknown devices, unreachable budgets (with the
# smallest reachable one), outputs that cannot be written; and that slow
# steps print a progress line on stderr.

import gzip
import os
import subprocess
import sys

model, scratch = sys.argv[1], sys.argv[2]


def run(*args, env=None):
    # No progress lines unless a check asks for them: on a loaded machine a
    # step can pass the default 2 s and add one to a one-line error.
    env = dict({"MEMSCHED_PROGRESS_AFTER_S": "600"}, **(env or {}))
    completed = subprocess.run([sys.executable, "-m", "memsched"] +
                               list(args), capture_output=True, text=True,
                               env=dict(os.environ, **env))
    stderr = completed.stderr.strip()
    print("rc=%d traceback=%s lines=%d | %s" % (
        completed.returncode, "Traceback" in stderr,
        len(stderr.splitlines()), stderr.splitlines()[0] if stderr else ""))
    return completed


with open(os.path.join(scratch, "broken.mlir"), "w") as handle:
    handle.write("func.func @f() {\n  func.funk\n}\n")
with open(os.path.join(scratch, "truncated.mlir.gz"), "wb") as handle:
    handle.write(gzip.compress(open(model, "rb").read())[:200])

# CHECK: rc=1 traceback=False lines=1 | memsched: error: cannot read {{.*}}missing.mlir: No such file or directory
run(os.path.join(scratch, "missing.mlir"))
# CHECK-NEXT: rc=1 traceback=False lines=1 | memsched: error: cannot read {{.*}}: Is a directory
run(scratch)
# CHECK-NEXT: rc=1 traceback=False lines=1 | memsched: error: cannot read {{.*}}python{{.*}}: not an MLIR text file (nor gzip of one)
run(os.path.realpath(sys.executable))
# CHECK-NEXT: rc=1 traceback=False lines=1 | memsched: error: cannot read {{.*}}truncated.mlir.gz: not a valid gzip file
run(os.path.join(scratch, "truncated.mlir.gz"))
# CHECK-NEXT: rc=1 traceback=False lines=1 | memsched: error: {{.*}}broken.mlir:2:3: custom op 'func.funk' is unknown
run(os.path.join(scratch, "broken.mlir"))
# CHECK-NEXT: rc=1 traceback=False lines=1 | memsched: error: budget '0.8' is not a whole number of bytes; write '0.8x' for a fraction of the planned bytes
run(model, "--budget", "0.8")
# CHECK-NEXT: rc=1 traceback=False lines=1 | memsched: error: unknown budget unit 'parsecs' in '12 parsecs'; accepted: bytes {{.*}}'0.5x'{{.*}}'min'
run(model, "--budget", "12 parsecs")
# CHECK-NEXT: rc=1 traceback=False lines=1 | memsched: error: unknown device 'tpu'; expected one of h100, h200, a100-80gb, cpu or a path to a .json file
run(model, "--device", "tpu")
# CHECK-NEXT: rc=1 traceback=False lines=1 | memsched: error: unknown device 'tpu'; expected one of
run(model, "--device", "tpu", "--budget", "0.5x")
# CHECK-NEXT: rc=1 traceback=False lines={{[12]}} | memsched: error: memsched-fit: cannot meet the budget of 1.00 KiB (1024 B) for '@train_step'; the smallest reachable footprint is {{.*}} B, {{[a-z0-9.-]+}})
run(model, "--budget", "1KiB")
# CHECK-NEXT: rc=1 traceback=False lines=1 | memsched: error: cannot write {{.*}}no-such-directory{{.*}}r.json: no directory
run(model, "--budget", "0.9x", "--json",
    os.path.join(scratch, "no-such-directory", "r.json"))
# CHECK-NEXT: rc=1 traceback=False lines=1 | memsched: error: --reorder and --budget do not go together
run(model, "--budget", "0.9x", "--reorder", "auto")
# CHECK-NEXT: rc=1 traceback=False lines=1 | memsched: error: --sweep: budget '0.5' is not a whole number of bytes; write '0.5x'
run(model, "--sweep", "0.9x,0.5")

# A step running longer than MEMSCHED_PROGRESS_AFTER_S (default: 2 s) says
# so on stderr (0: every step); a quicker one does not.
# CHECK-NEXT: rc=0 traceback=False lines={{[0-9]+}} | memsched: analysing chain_mlp_train_step.mlir ...
completed = run(model, "--budget", "0.9x",
                env={"MEMSCHED_PROGRESS_AFTER_S": "0"})
# CHECK-NEXT: progress: memsched: fitting chain_mlp_train_step.mlir into 0.9x on h100 (reorder, recompute, swap; this can take a minute) ...
print("progress:", completed.stderr.splitlines()[1])
# CHECK-NEXT: rc=0 traceback=False lines=0 |
run(model, "--budget", "0.9x", env={"MEMSCHED_PROGRESS_AFTER_S": "30"})
