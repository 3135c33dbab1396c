#!/usr/bin/env bash
# The README's first command: installs what is missing, builds, and runs
# memsched on the CNN training step shipped in examples/: reorders its ops
# for the least peak memory, prints the memory table and writes a memory-over-time plot (and the JSON report and a Chrome
# trace) to ./memsched-demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
mkdir -p memsched-demo
PYTHONPATH="$PWD/build/python_packages" /usr/bin/python3 -m memsched \
  examples/cnn_train_step.mlir --device h100 --reorder auto \
  --plot memsched-demo/cnn_memory.png \
  --json memsched-demo/cnn_report.json \
  --trace memsched-demo/cnn_trace.json
