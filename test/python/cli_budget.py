# RUN: rm -rf %t && mkdir -p %t
# RUN: %PYTHON -m memsched %examples/chain_mlp_train_step.mlir --budget 0.9x --plot %t/ba.png --json %t/r.json --trace %t/t.json -o %t/out.mlir | FileCheck %s
# RUN: %PYTHON -c "import json,sys; f=json.load(open(sys.argv[1]))['functions'][0]; print('fit', f['fit']['budget_bytes'], f['fit']['chosen'] != 'none', 'timeline', len(f['timeline']['live_bytes']) > 0)" %t/r.json | FileCheck %s --check-prefix=JSON
# RUN: %PYTHON -c "import sys; print('png', open(sys.argv[1], 'rb').read(8) == b'\x89PNG\r\n\x1a\n')" %t/ba.png | FileCheck %s --check-prefix=PNG
# RUN: FileCheck %s --check-prefix=TRACE < %t/t.json
# RUN: %PYTHON -m memsched %t/out.mlir | FileCheck %s --check-prefix=OUT
# RUN: %PYTHON -m memsched %t/out.mlir | %PYTHON -c "import re,sys; b=int(re.search(r'planned \(device\) .*?\((\d+) bytes\)', sys.stdin.read()).group(1)); print('within', b <= 145918)" | FileCheck %s --check-prefix=WITHIN
# RUN: %PYTHON -c "import gzip,shutil,sys; shutil.copyfileobj(open(sys.argv[1],'rb'), gzip.open(sys.argv[2],'wb'))" %examples/chain_mlp_train_step.mlir %t/m.mlir.gz
# RUN: %PYTHON -m memsched %t/m.mlir.gz --budget "12 GiB" --device a100-80gb | FileCheck %s --check-prefix=GZIP
# RUN: %PYTHON -m memsched %t/m.mlir.gz --budget min --no-swap | FileCheck %s --check-prefix=MIN
# RUN: %PYTHON -m memsched %examples/chain_mlp_train_step.mlir --sweep "0.9x, 1 GiB,1KiB,min" --sweep-plot %t/sweep.png | FileCheck %s --check-prefix=SWEEP
# RUN: %PYTHON -c "import sys; print('png', open(sys.argv[1], 'rb').read(8) == b'\x89PNG\r\n\x1a\n')" %t/sweep.png | FileCheck %s --check-prefix=PNG
# Tests `python3 -m memsched MODEL --budget B`: the before/after table
# (planned bytes of the input, 162132 B, against the budget, 0.9x of them),
# the JSON report of the optimised program with its fit entry and
# timeline, the before/after plot, the trace and the optimised module;
# gzip-compressed input, budgets with spaces, other devices and `min`; the
# memory-vs-time curve of a budget sweep and its plot.

# CHECK: memsched: @train_step on h100 with budget 0.9x
# CHECK-NEXT: before after change
# CHECK-NEXT: device memory (planned) 158.33 KiB {{[0-9.]+}} KiB -{{[0-9.]+}}%
# CHECK-NEXT: step time (modelled) {{[0-9.]+}} us {{[0-9.]+}} us {{[-+][0-9.]+}}%
# CHECK-NEXT: budget 142.50 KiB met
# What holds the optimised step's peak, largest buffers first.
# CHECK: peak at {{.+}} ('linalg.{{[a-z_]+}}')
# CHECK-NEXT: {{^ +[0-9.]+ KiB  .+}} (linalg.{{[a-z_]+}}{{.*}})
# CHECK: chosen {{swap|remat|joint-0.25|joint-0.5|joint-0.75}}
# CHECK: wrote {{.*}}r.json
# CHECK: wrote {{.*}}ba.png
# CHECK: wrote {{.*}}t.json
# CHECK: wrote {{.*}}out.mlir

# JSON: fit 145918 True timeline True
# PNG: png True
# TRACE: "traceEvents"

# The optimised module is a model like any other: within the budget.
# OUT: memsched report for @train_step
# OUT-NEXT: planned (device) {{[0-9.]+}} KiB
# WITHIN: within True

# GZIP: memsched: @train_step on a100-80gb with budget 12 GiB
# GZIP: budget 12.00 GiB met
# GZIP: chosen none

# MIN: budget [[FLOOR:[0-9.]+ KiB]] met
# MIN-NEXT: smallest reachable [[FLOOR]]
# MIN: chosen remat
# MIN-NOT: swapped

# SWEEP: memsched report for @train_step
# SWEEP: memsched: memory vs time of @train_step on h100 (budget sweep)
# SWEEP-NEXT: budget budget bytes planned step time chosen
# SWEEP-NEXT: no budget {{[0-9.]+}} KiB {{[0-9.]+}} us
# SWEEP-NEXT: 0.9x 142.50 KiB {{[0-9.]+}} KiB {{[0-9.]+}} us {{swap|remat|joint-0.25|joint-0.50|joint-0.75}}
# SWEEP-NEXT: 1GiB 1.00 GiB {{[0-9.]+}} KiB {{[0-9.]+}} us none
# SWEEP-NEXT: 1KiB 1.00 KiB not met: the smallest reachable is [[FLOOR:[0-9.]+ KiB]]
# SWEEP-NEXT: min [[FLOOR]] [[FLOOR]] {{[0-9.]+}} us
# SWEEP-NEXT: wrote {{.*}}sweep.png
