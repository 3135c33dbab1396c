# RUN: %PYTHON %s %examples/chain_mlp_train_step.mlir | FileCheck %s
# Tests memsched.optimize: budgets met by swapping or recomputing (chosen by
# modelled time), results bit-identical on CPU, the report's fit entry, and
# an unreachable budget raising MLIRError with the smallest reachable one.

import sys

import memsched
import memsched.execute

with open(sys.argv[1]) as handle:
    text = handle.read()
configurations = [("0.9x", True, True), ("0.9x", False, True),
                  ("0.9x", True, False), ("0.7x", True, True),
                  ("0.7x", False, True)]
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
for budget, allow_swap, expected in [("1KiB", True, "below the resident"),
                                     ("0.7x", False, "swapping disabled")]:
    try:
        memsched.optimize(text, budget=budget, allow_swap=allow_swap)
    except memsched.MLIRError as error:
        print("error:", expected in str(error))

# CHECK: 0.9x True True met: True chosen: swap identical: True
# CHECK: 0.9x False True met: True chosen: swap identical: True
# CHECK: 0.9x True False met: True chosen: remat identical: True
# CHECK: 0.7x True True met: True chosen: {{swap|joint-0.25|joint-0.5|joint-0.75}} identical: True
# CHECK: 0.7x False True met: True chosen: swap identical: True
# CHECK: error: True
# CHECK: error: True
