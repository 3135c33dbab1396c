"""PyTorch in, MLIR out: export training steps and inference as linalg.

    import torch, torchvision, memsched.torch
    text = memsched.torch.export_training_step(
        torchvision.models.resnet18(), torch.randn(32, 3, 224, 224),
        target=torch.randint(0, 1000, (32,)), loss="cross_entropy")

gives a module with one function

    @train_step(params..., buffers..., inputs..., target, random...)
        -> (loss, grads...)

(one gradient per parameter that requires grad, in ``named_parameters()``
order) that every memsched pass and pipeline accepts.

The joint forward + backward graph is captured by PyTorch's own machinery
(``_capture``: ``make_fx`` on fake tensors, then ``functionalize`` and
``torch._decomp``'s decomposition tables), so only a small core of ATen ops
is lowered by hand (``_aten_lowering``: linalg named ops where one fits,
linalg.generic otherwise, tensor ops for views), in captured order: the
program order every memsched benchmark compares against.

Training-step conventions: the model runs in training mode; batch-norm
running statistics are not updated (they affect neither the loss nor the
gradients); random ops (dropout, stochastic depth) become the trailing
``random...`` arguments, whose values ``random_arguments`` draws (see
``_capture.draw_random_inputs`` for the generator); ``dropout="off"`` puts
dropout modules in eval mode instead and ``dropout="error"`` refuses random
ops. Anything that cannot be lowered raises ``UnsupportedError`` naming the
op, the module it comes from and the FX node.

``fit(model, inputs, target, budget="0.5x")`` goes the other way: it plans
the step with memsched and returns a ``FittedStep`` that runs the captured
ATen ops in PyTorch as planned (``_fit``).
"""

import contextlib

import torch
from torch.nn.utils.stateless import functional_call

from . import _capture, _fit
from ._fit import flatten as _flatten
from ._aten_lowering import Lowering, Tensor, UnsupportedError, mlir_dtype
from ._aten_lowering import _tensor_type

__all__ = ["export_training_step", "export_inference", "capture_training_step",
           "capture_inference", "lower_graph", "UnsupportedError",
           "LOSSES", "random_arguments", "reference_training_step",
           "training_step_arguments", "verify_training_step", "fit",
           "FittedStep"]

aten = torch.ops.aten

LOSSES = {
    "cross_entropy": torch.nn.functional.cross_entropy,
    "mse": torch.nn.functional.mse_loss,
}

_DROPOUT_MODES = ("inputs", "off", "error")


@contextlib.contextmanager
def _training_conventions(model, train, dropout):
    """Training mode, batch norm without running-statistics updates,
    dropout modules in eval mode with ``dropout="off"``; restores the
    model afterwards."""
    saved_modes = {m: m.training for m in model.modules()}
    saved_stats = []
    hooks = []
    model.train(train)
    try:
        for name, module in model.named_modules():
            if isinstance(module, torch.nn.modules.batchnorm._BatchNorm) and \
                    train:
                saved_stats.append((module, module.running_mean,
                                    module.running_var,
                                    module.num_batches_tracked,
                                    module.track_running_stats))
                module.running_mean = None
                module.running_var = None
                module.num_batches_tracked = None
                module.track_running_stats = False
            if isinstance(module, torch.nn.modules.dropout._DropoutNd) and \
                    dropout == "off":
                module.train(False)
            if isinstance(module, torch.nn.RNNBase):
                # functional_call swaps parameters, but RNNs read a cached
                # list of their weights: refresh it on every call.
                hooks.append(module.register_forward_pre_hook(
                    lambda m, i: setattr(m, "_flat_weights", [
                        getattr(m, w) for w in m._flat_weights_names]) and
                    None))
        yield
    finally:
        for hook in hooks:
            hook.remove()
        for module, mean, var, count, track in saved_stats:
            module.running_mean = mean
            module.running_var = var
            module.num_batches_tracked = count
            module.track_running_stats = track
        for module, mode in saved_modes.items():
            module.training = mode
        for module in model.modules():
            if isinstance(module, torch.nn.RNNBase):
                module._flat_weights = [getattr(module, w)
                                        for w in module._flat_weights_names]


def _as_tuple(inputs):
    if isinstance(inputs, torch.Tensor):
        return (inputs,)
    return tuple(inputs)


def _traceable(tensor, what):
    if not isinstance(tensor, torch.Tensor):
        raise UnsupportedError("%s is a %s, not a tensor" %
                               (what, type(tensor).__name__))
    mlir_dtype(tensor.dtype, "(%s)" % what)
    if tensor.device.type == "meta":
        # Fake tensors are made from real ones; untouched pages cost nothing.
        return torch.empty(tensor.shape, dtype=tensor.dtype)
    return tensor.detach()


class Capture:
    """A captured graph: its FX ``graph_module`` (functional, core ATen
    ops), the names of its arguments and results, where each node comes
    from (``origins[node]``: module path, first-trace ATen op, first-trace
    FX node) and the random ops turned into arguments (``random_inputs``,
    the last arguments)."""

    def __init__(self, graph_module, arg_names, result_names, origins,
                 func_name, random_inputs=()):
        self.graph_module = graph_module
        self.arg_names = arg_names
        self.result_names = result_names
        self.origins = origins
        self.func_name = func_name
        self.random_inputs = list(random_inputs)
        # For a training step: (parameters, optimizer state tensors), the
        # leading arguments that the results after the loss update.
        self.training_step = None

    def location(self, node):
        """The module path ``node`` comes from (``backward:path`` for the
        gradient of that module's ops)."""
        origin = self.origins.get(node)
        return origin[0] if origin else "?"

    def random_arguments(self, seed=0):
        """Values of the random arguments (numpy arrays, signature order),
        drawn as ``_capture.draw_random_inputs`` documents."""
        return [t.detach().numpy().copy() for t in
                _capture.draw_random_inputs(self.random_inputs, seed)]

    def to_mlir(self):
        return lower_graph(self)


def _loss_function(loss):
    loss_fn = LOSSES.get(loss, loss) if isinstance(loss, str) else loss
    if not callable(loss_fn):
        raise UnsupportedError("unknown loss %r (known: %s, or a callable)" %
                               (loss, ", ".join(sorted(LOSSES))))
    return loss_fn


class _Loss(torch.nn.Module):
    """The loss function as a module, so that its ops are located at
    ``loss``."""

    def __init__(self, function):
        super().__init__()
        self.function = function

    def forward(self, output, *target):
        return self.function(output, *target)


def _autocast(dtype):
    if dtype is None:
        return contextlib.nullcontext()
    return torch.autocast("cpu", dtype=dtype)


# Optimizer steps inside the training step: name -> (state slots per
# parameter, default hyperparameters).
OPTIMIZERS = {
    "sgd": (["momentum_buffer"], {"lr": 0.01, "momentum": 0.9}),
    "adam": (["exp_avg", "exp_avg_sq"],
             {"lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8, "step": 1}),
}


def _optimizer_spec(optimizer):
    """(name, slots, hyperparameters) of ``optimizer``: None, a name of
    OPTIMIZERS, or (name, {hyperparameter: value})."""
    if optimizer is None:
        return None
    name, options = (optimizer, {}) if isinstance(optimizer, str) else \
        optimizer
    if name not in OPTIMIZERS:
        raise UnsupportedError("unknown optimizer %r (known: %s)" % (
            name, ", ".join(sorted(OPTIMIZERS))))
    slots, defaults = OPTIMIZERS[name]
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise UnsupportedError("optimizer %s takes %s, not %s" % (
            name, ", ".join(sorted(defaults)), ", ".join(unknown)))
    return name, slots, dict(defaults, **options)


def _fresh_optimizer_state(spec, params):
    """The state of a fresh optimizer: zeros, slot by slot, each slot over
    ``params`` in order (none without an optimizer)."""
    return [torch.zeros_like(p) for _ in (spec[1] if spec else [])
            for p in params]


def _optimizer_update(spec, params, grads, state):
    """One step of the optimizer on plain tensors, as torch.optim computes
    it (no weight decay, no Nesterov, no AMSGrad). ``state``: per slot, the
    list of per-parameter tensors. Returns (new params, new state)."""
    name, _, hyper = spec
    if name == "sgd":
        buffers = [hyper["momentum"] * b + g
                   for b, g in zip(state[0], grads)]
        return ([p - hyper["lr"] * b for p, b in zip(params, buffers)],
                [buffers])
    beta1, beta2 = hyper["betas"]
    step = hyper["step"]
    correction1 = 1 - beta1 ** step
    correction2_sqrt = (1 - beta2 ** step) ** 0.5
    averages = [beta1 * m + (1 - beta1) * g for m, g in zip(state[0], grads)]
    squares = [beta2 * v + (1 - beta2) * g * g
               for v, g in zip(state[1], grads)]
    params = [p - (hyper["lr"] / correction1) * m /
              (v.sqrt() / correction2_sqrt + hyper["eps"])
              for p, m, v in zip(params, averages, squares)]
    return params, [averages, squares]


def capture_training_step(model, inputs, target=None, loss="cross_entropy",
                          dropout="inputs", func_name="train_step",
                          autocast=None, optimizer=None):
    """Captures ``loss(model(*inputs), target)`` and its gradients with
    respect to every parameter that requires grad. ``autocast``: a dtype
    (``torch.bfloat16``) to run the forward and the loss under CPU
    autocast. ``optimizer`` (``"sgd"``, ``"adam"`` or ``(name,
    {hyperparameter: value})``, see OPTIMIZERS): the step also applies it,
    taking the optimizer state after the parameters and returning the
    updated parameters and state instead of the gradients. Returns a
    ``Capture``."""
    spec = _optimizer_spec(optimizer)
    loss_fn = _Loss(_loss_function(loss))
    if dropout not in _DROPOUT_MODES:
        raise ValueError("dropout must be one of %s" %
                         ", ".join(_DROPOUT_MODES))
    inputs = _as_tuple(inputs)
    params = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    frozen = [(n, p) for n, p in model.named_parameters()
              if not p.requires_grad]
    buffers = [(n, b) for n, b in model.named_buffers()
               if not _is_batchnorm_statistic(model, n)]
    slots = spec[1] if spec else []
    # The optimizer state follows the parameters: (params..., state...)
    # -> (loss, params'..., state'...) keeps memsched-offload's convention.
    optimizer_state = list(zip(
        ["%s:%s" % (slot, n) for slot in slots for n, _ in params],
        _fresh_optimizer_state(spec, [p for _, p in params])))
    state_names = [n for n, _ in params + optimizer_state + frozen +
                   buffers]
    num_params = len(params)

    def step(state, inputs, *target):
        target = target[0] if target else None
        # make_fx passes tensors that do not require grad.
        for parameter in state[:num_params]:
            parameter.requires_grad_(True)
        num_state = num_params * len(slots)
        slot_values = state[num_params:num_params + num_state]
        model_state = state[:num_params] + state[num_params + num_state:]
        model_names = state_names[:num_params] + \
            state_names[num_params + num_state:]
        with _autocast(autocast):
            output = functional_call(model, dict(zip(model_names,
                                                     model_state)),
                                     tuple(inputs))
            value = loss_fn(output, target) if target is not None else \
                loss_fn(output)
        if not isinstance(value, torch.Tensor) or value.dim() != 0:
            raise UnsupportedError("the loss must be a scalar tensor")
        grads = torch.autograd.grad(value, state[:num_params],
                                    allow_unused=True)
        grads = [torch.zeros_like(p) if g is None else g
                 for g, p in zip(grads, state[:num_params])]
        if spec is None:
            return [value] + grads
        per_slot = [slot_values[i * num_params:(i + 1) * num_params]
                    for i in range(len(slots))]
        with torch.no_grad():
            new_params, new_state = _optimizer_update(
                spec, [p.detach() for p in state[:num_params]], grads,
                per_slot)
        return [value] + new_params + [t for slot in new_state for t in slot]

    state = [_traceable(t, "parameter '%s'" % n)
             for n, t in params + optimizer_state + frozen + buffers]
    inputs = [_traceable(t, "input %d" % i) for i, t in enumerate(inputs)]
    args = (state, inputs) + (() if target is None else
                              (_traceable(target, "the target"),))
    arg_names = state_names + ["input%d" % i for i in range(len(inputs))]
    if target is not None:
        arg_names.append("target")
    with _training_conventions(model, True, dropout):
        graph_module, origins, randoms = _capture.capture(
            step, args, [("", model), ("loss", loss_fn)], arg_names,
            "error" if dropout == "error" else "inputs")
    arg_names += ["random%d" % i for i in range(len(randoms))]
    result_names = ["loss"] + (
        ["grad:" + n for n, _ in params] if spec is None else
        ["updated:" + n for n, _ in params + optimizer_state])
    capture = Capture(graph_module, arg_names, result_names, origins,
                      func_name, randoms)
    capture.training_step = (num_params, len(optimizer_state))
    return capture


def capture_inference(model, inputs, func_name="forward"):
    """Captures ``model(*inputs)`` in eval mode; results are the model's
    output tensors (flattened)."""
    inputs = _as_tuple(inputs)
    state = list(model.named_parameters()) + list(model.named_buffers())
    state_names = [n for n, _ in state]

    def forward(state_values, inputs):
        with torch.no_grad():
            output = functional_call(model, dict(zip(state_names,
                                                     state_values)),
                                     tuple(inputs))
        return output

    args = ([_traceable(t, "parameter '%s'" % n) for n, t in state],
            [_traceable(t, "input %d" % i) for i, t in enumerate(inputs)])
    arg_names = state_names + ["input%d" % i for i in range(len(inputs))]
    with _training_conventions(model, False, "off"):
        graph_module, origins, randoms = _capture.capture(
            forward, args, [("", model)], arg_names, "error")
    outputs = [a for a in _flatten(next(iter(
        n for n in graph_module.graph.nodes if n.op == "output")).args)]
    return Capture(graph_module, arg_names,
                   ["output%d" % i for i in range(len(outputs))], origins,
                   func_name)


def _is_batchnorm_statistic(model, name):
    module_name, _, attr = name.rpartition(".")
    module = model.get_submodule(module_name) if module_name else model
    return isinstance(module, torch.nn.modules.batchnorm._BatchNorm) and \
        attr in ("running_mean", "running_var", "num_batches_tracked")


def lower_graph(capture, aten_operands=False):
    """Lowers a ``Capture`` to MLIR text. ``aten_operands``: model the
    operands an ATen kernel holds that the lowering itself does not read
    (a convolution backward's forward input and weight), so that a plan
    run as ATen ops (``fit``) holds what memsched counted."""
    graph = capture.graph_module.graph
    low = Lowering(capture.graph_module, capture.location, aten_operands)
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    arguments = []
    if len(placeholders) != len(capture.arg_names):
        raise UnsupportedError(
            "captured %d inputs for %d arguments" % (len(placeholders),
                                                     len(capture.arg_names)))
    for index, node in enumerate(placeholders):
        value = node.meta.get("val")
        shape = tuple(value.shape)
        dtype = mlir_dtype(value.dtype, "(argument '%s')" %
                           capture.arg_names[index])
        low.env[node] = Tensor("%%arg%d" % index, shape, dtype)
        arguments.append((capture.arg_names[index], shape, dtype))
    output = None
    for node in graph.nodes:
        if node.op == "placeholder":
            continue
        if node.op == "output":
            output = node
            break
        try:
            low.lower_node(node)
        except UnsupportedError as error:
            origin = capture.origins.get(node)
            source = "" if origin is None or origin[1] == str(node.target) \
                else ", from %s" % origin[1]
            raise UnsupportedError("%s (at '%s', node %s%s)" % (
                error, capture.location(node), node.name, source)) from None
    results = []
    for value in _flatten(output.args):
        tensor = low.value(value)
        if not hasattr(tensor, "name"):
            raise UnsupportedError("the graph returns a non-tensor %r" %
                                   (tensor,))
        results.append(low.materialize(tensor))
    if len(results) != len(capture.result_names):
        capture.result_names = ["result%d" % i for i in range(len(results))]

    lines = ["// Exported by memsched.torch from torch %s." % torch.__version__,
             "// Arguments:"]
    for index, (name, shape, dtype) in enumerate(arguments):
        lines.append("//   %%arg%d  %s  %s" % (index, name,
                                              _tensor_type(shape, dtype)))
    lines.append("// Results: %s" % ", ".join(capture.result_names))
    lines.append("module {")
    signature = ", ".join("%%arg%d: %s" % (i, _tensor_type(s, d))
                          for i, (_, s, d) in enumerate(arguments))
    result_types = ", ".join(r.type for r in results)
    attributes = ""
    if capture.training_step is not None:
        # Which leading arguments are parameters and which optimizer state
        # (memsched-offload's offload=params / offload=optimizer).
        attributes = (" attributes {memsched.training_step = {parameters = "
                      "%d : i64, optimizer_state = %d : i64}}" %
                      capture.training_step)
    lines.append("  func.func @%s(%s) -> (%s)%s {" % (
        capture.func_name, signature, result_types, attributes))
    lines.extend(low.lines)
    lines.append("    return %s : %s" % (", ".join(r.name for r in results),
                                         result_types))
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def export_training_step(model, inputs, target=None, loss="cross_entropy",
                         dropout="inputs", func_name="train_step",
                         autocast=None, optimizer=None):
    """Returns the training step of ``model`` as MLIR text:
    ``@train_step(params..., buffers..., inputs..., target, random...) ->
    (loss, grads...)``. ``loss`` is ``"cross_entropy"``, ``"mse"`` or a
    callable ``loss(output, target)`` returning a scalar; ``dropout`` and
    ``autocast`` as in ``capture_training_step``. With ``optimizer``
    (``"sgd"``, ``"adam"``, or ``(name, {hyperparameter: value})``):
    ``(params..., optimizer state..., buffers..., inputs..., target,
    random...) -> (loss, updated params..., updated state...)``, the state
    in slot order (SGD: momentum buffers; Adam: first, then second
    moments)."""
    return lower_graph(capture_training_step(model, inputs, target, loss,
                                             dropout, func_name, autocast,
                                             optimizer))


def export_inference(model, inputs, func_name="forward"):
    """Returns ``model(*inputs)`` in eval mode as MLIR text:
    ``@forward(params..., buffers..., inputs...) -> (outputs...)``."""
    return lower_graph(capture_inference(model, inputs, func_name))


def reference_training_step(model, inputs, target=None, loss="cross_entropy",
                            dropout="inputs", seed=0, random_values=None):
    """Runs the training step eagerly in PyTorch under the conventions the
    export uses, its random ops drawn from PyTorch's default generator
    seeded with ``seed`` (the masks ``random_arguments(seed)`` gives), or
    returning ``random_values`` (arrays, in order) when given; returns
    ``[loss, grads...]`` as numpy arrays."""
    loss_fn = _loss_function(loss)
    inputs = _as_tuple(inputs)
    params = [p for _, p in model.named_parameters() if p.requires_grad]
    replay = contextlib.nullcontext() if random_values is None else \
        _capture.replay_random([torch.as_tensor(v) for v in random_values])
    with _training_conventions(model, True, dropout), \
            torch.random.fork_rng(devices=[]), replay:
        torch.manual_seed(seed)
        output = model(*inputs)
        value = loss_fn(output, target) if target is not None else \
            loss_fn(output)
        grads = torch.autograd.grad(value, params, allow_unused=True)
    grads = [torch.zeros_like(p) if g is None else g
             for g, p in zip(grads, params)]
    return [t.detach().numpy().copy() for t in [value] + grads]


def random_arguments(capture, seed=0):
    """The values of ``capture``'s random arguments (dropout and stochastic
    depth masks) as numpy arrays: every random op runs again eagerly, in
    graph order, on PyTorch's default CPU generator seeded with ``seed``."""
    return capture.random_arguments(seed)


def training_step_arguments(model, inputs, target=None, capture=None,
                            seed=0, optimizer=None, optimizer_state=None):
    """The ``@train_step`` arguments for these inputs as numpy arrays, in
    signature order (parameters, with ``optimizer`` its state (the tensors
    of ``optimizer_state``, slot by slot, else zeros: a fresh optimizer),
    frozen parameters, buffers, inputs, target, then, given the
    ``capture``, its random masks drawn with ``seed``)."""
    params = [p for _, p in model.named_parameters() if p.requires_grad]
    frozen = [p for _, p in model.named_parameters() if not p.requires_grad]
    buffers = [b for n, b in model.named_buffers()
               if not _is_batchnorm_statistic(model, n)]
    spec = _optimizer_spec(optimizer)
    if spec is None:
        state = []
    elif optimizer_state is not None:
        state = list(optimizer_state)
    else:
        state = _fresh_optimizer_state(spec, params)
    values = params + state + frozen + buffers + list(_as_tuple(inputs))
    if target is not None:
        values.append(target)
    values = [t.detach().numpy().copy() for t in values]
    if capture is not None:
        values += capture.random_arguments(seed)
    return values


def verify_training_step(model, inputs, target=None, loss="cross_entropy",
                         pipeline_options="", seed=0):
    """Exports, runs the step on CPU through ``memsched-to-cpu-pipeline``
    (random masks drawn with ``seed``) and compares with PyTorch. Returns,
    per result, ``max |ours - torch| / max(1, max |torch|)``."""
    import numpy
    from .execute import run_with_inputs
    capture = capture_training_step(model, inputs, target, loss)
    ours = run_with_inputs(lower_graph(capture), training_step_arguments(
        model, inputs, target, capture, seed),
        pipeline_options=pipeline_options)
    expected = reference_training_step(model, inputs, target, loss,
                                       seed=seed)
    if len(ours) != len(expected):
        raise AssertionError("%d results, PyTorch has %d" % (len(ours),
                                                              len(expected)))
    errors = []
    for a, b in zip(ours, expected):
        if a.shape != b.shape:
            raise AssertionError("result shape %s, PyTorch has %s" %
                                 (a.shape, b.shape))
        scale = max(1.0, float(numpy.max(numpy.abs(b))) if b.size else 1.0)
        errors.append(float(numpy.max(numpy.abs(a - b))) / scale
                      if b.size else 0.0)
    return errors


class FittedStep:
    """A training step planned by memsched and run in PyTorch (``fit``).

    ``fitted(inputs, target)`` returns ``(loss, grads)``, the gradients in
    ``model.named_parameters()`` order (parameters that require grad), for
    the model's current parameters: the captured graph's ATen ops run in
    the plan's order, with its recomputations and its copies to and from
    host memory, each value dropped after its last reader. ``report`` is
    memsched's report of the plan (``memsched.analyze``), ``plan`` the
    planned module, ``schedule`` the events (``_fit.Schedule``) and
    ``unplanned`` the captured order run the same way."""

    def __init__(self, model, capture, plan, report, target_given, loss,
                 dropout):
        self.model = model
        self.capture = capture
        self.plan = plan
        self.report = report
        self._target_given = target_given
        # The step's loss and dropout mode, for the eager reference.
        self._loss, self._dropout = loss, dropout
        graph = capture.graph_module.graph
        self.schedule = _fit.Schedule(
            graph, _fit.plan_ops(plan, capture.func_name))
        self.unplanned = _fit.Schedule(graph)
        self._estimate = None
        # The budget in bytes fit was asked for (None for "min").
        self.budget_bytes = None

    @property
    def planned_bytes(self):
        """What memsched says the device must hold for this step."""
        return self.report["functions"][0]["planned_bytes"]

    @property
    def estimated_bytes(self):
        """The largest live storage at op boundaries this step will have,
        from the graph's shapes (``_fit.Schedule.estimate_peak``)."""
        if self._estimate is None:
            self._estimate = self.schedule.estimate_peak()
        return self._estimate

    def arguments(self, inputs, target=None, seed=None):
        """The step's arguments as tensors, in the captured graph's order:
        parameters, frozen parameters, buffers, inputs, target, then the
        random masks (dropout, stochastic depth) drawn as
        ``random_arguments`` documents with ``seed`` (by default a seed
        drawn from PyTorch's default generator, so that
        ``torch.manual_seed`` makes a call reproducible)."""
        model = self.model
        if (target is not None) != self._target_given:
            raise ValueError("the step was fitted %s a target" %
                             ("with" if self._target_given else "without"))
        values = [p for _, p in model.named_parameters() if p.requires_grad]
        values += [p for _, p in model.named_parameters()
                   if not p.requires_grad]
        values += [b for n, b in model.named_buffers()
                   if not _is_batchnorm_statistic(model, n)]
        values += list(_as_tuple(inputs))
        if target is not None:
            values.append(target)
        values = [v.detach() for v in values]
        if self.capture.random_inputs:
            if seed is None:
                seed = int(torch.randint(0, 2 ** 62, ()))
            device = values[-1].device if values else "cpu"
            values += [t.to(device) for t in _capture.draw_random_inputs(
                self.capture.random_inputs, seed)]
        return values

    def _check_shapes(self, values):
        placeholders = [n for n in self.capture.graph_module.graph.nodes
                        if n.op == "placeholder"]
        for node, value, name in zip(placeholders, values,
                                     self.capture.arg_names):
            expected = node.meta.get("val")
            if tuple(value.shape) != tuple(expected.shape) or \
                    value.dtype != expected.dtype:
                raise ValueError(
                    "argument '%s' is %s %s; the step was fitted for %s %s"
                    % (name, tuple(value.shape), value.dtype,
                       tuple(expected.shape), expected.dtype))

    def __call__(self, inputs, target=None, seed=None, meter=None):
        values = self.arguments(inputs, target, seed)
        self._check_shapes(values)
        with torch.no_grad():
            results = self.schedule.run(values, meter)
        return results[0], results[1:]

    def run_unplanned(self, inputs, target=None, seed=None, meter=None):
        """The step in the captured order, run the same way (the
        reference the fitted step is bit-identical to)."""
        values = self.arguments(inputs, target, seed)
        self._check_shapes(values)
        with torch.no_grad():
            results = self.unplanned.run(values, meter)
        return results[0], results[1:]

    def measure(self, inputs, target=None, seed=0, repeat=1):
        """Measures the fitted step, the unplanned one and PyTorch eager
        (forward, the step's loss, ``autograd.grad``) on these inputs, with
        the same random masks. Returns a dict of
        bytes and seconds:

        - ``planned_bytes``: memsched's figure for the plan;
        - ``*_arguments_bytes``: the arguments the step holds on the device
          (all of them but those the plan keeps in host memory);
        - ``*_boundary_bytes``: the largest live storage at op boundaries
          (arguments included; ``_fit.OpBoundaryMeter``) of the fitted and
          unplanned steps;
        - ``*_peak_bytes``: the arguments plus the most the allocator held
          beyond them while the step ran: ``torch.cuda.max_memory_allocated``
          on a GPU, on CPU the profiler's allocation events (kernel
          workspaces included) for the fitted, unplanned and eager steps;
        - ``*_time_s``: the smallest wall time of ``repeat`` runs."""
        values = self.arguments(inputs, target, seed)
        placeholders = [n for n in self.capture.graph_module.graph.nodes
                        if n.op == "placeholder"]
        figures = {"planned_bytes": self.planned_bytes}
        for name, schedule in (("fitted", self.schedule),
                               ("unplanned", self.unplanned)):
            # Arguments in host memory are not the device's.
            resident = _fit.storage_bytes(
                [v for n, v in zip(placeholders, values)
                 if n not in schedule.host_arguments])
            figures[name + "_arguments_bytes"] = resident
            meter = _fit.OpBoundaryMeter()
            with torch.no_grad():
                schedule.run(values, meter)
            figures[name + "_boundary_bytes"] = meter.peak

            def step():
                with torch.no_grad():
                    schedule.run(values)
            figures[name + "_peak_bytes"] = resident + _device_peak(
                step, values)
            figures[name + "_time_s"] = _fit.timed(step, repeat)
        loss_fn = _loss_function(self._loss)
        params = [p for _, p in self.model.named_parameters()
                  if p.requires_grad]
        random_values = values[len(values) - len(self.capture.random_inputs):]\
            if self.capture.random_inputs else None

        def eager():
            replay = contextlib.nullcontext() if random_values is None else \
                _capture.replay_random(random_values)
            with _training_conventions(self.model, True, self._dropout), \
                    replay:
                output = self.model(*_as_tuple(inputs))
                value = loss_fn(output, target) if target is not None \
                    else loss_fn(output)
                return torch.autograd.grad(value, params, allow_unused=True)

        eager_resident = _fit.storage_bytes(
            list(self.model.parameters()) + list(self.model.buffers()) +
            list(_as_tuple(inputs)) + ([target] if target is not None
                                        else []))
        figures["eager_peak_bytes"] = eager_resident + _device_peak(
            eager, values)
        figures["eager_time_s"] = _fit.timed(eager, repeat)
        return figures


def _device_peak(function, values):
    """The most bytes the allocator held beyond what it held when
    ``function()`` started."""
    device = next((v.device for v in values if v.device.type == "cuda"),
                  torch.device("cpu"))
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        start = torch.cuda.memory_allocated(device)
        torch.cuda.reset_peak_memory_stats(device)
        function()
        torch.cuda.synchronize(device)
        return torch.cuda.max_memory_allocated(device) - start
    return _fit.allocator_peak(function)[1]


def fit(model, inputs, target=None, loss="cross_entropy", budget="0.5x",
        device=None, dropout="inputs", allow_remat=True, allow_swap=True,
        offload=()):
    """Plans ``model``'s training step with ``memsched.optimize`` under
    ``budget`` (as ``memsched.optimize`` takes it: ``"0.5x"``, ``"2GiB"``,
    bytes, ``"min"``) and returns a ``FittedStep``: ``loss, grads =
    fitted(inputs, target)`` runs the step in PyTorch as planned. The
    example ``inputs`` and ``target`` fix the shapes and dtypes every call
    must have. The budget bounds the live storage at op boundaries that the
    plan's ATen ops need (``FittedStep.estimated_bytes``): where that
    exceeds the budget, memsched plans again under a budget tightened by the
    excess, then at its smallest, then both with the operands ATen kernels
    hold modelled (``lower_graph(aten_operands=True)``); ``"min"`` takes the
    smaller of the two smallest plans. A budget no plan meets raises
    ``memsched.MLIRError`` naming the smallest reachable one; a model that
    cannot be captured raises ``UnsupportedError``. ``offload`` (a subset of ``"params"``,
    ``"grads"``) keeps that resident state in host memory
    (``memsched-offload``): each parameter is copied to the device before
    its uses, each gradient returned as a CPU tensor; on a GPU the model's
    parameters must then be on the CPU and the inputs on the GPU."""
    from . import MLIRError, analyze, budgets, optimize, run_pipeline
    if "optimizer" in offload:
        raise ValueError("fit plans no optimizer step: offload is a subset "
                         "of params, grads")
    if "inputs" in offload:
        # The fitted step runs where its inputs are.
        raise ValueError("fit takes the inputs on the device the step runs "
                         "on: offload is a subset of params, grads")
    capture = capture_training_step(model, inputs, target, loss, dropout)

    def lowered(aten_operands=False):
        # The caller keeps the offloaded state on the host, so the step is
        # offloaded before planning rather than where it pays, as
        # memsched.optimize's offload= would choose.
        text = lower_graph(capture, aten_operands=aten_operands)
        if not offload:
            return text
        return run_pipeline(text, "func.func(memsched-offload{offload=%s%s})"
                            % (",".join(offload),
                               " device=%s" % device if device else ""))

    plain = lower_graph(capture)
    budget = budgets.normalize(budget)
    if budget and budget.endswith("x"):
        # A fraction of the exported step's planned bytes, as
        # memsched.optimize takes it.
        unplanned = analyze(plain, timeline=False)
        budget = "%dB" % int(float(budget[:-1]) *
                             unplanned["functions"][0]["planned_bytes"])
    plain = lowered()

    def plan_at(text, plan_budget, swap=allow_swap):
        # A split op (memsched-split) or ops fused (memsched-fuse) would run
        # whole as their ATen ops, so the saving would not exist in PyTorch:
        # fit plans without either.
        plan, report = optimize(text, plan_budget, device=device,
                                allow_remat=allow_remat,
                                allow_swap=swap, timeline=False,
                                allow_split=False, allow_fuse=False)
        fitted = FittedStep(model, capture, plan, report, target is not None,
                            loss, dropout)
        fitted.budget_bytes = limit  # None until known, and for "min"
        return fitted

    # memsched plans its own ops; an ATen kernel may hold an operand those
    # do not (a convolution's weight gradient holds the weight). The plain
    # step first; where the estimate of what its ATen ops hold exceeds the
    # budget, plans again under a budget tightened by the excess, then the
    # smallest plan; then the same with the step lowered with those
    # operands modelled (aten_operands).
    limit = None
    if budget == "min":
        candidates = [plan_at(plain, "min"),
                      plan_at(lowered(aten_operands=True), "min")]
        # A copy in that memsched issues between the ops of one ATen op
        # comes before the whole op in PyTorch, which can hold more than
        # recomputation alone would (a pooling's backward holds its forward
        # input): the smallest plan without swaps is a candidate too.
        if allow_swap and allow_remat:
            candidates.append(plan_at(plain, "min", swap=False))
        return min(candidates, key=lambda f: f.estimated_bytes)
    try:
        first = plan_at(plain, budget)
    except MLIRError:
        # memsched's footprint counts what its own ops hold (each op's
        # temporaries, the arena's packing); the ATen ops at their
        # boundaries can hold less. The smallest plans decide.
        limit = budgets.bytes_of(budget)
        smallest = fit(model, inputs, target, loss, "min", device, dropout,
                       allow_remat, allow_swap, offload) \
            if limit is not None else None
        if smallest is None or smallest.estimated_bytes > limit:
            raise
        smallest.budget_bytes = limit
        return smallest
    limit = first.report["functions"][0].get("fit", {}).get("budget_bytes")
    if not limit:
        return first
    first.budget_bytes = limit

    def attempt(text, plan_budget):
        try:
            return plan_at(text, plan_budget)
        except MLIRError:
            return None

    best = first
    for text in (plain, None):
        text = text or lowered(aten_operands=True)
        candidate = first if text is plain else attempt(text, limit)
        for plan_budget in ("tighter", "min"):
            if candidate is not None and \
                    candidate.estimated_bytes < best.estimated_bytes:
                best = candidate
            if best.estimated_bytes <= limit:
                return best
            if plan_budget == "tighter":
                if candidate is None:
                    continue
                plan_budget = limit - max(1, candidate.estimated_bytes - limit)
            candidate = attempt(text, plan_budget)
        if candidate is not None and \
                candidate.estimated_bytes < best.estimated_bytes:
            best = candidate
        if best.estimated_bytes <= limit:
            return best
    raise MLIRError(
        "fit: no plan keeps the ATen ops within the budget of %d B; the "
        "smallest found holds %d B at op boundaries (memsched's own figure "
        "for it: %d B)" % (limit, best.estimated_bytes, best.planned_bytes))
