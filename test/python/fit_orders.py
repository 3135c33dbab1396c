# RUN: %PYTHON %s | FileCheck %s
# Tests, as a property over random training-step-like programs (in their
# forward-then-backward order and shuffled) and random budgets, that
# memsched-fit with reorder=auto (what memsched-optimize runs) is never worse
# than either single way: planning the input's order as it is, and planning
# it after memsched-reorder. At `min` its footprint is the smaller of the
# two; at a budget both meet, its modelled time the smaller; it meets every
# budget either meets.

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))

import memsched
from random_graphs import training_step

WAYS = {
    "given": "func.func(memsched-fit{budget=%s})",
    "reordered": "func.func(memsched-reorder,memsched-fit{budget=%s})",
    "both": "func.func(memsched-fit{budget=%s reorder=auto})",
}


def outcome(text, pipeline):
    """(planned bytes, modelled time) after `pipeline`, None if refused."""
    try:
        output = memsched.run_pipeline(text, pipeline)
    except memsched.MLIRError:
        return None
    fit = memsched.analyze(output)["functions"][0]
    return fit["planned_bytes"], fit["modeled_time_s"]


rng = random.Random(int(os.environ.get("MEMSCHED_PROPERTY_SEED", "2")))
count = int(os.environ.get("MEMSCHED_PROPERTY_COUNT", "60"))
compared = worse = 0
for trial in range(count):
    text = training_step(rng, shuffle=(trial % 2 == 0))
    budget = rng.choice(["min", "%.3fx" % rng.uniform(0.5, 0.95)])
    got = {way: outcome(text, pipeline % budget)
           for way, pipeline in WAYS.items()}
    singles = [got[way] for way in ("given", "reordered") if got[way]]
    if not singles:
        continue
    compared += 1
    if got["both"] is None:
        worse += 1
        print("trial %d budget=%s: refused where a single way meets it"
              % (trial, budget))
        continue
    key = 0 if budget == "min" else 1
    best = min(single[key] for single in singles)
    if got["both"][key] > best * (1 + 1e-9):
        worse += 1
        print("trial %d budget=%s: %s worse than a single way: %s"
              % (trial, budget, got["both"], singles))
print("compared %d worse %d" % (compared, worse))

# CHECK-NOT: trial
# CHECK: compared {{[1-9][0-9]*}} worse 0
