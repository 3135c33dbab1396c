# RUN: %PYTHON %s | FileCheck %s
# Tests memsched.torch's plan-to-PyTorch schedule (_fit.Schedule) on random
# graphs and random plans: random ATen graphs (pointwise ops, reductions,
# matmuls, views, tuples from split and max) traced with make_fx, and random
# plans over their nodes: a random valid order, recomputations of random
# nodes at random later points, copies to host and back, in-place claims on
# random operands, ops of unknown origin and ops whose node is not yet
# computed. Whatever the plan, the schedule's results equal the graph's own,
# bit for bit, and the estimate from shapes is never below the live storage
# measured at op boundaries.

import operator
import random

import torch
from torch.fx.experimental.proxy_tensor import make_fx

import memsched._fit as fit

UNARY = [torch.relu, torch.neg, torch.exp, lambda x: x * 0.5,
         lambda x: x.t().contiguous().t(), lambda x: x.sum(1, keepdim=True)
         .expand_as(x).contiguous()]
BINARY = [torch.add, torch.mul, torch.sub, lambda a, b: a @ b.t()[:, :a.shape[1]]
          if a.shape[1] <= b.shape[0] else a + b,
          lambda a, b: torch.maximum(a, b)]


def random_function(rng, size):
    def function(x, y):
        values = [x, y]
        for _ in range(size):
            kind = rng.random()
            if kind < 0.45:
                value = rng.choice(UNARY)(rng.choice(values))
            elif kind < 0.85:
                value = rng.choice(BINARY)(rng.choice(values),
                                           rng.choice(values))
            else:
                low, high = torch.split(rng.choice(values), 4, dim=1)
                value = torch.cat([high, low], 1)
            values.append(value)
        return values[-1].sum(), values[-2]
    return function


def random_plan(rng, graph):
    nodes = [n for n in graph.nodes if n.op == "call_function"]
    order, placed = [], set()
    pending = list(nodes)
    while pending:
        ready = [n for n in pending
                 if all(i in placed or i.op == "placeholder"
                        for i in n.all_input_nodes)]
        node = rng.choice(ready)
        pending.remove(node)
        placed.add(node)
        into = rng.choice(node.all_input_nodes).name \
            if node.all_input_nodes and rng.random() < 0.3 else None
        order.append(("op", node.name, False, into))
        if rng.random() < 0.2:
            order.insert(rng.randrange(len(order) + 1),
                         ("op", node.name, False, None))  # an early init
        if rng.random() < 0.1:
            order.append(("op", None, False, None))
    plan = list(order)
    for _ in range(rng.randrange(1, 6)):
        node = rng.choice(nodes).name
        first = max(i for i, op in enumerate(plan) if op[1] == node)
        at = rng.randrange(first, len(plan) + 1)
        if rng.random() < 0.5:
            plan.insert(at, ("op", node, True, None))
        else:
            back = rng.randrange(at, len(plan) + 1)
            plan.insert(back, ("swap_in", node, False, None))
            plan.insert(at, ("swap_out", node, False, None))
    return plan


failures = 0
for seed in range(1000):
    rng = random.Random(seed)
    torch.manual_seed(seed)
    x, y = torch.randn(8, 8), torch.randn(8, 8)
    module = make_fx(random_function(rng, rng.randrange(4, 14)),
                     tracing_mode="fake")(x, y)
    expected = module(x, y)
    schedule = fit.Schedule(module.graph, random_plan(rng, module.graph))
    meter = fit.OpBoundaryMeter()
    with torch.no_grad():
        results = schedule.run([x, y], meter)
    same = len(results) == len(expected) and all(
        torch.equal(a, b) for a, b in zip(results, expected))
    if not same or schedule.estimate_peak() < meter.peak:
        failures += 1
        print("seed %d: same %s, estimate %d, measured %d" % (
            seed, same, schedule.estimate_peak(), meter.peak))
print("%d failures in 1000 random plans" % failures)
# CHECK: 0 failures in 1000 random plans

# plan_ops: a copy of one result of a multi-result op names the node and
# that result's type both where it is copied out and where it comes back.
PLAN = """module {
  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0:2 = linalg.generic {} ins(%arg0 : tensor<4xf32>) outs(%e, %i : tensor<4xf32>, tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) loc("m:aten.max.dim:max")
    %1 = memsched.swap_out %0#1 : tensor<4xi64> -> !memsched.host<tensor<4xi64>> loc("m:aten.max.dim:max")
    %2 = memsched.swap_in %1 : !memsched.host<tensor<4xi64>> -> tensor<4xi64> loc("m:aten.max.dim:max")
    return %0#0 : tensor<4xf32>
  }
}"""
print(fit.plan_ops(PLAN, "f"))
# CHECK: [('op', 'max', False, None), ('swap_out', 'max#4xi64', False, None), ('swap_in', 'max#4xi64', False, None)]
