"""Regenerates examples/chain_mlp_train_step.mlir, the small example for
recomputation: a deep, narrow MLP whose activations dominate its memory.

Run with the memsched Python package on the path:
    PYTHONPATH=build/python_packages python3 examples/generate_chain.py
"""
import os

import torch

from memsched.torch import export_training_step

HEADER = """\
// A deep MLP training step (8 tanh layers of width 32, batch 64):
// activations dominate its memory, which makes it the small
// example for recomputation. Regenerate with examples/generate_chain.py.
"""


def main():
    torch.manual_seed(0)
    layers = []
    for _ in range(8):
        layers += [torch.nn.Linear(32, 32), torch.nn.Tanh()]
    layers.append(torch.nn.Linear(32, 10))
    model = torch.nn.Sequential(*layers)
    inputs = (torch.randn(64, 32),)
    target = torch.randint(0, 10, (64,))
    text = export_training_step(model, inputs, target)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "chain_mlp_train_step.mlir")
    with open(path, "w") as out:
        out.write(HEADER + text)


if __name__ == "__main__":
    main()
