"""Random programs in linalg on tensors for memsched's property tests.

Every generator takes a ``random.Random`` and returns MLIR text plus what
the test needs to know about it. Programs are written the way frontends
write them: destination-passing style, each result into its own
``tensor.empty``, in a random topological order.
"""

import itertools


def _type(rows, width):
    return ("tensor<%dxf32>" % rows if width is None
            else "tensor<%dx%dxf32>" % (rows, width))


def _generic(name, inputs, out_rows, empty, width=None):
    """A linalg.generic writing ``out_rows`` f32 rows (of ``width`` each,
    1-D when None) into ``empty``: it reduces over the rows of every input
    (one loop per input), so any row counts combine."""
    k = len(inputs)
    first = 1 if width is None else 2
    dims = ["d%d" % i for i in range(k + first)]
    domain = "(%s)" % ", ".join(dims)
    column = "" if width is None else ", d1"
    maps = ["affine_map<%s -> (d%d%s)>" % (domain, i + first, column)
            for i in range(k)]
    maps.append("affine_map<%s -> (d0%s)>" % (domain, column))
    iterators = ", ".join(['"parallel"'] * first + ['"reduction"'] * k)
    ins = ", ".join(v for v, _ in inputs)
    types = ", ".join(_type(n, width) for _, n in inputs)
    args = ", ".join("%%a%d: f32" % i for i in range(k))
    body = []
    acc = "%a0"
    for i in range(1, k):
        body.append("    %%s%d = arith.addf %s, %%a%d : f32" % (i, acc, i))
        acc = "%%s%d" % i
    out_type = _type(out_rows, width)
    lines = [
        "  %s = tensor.empty() : %s" % (empty, out_type),
        "  %s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]}"
        " ins(%s : %s) outs(%s : %s) {"
        % (name, ", ".join(maps), iterators, ins, types, empty, out_type),
        "  ^bb0(%s, %%o: f32):" % args,
    ]
    lines += body
    lines.append("    linalg.yield %s : f32" % acc)
    lines.append("  } -> %s" % out_type)
    return lines


def dps_tree(rng, n, max_children=3, max_len=16):
    """A random in-tree of ``n`` computations (root n-1), each writing into
    its own empty tensor, emitted in a random topological order. Leaves read
    one argument each. Returns (text, parents, sizes in bytes)."""
    parents = [None] * n
    for v in range(n - 1):
        open_parents = [p for p in range(v + 1, n)
                        if parents.count(p) < max_children]
        parents[v] = rng.choice(open_parents or [n - 1])
    children = [[u for u in range(n) if parents[u] == v] for v in range(n)]
    lengths = [rng.randint(1, max_len) for _ in range(n)]
    arg_lengths = [rng.randint(1, max_len) for _ in range(n)]
    # A random linear extension: repeatedly emit a random ready node.
    order, done = [], set()
    while len(order) < n:
        ready = [v for v in range(n) if v not in done
                 and all(c in done for c in children[v])]
        v = rng.choice(ready)
        order.append(v)
        done.add(v)
    leaves = [v for v in range(n) if not children[v]]
    arguments = ", ".join("%%arg%d: tensor<%dxf32>" % (v, arg_lengths[v])
                          for v in leaves)
    lines = ["func.func @tree(%s) -> tensor<%dxf32> {"
             % (arguments, lengths[n - 1])]
    for v in order:
        inputs = ([("%%n%d" % c, lengths[c]) for c in children[v]]
                  or [("%%arg%d" % v, arg_lengths[v])])
        lines += _generic("%%n%d" % v, inputs, lengths[v], "%%e%d" % v)
    lines.append("  return %%n%d : tensor<%dxf32>" % (n - 1, lengths[n - 1]))
    lines.append("}")
    return "\n".join(lines) + "\n", parents, [4 * x for x in lengths]


def tree_optimum(parents, sizes):
    """The least peak of live transient bytes over every topological order
    of an in-tree, by brute force: a node's output is live from its step to
    its parent's step (the root's to the end)."""
    n = len(parents)
    children = [[u for u in range(n) if parents[u] == v] for v in range(n)]
    best = None
    # Depth-first over orders, pruning at the best peak found so far.
    def search(done, live, peak):
        nonlocal best
        if best is not None and peak >= best:
            return
        if len(done) == n:
            best = peak
            return
        for v in range(n):
            if v in done or any(c not in done for c in children[v]):
                continue
            step_live = live + sizes[v]
            after = step_live - sum(sizes[c] for c in children[v])
            done.add(v)
            search(done, after, max(peak, step_live))
            done.remove(v)
    search(set(), 0, 0)
    return best


def training_step(rng, depth=None, max_rows=16, width=64, shuffle=True):
    """A random training-step-like program: a forward chain with skip
    connections over weights, a loss, and a backward pass that reads the
    forward activations in reverse and returns the loss and one gradient
    per weight. Emitted in a random topological order (with ``shuffle``)
    or forward then backward. Returns the text."""
    depth = depth or rng.randint(3, 14)
    # Activations outweigh weights (and so gradients), as in training.
    lengths = [rng.randint(max_rows // 4, max_rows) for _ in range(depth + 1)]
    weights = [rng.randint(1, 2) for _ in range(depth + 1)]
    ops = []  # (name, inputs [(value, length)], out_len)
    length_of = {}

    def add(name, inputs, out_len):
        ops.append((name, inputs, out_len))
        length_of[name] = out_len

    for i in range(depth + 1):
        length_of["%%w%d" % i] = weights[i]
    length_of["%x"] = lengths[0]
    previous = "%x"
    activations = ["%x"]
    for i in range(1, depth + 1):
        inputs = [previous, "%%w%d" % i]
        if i >= 2 and rng.random() < 0.3:
            inputs.append(activations[rng.randrange(0, i - 1)])
        add("%%h%d" % i, inputs, lengths[i])
        activations.append("%%h%d" % i)
        previous = "%%h%d" % i
    add("%loss", [previous], 1)
    grad = "%loss"
    results = ["%loss"]
    for i in range(depth, 0, -1):
        add("%%dw%d" % i, [grad, activations[i - 1]], weights[i])
        results.append("%%dw%d" % i)
        if i > 1:
            add("%%g%d" % i, [grad, activations[i - 1], "%%w%d" % i],
                lengths[i - 1])
            grad = "%%g%d" % i
    # A random linear extension of the dependences (quadratic: small
    # programs only; large ones keep the forward-then-backward order).
    produced = {"%x"} | {"%%w%d" % i for i in range(depth + 1)}
    remaining = list(ops) if shuffle else []
    ordered = [] if shuffle else list(ops)
    while remaining:
        ready = [op for op in remaining if all(v in produced
                                               for v in op[1])]
        op = rng.choice(ready)
        remaining.remove(op)
        ordered.append(op)
        produced.add(op[0])
    arguments = ["%%x: %s" % _type(lengths[0], width)] + [
        "%%w%d: %s" % (i, _type(weights[i], width)) for i in range(depth + 1)]
    result_types = ", ".join(_type(length_of[r], width) for r in results)
    lines = ["func.func @train_step(%s) -> (%s) {"
             % (", ".join(arguments), result_types)]
    for index, (name, inputs, out_len) in enumerate(ordered):
        lines += _generic(name, [(v, length_of[v]) for v in inputs], out_len,
                          "%%e%d" % index, width)
    lines.append("  return %s : %s" % (", ".join(results), result_types))
    lines.append("}")
    return "\n".join(lines) + "\n"


def random_dag(rng, n=None, max_rows=8, width=64):
    """A random DAG of ``n`` ops in program order: each writes 1 to
    ``max_rows`` rows into its own empty tensor and reads 1-3 earlier ops
    (the first reads the argument); then a chain of one-row ops folds in
    the ops nothing read, and its last op is returned. Returns the text."""
    n = n or rng.randint(8, 20)
    rows = [rng.randint(1, max_rows) for _ in range(n)]
    reads = [sorted({rng.randrange(v) for _ in range(rng.randint(1, 3))})
             if v else [] for v in range(n)]
    read = {u for inputs in reads for u in inputs}
    unread = [v for v in range(n) if v not in read]
    for v in unread[1:]:
        reads.append([len(rows) - 1, v] if len(rows) > n else [unread[0], v])
        rows.append(1)
    last = len(rows) - 1
    lines = ["func.func @dag(%%x: %s) -> %s {"
             % (_type(1, width), _type(rows[last], width))]
    for v in range(len(rows)):
        inputs = ([("%%n%d" % u, rows[u]) for u in reads[v]] if reads[v]
                  else [("%x", 1)])
        lines += _generic("%%n%d" % v, inputs, rows[v], "%%e%d" % v, width)
    lines.append("  return %%n%d : %s" % (last, _type(rows[last], width)))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _generic_costed(names, inputs, outputs, empties, seconds, width):
    """A linalg.generic writing each of ``outputs`` (row counts, one or two)
    into ``empties`` from ``inputs`` ((value, rows) pairs, each reduced over
    its rows), timed by ``memsched.cost``. With two results, each one's rows
    are a reduction dimension of the other's."""
    k = len(inputs)
    first = 2 if len(outputs) == 1 else 3
    dims = ["d%d" % i for i in range(first + k)]
    domain = "(%s)" % ", ".join(dims)
    maps = ["affine_map<%s -> (d%d, d1)>" % (domain, first + i)
            for i in range(k)]
    maps += ["affine_map<%s -> (d%d, d1)>" % (domain, 0 if r == 0 else 2)
             for r in range(len(outputs))]
    iterators = (['"parallel"', '"parallel"'] if len(outputs) == 1 else
                 ['"reduction"', '"parallel"', '"reduction"'])
    iterators += ['"reduction"'] * k
    out_types = [_type(rows, width) for rows in outputs]
    lines = ["  %s = tensor.empty() : %s" % (e, t)
             for e, t in zip(empties, out_types)]
    args = ["%%a%d: f32" % i for i in range(k)] + [
        "%%o%d: f32" % r for r in range(len(outputs))]
    result_types = (out_types[0] if len(outputs) == 1
                    else "(%s)" % ", ".join(out_types))
    lines.append(
        "  %s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]}"
        " ins(%s : %s) outs(%s : %s) attrs = {memsched.cost = %.6e : f64} {"
        % (", ".join(names), ", ".join(maps), ", ".join(iterators),
           ", ".join(v for v, _ in inputs),
           ", ".join(_type(n, width) for _, n in inputs), ", ".join(empties),
           ", ".join(out_types), seconds))
    lines.append("  ^bb0(%s):" % ", ".join(args))
    acc = "%a0"
    for i in range(1, k):
        lines.append("    %%s%d = arith.addf %s, %%a%d : f32" % (i, acc, i))
        acc = "%%s%d" % i
    lines.append("    linalg.yield %s : %s" % (
        ", ".join([acc] * len(outputs)), ", ".join(["f32"] * len(outputs))))
    lines.append("  } -> %s" % result_types)
    return lines


def chain_step(rng, depth=None, max_rows=8, width=64):
    """A random training step shaped as Rotor's chain: a seed gradient from
    the input; per stage l a forward op making x_l and, often, the rest of
    what its backward reads (xbar_l) from x_{l-1}; per stage, in reverse, a
    backward op making d_{l-1} from d_l, x_l, xbar_l and x_{l-1}; d_0 is
    returned. Ops carry random `memsched.cost` times (forward 0.5-4, backward
    1-2.5 times that). Returns the text."""
    depth = depth or rng.randint(6, 24)
    x_rows = [rng.randint(1, max_rows) for _ in range(depth + 1)]
    rest_rows = [0] + [rng.choice([0, rng.randint(1, 2 * max_rows)])
                       for _ in range(depth)]
    d_rows = [x_rows[0]] + [rng.randint(1, max_rows) for _ in range(depth)]
    lines = ["func.func @chain_step(%%x0: %s) -> %s {"
             % (_type(x_rows[0], width), _type(d_rows[0], width))]
    counter = [0]

    def empties(n):
        counter[0] += n
        return ["%%e%d" % (counter[0] - n + i) for i in range(n)]

    lines += _generic_costed(["%%d%d" % depth], [("%x0", x_rows[0])],
                             [d_rows[depth]], empties(1), 0.0, width)
    forward = [0.0]
    for l in range(1, depth + 1):
        names, outputs = ["%%x%d" % l], [x_rows[l]]
        if rest_rows[l]:
            names.append("%%xbar%d" % l)
            outputs.append(rest_rows[l])
        forward.append(rng.uniform(0.5, 4.0))
        lines += _generic_costed(names, [("%%x%d" % (l - 1), x_rows[l - 1])],
                                 outputs, empties(len(outputs)), forward[l],
                                 width)
    for l in range(depth, 0, -1):
        inputs = [("%%d%d" % l, d_rows[l]), ("%%x%d" % l, x_rows[l])]
        if rest_rows[l]:
            inputs.append(("%%xbar%d" % l, rest_rows[l]))
        if l > 1:
            inputs.append(("%%x%d" % (l - 1), x_rows[l - 1]))
        lines += _generic_costed(["%%d%d" % (l - 1)], inputs,
                                 [d_rows[l - 1]], empties(1),
                                 forward[l] * rng.uniform(1.0, 2.5), width)
    lines.append("  return %%d0 : %s" % _type(d_rows[0], width))
    lines.append("}")
    return "\n".join(lines) + "\n"
