# RUN: %PYTHON %s | FileCheck %s
# Tests that the budget is a promise, as a property over random
# training-step-like programs and random budgets: after every successful
# memsched-remat, memsched-swap, memsched-fit and memsched-optimize with
# budget B, memsched-report's planned_bytes <= B, also after canonicalize
# and cse; an unmet budget's error names the smallest reachable footprint,
# and that figure given back as the budget is met; budget=min meets it too;
# the same input gives the same output twice; and the results on CPU are
# bit-identical to the input's (on a sample, execution being slow).

import os
import random
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))

import memsched
import memsched.execute
from random_graphs import training_step

PIPELINES = {
    "remat": "func.func(memsched-remat{budget=%s device=cpu})",
    "swap": "func.func(memsched-swap{budget=%s device=h100})",
    "fit": "func.func(memsched-fit{budget=%s device=a100-80gb})",
    "optimize": "memsched-optimize{budget=%s device=h100}",
}
SMALLEST = re.compile(r"smallest reachable footprint is [^(]*\((\d+) B")


def planned(text):
    return memsched.analyze(text)["functions"][0]["planned_bytes"]


def run(kind, text, budget):
    return memsched.run_pipeline(text, PIPELINES[kind] % budget)


rng = random.Random(int(os.environ.get("MEMSCHED_PROPERTY_SEED", "7")))
count = int(os.environ.get("MEMSCHED_PROPERTY_COUNT", "1000"))
stats = {"met": 0, "unmet": 0, "violations": 0, "executed": 0}
for trial in range(count):
    text = training_step(rng)
    kind = rng.choice(sorted(PIPELINES))
    fraction = round(rng.uniform(0.4, 1.0), 4)
    before = planned(text)
    bound = int(fraction * before)
    try:
        output = run(kind, text, "%.4fx" % fraction)
    except memsched.MLIRError as error:
        stats["unmet"] += 1
        match = SMALLEST.search(str(error))
        if not match:
            print("trial %d %s: no smallest figure in: %s" % (trial, kind,
                                                              error))
            continue
        smallest = int(match.group(1))
        for budget in ["%dB" % smallest, "min"]:
            try:
                again = run(kind, text, budget)
            except memsched.MLIRError as error:
                print("trial %d %s: budget=%s refused: %s" % (trial, kind,
                                                              budget, error))
                continue
            if planned(again) > smallest:
                print("trial %d %s budget=%s: planned %d > %d"
                      % (trial, kind, budget, planned(again), smallest))
        continue
    stats["met"] += 1
    cleaned = memsched.run_pipeline(output, "canonicalize,cse")
    for label, module in [("pass", output), ("cleanup", cleaned)]:
        if planned(module) > bound:
            stats["violations"] += 1
            print("trial %d %s %.3fx after %s: planned %d > budget %d"
                  % (trial, kind, fraction, label, planned(module), bound))
    if trial % 10 == 0 and run(kind, text, "%.4fx" % fraction) != output:
        print("trial %d %s: a second run differs" % (trial, kind))
    if trial % 50 == 0:
        stats["executed"] += 1
        difference = memsched.execute.compare_on_cpu(text, cleaned)
        if difference is not None:
            print("trial %d %s: results differ: %s" % (trial, kind,
                                                       difference))
print("met %d unmet %d violations %d executed %d"
      % (stats["met"], stats["unmet"], stats["violations"],
         stats["executed"]))

# CHECK-NOT: trial
# CHECK: met {{[1-9][0-9]*}} unmet {{[1-9][0-9]*}} violations 0 executed {{[1-9][0-9]*}}
