# RUN: %PYTHON %s %S | FileCheck %s
# Tests that one small model per family (the ones cnn.py and sequence.py do
# not run already), exported by memsched.torch and run on CPU, gives
# PyTorch's loss and gradients (tolerance explained in check.py), with
# dropout and stochastic depth on: their masks are arguments drawn with
# the documented generator, and PyTorch draws the same after
# torch.manual_seed.

import sys
sys.path.insert(0, sys.argv[1])
from check import _images, check_model, families

import torch
import torch.nn.functional as F


class Pooling(torch.nn.Module):
    """The pooling and resampling ops the families use, on one small
    input: padded average pooling counted with its padding (Inception),
    ceil-mode max pooling (GoogLeNet), nearest upsampling, padding, and
    adaptive pooling to a size that does not divide the input."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3)
        self.head = torch.nn.Linear(4 * 3 * 3, 10)

    def forward(self, x):
        x = self.conv(x)
        x = F.avg_pool2d(x, 3, stride=1, padding=1)
        x = F.max_pool2d(x, 3, stride=2, ceil_mode=True)
        x = F.interpolate(x, scale_factor=2, mode="nearest")
        x = F.pad(x, (1, 0, 2, 1))
        x = F.adaptive_avg_pool2d(x, 3)
        return self.head(x.flatten(1))


class WriteThroughAlias(torch.nn.Module):
    """In-place ops on a tensor with live views: PyTorch's views see the
    writes, and so does the functionalized graph."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)

    def forward(self, x):
        y = self.linear(x)
        view = y.view(4, 2)
        y.add_(1.0)
        view[1:3].mul_(3)
        return view.sum(0) + y.sum(1)[:2]


torch.manual_seed(0)
# CHECK: write_through_alias: 3 results match PyTorch
check_model("write_through_alias", WriteThroughAlias(), torch.randn(2, 4),
            torch.randn(2), "mse")
# CHECK: pooling: 5 results match PyTorch
check_model("pooling", Pooling(), *_images(2, 13, 10))

builders = families()
for name in ["densenet", "shufflenet", "squeezenet1_1", "efficientnet",
             "regnet", "convnext", "swin", "swin_v2", "lraspp", "unet",
             "transformer", "gru_batch_first", "lstm"]:
    check_model(name, *builders[name]())

# CHECK: densenet: {{[0-9]+}} results match PyTorch
# CHECK: shufflenet: {{[0-9]+}} results match PyTorch
# CHECK: squeezenet1_1: {{[0-9]+}} results match PyTorch
# CHECK: efficientnet: {{[0-9]+}} results match PyTorch
# CHECK: regnet: {{[0-9]+}} results match PyTorch
# CHECK: convnext: {{[0-9]+}} results match PyTorch
# CHECK: swin: {{[0-9]+}} results match PyTorch
# CHECK: swin_v2: {{[0-9]+}} results match PyTorch
# CHECK: lraspp: {{[0-9]+}} results match PyTorch
# CHECK: unet: 47 results match PyTorch
# CHECK: transformer: 35 results match PyTorch
# CHECK: gru_batch_first: 9 results match PyTorch
# CHECK: lstm: 9 results match PyTorch
