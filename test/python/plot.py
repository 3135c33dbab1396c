# RUN: rm -rf %t && mkdir -p %t
# RUN: %PYTHON %s %examples/mlp_train_step.mlir %t | FileCheck %s
# Tests memsched.plot: the memory timeline of an analysis and of
# memsched.optimize's report, the before/after plot with the budget and
# the smallest reachable footprint, and the messages for reports without a
# timeline or without the function asked for.

import os
import sys

import memsched
import memsched.plot


def is_png(path):
    with open(path, "rb") as handle:
        return handle.read(8) == b"\x89PNG\r\n\x1a\n"


with open(sys.argv[1]) as handle:
    text = handle.read()
scratch = sys.argv[2]
report = memsched.analyze(text)
path = memsched.plot.memory_timeline(report, os.path.join(scratch, "a.png"))
# CHECK: png True
print("png", is_png(path))
try:
    memsched.plot.memory_timeline(report, path, function="missing")
except ValueError as error:
    # CHECK-NEXT: ValueError report has no function named missing
    print("ValueError", error)

# optimize's report has timelines by default, so it plots as it is.
module, optimized = memsched.optimize(text, budget="min")
path = memsched.plot.memory_timeline(optimized,
                                     os.path.join(scratch, "b.png"))
# CHECK-NEXT: optimized png True
print("optimized png", is_png(path))
fit = optimized["functions"][0]["fit"]
path = memsched.plot.before_after(report, optimized,
                                  os.path.join(scratch, "c.png"))
# CHECK-NEXT: before/after png True
print("before/after png", is_png(path))
# Budget and floor may be given; the figure stays a PNG.
path = memsched.plot.before_after(report, optimized,
                                  os.path.join(scratch, "d.png"),
                                  function="train_step",
                                  budget_bytes=fit["budget_bytes"] * 2,
                                  floor_bytes=fit["budget_bytes"] // 2,
                                  title="custom")
# CHECK-NEXT: given lines png True
print("given lines png", is_png(path))

# Without timelines, the message says how to get one.
module, untimed = memsched.optimize(text, budget="min", timeline=False)
for call in [lambda: memsched.plot.memory_timeline(untimed, path),
             lambda: memsched.plot.before_after(report, untimed, path)]:
    try:
        call()
        print("no error")
    except ValueError as error:
        # CHECK-NEXT: ValueError report has no function with a timeline: make it with memsched.analyze(module) or memsched.optimize(text, ..., timeline=True) (the default)
        # CHECK-NEXT: ValueError report has no function with a timeline named train_step: make it with
        print("ValueError", error)
