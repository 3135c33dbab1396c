"""Shared by the memsched.torch tests (not a test itself: lit skips it via
lit.local.cfg's excludes)."""

import copy

import numpy as np

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
