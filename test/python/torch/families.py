# RUN: %PYTHON %s %S | FileCheck %s
# Tests that the training step of one small model of every family imports:
# captured (dropout and stochastic depth as mask arguments), lowered, and
# the module parses and verifies. Set MEMSCHED_TORCH_EVERY_CONSTRUCTOR=1 to
# also import every classification and segmentation constructor of the
# installed torchvision (minutes; not run by default).

import os
import sys
import time

sys.path.insert(0, sys.argv[1])
from check import families, logits_loss

import torch
import torchvision

import memsched
import memsched.torch as mt


def check_import(name, model, inputs, target, loss):
    start = time.time()
    capture = mt.capture_training_step(model, inputs, target, loss)
    text = mt.lower_graph(capture)
    memsched.run_pipeline(text, "")
    ops = text.count(" loc(")
    print("%s: imported, %d masks (%d ops, %.1f s)" % (
        name, len(capture.random_inputs), ops, time.time() - start))
    sys.stdout.flush()


for name, build in families().items():
    check_import(name, *build())

# CHECK: resnet18: imported, 0 masks
# CHECK: resnext: imported, 0 masks
# CHECK: vgg11_bn: imported, 2 masks
# CHECK: alexnet: imported, 2 masks
# CHECK: densenet: imported, 0 masks
# CHECK: googlenet: imported, 1 masks
# CHECK: inception_v3: imported, 1 masks
# CHECK: mobilenet_v3_small: imported, 1 masks
# CHECK: mnasnet0_5: imported, 1 masks
# CHECK: shufflenet: imported, 0 masks
# CHECK: squeezenet1_1: imported, 1 masks
# Stochastic depth in every block but the first, and the classifier's
# dropout.
# CHECK: efficientnet: imported, {{[1-9][0-9]*}} masks
# CHECK: efficientnet_v2: imported, {{[1-9][0-9]*}} masks
# CHECK: regnet: imported, 0 masks
# CHECK: convnext: imported, 1 masks
# CHECK: vit: imported, {{[1-9][0-9]*}} masks
# CHECK: swin: imported, {{[1-9][0-9]*}} masks
# CHECK: swin_v2: imported, {{[1-9][0-9]*}} masks
# CHECK: lraspp: imported, 0 masks
# CHECK: deeplabv3: imported, 1 masks
# CHECK: unet: imported, 0 masks
# CHECK: transformer: imported, {{[1-9][0-9]*}} masks
# CHECK: transformer_encoder: imported, {{[1-9][0-9]*}} masks
# CHECK: gru_batch_first: imported, 1 masks
# CHECK: gru: imported, 1 masks
# CHECK: lstm_batch_first: imported, 1 masks
# CHECK: lstm: imported, 1 masks
# CHECK: gpt: imported, 0 masks

if os.environ.get("MEMSCHED_TORCH_EVERY_CONSTRUCTOR"):
    models = torchvision.models
    for name in models.list_models(module=models):
        options = {"num_classes": 10}
        size = 64 if name == "alexnet" or \
            name.startswith(("vgg", "squeezenet")) else 32
        if name in ("googlenet", "inception_v3"):
            options.update(aux_logits=False, init_weights=False)
            size = 75 if name == "inception_v3" else size
        if name.startswith("vit_"):
            size = 28 if name.endswith("_14") else 32
            options["image_size"] = size
        if name == "maxvit_t":
            # Every stage's size must divide by the 7x7 partitions.
            size = 224
            options["input_size"] = (size, size)
        generator = torch.Generator().manual_seed(0)
        check_import(name, models.get_model(name, weights=None, **options),
                     torch.randn(2, 3, size, size, generator=generator),
                     torch.randint(0, 10, (2,), generator=generator),
                     logits_loss)
    for name in models.list_models(module=models.segmentation):
        generator = torch.Generator().manual_seed(0)
        check_import(name, models.get_model(
            name, weights=None, weights_backbone=None, num_classes=4),
            torch.randn(2, 3, 32, 32, generator=generator),
            torch.randint(0, 4, (2, 32, 32), generator=generator),
            logits_loss)
