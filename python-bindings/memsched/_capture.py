"""Captures a PyTorch function as a functional graph of core ATen ops.

Three steps, all PyTorch's own machinery (the path ``aot_autograd`` takes):

1. ``make_fx`` on fake tensors records the ATen ops the function runs,
   autograd's backward included, with the module each op comes from.
2. Random ops (every op tagged ``nondeterministic_seeded``: the masks of
   dropout and stochastic depth) become inputs of the graph: the caller
   draws them (``draw_random_inputs``), so a training step is reproducible.
3. The graph is traced again through ``functorch.functionalize`` (in-place
   and aliasing ops become out-of-place: ``relu_`` -> ``relu``, a write
   through a view -> ``slice_scatter``/``as_strided_scatter``) and
   ``torch._decomp``'s decomposition tables (batch norm, softmax, losses,
   activation backwards, ``addmm``, ...), down to the small core that
   ``_aten_lowering`` lowers by hand.

Every node of the final graph knows where it came from: the module path
(``layer1.0.conv1``; ``backward:layer1.0.conv1`` for the gradient of that
module's ops), the ATen op that step 1 recorded and that op's FX node.
"""

import contextlib
import operator

import torch
from torch.fx.experimental import proxy_tensor

from ._aten_lowering import UnsupportedError
from ._functions import DECOMPOSITIONS

aten = torch.ops.aten

# Part of the core although torch._decomp decomposes them: views stay views
# (the decomposition is as_strided on strides, which loses the structure
# that tensor.extract_slice keeps), and dtype conversion (its
# decomposition is into prims).
_KEPT = {aten.slice.Tensor, aten._to_copy.default}


def decompositions():
    """The decomposition table: every ATen-to-ATen decomposition of
    ``torch._decomp`` but those of ``_KEPT``, and the negative log
    likelihood's own (any ignored class; the per-pixel loss as the loss
    over pixels). Decompositions into prims (``torch._refs``) are
    left out: they would need a second core."""
    from torch._decomp import decomposition_table
    table = {op: fn for op, fn in decomposition_table.items()
             if fn.__module__.startswith("torch._decomp") and
             op not in _KEPT}
    table[aten.nll_loss_forward.default] = _nll_loss_forward
    table[aten.nll_loss2d_forward.default] = _nll_loss2d_forward
    table[aten.nll_loss_backward.default] = _nll_loss_backward
    table[aten.nll_loss2d_backward.default] = _nll_loss_backward
    return table


class _DecomposeBeforeAutograd(torch.overrides.TorchFunctionMode):
    """Functions that the first trace runs in other ATen ops, so that
    autograd differentiates those (``_functions.DECOMPOSITIONS``)."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        decompose = DECOMPOSITIONS.get(func)
        if decompose is not None:
            decomposed = decompose(*args, **kwargs)
            if decomposed is not None:
                return decomposed
        return func(*args, **kwargs)


# aten::Reduction's values.
_NONE, _MEAN, _SUM = 0, 1, 2


def _nll_loss_forward(self, target, weight, reduction, ignore_index):
    """torch._decomp's ``nll_loss_forward`` as PyTorch's kernel computes
    it, but for an ``ignore_index`` of any sign: PyTorch 1.13's treats a
    negative one as none and gathers at it, so -100 (the default, the usual
    padding label) read out of range and counted in the mean. Ignored
    targets gather at class 0 and contribute 0, to the sum and the total
    weight alike."""
    channel_dim = 0 if self.dim() < 2 else 1
    if weight is not None:
        self = self * (weight.unsqueeze(0) if self.dim() > 1 else weight)
    kept = target != ignore_index
    safe = torch.where(kept, target, 0).unsqueeze(channel_dim)
    result = -torch.gather(self, channel_dim, safe).squeeze(channel_dim)
    result = torch.where(kept, result, 0)
    if reduction == _NONE and self.dim() > 1:
        return result, self.new_full((), 0.0)
    if weight is not None:
        expanded = weight.unsqueeze(0).expand(self.shape) \
            if self.dim() > 1 else weight
        taken = torch.gather(expanded, channel_dim, safe).squeeze(
            channel_dim)
        total_weight = torch.where(kept, taken, 0).sum()
    else:
        total_weight = kept.sum().to(self)
    if reduction == _SUM:
        result = result.sum()
    elif reduction == _MEAN:
        result = result.sum() / total_weight
    return result, total_weight


def _nll_loss_backward(grad_output, self, target, weight, reduction,
                       ignore_index, total_weight):
    """torch._decomp's ``_nll_loss_backward`` for an ``ignore_index`` of
    any sign (see ``_nll_loss_forward``); also the per-pixel loss's, whose
    class dim is 1 as well."""
    channel_dim = 0 if self.dim() < 2 else 1
    if reduction == _MEAN:
        grad_output = grad_output / total_weight
    kept = (target != ignore_index).unsqueeze(channel_dim)
    safe = torch.where(kept, target.unsqueeze(channel_dim), 0)
    grad_input = torch.scatter(torch.zeros_like(self), channel_dim, safe,
                               -1.0)
    if grad_input.dim() > grad_output.dim() > 0:
        grad_output = grad_output.unsqueeze(channel_dim)
    if weight is not None:
        shape = [1] * self.dim()
        shape[channel_dim] = weight.shape[0]
        grad_output = grad_output * weight.reshape(shape)
    grad_output = torch.where(kept, grad_output, 0)
    return grad_input * grad_output


def _nll_loss2d_forward(self, target, weight, reduction, ignore_index):
    """The per-pixel loss is the 1-D loss over every pixel
    (``_nll_loss_forward`` on (pixels, classes))."""
    flat = self.movedim(1, -1).reshape(-1, self.shape[1])
    result, total = _nll_loss_forward(flat, target.reshape(-1), weight,
                                      reduction, ignore_index)
    if reduction == _NONE:
        result = result.reshape(target.shape)
    return result, total


def _is_random(target):
    tags = getattr(target, "tags", ())
    return torch.Tag.nondeterministic_seeded in tags


# Creation ops whose values a random op overwrites or ignores: its tensor
# arguments must come from one of these (only their shape counts).
_SHAPE_ONLY = {aten.empty, aten.empty_like, aten.new_empty,
               aten.new_empty_strided, aten.empty_strided}


class RandomInput:
    """One random op turned into an input: ``op(*args)`` drawn eagerly, in
    graph order, with PyTorch's default CPU generator."""

    def __init__(self, op, args, kwargs, shape, dtype, location):
        self.op = op
        self.args = args
        self.kwargs = kwargs
        self.shape = shape
        self.dtype = dtype
        self.location = location

    def draw(self):
        def real(value):
            if isinstance(value, _Shape):
                return torch.empty(value.shape, dtype=value.dtype)
            return value
        args = [real(a) for a in self.args]
        kwargs = {k: real(v) for k, v in self.kwargs.items()}
        value = self.op(*args, **kwargs)
        return value


class _Shape:
    """A tensor argument of a random op of which only the shape counts."""

    def __init__(self, value):
        self.shape = tuple(value.shape)
        self.dtype = value.dtype


def draw_random_inputs(random_inputs, seed=0):
    """The values of a capture's random inputs: each random op runs again
    eagerly, in graph order, on PyTorch's default CPU generator seeded with
    ``seed`` (the global RNG state is restored afterwards). Running the
    model eagerly after ``torch.manual_seed(seed)`` draws the same masks."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return [r.draw() for r in random_inputs]


@contextlib.contextmanager
def replay_random(values):
    """Runs eager PyTorch with its random ops returning ``values`` (tensors,
    in the order the ops run) instead of drawing: the same masks at any
    dtype (a float64 reference of a float32 step)."""
    from torch.utils._python_dispatch import TorchDispatchMode
    pending = list(values)

    class Replay(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if not _is_random(func):
                return func(*args, **kwargs)
            if not pending:
                raise RuntimeError("more random ops than recorded values")
            value = pending.pop(0)
            if _writes_first(func):
                return args[0].copy_(value)
            like = func(*args, **kwargs)
            return value.to(like.dtype).reshape(like.shape)

    with Replay():
        yield
    if pending:
        raise RuntimeError("%d recorded random values were not used" %
                           len(pending))


def _writes_first(func):
    arguments = func._schema.arguments
    return bool(arguments) and arguments[0].alias_info is not None and \
        arguments[0].alias_info.is_write


@contextlib.contextmanager
def _patched_create_node(on_create):
    original = proxy_tensor.PythonKeyTracer.create_node

    def create_node(self, *args, **kwargs):
        node = original(self, *args, **kwargs)
        on_create(node)
        return node

    proxy_tensor.PythonKeyTracer.create_node = create_node
    try:
        yield
    finally:
        proxy_tensor.PythonKeyTracer.create_node = original


@contextlib.contextmanager
def _module_locations(roots, locations):
    """Records, for every FX node created while a submodule's forward runs,
    the submodule's qualified name; for nodes that autograd creates, the
    module whose forward op they differentiate (``backward:name``)."""
    stack = []
    backward = []
    handles = []
    labelled = set()

    def label_backward(outputs, label):
        # After a module's forward: every autograd node that no inner
        # module claimed belongs to this module.
        pending = [t.grad_fn for t in _tensors(outputs)
                   if t.grad_fn is not None]
        while pending:
            function = pending.pop()
            if function is None or function in labelled:
                continue
            labelled.add(function)
            function.register_prehook(
                lambda grads, label=label: backward.append(label) and None)
            function.register_hook(
                lambda inputs, outputs: backward.pop() and None)
            pending.extend(f for f, _ in function.next_functions)

    modules = [(prefix + name if name else prefix or type(root).__name__,
                module) for prefix, root in roots
               for name, module in root.named_modules()]
    for label, module in modules:
        # Hooks must return None, or they would replace inputs or outputs.
        handles.append(module.register_forward_pre_hook(
            lambda m, i, label=label: stack.append(label) and None))

        def post_hook(m, i, o, label=label):
            stack.pop()
            label_backward(o, label)
        handles.append(module.register_forward_hook(post_hook))

    def on_create(node):
        if stack:
            locations[node] = stack[-1]
        elif backward:
            locations[node] = "backward:" + backward[-1]
        else:
            locations[node] = "backward"

    try:
        with _patched_create_node(on_create):
            yield
    finally:
        for handle in handles:
            handle.remove()


def _tensors(value):
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _tensors(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _tensors(item)
    elif hasattr(value, "_fields"):  # torchvision's named-tuple outputs
        for item in value:
            yield from _tensors(item)


def _plain_tensor_attributes(roots):
    """``module.path.name`` of each tensor a module of ``roots`` holds as a
    plain attribute (neither parameter nor buffer)."""
    found = []
    for prefix, root in roots:
        if not isinstance(root, torch.nn.Module):
            continue
        for path, module in root.named_modules(prefix=prefix):
            for name, value in vars(module).items():
                if isinstance(value, torch.Tensor):
                    found.append("%s.%s" % (path, name) if path else name)
    return found


def _tracing_error(error, roots=()):
    text = str(error)
    name = type(error).__name__
    first = text.splitlines()[0] if text else ""
    if "non-Fake Tensor inputs" in text:
        # The trace runs on fake tensors; a real one can only come from
        # outside the traced arguments.
        held = _plain_tensor_attributes(roots)
        where = ("a module holds a tensor as a plain attribute (%s): "
                 "register it with register_buffer, or make it in forward"
                 % ", ".join("'%s'" % h for h in held[:3])) if held else \
            "the step reads a tensor made outside it (a global or a " \
            "closure's): make it in forward, or hold it as a buffer"
        return UnsupportedError("tracing failed: %s (%s)" % (where, first))
    if "DataDependent" in name or "data-dependent" in text or \
            "_local_scalar_dense" in text or "item()" in text:
        return UnsupportedError(
            "data-dependent control flow or values in the model (%s: %s); "
            "memsched.torch captures one static graph" % (name, first))
    return UnsupportedError("tracing failed: %s: %s" % (name, first))


def _where(locations, node):
    return locations.get(node, "?")


# ATen ops that return (a view of) their first argument.
_VIEW_OPS = {
    aten.view, aten._reshape_alias, aten._unsafe_view, aten.alias,
    aten.detach, aten.t, aten.transpose, aten.permute, aten.expand,
    aten.slice, aten.select, aten.squeeze, aten.unsqueeze, aten.as_strided,
    aten.diagonal, aten.unfold, aten.view_as_real, aten.view_as_complex,
}


def _writes(node):
    return hasattr(node.target, "_schema") and _writes_first(node.target)


def _check_input_writes(graph, locations, arg_names):
    """The exported function has no side effects: an in-place op on a model
    input, parameter or buffer (or a view of one) is refused."""
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    root = {n: n for n in placeholders}
    for node in graph.nodes:
        if node.op != "call_function" or not node.args or \
                not isinstance(node.args[0], torch.fx.Node):
            continue
        first = node.args[0]
        packet = getattr(node.target, "overloadpacket", None)
        if packet in _VIEW_OPS or node.target is operator.getitem or \
                _writes(node):
            if first in root:
                root[node] = root[first]
        if _writes(node) and first in root and not _is_random(node.target):
            index = placeholders.index(root[first])
            raise UnsupportedError(
                "in-place %s on a model input or parameter ('%s' writes "
                "'%s')" % (node.target, _where(locations, node),
                           arg_names[index] if index < len(arg_names)
                           else "argument %d" % index))


def _extract_random_ops(graph_module, locations):
    """Replaces every random op by a new placeholder; returns the
    ``RandomInput``s in graph order."""
    graph = graph_module.graph
    nodes = list(graph.nodes)
    position = {n: i for i, n in enumerate(nodes)}
    last_placeholder = [n for n in nodes if n.op == "placeholder"][-1]
    randoms = []
    for node in nodes:
        if node.op != "call_function" or not _is_random(node.target):
            continue
        where = _where(locations, node)
        value = node.meta.get("val")
        if not isinstance(value, torch.Tensor):
            raise UnsupportedError("random op %s in '%s' returns no tensor"
                                   % (node.target, where))

        def argument(arg):
            if not isinstance(arg, torch.fx.Node):
                return arg
            source = arg
            while getattr(source.target, "overloadpacket", None) in (
                    aten.detach, aten.alias, aten.lift_fresh) and \
                    isinstance(source.args[0], torch.fx.Node):
                source = source.args[0]
            creator = getattr(source.target, "overloadpacket", None)
            if creator not in _SHAPE_ONLY and \
                    not str(node.target).split(".")[1].endswith("_like"):
                raise UnsupportedError(
                    "random op %s in '%s' reads computed values (only "
                    "random ops on fresh tensors become inputs)" %
                    (node.target, where))
            return _Shape(arg.meta["val"])
        args = [argument(a) for a in node.args]
        kwargs = {k: argument(v) for k, v in node.kwargs.items()}
        with graph.inserting_after(last_placeholder):
            placeholder = graph.placeholder("random%d" % len(randoms))
        placeholder.meta["val"] = value
        last_placeholder = placeholder
        locations[placeholder] = where
        # An in-place random op overwrote its first argument: later reads
        # of that tensor read the mask.
        if _writes(node):
            first = node.args[0]
            for user in list(first.users):
                if user is not node and position.get(user, -1) > \
                        position[node]:
                    user.replace_input_with(first, placeholder)
        node.replace_all_uses_with(placeholder)
        graph.erase_node(node)
        randoms.append(RandomInput(node.target, args, kwargs,
                                   tuple(value.shape), value.dtype, where))
    graph.lint()
    graph_module.recompile()
    return randoms


_META_LIBRARY = []


def _register_missing_meta_kernels():
    """PyTorch 1.13 has no meta kernel for convolution_backward, so fake
    tensors would run the real kernel on zeros (seconds per convolution at
    training sizes). Its results have the shapes of its inputs."""
    if _META_LIBRARY or torch._C._dispatch_has_kernel_for_dispatch_key(
            "aten::convolution_backward", "Meta"):
        return

    def convolution_backward(grad, input, weight, bias_sizes, stride,
                             padding, dilation, transposed, output_padding,
                             groups, output_mask):
        return (input.new_empty(input.shape) if output_mask[0] else None,
                weight.new_empty(weight.shape) if output_mask[1] else None,
                grad.new_empty(bias_sizes) if output_mask[2] else None)

    library = torch.library.Library("aten", "IMPL", "Meta")
    library.impl("convolution_backward", convolution_backward)
    _META_LIBRARY.append(library)


class _Origins(torch.fx.Interpreter):
    """Runs the first graph while recording which of its nodes is being
    run, so that the nodes the second trace creates inherit its origin."""

    def __init__(self, graph_module, current):
        super().__init__(graph_module)
        self.current = current

    def run_node(self, node):
        self.current[0] = node
        try:
            return super().run_node(node)
        finally:
            self.current[0] = None


def capture(function, args, roots, arg_names, random="inputs"):
    """Captures ``function(*args)``; ``roots``: ``(prefix, module)``
    pairs whose submodules name the nodes their forward creates. Returns
    ``(graph_module, origins, random_inputs)``: ``origins[node]`` is
    ``(module path, ATen op, FX node name)`` of the first trace's op that
    produced ``node``.

    ``random``: ``"inputs"`` turns random ops into inputs (appended after
    ``args``'s tensors); ``"error"`` refuses them."""
    from functorch import functionalize
    _register_missing_meta_kernels()
    first_locations = {}
    try:
        with _module_locations(roots, first_locations), \
                _DecomposeBeforeAutograd():
            first = proxy_tensor.make_fx(function, tracing_mode="fake")(*args)
    except UnsupportedError:
        raise
    except Exception as error:  # torch raises many types while tracing.
        raise _tracing_error(error, roots) from error
    # Flat arguments, so that random inputs can be appended.
    first.graph._codegen = torch.fx.graph.CodeGen()
    first.recompile()
    _check_input_writes(first.graph, first_locations, arg_names)
    for node in first.graph.nodes:
        if node.op == "call_function" and _is_random(node.target) and \
                random == "error":
            raise UnsupportedError(
                "random op %s in '%s' (export with random masks as inputs "
                "instead)" % (node.target, _where(first_locations, node)))
    randoms = _extract_random_ops(first, first_locations)
    flat = [n for n in first.graph.nodes if n.op == "placeholder"]
    values = [n.meta["val"] for n in flat]
    real = [torch.empty(v.shape, dtype=v.dtype) if isinstance(
        v, torch.Tensor) else v for v in values]

    current = [None]
    origins = {}

    def on_create(node):
        source = current[0]
        if source is not None:
            origins[node] = (_where(first_locations, source),
                             str(source.target), source.name)

    def run(*flat_args):
        return _Origins(first, current).run(*flat_args)

    try:
        with _patched_create_node(on_create):
            second = proxy_tensor.make_fx(
                functionalize(run, remove="mutations"),
                decomposition_table=decompositions(),
                tracing_mode="fake")(*real)
    except UnsupportedError:
        raise
    except Exception as error:
        raise _tracing_error(error, roots) from error
    second.graph.eliminate_dead_code()
    _split_convolution_backward(second.graph, origins)
    second.recompile()
    return second, origins, randoms


def _split_convolution_backward(graph, origins):
    """Splits each convolution backward that computes the input's gradient
    and the weight's (or bias's) into two calls, one per part, as their
    ``output_mask`` allows: the two parts read different operands (the
    weight; the forward input) and a plan may run them apart, so that an
    ATen op never needs both at once where memsched's ops do not."""
    target = aten.convolution_backward.default
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target is not target:
            continue
        mask = list(node.args[10])
        if not mask[0] or not (mask[1] or mask[2]) or any(
                user.target is not operator.getitem for user in node.users):
            continue
        value = node.meta.get("val")
        parts = []
        with graph.inserting_before(node):
            for part_mask in ([True, False, False],
                              [False, mask[1], mask[2]]):
                part = graph.call_function(
                    target, tuple(node.args[:10]) + (part_mask,),
                    dict(node.kwargs))
                if isinstance(value, (tuple, list)):
                    part.meta["val"] = tuple(
                        v if keep else None
                        for v, keep in zip(value, part_mask))
                if node in origins:
                    origins[part] = origins[node]
                parts.append(part)
        for user in list(node.users):
            user.replace_input_with(node, parts[0 if user.args[1] == 0
                                                else 1])
        graph.erase_node(node)
