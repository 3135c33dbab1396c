#!/usr/bin/env python3
"""NumPy reference for the memsched example training steps.

Covers examples/mlp_train_step.mlir ("mlp") and examples/cnn_train_step.mlir
("cnn"). Both MLIR files define one public function

    @train_step(params..., inputs..., target) -> (loss, grad of each param)

and this file computes the same loss and gradients with NumPy.

Deterministic inputs (shared with any wrapper / C++ pass that feeds
@train_step). Let i be the 0-based position of the argument in the
@train_step signature and k the row-major linear index of an element
(k = ((i0 * d1 + i1) * d2 + i2) * d3 + i3 for a shape d0 x d1 x d2 x d3):

    f32 argument:  value = (((k * 26 + i * 31) mod 127) - 63) / 128.0
    i64 argument:  value = (k * 3 + i) mod 10           (class labels)

Only integer arithmetic is needed before the final division, and every float
value (an integer in [-63, 63] divided by 128) is exact in f32.

Usage:
    python3 examples/reference.py          # finite-difference self-check
    python3 examples/reference.py --print  # print loss and grads of both

Needs numpy (Debian: python3-numpy, i.e. /usr/bin/python3).
"""

import sys

import numpy as np

# name -> list of (argument name, shape, element type), in signature order.
SPECS = {
    "mlp": [
        ("w1", (32, 64), "f32"),
        ("b1", (64,), "f32"),
        ("w2", (64, 64), "f32"),
        ("b2", (64,), "f32"),
        ("w3", (64, 10), "f32"),
        ("b3", (10,), "f32"),
        ("x", (8, 32), "f32"),
        ("y", (8,), "i64"),
    ],
    "cnn": [
        ("w1", (4, 1, 3, 3), "f32"),
        ("b1", (4,), "f32"),
        ("w2", (8, 4, 3, 3), "f32"),
        ("b2", (8,), "f32"),
        ("w3", (72, 10), "f32"),
        ("b3", (10,), "f32"),
        ("x", (4, 1, 12, 12), "f32"),
        ("y", (4,), "i64"),
    ],
}

NUM_PARAMS = 6  # the first 6 arguments of both models are parameters


def input_value(i, k, elem):
    """Value of element k (row-major linear index) of argument i."""
    if elem == "i64":
        return (k * 3 + i) % 10
    return (((k * 26 + i * 31) % 127) - 63) / 128.0


def make_inputs(name):
    """All @train_step arguments of model `name` as numpy arrays
    (float32 for f32 arguments, int64 for the labels)."""
    out = []
    for i, (_, shape, elem) in enumerate(SPECS[name]):
        k = np.arange(int(np.prod(shape)), dtype=np.int64)
        if elem == "i64":
            v = ((k * 3 + i) % 10).astype(np.int64)
        else:
            v = ((((k * 26 + i * 31) % 127) - 63) / 128.0).astype(np.float32)
        out.append(v.reshape(shape))
    return out


# ----------------------------------------------------------------------------
# shared pieces


def softmax_xent(logits, y):
    """Mean softmax cross-entropy and its gradient w.r.t. the logits."""
    n = logits.shape[0]
    m = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - m)
    s = e.sum(axis=1, keepdims=True)
    lse = np.log(s) + m
    onehot = np.zeros_like(logits)
    onehot[np.arange(n), y] = 1
    loss = (lse[:, 0] - logits[np.arange(n), y]).mean()
    dlogits = (e / s - onehot) / n
    return loss, dlogits


def windows(x, kh, kw):
    """[N, C, H, W] -> [N, C, OH, OW, KH, KW] valid sliding windows."""
    return np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(2, 3))


def conv2d(x, w):
    """Valid, stride-1 NCHW x FCHW convolution (cross-correlation)."""
    return np.einsum("ncijhw,fchw->nfij", windows(x, w.shape[2], w.shape[3]), w)


# ----------------------------------------------------------------------------
# models


def mlp_step(args, dtype=np.float32):
    w1, b1, w2, b2, w3, b3, x = (a.astype(dtype) for a in args[:7])
    y = args[7]
    # forward
    h1 = x @ w1 + b1
    r1 = np.maximum(h1, 0)
    h2 = r1 @ w2 + b2
    r2 = np.maximum(h2, 0)
    logits = r2 @ w3 + b3
    # loss
    loss, dlogits = softmax_xent(logits, y)
    # backward
    dw3 = r2.T @ dlogits
    db3 = dlogits.sum(axis=0)
    dh2 = (dlogits @ w3.T) * (h2 > 0)
    dw2 = r1.T @ dh2
    db2 = dh2.sum(axis=0)
    dh1 = (dh2 @ w2.T) * (h1 > 0)
    dw1 = x.T @ dh1
    db1 = dh1.sum(axis=0)
    stats = {"h1>0": (h1 > 0).mean(), "h2>0": (h2 > 0).mean()}
    return loss, [dw1, db1, dw2, db2, dw3, db3], stats


def cnn_step(args, dtype=np.float32):
    w1, b1, w2, b2, w3, b3, x = (a.astype(dtype) for a in args[:7])
    y = args[7]
    n = x.shape[0]
    # forward
    h1 = conv2d(x, w1) + b1[None, :, None, None]          # [4,4,10,10]
    r1 = np.maximum(h1, 0)
    r1v = r1.reshape(n, 4, 5, 2, 5, 2)
    p = r1v.max(axis=(3, 5))                              # [4,4,5,5]
    h2 = conv2d(p, w2) + b2[None, :, None, None]          # [4,8,3,3]
    r2 = np.maximum(h2, 0)
    flat = r2.reshape(n, 72)
    logits = flat @ w3 + b3
    # loss
    loss, dlogits = softmax_xent(logits, y)
    # backward
    dw3 = flat.T @ dlogits
    db3 = dlogits.sum(axis=0)
    dh2 = (dlogits @ w3.T).reshape(h2.shape) * (h2 > 0)
    db2 = dh2.sum(axis=(0, 2, 3))
    dw2 = np.einsum("ncijhw,nfij->fchw", windows(p, 3, 3), dh2)
    # conv2 input gradient by scattering each output back over its window
    dp = np.zeros_like(p)
    for kh in range(3):
        for kw in range(3):
            dp[:, :, kh:kh + 3, kw:kw + 3] += np.einsum(
                "nfij,fc->ncij", dh2, w2[:, :, kh, kw])
    # max pool backward: every element equal to its window max gets the
    # window's gradient (ties: all of them), as in the MLIR example.
    mask = r1v == p[:, :, :, None, :, None]
    dr1 = (mask * dp[:, :, :, None, :, None]).reshape(r1.shape)
    dh1 = dr1 * (h1 > 0)
    db1 = dh1.sum(axis=(0, 2, 3))
    dw1 = np.einsum("ncijhw,nfij->fchw", windows(x, 3, 3), dh1)
    ties = (mask.sum(axis=(3, 5)) > 1)
    stats = {
        "h1>0": (h1 > 0).mean(),
        "h2>0": (h2 > 0).mean(),
        "pool windows with tied max": int(ties.sum()),
        "  of which max > 0": int((ties & (p > 0)).sum()),
    }
    return loss, [dw1, db1, dw2, db2, dw3, db3], stats


STEPS = {"mlp": mlp_step, "cnn": cnn_step}


def run(name, dtype=np.float32):
    """(loss, [grad of each parameter in signature order]) for model `name`
    on make_inputs(name), computed in `dtype`."""
    loss, grads, _ = STEPS[name](make_inputs(name), dtype)
    return loss, grads


def stats(name):
    return STEPS[name](make_inputs(name), np.float64)[2]


# ----------------------------------------------------------------------------
# finite-difference self-check of the analytic gradients (float64)


def check_fd(name, per_param=20, eps=1e-6, seed=0):
    """Central finite differences on `per_param` random entries of every
    parameter; returns (max abs diff, max rel diff)."""
    args = [a.astype(np.float64) if a.dtype != np.int64 else a
            for a in make_inputs(name)]
    step = STEPS[name]
    _, grads, _ = step(args, np.float64)
    rng = np.random.default_rng(seed)
    max_abs = max_rel = 0.0
    for pi in range(NUM_PARAMS):
        flat_idx = rng.choice(args[pi].size, size=min(per_param, args[pi].size),
                              replace=False)
        for fi in flat_idx:
            idx = np.unravel_index(fi, args[pi].shape)
            plus = [a.copy() for a in args]
            minus = [a.copy() for a in args]
            plus[pi][idx] += eps
            minus[pi][idx] -= eps
            fd = (step(plus, np.float64)[0] - step(minus, np.float64)[0]) / (2 * eps)
            an = grads[pi][idx]
            d = abs(fd - an)
            max_abs = max(max_abs, d)
            max_rel = max(max_rel, d / max(abs(fd), abs(an), 1e-8))
    return max_abs, max_rel


def main(argv):
    for name in ("mlp", "cnn"):
        if "--print" in argv:
            loss, grads = run(name)
            print(f"{name}: loss = {loss!r}")
            for (pname, _, _), g in zip(SPECS[name], grads):
                print(f"  d{pname} {g.shape}: {g.ravel()[:6]} ...")
        st = stats(name)
        a, r = check_fd(name)
        print(f"{name}: finite differences vs analytic (float64): "
              f"max abs {a:.3e}, max rel {r:.3e}; "
              + ", ".join(f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}"
                          for k, v in st.items()))
        if r > 1e-5:
            print(f"{name}: FAILED finite-difference check")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
