"""Lowers a functional FX graph of core ATen ops (``_capture``) to linalg
on tensors.

Every FX node becomes upstream MLIR in graph order, so the emitted function
keeps the captured (eager) op order. The graph is functionalized and
decomposed by PyTorch beforehand, so only the core that torch._decomp does
not decompose has a handler here. Tensors are values: views (reshape,
slice, transpose, expand) produce new SSA values.

Transposes and broadcasts stay lazy: an elementwise op, reduction or matmul
that reads one folds the index map into its own indexing map, so such views
cost no memory, as in PyTorch; any other consumer materialises them.
"""

import math
import operator
import struct

import numpy

import torch

aten = torch.ops.aten

_DTYPES = {
    torch.float32: "f32",
    torch.bfloat16: "bf16",
    torch.float16: "f16",
    torch.int64: "i64",
    torch.int32: "i32",
    torch.bool: "i1",
}


class UnsupportedError(Exception):
    """A model, op, argument or dtype that memsched.torch cannot lower."""


def mlir_dtype(dtype, where):
    if dtype not in _DTYPES:
        raise UnsupportedError(
            "unsupported dtype %s %s (memsched.torch lowers float32, "
            "bfloat16 and float16 tensors, int64/int32 indices and bool "
            "masks)" % (dtype, where))
    return _DTYPES[dtype]


_FLOAT_WIDTHS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


def _is_float(dtype):
    return dtype in _FLOAT_WIDTHS


def _tensor_type(shape, dtype):
    return "tensor<%s>" % "x".join([str(s) for s in shape] + [dtype])


def _affine_map(num_dims, exprs):
    dims = ", ".join("d%d" % i for i in range(num_dims))
    return "affine_map<(%s) -> (%s)>" % (dims, ", ".join(exprs))


def _float_literal(value, dtype="f32"):
    if dtype == "f16":
        bits = struct.unpack("<H", struct.pack("<e", float(value)))[0]
        return "0x%04X" % bits
    if dtype == "bf16":
        # Round to nearest even from the float32 bits (infinities and NaN
        # keep their top half).
        bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]
        if (bits & 0x7F800000) != 0x7F800000:
            bits += 0x7FFF + ((bits >> 16) & 1)
        return "0x%04X" % ((bits >> 16) & 0xFFFF)
    if dtype == "f32":
        bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]
        return "0x%08X" % bits
    bits = struct.unpack("<Q", struct.pack("<d", float(value)))[0]
    return "0x%016X" % bits


class Tensor:
    """A lowered tensor: SSA value ``name`` of shape ``source_shape``, seen
    through an optional lazy view. ``view[k]`` tells which logical dim reads
    source dim ``k`` (None: the source dim has size 1 and is broadcast)."""

    def __init__(self, name, shape, dtype, source_shape=None, view=None):
        self.name = name
        self.shape = tuple(shape)
        self.dtype = dtype
        self.source_shape = tuple(source_shape if source_shape is not None
                                  else shape)
        self.view = view
        self.materialized = None

    @property
    def type(self):
        return _tensor_type(self.source_shape, self.dtype)

    def numel(self):
        return math.prod(self.shape)


class Body:
    """Builds the payload region of a linalg.generic."""

    def __init__(self, lowering):
        self.lowering = lowering
        self.lines = []

    def emit(self, text):
        name = self.lowering.fresh("v")
        self.lines.append("%s = %s" % (name, text))
        return name

    def const(self, value, dtype):
        if _is_float(dtype):
            return self.emit("arith.constant %s : %s" %
                             (_float_literal(value, dtype), dtype))
        if dtype == "i1":
            return self.emit("arith.constant %s" %
                             ("true" if value else "false"))
        if dtype == "index":
            return self.emit("arith.constant %d : index" % int(value))
        return self.emit("arith.constant %d : %s" % (int(value), dtype))

    def cast(self, value, from_dtype, to_dtype):
        if from_dtype == to_dtype:
            return value
        if _is_float(to_dtype):
            if from_dtype == "i1":
                return self.emit("arith.uitofp %s : i1 to %s" %
                                 (value, to_dtype))
            if _is_float(from_dtype):
                op = "arith.extf" if _FLOAT_WIDTHS[to_dtype] > \
                    _FLOAT_WIDTHS[from_dtype] else "arith.truncf"
                if _FLOAT_WIDTHS[to_dtype] == _FLOAT_WIDTHS[from_dtype]:
                    # bf16 <-> f16: through f32.
                    value = self.cast(value, from_dtype, "f32")
                    return self.cast(value, "f32", to_dtype)
                return self.emit("%s %s : %s to %s" %
                                 (op, value, from_dtype, to_dtype))
            return self.emit("arith.sitofp %s : %s to %s" %
                             (value, from_dtype, to_dtype))
        if to_dtype == "i1":
            zero = self.const(0, from_dtype)
            if _is_float(from_dtype):
                return self.emit("arith.cmpf une, %s, %s : %s" %
                                 (value, zero, from_dtype))
            return self.emit("arith.cmpi ne, %s, %s : %s" %
                             (value, zero, from_dtype))
        if _is_float(from_dtype):
            return self.emit("arith.fptosi %s : %s to %s" %
                             (value, from_dtype, to_dtype))
        widths = {"i1": 1, "i32": 32, "i64": 64}
        if widths[from_dtype] < widths[to_dtype]:
            op = "arith.extui" if from_dtype == "i1" else "arith.extsi"
            return self.emit("%s %s : %s to %s" % (op, value, from_dtype,
                                                  to_dtype))
        return self.emit("arith.trunci %s : %s to %s" % (value, from_dtype,
                                                        to_dtype))

    def index(self, dim):
        return self.emit("linalg.index %d : index" % dim)

    def binary(self, float_op, int_op, a, b, dtype):
        op = float_op if _is_float(dtype) else int_op
        if op is None:
            raise UnsupportedError("operation not defined on %s" % dtype)
        return self.emit("%s %s, %s : %s" % (op, a, b, dtype))

    def compare(self, predicate, a, b, dtype):
        if _is_float(dtype):
            fp = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole",
                  "gt": "ogt", "ge": "oge"}[predicate]
            return self.emit("arith.cmpf %s, %s, %s : %s" % (fp, a, b, dtype))
        ip = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt",
              "ge": "sge"}[predicate]
        return self.emit("arith.cmpi %s, %s, %s : %s" % (ip, a, b, dtype))

    def select(self, condition, a, b, dtype):
        return self.emit("arith.select %s, %s, %s : %s" % (condition, a, b,
                                                          dtype))

    def math(self, name, a, dtype):
        return self.emit("math.%s %s : %s" % (name, a, dtype))


def _broadcast_shape(shapes):
    rank = max((len(s) for s in shapes), default=0)
    out = [1] * rank
    for shape in shapes:
        for i, size in enumerate(shape):
            j = rank - len(shape) + i
            if size != 1:
                out[j] = size
    return tuple(out)


class Lowering:
    """Emits the body of one func.func from an FX graph."""

    def __init__(self, graph_module, location, aten_operands=False):
        self.graph_module = graph_module
        self.location = location
        # Model the operands an ATen kernel holds that the lowering does
        # not read (_ATEN_HOLDS): for plans run back in PyTorch.
        self.aten_operands = aten_operands
        self.lines = []
        self.counter = 0
        self.env = {}
        self.node = None

    # ----------------------------------------------------------- utilities
    def fresh(self, prefix="t"):
        self.counter += 1
        return "%%%s%d" % (prefix, self.counter)

    def loc(self):
        """``loc("module.path:aten.op:fx_node")``: the module the op comes
        from, the ATen op and the FX node of the captured graph."""
        if self.node is None:
            return ""
        label = "%s:%s:%s" % (self.location(self.node), self.node.target,
                              self.node.name)
        return ' loc("%s")' % label.replace("\\", "/").replace('"', "'")

    def emit(self, text):
        """Emits one op; every op, constants and empty tensors included,
        carries the location of the node it lowers."""
        name = self.fresh()
        self.lines.append("    %s = %s%s" % (name, text, self.loc()))
        return name

    def meta(self, node=None, index=None):
        """(shape, dtype) of ``node`` (or its ``index``-th output)."""
        node = node or self.node
        if index is None:
            value = node.meta.get("val")
            if isinstance(value, torch.Tensor):
                return tuple(value.shape), mlir_dtype(
                    value.dtype, "produced by %s" % node.target)
            raise UnsupportedError("no shape recorded for %s" % node.target)
        for user in node.users:
            if user.target is operator.getitem and user.args[1] == index:
                return self.meta(user)
        return None

    def const_scalar(self, value, dtype):
        if _is_float(dtype):
            return self.emit("arith.constant %s : %s" %
                             (_float_literal(value, dtype), dtype))
        if dtype == "i1":
            return self.emit("arith.constant %s" %
                             ("true" if value else "false"))
        return self.emit("arith.constant %d : %s" % (int(value), dtype))

    def empty(self, shape, dtype):
        return self.emit("tensor.empty() : %s" % _tensor_type(shape, dtype))

    def filled(self, shape, dtype, value):
        init = self.empty(shape, dtype)
        scalar = self.const_scalar(value, dtype)
        ttype = _tensor_type(shape, dtype)
        name = self.emit("linalg.fill ins(%s : %s) outs(%s : %s) -> %s" %
                         (scalar, dtype, init, ttype, ttype))
        return Tensor(name, shape, dtype)

    def input_map(self, tensor, num_loops, logical_exprs):
        """Indexing map text reading ``tensor`` whose logical dim i is
        indexed by ``logical_exprs[i]`` (an affine expression string)."""
        if tensor.view is None:
            exprs = list(logical_exprs)
        else:
            exprs = ["0" if d is None else logical_exprs[d]
                     for d in tensor.view]
        return _affine_map(num_loops, exprs)

    def window(self, sizes):
        """An empty tensor whose only use is to give linalg the extents of
        window loops that appear only inside compound index expressions (as
        the window operand of linalg's pooling ops)."""
        return Tensor(self.empty(sizes, "f32"), sizes, "f32")

    def materialize(self, tensor):
        """A copy of a lazy view in its logical layout, made once per view
        (every later consumer of the same view reads the copy)."""
        if tensor.view is None:
            return tensor
        if tensor.materialized is None:
            rank = len(tensor.shape)
            exprs = ["d%d" % i for i in range(rank)]
            tensor.materialized = self.generic(
                tensor.shape, tensor.dtype, [tensor], [exprs],
                ["parallel"] * rank, Body(self), lambda b, args: args[0])
        return tensor.materialized

    def generic(self, out_shape, out_dtype, inputs, input_exprs, iterators,
                body, compute, out_exprs=None, init=None, attrs=""):
        """Emits a single-result linalg.generic. ``inputs`` are Tensors read
        with logical index expressions ``input_exprs``; ``compute(body,
        args)`` returns the yielded SSA name (``args`` are the block
        arguments, the output's last). ``init`` is a Tensor to accumulate
        into (default: an empty tensor that the payload does not read)."""
        num_loops = len(iterators)
        if out_exprs is None:
            out_exprs = ["d%d" % i for i in range(len(out_shape))]
        maps = [self.input_map(t, num_loops, e)
                for t, e in zip(inputs, input_exprs)]
        maps.append(_affine_map(num_loops, out_exprs))
        if init is None:
            init = Tensor(self.empty(out_shape, out_dtype), out_shape,
                          out_dtype)
        args = [self.fresh("a") for _ in inputs] + [self.fresh("a")]
        result = compute(body, args)
        out_type = _tensor_type(out_shape, out_dtype)
        header = ("linalg.generic {indexing_maps = [%s], iterator_types = "
                  "[%s]%s}" % (", ".join(maps),
                              ", ".join('"%s"' % i for i in iterators),
                              attrs))
        ins = ""
        if inputs:
            ins = " ins(%s : %s)" % (", ".join(t.name for t in inputs),
                                     ", ".join(t.type for t in inputs))
        block_args = ", ".join(
            "%s: %s" % (a, t.dtype) for a, t in zip(args, inputs + [init]))
        text = "%s%s outs(%s : %s) {\n    ^bb0(%s):\n" % (
            header, ins, init.name, out_type, block_args)
        text += "".join("      %s\n" % line for line in body.lines)
        text += "      linalg.yield %s : %s\n    } -> %s" % (result, out_dtype,
                                                            out_type)
        return Tensor(self.emit(text), out_shape, out_dtype)

    def elementwise(self, out_shape, out_dtype, operands, compute,
                    operand_dtype=None):
        """``operands``: Tensors or Python scalars, broadcast numpy-style to
        ``out_shape``. ``compute(body, values)`` gets one SSA value per
        operand, converted to ``operand_dtype`` (default ``out_dtype``; a
        list gives one dtype per operand)."""
        if not isinstance(operand_dtype, list):
            operand_dtype = [operand_dtype or out_dtype] * len(operands)
        rank = len(out_shape)
        body = Body(self)
        tensors, exprs = [], []
        for operand in operands:
            if isinstance(operand, Tensor):
                tensors.append(operand)
                offset = rank - len(operand.shape)
                exprs.append([
                    "0" if size == 1 and out_shape[offset + i] != 1 else
                    "d%d" % (offset + i) for i, size in enumerate(operand.shape)
                ])

        def build(b, args):
            values, position = [], 0
            for operand, dtype in zip(operands, operand_dtype):
                if isinstance(operand, Tensor):
                    values.append(b.cast(args[position], operand.dtype,
                                         dtype))
                    position += 1
                else:
                    values.append(b.const(operand, dtype))
            return compute(b, values)

        return self.generic(out_shape, out_dtype, tensors, exprs,
                            ["parallel"] * rank, body, build)

    def reduce(self, tensor, dims, keepdim, init_value, combine, dtype=None,
               finish=None):
        """Reduces ``tensor`` over ``dims`` with ``combine(body, acc, x)``;
        ``finish(body, value)`` maps each element first."""
        dtype = dtype or tensor.dtype
        rank = len(tensor.shape)
        dims = sorted(set(d % rank for d in dims)) if rank else []
        kept = [d for d in range(rank) if d not in dims]
        # Reduction loops innermost, in order: the sum order of a loop nest.
        loops = kept + dims
        position = {d: i for i, d in enumerate(loops)}
        in_exprs = ["d%d" % position[d] for d in range(rank)]
        out_shape = tuple(tensor.shape[d] for d in kept)
        out_exprs = ["d%d" % position[d] for d in kept]
        iterators = ["parallel"] * len(kept) + ["reduction"] * len(dims)
        init = self.filled(out_shape, dtype, init_value)
        body = Body(self)

        def build(b, args):
            value = b.cast(args[0], tensor.dtype, dtype)
            if finish:
                value = finish(b, value)
            return combine(b, args[1], value)

        result = self.generic(out_shape, dtype, [tensor], [in_exprs],
                              iterators, body, build, out_exprs=out_exprs,
                              init=init)
        if keepdim:
            result = self.reshape(result, tuple(
                1 if d in dims else tensor.shape[d] for d in range(rank)))
        return result

    # ----------------------------------------------------------- shapes
    def reshape(self, tensor, shape):
        shape = tuple(shape)
        tensor = self.materialize(tensor)
        if shape == tensor.shape:
            return tensor
        src = tensor.shape
        groups = _reassociation(src, shape)
        if groups is not None and len(src) > len(shape):
            name = self.emit("tensor.collapse_shape %s [%s] : %s into %s" % (
                tensor.name, ", ".join("[%s]" % ", ".join(map(str, g))
                                       for g in groups), tensor.type,
                _tensor_type(shape, tensor.dtype)))
            return Tensor(name, shape, tensor.dtype)
        if groups is not None and len(src) < len(shape):
            name = self.emit(
                "tensor.expand_shape %s [%s] output_shape [%s] : %s into %s" %
                (tensor.name, ", ".join("[%s]" % ", ".join(map(str, g))
                                        for g in groups),
                 ", ".join(map(str, shape)), tensor.type,
                 _tensor_type(shape, tensor.dtype)))
            return Tensor(name, shape, tensor.dtype)
        flat = self.reshape(tensor, (tensor.numel(),))
        return self.reshape(flat, shape)

    def permute(self, tensor, perm):
        """Lazy: result dim i reads dim perm[i]."""
        rank = len(tensor.shape)
        perm = [p % rank for p in perm]
        shape = tuple(tensor.shape[p] for p in perm)
        inverse = {p: i for i, p in enumerate(perm)}
        base_view = tensor.view if tensor.view is not None else list(
            range(rank))
        view = [None if d is None else inverse[d] for d in base_view]
        return Tensor(tensor.name, shape, tensor.dtype, tensor.source_shape,
                      view)

    def expand(self, tensor, shape):
        """Lazy broadcast of ``tensor`` to ``shape`` (-1 keeps a size)."""
        rank = len(shape)
        offset = rank - len(tensor.shape)
        shape = tuple(tensor.shape[i - offset] if s == -1 else s
                      for i, s in enumerate(shape))
        base_view = tensor.view if tensor.view is not None else list(
            range(len(tensor.shape)))
        view = []
        for d in base_view:
            if d is None or (tensor.shape[d] == 1 and shape[d + offset] != 1):
                view.append(None)
            else:
                view.append(d + offset)
        return Tensor(tensor.name, shape, tensor.dtype, tensor.source_shape,
                      view)

    def extract_slice(self, tensor, offsets, sizes, strides, out_shape):
        tensor = self.materialize(tensor)
        name = self.emit(
            "tensor.extract_slice %s[%s] [%s] [%s] : %s to %s" %
            (tensor.name, ", ".join(map(str, offsets)),
             ", ".join(map(str, sizes)), ", ".join(map(str, strides)),
             tensor.type, _tensor_type(out_shape, tensor.dtype)))
        return Tensor(name, out_shape, tensor.dtype)

    def insert_slice(self, source, dest, offsets, sizes, strides):
        source = self.materialize(source)
        dest = self.materialize(dest)
        if len(source.shape) != len(sizes):
            source = self.reshape(source, sizes)
        name = self.emit(
            "tensor.insert_slice %s into %s[%s] [%s] [%s] : %s into %s" %
            (source.name, dest.name, ", ".join(map(str, offsets)),
             ", ".join(map(str, sizes)), ", ".join(map(str, strides)),
             source.type, dest.type))
        return Tensor(name, dest.shape, dest.dtype)

    def pad(self, tensor, low, high, value):
        tensor = self.materialize(tensor)
        if not any(low) and not any(high):
            return tensor
        shape = tuple(s + lo + hi for s, lo, hi in
                      zip(tensor.shape, low, high))
        scalar = self.const_scalar(value, tensor.dtype)
        indices = ", ".join("%s: index" % self.fresh("i")
                            for _ in tensor.shape)
        name = self.emit(
            "tensor.pad %s low[%s] high[%s] {\n    ^bb0(%s):\n"
            "      tensor.yield %s : %s\n    } : %s to %s" %
            (tensor.name, ", ".join(map(str, low)), ", ".join(map(str, high)),
             indices, scalar, tensor.dtype, tensor.type,
             _tensor_type(shape, tensor.dtype)))
        return Tensor(name, shape, tensor.dtype)

    def cast_tensor(self, tensor, dtype):
        if tensor.dtype == dtype:
            return tensor
        return self.elementwise(tensor.shape, dtype, [tensor],
                                lambda b, v: v[0], operand_dtype=dtype)

    # ----------------------------------------------------------- driver
    def value(self, arg):
        if isinstance(arg, torch.fx.Node):
            return self.env[arg]
        if isinstance(arg, (list, tuple)):
            return [self.value(a) for a in arg]
        return arg

    def lower_node(self, node):
        self.node = node
        if node.op == "get_attr":
            self.env[node] = self.lower_constant(
                getattr(self.graph_module, node.target))
            return
        target = node.target
        if target is operator.getitem:
            self.env[node] = self.env[node.args[0]][node.args[1]]
            return
        handler = _HANDLERS.get(target)
        if handler is None:
            handler = _HANDLERS.get(getattr(target, "overloadpacket", None))
        if handler is None:
            raise UnsupportedError("unsupported operation %s" % target)
        args = [self.value(a) for a in node.args]
        kwargs = {k: self.value(v) for k, v in node.kwargs.items()}
        results = handler(self, *args, **kwargs)
        held = _ATEN_HOLDS.get(target)
        if self.aten_operands and held:
            operands = [args[i] for i in held(*node.args)
                        if hasattr(args[i], "name")]
            results = [self.holding(r, operands) if hasattr(r, "name") else r
                       for r in results] if isinstance(results, list) \
                else self.holding(results, operands)
        self.env[node] = results

    def holding(self, result, operands):
        """``result`` again, through an op that also reads ``operands``: an
        ATen kernel that holds them until its result is made is modelled
        as holding them (``aten_operands``)."""
        rank = len(result.shape)
        exprs = ["d%d" % i for i in range(rank)]
        return self.generic(
            result.shape, result.dtype, [result] + operands,
            [exprs] + [["0"] * len(o.shape) for o in operands],
            ["parallel"] * rank, Body(self), lambda b, a: a[0])

    def lower_constant(self, value):
        if not isinstance(value, torch.Tensor):
            raise UnsupportedError("constant of type %s" % type(value))
        if value.numel() > 4096:
            raise UnsupportedError(
                "a constant tensor of %d elements captured in the model; "
                "pass it as a parameter or buffer instead" % value.numel())
        dtype = mlir_dtype(value.dtype, "of a constant")
        shape = tuple(value.shape)
        flat = value.detach().reshape(-1).tolist()
        if _is_float(dtype):
            elements = ", ".join(_float_literal(v, dtype) for v in flat)
        elif dtype == "i1":
            elements = ", ".join("true" if v else "false" for v in flat)
        else:
            elements = ", ".join(str(int(v)) for v in flat)
        ttype = _tensor_type(shape, dtype)
        if shape:
            name = self.emit("arith.constant dense<[%s]> : %s" % (
                elements, _tensor_type((len(flat),), dtype)))
            return self.reshape(Tensor(name, (len(flat),), dtype), shape)
        return Tensor(self.emit("arith.constant dense<%s> : %s" %
                                (elements, ttype)), shape, dtype)


def _reassociation(src, dst):
    """Groups of the longer shape's dims, one group per dim of the shorter
    shape, with equal products; None if there are none."""
    longer, shorter = (src, dst) if len(src) >= len(dst) else (dst, src)
    if len(longer) == len(shorter) or 0 in longer:
        return None
    if not shorter:
        return [] if all(s == 1 for s in longer) else None
    groups, i = [], 0
    for size in shorter:
        group, product = [], 1
        while i < len(longer):
            group.append(i)
            product *= longer[i]
            i += 1
            if product >= size:
                break
        if product != size:
            return None
        groups.append(group)
    while i < len(longer):
        if longer[i] != 1:
            return None
        groups[-1].append(i)
        i += 1
    return groups


# --------------------------------------------------------------- handlers
_HANDLERS = {}


# ATen ops that are pointwise: each result element depends on the operand
# elements at its own index alone (lowered to one elementwise linalg op), so
# their out= form may write over an operand of the result's shape
# (memsched.torch.fit applies memsched's in-place decisions with it).
POINTWISE = set()


def _pointwise(*ops):
    POINTWISE.update(ops)
    return _handles(*ops)


def _handles(*ops):
    def register(function):
        for op in ops:
            _HANDLERS[op] = function
        return function
    return register


def _out(low):
    return low.meta()


def _unary(compute, float_only=True):
    def handler(low, x, *args, **kwargs):
        shape, dtype = _out(low)
        return low.elementwise(shape, dtype, [x],
                               lambda b, v: compute(b, v[0], dtype, *args,
                                                    **kwargs))
    return handler


def _relu(b, x, dtype):
    zero = b.const(0, dtype)
    return b.binary("arith.maximumf", "arith.maxsi", x, zero, dtype)


def _sigmoid(b, x, dtype):
    one = b.const(1.0, dtype)
    e = b.math("exp", b.emit("arith.negf %s : %s" % (x, dtype)), dtype)
    return b.emit("arith.divf %s, %s : %s" % (
        one, b.emit("arith.addf %s, %s : %s" % (one, e, dtype)), dtype))


def _hardtanh(b, x, dtype, low=-1.0, high=1.0):
    lo = b.const(low, dtype)
    hi = b.const(high, dtype)
    return b.emit("arith.minimumf %s, %s : %s" % (
        b.emit("arith.maximumf %s, %s : %s" % (x, lo, dtype)), hi, dtype))


def _gelu(b, x, dtype, approximate="none"):
    half = b.const(0.5, dtype)
    one = b.const(1.0, dtype)
    if approximate == "tanh":
        inner = b.emit("arith.mulf %s, %s : %s" % (x, b.emit(
            "arith.mulf %s, %s : %s" % (x, x, dtype)), dtype))
        inner = b.emit("arith.addf %s, %s : %s" % (x, b.emit(
            "arith.mulf %s, %s : %s" % (b.const(0.044715, dtype), inner,
                                        dtype)), dtype))
        inner = b.emit("arith.mulf %s, %s : %s" % (
            b.const(math.sqrt(2.0 / math.pi), dtype), inner, dtype))
        t = b.math("tanh", inner, dtype)
    else:
        scaled = b.emit("arith.mulf %s, %s : %s" % (
            x, b.const(1.0 / math.sqrt(2.0), dtype), dtype))
        t = b.math("erf", scaled, dtype)
    return b.emit("arith.mulf %s, %s : %s" % (
        b.emit("arith.mulf %s, %s : %s" % (x, half, dtype)),
        b.emit("arith.addf %s, %s : %s" % (one, t, dtype)), dtype))


def _clamp(b, x, dtype, low=None, high=None):
    if low is not None:
        x = b.binary("arith.maximumf", "arith.maxsi", x, b.const(low, dtype),
                     dtype)
    if high is not None:
        x = b.binary("arith.minimumf", "arith.minsi", x,
                     b.const(high, dtype), dtype)
    return x


def _pow_scalar(b, x, dtype, exponent):
    if not isinstance(exponent, (int, float)):
        raise UnsupportedError("pow with a tensor exponent")
    if exponent == 2:
        return b.emit("arith.mulf %s, %s : %s" % (x, x, dtype))
    if exponent == 1:
        return x
    if exponent == 0.5:
        return b.math("sqrt", x, dtype)
    if exponent == -1:
        return b.emit("arith.divf %s, %s : %s" % (b.const(1.0, dtype), x,
                                                 dtype))
    return b.emit("math.powf %s, %s : %s" % (x, b.const(exponent, dtype),
                                            dtype))


_UNARY = {
    (aten.relu,): _relu,
    (aten.neg,): lambda b, x, t: b.emit(
        ("arith.negf %s : %s" % (x, t)) if _is_float(t) else
        "arith.subi %s, %s : %s" % (b.const(0, t), x, t)),
    (aten.exp,): lambda b, x, t: b.math("exp", x, t),
    (aten.log,): lambda b, x, t: b.math("log", x, t),
    (aten.rsqrt,): lambda b, x, t: b.math("rsqrt", x, t),
    (aten.sqrt,): lambda b, x, t: b.math("sqrt", x, t),
    (aten.tanh,): lambda b, x, t: b.math("tanh", x, t),
    (aten.erf,): lambda b, x, t: b.math("erf", x, t),
    (aten.abs,): lambda b, x, t: b.math("absf", x, t),
    (aten.sin,): lambda b, x, t: b.math("sin", x, t),
    (aten.floor,): lambda b, x, t: b.math("floor", x, t),
    (aten.ceil,): lambda b, x, t: b.math("ceil", x, t),
    (aten.cos,): lambda b, x, t: b.math("cos", x, t),
    (aten.reciprocal,): lambda b, x, t: b.emit(
        "arith.divf %s, %s : %s" % (b.const(1.0, t), x, t)),
    (aten.sigmoid,): _sigmoid,
    (aten.hardtanh,): _hardtanh,
    (aten.gelu,): _gelu,
    (aten.clamp,): _clamp,
    (aten.clamp_min,): lambda b, x, t, low: _clamp(b, x, t,
                                                                   low),
    (aten.clamp_max,): lambda b, x, t, high: _clamp(
        b, x, t, None, high),
    (aten.pow,): _pow_scalar,
    (aten.logical_not, aten.bitwise_not): lambda b, x, t: b.emit(
        "arith.xori %s, %s : %s" % (x, b.const(1 if t == "i1" else -1, t),
                                    t)),
}
for _ops, _compute in _UNARY.items():
    _pointwise(*_ops)(_unary(_compute))


# The activations and elementwise functions that torch._decomp decomposes
# only into prims (torch._refs), each as PyTorch's CPU kernel computes it.
def _mulf(b, x, factor, dtype):
    return b.emit("arith.mulf %s, %s : %s" % (x, b.const(factor, dtype),
                                              dtype))


def _leaky_relu(b, x, dtype, negative_slope=0.01):
    positive = b.compare("gt", x, b.const(0.0, dtype), dtype)
    return b.select(positive, x, _mulf(b, x, negative_slope, dtype), dtype)


def _softplus(b, x, dtype, beta=1, threshold=20):
    """``x`` where ``beta * x > threshold``, else ``log1p(exp(beta * x)) /
    beta``."""
    scaled = x if beta == 1 else _mulf(b, x, beta, dtype)
    soft = b.math("log1p", b.math("exp", scaled, dtype), dtype)
    if beta != 1:
        soft = b.emit("arith.divf %s, %s : %s" % (soft, b.const(beta, dtype),
                                                 dtype))
    above = b.compare("gt", scaled, b.const(threshold, dtype), dtype)
    return b.select(above, x, soft, dtype)


def _threshold(b, x, dtype, threshold, value):
    at_most = b.compare("le", x, b.const(threshold, dtype), dtype)
    return b.select(at_most, b.const(value, dtype), x, dtype)


def _celu(b, x, dtype, alpha=1.0):
    """ELU with input scale 1 / alpha: ``x`` above 0, else ``alpha *
    (exp(x / alpha) - 1)``."""
    inner = _mulf(b, x, 1.0 / alpha, dtype)
    negative = _mulf(b, b.emit("arith.subf %s, %s : %s" % (
        b.math("exp", inner, dtype), b.const(1.0, dtype), dtype)), alpha,
        dtype)
    at_most = b.compare("le", x, b.const(0.0, dtype), dtype)
    return b.select(at_most, negative, x, dtype)


def _mish(b, x, dtype):
    """``x * tanh(log1p(exp(x)))``."""
    return b.emit("arith.mulf %s, %s : %s" % (x, b.math("tanh", b.math(
        "log1p", b.math("exp", x, dtype), dtype), dtype), dtype))


def _sign(b, x, dtype):
    """1, -1 or 0 (also for NaN, as PyTorch's ``(0 < x) - (x < 0)``)."""
    zero = b.const(0, dtype)
    positive = b.compare("gt", x, zero, dtype)
    negative = b.compare("lt", x, zero, dtype)
    return b.select(positive, b.const(1, dtype),
                    b.select(negative, b.const(-1, dtype), zero, dtype),
                    dtype)


def _math_function(name):
    return lambda b, x, dtype: b.math(name, x, dtype)


_PRIMS_ONLY_UNARY = {
    (aten.leaky_relu,): _leaky_relu,
    (aten.softplus,): _softplus,
    (aten.threshold,): _threshold,
    (aten.celu,): _celu,
    (aten.mish,): _mish,
    (aten.sgn, aten.sign): _sign,
}
for _name in ("log1p", "expm1", "log2", "log10", "exp2", "tan", "atan",
              "asin", "acos", "sinh", "cosh", "trunc"):
    _PRIMS_ONLY_UNARY[(getattr(aten, _name),)] = _math_function(_name)
for _ops, _compute in _PRIMS_ONLY_UNARY.items():
    _pointwise(*_ops)(_unary(_compute))


@_pointwise(aten.isnan)
def _isnan(low, x):
    shape, _ = _out(low)
    return low.elementwise(shape, "i1", [x], lambda b, v: b.emit(
        "arith.cmpf uno, %s, %s : %s" % (v[0], v[0], x.dtype)),
        operand_dtype=x.dtype)


def _binary(float_op, int_op):
    """``a op alpha * b``."""
    def handler(low, a, b, alpha=1):
        shape, dtype = _out(low)

        def compute(body, v):
            rhs = v[1]
            if alpha != 1:
                rhs = body.binary("arith.mulf", "arith.muli", rhs,
                                  body.const(alpha, dtype), dtype)
            return body.binary(float_op, int_op, v[0], rhs, dtype)
        return low.elementwise(shape, dtype, [a, b], compute)
    return handler


_pointwise(aten.add)(_binary("arith.addf", "arith.addi"))
_pointwise(aten.sub)(_binary("arith.subf", "arith.subi"))
_pointwise(aten.mul)(_binary("arith.mulf", "arith.muli"))
_pointwise(aten.maximum)(_binary("arith.maximumf", "arith.maxsi"))
_pointwise(aten.minimum)(_binary("arith.minimumf", "arith.minsi"))
_pointwise(aten.bitwise_or, aten.logical_or)(_binary(None, "arith.ori"))
_pointwise(aten.bitwise_and, aten.logical_and)(_binary(None, "arith.andi"))


@_pointwise(aten.div)
def _div(low, a, b, rounding_mode=None):
    shape, dtype = _out(low)

    def compute(body, v):
        if not _is_float(dtype):
            op = {"trunc": "arith.divsi", "floor": "arith.floordivsi"}.get(
                rounding_mode)
            if op is None:
                raise UnsupportedError("integer div with rounding_mode=%s" %
                                       rounding_mode)
            return body.emit("%s %s, %s : %s" % (op, v[0], v[1], dtype))
        quotient = body.emit("arith.divf %s, %s : %s" % (v[0], v[1], dtype))
        if rounding_mode is None:
            return quotient
        return body.math({"trunc": "trunc", "floor": "floor"}[rounding_mode],
                         quotient, dtype)
    return low.elementwise(shape, dtype, [a, b], compute)


def _comparison(predicate):
    def handler(low, a, b):
        shape, _ = _out(low)
        dtypes = [t.dtype for t in (a, b) if isinstance(t, Tensor)]
        floats = [t for t in dtypes if _is_float(t)]
        operand = max(floats, key=lambda t: _FLOAT_WIDTHS[t]) if floats \
            else "f32" if any(isinstance(t, float) for t in (a, b)) \
            else dtypes[0]
        return low.elementwise(shape, "i1", [a, b], lambda body, v:
                               body.compare(predicate, v[0], v[1], operand),
                               operand_dtype=operand)
    return handler


for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    _pointwise(getattr(aten, _name))(_comparison(_name))


@_pointwise(aten.where)
def _where(low, condition, a, b):
    shape, dtype = _out(low)
    # The condition stays i1; the branches convert to the result type.
    return low.elementwise(shape, dtype, [condition, a, b],
                           lambda body, v: body.select(v[0], v[1], v[2],
                                                       dtype),
                           operand_dtype=["i1", dtype, dtype])


@_pointwise(aten.masked_fill)
def _masked_fill(low, x, mask, value):
    return _where(low, mask, value, x)


@_handles(aten.copy)
def _copy(low, x, src, non_blocking=False):
    shape, dtype = _out(low)
    return low.elementwise(shape, dtype, [low.cast_tensor(src, src.dtype)],
                           lambda b, v: v[0], operand_dtype=dtype) \
        if src.dtype != dtype or src.shape != shape else src


@_handles(aten._to_copy, aten.to)
def _to_copy(low, x, *args, dtype=None, **kwargs):
    shape, out_dtype = _out(low)
    return low.cast_tensor(x, out_dtype) if x.dtype != out_dtype else x


# Views and copies: values, so a copy is the value itself.
@_handles(aten.alias, aten.clone, aten.lift_fresh_copy,
          aten.contiguous)
def _identity(low, x, *args, **kwargs):
    return x


@_handles(aten.view, aten.reshape,
          aten.squeeze, aten.unsqueeze, aten.flatten)
def _view(low, x, *args, **kwargs):
    shape, _ = _out(low)
    return low.reshape(x, shape)


@_handles(aten.t)
def _t(low, x):
    return low.permute(x, [1, 0]) if len(x.shape) == 2 else x


@_handles(aten.transpose)
def _transpose(low, x, a, b):
    perm = list(range(len(x.shape)))
    perm[a], perm[b] = perm[b], perm[a]
    return low.permute(x, perm)


@_handles(aten.permute)
def _permute(low, x, dims):
    return low.permute(x, dims)


@_handles(aten.expand)
def _expand(low, x, shape, implicit=False):
    return low.expand(x, shape)


@_handles(aten.select)
def _select(low, x, dim, index):
    dim %= len(x.shape)
    index %= x.shape[dim]
    offsets = [0] * len(x.shape)
    offsets[dim] = index
    sizes = list(x.shape)
    sizes[dim] = 1
    return low.extract_slice(x, offsets, sizes, [1] * len(x.shape),
                             _out(low)[0])


def _slice_params(shape, dim, start, end, step):
    size = shape[dim]
    start = 0 if start is None else start
    end = size if end is None else end
    start = max(0, min(size, start + size if start < 0 else start))
    end = max(start, min(size, end + size if end < 0 else end))
    return start, (end - start + step - 1) // step


@_handles(aten.slice)
def _slice(low, x, dim=0, start=None, end=None, step=1):
    dim %= len(x.shape)
    start, count = _slice_params(x.shape, dim, start, end, step)
    if start == 0 and count == x.shape[dim] and step == 1:
        return x
    offsets = [0] * len(x.shape)
    offsets[dim] = start
    sizes = list(x.shape)
    sizes[dim] = count
    strides = [1] * len(x.shape)
    strides[dim] = step
    return low.extract_slice(x, offsets, sizes, strides, tuple(sizes))


def _split_at(low, x, sizes, dim):
    dim %= len(x.shape)
    x = low.materialize(x)
    pieces, start = [], 0
    for size in sizes:
        offsets = [0] * len(x.shape)
        offsets[dim] = start
        shape = list(x.shape)
        shape[dim] = size
        pieces.append(low.extract_slice(x, offsets, shape,
                                        [1] * len(x.shape), tuple(shape)))
        start += size
    return pieces


@_handles(aten.unsafe_split)
def _split(low, x, split_size, dim=0):
    total = x.shape[dim % len(x.shape)]
    sizes = [min(split_size, total - s) for s in range(0, total, split_size)]
    return _split_at(low, x, sizes, dim)


@_handles(aten.unsafe_split_with_sizes)
def _split_with_sizes(low, x, sizes, dim=0):
    return _split_at(low, x, sizes, dim)


@_handles(aten.unbind)
def _unbind(low, x, dim=0):
    dim %= len(x.shape)
    shape = x.shape[:dim] + x.shape[dim + 1:]
    return [low.reshape(piece, shape)
            for piece in _split_at(low, x, [1] * x.shape[dim], dim)]


@_handles(aten.cat)
def _cat(low, tensors, dim=0):
    shape, dtype = _out(low)
    tensors = [t for t in tensors if t.numel() > 0]
    dim %= len(shape)
    result = Tensor(low.empty(shape, dtype), shape, dtype)
    start = 0
    for t in tensors:
        offsets = [0] * len(shape)
        offsets[dim] = start
        result = low.insert_slice(low.cast_tensor(t, dtype), result, offsets,
                                  list(t.shape), [1] * len(shape))
        start += t.shape[dim]
    return result


@_handles(aten.roll)
def _roll(low, x, shifts, dims=()):
    """``out[i] = x[(i - shift) mod n]`` along each dim: the two pieces of
    x, swapped."""
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dims = [dims] if isinstance(dims, int) else list(dims)
    if not dims:
        flat = _roll(low, low.reshape(x, (x.numel(),)), shifts, [0])
        return low.reshape(flat, x.shape)
    rank = len(x.shape)
    for shift, dim in zip(shifts, dims):
        dim %= rank
        size = x.shape[dim]
        shift %= size
        if shift == 0:
            continue
        head, tail = _split_at(low, x, [size - shift, shift], dim)
        result = Tensor(low.empty(x.shape, x.dtype), x.shape, x.dtype)
        for piece, start in ((tail, 0), (head, shift)):
            offsets = [0] * rank
            offsets[dim] = start
            result = low.insert_slice(piece, result, offsets,
                                      list(piece.shape), [1] * rank)
        x = result
    return x


@_handles(aten.flip)
def _flip(low, x, dims):
    """``out[i] = x[n - 1 - i]`` along each of ``dims``."""
    rank = len(x.shape)
    flipped = {d % rank for d in dims}
    exprs = ["%d - d%d" % (x.shape[d] - 1, d) if d in flipped else "d%d" % d
             for d in range(rank)]
    return low.generic(x.shape, x.dtype, [x], [exprs], ["parallel"] * rank,
                       Body(low), lambda b, args: args[0])


@_handles(aten.repeat)
def _repeat(low, x, repeats):
    """``out[..., i] = x[..., i mod n]``; leading repeats add dims."""
    shape, dtype = _out(low)
    rank = len(shape)
    offset = rank - len(x.shape)
    exprs = ["d%d mod %d" % (offset + i, size) if repeats[offset + i] != 1
             else "d%d" % (offset + i) for i, size in enumerate(x.shape)]
    return low.generic(shape, dtype, [x], [exprs], ["parallel"] * rank,
                       Body(low), lambda b, args: args[0])


def _first_index_of(low, x, values, dim, keepdim):
    """The first position along ``dim`` where ``x`` equals ``values`` (the
    reduction of x over dim, kept as a size-1 dim), NaN matching NaN: the
    index PyTorch's max, min, argmax and argmin return."""
    rank = len(x.shape)
    kept = [d for d in range(rank) if d != dim]
    loops = kept + [dim]
    position = {d: i for i, d in enumerate(loops)}
    x_exprs = ["d%d" % position[d] for d in range(rank)]
    value_exprs = ["0" if d == dim else "d%d" % position[d]
                   for d in range(rank)]
    out_shape = tuple(x.shape[d] for d in kept)
    init = low.filled(out_shape, "i64", 2 ** 63 - 1)
    body = Body(low)

    def compute(b, args):
        element, value, best = args
        same = b.compare("eq", element, value, x.dtype)
        if _is_float(x.dtype):
            both_nan = b.emit("arith.andi %s, %s : i1" % (
                b.emit("arith.cmpf uno, %s, %s : %s" % (element, element,
                                                         x.dtype)),
                b.emit("arith.cmpf uno, %s, %s : %s" % (value, value,
                                                         x.dtype))))
            same = b.emit("arith.ori %s, %s : i1" % (same, both_nan))
        here = b.emit("arith.index_cast %s : index to i64" %
                      b.index(len(kept)))
        return b.emit("arith.minsi %s, %s : i64" % (
            best, b.select(same, here, best, "i64")))

    result = low.generic(out_shape, "i64", [x, values],
                         [x_exprs, value_exprs],
                         ["parallel"] * len(kept) + ["reduction"], body,
                         compute, init=init)
    if keepdim:
        result = low.reshape(result, tuple(
            1 if d == dim else x.shape[d] for d in range(rank)))
    return result


def _extremum(largest):
    def handler(low, x, dim=None, keepdim=False):
        if dim is None:
            flat = low.reshape(x, (x.numel(),))
            index = handler(low, flat, 0, False)[1]
            return [None, low.reshape(index, (1,) * len(x.shape))
                    if keepdim else index]
        rank = len(x.shape)
        dim %= max(rank, 1)
        if rank == 0:
            return [x, low.filled((), "i64", 0)]
        if _is_float(x.dtype):
            init = -math.inf if largest else math.inf
        else:
            bits = {"i1": 1, "i32": 32, "i64": 64}[x.dtype] - 1
            init = -(2 ** bits) if largest else 2 ** bits - 1
        values = low.reduce(x, [dim], True, init, lambda b, acc, v: b.binary(
            "arith.maximumf" if largest else "arith.minimumf",
            "arith.maxsi" if largest else "arith.minsi", acc, v, x.dtype))
        indices = _first_index_of(low, x, values, dim, keepdim)
        if not keepdim:
            values = low.reshape(values, tuple(
                s for d, s in enumerate(x.shape) if d != dim))
        return [values, indices]
    return handler


_handles(aten.max.dim)(_extremum(True))
_handles(aten.min.dim)(_extremum(False))


@_handles(aten.argmax)
def _argmax(low, x, dim=None, keepdim=False):
    return _extremum(True)(low, x, dim, keepdim)[1]


@_handles(aten.argmin)
def _argmin(low, x, dim=None, keepdim=False):
    return _extremum(False)(low, x, dim, keepdim)[1]


@_handles(aten.stack)
def _stack(low, tensors, dim=0):
    shape, dtype = _out(low)
    dim %= len(shape)
    result = Tensor(low.empty(shape, dtype), shape, dtype)
    for i, t in enumerate(tensors):
        offsets = [0] * len(shape)
        offsets[dim] = i
        sizes = list(shape)
        sizes[dim] = 1
        result = low.insert_slice(t, result, offsets, sizes, [1] * len(shape))
    return result


@_handles(aten.select_scatter)
def _select_scatter(low, x, src, dim, index):
    dim %= len(x.shape)
    offsets = [0] * len(x.shape)
    offsets[dim] = index % x.shape[dim]
    sizes = list(x.shape)
    sizes[dim] = 1
    return low.insert_slice(src, x, offsets, sizes, [1] * len(x.shape))


@_handles(aten.slice_scatter)
def _slice_scatter(low, x, src, dim=0, start=None, end=None, step=1):
    dim %= len(x.shape)
    start, count = _slice_params(x.shape, dim, start, end, step)
    offsets = [0] * len(x.shape)
    offsets[dim] = start
    sizes = list(x.shape)
    sizes[dim] = count
    strides = [1] * len(x.shape)
    strides[dim] = step
    return low.insert_slice(src, x, offsets, sizes, strides)


def _flat_window(low, size, stride, storage_offset):
    """For ``as_strided`` on a contiguous tensor: the element range
    ``(start, count)`` of its row-major order that (size, stride) reads, if
    that is a contiguous block read in order; otherwise unsupported."""
    source = low.node.args[0].meta.get("val")
    expected, step = [], 1
    for extent in reversed(size):
        expected.insert(0, step)
        step *= extent
    ok = isinstance(source, torch.Tensor) and source.is_contiguous() and \
        source.storage_offset() == 0 and all(
            e == s for e, s, n in zip(expected, stride, size) if n != 1)
    if not ok:
        raise UnsupportedError(
            "as_strided other than a contiguous block of a contiguous tensor "
            "(size %s, stride %s)" % (list(size), list(stride)))
    return storage_offset or 0, math.prod(size)


@_handles(aten.as_strided)
def _as_strided(low, x, size, stride, storage_offset=None):
    shape, _ = _out(low)
    start, count = _flat_window(low, size, stride, storage_offset)
    flat = low.reshape(x, (x.numel(),))
    if (start, count) != (0, x.numel()):
        flat = low.extract_slice(flat, [start], [count], [1], (count,))
    return low.reshape(flat, shape)


@_handles(aten.as_strided_scatter)
def _as_strided_scatter(low, x, src, size, stride, storage_offset=None):
    start, count = _flat_window(low, size, stride, storage_offset)
    flat = low.reshape(x, (x.numel(),))
    piece = low.reshape(low.cast_tensor(src, x.dtype), (count,))
    if (start, count) == (0, x.numel()):
        return low.reshape(piece, x.shape)
    flat = low.insert_slice(piece, flat, [start], [count], [1])
    return low.reshape(flat, x.shape)


@_handles(aten.constant_pad_nd)
def _constant_pad_nd(low, x, pad, value=0):
    rank = len(x.shape)
    low_pad, high_pad = [0] * rank, [0] * rank
    for i in range(len(pad) // 2):
        low_pad[rank - 1 - i] = pad[2 * i]
        high_pad[rank - 1 - i] = pad[2 * i + 1]
    if any(p < 0 for p in low_pad + high_pad):
        # Negative padding crops (the gradient of padding).
        offsets = [max(0, -p) for p in low_pad]
        sizes = [n - o - max(0, -p)
                 for n, o, p in zip(x.shape, offsets, high_pad)]
        x = low.extract_slice(x, offsets, sizes, [1] * rank, tuple(sizes))
    return low.pad(x, [max(0, p) for p in low_pad],
                   [max(0, p) for p in high_pad], value)


# Creation.
@_handles(aten.empty, aten.empty_like, aten.new_empty, aten.empty_strided)
def _empty(low, *args, **kwargs):
    shape, dtype = _out(low)
    return Tensor(low.empty(shape, dtype), shape, dtype)


def _fill_handler(value_of):
    def handler(low, *args, **kwargs):
        shape, dtype = _out(low)
        return low.filled(shape, dtype, value_of(args))
    return handler


_handles(aten.zeros, aten.zeros_like, aten.new_zeros, aten.zero)(
    _fill_handler(lambda a: 0))
_handles(aten.ones, aten.ones_like, aten.new_ones)(_fill_handler(lambda a: 1))
_handles(aten.full)(_fill_handler(lambda a: a[1]))
_handles(aten.full_like)(_fill_handler(lambda a: a[1]))
_handles(aten.new_full)(_fill_handler(lambda a: a[2]))
_handles(aten.scalar_tensor)(_fill_handler(lambda a: a[0]))


@_handles(aten.fill)
def _fill(low, x, value):
    shape, dtype = _out(low)
    if isinstance(value, Tensor):
        return low.elementwise(shape, dtype, [low.expand(value, shape)],
                               lambda b, v: v[0])
    return low.filled(shape, dtype, value)


@_handles(aten.arange)
def _arange(low, *args, **kwargs):
    shape, dtype = _out(low)
    numbers = [a for a in args if isinstance(a, (int, float))]
    start, step = 0, 1
    if len(numbers) >= 2:
        start = numbers[0]
    if len(numbers) >= 3:
        step = numbers[2]

    def build(b, args):
        i = b.emit("arith.index_cast %s : index to i64" % b.index(0))
        value = b.cast(i, "i64", dtype)
        if step != 1:
            value = b.binary("arith.mulf", "arith.muli", value,
                             b.const(step, dtype), dtype)
        if start != 0:
            value = b.binary("arith.addf", "arith.addi", value,
                             b.const(start, dtype), dtype)
        return value
    return low.generic(shape, dtype, [], [], ["parallel"], Body(low), build)


def _triangle(upper):
    def handler(low, x, diagonal=0):
        shape, dtype = _out(low)
        rank = len(shape)

        def compute(b, v):
            row = b.index(rank - 2)
            col = b.index(rank - 1)
            shifted = b.emit("arith.addi %s, %s : index" %
                             (row, b.const(diagonal, "index")))
            keep = b.emit("arith.cmpi %s, %s, %s : index" %
                          ("sge" if upper else "sle", col, shifted))
            return b.select(keep, v[0], b.const(0, dtype), dtype)
        return low.elementwise(shape, dtype, [x], compute)
    return handler


_handles(aten.triu)(_triangle(True))
_handles(aten.tril)(_triangle(False))


# Reductions.
def _dims_arg(x, dims):
    if dims is None or dims == []:
        return list(range(len(x.shape)))
    return [dims] if isinstance(dims, int) else list(dims)


def _sum_combine(dtype):
    return lambda b, acc, x: b.binary("arith.addf", "arith.addi", acc, x,
                                      dtype)


@_handles(aten.sum)
def _sum(low, x, dims=None, keepdim=False, dtype=None):
    _, out_dtype = _out(low)
    return low.reduce(x, _dims_arg(x, dims), keepdim, 0,
                      _sum_combine(out_dtype), out_dtype)


@_handles(aten.mean)
def _mean(low, x, dims=None, keepdim=False, dtype=None):
    shape, out_dtype = _out(low)
    dims = _dims_arg(x, dims)
    count = math.prod(x.shape[d] for d in dims)
    total = low.reduce(x, dims, keepdim, 0, _sum_combine(out_dtype),
                       out_dtype)
    return low.elementwise(shape, out_dtype, [total], lambda b, v: b.emit(
        "arith.divf %s, %s : %s" % (v[0], b.const(count, out_dtype),
                                    out_dtype)))


@_handles(aten.linalg_vector_norm)
def _linalg_vector_norm(low, x, order=2, dims=None, keepdim=False,
                        dtype=None):
    """(sum over dims of |x|^p)^(1/p); the maximum of |x| for p = inf."""
    shape, out_dtype = _out(low)
    dims = _dims_arg(x, dims)
    if order == math.inf:
        return low.reduce(x, dims, keepdim, 0.0, lambda b, acc, v: b.emit(
            "arith.maximumf %s, %s : %s" % (acc, v, out_dtype)), out_dtype,
            lambda b, v: b.math("absf", v, out_dtype))
    if not isinstance(order, (int, float)) or order <= 0:
        raise UnsupportedError("vector norm of order %s" % order)

    def power(b, v):
        if order == 2:
            return b.emit("arith.mulf %s, %s : %s" % (v, v, out_dtype))
        return _pow_scalar(b, b.math("absf", v, out_dtype), out_dtype,
                           order)
    total = low.reduce(x, dims, keepdim, 0.0, _sum_combine(out_dtype),
                       out_dtype, power)
    return low.elementwise(shape, out_dtype, [total], lambda b, v:
                           _pow_scalar(b, v[0], out_dtype, 1.0 / order))


@_handles(aten.amax)
def _amax(low, x, dims=(), keepdim=False):
    _, dtype = _out(low)
    return low.reduce(x, _dims_arg(x, dims), keepdim, -math.inf,
                      lambda b, acc, v: b.binary("arith.maximumf",
                                                 "arith.maxsi", acc, v,
                                                 dtype))


@_handles(aten.amin)
def _amin(low, x, dims=(), keepdim=False):
    _, dtype = _out(low)
    return low.reduce(x, _dims_arg(x, dims), keepdim, math.inf,
                      lambda b, acc, v: b.binary("arith.minimumf",
                                                 "arith.minsi", acc, v,
                                                 dtype))


def _centered_square_sum(low, x, dims, keepdim):
    """(mean(x) keeping dims, x - mean(x), sum over ``dims`` of
    (x - mean(x))^2)."""
    dtype = x.dtype
    mean = _mean_keep(low, x, dims)
    diff = low.elementwise(x.shape, dtype, [x, mean], lambda b, v: b.emit(
        "arith.subf %s, %s : %s" % (v[0], v[1], dtype)))
    total = low.reduce(diff, dims, keepdim, 0.0, lambda b, acc, v: b.emit(
        "arith.addf %s, %s : %s" % (acc, b.emit("arith.mulf %s, %s : %s" % (
            v, v, dtype)), dtype)))
    return mean, diff, total


def _mean_keep(low, x, dims):
    count = math.prod(x.shape[d] for d in dims)
    total = low.reduce(x, dims, True, 0.0, _sum_combine(x.dtype))
    return low.elementwise(total.shape, x.dtype, [total], lambda b, v: b.emit(
        "arith.divf %s, %s : %s" % (v[0], b.const(count, x.dtype), x.dtype)))


# Linear algebra.
def _contraction(low, op, a, b, out_shape, batch):
    """linalg.matmul / batch_matmul; transposed operands (lazy views) are
    read through indexing maps instead of being copied."""
    dtype = _out(low)[1]
    init = low.filled(out_shape, dtype, 0.0)
    maps = None
    operands = []
    if batch:
        logical = [["d0", "d1", "d3"], ["d0", "d3", "d2"]]
        loops = 4
    else:
        logical = [["d0", "d2"], ["d2", "d1"]]
        loops = 3
    simple = True
    for t, exprs in zip((a, b), logical):
        # batch_matmul's maps must read the batch dim first.
        if t.view is not None and all(d is not None for d in t.view) and \
                (not batch or t.view[0] == 0):
            operands.append(t)
            if t.view != list(range(len(t.shape))):
                simple = False
        else:
            operands.append(low.materialize(t))
    if not simple:
        maps = [low.input_map(t, loops, e) for t, e in zip(operands, logical)]
        maps.append(_affine_map(loops, ["d0", "d1", "d2"] if batch else
                                ["d0", "d1"]))
    out_type = _tensor_type(out_shape, dtype)
    text = op
    if maps:
        text += " indexing_maps = [%s]" % ", ".join(maps)
    text += " ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
        operands[0].name, operands[1].name, operands[0].type,
        operands[1].type, init.name, out_type, out_type)
    return Tensor(low.emit(text), out_shape, dtype)


@_handles(aten.mm)
def _mm(low, a, b):
    shape, _ = _out(low)
    return _contraction(low, "linalg.matmul", a, b, shape, False)


@_handles(aten.bmm)
def _bmm(low, a, b):
    shape, _ = _out(low)
    return _contraction(low, "linalg.batch_matmul", a, b, shape, True)


@_handles(aten.baddbmm)
def _baddbmm(low, bias, a, b, beta=1, alpha=1):
    shape, dtype = _out(low)
    product = _contraction(low, "linalg.batch_matmul", a, b, shape, True)

    def compute(body, v):
        p = v[1] if alpha == 1 else body.emit("arith.mulf %s, %s : %s" % (
            v[1], body.const(alpha, dtype), dtype))
        if beta == 0:
            return p
        c = v[0] if beta == 1 else body.emit("arith.mulf %s, %s : %s" % (
            v[0], body.const(beta, dtype), dtype))
        return body.emit("arith.addf %s, %s : %s" % (c, p, dtype))
    return low.elementwise(shape, dtype, [bias, product], compute)


# Indexing.
def _extract(b, tensor, indices):
    return b.emit("tensor.extract %s[%s] : %s" % (
        tensor.name, ", ".join(indices), tensor.type))


@_handles(aten.index_select)
def _index_select(low, x, dim, index):
    shape, dtype = _out(low)
    x = low.materialize(x)
    dim %= len(x.shape)
    rank = len(shape)

    def compute(b, args):
        indices = []
        for d in range(rank):
            if d == dim:
                indices.append(b.emit("arith.index_cast %s : %s to index" %
                                      (args[0], index.dtype)))
            else:
                indices.append(b.index(d))
        return _extract(b, x, indices)
    return low.generic(shape, dtype, [index], [["d%d" % dim]],
                       ["parallel"] * rank, Body(low), compute)


@_handles(aten.gather)
def _gather(low, x, dim, index, sparse_grad=False):
    shape, dtype = _out(low)
    x = low.materialize(x)
    dim %= len(x.shape)
    rank = len(shape)

    def compute(b, args):
        indices = [b.emit("arith.index_cast %s : %s to index" %
                          (args[0], index.dtype)) if d == dim else b.index(d)
                   for d in range(rank)]
        return _extract(b, x, indices)
    return low.generic(shape, dtype, [index],
                       [["d%d" % d for d in range(rank)]],
                       ["parallel"] * rank, Body(low), compute)


@_handles(aten.scatter)
def _scatter(low, x, dim, index, value):
    """x with x[..., index[...], ...] = value along ``dim``, for an index
    with one entry along ``dim`` (one-hot rows, as in nll_loss backward)."""
    shape, dtype = _out(low)
    dim %= len(shape)
    if index.shape[dim] != 1 or any(
            index.shape[d] != shape[d] for d in range(len(shape)) if d != dim):
        raise UnsupportedError(
            "scatter other than one index per row along the scatter dim")
    index_exprs = ["0" if d == dim else "d%d" % d for d in range(len(shape))]
    operands = [x, index] + ([value] if isinstance(value, Tensor) else [])
    exprs = [["d%d" % d for d in range(len(shape))], index_exprs]
    if isinstance(value, Tensor):
        exprs.append(index_exprs)
    x = low.materialize(x)
    operands[0] = x

    def compute(b, args):
        position = b.emit("arith.index_cast %s : index to %s" % (
            b.index(dim), index.dtype))
        hit = b.emit("arith.cmpi eq, %s, %s : %s" % (position, args[1],
                                                     index.dtype))
        new = b.cast(args[2], value.dtype, dtype) if isinstance(
            value, Tensor) else b.const(value, dtype)
        return b.select(hit, new, args[0], dtype)
    return low.generic(shape, dtype, operands, exprs,
                       ["parallel"] * len(shape), Body(low), compute)


@_handles(aten.index_put)
def _index_put(low, x, indices, values, accumulate=False):
    """``x[indices] = values`` (``+=`` when accumulating: the gradient of
    indexing, embedding backward), written as a reduction over the index
    positions p: out[i] = x[i] + sum over p of (indices[p] == i ?
    values[p] : 0). The ``memsched.work`` attribute gives the cost of the
    scatter kernel a GPU compiler emits instead."""
    shape, dtype = _out(low)
    advanced, broadcast, start, sliced = _advanced_layout(len(shape),
                                                          indices)
    rank = len(shape)
    positions = len(broadcast)
    value_shape = _indexed_shape(shape, advanced, broadcast, start)
    values = low.materialize(low.expand(low.cast_tensor(values, dtype),
                                        value_shape))
    x = low.materialize(x)
    # Loops: the dims of x, then the index positions (reductions).
    index_exprs = _index_exprs(indices, advanced, broadcast, rank)
    value_exprs = []
    for position in range(len(value_shape)):
        if start <= position < start + positions:
            value_exprs.append("d%d" % (rank + position - start))
        else:
            value_exprs.append("d%d" % next(d for d, p in sliced.items()
                                            if p == position))
    work = math.prod(value_shape)
    elem = _FLOAT_WIDTHS.get(dtype, 64) // 8
    attrs = (", memsched.work = {flops = %d : i64, bytes = %d : i64}" %
             (work, 3 * work * elem + math.prod(broadcast) * 8 *
              len(advanced)))

    def compute(b, args):
        hit = None
        for k, d in enumerate(advanced):
            kind = indices[d].dtype
            if kind == "i1":
                raise UnsupportedError("index_put with a bool mask")
            here = b.emit("arith.index_cast %s : index to %s" % (
                b.index(d), kind))
            same = b.emit("arith.cmpi eq, %s, %s : %s" % (here, args[k],
                                                          kind))
            hit = same if hit is None else b.emit(
                "arith.andi %s, %s : i1" % (hit, same))
        value, old = args[len(advanced)], args[-1]
        if accumulate:
            value = b.binary("arith.addf", "arith.addi", old, value, dtype)
        return b.select(hit, value, old, dtype)
    return low.generic(shape, dtype, [indices[d] for d in advanced] +
                       [values], index_exprs + [value_exprs],
                       ["parallel"] * rank + ["reduction"] * positions,
                       Body(low), compute, init=x, attrs=attrs)


@_handles(aten.index_add)
def _index_add(low, x, dim, index, source, alpha=1):
    """``x[..., index[p], ...] += alpha * source[..., p, ...]`` along ``dim``
    (the gradient of index_select): index_put with accumulation."""
    dim %= max(len(x.shape), 1)
    if alpha != 1:
        source = low.elementwise(source.shape, source.dtype, [source],
                                 lambda b, v: b.binary(
                                     "arith.mulf", "arith.muli", v[0],
                                     b.const(alpha, source.dtype),
                                     source.dtype))
    return _index_put(low, x, [None] * dim + [index], source, True)


@_handles(aten.scatter_add)
def _scatter_add(low, x, dim, index, source):
    """``out[..., index[..., p, ...], ...] += source[..., p, ...]`` along
    ``dim`` (the gradient of gather), for an index as large as x in every
    other dim: a reduction over the index positions p."""
    shape, dtype = _out(low)
    rank = len(shape)
    dim %= rank
    if any(index.shape[d] != shape[d] for d in range(rank) if d != dim):
        raise UnsupportedError("scatter_add with an index smaller than the "
                               "input outside the scatter dim")
    exprs = ["d%d" % rank if d == dim else "d%d" % d for d in range(rank)]
    source = low.cast_tensor(source, dtype)

    def compute(b, args):
        here = b.emit("arith.index_cast %s : index to %s" % (b.index(dim),
                                                            index.dtype))
        hit = b.emit("arith.cmpi eq, %s, %s : %s" % (here, args[0],
                                                     index.dtype))
        added = b.binary("arith.addf", "arith.addi", args[2], args[1], dtype)
        return b.select(hit, added, args[2], dtype)
    return low.generic(shape, dtype, [index, source], [exprs, exprs],
                       ["parallel"] * rank + ["reduction"], Body(low),
                       compute, init=low.materialize(x))


@_handles(aten.cumsum)
def _cumsum(low, x, dim, dtype=None):
    """``out[..., i, ...] = sum over j <= i of x[..., j, ...]``, in order of
    j: a reduction over j that adds nothing past i."""
    shape, out_dtype = _out(low)
    rank = len(shape)
    if rank == 0:
        return low.cast_tensor(x, out_dtype)
    dim %= rank
    exprs = ["d%d" % rank if d == dim else "d%d" % d for d in range(rank)]
    init = low.filled(shape, out_dtype, 0)

    def compute(b, args):
        within = b.emit("arith.cmpi ule, %s, %s : index" % (b.index(rank),
                                                           b.index(dim)))
        value = b.cast(args[0], x.dtype, out_dtype)
        added = b.binary("arith.addf", "arith.addi", args[1], value,
                         out_dtype)
        return b.select(within, added, args[1], out_dtype)
    return low.generic(shape, out_dtype, [x], [exprs],
                       ["parallel"] * rank + ["reduction"], Body(low),
                       compute, init=init)


def _advanced_layout(rank, indices):
    """For ``x[indices]`` on a rank-``rank`` x: the indexed dims, the
    broadcast shape of the index tensors, where their dims go in the
    result (they replace the indexed dims where those are adjacent, and
    come first otherwise: numpy's rule), and the result dim of each other
    dim of x."""
    advanced = [d for d, i in enumerate(indices) if i is not None]
    if not advanced:
        raise UnsupportedError("indexing without index tensors")
    broadcast = _broadcast_shape([indices[d].shape for d in advanced])
    adjacent = advanced == list(range(advanced[0], advanced[-1] + 1))
    start = advanced[0] if adjacent else 0
    sliced, position = {}, 0
    for d in range(rank):
        if d in advanced:
            continue
        if position == start:
            position += len(broadcast)
        sliced[d] = position
        position += 1
    return advanced, broadcast, start, sliced


def _indexed_shape(shape, advanced, broadcast, start):
    rest = [n for d, n in enumerate(shape) if d not in advanced]
    return tuple(rest[:start]) + tuple(broadcast) + tuple(rest[start:])


def _index_exprs(indices, advanced, broadcast, first_loop):
    """Indexing maps of the index tensors: broadcast dim j is loop
    ``first_loop + j``."""
    exprs = []
    for d in advanced:
        index = indices[d]
        offset = len(broadcast) - len(index.shape)
        exprs.append(["0" if size == 1 and broadcast[i + offset] != 1
                      else "d%d" % (first_loop + i + offset)
                      for i, size in enumerate(index.shape)])
    return exprs


@_handles(aten.index)
def _index(low, x, indices):
    """Advanced indexing ``x[i0, :, i2]``: the index tensors broadcast
    together; their dims replace the indexed dims where those are
    adjacent, and come first otherwise (numpy's rule)."""
    shape, dtype = _out(low)
    x = low.materialize(x)
    advanced, _, start, sliced = _advanced_layout(len(x.shape), indices)
    rank = len(shape)
    exprs = _index_exprs(indices, advanced,
                         _broadcast_shape([indices[d].shape
                                           for d in advanced]), start)

    def compute(b, args):
        positions = []
        for d in range(len(x.shape)):
            if d in advanced:
                value = args[advanced.index(d)]
                kind = indices[d].dtype
                if kind == "i1":
                    raise UnsupportedError("indexing with a bool mask")
                position = b.emit("arith.index_cast %s : %s to index" %
                                  (value, kind))
                positions.append(position)
            else:
                positions.append(b.index(sliced[d]))
        return _extract(b, x, positions)
    return low.generic(shape, dtype, [indices[d] for d in advanced], exprs,
                       ["parallel"] * rank, Body(low), compute)


# Normalisation.
@_handles(aten.native_layer_norm)
def _native_layer_norm(low, x, normalized_shape, weight, bias, eps):
    rank = len(x.shape)
    dims = list(range(rank - len(normalized_shape), rank))
    dtype = x.dtype
    count = math.prod(normalized_shape)
    mean, diff, square_sum = _centered_square_sum(low, x, dims, True)
    rstd = low.elementwise(square_sum.shape, dtype, [square_sum],
                           lambda b, v: b.math("rsqrt", b.emit(
                               "arith.addf %s, %s : %s" % (
                                   b.emit("arith.divf %s, %s : %s" % (
                                       v[0], b.const(count, dtype), dtype)),
                                   b.const(eps, dtype), dtype)), dtype))
    operands = [diff, rstd] + [t for t in (weight, bias) if t is not None]

    def compute(b, v):
        out = b.emit("arith.mulf %s, %s : %s" % (v[0], v[1], dtype))
        k = 2
        if weight is not None:
            out = b.emit("arith.mulf %s, %s : %s" % (out, v[k], dtype))
            k += 1
        if bias is not None:
            out = b.emit("arith.addf %s, %s : %s" % (out, v[k], dtype))
        return out
    out = low.elementwise(x.shape, dtype, operands, compute)
    return [out, mean, rstd]


# Convolution and pooling (2-D, NCHW).
def _pair(value):
    return list(value) * 2 if len(value) == 1 else list(value)


def _check_conv(x, what):
    if len(x.shape) != 4:
        raise UnsupportedError("%d-D %s (only 2-D NCHW is supported)" %
                               (len(x.shape) - 2, what))


@_handles(aten.convolution)
def _convolution(low, x, weight, bias, stride, padding, dilation, transposed,
                 output_padding, groups):
    _check_conv(x, "convolution")
    shape, dtype = _out(low)
    stride, padding, dilation = _pair(stride), _pair(padding), _pair(dilation)
    if transposed:
        # The transposed convolution is the input gradient of the
        # convolution with the same weight.
        result = _conv_input_grad(low, x, weight, shape, stride, padding,
                                  dilation, groups)
    else:
        result = _conv_forward(low, x, weight, shape, stride, padding,
                               dilation, groups)
    if bias is not None:
        result = low.elementwise(shape, dtype, [result, low.reshape(
            bias, (shape[1], 1, 1))], lambda b, v: b.emit(
                "arith.addf %s, %s : %s" % (v[0], v[1], dtype)))
    return result


def _conv_forward(low, x, weight, shape, stride, padding, dilation, groups):
    """linalg's convolution of ``x`` with ``weight`` (f, c / groups, kh,
    kw), giving ``shape``."""
    dtype = x.dtype
    xp = low.pad(x, [0, 0] + padding, [0, 0] + padding, 0.0)
    weight = low.materialize(weight)
    attrs = "{dilations = dense<[%d, %d]> : tensor<2xi64>, strides = " \
        "dense<[%d, %d]> : tensor<2xi64>}" % tuple(dilation + stride)
    n, f, oh, ow = shape
    if groups == 1:
        init = low.filled(shape, dtype, 0.0)
        out_type = _tensor_type(shape, dtype)
        name = low.emit(
            "linalg.conv_2d_nchw_fchw %s ins(%s, %s : %s, %s) outs(%s : %s) "
            "-> %s" % (attrs, xp.name, weight.name, xp.type, weight.type,
                       init.name, out_type, out_type))
        result = Tensor(name, shape, dtype)
    else:
        c = x.shape[1]
        xg = low.reshape(xp, (n, groups, c // groups) + xp.shape[2:])
        wg = low.reshape(weight, (groups, f // groups) + weight.shape[1:])
        gshape = (n, groups, f // groups, oh, ow)
        init = low.filled(gshape, dtype, 0.0)
        out_type = _tensor_type(gshape, dtype)
        name = low.emit(
            "linalg.conv_2d_ngchw_gfchw %s ins(%s, %s : %s, %s) outs(%s : %s) "
            "-> %s" % (attrs, xg.name, wg.name, xg.type, wg.type, init.name,
                       out_type, out_type))
        result = low.reshape(Tensor(name, gshape, dtype), shape)
    return result


def _conv_input_grad(low, grad, weight, shape, stride, padding, dilation,
                     groups):
    """The gradient, of ``shape``, of a convolution's input from the
    gradient of its output: the output gradient spread by the stride, then
    correlated with the flipped kernel."""
    n, c, h, w = shape
    f, cg, kh, kw = weight.shape
    fg = f // groups
    _, _, oh, ow = grad.shape
    grad_g = low.reshape(low.materialize(grad), (n, groups, fg, oh, ow))
    spread = _spread(low, grad_g, h, w, (kh, kw), stride, padding, dilation,
                     0.0)
    weight_g = low.reshape(low.materialize(weight), (groups, fg, cg, kh, kw))
    # Loops: n g c h w | f kh kw.
    sexprs = ["d0", "d1", "d5",
              "d3 + %d - d6 * %d" % ((kh - 1) * dilation[0], dilation[0]),
              "d4 + %d - d7 * %d" % ((kw - 1) * dilation[1], dilation[1])]
    wexprs = ["d1", "d5", "d2", "d6", "d7"]
    grad_input = _correlate(low, (n, groups, cg, h, w), spread, weight_g,
                            sexprs, wexprs)
    return low.reshape(grad_input, (n, c, h, w))


def _conv_weight_grad(low, grad, x, weight_shape, stride, padding, dilation,
                      groups):
    """The gradient of a convolution's weight: the correlation of its
    (padded) input with its output gradient."""
    n, c, h, w = x.shape
    f, cg, kh, kw = weight_shape
    fg = f // groups
    _, _, oh, ow = grad.shape
    grad_g = low.reshape(low.materialize(grad), (n, groups, fg, oh, ow))
    xp = low.pad(x, [0, 0] + padding, [0, 0] + padding, 0.0)
    xg = low.reshape(xp, (n, groups, cg) + xp.shape[2:])
    # Loops: g f c kh kw | n oh ow.
    xexprs = ["d5", "d0", "d2",
              "d6 * %d + d3 * %d" % (stride[0], dilation[0]),
              "d7 * %d + d4 * %d" % (stride[1], dilation[1])]
    gexprs = ["d5", "d0", "d1", "d6", "d7"]
    grad_weight = _correlate(low, (groups, fg, cg, kh, kw), xg, grad_g,
                             xexprs, gexprs)
    return low.reshape(grad_weight, (f, cg, kh, kw))


def _spread(low, grad, height, width, kernel, stride, padding, dilation,
            fill):
    """Places grad[..., oh, ow] at [..., L + oh*s, L + ow*s] of a ``fill``
    tensor with L = (k-1)*d - p, so that the input position h receives the
    window taps through index h + (k-1-kh)*d."""
    lead = [(k - 1) * d - p for k, d, p in zip(kernel, dilation, padding)]
    if any(value < 0 for value in lead):
        raise UnsupportedError("padding larger than (kernel - 1) * dilation")
    oh, ow = grad.shape[-2:]
    rows = max(height + (kernel[0] - 1) * dilation[0],
               lead[0] + (oh - 1) * stride[0] + 1)
    cols = max(width + (kernel[1] - 1) * dilation[1],
               lead[1] + (ow - 1) * stride[1] + 1)
    shape = tuple(grad.shape[:-2]) + (rows, cols)
    base = low.filled(shape, grad.dtype, fill)
    prefix = len(grad.shape) - 2
    return low.insert_slice(grad, base, [0] * prefix + lead,
                            list(grad.shape), [1] * prefix + stride)


def _correlate(low, shape, a, b, a_exprs, b_exprs):
    """out[d0..d4] = sum over d5 d6 d7 of a[a_exprs] * b[b_exprs]."""
    dtype = a.dtype
    return low.generic(
        shape, dtype, [a, b], [a_exprs, b_exprs],
        ["parallel"] * 5 + ["reduction"] * 3, Body(low),
        lambda body, v: body.emit("arith.addf %s, %s : %s" % (v[2], body.emit(
            "arith.mulf %s, %s : %s" % (v[0], v[1], dtype)), dtype)),
        init=low.filled(shape, dtype, 0.0))


# ATen ops whose kernels hold operands that their lowering does not read,
# by argument index, from the op's arguments: a convolution's input
# gradient holds the forward input, its weight gradient the weight; a
# pooling's backward holds the forward input, whose shape is all its
# lowering takes.
_ATEN_HOLDS = {
    aten.convolution_backward.default:
        lambda *args: ([1] if args[10][0] else []) +
        ([2] if args[10][1] else []),
    aten.max_pool2d_with_indices_backward.default: lambda *args: [1],
    aten.avg_pool2d_backward.default: lambda *args: [1],
    aten._adaptive_avg_pool2d_backward.default: lambda *args: [1],
}


@_handles(aten.convolution_backward)
def _convolution_backward(low, grad, x, weight, bias_sizes, stride, padding,
                          dilation, transposed, output_padding, groups,
                          output_mask):
    _check_conv(x, "convolution backward")
    stride, padding, dilation = _pair(stride), _pair(padding), _pair(dilation)
    grad = low.materialize(grad)
    results = [None, None, None]
    if transposed:
        # y = conv_input_grad(x, w): x's gradient is the convolution of
        # y's gradient, and w's the weight gradient with the roles of
        # input and output gradient swapped.
        if output_mask[0]:
            results[0] = _conv_forward(low, grad, weight, x.shape, stride,
                                       padding, dilation, groups)
        if output_mask[1]:
            results[1] = _conv_weight_grad(low, x, grad, weight.shape,
                                           stride, padding, dilation, groups)
    else:
        if output_mask[0]:
            results[0] = _conv_input_grad(low, grad, weight, x.shape, stride,
                                          padding, dilation, groups)
        if output_mask[1]:
            results[1] = _conv_weight_grad(low, grad, x, weight.shape,
                                           stride, padding, dilation, groups)
    if output_mask[2]:
        results[2] = low.reduce(grad, [0, 2, 3], False, 0.0,
                                _sum_combine(grad.dtype))
    return results


def _pool_geometry(x, kernel, stride, padding, dilation, out_hw):
    kernel = _pair(kernel)
    stride = _pair(stride) if stride else list(kernel)
    padding = _pair(padding)
    dilation = _pair(dilation)
    h, w = x.shape[-2:]
    high = [max(0, (o - 1) * s + (k - 1) * d + 1 - size - p)
            for o, s, k, d, size, p in zip(out_hw, stride, kernel, dilation,
                                           (h, w), padding)]
    return kernel, stride, padding, dilation, high


@_handles(aten.max_pool2d_with_indices)
def _max_pool2d_with_indices(low, x, kernel, stride=(), padding=(0,),
                             dilation=(1,), ceil_mode=False):
    if len(x.shape) != 4:
        raise UnsupportedError("max_pool2d on a %d-D input" % len(x.shape))
    out_shape, dtype = low.meta(index=0)
    n, c, oh, ow = out_shape
    h, w = x.shape[-2:]
    kernel, stride, padding, dilation, high = _pool_geometry(
        x, kernel, stride, padding, dilation, (oh, ow))
    xp = low.pad(x, [0, 0] + padding, [0, 0] + high, -math.inf)
    values = low.filled(out_shape, dtype, -math.inf)
    indices = low.filled(out_shape, "i64", 0)
    # Loops: n c oh ow | kh kw (PyTorch's scan order within a window).
    xexprs = ["d0", "d1", "d2 * %d + d4 * %d" % (stride[0], dilation[0]),
              "d3 * %d + d5 * %d" % (stride[1], dilation[1])]
    window = low.window(tuple(kernel))
    maps = [_affine_map(6, xexprs), _affine_map(6, ["d4", "d5"])] + \
        [_affine_map(6, ["d0", "d1", "d2", "d3"])] * 2
    body = Body(low)
    a = [low.fresh("a") for _ in range(3)]
    # Position in the unpadded input: (oh*s - p + kh*d) * W + ...
    row = body.emit("affine.apply affine_map<(d0, d1) -> (d0 * %d + d1 * %d "
                    "- %d)>(%s, %s)" % (stride[0], dilation[0], padding[0],
                                        body.index(2), body.index(4)))
    col = body.emit("affine.apply affine_map<(d0, d1) -> (d0 * %d + d1 * %d "
                    "- %d)>(%s, %s)" % (stride[1], dilation[1], padding[1],
                                        body.index(3), body.index(5)))
    flat = body.emit("affine.apply affine_map<(d0, d1) -> (d0 * %d + d1)>"
                     "(%s, %s)" % (w, row, col))
    flat = body.emit("arith.index_cast %s : index to i64" % flat)
    greater = body.emit("arith.cmpf ogt, %s, %s : %s" % (a[0], a[1], dtype))
    isnan = body.emit("arith.cmpf uno, %s, %s : %s" % (a[0], a[0], dtype))
    take = body.emit("arith.ori %s, %s : i1" % (greater, isnan))
    new_value = body.select(take, a[0], a[1], dtype)
    new_index = body.select(take, flat, a[2], "i64")
    out_type = _tensor_type(out_shape, dtype)
    index_type = _tensor_type(out_shape, "i64")
    text = ("linalg.generic {indexing_maps = [%s], iterator_types = [%s]} "
            "ins(%s, %s : %s, %s) outs(%s, %s : %s, %s) {\n    ^bb0(%s: %s, "
            "%s: f32, %s: %s, %s: i64):\n%s      linalg.yield %s, %s : %s, "
            "i64\n    } -> (%s, %s)" % (", ".join(maps), ", ".join(
                ['"parallel"'] * 4 + ['"reduction"'] * 2), xp.name,
                window.name, xp.type, window.type, values.name, indices.name,
                out_type, index_type, a[0], dtype, low.fresh("a"), a[1],
                dtype, a[2],
                "".join("      %s\n" % line for line in body.lines),
                     new_value, new_index, dtype, out_type, index_type))
    name = low.fresh()
    low.lines.append("    %s:2 = %s%s" % (name, text, low.loc()))
    return [Tensor(name + "#0", out_shape, dtype),
            Tensor(name + "#1", out_shape, "i64")]


@_handles(aten.max_pool2d_with_indices_backward)
def _max_pool2d_with_indices_backward(low, grad, x, kernel, stride, padding,
                                      dilation, ceil_mode, indices):
    """One strided update of the input gradient per window tap (kh, kw):
    the outputs whose tap lies inside the input add their gradient where
    their argmax is that position. Each update reads the gradient and the
    indices as they are and writes a strided slice of the result in place,
    so the working set is the operands and the result, with no spread
    copies of them."""
    shape, dtype = _out(low)
    n, c, h, w = x.shape
    kernel, stride, padding, dilation, _ = _pool_geometry(
        x, kernel, stride, padding, dilation, grad.shape[-2:])
    grad = low.materialize(grad)
    indices = low.materialize(indices)
    out_h, out_w = grad.shape[-2:]
    result = low.filled(shape, dtype, 0.0)

    def taps(k, s, p, d, size, out_size):
        # (first output, count, first input position) of each tap.
        spans = []
        for tap in range(k):
            shift = tap * d - p
            first = max(0, -(shift // s))
            last = min(out_size - 1, (size - 1 - shift) // s)
            spans.append((first, last - first + 1, first * s + shift))
        return spans

    rows = taps(kernel[0], stride[0], padding[0], dilation[0], h, out_h)
    cols = taps(kernel[1], stride[1], padding[1], dilation[1], w, out_w)
    for row_first, row_count, row_start in rows:
        for col_first, col_count, col_start in cols:
            if row_count <= 0 or col_count <= 0:
                continue
            sizes = [n, c, row_count, col_count]
            full = (row_first, col_first) == (0, 0) and \
                (row_count, col_count) == (out_h, out_w)
            tap_grad, tap_indices = grad, indices
            if not full:
                tap_grad = low.extract_slice(
                    grad, [0, 0, row_first, col_first], sizes, [1] * 4,
                    tuple(sizes))
                tap_indices = low.extract_slice(
                    indices, [0, 0, row_first, col_first], sizes, [1] * 4,
                    tuple(sizes))
            offsets = [0, 0, row_start, col_start]
            strides = [1, 1, stride[0], stride[1]]
            target = low.extract_slice(result, offsets, sizes, strides,
                                       tuple(sizes))

            def compute(b, a, row_start=row_start, col_start=col_start):
                flat = b.emit(
                    "affine.apply affine_map<(d0, d1) -> ((d0 * %d + %d) * %d"
                    " + d1 * %d + %d)>(%s, %s)" % (
                        stride[0], row_start, w, stride[1], col_start,
                        b.index(2), b.index(3)))
                flat = b.emit("arith.index_cast %s : index to i64" % flat)
                hit = b.emit("arith.cmpi eq, %s, %s : i64" % (a[1], flat))
                added = b.emit("arith.addf %s, %s : %s" % (a[2], a[0],
                                                          dtype))
                return b.select(hit, added, a[2], dtype)
            exprs = ["d0", "d1", "d2", "d3"]
            update = low.generic(tuple(sizes), dtype, [tap_grad, tap_indices],
                                 [exprs, exprs], ["parallel"] * 4, Body(low),
                                 compute, init=target)
            result = low.insert_slice(update, result, offsets, sizes,
                                      strides)
    return result


def _avg_pool_divisors(size, out, kernel, stride, padding,
                       count_include_pad):
    """PyTorch's divisor of each window along one dim: the window clipped
    to the padded input, or to the input where padding is not counted."""
    divisors = []
    for o in range(out):
        start = o * stride - padding
        end = min(start + kernel, size + padding)
        if not count_include_pad:
            start, end = max(start, 0), min(end, size)
        divisors.append(end - start)
    return divisors


def _divide_by_windows(low, x, shape, kernel, stride, padding, size,
                       count_include_pad, divisor_override):
    """``x`` (one value per window) over its window's divisor: one constant
    where every window has the same, else per row times per column."""
    dtype = x.dtype
    if divisor_override:
        rows = cols = None
        divisor = divisor_override
    else:
        rows, cols = (_avg_pool_divisors(n, o, k, s, p, count_include_pad)
                      for n, o, k, s, p in zip(size, shape[-2:], kernel,
                                               stride, padding))
        divisor = rows[0] * cols[0]
    if rows is None or (len(set(rows)) == 1 and len(set(cols)) == 1):
        return low.elementwise(shape, dtype, [x], lambda b, v: b.emit(
            "arith.divf %s, %s : %s" % (v[0], b.const(divisor, dtype),
                                        dtype)))
    factors = []
    for values in (rows, cols):
        ttype = _tensor_type((len(values),), dtype)
        factors.append(Tensor(low.emit("arith.constant dense<[%s]> : %s" % (
            ", ".join(_float_literal(v, dtype) for v in values), ttype)),
            (len(values),), dtype))

    def compute(b, a):
        divisor = b.emit("arith.mulf %s, %s : %s" % (a[1], a[2], dtype))
        return b.emit("arith.divf %s, %s : %s" % (a[0], divisor, dtype))
    exprs = ["d0", "d1", "d2", "d3"]
    return low.generic(shape, dtype, [x] + factors, [exprs, ["d2"], ["d3"]],
                       ["parallel"] * 4, Body(low), compute)


@_handles(aten.avg_pool2d)
def _avg_pool2d(low, x, kernel, stride=(), padding=(0,), ceil_mode=False,
                count_include_pad=True, divisor_override=None):
    shape, dtype = _out(low)
    kernel, stride, padding, dilation, high = _pool_geometry(
        x, kernel, stride, padding, (1,), shape[-2:])
    # ``high`` is the padding the last window needs on the far side (more
    # than ``padding`` where ceil_mode's last window starts in it).
    x_padded = low.pad(x, [0, 0] + padding, [0, 0] + high, 0.0)
    xexprs = ["d0", "d1", "d2 * %d + d4" % stride[0],
              "d3 * %d + d5" % stride[1]]
    total = _window_sum(low, x_padded, xexprs, kernel, shape)
    return _divide_by_windows(low, total, shape, kernel, stride, padding,
                              x.shape[-2:], count_include_pad,
                              divisor_override)


@_handles(aten.avg_pool2d_backward)
def _avg_pool2d_backward(low, grad, x, kernel, stride, padding, ceil_mode,
                         count_include_pad, divisor_override):
    """Each window's gradient over its divisor, spread back over the
    window's inputs."""
    shape, dtype = _out(low)
    h, w = x.shape[-2:]
    kernel, stride, padding, dilation, high = _pool_geometry(
        x, kernel, stride, padding, (1,), grad.shape[-2:])
    grad = _divide_by_windows(low, low.materialize(grad), grad.shape, kernel,
                              stride, padding, (h, w), count_include_pad,
                              divisor_override)
    spread = _spread(low, grad, h, w, kernel, stride, padding, dilation, 0.0)
    exprs = ["d0", "d1", "d2 + %d - d4" % (kernel[0] - 1),
             "d3 + %d - d5" % (kernel[1] - 1)]
    return _window_sum(low, spread, exprs, kernel, shape)


def _window_sum(low, source, exprs, window, shape, divisor=None):
    """out[n, c, h, w] = sum over a (kh, kw) window of source[exprs] (loops
    n c h w | kh kw), divided by ``divisor`` when given."""
    dtype = source.dtype
    total = low.generic(shape, dtype, [source, low.window(tuple(window))],
                        [exprs, ["d4", "d5"]],
                        ["parallel"] * 4 + ["reduction"] * 2, Body(low),
                        lambda b, a: b.emit("arith.addf %s, %s : %s" %
                                            (a[2], a[0], dtype)),
                        init=low.filled(shape, dtype, 0.0))
    if divisor is None:
        return total
    return low.elementwise(shape, dtype, [total], lambda b, v: b.emit(
        "arith.divf %s, %s : %s" % (v[0], b.const(divisor, dtype), dtype)))


def _adaptive_windows(size, out):
    if size % out == 0:
        return size // out, size // out
    raise UnsupportedError(
        "adaptive average pooling from %d to %d (only sizes that divide "
        "evenly are supported)" % (size, out))


def _replication(low, small, large):
    """(ry, rx) when every pixel of ``small`` (h, w) is repeated ry x rx
    times in ``large``."""
    (h, w), (out_h, out_w) = small, large
    if out_h % h or out_w % w:
        return None
    return out_h // h, out_w // w


def _replicate(low, x, shape, ratio):
    ry, rx = ratio
    exprs = ["d0", "d1", "d2 floordiv %d" % ry, "d3 floordiv %d" % rx]
    return low.generic(shape, x.dtype, [low.materialize(x)], [exprs],
                       ["parallel"] * 4, Body(low), lambda b, a: a[0])


def _replicate_backward(low, grad, shape, ratio):
    """Each input pixel received ry*rx replicated outputs: their gradients
    add up."""
    ry, rx = ratio
    exprs = ["d0", "d1", "d2 * %d + d4" % ry, "d3 * %d + d5" % rx]
    return _window_sum(low, low.materialize(grad), exprs, (ry, rx), shape)


def _nearest_sources(size, out, scale):
    """PyTorch's source index of each output position of nearest
    upsampling (``nearest_idx``): the same index, half of it at twice the
    size, else ``floor(o * s)`` in float32 with ``s`` the inverse of the
    scale given, or ``size / out``."""
    if out == size:
        return list(range(out))
    if out == 2 * size:
        return [o >> 1 for o in range(out)]
    step = numpy.float32(1.0 / scale) if scale else \
        numpy.float32(size) / numpy.float32(out)
    return [min(int(numpy.floor(numpy.float32(o) * step)), size - 1)
            for o in range(out)]


def _nearest_tables(low, size, out, scales):
    """The source rows and columns of each output position, and the integer
    replication ratio where the sources are ``o // r`` along both dims."""
    sources = [_nearest_sources(n, o, s)
               for n, o, s in zip(size, out, scales)]
    ratio = _replication(low, size, out)
    if ratio is not None and all(
            table == [o // r for o in range(len(table))]
            for table, r in zip(sources, ratio)):
        return sources, ratio
    return sources, None


def _index_constant(low, values):
    ttype = _tensor_type((len(values),), "i64")
    return Tensor(low.emit("arith.constant dense<[%s]> : %s" % (
        ", ".join(map(str, values)), ttype)), (len(values),), "i64")


def _nearest_scales(*scales, **kwargs):
    """``[scale_h, scale_w]`` (None where not given) from the arguments
    after the sizes: ``scales_h, scales_w`` (``.default``) or one list
    ``scale_factors`` (``.vec``)."""
    if len(scales) == 1 and not isinstance(scales[0], (int, float)):
        return list(scales[0]) if scales[0] else [None, None]
    if "scale_factors" in kwargs:
        return list(kwargs["scale_factors"] or [None, None])
    scales = list(scales) + [None] * (2 - len(scales))
    return [kwargs.get("scales_h", scales[0]),
            kwargs.get("scales_w", scales[1])]


@_handles(aten.upsample_nearest2d)
def _upsample_nearest2d(low, x, output_size, *scales, **kwargs):
    """Integer factors replicate; other sizes read each output position's
    source through constant tables of rows and columns."""
    shape, dtype = _out(low)
    if len(shape) != 4:
        raise UnsupportedError("nearest upsampling of a %d-D input" %
                               len(shape))
    sources, ratio = _nearest_tables(low, x.shape[-2:], shape[-2:],
                                     _nearest_scales(*scales, **kwargs))
    if ratio is not None:
        return _replicate(low, x, shape, ratio)
    x = low.materialize(x)
    rows, cols = (_index_constant(low, table) for table in sources)

    def compute(b, args):
        indices = [b.index(0), b.index(1)] + [
            b.emit("arith.index_cast %s : i64 to index" % a)
            for a in args[:2]]
        return _extract(b, x, indices)
    return low.generic(shape, dtype, [rows, cols], [["d2"], ["d3"]],
                       ["parallel"] * 4, Body(low), compute)


@_handles(aten.upsample_nearest2d_backward)
def _upsample_nearest2d_backward(low, grad, output_size, input_size,
                                 *scales, **kwargs):
    """Each input pixel gets the gradients of the outputs that read it:
    summed over the output rows whose source is its row, then over the
    output columns whose source is its column."""
    shape, dtype = _out(low)
    if len(shape) != 4:
        raise UnsupportedError("nearest upsampling backward of a %d-D "
                               "input" % len(shape))
    sources, ratio = _nearest_tables(low, shape[-2:], grad.shape[-2:],
                                     _nearest_scales(*scales, **kwargs))
    if ratio is not None:
        return _replicate_backward(low, grad, shape, ratio)
    grad = low.materialize(grad)
    rows, cols = (_index_constant(low, table) for table in sources)

    def gather_along(source, table, out_shape, source_exprs, table_expr,
                     target_dim):
        def compute(b, args):
            here = b.emit("arith.index_cast %s : index to i64" %
                          b.index(target_dim))
            hit = b.emit("arith.cmpi eq, %s, %s : i64" % (here, args[1]))
            added = b.emit("arith.addf %s, %s : %s" % (args[2], args[0],
                                                      dtype))
            return b.select(hit, added, args[2], dtype)
        return low.generic(out_shape, dtype, [source, table],
                           [source_exprs, [table_expr]],
                           ["parallel"] * 4 + ["reduction"], Body(low),
                           compute, init=low.filled(out_shape, dtype, 0.0))
    # Loops n c ih ow | oh, then n c ih iw | ow.
    n, c, out_h, out_w = grad.shape
    by_rows = gather_along(grad, rows, (n, c, shape[2], out_w),
                           ["d0", "d1", "d4", "d3"], "d4", 2)
    return gather_along(by_rows, cols, shape, ["d0", "d1", "d2", "d4"], "d4",
                        3)


@_handles(aten._adaptive_avg_pool2d_backward)
def _adaptive_avg_pool2d_backward(low, grad, x):
    shape, dtype = _out(low)
    h, w = x.shape[-2:]
    out_h, out_w = grad.shape[-2:]
    ratio = _replication(low, (h, w), (out_h, out_w))
    if ratio is not None:
        # Adaptive pooling to a larger size replicates.
        return _replicate_backward(low, grad, shape, ratio)
    kh, sh = _adaptive_windows(h, out_h)
    kw, sw = _adaptive_windows(w, out_w)
    return _avg_pool2d_backward(low, grad, x, [kh, kw], [sh, sw], [0, 0],
                                False, True, None)
