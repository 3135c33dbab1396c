"""Random valid programs of every shape memsched takes, for the fuzzer.

``program(rng)`` writes a module of linalg on tensors the way frontends do
(destination-passing style, each result into its own ``tensor.empty``):
matmuls, elementwise, broadcasting and reduction ``linalg.generic``s,
named elementwise ops, fills, transposes, ``tensor.extract_slice`` /
``insert_slice``, ``collapse_shape`` / ``expand_shape``, ``tensor.concat``,
constants, several results (arguments returned directly among them) and
private helper functions called with ``func.call``; a quarter of the
programs are the training-step-like graphs of ``random_graphs``.
``control_flow_program(rng)`` adds ``scf.for`` / ``scf.if`` /
``scf.forall`` holding tensor ops, or runs a training step as gradient
accumulation (``accumulate``); the fuzzer counts those apart.

Every program has one element type (mostly f32) and static shapes, so
``memsched-exec-harness`` can run its entry function.
"""

import re

from random_graphs import training_step

ELEMENT_TYPES = ["f32"] * 12 + ["f16", "bf16", "f64", "i32", "i64"]
DIMS = [1, 2, 3, 4, 5, 6, 8, 12, 16]
LARGE_DIMS = [24, 32, 48, 64]


def _type(shape, element):
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), element)


def _is_float(element):
    return element.startswith("f") or element == "bf16"


def _constant(element, value):
    """A scalar literal of ``element`` (value a small integer)."""
    return ("%d.%s" % (value, "5" if value % 2 else "0")
            if _is_float(element) else "%d" % value)


def _binary_ops(element):
    if _is_float(element):
        return ["arith.addf", "arith.subf", "arith.mulf", "arith.maximumf",
                "arith.minimumf"]
    return ["arith.addi", "arith.subi", "arith.muli", "arith.maxsi",
            "arith.minsi"]


def _add(element):
    return "arith.addf" if _is_float(element) else "arith.addi"


def _map(rank, dims):
    domain = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (domain, ", ".join(
        "d%d" % d for d in dims))


class _Function:
    """One function being written: its arguments, lines and the values in
    scope with their shapes."""

    def __init__(self, rng, name, element, arguments):
        self.rng = rng
        self.name = name
        self.element = element
        self.lines = []
        self.values = []  # (name, shape)
        self.arguments = []
        self.counter = 0
        # A region body cannot add arguments to its function.
        self.can_add_arguments = True
        for shape in arguments:
            self.new_argument(shape)

    def fresh(self, prefix="v"):
        self.counter += 1
        return "%%%s%d" % (prefix, self.counter)

    def type(self, shape):
        return _type(shape, self.element)

    def new_argument(self, shape):
        name = "%%arg%d" % len(self.arguments)
        self.arguments.append((name, shape))
        self.values.append((name, shape))
        return name

    def define(self, name, shape):
        self.values.append((name, tuple(shape)))
        return name

    def pick(self, rank=None, recent=True):
        """A value in scope (of ``rank`` if given), recent ones likelier, so
        programs have chains as well as long-lived values; None if none."""
        candidates = [v for v in self.values
                      if rank is None or len(v[1]) == rank]
        if not candidates:
            return None
        if recent and self.rng.random() < 0.6:
            return candidates[-self.rng.randint(1, min(3, len(candidates)))]
        return self.rng.choice(candidates)

    def value_of(self, shape):
        """A value of ``shape``: one in scope, else a new argument, fill or
        constant."""
        shape = tuple(shape)
        matching = [v for v, s in self.values if s == shape]
        if matching and self.rng.random() < 0.8:
            return self.rng.choice(matching)
        choice = self.rng.random()
        if choice < 0.4 and self.can_add_arguments:
            return self.new_argument(shape)
        if choice < 0.7:
            return self.fill(shape)
        return self.constant(shape)

    def empty(self, shape):
        name = self.fresh("e")
        self.lines.append("  %s = tensor.empty() : %s" % (name,
                                                          self.type(shape)))
        return name

    def fill(self, shape, value=None):
        value = self.rng.randint(-3, 3) if value is None else value
        scalar = self.fresh("c")
        self.lines.append("  %s = arith.constant %s : %s" % (
            scalar, _constant(self.element, value), self.element))
        empty = self.empty(shape)
        name = self.fresh("fill")
        self.lines.append(
            "  %s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s"
            % (name, scalar, self.element, empty, self.type(shape),
               self.type(shape)))
        return self.define(name, shape)

    def constant(self, shape):
        name = self.fresh("cst")
        count = 1
        for d in shape:
            count *= d
        if count <= 16 and self.rng.random() < 0.5:
            elements = [_constant(self.element, self.rng.randint(-4, 4))
                        for _ in range(count)]
            body = _nest(elements, list(shape))
        else:
            body = _constant(self.element, self.rng.randint(-4, 4))
        self.lines.append("  %s = arith.constant dense<%s> : %s"
                          % (name, body, self.type(shape)))
        return self.define(name, shape)

    # Computations.

    def elementwise(self):
        x = self.pick()
        if x is None:
            return
        name, shape = x
        rank = len(shape)
        inputs = [(name, list(range(rank)))]
        if self.rng.random() < 0.7:
            if rank == 2 and self.rng.random() < 0.3:
                # A row vector broadcast along the rows.
                inputs.append((self.value_of((shape[1],)), [1]))
            else:
                inputs.append((self.value_of(shape), list(range(rank))))
        out = self.empty(shape)
        maps = [_map(rank, dims) for _, dims in inputs]
        maps.append(_map(rank, range(rank)))
        ins = ", ".join(v for v, _ in inputs)
        types = ", ".join(self.type(shape if len(dims) == rank
                                    else (shape[1],)) for _, dims in inputs)
        args = ", ".join("%%a%d: %s" % (i, self.element)
                         for i in range(len(inputs)))
        result = self.fresh("ew")
        self.lines.append(
            "  %s = linalg.generic {indexing_maps = [%s], iterator_types = "
            "[%s]} ins(%s : %s) outs(%s : %s) {"
            % (result, ", ".join(maps),
               ", ".join(['"parallel"'] * rank), ins, types, out,
               self.type(shape)))
        self.lines.append("  ^bb0(%s, %%o: %s):" % (args, self.element))
        if len(inputs) == 1:
            if _is_float(self.element) and self.rng.random() < 0.5:
                self.lines.append("    %%r = arith.negf %%a0 : %s"
                                  % self.element)
            else:
                self.lines.append("    %%r = %s %%a0, %%a0 : %s" % (
                    self.rng.choice(_binary_ops(self.element)),
                    self.element))
        else:
            self.lines.append("    %%r = %s %%a0, %%a1 : %s" % (
                self.rng.choice(_binary_ops(self.element)), self.element))
        self.lines.append("    linalg.yield %%r : %s" % self.element)
        self.lines.append("  } -> %s" % self.type(shape))
        self.define(result, shape)

    def named_elementwise(self):
        x = self.pick()
        if x is None:
            return
        name, shape = x
        other = self.value_of(shape)
        op = self.rng.choice(["add", "mul", "sub", "max"])
        out = self.empty(shape)
        result = self.fresh("nm")
        self.lines.append("  %s = linalg.%s ins(%s, %s : %s, %s) outs(%s : %s)"
                          " -> %s" % (result, op, name, other,
                                      self.type(shape), self.type(shape), out,
                                      self.type(shape), self.type(shape)))
        self.define(result, shape)

    def reduction(self):
        x = self.pick(rank=2)
        if x is None:
            return
        name, shape = x
        kept = self.rng.randint(0, 1)
        out_shape = (shape[kept],)
        init = self.fill(out_shape, 0)
        result = self.fresh("red")
        self.lines.append(
            "  %s = linalg.generic {indexing_maps = [%s, %s], iterator_types"
            " = [\"parallel\", \"reduction\"]} ins(%s : %s) outs(%s : %s) {"
            % (result, _map(2, [0, 1] if kept == 0 else [1, 0]),
               _map(2, [0]), name, self.type(shape), init,
               self.type(out_shape)))
        self.lines.append("  ^bb0(%%a: %s, %%o: %s):" % (self.element,
                                                         self.element))
        self.lines.append("    %%r = %s %%a, %%o : %s" % (_add(self.element),
                                                          self.element))
        self.lines.append("    linalg.yield %%r : %s" % self.element)
        self.lines.append("  } -> %s" % self.type(out_shape))
        self.define(result, out_shape)

    def matmul(self):
        a = self.pick(rank=2)
        if a is None:
            return
        name, (m, k) = a
        n = self.rng.choice(DIMS)
        b = self.value_of((k, n))
        init = self.fill((m, n), 0)
        result = self.fresh("mm")
        self.lines.append(
            "  %s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
            % (result, name, b, self.type((m, k)), self.type((k, n)), init,
               self.type((m, n)), self.type((m, n))))
        self.define(result, (m, n))

    def transpose(self):
        x = self.pick(rank=2)
        if x is None:
            return
        name, (m, n) = x
        out = self.empty((n, m))
        result = self.fresh("tr")
        self.lines.append(
            "  %s = linalg.transpose ins(%s : %s) outs(%s : %s) "
            "permutation = [1, 0]" % (result, name, self.type((m, n)), out,
                                      self.type((n, m))))
        self.define(result, (n, m))

    def extract_slice(self):
        x = self.pick()
        if x is None:
            return
        name, shape = x
        sizes = [self.rng.randint(1, d) for d in shape]
        strides = [self.rng.choice([1, 1, 2]) if s > 1 else 1 for s in sizes]
        sizes = [min(s, (d - 1) // st + 1)
                 for s, d, st in zip(sizes, shape, strides)]
        offsets = [self.rng.randint(0, d - ((s - 1) * st + 1))
                   for d, s, st in zip(shape, sizes, strides)]
        result = self.fresh("sl")
        self.lines.append(
            "  %s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s"
            % (result, name, _list(offsets), _list(sizes), _list(strides),
               self.type(shape), self.type(sizes)))
        self.define(result, sizes)

    def insert_slice(self):
        dest = self.pick(recent=False)
        if dest is None:
            return
        dest_name, shape = dest
        sizes = [self.rng.randint(1, d) for d in shape]
        source = self.value_of(sizes)
        offsets = [self.rng.randint(0, d - s) for d, s in zip(shape, sizes)]
        result = self.fresh("ins")
        self.lines.append(
            "  %s = tensor.insert_slice %s into %s[%s] [%s] [%s] : %s into %s"
            % (result, source, dest_name, _list(offsets), _list(sizes),
               _list([1] * len(shape)), self.type(sizes), self.type(shape)))
        self.define(result, shape)

    def collapse(self):
        x = self.pick(rank=2)
        if x is None:
            return
        name, (m, n) = x
        result = self.fresh("col")
        self.lines.append("  %s = tensor.collapse_shape %s [[0, 1]] : %s into"
                          " %s" % (result, name, self.type((m, n)),
                                   self.type((m * n,))))
        self.define(result, (m * n,))

    def expand(self):
        x = self.pick(rank=1)
        if x is None:
            return
        name, (n,) = x
        divisors = [d for d in range(1, n + 1) if n % d == 0]
        a = self.rng.choice(divisors)
        result = self.fresh("exp")
        self.lines.append(
            "  %s = tensor.expand_shape %s [[0, 1]] output_shape [%d, %d] : %s"
            " into %s" % (result, name, a, n // a, self.type((n,)),
                          self.type((a, n // a))))
        self.define(result, (a, n // a))

    def concat(self):
        x = self.pick()
        if x is None:
            return
        name, shape = x
        dim = self.rng.randrange(len(shape))
        other_shape = list(shape)
        other_shape[dim] = self.rng.choice(DIMS)
        other = self.value_of(other_shape)
        out_shape = list(shape)
        out_shape[dim] += other_shape[dim]
        operands = [(name, shape), (other, tuple(other_shape))]
        self.rng.shuffle(operands)
        result = self.fresh("cat")
        self.lines.append("  %s = tensor.concat dim(%d) %s : (%s) -> %s" % (
            result, dim, ", ".join(v for v, _ in operands),
            ", ".join(self.type(s) for _, s in operands),
            self.type(out_shape)))
        self.define(result, out_shape)

    def call(self, callee):
        """A call of ``callee`` = (name, argument shapes, result shapes)."""
        name, argument_shapes, result_shapes = callee
        operands = [self.value_of(s) for s in argument_shapes]
        results = [self.fresh("call") for _ in result_shapes]
        head = (results[0] if len(results) == 1 else
                "%s:%d" % (results[0], len(results)))
        self.lines.append("  %s = func.call @%s(%s) : (%s) -> (%s)" % (
            head, name, ", ".join(operands),
            ", ".join(self.type(s) for s in argument_shapes),
            ", ".join(self.type(s) for s in result_shapes)))
        for index, (result, shape) in enumerate(zip(results, result_shapes)):
            self.define(results[0] if len(results) == 1
                        else "%s#%d" % (results[0], index), shape)

    def finish(self, private=False, results=None):
        """The function's text; returns 1-4 values in scope (the last one
        defined among them, arguments and repeats allowed)."""
        if results is None:
            count = self.rng.randint(1, 4)
            results = [self.values[-1]]
            for _ in range(count - 1):
                results.append(self.rng.choice(self.values))
        head = "func.func %s@%s(%s) -> (%s) {" % (
            "private " if private else "", self.name,
            ", ".join("%s: %s" % (n, self.type(s))
                      for n, s in self.arguments),
            ", ".join(self.type(s) for _, s in results))
        body = self.lines + ["  return %s : %s" % (
            ", ".join(n for n, _ in results),
            ", ".join(self.type(s) for _, s in results)), "}"]
        return "\n".join([head] + body), [s for _, s in self.arguments], [
            s for _, s in results]


def _list(values):
    return ", ".join(str(v) for v in values)


def _nest(elements, shape):
    if not shape:
        return elements[0]
    if len(shape) == 1:
        return "[%s]" % ", ".join(elements)
    step = len(elements) // shape[0]
    return "[%s]" % ", ".join(_nest(elements[i * step:(i + 1) * step],
                                    shape[1:]) for i in range(shape[0]))


OPS = ["elementwise"] * 5 + ["named_elementwise", "reduction", "matmul",
                             "matmul", "transpose", "extract_slice",
                             "insert_slice", "collapse", "expand", "concat",
                             "fill", "constant"]


def _body(function, ops, callees):
    rng = function.rng
    for _ in range(ops):
        if callees and rng.random() < 0.08:
            function.call(rng.choice(callees))
            continue
        kind = rng.choice(OPS)
        if kind in ("fill", "constant"):
            shape = tuple(rng.choice(DIMS) for _ in range(rng.randint(1, 2)))
            getattr(function, kind)(shape)
        else:
            getattr(function, kind)()


def _arguments(rng, dims):
    return [tuple(rng.choice(dims) for _ in range(rng.randint(1, 2)))
            for _ in range(rng.randint(1, 4))]


def program(rng, max_ops=None):
    """A random module (its entry of at most ``max_ops`` generated ops when
    given); returns (text, entry function name, kind)."""
    if rng.random() < 0.25:
        text = training_step(rng, shuffle=rng.random() < 0.7,
                             max_rows=rng.choice([8, 16, 32]),
                             width=rng.choice([4, 16, 64]))
        return text, "train_step", "training-step"
    element = rng.choice(ELEMENT_TYPES)
    dims = DIMS + (LARGE_DIMS if rng.random() < 0.2 else [])
    # Mostly small programs (executed on CPU), a tail up to 300 ops.
    ops = (rng.randint(3, 40) if rng.random() < 0.85
           else rng.randint(40, 300))
    ops = min(ops, max_ops or ops)
    callees, texts = [], []
    for index in range(rng.choice([0, 0, 1, 2])):
        helper = _Function(rng, "helper%d" % index, element,
                           _arguments(rng, dims))
        _body(helper, rng.randint(1, 8), callees)
        text, arguments, results = helper.finish(private=True)
        texts.append(text)
        callees.append(("helper%d" % index, arguments, results))
    main = _Function(rng, "main", element, _arguments(rng, dims))
    _body(main, ops, callees)
    texts.append(main.finish()[0])
    return "\n".join(texts) + "\n", "main", "calls" if callees else "mixed"


def _forall(main, rng, name, shape, result):
    """``result`` = an ``scf.forall`` computing ``name`` elementwise in tiles
    of rows, each into its slice of the shared output (in place) or into a
    tensor of its own that the parallel insertion copies; the output is a
    new empty tensor or a value in scope (whose buffer may be reused)."""
    element = main.element
    tiles = rng.choice([t for t in (1, 2, 3, 4) if shape[0] % t == 0])
    rows = shape[0] // tiles
    tile_shape = (rows,) + tuple(shape[1:])
    rank = len(shape)
    init = (main.empty(shape) if rng.random() < 0.5
            else main.value_of(shape))
    index = main.fresh("i")
    out = main.fresh("out")
    main.lines.append(
        "  %s = scf.forall (%s) in (%d) shared_outs(%s = %s) -> (%s) {" % (
            result, index, tiles, out, init, main.type(shape)))
    step, offset = main.fresh("rows"), main.fresh("off")
    main.lines.append("    %s = arith.constant %d : index" % (step, rows))
    main.lines.append("    %s = arith.muli %s, %s : index" % (offset, index,
                                                             step))
    slicing = "[%s] [%s] [%s]" % (
        ", ".join([offset] + ["0"] * (rank - 1)),
        ", ".join(str(d) for d in tile_shape), ", ".join(["1"] * rank))
    source, tile = main.fresh("src"), main.fresh("tile")
    main.lines.append("    %s = tensor.extract_slice %s%s : %s to %s" % (
        source, name, slicing, main.type(shape), main.type(tile_shape)))
    if rng.random() < 0.7:
        main.lines.append("    %s = tensor.extract_slice %s%s : %s to %s" % (
            tile, out, slicing, main.type(shape), main.type(tile_shape)))
    else:
        main.lines.append("    %s = tensor.empty() : %s" % (
            tile, main.type(tile_shape)))
    computed = main.fresh("t")
    identity = _map(rank, range(rank))
    main.lines += [
        "    %s = linalg.generic {indexing_maps = [%s, %s], iterator_types ="
        " [%s]} ins(%s : %s) outs(%s : %s) {" % (
            computed, identity, identity,
            ", ".join(['"parallel"'] * rank), source,
            main.type(tile_shape), tile, main.type(tile_shape)),
        "    ^bb0(%%a: %s, %%o: %s):" % (element, element),
        "      %%r = %s %%a, %%a : %s" % (rng.choice(_binary_ops(element)),
                                        element),
        "      linalg.yield %r : " + element,
        "    } -> " + main.type(tile_shape),
        "    scf.forall.in_parallel {",
        "      tensor.parallel_insert_slice %s into %s%s : %s into %s" % (
            computed, out, slicing, main.type(tile_shape), main.type(shape)),
        "    }",
        "  }"]


def split_types(text):
    """Splits a comma-separated list of types at the top level."""
    types, depth, current = [], 0, ""
    for char in text:
        depth += char in "<([{"
        depth -= char in ">)]}"
        if char == "," and depth == 0:
            types.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        types.append(current.strip())
    return types


def _step_parts(text):
    """(lines, index of @train_step's signature, index of its return,
    returned values, their types, the return's indentation) of `text`,
    which has one op per line and its return on a line of its own (as
    memsched-opt prints it, and as the generators write it)."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines)
                 if "func.func @train_step(" in line)
    end = next(i for i in range(start + 1, len(lines))
               if re.match(r"\s*(func\.)?return\b", lines[i]))
    returned = re.match(r"\s*(?:func\.)?return\s+(.*?)\s*:\s*(.*)$",
                        lines[end])
    values = [v.strip() for v in returned.group(1).split(",")]
    types = split_types(returned.group(2))
    indent = re.match(r"\s*", lines[end]).group(0)
    return lines, start, end, values, types, indent


def _sums(values, types, indent, into):
    """linalg.add of each value into `into % index`, in place."""
    return [indent + "%%acc_sum%d = linalg.add ins(%s, %s : %s, %s) "
            "outs(%s : %s) -> %s" % (index, into % index, value, type_,
                                     type_, into % index, type_, type_)
            for index, (value, type_) in enumerate(zip(values, types))]


def accumulate(text, trips):
    """Returns `text` with @train_step's body run `trips` times in an
    scf.for that sums its results: gradient accumulation over
    micro-batches (the same one each time). `text` is as `_step_parts`
    reads it."""
    lines, start, end, values, types, indent = _step_parts(text)
    head = [
        indent + "%acc_c0 = arith.constant 0 : index",
        indent + "%acc_c1 = arith.constant 1 : index",
        indent + "%%acc_trips = arith.constant %d : index" % trips,
        indent + "%acc_zero = arith.constant 0.0 : f32",
    ]
    for index, type_ in enumerate(types):
        head.append(indent + "%%acc_e%d = tensor.empty() : %s" %
                    (index, type_))
        head.append(indent + "%%acc_init%d = linalg.fill ins(%%acc_zero : "
                    "f32) outs(%%acc_e%d : %s) -> %s" %
                    (index, index, type_, type_))
    carried = ", ".join("%%acc_arg%d = %%acc_init%d" % (i, i)
                        for i in range(len(types)))
    head.append(indent + "%%acc_loop:%d = scf.for %%acc_i = %%acc_c0 to "
                "%%acc_trips step %%acc_c1 iter_args(%s) -> (%s) {" %
                (len(types), carried, ", ".join(types)))
    tail = _sums(values, types, indent + "  ", "%%acc_arg%d")
    tail.append(indent + "  scf.yield " +
                ", ".join("%%acc_sum%d" % i for i in range(len(types))) +
                " : " + ", ".join(types))
    tail.append(indent + "}")
    tail.append(indent + "return " +
                ", ".join("%%acc_loop#%d" % i for i in range(len(types))) +
                " : " + ", ".join(types))
    body = ["  " + line for line in lines[start + 1:end]]
    return "\n".join(lines[:start + 1] + head + body + tail + lines[end + 1:])


def accumulate_into_arguments(text):
    """Returns `text` with each result of @train_step added, in place, into
    a new argument of its type, which the step then returns: one
    micro-batch of gradient accumulation, what a loop's body does."""
    lines, start, end, values, types, indent = _step_parts(text)
    extra = ", ".join("%%acc_arg%d: %s" % (i, t) for i, t in enumerate(types))
    signature = lines[start].replace(") -> (", ", " + extra + ") -> (", 1)
    tail = _sums(values, types, indent, "%%acc_arg%d")
    tail.append(indent + "return " + ", ".join(
        "%%acc_sum%d" % i for i in range(len(types))) + " : " +
        ", ".join(types))
    return "\n".join(lines[:start] + [signature] + lines[start + 1:end] +
                     tail + lines[end + 1:])


def control_flow_program(rng):
    """A module whose entry holds ``scf.for``, ``scf.forall`` and/or
    ``scf.if`` with tensor ops inside; returns (text, entry function name,
    kind). One in four is a training step run as gradient accumulation
    (its whole body in the loop, where the budget driver plans inside)."""
    if rng.random() < 0.25:
        step = training_step(rng, shuffle=rng.random() < 0.7,
                             max_rows=rng.choice([8, 16, 32]),
                             width=rng.choice([4, 16, 64]))
        return accumulate(step, rng.randint(1, 3)), "train_step", \
            "control-flow"
    element = "f32"
    main = _Function(rng, "main", element, _arguments(rng, DIMS))
    _body(main, rng.randint(1, 6), [])
    for _ in range(rng.randint(1, 3)):
        name, shape = main.pick()
        result = main.fresh("cf")
        kind = rng.random()
        if kind < 0.3:
            _forall(main, rng, name, shape, result)
        elif kind < 0.65:
            lower, upper = main.fresh("lb"), main.fresh("ub")
            step = main.fresh("st")
            main.lines += [
                "  %s = arith.constant 0 : index" % lower,
                "  %s = arith.constant %d : index" % (upper,
                                                      rng.randint(1, 4)),
                "  %s = arith.constant 1 : index" % step,
                "  %s = scf.for %%i%s = %s to %s step %s iter_args(%%acc%s ="
                " %s) -> (%s) {" % (result, result[1:], lower, upper, step,
                                    result[1:], name, main.type(shape))]
            inner = _Function(rng, "inner", element, [])
            inner.can_add_arguments = False
            inner.values = list(main.values) + [("%%acc%s" % result[1:],
                                                 shape)]
            inner.counter = main.counter + 1000
            _body(inner, rng.randint(1, 4), [])
            carried = [v for v in inner.values if v[1] == shape]
            main.lines += ["  " + line for line in inner.lines]
            main.lines.append("    scf.yield %s : %s" % (carried[-1][0],
                                                         main.type(shape)))
            main.lines.append("  }")
            main.counter = inner.counter
        else:
            flag = main.fresh("flag")
            main.lines.append("  %s = arith.constant %s" % (
                flag, rng.choice(["true", "false"])))
            main.lines.append("  %s = scf.if %s -> (%s) {" % (
                result, flag, main.type(shape)))
            for branch in range(2):
                inner = _Function(rng, "inner", element, [])
                inner.can_add_arguments = False
                inner.values = list(main.values)
                inner.counter = main.counter + 1000
                _body(inner, rng.randint(0, 3), [])
                carried = [v for v in inner.values if v[1] == shape]
                main.lines += ["  " + line for line in inner.lines]
                main.lines.append("    scf.yield %s : %s" % (
                    carried[-1][0], main.type(shape)))
                main.lines.append("  } else {" if branch == 0 else "  }")
                main.counter = inner.counter
        main.define(result, shape)
    _body(main, rng.randint(0, 4), [])
    return main.finish()[0] + "\n", "main", "control-flow"
