# RUN: %PYTHON %s | FileCheck %s
# Tests that models memsched.torch cannot export raise UnsupportedError with
# a message naming what is unsupported and where, instead of a wrong graph.

import torch

import memsched.torch as mt


def expect_error(model, inputs, target=None, **kwargs):
    try:
        mt.export_training_step(model, inputs, target, **kwargs)
    except mt.UnsupportedError as error:
        print("UnsupportedError:", str(error).replace("\n", " | "))
        return
    print("no error")


class DataDependent(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)

    def forward(self, x):
        y = self.linear(x)
        if y.sum() > 0:
            return y
        return -y


# CHECK: UnsupportedError: data-dependent control flow or values in the model
expect_error(DataDependent(), torch.randn(2, 4), loss=lambda y: y.sum())

# CHECK: UnsupportedError: unsupported dtype torch.float64 (parameter 'weight')
expect_error(torch.nn.Linear(4, 4).double(), torch.randn(2, 4).double(),
             loss=lambda y: y.sum())


class Sorting(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = torch.nn.Sequential(torch.nn.Linear(4, 4))

    def forward(self, x):
        return torch.sort(self.inner(x), 1).values


# The op and the module it comes from are named.
# CHECK: UnsupportedError: unsupported operation aten.sort.default (at 'Sorting', node sort)
expect_error(Sorting(), torch.randn(2, 4), loss=lambda y: y.sum())

# CHECK: UnsupportedError: 3-D convolution (only 2-D NCHW is supported) (at '0', node convolution)
expect_error(torch.nn.Sequential(torch.nn.Conv3d(1, 2, 3)),
             torch.randn(1, 1, 4, 4, 4), loss=lambda y: y.sum())


class PlainTensor(torch.nn.Module):
    """Graph edges held as a plain tensor attribute, not a buffer."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)
        self.linear.edges = torch.tensor([1, 0])

    def forward(self, x):
        return self.linear(x).index_select(0, self.linear.edges)


# CHECK: UnsupportedError: tracing failed: a module holds a tensor as a plain attribute ('linear.edges'): register it with register_buffer, or make it in forward
expect_error(PlainTensor(), torch.randn(2, 4), loss=lambda y: y.sum())

GLOBAL = torch.tensor([1, 0])
# CHECK: UnsupportedError: tracing failed: the step reads a tensor made outside it (a global or a closure's): make it in forward, or hold it as a buffer
expect_error(torch.nn.Linear(4, 4), torch.randn(2, 4),
             loss=lambda y: y.index_select(0, GLOBAL).sum())


class MutatesInput(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)

    def forward(self, x):
        x.mul_(2)
        return self.linear(x)


# CHECK: UnsupportedError: in-place aten.mul_.Tensor on a model input or parameter ('MutatesInput' writes 'input0')
expect_error(MutatesInput(), torch.randn(2, 4), loss=lambda y: y.sum())


# CHECK: UnsupportedError: unknown loss 'hinge' (known: cross_entropy, mse, or a callable)
expect_error(torch.nn.Linear(4, 4), torch.randn(2, 4), torch.zeros(2,
             dtype=torch.long), loss="hinge")

# CHECK: UnsupportedError: random op aten.bernoulli_.float in '1' (export with random masks as inputs instead)
expect_error(torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.5)),
             torch.randn(2, 4), loss=lambda y: y.sum(), dropout="error")

class RandomFromValues(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = torch.nn.Linear(4, 4)

    def forward(self, x):
        # The probabilities are computed: no mask can be drawn beforehand.
        return x * torch.bernoulli(torch.sigmoid(self.gate(x)))


# CHECK: UnsupportedError: random op aten.bernoulli.default in 'RandomFromValues' reads computed values
expect_error(RandomFromValues(), torch.randn(2, 4), loss=lambda y: y.sum())

# Adaptive max pooling with windows of different sizes has no lowering.
# CHECK: UnsupportedError: unsupported operation aten.adaptive_max_pool2d.default (at '1', node adaptive_max_pool2d)
expect_error(torch.nn.Sequential(torch.nn.Conv2d(2, 2, 1),
                                 torch.nn.AdaptiveMaxPool2d(2)),
             torch.randn(1, 2, 5, 5), loss=lambda y: y.sum())

# CHECK: UnsupportedError: input 0 is a list, not a tensor
expect_error(torch.nn.Linear(4, 4), [[1.0, 2.0]], loss=lambda y: y.sum())
