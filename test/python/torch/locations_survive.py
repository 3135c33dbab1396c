# RUN: %PYTHON %s | FileCheck %s
# Tests that every op of an imported training step keeps the FX node it
# lowers (loc("module:aten.op:node")) through every memsched pass and
# through -cse -canonicalize after them: what memsched.torch.fit maps a plan
# back to PyTorch with. Scalar constants, which canonicalization hoists and
# merges, are the only ops without one.

import memsched
import memsched._fit as fit
import memsched.torch as mt
from memsched.torch_models import zoo

(model, inputs, target), = zoo("small", ["resnet18"]).values()
text = mt.export_training_step(model, inputs, target)


def unlocated(module):
    body = "\n".join(line for line in module.splitlines()
                     if "arith.constant" not in line)
    ops = fit.plan_ops(body, "train_step")
    return sum(1 for op in ops if op[1] is None), len(ops)


for pipeline in ["func.func(memsched-reorder)", "func.func(memsched-inplace)",
                 "func.func(memsched-remat{budget=min})",
                 "func.func(memsched-swap{budget=min})",
                 "func.func(memsched-fit{budget=min})",
                 "func.func(memsched-offload{offload=params,grads})",
                 "memsched-optimize{budget=min}",
                 "memsched-optimize{budget=min offload=params,grads},cse,"
                 "canonicalize"]:
    missing, total = unlocated(memsched.run_pipeline(text, pipeline))
    print("%s: %d of %s ops without a node" % (
        pipeline, missing, "many" if total > 500 else total))
# CHECK: memsched-reorder): 0 of many ops without a node
# CHECK: memsched-inplace): 0 of many ops without a node
# CHECK: memsched-remat{budget=min}): 0 of many ops without a node
# CHECK: memsched-swap{budget=min}): 0 of many ops without a node
# CHECK: memsched-fit{budget=min}): 0 of many ops without a node
# CHECK: memsched-offload{offload=params,grads}): 0 of many ops without a node
# CHECK: memsched-optimize{budget=min}: 0 of many ops without a node
# CHECK: canonicalize: 0 of many ops without a node
