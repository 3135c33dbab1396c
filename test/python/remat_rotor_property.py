# RUN: %PYTHON %s | FileCheck %s
# Tests memsched-remat's chain phase (Rotor's dynamic program,
# rotor-max-stages=) as a property over random training steps shaped as
# Rotor's chains (random sizes and times) and training-step-like programs
# (a forward chain with skip connections, a loss, gradients) at random
# budgets: with the phase, every budget met without it is met too, and the
# recompute time summed over the budgets both meet is no larger; every
# budget met stays met (planned_bytes <= budget) after canonicalize and
# cse; and wherever the phase's plan is taken, the results on CPU are
# bit-identical to the input's. Counts how often its plan is taken (at
# least once) and how often a budget costs more with the phase: planRemat
# returns the cheapest plan under each transient bound the budget driver
# tries, but the driver's search over those bounds (arena fragmentation
# decides which bound fits) can end on a costlier one (seeds 5 and 9 of
# 1-11: 2 of 400 budgets, by 6% and 9%).

import os
import random
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))

import memsched
import memsched.execute
from random_graphs import chain_step, training_step

PIPELINE = "func.func(memsched-remat{budget=%s device=cpu%s})"
RECOMPUTE = re.compile(r"recompute_time_s = ([0-9.eE+-]+)")
ALGORITHM = re.compile(r'memsched.remat = \{algorithm = "([a-z+]+)"')


def planned(text):
    return memsched.analyze(text)["functions"][0]["planned_bytes"]


def remat(text, budget, options=""):
    """(output, recompute seconds, algorithm), or None where the budget is
    not met."""
    try:
        output = memsched.run_pipeline(text, PIPELINE % (budget, options))
    except memsched.MLIRError:
        return None
    seconds = RECOMPUTE.search(output)
    algorithm = ALGORITHM.search(output)
    return (output, float(seconds.group(1)) if seconds else 0.0,
            algorithm.group(1) if algorithm else "")


rng = random.Random(int(os.environ.get("MEMSCHED_PROPERTY_SEED", "3")))
count = int(os.environ.get("MEMSCHED_PROPERTY_COUNT", "40"))
stats = {"met": 0, "rotor": 0, "cheaper": 0, "costlier": 0, "executed": 0}
total = {"with": 0.0, "without": 0.0}
for trial in range(count):
    func = "chain_step" if trial % 2 == 0 else "train_step"
    text = (chain_step(rng) if func == "chain_step"
            else training_step(rng, depth=rng.randint(6, 16), shuffle=False))
    fraction = round(rng.uniform(0.5, 0.95), 4)
    bound = int(fraction * planned(text))
    budget = "%.4fx" % fraction
    without = remat(text, budget, " rotor-max-stages=0")
    result = remat(text, budget)
    if result is None:
        if without is not None:
            print("trial %d %s: met without the chain phase, not with it"
                  % (trial, budget))
        continue
    stats["met"] += 1
    output, seconds, algorithm = result
    if without is not None:
        total["with"] += seconds
        total["without"] += without[1]
        if seconds > without[1] * (1 + 1e-9):
            stats["costlier"] += 1
        elif seconds < without[1] * (1 - 1e-9):
            stats["cheaper"] += 1
    cleaned = memsched.run_pipeline(output, "canonicalize,cse")
    for label, module in [("pass", output), ("cleanup", cleaned)]:
        if planned(module) > bound:
            print("trial %d %s after %s: planned %d > budget %d"
                  % (trial, budget, label, planned(module), bound))
    if algorithm == "rotor":
        stats["rotor"] += 1
        stats["executed"] += 1
        difference = memsched.execute.compare_on_cpu(text, cleaned, func)
        if difference is not None:
            print("trial %d: results differ: %s" % (trial, difference))
if total["with"] > total["without"] * (1 + 1e-9):
    print("total recompute %g s with the chain phase, %g s without"
          % (total["with"], total["without"]))
print("met %d rotor %d cheaper %d costlier %d executed %d"
      % (stats["met"], stats["rotor"], stats["cheaper"], stats["costlier"],
         stats["executed"]))

# CHECK-NOT: trial
# CHECK-NOT: total
# CHECK: met {{[1-9][0-9]*}} rotor {{[1-9][0-9]*}} cheaper {{[1-9][0-9]*}} costlier {{[0-9]+}} executed {{[1-9][0-9]*}}
