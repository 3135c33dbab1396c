# RUN: %PYTHON %s %examples | FileCheck %s
# Tests memsched-optimize with offload=params,grads on the examples at
# several budgets: results bit-identical on the CPU to the input's, planned
# bytes within the budget (a fraction of the planned bytes before offload),
# and budgets reached that no plan without offload reaches; where the plan
# without offload meets the budget it is kept (faster: no copies).

import os
import sys

import memsched
import memsched.execute as execute

examples = sys.argv[1]
for name, budgets in [("mlp_train_step.mlir", ["0.9x", "0.75x"]),
                      ("cnn_train_step.mlir", ["0.8x", "0.65x"]),
                      ("chain_mlp_train_step.mlir", ["0.7x", "0.6x"])]:
    text = open(os.path.join(examples, name)).read()
    before = memsched.analyze(text, timeline=False)["functions"][0]
    expected = execute.run_on_cpu(text)
    for budget in budgets:
        try:
            memsched.optimize(text, budget=budget, timeline=False)
            alone = "met"
        except memsched.MLIRError:
            alone = "unmet"
        module, report = memsched.optimize(
            text, budget=budget, offload=("params", "grads"), timeline=False)
        function = report["functions"][0]
        limit = float(budget[:-1]) * before["planned_bytes"]
        print("%s %s: without offload %s; with: within %s, identical %s, "
              "offloaded %s" % (
                  name, budget, alone, function["planned_bytes"] <= limit,
                  execute.run_on_cpu(module) == expected,
                  function["fit"]["offload"]))

# CHECK: mlp_train_step.mlir 0.9x: without offload unmet; with: within True, identical True, offloaded True
# CHECK: mlp_train_step.mlir 0.75x: without offload unmet; with: within True, identical True, offloaded True
# CHECK: cnn_train_step.mlir 0.8x: without offload met; with: within True, identical True, offloaded False
# CHECK: cnn_train_step.mlir 0.65x: without offload unmet; with: within True, identical True, offloaded True
# CHECK: chain_mlp_train_step.mlir 0.7x: without offload met; with: within True, identical True, offloaded False
# CHECK: chain_mlp_train_step.mlir 0.6x: without offload unmet; with: within True, identical True, offloaded True

# With the inputs (the batch) in host memory too, each example's smallest
# footprint is no larger and keeps nothing resident; results stay
# bit-identical.
for name in ["mlp_train_step.mlir", "cnn_train_step.mlir",
             "chain_mlp_train_step.mlir"]:
    text = open(os.path.join(examples, name)).read()
    expected = execute.run_on_cpu(text)
    _, state = memsched.optimize(text, budget="min",
                                 offload=("params", "grads"), timeline=False)
    module, report = memsched.optimize(
        text, budget="min", offload=("params", "grads", "inputs"),
        timeline=False)
    state, function = state["functions"][0], report["functions"][0]
    print("%s min: with inputs %d <= %d %s, resident %d, identical %s" % (
        name, function["planned_bytes"], state["planned_bytes"],
        function["planned_bytes"] <= state["planned_bytes"],
        function["resident_bytes"], execute.run_on_cpu(module) == expected))

# CHECK: mlp_train_step.mlir min: with inputs 49156 <= 50244 True, resident 0, identical True
# CHECK: cnn_train_step.mlir min: with inputs 15108 <= 15140 True, resident 0, identical True
# CHECK: chain_mlp_train_step.mlir min: with inputs 32772 <= 42884 True, resident 0, identical True
