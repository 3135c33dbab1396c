#!/usr/bin/env python3
"""Prints a wide program: a balanced tree of linalg.add over N arguments of
tensor<64xf32>, reduced pairwise to one result.

    python3 bench/wide_tree.py 10000 > tree.mlir
    memsched-opt tree.mlir -memsched-fit="budget=0.9x time-limit-ms=100"

The shape of the reliability issue's limit checks (functions with tens of
thousands of arguments).
"""

import sys


def wide_tree(count):
    lines = ["func.func @tree(%s) -> tensor<64xf32> {" % ", ".join(
        "%%a%d: tensor<64xf32>" % i for i in range(count))]
    level = ["%%a%d" % i for i in range(count)]
    made = 0
    while len(level) > 1:
        pairs = []
        for left, right in zip(level[0::2], level[1::2]):
            lines.append("  %%e%d = tensor.empty() : tensor<64xf32>" % made)
            lines.append(
                "  %%s%d = linalg.add ins(%s, %s : tensor<64xf32>, "
                "tensor<64xf32>) outs(%%e%d : tensor<64xf32>) -> "
                "tensor<64xf32>" % (made, left, right, made))
            pairs.append("%%s%d" % made)
            made += 1
        if len(level) % 2:
            pairs.append(level[-1])
        level = pairs
    lines.append("  return %s : tensor<64xf32>" % level[0])
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(wide_tree(int(sys.argv[1]) if len(sys.argv) > 1
                               else 10000))
