#!/usr/bin/env bash
# Configures and builds memsched in ./build (Release, Ninja, 2 jobs by
# default; set JOBS to change).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -G Ninja -S . -B build \
  -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DPython3_EXECUTABLE=/usr/bin/python3
cmake --build build -j "${JOBS:-2}"
