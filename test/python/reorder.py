# RUN: %PYTHON %s %examples/mlp_train_step.mlir | FileCheck %s
# RUN: %PYTHON -m memsched %examples/mlp_train_step.mlir --reorder lpmf | FileCheck %s --check-prefix=CLI
# RUN: not %PYTHON -m memsched %examples/mlp_train_step.mlir --reorder fastest 2>&1 | FileCheck %s --check-prefix=ERR
# Tests memsched.reorder and the --reorder option of the command line: the
# reordered module reports a lower peak and the reorder figures, and results
# on CPU are bit-identical to the input's.

import sys

import memsched
import memsched.execute

with open(sys.argv[1]) as handle:
    text = handle.read()
before = memsched.analyze(text)["functions"][0]
reordered = memsched.reorder(text, algorithm="auto", time_limit_ms=500)
after = memsched.analyze(reordered)["functions"][0]
figures = after["reorder"]
print("lower:", after["peak_bytes"] < before["peak_bytes"])
print("consistent:", figures["peak_after_bytes"] == after["peak_bytes"],
      figures["peak_before_bytes"] == before["peak_bytes"])
print("candidates:", sorted(figures["candidates"]))
print("identical:", memsched.execute.compare_on_cpu(text, reordered) is None)

# CHECK: lower: True
# CHECK: consistent: True True
# CHECK: candidates: [{{.*}}'inductor-bfs', 'inductor-dfs', 'inductor-lpmf', 'postorder', 'program', {{.*}}'xla-dfs', 'xla-list']
# CHECK: identical: True

# CLI: reordered by{{ +}}inductor-lpmf
# CLI: peak before reorder
# CLI: peak after reorder

# ERR: memsched-reorder: unknown algorithm 'fastest'
