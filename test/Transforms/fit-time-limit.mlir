// RUN: not memsched-opt %examples/chain_mlp_train_step.mlir -mlir-print-op-on-diagnostic=false -memsched-fit="budget=0.6x time-limit-ms=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMITED
// RUN: not memsched-opt %examples/chain_mlp_train_step.mlir -mlir-print-op-on-diagnostic=false -memsched-fit="budget=0.6x" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNLIMITED

// Tests that time-limit-ms bounds memsched-fit's whole search, not only each
// planner run: past the limit the driver keeps what it holds (the first
// candidates of each phase still run, and each takes more than a
// millisecond), and says that the limit, not the budget, stopped it. Without
// a limit the search goes further (101.08 KiB, below what the limited one
// found) and says the budget is out of reach.

// LIMITED: error: memsched-fit: cannot meet the budget of 95.00 KiB (97279 B) for '@train_step'; the smallest footprint found within the time limit is
// LIMITED: note: the time limit stopped the search after {{[0-9]+}} candidates; a larger time-limit-ms may reach further
// UNLIMITED: error: memsched-fit: cannot meet the budget of 95.00 KiB (97279 B) for '@train_step'; the smallest reachable footprint is 101.08 KiB
// UNLIMITED-NOT: time limit
