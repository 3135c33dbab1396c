"""The model zoo shipped in bench/models (gzipped MLIR, bench/models/generate.py)."""

import gzip
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def unpack(model, directory):
    """Writes bench/models/<model>.mlir.gz unpacked into `directory` and
    returns the path of the .mlir file."""
    path = os.path.join(directory, model + ".mlir")
    with gzip.open(os.path.join(ROOT, "bench", "models", model + ".mlir.gz"),
                   "rt") as source:
        with open(path, "w") as target:
            target.write(source.read())
    return path
