# RUN: %PYTHON %s | FileCheck %s
# Tests that a tree written in destination-passing style (every computation
# into its own tensor.empty, as frontends emit it) is a tree for
# memsched-reorder: on random trees given in random topological orders,
# algorithm=liu is accepted and reaches the brute-force optimum, and auto
# reaches it too; on trees of 200-400 computations auto matches liu.

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))

import memsched
from random_graphs import dps_tree, tree_optimum


def reorder_peak(text, algorithm):
    reordered = memsched.run_pipeline(
        text, "func.func(memsched-reorder{algorithm=%s})" % algorithm)
    return memsched.analyze(reordered)["functions"][0]["peak_transient_bytes"]


rng = random.Random(2026)
small = mismatches = 0
for trial in range(60):
    n = rng.randint(2, 8)
    text, parents, sizes = dps_tree(rng, n)
    optimum = tree_optimum(parents, sizes)
    for algorithm in ["liu", "auto"]:
        peak = reorder_peak(text, algorithm)
        if peak != optimum:
            mismatches += 1
            print("trial %d %s: peak %d, optimum %d" % (trial, algorithm,
                                                         peak, optimum))
    small += 1
print("small trees:", small, "mismatches:", mismatches)

worst = 1.0
for trial in range(4):
    text, parents, sizes = dps_tree(rng, rng.randint(200, 400))
    worst = max(worst, reorder_peak(text, "auto") / reorder_peak(text, "liu"))
print("large trees: auto/liu worst %.3f" % worst)

# CHECK-NOT: trial
# CHECK: small trees: 60 mismatches: 0
# CHECK: large trees: auto/liu worst 1.000
