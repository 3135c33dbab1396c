#!/usr/bin/env bash
# The README's first command: installs what is missing, builds, and fits the
# training step of ResNet-50 (batch 32, shipped in bench/models/) into half
# of the device memory it needs: prints the before/after table and the
# memory-vs-time curve of a budget sweep, and writes the before/after memory
# plot, the curve's plot, the JSON report, a Chrome trace and the optimised
# module to ./memsched-demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
mkdir -p memsched-demo
PYTHONPATH="$PWD/build/python_packages" /usr/bin/python3 -m memsched \
  bench/models/resnet50.mlir.gz --budget 0.5x --device h100 \
  --plot memsched-demo/resnet50_memory.png \
  --sweep-plot memsched-demo/resnet50_sweep.png \
  --json memsched-demo/resnet50_report.json \
  --trace memsched-demo/resnet50_trace.json \
  -o memsched-demo/resnet50_optimized.mlir
