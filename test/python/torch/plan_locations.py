# RUN: %PYTHON %s | FileCheck %s
# Tests that the report names PyTorch layers: after memsched.optimize of an
# imported training step, the plan's entries, the floor and the trace say
# which module and aten op each decision is about (locations survive the
# pipeline and the round trip through text).

import json
import os
import tempfile

import memsched
import memsched.torch as mt
from memsched.torch_models import zoo

(model, images, labels), = zoo("small", ["resnet18"]).values()
text = mt.export_training_step(model, (images,), labels)
module, report = memsched.optimize(text, budget="min")
function, = report["functions"]
print("floor at", function["floor_location"])
for entry in function["plan"]:
    if entry["kind"] in ("recompute", "swap"):
        assert ":aten." in entry["location"], entry
print("largest", function["plan"][0]["kind"], function["plan"][0]["location"])

# The trace names ops by layer too.
with tempfile.TemporaryDirectory() as scratch:
    trace = os.path.join(scratch, "trace.json")
    memsched.run_pipeline(module, "memsched-report{trace=%s output=%s}" % (
        trace, os.path.join(scratch, "report.txt")))
    with open(trace) as handle:
        names = [event["name"] for event in json.load(handle)["traceEvents"]
                 if event["ph"] == "X"]
print("trace", names[0])

# CHECK: floor at {{.*}}:aten.
# CHECK: largest {{recompute|swap}} {{.*}}:aten.
# CHECK: trace {{.*}}:aten.
