# RUN: %PYTHON %s --max-ops 25 --timeout 60 \
# RUN:   --known nondeterministic:bufferize+plan \
# RUN:   --known slow:* | FileCheck %s
# Tests that every memsched pass and pipeline survives random valid programs
# (bench/fuzz.py on the seeds of MEMSCHED_FUZZ_SEEDS, by default its small
# range): no crash or time-out, every output verifies, failures are error
# diagnostics (no internal error), a second run gives the same output,
# budgets hold after cse and canonicalize, the report is strict JSON, CPU
# results are bit-identical to the input's, a failed pass leaves its
# function unchanged, and buffer plans verify. Failures already known are
# allowed with --known; each has its own test in test/Fuzz (XFAIL until
# fixed): drop it here when it is fixed.

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "bench"))

import fuzz

fuzz.main()

# CHECK-NOT: FUZZ-FAILURE
# CHECK: fuzzed {{[1-9][0-9]*}} programs
# CHECK-NOT: FUZZ-FAILURE
# CHECK: total failures: 0
