# RUN: %PYTHON %s %S | FileCheck %s
# Tests the ops and functions outside the families' models: activations and
# elementwise functions that PyTorch decomposes only into prims, value and
# index reductions, scans, flips and repeats, the gradients of gather and
# index_select, 1-D and transposed 1-D convolutions, pixel shuffles, PReLU,
# adaptive max pooling, average pooling with a divisor per window, nearest
# resampling to any size, embedding bags of a fixed size, and losses
# (smooth L1, Huber, cross entropy with label smoothing, class weights and
# an ignored class, also -100 and per pixel). Each exported step, run on
# CPU, gives PyTorch's loss and gradients (tolerance in check.py); some
# also run under memsched-optimize and give the same bits as before.

import os
import sys
# check.py beside this file (also when bench/other_models.py imports it).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check import check_model

import torch
import torch.nn as nn
import torch.nn.functional as F

OPTIMIZE = "memsched-optimize{budget=0.5x device=h100},canonicalize,cse"
SMALLEST = "memsched-optimize{budget=min device=h100},canonicalize,cse"


class Activations(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = nn.Linear(8, 8)
        self.second = nn.Linear(8, 8)

    def forward(self, x):
        h = self.first(x)
        h = F.leaky_relu(h, 0.2) + F.softplus(h) + F.softplus(h, 2.0, 1.0) \
            + F.mish(h) + F.celu(h, 0.5) + F.threshold(h, 0.1, -1.0) \
            + F.logsigmoid(h) + F.softsign(h)
        h = self.second(h)
        return torch.log1p(h.abs()) + torch.expm1(h * 0.1) + torch.atan(h) \
            + torch.exp2(h * 0.5) + torch.sign(h) * h + torch.tan(h * 0.1) \
            + torch.asin(h.tanh() * 0.5) + torch.acos(h.tanh() * 0.5) \
            + torch.sinh(h * 0.1) + torch.cosh(h * 0.1) + torch.log2(
                h.abs() + 1) + torch.log10(h.abs() + 1) + torch.trunc(h)


class Reductions(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 8)

    def forward(self, x):
        h = self.linear(x)
        values, indices = h.max(1, keepdim=True)
        h = h - values + h.min(0).values + indices.float()
        h = h + torch.cumsum(h, 1) * 0.1 + torch.flip(h, [0, 1])
        h = h + h.gather(1, h.argmax(1, keepdim=True)) + \
            h.argmin(1).unsqueeze(1).float()
        h = h.index_select(1, torch.tensor([7, 0, 0, 3, 1, 2, 6, 5]))
        return h.repeat(2, 1)[:4] + h.repeat(1, 2)[:, 4:12]


class Signal(nn.Module):
    """1-D convolutions (grouped, dilated, 'same' padding, transposed),
    group and instance norm, adaptive max pooling."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 4, 5, padding=2)
        self.norm = nn.GroupNorm(2, 4)
        self.grouped = nn.Conv1d(4, 4, 3, dilation=2, padding="same",
                                 groups=2)
        self.instance = nn.InstanceNorm1d(4, affine=True)
        self.up = nn.ConvTranspose1d(4, 3, 4, stride=2, padding=1)
        self.head = nn.Linear(3, 5)

    def forward(self, x):
        h = F.relu(self.norm(self.conv(x)))
        h = F.gelu(self.instance(self.grouped(h)))
        h = F.adaptive_max_pool1d(self.up(h), 1).squeeze(-1)
        return self.head(h)


class Pixels(nn.Module):
    def __init__(self):
        super().__init__()
        self.expand = nn.Conv2d(3, 8, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)
        self.unshuffle = nn.PixelUnshuffle(2)
        self.prelu = nn.PReLU(8)
        self.shared = nn.PReLU()
        self.out = nn.Conv2d(8, 2, 1)

    def forward(self, x):
        h = self.shuffle(self.expand(x))
        h = self.prelu(self.unshuffle(self.shared(h)))
        return F.adaptive_max_pool2d(self.out(h), (2, 1))


class Averages(nn.Module):
    """Average pooling whose windows have different divisors: padding not
    counted, ceil_mode windows past the input, a divisor override."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):
        h = self.conv(x)
        a = F.avg_pool2d(h, 3, 2, 1, count_include_pad=False)
        b = F.avg_pool2d(h, 2, 2, 0, ceil_mode=True, count_include_pad=False)
        c = F.avg_pool2d(h, 3, 2, 1, ceil_mode=True)
        d = F.avg_pool2d(h, 3, 2, 1, divisor_override=5)
        return a.sum() + b.sum() * 2 + (c * c).sum() + (d * a).sum()


class Nearest(nn.Module):
    """Nearest resampling to sizes that are no integer multiple (a size
    given; scale factors whose inverse is not size / out), and by 2."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 2, 1)

    def forward(self, x):
        h = self.conv(x)
        a = F.interpolate(h, size=(7, 5), mode="nearest")
        b = F.interpolate(h, scale_factor=1.7, mode="nearest")
        c = F.interpolate(h, scale_factor=(3.1, 0.6), mode="nearest")
        d = F.interpolate(h, scale_factor=2, mode="nearest")
        return (a * a).sum() + b.sum() * 3 + (c * c * c).sum() + \
            (d * d).sum()


class Bags(nn.Module):
    """Embedding bags of a fixed size (a 2-D input): mean, sum with a
    padding index, max, and mean over a bag of padding alone."""

    def __init__(self):
        super().__init__()
        self.mean = nn.EmbeddingBag(10, 4, mode="mean")
        self.sum = nn.EmbeddingBag(10, 4, mode="sum", padding_idx=0)
        self.max = nn.EmbeddingBag(10, 4, mode="max")
        self.padded_mean = nn.EmbeddingBag(10, 4, mode="mean", padding_idx=3)
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        return self.head(self.mean(x) + self.sum(x) + self.max(x) +
                         self.padded_mean(x))


def smooth_losses(output, target):
    return F.smooth_l1_loss(output, target, beta=0.5) + \
        F.huber_loss(output, target, delta=0.3) + \
        F.smooth_l1_loss(output, target, reduction="sum", beta=0.0) * 0.01


def smoothed_cross_entropy(output, target):
    weight = torch.tensor([0.5, 1.0, 2.0, 1.5, 0.7], dtype=output.dtype)
    return F.cross_entropy(output, target, label_smoothing=0.1) + \
        F.cross_entropy(output, target, weight=weight, ignore_index=2,
                        label_smoothing=0.2) + \
        F.cross_entropy(output, target, ignore_index=1, reduction="sum",
                        label_smoothing=0.3)


def ignored_labels(output, target):
    """Targets of -100 (the default ignored class, PyTorch's padding
    label): out of range, they count neither in the sum nor in the mean."""
    weight = torch.tensor([0.5, 1.0, 2.0, 1.5, 0.7], dtype=output.dtype)
    return F.cross_entropy(output, target) + \
        F.cross_entropy(output, target, weight=weight, reduction="sum") + \
        (F.nll_loss(F.log_softmax(output, 1), target, reduction="none") *
         torch.arange(6, dtype=output.dtype)).sum()


class Segmenter(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


def ignored_pixels(output, target):
    return F.cross_entropy(output, target, ignore_index=255) + \
        F.cross_entropy(output, torch.where(target == 255, -100, target))


generator = torch.Generator().manual_seed(0)


def randn(*shape):
    return torch.randn(*shape, generator=generator)


if __name__ == "__main__":
    torch.manual_seed(0)
    # CHECK: activations: 5 results match PyTorch
    # CHECK: activations: bit-identical after memsched-optimize
    check_model("activations", Activations(), randn(4, 8), randn(4, 8), "mse",
                passes=OPTIMIZE)
    # CHECK: reductions: 3 results match PyTorch
    check_model("reductions", Reductions(), randn(4, 8), randn(4, 8), "mse")
    # CHECK: signal: 13 results match PyTorch
    # CHECK: signal: bit-identical after memsched-optimize
    check_model("signal", Signal(), randn(2, 2, 16),
                torch.tensor([1, 4]), "cross_entropy", passes=OPTIMIZE)
    # CHECK: pixels: 7 results match PyTorch
    check_model("pixels", Pixels(), randn(2, 3, 4, 4), randn(2, 2, 2, 1),
                smooth_losses)
    # CHECK: averages: 3 results match PyTorch
    check_model("averages", Averages(), randn(2, 3, 7, 7), None, lambda y: y)
    # CHECK: nearest: 3 results match PyTorch
    # CHECK: nearest: bit-identical after memsched-optimize
    check_model("nearest", Nearest(), randn(2, 3, 4, 4), None, lambda y: y,
                passes=SMALLEST)
    # CHECK: bags: 7 results match PyTorch
    # CHECK: bags: bit-identical after memsched-optimize
    check_model("bags", Bags(), torch.tensor([[1, 2, 0, 5], [3, 3, 3, 3],
                                              [0, 9, 9, 4]]),
                torch.tensor([0, 1, 1]), "cross_entropy", passes=SMALLEST)
    # CHECK: ignored_labels: 3 results match PyTorch
    # CHECK: ignored_labels: bit-identical after memsched-optimize
    check_model("ignored_labels", nn.Linear(6, 5), randn(6, 6),
                torch.tensor([0, -100, 2, -100, 4, 1]), ignored_labels,
                passes=SMALLEST)
    # CHECK: ignored_pixels: 3 results match PyTorch
    check_model("ignored_pixels", Segmenter(), randn(2, 3, 4, 4),
                torch.tensor([[[0, 1, 255, 3]] * 4, [[255, 2, 2, 1]] * 4]),
                ignored_pixels)
    # Targets 1 and 2 are the ignored classes of two of the losses.
    # CHECK: smoothed_cross_entropy: 3 results match PyTorch
    check_model("smoothed_cross_entropy", nn.Linear(6, 5), randn(6, 6),
                torch.tensor([0, 1, 2, 3, 4, 2]), smoothed_cross_entropy)
