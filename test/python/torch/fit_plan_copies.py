# RUN: %PYTHON %s | FileCheck %s
# Tests that memsched.torch.fit keeps a plan's copy of a value to host memory
# when a recomputation later in the plan allocates its destination with the
# value's location. memsched's recomputations mark the ops that compute
# (`memsched.recompute`), not the `tensor.empty` they write into, which
# keeps the location of the node it lowers; counted as that node's last op,
# it put the node's computation after the copy out, and the copy (then of a
# value not yet computed) was dropped, so the value stayed on the device
# across the gap the plan had freed. And that a copy in which the plan makes
# among the ops of one ATen op that does not read it (a max-pool backward
# lowered to several linalg ops, the ReLU's value copied in between) is made
# after that op, which runs whole: the op's inputs die first, as in the plan.

import torch
from torch.fx.experimental.proxy_tensor import make_fx

import memsched._fit as fit


def step(x):
    a = torch.exp(x)
    b = a * a
    return (b + a).sum()


graph = make_fx(step)(torch.randn(4)).graph
names = {n.target.__name__.split(".")[0]: n.name for n in graph.nodes
         if n.op == "call_function"}


def loc(target):
    return 'loc("step:aten.%s.Tensor:%s")' % (target, names[target])


T = "tensor<4xf32>"
plan = "\n".join([
    "module {",
    "  func.func @step(%%arg0: %s) -> tensor<f32> {" % T,
    "    %%0 = tensor.empty() : %s %s" % (T, loc("exp")),
    "    %%1 = linalg.exp ins(%%arg0 : %s) outs(%%0 : %s) -> %s %s" % (
        T, T, T, loc("exp")),
    "    %%2 = memsched.swap_out %%1 : %s -> !memsched.host<%s> %s" % (
        T, T, loc("exp")),
    "    %%3 = tensor.empty() : %s %s" % (T, loc("mul")),
    "    %%4 = linalg.mul ins(%%1, %%1 : %s, %s) outs(%%3 : %s) -> %s %s" % (
        T, T, T, T, loc("mul")),
    "    memsched.swap_wait %%2 : !memsched.host<%s> %s" % (T, loc("exp")),
    "    %%5 = memsched.swap_in %%2 : !memsched.host<%s> -> %s %s" % (
        T, T, loc("exp")),
    # A recomputation's destination, unmarked, with the node's location.
    "    %%6 = tensor.empty() : %s %s" % (T, loc("exp")),
    "    %%7 = linalg.add ins(%%4, %%5 : %s, %s) outs(%%4 : %s) -> %s %s" % (
        T, T, T, T, loc("add")),
    "    %%8 = tensor.empty() : tensor<f32> %s" % loc("sum"),
    "    %%9 = linalg.reduce ins(%%7 : %s) outs(%%8 : tensor<f32>) "
    "dimensions = [0] %s" % (T, loc("sum")),
    "    return %9 : tensor<f32>",
    "  }",
    "}"])

ops = fit.plan_ops(plan, "step")
print("ops:", [(kind, node) for kind, node, _, _ in ops])
# CHECK: ops: [('op', 'exp'), ('swap_out', 'exp#4xf32'), ('op', 'mul'), ('swap_in', 'exp#4xf32'), ('op', 'add'), ('op', '{{sum[_0-9]*}}')]

schedule = fit.Schedule(graph, ops)
print("events:", [(kind, node.name) for kind, node in schedule.events])
# CHECK: events: [('compute', 'exp'), ('swap_out', 'exp'), ('compute', 'mul'), ('swap_in', 'exp'), ('compute', 'add'), ('compute', '{{sum[_0-9]*}}')]

# The schedule runs the graph's ops and gives its result, bit for bit.
x = torch.randn(4)
print("same result:", torch.equal(schedule.run([x])[0], step(x)))
# CHECK: same result: True


# A copy in among the ops of `mul`, which does not read the copied value.
def step2(x):
    a = torch.exp(x)
    b = torch.sin(x)
    return (b * b + a).sum()


graph = make_fx(step2)(torch.randn(4)).graph
names = {n.target.__name__.split(".")[0]: n.name for n in graph.nodes
         if n.op == "call_function"}
plan = "\n".join([
    "module {",
    "  func.func @step(%%arg0: %s) -> tensor<f32> {" % T,
    "    %%0 = linalg.exp ins(%%arg0 : %s) outs(%%arg0 : %s) -> %s %s" % (
        T, T, T, loc("exp")),
    "    %%1 = memsched.swap_out %%0 : %s -> !memsched.host<%s> %s" % (
        T, T, loc("exp")),
    "    %%2 = linalg.sin ins(%%arg0 : %s) outs(%%arg0 : %s) -> %s %s" % (
        T, T, T, loc("sin")),
    "    %%3 = linalg.fill ins(%%c : f32) outs(%%2 : %s) -> %s %s" % (
        T, T, loc("mul")),
    "    %%4 = memsched.swap_in %%1 : !memsched.host<%s> -> %s %s" % (
        T, T, loc("exp")),
    "    %%5 = linalg.mul ins(%%2, %%2 : %s, %s) outs(%%3 : %s) -> %s %s" % (
        T, T, T, T, loc("mul")),
    "    %%6 = linalg.add ins(%%5, %%4 : %s, %s) outs(%%5 : %s) -> %s %s" % (
        T, T, T, T, loc("add")),
    "    %%7 = linalg.reduce ins(%%6 : %s) outs(%%6 : tensor<f32>) "
    "dimensions = [0] %s" % (T, loc("sum")),
    "    return %7 : tensor<f32>",
    "  }",
    "}"])
schedule = fit.Schedule(graph, fit.plan_ops(plan, "step"))
print("events:", [(kind, node.name) for kind, node in schedule.events])
# CHECK: events: [('compute', 'exp'), ('swap_out', 'exp'), ('compute', 'sin'), ('compute', 'mul'), ('swap_in', 'exp'), ('compute', 'add'), ('compute', '{{sum[_0-9]*}}')]
print("same result:", torch.equal(schedule.run([x])[0], step2(x)))
# CHECK: same result: True
