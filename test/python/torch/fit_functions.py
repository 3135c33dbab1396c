# RUN: %PYTHON %s %S | FileCheck %s
# Tests memsched.torch.fit on steps outside the zoo (functions.py's
# models): a loss that makes a constant tensor (class weights) runs in the
# fitted step, and a budget that memsched's own footprint cannot meet but
# the ATen ops' live storage at op boundaries can (the 1-D convolutions'
# step at 0.5x: memsched counts each op's temporaries and the arena's
# packing) is met with the smallest plan rather than refused. Each fitted
# step gives the captured order's loss and gradients bit for bit, within
# the budget as measured at op boundaries.

import sys
sys.path.insert(0, sys.argv[1])

import torch
import torch.nn as nn

import memsched
import memsched.torch as mt
from check import run_fitted  # noqa: E402
from functions import Signal, smoothed_cross_entropy  # noqa: E402


def check(name, model, inputs, target, loss, budget):
    fitted = mt.fit(model, inputs, target, loss, budget=budget)
    identical, figures = run_fitted(fitted, inputs, target)
    measured = figures["fitted_boundary_bytes"]
    print("%s %s: bit-identical %s, within %s, estimate covers %s" % (
        name, budget, identical, measured <= fitted.budget_bytes,
        fitted.estimated_bytes >= measured))
    return fitted


generator = torch.Generator().manual_seed(1)
torch.manual_seed(0)
# CHECK: weights 0.9x: bit-identical True, within True, estimate covers True
check("weights", nn.Linear(6, 5), torch.randn(6, 6, generator=generator),
      torch.tensor([0, 1, 2, 3, 4, 2]), smoothed_cross_entropy, "0.9x")

signal = Signal()
inputs = torch.randn(2, 2, 16, generator=generator)
target = torch.tensor([1, 4])
text = mt.lower_graph(mt.capture_training_step(signal, inputs, target))
try:
    memsched.optimize(text, "0.5x", allow_split=False, allow_fuse=False)
except memsched.MLIRError as error:
    # CHECK: memsched alone: cannot meet the budget
    print("memsched alone: cannot meet the budget" if "cannot meet the "
          "budget" in str(error) else error)
# CHECK: signal 0.5x: bit-identical True, within True, estimate covers True
check("signal", signal, inputs, target, "cross_entropy", "0.5x")
