# RUN: rm -rf %t && mkdir -p %t
# RUN: %PYTHON -m memsched %examples/cnn_train_step.mlir --plot %t/p.png --json %t/r.json --trace %t/t.json | FileCheck %s
# RUN: %PYTHON -c "import json,sys; r=json.load(open(sys.argv[1])); print('functions', len(r['functions']))" %t/r.json | FileCheck %s --check-prefix=JSON
# RUN: FileCheck %s --check-prefix=TRACE < %t/t.json
# RUN: not %PYTHON -m memsched %examples/cnn_train_step.mlir --device tpu 2>&1 | FileCheck %s --check-prefix=ERR
# Tests the command line without a budget: the memory table, the plot, the
# JSON report, the trace, and an unknown device.

# CHECK: memsched report for @train_step
# CHECK: peak
# CHECK: wrote {{.*}}r.json
# CHECK: wrote {{.*}}p.png
# JSON: functions 1
# TRACE: "traceEvents"
# ERR: unknown device 'tpu'
