# RUN: %PYTHON %s | FileCheck %s
# Tests the random-mask convention: every random op of a training step
# (dropout, attention dropout, stochastic depth) becomes a trailing
# "random<i>" argument, located at its module, and random_arguments(seed)
# gives exactly the masks eager PyTorch draws after torch.manual_seed(seed).

import numpy as np
import torch
import torchvision
from torch.utils._python_dispatch import TorchDispatchMode

import memsched.torch as mt


class Recorder(TorchDispatchMode):
    """Records the results of eager PyTorch's random ops, in order."""

    def __init__(self):
        super().__init__()
        self.values = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        result = func(*args, **(kwargs or {}))
        if torch.Tag.nondeterministic_seeded in func.tags:
            self.values.append(result.detach().clone().numpy())
        return result


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.25,
                                                        batch_first=True)
        self.depth = torchvision.ops.StochasticDepth(0.5, "row")
        self.head = torch.nn.Sequential(torch.nn.Dropout(0.5),
                                        torch.nn.Linear(8, 3))

    def forward(self, x):
        x = x + self.depth(self.encoder(x))
        return self.head(x.mean(1))


torch.manual_seed(0)
model = Net()
x = torch.randn(4, 5, 8)
y = torch.tensor([0, 1, 2, 0])
capture = mt.capture_training_step(model, x, y)
for name, random in zip(capture.arg_names[-len(capture.random_inputs):],
                        capture.random_inputs):
    print("%s %s %s at %s" % (name, random.op, list(random.shape),
                              random.location))
# The attention weights (per batch and head), the attention's residual
# branch, the feed-forward block and its residual branch, stochastic depth
# (one draw per row), the head.
# CHECK: random0 aten.bernoulli_.float [8, 5, 5] at encoder.self_attn
# CHECK: random1 aten.bernoulli_.float [4, 5, 8] at encoder.dropout1
# CHECK: random2 aten.bernoulli_.float [4, 5, 16] at encoder.dropout
# CHECK: random3 aten.bernoulli_.float [4, 5, 8] at encoder.dropout2
# CHECK: random4 aten.bernoulli_.float [4, 1, 1] at depth
# CHECK: random5 aten.bernoulli_.float [4, 8] at head.0

for seed in (0, 7):
    drawn = capture.random_arguments(seed)
    recorder = Recorder()
    with recorder:
        mt.reference_training_step(model, x, y, seed=seed)
    assert len(drawn) == len(recorder.values), (len(drawn),
                                                len(recorder.values))
    for ours, eager in zip(drawn, recorder.values):
        assert ours.dtype == eager.dtype and ours.tobytes() == \
            eager.tobytes(), seed
    print("seed %d: %d masks equal eager PyTorch's" % (seed, len(drawn)))
# CHECK: seed 0: 6 masks equal eager PyTorch's
# CHECK: seed 7: 6 masks equal eager PyTorch's

# Different seeds draw different masks; drawing leaves the global RNG alone.
state = torch.random.get_rng_state()
first, second = capture.random_arguments(0), capture.random_arguments(7)
assert torch.equal(state, torch.random.get_rng_state())
assert any(not np.array_equal(a, b) for a, b in zip(first, second))
print("seeds differ")
# CHECK: seeds differ
