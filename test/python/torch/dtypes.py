# RUN: %PYTHON %s > %t.mlir
# RUN: FileCheck %s --input-file=%t.mlir
# Tests that bfloat16 autocast and float16 training steps import with their
# real element types: under CPU autocast the parameters stay f32 and are
# cast to bf16 where autocast casts them (convolution), the f16 model is
# f16 throughout; both modules parse and verify.

import torch

import memsched
import memsched.torch as mt


def small_net():
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.ReLU(),
        torch.nn.Flatten(), torch.nn.Linear(4 * 6 * 6, 5),
        torch.nn.LayerNorm(5), torch.nn.GELU(), torch.nn.Linear(5, 3))


x = torch.randn(2, 3, 8, 8)
y = torch.tensor([0, 2])

bf16 = mt.export_training_step(small_net(), x, y, autocast=torch.bfloat16)
memsched.run_pipeline(bf16, "")
print(bf16)
# CHECK-LABEL: // Exported by memsched.torch
# CHECK: //   %arg0  0.weight  tensor<4x3x3x3xf32>
# CHECK: //   %arg10  input0  tensor<2x3x8x8xf32>
# CHECK: func.func @train_step(%arg0: tensor<4x3x3x3xf32>
# CHECK-SAME: -> (tensor<f32>, tensor<4x3x3x3xf32>
# The convolution runs in bf16 on bf16 casts of input and weight.
# CHECK: arith.truncf %{{.*}} : f32 to bf16
# CHECK: linalg.conv_2d_nchw_fchw {{.*}} : tensor<2x3x8x8xbf16>, tensor<4x3x3x3xbf16>) outs(%{{.*}} : tensor<2x4x6x6xbf16>) -> tensor<2x4x6x6xbf16> loc("0:aten.convolution.default:convolution")
# CHECK: return

f16 = mt.export_training_step(small_net().half(), x.half(), y)
memsched.run_pipeline(f16, "")
print(f16)
# CHECK-LABEL: // Exported by memsched.torch
# CHECK: //   %arg0  0.weight  tensor<4x3x3x3xf16>
# CHECK: //   %arg10  input0  tensor<2x3x8x8xf16>
# CHECK: func.func @train_step(%arg0: tensor<4x3x3x3xf16>
# CHECK-SAME: -> (tensor<f16>, tensor<4x3x3x3xf16>
# CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<2x4x6x6xf16>
# CHECK: return
