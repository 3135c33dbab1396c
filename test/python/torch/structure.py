# RUN: %PYTHON %s > %t.mlir
# RUN: FileCheck %s --input-file=%t.mlir
# RUN: memsched-opt %t.mlir -memsched-report -o /dev/null | FileCheck %s --check-prefix=REPORT
# Tests the shape of what memsched.torch emits: one @train_step with the
# parameters, inputs and target as arguments and (loss, grads...) as
# results; linalg named ops for convolutions, grouped convolutions and
# matmuls; op locations naming the module; the captured op order (forward
# before backward); and an inference export whose results match the model.

import numpy as np
import torch

import memsched.torch as mt
from memsched.execute import run_with_inputs


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 8, 3, padding=1)
        self.depthwise = torch.nn.Conv2d(8, 8, 3, groups=4)
        self.fc = torch.nn.Linear(8, 3)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        x = self.depthwise(x).mean((2, 3))
        return self.fc(x)


torch.manual_seed(0)
net = Net()
x = torch.randn(2, 4, 6, 6)
y = torch.tensor([0, 2])
print(mt.export_training_step(net, x, y))

# CHECK:      //   %arg0  conv.weight  tensor<8x4x3x3xf32>
# CHECK:      //   %arg6  input0  tensor<2x4x6x6xf32>
# CHECK-NEXT: //   %arg7  target  tensor<2xi64>
# CHECK-NEXT: // Results: loss, grad:conv.weight, grad:conv.bias, grad:depthwise.weight, grad:depthwise.bias, grad:fc.weight, grad:fc.bias
# CHECK: func.func @train_step(%arg0: tensor<8x4x3x3xf32>, {{.*}}, %arg7: tensor<2xi64>) -> (tensor<f32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<8x2x3x3xf32>, tensor<8xf32>, tensor<3x8xf32>, tensor<3xf32>)
# Forward in captured order: padding, convolution, then the grouped one.
# CHECK: tensor.pad %arg6 low[0, 0, 1, 1] high[0, 0, 1, 1]
# Locations: module path, ATen op, FX node of the captured graph.
# CHECK: } : tensor<2x4x6x6xf32> to tensor<2x4x8x8xf32> loc("conv:aten.convolution.default:convolution")
# CHECK: linalg.conv_2d_nchw_fchw {{.*}} loc("conv:aten.convolution.default:convolution")
# CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} loc("depthwise:aten.convolution.default:convolution_1")
# The linear layer reads its transposed weight through the matmul's maps.
# CHECK: linalg.matmul indexing_maps = [{{.*}}] ins(%{{.*}}, %arg4 : tensor<2x8xf32>, tensor<3x8xf32>) {{.*}} loc("fc:aten.mm.default:mm")
# The loss is located at "loss"; the backward at the module whose forward
# it differentiates.
# CHECK: loc("loss:aten.{{.*}}")
# CHECK: loc("backward:fc:aten.mm.default:mm_1")
# CHECK: loc("backward:depthwise:aten.convolution_backward.default:convolution_backward{{[_a-z0-9]*}}")
# CHECK: loc("backward:conv:aten.convolution_backward.default:convolution_backward{{[_a-z0-9]*}}")
# CHECK: return

# REPORT: memsched report for @train_step
# REPORT: ops

# Inference: eval mode, results equal to the model's (summation orders
# differ, so up to rounding).
model = torch.nn.Sequential(torch.nn.Linear(5, 7), torch.nn.GELU(),
                            torch.nn.LayerNorm(7), torch.nn.Linear(7, 2))
inputs = torch.randn(3, 5)
text = mt.export_inference(model, inputs)
arguments = [p.detach().numpy() for p in model.parameters()] + [
    inputs.numpy()]
ours = run_with_inputs(text, arguments, func="forward")
expected = model(inputs).detach().numpy()
assert np.abs(ours[0] - expected).max() < 1e-5, ours
print("// inference matches: %s" % (ours[0].shape,))
# CHECK: // inference matches: (3, 2)
