# RUN: %PYTHON %s %S | FileCheck %s
# Tests that the training steps of the small ResNet-18/-50, MobileNetV2 and
# VGG configurations, exported by memsched.torch and run on CPU, give
# PyTorch's loss and gradients (tolerance explained in check.py), and that
# reordering and in-place reuse leave the results bit-identical.

import sys
sys.path.insert(0, sys.argv[1])
from check import check_family

REORDER = "func.func(memsched-reorder{time-limit-ms=500},memsched-inplace)"

# CHECK: resnet18: 39 results match PyTorch
# CHECK: resnet18: bit-identical after
check_family("resnet18", REORDER)
# CHECK: resnet50: {{[0-9]+}} results match PyTorch
check_family("resnet50")
# CHECK: mobilenet_v2: {{[0-9]+}} results match PyTorch
check_family("mobilenet_v2")
# CHECK: vgg11: 15 results match PyTorch
# CHECK: vgg11: bit-identical after
check_family("vgg11", REORDER)
