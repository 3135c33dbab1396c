# RUN: %PYTHON %s | FileCheck %s
# Tests memsched.torch.fit on zoo families (small configurations) at
# several budgets, with and without parameters and gradients in host
# memory: the fitted step's loss and gradients are bit-identical to the
# captured order run the same way, the live storage measured at op
# boundaries is within the budget (at "min": within 10% of memsched's
# planned bytes: ATen ops write no result over a dead input, where
# memsched's plan may, e.g. into a copy swapped back in; lstm holds 5.7%
# more), and fit's estimate from shapes is never below it.

import os
import sys

import memsched.torch as mt
from memsched.torch_models import zoo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import run_fitted  # noqa: E402

CASES = [("resnet18", "min", ()), ("resnet18", "0.5x", ("params", "grads")),
         ("gpt", "0.9x", ()), ("gpt", "0.3x", ("params", "grads")),
         ("lstm", "min", ()), ("lstm", "0.6x", ("params", "grads"))]

for name, budget, offload in CASES:
    (model, inputs, target), = zoo("small", [name]).values()
    fitted = mt.fit(model, inputs, target, budget=budget, offload=offload)
    identical, figures = run_fitted(fitted, inputs, target)
    measured = figures["fitted_boundary_bytes"]
    bound = fitted.budget_bytes or 1.10 * figures["planned_bytes"]
    print("%s %s %s: bit-identical %s, within %s, estimate covers %s, "
          "below unplanned %s" % (
              name, budget, "+".join(offload) or "resident", identical,
              measured <= bound, fitted.estimated_bytes >= measured,
              measured < figures["unplanned_boundary_bytes"]))
# CHECK: resnet18 min resident: bit-identical True, within True, estimate covers True, below unplanned True
# CHECK: resnet18 0.5x params+grads: bit-identical True, within True, estimate covers True, below unplanned True
# CHECK: gpt 0.9x resident: bit-identical True, within True, estimate covers True, below unplanned True
# CHECK: gpt 0.3x params+grads: bit-identical True, within True, estimate covers True, below unplanned True
# CHECK: lstm min resident: bit-identical True, within True, estimate covers True, below unplanned True
# CHECK: lstm 0.6x params+grads: bit-identical True, within True, estimate covers True, below unplanned True
