# RUN: %PYTHON %s %S | FileCheck %s
# Tests memsched-remat at `min` planning again from its own result where the
# order after recomputation moved ops (the remat dictionary's `rounds`,
# docs/remat.md "The order after recomputation"): on the small ResNet-18
# step it takes more than one round, ends within the input's floor without
# swaps and below the plan without the order after recomputation, and its
# results, after cleanup, are bit-identical on CPU.

import sys
sys.path.insert(0, sys.argv[1])
from check import check_family
import memsched

MIN = "func.func(memsched-remat{budget=min})"

# CHECK: resnet18: bit-identical after func.func(memsched-remat{budget=min}),cse,canonicalize
text = check_family("resnet18", MIN + ",cse,canonicalize")


def figures(module):
    (function,) = memsched.analyze(module, timeline=False)["functions"]
    return function


planned = figures(memsched.run_pipeline(text, MIN))
unordered = figures(memsched.run_pipeline(
    text, "func.func(memsched-remat{budget=min reorder-after=false})"))
floor = figures(text)["recompute_floor_bytes"]
# CHECK-NEXT: rounds: 3
print("rounds: %d" % planned["remat"].get("rounds", 1))
# CHECK-NEXT: the floor without swaps <= planned < planned without the order after recomputation: True
print("the floor without swaps <= planned < planned without the order after "
      "recomputation: %s" % (floor <= planned["planned_bytes"] <
                              unordered["planned_bytes"]))
# CHECK-NEXT: planned within the budget recorded: True
print("planned within the budget recorded: %s" % (
    planned["planned_bytes"] <= planned["fit"]["budget_bytes"]))
