# RUN: %PYTHON %s %S | FileCheck %s
# Tests that the training steps of the small ViT, GPT-style decoder (causal
# mask, layer norm, softmax, GELU, embeddings) and LSTM configurations,
# exported by memsched.torch and run on CPU, give PyTorch's loss and
# gradients, and stay bit-identical after reordering and in-place reuse.

import sys
sys.path.insert(0, sys.argv[1])
from check import check_family

REORDER = "func.func(memsched-reorder{time-limit-ms=500},memsched-inplace)"

# CHECK: vit_b_16: {{[0-9]+}} results match PyTorch
# CHECK: vit_b_16: bit-identical after
check_family("vit_b_16", REORDER)
# CHECK: gpt: {{[0-9]+}} results match PyTorch
# CHECK: gpt: bit-identical after
check_family("gpt", REORDER)
# CHECK: lstm: 8 results match PyTorch
# CHECK: lstm: bit-identical after
check_family("lstm", REORDER)
