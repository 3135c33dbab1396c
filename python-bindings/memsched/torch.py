"""PyTorch in, MLIR out: export training steps and inference as linalg.

    import torch, torchvision, memsched.torch
    text = memsched.torch.export_training_step(
        torchvision.models.resnet18(), torch.randn(32, 3, 224, 224),
        target=torch.randint(0, 1000, (32,)), loss="cross_entropy")

gives a module with one function

    @train_step(params..., buffers..., inputs..., target) -> (loss, grads...)

(one gradient per parameter that requires grad, in ``named_parameters()``
order) that every memsched pass and pipeline accepts.

The joint forward + backward graph is captured with ``make_fx`` on fake
tensors (shapes only: batch 32 at 224x224 captures in seconds and allocates
no activations), through torch's own decomposition tables, and each ATen op
is lowered to upstream MLIR (linalg named ops where one fits, linalg.generic
otherwise, tensor ops for views) in captured order: the program order every
memsched benchmark compares against.

Training-step conventions: the model runs in training mode; batch-norm
running statistics are not updated (they affect neither the loss nor the
gradients); dropout is off (``dropout="off"``, the default, puts dropout
modules in eval mode while tracing; ``dropout="error"`` refuses models with
dropout instead). Anything that cannot be lowered raises ``UnsupportedError``
naming the op and the module it comes from.
"""

import contextlib
import operator

import torch
from torch.fx.experimental import proxy_tensor
from torch.nn.utils.stateless import functional_call

from ._aten_lowering import Lowering, Tensor, UnsupportedError, mlir_dtype
from ._aten_lowering import _tensor_type

__all__ = ["export_training_step", "export_inference", "capture_training_step",
           "capture_inference", "lower_graph", "UnsupportedError",
           "LOSSES"]

aten = torch.ops.aten


def _decompositions():
    """torch's own decompositions of the composite and backward ops we do
    not lower directly (batch norm, softmax, losses, activation backward)."""
    from torch._decomp import get_decompositions
    ops = [
        aten.native_batch_norm, aten.native_batch_norm_backward,
        aten._log_softmax, aten._log_softmax_backward_data,
        aten._softmax, aten._softmax_backward_data,
        aten.nll_loss_forward, aten.nll_loss_backward,
        aten.native_layer_norm_backward, aten.addmm, aten.threshold_backward,
        aten.gelu_backward, aten.tanh_backward, aten.sigmoid_backward,
        aten.hardtanh_backward, aten.silu, aten.silu_backward, aten.hardswish,
        aten.hardswish_backward, aten.hardsigmoid, aten.hardsigmoid_backward,
        aten.embedding, aten.embedding_dense_backward, aten.select_backward,
        aten.slice_backward, aten._adaptive_avg_pool2d, aten.split,
        aten._unsafe_view, aten.rsub, aten.mv, aten.dot, aten.logsumexp,
        aten.var, aten.std, aten.detach, aten.native_dropout,
        aten.leaky_relu_backward, aten.mse_loss_backward,
    ]
    table = get_decompositions(ops)
    # Keep the decompositions into ATen; those into prims (torch._refs) would
    # need a second lowering of their own.
    return {op: fn for op, fn in table.items()
            if fn.__module__.startswith("torch._decomp")}


LOSSES = {
    "cross_entropy": torch.nn.functional.cross_entropy,
    "mse": torch.nn.functional.mse_loss,
}

# ATen ops that return (a view of) their first argument.
_VIEW_OPS = {
    aten.view, aten._reshape_alias, aten._unsafe_view, aten.alias,
    aten.detach, aten.t, aten.transpose, aten.permute, aten.expand,
    aten.slice, aten.select, aten.squeeze, aten.unsqueeze, aten.split,
    aten.split_with_sizes, aten.unbind, aten.as_strided, aten.diagonal,
}


_SPLIT_OPS = {aten.split, aten.split_with_sizes, aten.unbind,
              aten.unsafe_split, aten.unsafe_split_with_sizes, aten.chunk,
              aten.unsafe_chunk}


@contextlib.contextmanager
def _module_locations(model, locations):
    """Records, for every FX node created while a submodule's forward runs,
    the submodule's qualified name (its ``model location``)."""
    stack = []
    handles = []
    for name, module in model.named_modules():
        label = name or type(model).__name__
        # Hooks must return None, or they would replace inputs or outputs.
        handles.append(module.register_forward_pre_hook(
            lambda m, i, label=label: stack.append(label) and None))
        handles.append(module.register_forward_hook(
            lambda m, i, o: stack.pop() and None))
    original = proxy_tensor.PythonKeyTracer.create_node

    def create_node(self, *args, **kwargs):
        node = original(self, *args, **kwargs)
        locations[node] = stack[-1] if stack else "backward"
        return node

    proxy_tensor.PythonKeyTracer.create_node = create_node
    try:
        yield
    finally:
        proxy_tensor.PythonKeyTracer.create_node = original
        for handle in handles:
            handle.remove()


@contextlib.contextmanager
def _training_conventions(model, train, dropout):
    """Training mode, batch norm without running-statistics updates,
    dropout off; restores the model afterwards."""
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
            if isinstance(module, torch.nn.modules.dropout._DropoutNd):
                if dropout == "error" and train and module.p > 0:
                    raise UnsupportedError(
                        "dropout in '%s' (random masks are not supported; "
                        "export with dropout='off')" % name)
                module.train(False)
            if isinstance(module, torch.nn.MultiheadAttention) and \
                    module.dropout > 0 and train:
                raise UnsupportedError(
                    "attention dropout in '%s' (random masks are not "
                    "supported; build the model with dropout=0)" % name)
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


def _trace(function, args, model, locations):
    try:
        with _module_locations(model, locations):
            return proxy_tensor.make_fx(
                function, decomposition_table=_decompositions(),
                tracing_mode="fake")(*args)
    except UnsupportedError:
        raise
    except Exception as error:  # torch raises many types while tracing.
        text = str(error)
        name = type(error).__name__
        if "DataDependent" in name or "data-dependent" in text or \
                "_local_scalar_dense" in text or "item()" in text:
            raise UnsupportedError(
                "data-dependent control flow or values in the model "
                "(%s: %s); memsched.torch captures one static graph" %
                (name, text.splitlines()[0] if text else "")) from error
        raise UnsupportedError("tracing failed: %s: %s" %
                               (name, text.splitlines()[0] if text else "")) \
            from error


class Capture:
    """A captured graph and the names of its arguments and results."""

    def __init__(self, graph_module, arg_names, result_names, locations,
                 func_name):
        self.graph_module = graph_module
        self.arg_names = arg_names
        self.result_names = result_names
        self.locations = locations
        self.func_name = func_name

    def to_mlir(self):
        return lower_graph(self)


def capture_training_step(model, inputs, target=None, loss="cross_entropy",
                          dropout="off", func_name="train_step"):
    """Captures ``loss(model(*inputs), target)`` and its gradients with
    respect to every parameter that requires grad. Returns a ``Capture``."""
    loss_fn = LOSSES.get(loss, loss) if isinstance(loss, str) else loss
    if not callable(loss_fn):
        raise UnsupportedError("unknown loss %r (known: %s, or a callable)" %
                               (loss, ", ".join(sorted(LOSSES))))
    if dropout not in ("off", "error"):
        raise ValueError("dropout must be 'off' or 'error'")
    inputs = _as_tuple(inputs)
    params = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
    frozen = [(n, p) for n, p in model.named_parameters()
              if not p.requires_grad]
    buffers = [(n, b) for n, b in model.named_buffers()
               if not _is_batchnorm_statistic(model, n)]
    state_names = [n for n, _ in params + frozen + buffers]
    num_params = len(params)

    def step(state, inputs, *target):
        target = target[0] if target else None
        # make_fx passes tensors that do not require grad.
        for parameter in state[:num_params]:
            parameter.requires_grad_(True)
        output = functional_call(model, dict(zip(state_names, state)),
                                 tuple(inputs))
        value = loss_fn(output, target) if target is not None else \
            loss_fn(output)
        if not isinstance(value, torch.Tensor) or value.dim() != 0:
            raise UnsupportedError("the loss must be a scalar tensor")
        grads = torch.autograd.grad(value, state[:num_params],
                                    allow_unused=True)
        grads = [torch.zeros_like(p) if g is None else g
                 for g, p in zip(grads, state[:num_params])]
        return [value] + grads

    state = [_traceable(t, "parameter '%s'" % n)
             for n, t in params + frozen + buffers]
    inputs = [_traceable(t, "input %d" % i) for i, t in enumerate(inputs)]
    args = (state, inputs) + (() if target is None else
                              (_traceable(target, "the target"),))
    locations = {}
    with _training_conventions(model, True, dropout):
        graph_module = _trace(step, args, model, locations)
    arg_names = state_names + ["input%d" % i for i in range(len(inputs))]
    if target is not None:
        arg_names.append("target")
    result_names = ["loss"] + ["grad:" + n for n, _ in params]
    return Capture(graph_module, arg_names, result_names, locations,
                   func_name)


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
    locations = {}
    with _training_conventions(model, False, "off"):
        graph_module = _trace(forward, args, model, locations)
    arg_names = state_names + ["input%d" % i for i in range(len(inputs))]
    outputs = [a for a in _flatten(next(iter(
        n for n in graph_module.graph.nodes if n.op == "output")).args)]
    return Capture(graph_module, arg_names,
                   ["output%d" % i for i in range(len(outputs))], locations,
                   func_name)


def _is_batchnorm_statistic(model, name):
    module_name, _, attr = name.rpartition(".")
    module = model.get_submodule(module_name) if module_name else model
    return isinstance(module, torch.nn.modules.batchnorm._BatchNorm) and \
        attr in ("running_mean", "running_var", "num_batches_tracked")


def _flatten(value):
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _flatten(item)
    else:
        yield value


def _check_mutations(graph, locations):
    """In-place ops are lowered out of place. That is exact when nothing
    reads the mutated tensor's old value afterwards, through any alias;
    anything else is refused."""
    nodes = list(graph.nodes)
    position = {node: i for i, node in enumerate(nodes)}
    # root[n]: the tensor whose storage n views. The pieces of a split do
    # not overlap, so each is a root of its own, whose parent is the split
    # tensor's root.
    root, parent = {}, {}
    for node in nodes:
        base = None
        if node.op == "call_function":
            packet = getattr(node.target, "overloadpacket", None)
            first = node.args[0] if node.args else None
            if node.target is operator.getitem and isinstance(
                    first, torch.fx.Node) and getattr(
                        first.target, "overloadpacket", None) in _SPLIT_OPS:
                parent[node] = root[first]
            elif (packet in _VIEW_OPS or _is_inplace(node) or
                  node.target is operator.getitem) and isinstance(
                      first, torch.fx.Node):
                base = root[first]
        root[node] = base if base is not None else node
    for node in nodes:
        if node.op != "call_function" or not _is_inplace(node):
            continue
        mutated, current = set(), root[node]
        while current is not None and current not in mutated:
            mutated.add(current)
            current = parent.get(current)
        where = locations.get(node, "")
        if any(n.op == "placeholder" for n in mutated):
            raise UnsupportedError(
                "in-place %s on a model input or parameter ('%s')" %
                (node.target, where))
        for other in nodes[:position[node]]:
            if root[other] not in mutated:
                continue
            for user in other.users:
                if position[user] > position[node] and \
                        user.target is not operator.getitem:
                    raise UnsupportedError(
                        "in-place %s in '%s' changes a tensor that is read "
                        "again afterwards through another alias (%s)" %
                        (node.target, where, user.target))


def _is_inplace(node):
    schema = getattr(node.target, "_schema", None)
    if schema is None:
        return False
    return any(a.alias_info is not None and a.alias_info.is_write
               for a in schema.arguments)


def lower_graph(capture):
    """Lowers a ``Capture`` to MLIR text."""
    graph = capture.graph_module.graph
    _check_mutations(graph, capture.locations)
    # Unused results of decompositions (e.g. batch norm's reserve) go.
    graph.eliminate_dead_code()
    low = Lowering(capture.graph_module, capture.locations)
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
            raise UnsupportedError("%s (at '%s', node %s)" % (
                error, capture.locations.get(node, "?"), node.name)) \
                from None
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
    lines.append("  func.func @%s(%s) -> (%s) {" % (capture.func_name,
                                                    signature, result_types))
    lines.extend(low.lines)
    lines.append("    return %s : %s" % (", ".join(r.name for r in results),
                                         result_types))
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def export_training_step(model, inputs, target=None, loss="cross_entropy",
                         dropout="off", func_name="train_step"):
    """Returns the training step of ``model`` as MLIR text:
    ``@train_step(params..., buffers..., inputs..., target) -> (loss,
    grads...)``. ``loss`` is ``"cross_entropy"``, ``"mse"`` or a callable
    ``loss(output, target)`` returning a scalar."""
    return lower_graph(capture_training_step(model, inputs, target, loss,
                                             dropout, func_name))


def export_inference(model, inputs, func_name="forward"):
    """Returns ``model(*inputs)`` in eval mode as MLIR text:
    ``@forward(params..., buffers..., inputs...) -> (outputs...)``."""
    return lower_graph(capture_inference(model, inputs, func_name))


def reference_training_step(model, inputs, target=None, loss="cross_entropy",
                            dropout="off"):
    """Runs the training step eagerly in PyTorch under the conventions the
    export uses; returns ``[loss, grads...]`` as numpy arrays."""
    loss_fn = LOSSES.get(loss, loss) if isinstance(loss, str) else loss
    inputs = _as_tuple(inputs)
    params = [p for _, p in model.named_parameters() if p.requires_grad]
    with _training_conventions(model, True, dropout):
        output = model(*inputs)
        value = loss_fn(output, target) if target is not None else \
            loss_fn(output)
        grads = torch.autograd.grad(value, params, allow_unused=True)
    grads = [torch.zeros_like(p) if g is None else g
             for g, p in zip(grads, params)]
    return [t.detach().numpy().copy() for t in [value] + grads]


def training_step_arguments(model, inputs, target=None):
    """The ``@train_step`` arguments for these inputs as numpy arrays, in
    signature order (parameters, frozen parameters, buffers, inputs,
    target)."""
    params = [p for _, p in model.named_parameters() if p.requires_grad]
    frozen = [p for _, p in model.named_parameters() if not p.requires_grad]
    buffers = [b for n, b in model.named_buffers()
               if not _is_batchnorm_statistic(model, n)]
    values = params + frozen + buffers + list(_as_tuple(inputs))
    if target is not None:
        values.append(target)
    return [t.detach().numpy().copy() for t in values]


def verify_training_step(model, inputs, target=None, loss="cross_entropy",
                         text=None, pipeline_options=""):
    """Exports (unless ``text`` is given), runs the step on CPU through
    ``memsched-to-cpu-pipeline`` and compares with PyTorch. Returns, per
    result, ``max |ours - torch| / max(1, max |torch|)``."""
    import numpy
    from .execute import run_with_inputs
    if text is None:
        text = export_training_step(model, inputs, target, loss)
    ours = run_with_inputs(text, training_step_arguments(model, inputs,
                                                         target),
                           pipeline_options=pipeline_options)
    expected = reference_training_step(model, inputs, target, loss)
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
