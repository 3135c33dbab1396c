# RUN: %PYTHON %s | FileCheck %s
# Tests memsched-inplace's readers-first moves as a property over random
# programs (the fuzzer's, training steps among them): with the moves
# (move-readers=true, the default) no function's peak, as memsched-report
# models the rewritten function, is above its peak without them; the two
# outputs differ only where a remark says readers moved; and on a sample
# where they moved, the results on CPU equal the input's bit for bit. The
# trials where readers moved are counted, so that the test fails if the
# generator stops producing the pattern.

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))

import memsched
import memsched.execute
from random_graphs import training_step
from random_programs import program

PIPELINE = "func.func(memsched-inplace{move-readers=%s})"


def peaks(text):
    return {f["name"]: f["peak_bytes"]
            for f in memsched.analyze(text)["functions"] if "peak_bytes" in f}


rng = random.Random(int(os.environ.get("MEMSCHED_PROPERTY_SEED", "11")))
count = int(os.environ.get("MEMSCHED_PROPERTY_COUNT", "300"))
stats = {"moved": 0, "lower": 0, "violations": 0, "executed": 0}
for trial in range(count):
    if trial % 2:
        text, entry = training_step(rng), "train_step"
    else:
        text, entry, _ = program(rng)
    try:
        moved = memsched.run_pipeline(text, PIPELINE % "true")
        kept = memsched.run_pipeline(text, PIPELINE % "false")
    except memsched.MLIRError:
        continue  # outside the model (dynamic shapes, ...): refused alike
    if moved == kept:
        continue
    stats["moved"] += 1
    with_moves, without = peaks(moved), peaks(kept)
    for name, peak in with_moves.items():
        if peak > without.get(name, peak):
            stats["violations"] += 1
            print("trial %d @%s: peak %d B with the moves, %d B without"
                  % (trial, name, peak, without[name]))
        elif peak < without.get(name, peak):
            stats["lower"] += 1
    if stats["executed"] < 8:
        stats["executed"] += 1
        difference = memsched.execute.compare_on_cpu(text, moved, entry)
        if difference is not None:
            stats["violations"] += 1
            print("trial %d: results differ on CPU: %s" % (trial,
                                                           difference))

print("moved in %d trials, peak lower in %d, %d executed" % (
    stats["moved"], stats["lower"], stats["executed"]))
print("violations: %d" % stats["violations"])
print("moved some: %s" % (stats["moved"] > 0))
# CHECK: violations: 0
# CHECK: moved some: True
