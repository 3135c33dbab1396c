# RUN: %PYTHON %s %examples | FileCheck %s
# Tests the plan list of the report (docs/report.md): after memsched.optimize
# at several budgets, every function's entries add up to the planned bytes
# before memsched minus after, each has a known kind and a location, and
# the floor is never above the planned bytes. Recompute and swap entries
# both occur over these runs, so the checks cover them.

import glob
import os
import sys

import memsched

KINDS = {"reorder", "recompute", "swap", "in-place"}
seen = set()
runs = 0
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.mlir"))):
    with open(path) as handle:
        text = handle.read()
    for budget in [None, "0.9x", "0.7x", "min"]:
        try:
            _, report = memsched.optimize(text, budget=budget,
                                          timeline=False)
        except memsched.MLIRError:
            continue  # Out of reach; the error says why (other tests).
        for function in report["functions"]:
            if "planned_bytes" not in function:
                continue
            runs += 1
            where = (os.path.basename(path), budget, function["name"])
            assert function["floor_bytes"] <= function["planned_bytes"], where
            plan = function.get("plan", [])
            before = function.get("reorder", function.get("fit", {})).get(
                "planned_before_bytes")
            if before is None:
                assert not plan, where
                continue
            total = sum(entry["bytes"] for entry in plan)
            assert total == before - function["planned_bytes"], (
                where, total, before, function["planned_bytes"])
            for entry in plan:
                assert entry["kind"] in KINDS, (where, entry)
                assert entry["location"], (where, entry)
                assert entry["time_s"] >= 0, (where, entry)
                seen.add(entry["kind"])
            sizes = [entry["bytes"] for entry in plan]
            assert sizes == sorted(sizes, reverse=True), (where, sizes)

print("runs", runs, "kinds", " ".join(sorted(seen)))
# CHECK: runs {{[1-9][0-9]*}} kinds {{.*}}recompute{{.*}}reorder{{.*}}swap
