"""The model families of memsched's zoo, at benchmark and test sizes.

``zoo(size)`` returns ``{name: (model, inputs, target)}`` for the torchvision
classifiers resnet18, resnet50, mobilenet_v2, vgg11 and vit_b_16, a
GPT-style decoder LM and an LSTM LM. ``size="bench"`` gives the benchmark
configurations (CNNs at batch 32, 224x224; the LM at batch 8 x seq 1024, 12
layers, d=768; the LSTM over 512 steps); ``size="small"`` keeps each
family's structure with few channels, small images and short sequences, so
that a training step runs on CPU in seconds (used by the tests);
``size="anchor"`` gives the configurations of the independent PyTorch
measurements memsched is compared with (batch 8, CNNs at 224x224,
``gpt_small``: 6 layers, d=512, 8 heads, seq 512, vocab 8000; ``lstm_lm``:
a 2-layer LSTM 512 over 256 steps, vocab 8000).
"""

import torch
import torchvision


class GPTDecoder(torch.nn.Module):
    """A GPT-style decoder LM: token + position embeddings, pre-norm
    ``TransformerEncoderLayer`` blocks with a causal mask and GELU, a final
    layer norm and an untied output projection. Dropout is 0."""

    def __init__(self, vocab, d_model, heads, layers, seq_len):
        super().__init__()
        self.tokens = torch.nn.Embedding(vocab, d_model)
        self.positions = torch.nn.Embedding(seq_len, d_model)
        self.blocks = torch.nn.ModuleList([
            torch.nn.TransformerEncoderLayer(
                d_model, heads, 4 * d_model, dropout=0.0, activation="gelu",
                batch_first=True, norm_first=True) for _ in range(layers)])
        self.norm = torch.nn.LayerNorm(d_model)
        self.head = torch.nn.Linear(d_model, vocab, bias=False)

    def forward(self, tokens):
        length = tokens.shape[1]
        # On the tokens' device, so that the model also runs on a GPU.
        device = tokens.device
        positions = torch.arange(length, device=device)
        x = self.tokens(tokens) + self.positions(positions)
        mask = torch.triu(torch.full((length, length), float("-inf"),
                                     device=device), diagonal=1)
        for block in self.blocks:
            x = block(x, src_mask=mask)
        # (batch * seq, vocab): the target holds the next token per position.
        return self.head(self.norm(x)).flatten(0, 1)


class LSTMLanguageModel(torch.nn.Module):
    """Embedding, ``nn.LSTM`` (unrolled over the sequence when captured) and
    a projection to the vocabulary at every step."""

    def __init__(self, vocab, d_model, hidden, layers=1):
        super().__init__()
        self.embedding = torch.nn.Embedding(vocab, d_model)
        self.lstm = torch.nn.LSTM(d_model, hidden, num_layers=layers,
                                  batch_first=True)
        self.head = torch.nn.Linear(hidden, vocab)

    def forward(self, tokens):
        output, _ = self.lstm(self.embedding(tokens))
        return self.head(output).flatten(0, 1)


class UNet(torch.nn.Module):
    """A UNet for per-pixel classification: two encoder stages with max
    pooling, a bottleneck, and decoder stages that upsample with a
    ``ConvTranspose2d`` (the deeper one) and an ``nn.Upsample`` (bilinear)
    before concatenating the skip connection."""

    def __init__(self, channels=3, classes=4, width=8):
        super().__init__()

        def block(inputs, outputs):
            return torch.nn.Sequential(
                torch.nn.Conv2d(inputs, outputs, 3, padding=1),
                torch.nn.BatchNorm2d(outputs), torch.nn.ReLU(inplace=True),
                torch.nn.Conv2d(outputs, outputs, 3, padding=1),
                torch.nn.BatchNorm2d(outputs), torch.nn.ReLU(inplace=True))
        self.down1 = block(channels, width)
        self.down2 = block(width, 2 * width)
        self.pool = torch.nn.MaxPool2d(2)
        self.bottom = block(2 * width, 4 * width)
        self.up2 = torch.nn.ConvTranspose2d(4 * width, 2 * width, 2,
                                            stride=2)
        self.dec2 = block(4 * width, 2 * width)
        self.up1 = torch.nn.Sequential(
            torch.nn.Upsample(scale_factor=2, mode="bilinear",
                              align_corners=False),
            torch.nn.Conv2d(2 * width, width, 1))
        self.dec1 = block(2 * width, width)
        self.head = torch.nn.Conv2d(width, classes, 1)

    def forward(self, x):
        skip1 = self.down1(x)
        skip2 = self.down2(self.pool(skip1))
        x = self.bottom(self.pool(skip2))
        x = self.dec2(torch.cat([self.up2(x), skip2], 1))
        x = self.dec1(torch.cat([self.up1(x), skip1], 1))
        return self.head(x)


def _images(batch, size, classes, generator):
    return (torch.randn(batch, 3, size, size, generator=generator),
            torch.randint(0, classes, (batch,), generator=generator))


def _tokens(batch, length, vocab, generator):
    return (torch.randint(0, vocab, (batch, length), generator=generator),
            torch.randint(0, vocab, (batch * length,), generator=generator))


def _small_vgg():
    from torchvision.models.vgg import VGG, make_layers
    model = VGG(make_layers([8, "M", 16, "M", 32, 32, "M"]), num_classes=10)
    model.avgpool = torch.nn.AdaptiveAvgPool2d((2, 2))
    model.classifier = torch.nn.Sequential(
        torch.nn.Linear(32 * 2 * 2, 64), torch.nn.ReLU(True),
        torch.nn.Dropout(), torch.nn.Linear(64, 64), torch.nn.ReLU(True),
        torch.nn.Dropout(), torch.nn.Linear(64, 10))
    return model


def zoo(size="bench", names=None, seed=0):
    """``{name: (model, inputs, target)}``; ``names`` selects a subset."""
    from torchvision.models.resnet import BasicBlock, Bottleneck, ResNet
    models = torchvision.models
    if size == "anchor":
        return _anchor_zoo(names, seed)
    bench = size == "bench"
    if size not in ("bench", "small"):
        raise ValueError("size must be 'bench', 'small' or 'anchor'")
    builders = {
        "resnet18": lambda: models.resnet18() if bench else
        ResNet(BasicBlock, [1, 1, 1, 1], num_classes=10),
        "resnet50": lambda: models.resnet50() if bench else
        ResNet(Bottleneck, [1, 1, 1, 1], num_classes=10, width_per_group=16),
        "mobilenet_v2": lambda: models.mobilenet_v2() if bench else
        models.mobilenet_v2(num_classes=10, width_mult=0.25),
        "vgg11": lambda: models.vgg11() if bench else _small_vgg(),
        "vit_b_16": lambda: models.vit_b_16() if bench else
        models.VisionTransformer(image_size=32, patch_size=8, num_layers=2,
                                 num_heads=2, hidden_dim=32, mlp_dim=64,
                                 num_classes=10),
        "gpt": lambda: GPTDecoder(50257, 768, 12, 12, 1024) if bench else
        GPTDecoder(64, 32, 2, 2, 16),
        "lstm": lambda: LSTMLanguageModel(10000, 512, 1024) if bench else
        LSTMLanguageModel(32, 16, 32),
    }
    data = {
        "resnet18": lambda g: _images(32, 224, 1000, g) if bench else
        _images(2, 32, 10, g),
        "resnet50": lambda g: _images(32, 224, 1000, g) if bench else
        _images(2, 32, 10, g),
        "mobilenet_v2": lambda g: _images(32, 224, 1000, g) if bench else
        _images(2, 32, 10, g),
        "vgg11": lambda g: _images(32, 224, 1000, g) if bench else
        _images(2, 16, 10, g),
        "vit_b_16": lambda g: _images(32, 224, 1000, g) if bench else
        _images(2, 32, 10, g),
        "gpt": lambda g: _tokens(8, 1024, 50257, g) if bench else
        _tokens(2, 16, 64, g),
        "lstm": lambda g: _tokens(32, 512, 10000, g) if bench else
        _tokens(2, 8, 32, g),
    }
    return _build(builders, data, names, seed, "zoo")


def _build(builders, data, names, seed, kind):
    """Builds the named models (all by default) and their data, each from
    ``seed``."""
    result = {}
    for name in names or builders:
        if name not in builders:
            raise ValueError("unknown %s model %r (known: %s)" %
                             (kind, name, ", ".join(builders)))
        torch.manual_seed(seed)
        generator = torch.Generator().manual_seed(seed)
        model = builders[name]()
        result[name] = (model,) + tuple(data[name](generator))
    return result


def _anchor_zoo(names, seed):
    models = torchvision.models
    builders = {
        "resnet18": models.resnet18, "resnet50": models.resnet50,
        "mobilenet_v2": models.mobilenet_v2, "vgg11": models.vgg11,
        "vit_b_16": models.vit_b_16,
        "gpt_small": lambda: GPTDecoder(8000, 512, 8, 6, 512),
        "lstm_lm": lambda: LSTMLanguageModel(8000, 512, 512, layers=2),
    }
    data = {name: lambda g: _images(8, 224, 1000, g) for name in builders}
    data["gpt_small"] = lambda g: _tokens(8, 512, 8000, g)
    data["lstm_lm"] = lambda g: _tokens(8, 256, 8000, g)
    return _build(builders, data, names, seed, "anchor")
