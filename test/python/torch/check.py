"""Shared by the memsched.torch tests (not a test itself: lit skips it via
lit.local.cfg's excludes)."""

import copy

import numpy as np
import torch

import memsched
import memsched.torch as mt
from memsched.execute import run_with_inputs
from memsched.torch_models import zoo


def check_family(name, passes=None):
    """Checks the small configuration of zoo model ``name`` (see
    ``check_model``)."""
    (model, inputs, target), = zoo("small", [name]).values()
    return check_model(name, model, inputs, target, passes=passes)


def check_model(name, model, inputs, target, loss="cross_entropy",
                passes=None, seed=0):
    """Exports the training step of ``model``, runs it on CPU through
    memsched-to-cpu-pipeline and compares loss and every gradient with
    PyTorch. Random ops (dropout, stochastic depth) take the masks that
    PyTorch's generator seeded with ``seed`` draws: the float32 reference
    draws them itself after ``torch.manual_seed(seed)`` (the documented
    convention), the float64 one replays them.

    Tolerance: both our fp32 result and PyTorch's own fp32 result are
    compared with PyTorch in float64. Summation orders differ (a loop nest
    vs. blocked kernels), so bit equality with PyTorch is not expected; ours
    must be within 4x PyTorch's own fp32 error, or 1e-5 relative to the
    result's largest magnitude, whichever is larger. Batch norm over two
    samples at 1x1 spatial size (the small ResNets' last stage) is badly
    conditioned, which is why a fixed tolerance would not do.

    ``passes``: a pipeline run on the exported module; its results must then
    be bit-identical to the unoptimised module's.
    """
    capture = mt.capture_training_step(model, inputs, target, loss)
    text = mt.lower_graph(capture)
    arguments = mt.training_step_arguments(model, inputs, target, capture,
                                           seed)
    ours = run_with_inputs(text, arguments)
    fp32 = mt.reference_training_step(model, inputs, target, loss, seed=seed)
    model64 = copy.deepcopy(model).double()
    inputs64 = inputs.double() if inputs.is_floating_point() else inputs
    target64 = target.double() if target is not None and \
        target.is_floating_point() else target
    fp64 = mt.reference_training_step(
        model64, inputs64, target64, loss,
        random_values=capture.random_arguments(seed))
    assert len(ours) == len(fp64), (len(ours), len(fp64))
    worst = 0.0
    worst_ours = worst_torch = 0.0
    for index, (a, b, exact) in enumerate(zip(ours, fp32, fp64)):
        assert a.shape == exact.shape, (index, a.shape, exact.shape)
        assert a.dtype == np.float32, (index, a.dtype)
        scale = max(1.0, float(np.abs(exact).max()))
        error = float(np.abs(a - exact).max()) / scale
        torch_error = float(np.abs(b - exact).max()) / scale
        limit = max(4 * torch_error, 1e-5)
        assert error <= limit, "%s result %d: error %.3g > %.3g" % (
            name, index, error, limit)
        worst = max(worst, error / limit)
        worst_ours = max(worst_ours, error)
        worst_torch = max(worst_torch, torch_error)
    print("%s: %d results match PyTorch (max error vs float64: ours %.2g, "
          "PyTorch fp32 %.2g)" % (name, len(ours), worst_ours, worst_torch))
    if passes:
        optimized = memsched.run_pipeline(text, passes)
        again = run_with_inputs(optimized, arguments)
        for index, (a, b) in enumerate(zip(ours, again)):
            assert a.tobytes() == b.tobytes(), "%s result %d differs after " \
                "%s" % (name, index, passes)
        print("%s: bit-identical after %s" % (name, passes))
    return text


def run_fitted(fitted, inputs, target):
    """Runs a ``memsched.torch.fit`` step and its captured order with the
    same random masks; returns (bit-identical, the step's ``measure``
    figures)."""
    loss, grads = fitted(inputs, target, seed=0)
    again, expected = fitted.run_unplanned(inputs, target, seed=0)
    identical = torch.equal(loss, again) and all(
        torch.equal(a, b) for a, b in zip(grads, expected))
    return identical, fitted.measure(inputs, target, seed=0)


def _images(batch, size, classes, seed=0):
    generator = torch.Generator().manual_seed(seed)
    return (torch.randn(batch, 3, size, size, generator=generator),
            torch.randint(0, classes, (batch,), generator=generator))


def _pixels(batch, size, classes, seed=0):
    generator = torch.Generator().manual_seed(seed)
    return (torch.randn(batch, 3, size, size, generator=generator),
            torch.randint(0, classes, (batch, size, size),
                          generator=generator))


def _sequence(batch_first, seed=0):
    generator = torch.Generator().manual_seed(seed)
    shape = (2, 5, 16) if batch_first else (5, 2, 16)
    return (torch.randn(*shape, generator=generator),
            torch.randn(*shape, generator=generator))


def logits_loss(output, target):
    """Cross entropy on a classifier's logits, a segmentation model's
    "out" or a torchvision named tuple's ``logits``."""
    if isinstance(output, dict):
        output = output["out"]
    output = getattr(output, "logits", output)
    return torch.nn.functional.cross_entropy(output, target)


class Recurrent(torch.nn.Module):
    """A two-layer GRU or LSTM with dropout between the layers."""

    def __init__(self, cell, batch_first):
        super().__init__()
        self.rnn = cell(16, 16, num_layers=2, batch_first=batch_first,
                        dropout=0.1)

    def forward(self, x):
        return self.rnn(x)[0]


class Seq2Seq(torch.nn.Module):
    """``nn.Transformer`` (encoder and decoder) with dropout on."""

    def __init__(self):
        super().__init__()
        self.transformer = torch.nn.Transformer(
            16, 2, 1, 1, 32, dropout=0.1, batch_first=True)

    def forward(self, x):
        return self.transformer(x, x)


def families():
    """``{name: builder}``; ``builder()`` gives ``(model, inputs, target,
    loss)``: one small model per family of the issue's list, named
    torchvision constructors where their capture is quick and the family's
    own classes at fewer stages or layers otherwise."""
    import torchvision
    from torchvision.models import (convnext, densenet, efficientnet, regnet,
                                    resnet, segmentation, shufflenetv2,
                                    swin_transformer, vgg)
    from memsched.torch_models import UNet
    models = torchvision.models

    def small_efficientnet(arch, stages):
        setting, last = efficientnet._efficientnet_conf(
            arch, width_mult=0.25, depth_mult=0.5)
        return efficientnet.EfficientNet(setting[:stages], 0.2, 0.2, 10,
                                         last_channel=last)

    def small_vgg():
        model = vgg.VGG(vgg.make_layers([8, "M", 16, "M", 32, "M"],
                                        batch_norm=True), num_classes=10)
        model.classifier = torch.nn.Sequential(
            torch.nn.Linear(32 * 7 * 7, 32), torch.nn.ReLU(True),
            torch.nn.Dropout(), torch.nn.Linear(32, 32), torch.nn.ReLU(True),
            torch.nn.Dropout(), torch.nn.Linear(32, 10))
        return model

    def swin(block, merge):
        return swin_transformer.SwinTransformer(
            [4, 4], 16, [1, 1], [1, 2], [2, 2], stochastic_depth_prob=0.2,
            num_classes=10, block=block, downsample_layer=merge)

    def classifier(build, size=32):
        return lambda: (build(),) + _images(2, size, 10) + (logits_loss,)

    def segmenter(build):
        return lambda: (build(),) + _pixels(2, 32, 4) + (logits_loss,)

    def sequence(build, batch_first=True):
        return lambda: (build(),) + _sequence(batch_first) + ("mse",)

    return {
        "resnet18": classifier(lambda: models.resnet18(num_classes=10)),
        "resnext": classifier(lambda: resnet.ResNet(
            resnet.Bottleneck, [1, 1, 1, 1], groups=8, width_per_group=4,
            num_classes=10)),
        "vgg11_bn": classifier(small_vgg),
        "alexnet": classifier(lambda: models.alexnet(num_classes=10), 64),
        "densenet": classifier(lambda: densenet.DenseNet(
            8, (2, 2), 16, num_classes=10)),
        "googlenet": classifier(lambda: models.googlenet(
            num_classes=10, aux_logits=False, init_weights=False)),
        "inception_v3": classifier(lambda: models.inception_v3(
            num_classes=10, aux_logits=False, init_weights=False), 75),
        "mobilenet_v3_small": classifier(
            lambda: models.mobilenet_v3_small(num_classes=10)),
        "mnasnet0_5": classifier(lambda: models.mnasnet0_5(num_classes=10)),
        # 64x64: at 32x32 the last batch norm sees 1x1 maps of two
        # samples, too badly conditioned to compare gradients.
        "shufflenet": classifier(lambda: shufflenetv2.ShuffleNetV2(
            [1, 1, 1], [8, 16, 32, 64, 64], num_classes=10), 64),
        "squeezenet1_1": classifier(
            lambda: models.squeezenet1_1(num_classes=10), 64),
        "efficientnet": classifier(
            lambda: small_efficientnet("efficientnet_b0", 4)),
        "efficientnet_v2": classifier(
            lambda: small_efficientnet("efficientnet_v2_s", 4)),
        "regnet": classifier(lambda: regnet.RegNet(
            regnet.BlockParams.from_init_params(4, 8, 8, 2, 8, se_ratio=0.25),
            num_classes=10)),
        "convnext": classifier(lambda: convnext.ConvNeXt(
            [convnext.CNBlockConfig(8, 16, 1),
             convnext.CNBlockConfig(16, None, 1)],
            stochastic_depth_prob=0.2, num_classes=10)),
        "vit": classifier(lambda: models.VisionTransformer(
            32, 8, 2, 2, 32, 64, dropout=0.1, attention_dropout=0.1,
            num_classes=10)),
        "swin": classifier(lambda: swin(
            swin_transformer.SwinTransformerBlock,
            swin_transformer.PatchMerging)),
        "swin_v2": classifier(lambda: swin(
            swin_transformer.SwinTransformerBlockV2,
            swin_transformer.PatchMergingV2)),
        "lraspp": segmenter(lambda: segmentation.lraspp_mobilenet_v3_large(
            weights=None, weights_backbone=None, num_classes=4)),
        "deeplabv3": segmenter(
            lambda: segmentation.deeplabv3_mobilenet_v3_large(
                weights=None, weights_backbone=None, num_classes=4)),
        "unet": lambda: (UNet(),) + _pixels(2, 16, 4) + ("cross_entropy",),
        "transformer": sequence(Seq2Seq),
        "transformer_encoder": sequence(lambda: torch.nn.TransformerEncoder(
            torch.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.1), 2),
            batch_first=False),
        "gru_batch_first": sequence(lambda: Recurrent(torch.nn.GRU, True)),
        "gru": sequence(lambda: Recurrent(torch.nn.GRU, False), False),
        "lstm_batch_first": sequence(
            lambda: Recurrent(torch.nn.LSTM, True)),
        "lstm": sequence(lambda: Recurrent(torch.nn.LSTM, False), False),
        "gpt": lambda: zoo("small", ["gpt"])["gpt"] + ("cross_entropy",),
    }
