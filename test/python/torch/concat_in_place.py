# RUN: %PYTHON %s | FileCheck %s
# Tests memsched-concat-in-place on an imported network with concatenations
# (two SqueezeNet fire modules: two expansions concatenated along the
# channels, as torch.cat), after memsched-inplace (which makes each piece's
# bias and ReLU write into its convolution's buffer). The pieces are
# computed in place, the planned bytes fall (in the captured order, and
# reordered before and after), and the rewritten module, alone and
# reordered, gives bit-identical results on CPU.

import torch
from torch import nn

import memsched
import memsched.torch
from memsched.execute import compare_on_cpu


class Fire(nn.Module):
    """SqueezeNet's module: a 1x1 squeeze, then 1x1 and 3x3 expansions
    concatenated."""

    def __init__(self, channels, squeeze, expand):
        super().__init__()
        self.squeeze = nn.Conv2d(channels, squeeze, 1)
        self.one = nn.Conv2d(squeeze, expand, 1)
        self.three = nn.Conv2d(squeeze, expand, 3, padding=1)

    def forward(self, x):
        x = torch.relu(self.squeeze(x))
        return torch.cat([torch.relu(self.one(x)),
                          torch.relu(self.three(x))], 1)


model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), Fire(16, 4, 16),
                      Fire(32, 4, 32), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(64, 10)).eval()
torch.manual_seed(0)
text = memsched.torch.export_inference(model, (torch.randn(1, 3, 16, 16),))


def figures(module):
    function, = memsched.analyze(module, timeline=False)["functions"]
    return function["planned_bytes"], function["peak_bytes"]


inplace = memsched.run_pipeline(text, "func.func(memsched-inplace)")
rewritten = memsched.run_pipeline(
    inplace, "func.func(memsched-concat-in-place)")
assert "memsched.concat" in rewritten
assert figures(rewritten) < figures(inplace), (figures(inplace),
                                               figures(rewritten))
mismatch = compare_on_cpu(text, rewritten, func="forward")
assert mismatch is None, mismatch
print("concat-in-place: bit-identical, planned %d -> %d bytes" % (
    figures(inplace)[0], figures(rewritten)[0]))

reorder = "memsched-reorder{time-limit-ms=0}"
reordered = memsched.run_pipeline(inplace, "func.func(%s)" % reorder)
both = memsched.run_pipeline(
    inplace, "func.func(%s,memsched-concat-in-place,%s)" % (reorder, reorder))
assert figures(both) < figures(reordered), (figures(reordered),
                                             figures(both))
mismatch = compare_on_cpu(text, both, func="forward")
assert mismatch is None, mismatch
print("reorder, concat-in-place, reorder: bit-identical, planned %d -> %d "
      "bytes" % (figures(reordered)[0], figures(both)[0]))

# CHECK: concat-in-place: bit-identical
# CHECK: reorder, concat-in-place, reorder: bit-identical
