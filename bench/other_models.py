#!/usr/bin/env python3
"""The budget passes on small models outside the importer's families.

    PYTHONPATH=build/python_packages python3 bench/other_models.py
        [--families dcgan,bert_mlm,...] [--budgets 0.5x,min]
        [--offload params,grads,inputs] [--against-pytorch]

The families (test/python/torch/check.py) are torchvision's and torch.nn's
models; these are the shapes of other training code: a GAN, a dilated
causal 1-D convolution stack, sub-pixel super-resolution, a YOLO-style
detector head, an MLP-Mixer, a VAE, a BERT-style masked language model with
padding (-100 labels), a graph network with index_add messages, a
triplet-loss embedding, a GRU text classifier with label smoothing, a
causal language model with tied embeddings, a 1-D signal model and a few
functions at once. Runs bench/families_budgets.py's checks on each (the
budget after cleanup, the smallest footprint, results bit-identical on
CPU); with ``--against-pytorch`` each exported step is first compared with
PyTorch's loss and gradients.
"""

import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import families_budgets  # noqa: E402


class DCGAN(nn.Module):
    """Generator and discriminator in one step (the generator's update)."""

    def __init__(self):
        super().__init__()
        self.generator = nn.Sequential(
            nn.ConvTranspose2d(8, 16, 4, 1, 0, bias=False),
            nn.BatchNorm2d(16), nn.ReLU(True),
            nn.ConvTranspose2d(16, 8, 4, 2, 1, bias=False),
            nn.BatchNorm2d(8), nn.ReLU(True),
            nn.ConvTranspose2d(8, 3, 4, 2, 1, bias=False), nn.Tanh())
        self.discriminator = nn.Sequential(
            nn.Conv2d(3, 8, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, True),
            nn.Conv2d(8, 16, 4, 2, 1, bias=False), nn.BatchNorm2d(16),
            nn.LeakyReLU(0.2, True), nn.Conv2d(16, 1, 4, 1, 0, bias=False),
            nn.Flatten())

    def forward(self, z):
        return self.discriminator(self.generator(z))


class TemporalConvolutions(nn.Module):
    """WaveNet-style gated, dilated causal 1-D convolutions."""

    def __init__(self):
        super().__init__()
        self.input = nn.Conv1d(1, 8, 1)
        self.filters = nn.ModuleList(nn.Conv1d(8, 8, 2, dilation=d)
                                     for d in (1, 2, 4))
        self.gates = nn.ModuleList(nn.Conv1d(8, 8, 2, dilation=d)
                                   for d in (1, 2, 4))
        self.residuals = nn.ModuleList(nn.Conv1d(8, 8, 1) for _ in range(3))
        self.output = nn.Conv1d(8, 4, 1)

    def forward(self, x):
        h, skip = self.input(x), 0
        for f, g, r, d in zip(self.filters, self.gates, self.residuals,
                              (1, 2, 4)):
            padded = F.pad(h, (d, 0))
            z = torch.tanh(f(padded)) * torch.sigmoid(g(padded))
            skip = skip + z
            h = h + r(z)
        return self.output(F.relu(skip)).transpose(1, 2).reshape(-1, 4)


class YoloStyle(nn.Module):
    """Conv-BN-LeakyReLU blocks, nearest upsampling and a concatenated
    route, as in YOLOv3-tiny."""

    def __init__(self):
        super().__init__()

        def block(cin, cout, k=3):
            return nn.Sequential(nn.Conv2d(cin, cout, k, padding=k // 2,
                                           bias=False),
                                 nn.BatchNorm2d(cout), nn.LeakyReLU(0.1))
        self.a, self.b = block(3, 8), block(8, 16)
        self.c, self.d = block(16, 16, 1), block(16, 8, 1)
        self.head = block(16, 10)

    def forward(self, x):
        a = F.max_pool2d(self.a(x), 2)
        c = self.c(F.max_pool2d(self.b(a), 2))
        up = F.interpolate(self.d(c), scale_factor=2, mode="nearest")
        return self.head(torch.cat([up, a], 1))


class Mixer(nn.Module):
    def __init__(self):
        super().__init__()
        self.patches = nn.Conv2d(3, 16, 4, 4)
        self.blocks = nn.ModuleList(nn.ModuleDict(dict(
            norm1=nn.LayerNorm(16), token1=nn.Linear(16, 32),
            token2=nn.Linear(32, 16), norm2=nn.LayerNorm(16),
            channel1=nn.Linear(16, 32), channel2=nn.Linear(32, 16)))
            for _ in range(2))
        self.head = nn.Linear(16, 10)

    def forward(self, x):
        h = self.patches(x).flatten(2).transpose(1, 2)
        for b in self.blocks:
            t = b["norm1"](h).transpose(1, 2)
            h = h + b["token2"](F.gelu(b["token1"](t))).transpose(1, 2)
            h = h + b["channel2"](F.gelu(b["channel1"](b["norm2"](h))))
        return self.head(h.mean(1))


class VAE(nn.Module):
    """The reparameterisation's noise is a random input of the step."""

    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(16, 32)
        self.mean = nn.Linear(32, 4)
        self.log_variance = nn.Linear(32, 4)
        self.decoder = nn.Sequential(nn.Linear(4, 32), nn.ReLU(),
                                     nn.Linear(32, 16))

    def forward(self, x):
        h = F.relu(self.encoder(x))
        mean, log_variance = self.mean(h), self.log_variance(h)
        z = mean + torch.randn_like(mean) * torch.exp(0.5 * log_variance)
        kl = -0.5 * torch.sum(1 + log_variance - mean.pow(2) -
                              log_variance.exp())
        return torch.sigmoid(self.decoder(z)), kl


def vae_loss(output, target):
    reconstruction, kl = output
    return F.binary_cross_entropy(reconstruction, target,
                                  reduction="sum") + kl


class MaskedLanguageModel(nn.Module):
    """BERT-style: token, segment and position embeddings, a padding mask,
    two encoder layers, a vocabulary head."""

    def __init__(self):
        super().__init__()
        self.tokens = nn.Embedding(40, 16)
        self.segments = nn.Embedding(2, 16)
        self.positions = nn.Parameter(torch.zeros(1, 7, 16))
        self.norm = nn.LayerNorm(16)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(
            16, 2, 32, 0.1, activation="gelu", batch_first=True), 2)
        self.head = nn.Linear(16, 40)

    def forward(self, tokens):
        segments = torch.zeros_like(tokens)
        segments[:, 4:] = 1
        h = self.norm(self.tokens(tokens) + self.segments(segments) +
                      self.positions)
        return self.head(self.encoder(h, src_key_padding_mask=tokens == 0))


def masked_tokens_loss(output, target):
    return F.cross_entropy(output.reshape(-1, 40), target.reshape(-1))


class GraphNetwork(nn.Module):
    """Messages along edges gathered with index_select and summed with
    index_add."""

    def __init__(self):
        super().__init__()
        self.register_buffer("sources", torch.tensor([0, 1, 2, 3, 4, 5, 1,
                                                      2]))
        self.register_buffer("targets", torch.tensor([1, 2, 3, 4, 5, 0, 0,
                                                      5]))
        self.layers = nn.ModuleList(nn.Linear(8, 8) for _ in range(2))
        self.output = nn.Linear(8, 3)

    def forward(self, x):
        for layer in self.layers:
            messages = layer(x).index_select(0, self.sources)
            x = F.relu(x + torch.zeros_like(x).index_add(0, self.targets,
                                                         messages))
        return self.output(x)


def triplet_loss(output):
    anchor, positive, negative = output.chunk(3, 0)
    return F.triplet_margin_loss(anchor, positive, negative)


class TextClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(50, 16, padding_idx=0)
        self.norm = nn.LayerNorm(16)
        self.rnn = nn.GRU(16, 16, batch_first=True)
        self.head = nn.Linear(16, 5)

    def forward(self, x):
        y, _ = self.rnn(self.norm(self.embedding(x)))
        return self.head(y.mean(1))


class CausalLanguageModel(nn.Module):
    """Causal attention written out, an output head tied to the
    embedding."""

    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(30, 16)
        self.qkv = nn.Linear(16, 48)
        self.out = nn.Linear(16, 16)

    def forward(self, tokens):
        x = self.embedding(tokens)
        q, k, v = self.qkv(x).view(2, 6, 3, 2, 8).permute(2, 0, 3, 1, 4)
        scores = (q @ k.transpose(-1, -2)) / 8 ** 0.5
        scores = scores.masked_fill(torch.triu(torch.ones(
            6, 6, dtype=torch.bool), 1), float("-inf"))
        attended = (torch.softmax(scores, -1) @ v).transpose(1, 2).reshape(
            2, 6, 16)
        return (x + self.out(attended)) @ self.embedding.weight.t()


def next_token_loss(output, target):
    return F.cross_entropy(output.reshape(-1, 30), target.reshape(-1),
                           ignore_index=0)


def builders():
    generator = torch.Generator().manual_seed(0)

    def randn(*shape):
        return torch.randn(*shape, generator=generator)

    def randint(high, shape):
        return torch.randint(0, high, shape, generator=generator)

    tokens = randint(39, (2, 7)) + 1
    tokens[1, 5:] = 0
    labels = torch.full((2, 7), -100)
    labels[0, 2], labels[1, 1] = 5, 7
    sys.path.insert(0, os.path.join(HERE, "..", "test", "python", "torch"))
    from functions import Activations, Signal, Pixels, smooth_losses
    return {
        "dcgan": lambda: (DCGAN(), randn(4, 8, 1, 1), torch.ones(4, 1),
                          F.binary_cross_entropy_with_logits),
        "tcn": lambda: (TemporalConvolutions(), randn(2, 1, 16),
                        randint(4, (32,)), "cross_entropy"),
        "espcn": lambda: (nn.Sequential(
            nn.Conv2d(1, 16, 5, padding=2), nn.Tanh(),
            nn.Conv2d(16, 8, 3, padding=1), nn.Tanh(),
            nn.Conv2d(8, 9, 3, padding=1), nn.PixelShuffle(3)),
            randn(2, 1, 8, 8), randn(2, 1, 24, 24), "mse"),
        "yolo_style": lambda: (YoloStyle(), randn(2, 3, 16, 16),
                               randn(2, 10, 8, 8), "mse"),
        "mixer": lambda: (Mixer(), randn(2, 3, 16, 16), torch.tensor([3, 7]),
                          "cross_entropy"),
        "vae": lambda: (VAE(), randn(4, 16), torch.rand(
            4, 16, generator=generator), vae_loss),
        "bert_mlm": lambda: (MaskedLanguageModel(), tokens, labels,
                             masked_tokens_loss),
        "gnn": lambda: (GraphNetwork(), randn(6, 8),
                        torch.tensor([0, 1, 2, 0, 1, 2]), "cross_entropy"),
        "triplet": lambda: (nn.Sequential(nn.Linear(8, 16), nn.ReLU(),
                                          nn.Linear(16, 4)), randn(6, 8),
                            None, triplet_loss),
        "text_gru": lambda: (TextClassifier(), randint(49, (3, 7)) + 1,
                             randint(5, (3,)), lambda o, t: F.cross_entropy(
                                 o, t, label_smoothing=0.1)),
        "causal_lm": lambda: (CausalLanguageModel(), randint(30, (2, 6)),
                              randint(30, (2, 6)), next_token_loss),
        "activations": lambda: (Activations(), randn(4, 8), randn(4, 8),
                                "mse"),
        "signal_1d": lambda: (Signal(), randn(2, 2, 16),
                              torch.tensor([1, 4]), "cross_entropy"),
        "pixel_shuffle": lambda: (Pixels(), randn(2, 3, 4, 4),
                                  randn(2, 2, 2, 1), smooth_losses),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    sys.exit(families_budgets.main(builders()))
