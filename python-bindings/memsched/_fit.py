"""memsched's plan, run back in PyTorch (``memsched.torch.fit``).

A plan is a function of linalg ops, each located at the FX node of the
captured graph it lowers (``loc("module:aten.op:node")``). ``plan_ops``
reads the planned function's top-level ops in order: computations (and
recomputations, ``memsched.recompute``) and the copies to and from host
memory. ``Schedule`` turns that order into events on the FX nodes:

- ``compute n``: run node ``n``'s ATen op, at the position of its last
  original op in the plan (an earlier reader pulls it, and it pulls its own
  inputs, forward: the order is always a valid one);
- ``compute n`` again where the plan recomputes one of its ops;
- ``swap_out n`` / ``swap_in n``: copy ``n``'s value to host memory and
  back (a new device tensor);
- ``free n``: drop the device tensor after its last reader.

Events that nothing reads are dropped (a recomputation of an op that at
the ATen level needs no new value, a swap of a value the backward does not
read), so mismatches between the linalg ops and the ATen ops cost memory,
never correctness. ``Schedule.run`` executes the events; every tensor is
read from the newest value of its node, and ATen ops are deterministic on
CPU, so a planned step gives the same results, bit for bit, as the captured
order run the same way.
"""

import operator
import re
import time

import torch

from ._aten_lowering import _DTYPES, POINTWISE

_LOC_ALIAS = re.compile(r'^#(loc\d*) = loc\((.*)\)\s*$')
_LOC_USE = re.compile(r'loc\((#loc\d*|"[^"]*"(?:\([^)]*\))?)\)\s*$')
_RESULTS = re.compile(r'^(%[\w$.-]+)(?::\d+)? = ')
_INS = re.compile(r' ins\(([^:)]*)[:)]')
_OUTS = re.compile(r' outs\((%[\w$.-]+)')
_SHAPE = re.compile(r'tensor<([^<>]*)>')


def _node_name(location, aliases):
    """The FX node name of an op location: the last field of an importer
    label ``"module:aten.op:node"`` (through ``#loc`` aliases and name
    locations that wrap one); None for file locations and others."""
    seen = 0
    while location.startswith("#") and seen < 8:
        location = aliases.get(location[1:], "")
        seen += 1
    match = re.match(r'^(?:fused\[)?"([^"]*)"(?!:\d)', location)
    if not match or ":" not in match.group(1):
        return None
    return match.group(1).rsplit(":", 1)[1]


def _value(name):
    """The SSA name an operand refers to: ``%7#1`` (result 1 of ``%7:2``)
    is ``%7``."""
    return re.sub(r'#\d+$', '', name.rstrip(",:"))


def plan_ops(module_text, func_name):
    """The top-level ops of ``@func_name`` in ``module_text`` (printed with
    locations), in order: ``(kind, node, recompute, into)`` with kind
    ``"op"``, ``"swap_out"``, ``"swap_in"``, ``"host_argument"`` (node:
    ``%argN``, an argument in host memory) or ``"host_result"`` (a result
    returned from host memory), ``node`` the FX node name the op (for a
    swap: the swapped value) comes from, or None, and ``into`` the
    FX node whose value an op overwrites in place (its ``outs`` operand is
    also one of its ``ins``: memsched reuses that buffer), or None."""
    lines = module_text.splitlines()
    aliases = {}
    for line in lines:
        match = _LOC_ALIAS.match(line)
        if match:
            aliases[match.group(1)] = match.group(2)
    start = next((i for i, line in enumerate(lines)
                  if re.match(r'\s*func\.func (?:\w+ )*@%s\(' %
                              re.escape(func_name), line)), None)
    if start is None:
        raise ValueError("the plan has no function @%s" % func_name)
    indent = len(lines[start]) - len(lines[start].lstrip())
    body = indent + 2
    ops, value_node, pending, host_results, swaps = [], {}, None, {}, {}
    for line in lines[start + 1:]:
        depth = len(line) - len(line.lstrip())
        if depth <= indent and line.strip():
            break
        if depth != body:
            continue
        text = line.strip()
        if text.startswith("^"):
            continue  # a region's block arguments, printed at the op's depth
        if pending is None or not text.startswith("}"):
            pending = [text]
        else:
            pending.append(text)
        if text.endswith("{"):
            continue
        head, tail = pending[0], pending[-1]
        pending = None
        match = _LOC_USE.search(tail)
        node = _node_name(match.group(1), aliases) if match else None
        result = _RESULTS.match(head)
        operation = head[result.end():] if result else head
        kind, swapped = "op", None
        words = operation.split()
        if words[0] in ("memsched.swap_out", "memsched.swap_in"):
            kind = words[0].split(".")[1]
            node = swapped = value_node.get(_value(words[1]))
            # Which of a multi-result node's values: by its type.
            shape = _SHAPE.search(operation)
            if node is not None and shape:
                node = "%s#%s" % (node, shape.group(1))
        elif words[0] == "memsched.host_result":
            # The copy out belongs to the result, not to the op that
            # computed the value (a transpose view's source, say).
            if result:
                host_results[result.group(1)] = swaps.get(_value(words[1]))
            continue
        elif words[0] == "memsched.host_argument":
            # An argument in host memory: named by its position.
            kind, node = "host_argument", words[1].rstrip(",:")
        if result:
            # A copy holds the swapped node's value (its type is added
            # again where it is copied back).
            value_node[result.group(1)] = swapped or node
        if words[0] in ("return", "func.return"):
            # Results returned from host memory, by position.
            names = [n.rstrip(",") for n in operation.split(":")[0].split()[1:]]
            for i, name in enumerate(names):
                if name in host_results:
                    ops.append(("host_result", "%%out%d" % i, False, None))
                    if host_results[name] is not None:
                        ops[host_results[name]] = (
                            "swap_out", "%%out%d" % i, False, None)
            continue
        if operation.startswith("memsched.") and kind == "op":
            continue  # waits and calling-convention copies compute nothing
        if words[0].split("(")[0] in ("tensor.empty", "arith.constant"):
            # Nor do allocations and constants: a recomputation's
            # destination carries its node's location without the
            # recompute mark, and counted as the node's last op it would
            # put the node's computation after a copy out of its value.
            continue
        recompute = "memsched.recompute" in head or \
            "memsched.recompute" in tail
        into = None
        outs, ins = _OUTS.search(head), _INS.search(head)
        if outs and ins and outs.group(1) in \
                [v.strip() for v in ins.group(1).split(",")]:
            into = value_node.get(_value(outs.group(1)))
        if kind == "swap_out" and result:
            swaps[result.group(1)] = len(ops)
        ops.append((kind, node, recompute, into))
    return ops


def _attribute(module, path):
    for name in path.split("."):
        module = getattr(module, name)
    return module


class Schedule:
    """Events on the FX nodes of ``graph`` (see the module docstring), from
    a plan's ops (``plan_ops``) or, with ``ops=None``, the graph's own order
    (the unplanned step, run the same way)."""

    def __init__(self, graph, ops=None):
        self.graph = graph
        nodes = {n.name: n for n in graph.nodes}
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        nodes.update(("%%arg%d" % i, n) for i, n in enumerate(placeholders))
        self.output = next(n for n in graph.nodes if n.op == "output")
        nodes.update(("%%out%d" % i, n) for i, n in
                     enumerate(flatten(self.output.args))
                     if isinstance(n, torch.fx.Node))
        ops = None if ops is None else [
            (kind, _resolve(name, nodes), recompute, into)
            for kind, name, recompute, into in ops]
        events, computed, has_host = [], set(), set()
        # Arguments the plan keeps in host memory, results it returns there.
        self.host_arguments = {nodes[name] for kind, name, _, _ in ops or ()
                               if kind == "host_argument" and name in nodes}
        self.host_results = {nodes[name] for kind, name, _, _ in ops or ()
                             if kind == "host_result" and name in nodes}
        on_device = set()

        def compute(node):
            # A view is taken again from its source's newest value right
            # before each reader rather than held: a held view would keep
            # an older value of its source (a parameter's first copy in,
            # say) alive.
            for source in _data_inputs(node):
                if source in computed and _is_view(source.target):
                    compute(source)
            events.append(("compute", node))

        def copy_in(node):
            # An argument in host memory, first read before the plan
            # copies it in.
            if node in self.host_arguments and node not in on_device:
                on_device.add(node)
                events.append(("swap_in", node))

        def demand(node):
            copy_in(node)
            if node in computed or node.op == "placeholder":
                return
            stack = [(node, iter(_data_inputs(node)))]
            while stack:
                current, inputs = stack[-1]
                pushed = False
                for source in inputs:
                    copy_in(source)
                    if source not in computed and source.op != "placeholder":
                        stack.append((source, iter(_data_inputs(source))))
                        pushed = True
                        break
                if not pushed:
                    stack.pop()
                    if current not in computed:
                        computed.add(current)
                        compute(current)
                        take_items(current)

        def take_items(node, again=False):
            # A tuple's elements are taken at once: the tuple holds them all.
            for user in node.users:
                if user.target is operator.getitem and (
                        again or user not in computed):
                    computed.add(user)
                    events.append(("compute", user))

        if ops is None:
            ops = [("op", n.name, False, None) for n in graph.nodes
                   if n.op == "call_function"]
        last, into = {}, {}
        for index, (kind, name, recompute, source) in enumerate(ops):
            if kind == "op" and not recompute and name in nodes:
                last[name] = index
            if kind == "op" and source in nodes and name in nodes and \
                    nodes[source] in nodes[name].all_input_nodes:
                into.setdefault((name, recompute), nodes[source])
        # Copies in that the plan makes among the ops of a node which runs
        # whole at its last op, and which that node does not read: made
        # after it, as the plan's ops around them let the node's inputs die
        # first. (node, the index after which it is made.)
        deferred = []

        def release(index=None, reader=None):
            """Makes the deferred copies that are due: those made after a
            position up to ``index``, and those ``reader`` reads."""
            for entry in list(deferred):
                swapped, until = entry
                if (index is not None and index >= until) or (
                        reader is not None and
                        swapped in _data_inputs(reader)):
                    deferred.remove(entry)
                    events.append(("swap_in", swapped))

        # Each op's node, where the op computes it (not a recomputation).
        original = [name if kind == "op" and not recompute and
                    name in nodes else None
                    for kind, name, recompute, _ in ops]

        def inside(index):
            """The node not yet computed whose ops come right before and
            right after position ``index`` (copies aside), or None."""
            before = next((original[i] for i in range(index - 1, -1, -1)
                           if ops[i][0] == "op"), None)
            after = next((original[i] for i in range(index + 1, len(ops))
                          if ops[i][0] == "op"), None)
            if before is None or before != after or \
                    nodes[before] in computed:
                return None
            return before

        for index, (kind, name, recompute, _) in enumerate(ops):
            node = nodes.get(name)
            if node in self.host_arguments and kind == "swap_in":
                on_device.add(node)
                events.append(("swap_in", node))
            if node is None or node.op != "call_function":
                release(index)
                continue
            if kind == "op":
                release(reader=node)
            elif any(swapped is node for swapped, _ in deferred):
                # Another copy of the value: the deferred one first.
                release(len(ops))
            if kind == "op" and not recompute:
                if last[name] == index:
                    demand(node)
            elif kind == "op":
                if node in computed:
                    for source in _data_inputs(node):
                        demand(source)
                    compute(node)
                    take_items(node, again=True)
            elif kind == "swap_out":
                # Not computed yet: the plan copies out a value that is
                # not the node's result (an accumulator's initial value).
                if node in computed:
                    events.append(("swap_out", node))
                    has_host.add(node)
            elif kind == "swap_in" and node in has_host:
                around = inside(index)
                if around is not None and \
                        node not in _data_inputs(nodes[around]):
                    deferred.append((node, last[around]))
                else:
                    events.append(("swap_in", node))
            release(index)
        release(len(ops))
        for node in graph.nodes:
            if node.op == "call_function":
                demand(node)
        # A result returned from host memory whose copy out the plan makes
        # from another value: copied out as soon as it is computed.
        for node in self.host_results - has_host:
            made = next(i for i, e in enumerate(events)
                        if e == ("compute", node))
            events.insert(made + 1, ("swap_out", node))
        self.events = self._prune(events)
        self._free_after = self._liveness(self.events)
        self._in_place = self._in_place_updates(into)

    def _reads(self, event):
        kind, node = event
        if kind == "compute":
            return [s for s in _data_inputs(node) if s.op != "placeholder" or
                    s in self.host_arguments]
        return [node] if kind == "swap_out" else []

    def _prune(self, events):
        """Drops events whose value nothing reads: computations whose
        result is replaced or unread, swap-outs never swapped in, swap-ins
        never read. Repeats until nothing changes."""
        outputs = set(self.output.all_input_nodes)
        while True:
            latest, readers, host_users = {}, {}, {}
            host_of = {}
            for index, (kind, node) in enumerate(events):
                for source in self._reads((kind, node)):
                    readers.setdefault(latest.get(source), []).append(index)
                if kind == "swap_out":
                    host_of[node] = index
                    host_users.setdefault(index, [])
                elif kind == "swap_in":
                    if node in host_of:
                        host_users[host_of[node]].append(index)
                if kind in ("compute", "swap_in"):
                    latest[node] = index
            final = {latest[n] for n in outputs if n in latest and
                     n not in self.host_results}
            keep = []
            for index, (kind, node) in enumerate(events):
                if kind in ("compute", "swap_in"):
                    alive = index in readers or index in final
                elif kind == "swap_out":
                    alive = bool(host_users.get(index)) or \
                        node in self.host_results
                else:
                    alive = True
                if kind == "swap_in" and node not in host_of and \
                        node not in self.host_arguments:
                    alive = False
                keep.append(alive)
            if all(keep):
                return events
            events = [e for e, k in zip(events, keep) if k]

    def _liveness(self, events):
        """For each event, the nodes whose device value (and host copies)
        are dropped after it."""
        outputs = set(self.output.all_input_nodes)
        latest, last_read, host_last = {}, {}, {}
        for index, (kind, node) in enumerate(events):
            for source in self._reads((kind, node)):
                last_read[latest[source]] = index
            if kind in ("compute", "swap_in"):
                latest[node] = index
                last_read.setdefault(index, index)
            if kind == "swap_in":
                host_last[node] = index
        final = {latest[n] for n in outputs if n not in self.host_results}
        free_after = [[] for _ in events]
        for created, index in last_read.items():
            if created not in final:
                free_after[index].append(("device", events[created][1]))
        for node, index in host_last.items():
            free_after[index].append(("host", node))
        return free_after

    def _in_place_updates(self, into):
        """For each computation the plan writes into one of its inputs'
        buffers: (input node, the ATen op's out= overload, its out argument
        name), where that input's value dies at this event and the op has
        an out= form."""
        updates = {}
        recomputed = set()
        for index, (kind, node) in enumerate(self.events):
            if kind != "compute":
                continue
            source = into.get((node.name, node in recomputed))
            recomputed.add(node)
            if source is None or ("device", source) not in \
                    self._free_after[index]:
                continue
            out = _out_overload(node.target)
            if out is not None:
                updates[index] = (source,) + out
        return updates

    def counts(self):
        """Events by kind: ``{"compute": .., "recompute": .., "swap_out": ..,
        "swap_in": ..}`` (a view or tuple element taken again from its
        source is not a recomputation and is not counted)."""
        counts = {"compute": 0, "recompute": 0, "swap_out": 0, "swap_in": 0}
        seen = set()
        for kind, node in self.events:
            if kind == "compute" and node in seen:
                if _is_view(node.target) or node.target is operator.getitem:
                    continue  # taken again, not computed again
                kind = "recompute"
            seen.add(node)
            counts[kind] += 1
        return counts

    def run(self, arguments, meter=None):
        """Runs the step on ``arguments`` (placeholder order); returns the
        graph's flattened results. ``meter(env)`` is called at every op
        boundary with the live device values, when given."""
        graph = self.graph
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        device = next((a.device for n, a in zip(placeholders, arguments)
                       if n not in self.host_arguments), torch.device("cpu"))
        copies = _Copies(device)
        env = {n: a for n, a in zip(placeholders, arguments)
               if n not in self.host_arguments}
        host = {n: copies.host_argument(a) for n, a in
                zip(placeholders, arguments) if n in self.host_arguments}
        load = env.__getitem__
        storages = self._storages(placeholders)
        for index, (kind, node) in enumerate(self.events):
            if kind == "compute":
                args = _load_arguments(node, load, device)
                kwargs = torch.fx.node.map_arg(node.kwargs, load)
                copies.wait_for(flatten([args, list(kwargs.values())]))
                into = self._into(index, node, storages,
                                  lambda source: env.get(source))
                if into is not None:
                    update = self._in_place[index]
                    kwargs = dict(kwargs)
                    kwargs[update[2]] = env[into]
                    env[node] = update[1](*args, **kwargs)
                elif node.op == "get_attr":
                    # A constant the model or loss made (a loss's class
                    # weights): the capture's copy, on the step's device.
                    env[node] = _attribute(self.graph.owning_module,
                                           node.target).to(device)
                else:
                    env[node] = node.target(*args, **kwargs)
                storages.made(node, into)
            elif kind == "swap_out":
                copies.wait_for([env[node]])
                host[node] = copies.to_host(env[node])
            else:
                env[node] = copies.to_device(host[node])
                storages.fresh(node)
            if meter is not None:
                meter(env)
            for where, dead in self._free_after[index]:
                if where == "device":
                    copies.release(env.pop(dead))
                    storages.drop(dead)
                else:
                    host.pop(dead)
        copies.finish()
        return [(copies.host_value(host[n]) if n in self.host_results
                 else env[n]) if isinstance(n, torch.fx.Node) else n
                for n in flatten(self.output.args)]

    def estimate_peak(self):
        """The largest live device storage at op boundaries that ``run``
        would measure (``OpBoundaryMeter``), from the graph's shapes
        alone: the same events, views and in-place writes, each storage
        counted while any live value holds it."""
        placeholders = [n for n in self.graph.nodes if n.op == "placeholder"]
        storages = self._storages(placeholders)
        peak = storages.live
        for index, (kind, node) in enumerate(self.events):
            if kind == "compute":
                storages.made(node, self._into(
                    index, node, storages,
                    lambda source: source.meta.get("val")))
            elif kind == "swap_in":
                storages.fresh(node)
            peak = max(peak, storages.live)
            for where, dead in self._free_after[index]:
                if where == "device":
                    storages.drop(dead)
        return peak

    def _storages(self, placeholders):
        storages = _Storages(self._alias_roots())
        for node in placeholders:
            if node not in self.host_arguments:
                storages.fresh(node)
                storages.hold(node)  # the caller holds it throughout
        return storages

    def _into(self, index, node, storages, value_of):
        """The input whose storage event ``index`` writes its result into,
        or None: the plan says so, no other live value holds that storage
        and the result's layout is that input's."""
        update = self._in_place.get(index)
        if update is None or not storages.exclusive(update[0]) or \
                not _writable(value_of(update[0]), node):
            return None
        return update[0]

    def _alias_roots(self):
        """The node whose storage each node's value lives in: views (an
        ATen op whose result aliases its first argument) and a tuple's
        elements share their source's; placeholders are their own."""
        if getattr(self, "_roots", None) is None:
            roots = {}
            for node in self.graph.nodes:
                roots[node] = node
                if node.op != "call_function" or not node.args or \
                        not isinstance(node.args[0], torch.fx.Node):
                    continue
                if node.target is operator.getitem or _is_view(node.target):
                    roots[node] = roots[node.args[0]]
            self._roots = roots
        return self._roots


# Arguments that an ATen kernel reads for their shape alone (the input of
# a pooling backward): a stand-in of that shape takes their place, so that
# the value itself can be freed as early as memsched's own lowering frees it.
_SHAPE_ONLY = {
    torch.ops.aten.max_pool2d_with_indices_backward.default: (1,),
    torch.ops.aten.avg_pool2d_backward.default: (1,),
}


def _data_inputs(node):
    """The nodes whose values ``node`` reads (not only their shape)."""
    shape_only = _SHAPE_ONLY.get(node.target)
    if not shape_only:
        return node.all_input_nodes
    skipped = {node.args[i] for i in shape_only if i < len(node.args)}
    rest = [a for i, a in enumerate(node.args) if i not in shape_only]
    return [n for n in node.all_input_nodes
            if n not in skipped or n in rest or n in node.kwargs.values()]


def _load_arguments(node, load, device):
    shape_only = _SHAPE_ONLY.get(node.target, ())
    args = []
    for index, arg in enumerate(node.args):
        value = arg.meta.get("val") if index in shape_only and \
            isinstance(arg, torch.fx.Node) else None
        if isinstance(value, torch.Tensor):
            args.append(torch.empty((), dtype=value.dtype,
                                    device=device).expand(value.shape))
        else:
            args.append(torch.fx.node.map_arg(arg, load))
    return args


def _resolve(name, nodes):
    """The node name a plan's value stands for: ``node#shape`` (a swapped
    value of a node with several results) becomes the element of that
    shape."""
    if name is None or "#" not in name:
        return name
    base, _, type_text = name.partition("#")
    node = nodes.get(base)
    if node is None:
        return base
    parts = type_text.split("x")
    dims = tuple(int(d) for d in parts[:-1] if d.isdigit())
    items = [u for u in node.users if u.target is operator.getitem]
    for user in items:
        value = user.meta.get("val")
        if isinstance(value, torch.Tensor) and \
                tuple(value.shape) == dims and \
                _DTYPES.get(value.dtype) == parts[-1]:
            return user.name
    return base


def _value_bytes(node):
    """Bytes of the tensors a node's value holds, from its metadata."""
    value = node.meta.get("val")
    if not isinstance(value, torch.Tensor):
        # A tuple's metadata is on the elements taken from it.
        items = {u.args[1]: u.meta.get("val") for u in node.users
                 if u.target is operator.getitem}
        value = list(items.values()) or value
    return sum(v.numel() * v.element_size() for v in flatten([value])
               if isinstance(v, torch.Tensor))


def _is_view(target):
    schema = getattr(target, "_schema", None)
    return bool(schema and schema.returns and
                schema.returns[0].alias_info is not None and
                not schema.returns[0].alias_info.is_write)


_OUT_OVERLOADS = {}


def _out_overload(target):
    """``(overload, argument name)`` of the out= form of a pointwise ATen
    op (``_aten_lowering.POINTWISE``) whose other arguments are the op's own (``aten.mul.Tensor`` ->
    ``aten.mul.out``, ``aten.where.self`` -> ``aten.where.self_out``), or
    None."""
    if target in _OUT_OVERLOADS:
        return _OUT_OVERLOADS[target]
    found = None
    if getattr(target, "overloadpacket", None) not in POINTWISE:
        _OUT_OVERLOADS[target] = None  # out= over an input: pointwise only
        return None
    schema = getattr(target, "_schema", None)
    packet = getattr(target, "overloadpacket", None)
    if schema is not None and packet is not None and \
            len(schema.returns) == 1:
        name = schema.overload_name
        names = [a.name for a in schema.arguments]
        for candidate in (name + "_out" if name else "out", "out"):
            overload = getattr(packet, candidate, None)
            if overload is None:
                continue
            arguments = overload._schema.arguments
            outs = [a for a in arguments if a.alias_info is not None and
                    a.alias_info.is_write and a.kwarg_only]
            rest = [a.name for a in arguments if a not in outs]
            if len(outs) == 1 and rest == names:
                found = (overload, outs[0].name)
                break
    _OUT_OVERLOADS[target] = found
    return found


def _writable(tensor, node):
    """Whether ``node``'s result may be written over ``tensor``: same shape,
    dtype and strides as the result would have (a layout the op would not
    choose changes the order later reductions add in), dense."""
    value = node.meta.get("val")
    return isinstance(tensor, torch.Tensor) and \
        isinstance(value, torch.Tensor) and tensor.is_contiguous() and \
        tuple(tensor.shape) == tuple(value.shape) and \
        tensor.stride() == value.stride() and \
        tensor.dtype == value.dtype and tensor.storage_offset() == 0


class _Storages:
    """Which storage each live value holds and how many hold each: a
    computed value has one of its own (or, written in place, its input's);
    a view or a tuple's element holds its source's; a copy back from host
    memory has one of its own. ``live``: the bytes of the storages held."""

    def __init__(self, roots):
        self.roots = roots
        self.of, self.size, self.refs = {}, {}, {}
        self.live = 0

    def fresh(self, node):
        storage = len(self.size)
        self.size[storage] = _value_bytes(node)
        self.refs[storage] = 1
        self.of[node] = storage
        self.live += self.size[storage]

    def hold(self, node):
        self.refs[self.of[node]] += 1

    def made(self, node, into=None):
        if self.roots[node] is not node and node.args[0] in self.of:
            self.of[node] = self.of[node.args[0]]
            self.hold(node)
        elif into is not None:
            self.of[node] = self.of[into]
            self.hold(node)
        else:
            self.fresh(node)

    def exclusive(self, node):
        return node in self.of and self.refs[self.of[node]] == 1

    def drop(self, node):
        storage = self.of.pop(node)
        self.refs[storage] -= 1
        if self.refs[storage] == 0:
            self.live -= self.size[storage]


class _Copies:
    """Copies between device and host memory. On a GPU: pinned host
    tensors, copies on a side stream that the compute stream waits for
    only where a copied-back value is first read, device tensors released
    to the allocator only after their copy ends. On CPU the host copy is a
    numpy array, outside PyTorch's allocator, so that a measured peak
    counts the device side alone."""

    def __init__(self, device):
        self.cuda = device.type == "cuda"
        self.pending = {}
        if self.cuda:
            self.stream = torch.cuda.Stream(device)

    def host_argument(self, tensor):
        """An argument the caller holds in host memory."""
        if not self.cuda:
            return tensor.detach().numpy()
        if tensor.device.type != "cpu":
            raise ValueError("an argument the plan keeps in host memory is "
                             "on %s" % tensor.device)
        return _HostCopy(tensor if tensor.is_pinned() else
                         tensor.pin_memory())

    def host_value(self, copy):
        """A result returned in host memory, as a CPU tensor."""
        return torch.from_numpy(copy) if not self.cuda else copy.tensor

    def to_host(self, tensor):
        if not self.cuda:
            return tensor.detach().numpy().copy()
        compute = torch.cuda.current_stream(tensor.device)
        self.stream.wait_stream(compute)
        with torch.cuda.stream(self.stream):
            copy = torch.empty(tensor.shape, dtype=tensor.dtype,
                               pin_memory=True)
            copy.copy_(tensor, non_blocking=True)
        # The device tensor is reused only after the copy ends.
        tensor.record_stream(self.stream)
        return _HostCopy(copy)

    def to_device(self, copy):
        if not self.cuda:
            return torch.from_numpy(copy).clone()
        compute = torch.cuda.current_stream()
        with torch.cuda.stream(self.stream):
            tensor = copy.tensor.to(compute.device, non_blocking=True)
            ready = torch.cuda.Event()
            ready.record(self.stream)
        # Allocated on the side stream, used on the compute stream.
        tensor.record_stream(compute)
        self.pending[id(tensor)] = ready
        return tensor

    def wait_for(self, values):
        """Makes the compute stream wait for the copies that made
        ``values``, the first time each is read."""
        if not self.cuda or not self.pending:
            return
        for value in values:
            ready = self.pending.pop(id(value), None) if \
                isinstance(value, torch.Tensor) else None
            if ready is not None:
                torch.cuda.current_stream().wait_event(ready)

    def release(self, value):
        if self.pending and isinstance(value, torch.Tensor):
            self.pending.pop(id(value), None)

    def finish(self):
        if self.cuda:
            torch.cuda.current_stream().wait_stream(self.stream)
            # Results returned in host memory are read by the caller's CPU.
            self.stream.synchronize()
            self.pending.clear()


class _HostCopy:
    """A pinned host tensor written by the copy stream (read back on the
    same stream, so the copy back waits for it)."""

    def __init__(self, tensor):
        self.tensor = tensor


def flatten(value):
    """The leaves of nested lists and tuples, in order."""
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from flatten(item)
    else:
        yield value


def storage_bytes(values):
    """Bytes of the distinct storages that ``values`` (tensors, tuples of
    tensors) hold."""
    seen, total = set(), 0
    for value in flatten(list(values)):
        if isinstance(value, torch.Tensor):
            storage = value.storage()
            key = (storage.data_ptr(), value.device)
            if key not in seen:
                seen.add(key)
                total += storage.nbytes()
    return total


class OpBoundaryMeter:
    """The peak of live device storage at op boundaries: the storages of
    the values the step holds (arguments included) after each op, counted
    once each, as PyTorch allocated them (views share their base's)."""

    def __init__(self):
        self.peak = 0

    def __call__(self, env):
        self.peak = max(self.peak, storage_bytes(env.values()))


def allocator_peak(function):
    """Runs ``function()`` under PyTorch's profiler and returns ``(result,
    peak)``: the largest number of bytes that PyTorch's CPU allocator held
    beyond what it held at the start, kernel workspaces included (from the
    profiler's allocation events, in time order)."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) \
            as prof:
        result = function()
    events = [(e.start_us(), i, e.nbytes()) for i, e in
              enumerate(prof.profiler.kineto_results.events())
              if e.name() == "[memory]" and e.device_type() ==
              torch._C._autograd.DeviceType.CPU]
    live = peak = 0
    for _, _, nbytes in sorted(events):
        live += nbytes
        peak = max(peak, live)
    return result, peak


def timed(function, repeat=3):
    """The smallest wall time of ``repeat`` calls of ``function``."""
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best
