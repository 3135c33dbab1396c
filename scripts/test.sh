#!/usr/bin/env bash
# The README's second command: builds if needed and runs every test (lit
# tests on IR, Python tests, install test, and all GoogleTest cases).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -f build/build.ninja ]]; then
  bash scripts/build.sh
fi
cmake --build build -j "${JOBS:-2}" --target check-memsched
