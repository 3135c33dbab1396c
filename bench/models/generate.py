#!/usr/bin/env python3
"""Regenerates the model zoo: the training steps of memsched's benchmark
models, exported by memsched.torch at benchmark sizes, as gzipped MLIR.

    PYTHONPATH=build/python_packages python3 bench/models/generate.py [NAME...]

Sizes (memsched.torch_models.zoo("bench")): resnet18, resnet50,
mobilenet_v2, vgg11 and vit_b_16 at batch 32, 3x224x224, 1000 classes; gpt
(12 layers, d=768, 12 heads, vocab 50257) at batch 8 x seq 1024; lstm (embed
512, hidden 1024, vocab 10000) at batch 32 x seq 512. Each file holds one
function @train_step(params..., inputs..., target) -> (loss, grads...) in
captured (eager) op order. The weights are arguments, so the files hold no
data and are reproducible: same torch version, same text.
"""

import argparse
import gzip
import os
import sys
import time

import memsched.torch
from memsched.torch_models import zoo


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="models (default: all)")
    parser.add_argument("--output-dir", default=os.path.dirname(
        os.path.abspath(__file__)))
    args = parser.parse_args()
    names = args.names or None
    for name, (model, inputs, target) in zoo("bench", names).items():
        start = time.time()
        text = memsched.torch.export_training_step(model, inputs, target)
        path = os.path.join(args.output_dir, name + ".mlir.gz")
        # mtime=0: the same text gives the same bytes.
        with open(path, "wb") as raw:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                               mtime=0) as out:
                out.write(text.encode())
        print("%-13s %7d lines  %6.1f s  %s" % (
            name, text.count("\n"), time.time() - start,
            os.path.relpath(path)), file=sys.stderr)


if __name__ == "__main__":
    main()
