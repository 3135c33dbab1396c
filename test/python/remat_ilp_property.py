# RUN: %PYTHON %s | FileCheck %s
# Tests memsched-remat's ILP phase (ilp-max-tasks=) as a property over
# random DAGs and training-step-like programs at random budgets: with the
# phase, every budget the drop sets meet is met too, at no more recompute
# time; every budget met stays met (planned_bytes <= budget) after
# canonicalize and cse; and the results on CPU are bit-identical to the
# input's (on a sample). Counts how often the phase meets a budget the drop
# sets miss (at least once; memsched.optimize with ilp_max_tasks meets those
# too) or recomputes less than they do.

import os
import random
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))

import memsched
import memsched.execute
from random_graphs import random_dag, training_step

PIPELINE = "func.func(memsched-remat{budget=%s device=cpu%s})"
RECOMPUTE = re.compile(r"recompute_time_s = ([0-9.eE+-]+)")


def planned(text):
    return memsched.analyze(text)["functions"][0]["planned_bytes"]


def remat(text, budget, ilp):
    """The output and its recompute time, or None where the budget is
    not met."""
    try:
        output = memsched.run_pipeline(
            text, PIPELINE % (budget, " ilp-max-tasks=40" if ilp else ""))
    except memsched.MLIRError:
        return None
    match = RECOMPUTE.search(output)
    return output, float(match.group(1)) if match else 0.0


# Seed 8: since the drop sets have private variants (recomputing an input
# again rather than making another drop's copy early), they meet every
# budget the ILP phase meets on seeds 1-7 and 12 and the phase is never
# cheaper; on this seed the ILP phase alone meets one.
rng = random.Random(int(os.environ.get("MEMSCHED_PROPERTY_SEED", "8")))
count = int(os.environ.get("MEMSCHED_PROPERTY_COUNT", "30"))
stats = {"met": 0, "only_ilp": 0, "cheaper": 0, "executed": 0}
for trial in range(count):
    func = "dag" if trial % 2 == 0 else "train_step"
    text = (random_dag(rng) if func == "dag"
            else training_step(rng, depth=rng.randint(3, 8)))
    fraction = round(rng.uniform(0.6, 0.98), 4)
    bound = int(fraction * planned(text))
    budget = "%.4fx" % fraction
    drop_sets = remat(text, budget, ilp=False)
    with_ilp = remat(text, budget, ilp=True)
    if with_ilp is None:
        if drop_sets is not None:
            print("trial %d %s: met by the drop sets, not with the ILP phase"
                  % (trial, budget))
        continue
    stats["met"] += 1
    output, seconds = with_ilp
    if drop_sets is None:
        stats["only_ilp"] += 1
        # memsched.optimize (recomputation only) passes the option on.
        _, report = memsched.optimize(text, budget=budget, device="cpu",
                                      allow_swap=False, ilp_max_tasks=40)
        fit = report["functions"][0]["fit"]
        if fit["planned_after_bytes"] > fit["budget_bytes"]:
            print("trial %d %s: memsched.optimize misses the budget"
                  % (trial, budget))
    elif seconds > drop_sets[1] * (1 + 1e-9):
        print("trial %d %s: recompute %g s with the ILP phase, %g s without"
              % (trial, budget, seconds, drop_sets[1]))
    elif seconds < drop_sets[1] * (1 - 1e-9):
        stats["cheaper"] += 1
    cleaned = memsched.run_pipeline(output, "canonicalize,cse")
    for label, module in [("pass", output), ("cleanup", cleaned)]:
        if planned(module) > bound:
            print("trial %d %s after %s: planned %d > budget %d"
                  % (trial, budget, label, planned(module), bound))
    if trial % 4 == 0:
        stats["executed"] += 1
        difference = memsched.execute.compare_on_cpu(text, cleaned, func)
        if difference is not None:
            print("trial %d: results differ: %s" % (trial, difference))
print("met %d only-ilp %d cheaper %d executed %d"
      % (stats["met"], stats["only_ilp"], stats["cheaper"],
         stats["executed"]))

# CHECK-NOT: trial
# CHECK: met {{[1-9][0-9]*}} only-ilp {{[1-9][0-9]*}} cheaper {{[0-9]+}} executed {{[1-9][0-9]*}}
