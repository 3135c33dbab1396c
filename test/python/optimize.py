# RUN: %PYTHON %s %examples/chain_mlp_train_step.mlir | FileCheck %s
# Tests memsched.optimize: budgets met by swapping or recomputing (chosen by
# modelled time), results bit-identical on CPU, the report's fit entry, and
# an unreachable budget raising MLIRError with the smallest reachable
# footprint, which is met when given back. Budgets are fractions of the
# planned bytes (162132 B); swapping alone does not reach 0.7x.

import re
import sys

import memsched
import memsched.execute

with open(sys.argv[1]) as handle:
    text = handle.read()
configurations = [("0.9x", True, True), ("0.9x", False, True),
                  ("0.9x", True, False), ("0.7x", True, True),
                  ("0.8x", False, True)]
for budget, allow_remat, allow_swap in configurations:
        module, result = memsched.optimize(text, budget=budget,
                                           allow_remat=allow_remat,
                                           allow_swap=allow_swap)
        function = result["functions"][0]
        fit = function["fit"]
        print(budget, allow_remat, allow_swap,
              "met:", fit["planned_after_bytes"] <= fit["budget_bytes"],
              "chosen:", fit["chosen"],
              "identical:",
              memsched.execute.compare_on_cpu(text, module) is None)
for budget, allow_swap, expected in [("1KiB", True, ("joint", "swap")),
                                     ("0.6x", False, ("remat",))]:
    try:
        memsched.optimize(text, budget=budget, allow_swap=allow_swap)
        print("no error")
    except memsched.MLIRError as error:
        floor = re.search(r"the smallest reachable footprint is [^(]*"
                          r"\((\d+) B, ([a-z0-9.-]+)\)", str(error))
        print("error:", floor is not None and
              floor.group(2).startswith(expected))
        module, result = memsched.optimize(text, budget=floor.group(1) + "B",
                                           allow_swap=allow_swap)
        fit = result["functions"][0]["fit"]
        print("given back met:",
              fit["planned_after_bytes"] <= int(floor.group(1)))

# CHECK: 0.9x True True met: True chosen: {{swap|remat}} identical: True
# CHECK: 0.9x False True met: True chosen: swap identical: True
# CHECK: 0.9x True False met: True chosen: remat identical: True
# CHECK: 0.7x True True met: True chosen: {{swap|joint-0.25|joint-0.5|joint-0.75}} identical: True
# CHECK: 0.8x False True met: True chosen: swap identical: True
# CHECK: error: True
# CHECK: given back met: True
# CHECK: error: True
# CHECK: given back met: True
