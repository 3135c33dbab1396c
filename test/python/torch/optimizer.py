# RUN: %PYTHON %s | FileCheck %s
# Tests optimizer= of memsched.torch.export_training_step: a step with SGD
# (momentum) or Adam inside returns the loss, the updated parameters and
# the updated optimizer state, matching one step of torch.optim from a
# fresh optimizer (first step: zero state) on CPU, and the same step with
# parameters, optimizer state and their updates offloaded (memsched-optimize
# offload=params,grads,optimizer) is bit-identical to it; the exported
# function says which arguments are parameters and which state. The tolerance is that of
# the gradient checks (check.py): float32 with another evaluation order,
# relative to each tensor's largest magnitude; measured about 4e-8.

import copy

import numpy as np
import torch

import memsched
import memsched.torch as mt
from memsched.execute import run_with_inputs

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.LayerNorm(32),
                            torch.nn.GELU(), torch.nn.Linear(32, 5))
x = torch.randn(8, 16)
target = torch.randint(0, 5, (8,))

for name, options, make in [
        ("sgd", {"lr": 0.1, "momentum": 0.9},
         lambda p, o: torch.optim.SGD(p, **o)),
        ("adam", {"lr": 0.01}, lambda p, o: torch.optim.Adam(p, **o))]:
    text = mt.export_training_step(model, (x,), target,
                                   optimizer=(name, options))
    print(text[text.index("memsched.training_step"):].split("}")[0] + "}")
    arguments = mt.training_step_arguments(model, (x,), target,
                                           optimizer=(name, options))
    ours = run_with_inputs(text, arguments)
    reference = copy.deepcopy(model)
    optimizer = make(reference.parameters(), options)
    loss = torch.nn.functional.cross_entropy(reference(x), target)
    loss.backward()
    optimizer.step()
    slots = mt.OPTIMIZERS[name][0]
    expected = [loss.detach().numpy()] + \
        [p.detach().numpy() for p in reference.parameters()] + \
        [optimizer.state[p][slot].numpy() for slot in slots
         for p in reference.parameters()]
    error = max(float(np.max(np.abs(a - b))) / max(1.0, float(np.max(
        np.abs(b)))) for a, b in zip(ours, expected))
    offloaded, _ = memsched.optimize(text, offload=("params", "grads",
                                                   "optimizer"),
                                     timeline=False)
    same = all(np.array_equal(a, b) for a, b in zip(
        ours, run_with_inputs(offloaded, arguments)))
    print("%s: %d results, match torch.optim: %s, offloaded identical: %s"
          % (name, len(ours), error < 1e-5, same))

# CHECK: memsched.training_step = {parameters = 6 : i64, optimizer_state = 6 : i64}
# CHECK: sgd: 13 results, match torch.optim: True, offloaded identical: True
# CHECK: memsched.training_step = {parameters = 6 : i64, optimizer_state = 12 : i64}
# CHECK: adam: 19 results, match torch.optim: True, offloaded identical: True

try:
    mt.export_training_step(model, (x,), target, optimizer="rmsprop")
except mt.UnsupportedError as error:
    # CHECK: unknown optimizer 'rmsprop' (known: adam, sgd)
    print(error)
try:
    mt.export_training_step(model, (x,), target,
                            optimizer=("adam", {"momentum": 0.9}))
except mt.UnsupportedError as error:
    # CHECK: optimizer adam takes betas, eps, lr, step, not momentum
    print(error)
