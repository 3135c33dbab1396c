# RUN: rm -rf %t && mkdir -p %t
# RUN: %PYTHON %s %examples/cnn_train_step.mlir %t | FileCheck %s
# Tests memsched.sweep, the memory-vs-time curve: every met point is within
# its budget; each point is what memsched.optimize gives at that budget
# (planned bytes, time and the plan chosen); an unmet budget gives the
# smallest reachable footprint, which `min` meets; bad budgets raise
# ValueError before any planning; memsched.plot.budget_sweep draws it.

import os
import sys

import memsched
import memsched.plot

with open(sys.argv[1]) as handle:
    text = handle.read()
scratch = sys.argv[2]
budgets = ["1 GiB", "0.95x", "0.9x", "0.5x", "min", 20000]
curve = memsched.sweep(text, budgets, device="h100")
entry = curve["functions"][0]
# CHECK: function train_step points 6
print("function", entry["name"], "points", len(entry["points"]))
smallest = [p["planned_bytes"] for p in entry["points"] if not p["met"]]
minimum = entry["points"][budgets.index("min")]
# CHECK-NEXT: min met True equals smallest True
print("min met", minimum["met"], "equals smallest",
      all(s == minimum["planned_bytes"] for s in smallest))
problems = 0
for budget, point in zip(budgets, entry["points"]):
    if not point["met"]:
        if point["planned_bytes"] <= point["budget_bytes"]:
            problems += 1
            print("unmet but smallest within budget:", budget, point)
        continue
    if point["planned_bytes"] > point["budget_bytes"]:
        problems += 1
        print("over budget:", budget, point)
    if budget == "min":
        continue
    try:
        _, report = memsched.optimize(text, budget=budget, device="h100",
                                      timeline=False)
    except memsched.MLIRError as error:
        problems += 1
        print("optimize refused a met budget:", budget, error)
        continue
    function = report["functions"][0]
    fit = function.get("fit", {})
    expected = (fit.get("planned_after_bytes"), fit.get("chosen"))
    if (point["planned_bytes"], point["chosen"]) != expected:
        problems += 1
        print("sweep and optimize differ at", budget, point, expected)
# CHECK-NEXT: problems 0
print("problems", problems)

for bad in [0.8, "0.8", "12 parsecs"]:
    try:
        memsched.sweep(text, [bad])
        print("accepted", bad)
    except ValueError as error:
        # CHECK-NEXT: ValueError 0.8x
        # CHECK-NEXT: ValueError 0.8x
        # CHECK-NEXT: ValueError unknown
        message = str(error)
        print("ValueError", "0.8x" if "0.8x" in message else
              "unknown" if "unknown" in message.lower() else message)

path = memsched.plot.budget_sweep(curve, os.path.join(scratch, "curve.png"))
with open(path, "rb") as handle:
    # CHECK-NEXT: png True
    print("png", handle.read(8) == b"\x89PNG\r\n\x1a\n")
