#!/usr/bin/env python3
"""Fuzzes every memsched pass and pipeline on random valid programs.

    PYTHONPATH=build/python_packages python3 bench/fuzz.py --seeds 0-9999
        [--opt build/bin/memsched-opt] [--save DIR] [--exec-ops 40]
        [--exec-rate 0.5] [--gpu-rate 0.3] [--subprocess-every 5]
        [--timeout 120]

Program ``seed`` is ``random_programs.program`` (one in ten
``control_flow_program``) of ``random.Random(seed)``; the same generator
then draws the options of each pass: memsched-reorder (a random
algorithm; also with fuse-elementwise=true and objective=planned), memsched-inplace,
memsched-remat / memsched-swap / memsched-fit / memsched-optimize with
budgets of 0.3x-1.0x or ``min`` on a random
device, memsched-split then memsched-remat at one budget,
memsched-optimize without a budget, memsched-report (json),
one-shot bufferization + memsched-plan-buffers, memsched-to-cpu-pipeline,
memsched-optimize with offload=inputs at a budget, and a pipeline with
cleanup between its passes (memsched-reorder, cse, canonicalize,
memsched-remat, cse, canonicalize, memsched-swap, both at one budget).
Checks, each a failure class of the summary:

- crash: the process running the passes dies (signal, ``LLVM ERROR``);
- timeout: one pass takes more than ``--timeout`` seconds (the worker is
  stopped); slow: more than ``--slow`` seconds;
- verifier: an output does not parse and verify again;
- diagnostic: a failed pass gives no error, or an "internal error";
- nondeterministic: a second run gives other output (or another error);
- budget: planned_bytes of a budget pass's output, and of it after
  ``cse,canonicalize``, above the budget (the pass's recorded
  ``memsched.fit.budget_bytes``, itself checked against the fraction of
  the input's planned bytes); floor: a budget pass's planned_bytes below
  the reported ``floor_bytes`` of the input, as it is and after
  ``cse,canonicalize`` (which no order, recomputation or swap plan may go
  below), or below its ``recompute_floor_bytes`` where the output swaps
  nothing (not checked where ops were split or fused, which changes the
  floor); json: the report is not strict JSON;
- wrong-result: CPU results (memsched-exec-harness +
  memsched-to-cpu-pipeline + mlir-runner) not bit-identical to the input's,
  on programs of at most ``--exec-ops`` ops, for a random share
  (``--exec-rate``) of the passes that succeed;
- device: on the same small programs, for a share (``--gpu-rate``), the
  device pipeline with kernels emulated on the host (``python3 -m
  memsched.run --emulate``, as given, with memsched-optimize at ``min`` or
  at 0.8x, half of them with the inputs in host memory, ``--offload
  inputs``): its results not bit-identical to the CPU pipeline's, or the
  device high-water mark not the planned device memory (a refusal with a
  clear error is an outcome, not a failure);
- ir-changed: with memsched-opt (every ``--subprocess-every``-th program),
  a single pass that fails prints the IR after failure and the function it
  failed on differs from the input's;
  plan: ``-test-memsched-verify-plan`` after planning, and
  ``-test-memsched-check-bufferization-model``, fail.

Passes run in a worker process (the Python bindings, no process start per
pass); a crash or time-out restarts it. Every failure is printed as one
``FUZZ-FAILURE`` line with the command reproducing it (the program is
written to ``--save``); a Markdown summary follows. The seed range defaults
to ``MEMSCHED_FUZZ_SEEDS`` (``A-B`` inclusive, or a count from 0).
"""

import argparse
import collections
import json
import math
import os
import random
import re
import select
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "python", "Inputs"))

from random_programs import control_flow_program, program  # noqa: E402

DEVICES = ["h100", "h200", "a100-80gb", "cpu"]
REORDER_ALGORITHMS = ["auto", "auto", "program", "exact", "liu",
                      "postorder", "xla-list", "xla-dfs", "inductor-lpmf",
                      "inductor-bfs", "inductor-dfs"]
REMAT_ALGORITHMS = ["auto", "greedy", "chen", "sequential"]
SWAP_ALGORITHMS = ["planned", "planned", "size-idle"]
PLAN_ALGORITHMS = ["auto", "greedy-by-size", "best-fit-by-size",
                   "best-fit-by-lifetime", "xla-best", "exact"]
# As memsched-to-cpu-pipeline bufferizes: one-shot bufferization creates
# the globals of constants in an order that changes from run to run, which
# memsched-order-globals fixes.
BUFFERIZE = ("one-shot-bufferize{bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map "
             "allow-return-allocs-from-loops "
             "unknown-type-conversion=identity-layout-map},"
             "memsched-order-globals")
CRASH_MARKERS = ["LLVM ERROR", "Stack dump", "PLEASE submit a bug report"]
FAILURE_CLASSES = ["crash", "timeout", "slow", "verifier", "diagnostic",
                   "nondeterministic", "budget", "json", "wrong-result",
                   "device", "ir-changed", "plan"]
# The emulated device runs' budgets (memsched.run --budget; "" for none).
DEVICE_BUDGETS = ["", "min", "0.8x"]
# And what it keeps in host memory (memsched.run --offload; "" for nothing).
DEVICE_OFFLOADS = ["", "inputs"]
SINGLE_PASSES = ["memsched-report", "reorder", "inplace", "remat", "swap",
                 "fit"]
CONTROL_FLOW_SHARE = 0.1
# --max-ops, for the worker and the driver alike.
MAX_OPS = [None]


def generate(seed):
    """(rng, text, entry, kind) of program ``seed``; the rng then draws the
    pass options."""
    rng = random.Random(seed)
    if rng.random() < CONTROL_FLOW_SHARE:
        text, entry, kind = control_flow_program(rng)
    else:
        text, entry, kind = program(rng, MAX_OPS[0])
    return rng, text, entry, kind


def budget_form(rng):
    """(option text, fraction or None for min)."""
    if rng.random() < 0.15:
        return "min", None
    fraction = round(rng.uniform(0.3, 1.0), 4)
    return "%gx" % fraction, fraction


def pass_specs(rng):
    """[(label, pipeline, budget fraction, has budget)] of one program."""
    device = rng.choice(DEVICES)
    specs = [
        ("reorder", "func.func(memsched-reorder{algorithm=%s device=%s})"
         % (rng.choice(REORDER_ALGORITHMS), device), None, False),
        ("inplace", "func.func(memsched-inplace{donate-arguments=%s})"
         % rng.choice(["false", "true"]), None, False),
    ]
    for label, template in [
            ("remat", "func.func(memsched-remat{budget=%%s algorithm=%s "
             "device=%s})" % (rng.choice(REMAT_ALGORITHMS), device)),
            ("swap", "func.func(memsched-swap{budget=%%s algorithm=%s "
             "allow-stalls=%s device=%s})"
             % (rng.choice(SWAP_ALGORITHMS), rng.choice(["true", "false"]),
                rng.choice(DEVICES[:3]))),
            ("fit", "func.func(memsched-fit{budget=%%s device=%s})"
             % device),
            ("optimize", "memsched-optimize{budget=%%s device=%s}" % device),
            ("reorder+inplace+remat",
             "func.func(memsched-reorder,memsched-inplace),"
             "func.func(memsched-remat{budget=%s})")]:
        budget, fraction = budget_form(rng)
        specs.append((label, template % budget, fraction, True))
    specs += [
        ("optimize-nobudget", "memsched-optimize{device=%s}" % device, None,
         False),
        ("bufferize+plan", "%s,func.func(memsched-plan-buffers{algorithm=%s})"
         % (BUFFERIZE, rng.choice(PLAN_ALGORITHMS)), None, False),
        ("cpu-pipeline", "memsched-to-cpu-pipeline", None, False),
        ("concat-in-place+reorder", "func.func(memsched-concat-in-place{"
         "device=%s},memsched-reorder)" % device, None, False),
        ("reorder-fused", "func.func(memsched-reorder{fuse-elementwise=true "
         "device=%s})" % device, None, False),
        ("reorder-planned", "func.func(memsched-reorder{objective=planned "
         "device=%s})" % device, None, False),
        ("reorder-writes+inplace", "func.func(memsched-reorder{objective="
         "planned inplace-writes=true device=%s},memsched-inplace)" % device,
         None, False),
    ]
    budget, fraction = budget_form(rng)
    specs.append(("concat-in-place+fit", "func.func(memsched-concat-in-place,"
                  "memsched-fit{budget=%s})" % budget, fraction, True))
    budget, fraction = budget_form(rng)
    specs.append(("split+remat", "func.func(memsched-split{budget=%s "
                  "max-pieces=%d},memsched-remat{budget=%s})"
                  % (budget, rng.choice([2, 4, 16]), budget), fraction, True))
    budget, fraction = budget_form(rng)
    specs.append(("fuse+fit", "func.func(memsched-fuse{input-ratio=%d "
                  "elementwise=%s},memsched-fit{budget=%s})"
                  % (rng.choice([1, 4, 64]), rng.choice(["true", "false"]),
                     budget), fraction, True))
    # Any function's tensor arguments may stay in host memory (offload's
    # inputs); appended last, so that the draws above stay as they were.
    budget, fraction = budget_form(rng)
    specs.append(("optimize-offload", "memsched-optimize{budget=%s "
                  "offload=inputs device=%s}" % (budget, device), fraction,
                  True))
    # A user's pipeline with cleanup between the passes: each pass plans
    # what the last one's cleanup left, and the second budget applies to
    # that (the same fraction again, so at most its square of the input).
    budget, fraction = budget_form(rng)
    specs.append(("remat+cleanup+swap", "func.func(memsched-reorder),cse,"
                  "canonicalize,func.func(memsched-remat{budget=%s}),cse,"
                  "canonicalize,func.func(memsched-swap{budget=%s})"
                  % (budget, budget), fraction, True))
    return specs


def op_count(text):
    return sum(1 for line in text.splitlines() if " = " in line
               and not line.lstrip().startswith("%r ="))


def first_error(message):
    """The first error line of a diagnostic dump (remarks come first)."""
    lines = message.splitlines() or [""]
    return next((line for line in lines if "error" in line), lines[0])


def strict_json(text):
    def refuse(constant):
        raise ValueError("not a JSON number: %s" % constant)
    return json.loads(text, parse_constant=refuse)


# The worker: runs every pass in process and reports per program.


class Worker:
    def __init__(self, args, protocol):
        import memsched
        import memsched.execute
        from memsched import _memsched
        self.memsched = memsched
        self.execute = memsched.execute
        self.native = _memsched
        self.args = args
        self.protocol = protocol

    def say(self, *fields):
        self.protocol.write(json.dumps(fields) + "\n")
        self.protocol.flush()

    def run(self, text, pipeline):
        """(output, None) or (None, error message)."""
        try:
            return self.memsched.run_pipeline(text, pipeline), None
        except self.memsched.MLIRError as error:
            return None, str(error)

    def report(self, text):
        return strict_json(self.native.analyze(text, "", False))

    def planned(self, text):
        return {f["name"]: f for f in self.report(text)["functions"]}

    def check(self, seed):
        rng, text, entry, kind = generate(seed)
        failures = []
        stats = collections.Counter()

        def fail(cls, label, pipeline, detail):
            failures.append((cls, label, pipeline, detail[:2000]))

        _, error = self.run(text, "")
        if error:
            fail("verifier", "input", "", "the generated program does not "
                 "verify: " + error)
            return kind, stats, failures, {}
        if "call @" in text:
            # Function passes see callees through the calls' workspaces, as
            # a user running them alone must provide: annotate first.
            text, error = self.run(text, "memsched-annotate-calls")
            if error:
                fail("diagnostic", "memsched-annotate-calls",
                     "memsched-annotate-calls", error)
                return kind, stats, failures, {}
        specs = pass_specs(rng)
        execute = op_count(text) <= self.args.exec_ops
        outcomes = {}
        self.say("pass", "memsched-report", "memsched-report{format=json}")
        try:
            before = self.planned(text)
        except self.memsched.MLIRError as error:
            before = None
            outcomes["memsched-report"] = first_error(str(error))
            self.check_error(fail, "memsched-report",
                             "memsched-report{format=json}", str(error))
        except ValueError as error:
            before = None
            fail("json", "memsched-report", "memsched-report{format=json}",
                 str(error))
        stats["passes"] += 1
        reference = None
        floors = None
        slow = False
        for label, pipeline, fraction, has_budget in specs:
            if slow and ("reorder" in pipeline or "optimize" in pipeline):
                # After a slow reorder, the others would be as slow.
                stats["skipped"] += 1
                continue
            self.say("pass", label, pipeline)
            stats["passes"] += 1
            began = time.time()
            output, error = self.run(text, pipeline)
            seconds = time.time() - began
            if seconds > self.args.slow:
                # Not run twice: one slow run is the finding.
                fail("slow", label, pipeline, "the pass takes %.1f s on %d "
                     "ops" % (seconds, op_count(text)))
                slow = True
            else:
                again, error_again = self.run(text, pipeline)
                if (output, error) != (again, error_again):
                    fail("nondeterministic", label, pipeline,
                         "a second run differs")
            if error is not None:
                outcomes[label] = first_error(error)
                self.check_error(fail, label, pipeline, error)
                continue
            outcomes[label] = "ok"
            _, error = self.run(output, "")
            if error is not None:
                fail("verifier", label, pipeline, "the output does not "
                     "parse and verify: " + error)
                continue
            if label in ("bufferize+plan", "cpu-pipeline"):
                continue
            if has_budget and before is not None:
                if floors is None:
                    floors = self.floors(text)
                self.check_budget(fail, label, pipeline, fraction, before,
                                  output, floors)
            if execute and rng.random() < self.args.exec_rate:
                if reference is None:
                    self.say("pass", "execute-input", "")
                    reference = self.cpu(text, entry)
                    stats["executed"] += 1
                    if isinstance(reference, str):
                        outcomes["execute"] = first_error(reference)
                        if "mlir-runner failed" in reference:
                            fail("wrong-result", "execute-input", "",
                                 reference)
                        execute = False
                        continue
                self.say("pass", "execute", pipeline)
                results = self.cpu(output, entry)
                stats["executed"] += 1
                if results != reference:
                    fail("wrong-result", label, pipeline,
                         "CPU results differ from the input's: %s"
                         % (results if isinstance(results, str)
                            else "bits differ"))
        if execute and rng.random() < self.args.gpu_rate:
            budget = rng.choice(DEVICE_BUDGETS)
            # Drawn after the budget, so that the budgets drawn stay as
            # they were: the inputs in host memory, pinned for the call.
            offload = rng.choice(DEVICE_OFFLOADS)
            label = "device-emulated"
            pipeline = device_pipeline(entry, budget, offload)
            self.say("pass", label, pipeline)
            stats["passes"] += 1
            report = self.device(text, entry, budget, offload)
            if isinstance(report, str):
                outcomes[label] = first_error(report)
                self.check_error(fail, label, pipeline, report)
            else:
                outcomes[label] = "ok"
                check = report.get("check") or {}
                if not check.get("identical"):
                    fail("device", label, pipeline, "results differ from "
                         "the CPU pipeline's: %d of %d elements" % (
                             check.get("differing", -1),
                             check.get("elements", -1)))
                if not report.get("peak_matches_plan"):
                    fail("device", label, pipeline, "device peak %s B, "
                         "planned %s B" % (report.get("device_peak_bytes"),
                                           report.get("planned_device_bytes")))
        return kind, stats, failures, outcomes

    def device(self, text, entry, budget, offload=""):
        """The report of memsched.run on ``text`` with emulated kernels, or
        an error message."""
        import memsched.run as runner
        with tempfile.NamedTemporaryFile("w", suffix=".mlir") as handle:
            handle.write(text)
            handle.flush()
            argv = [handle.name, "--emulate", "--func", entry,
                    "--tolerance", "exact"]
            if budget:
                argv += ["--budget", budget]
            if offload:
                argv += ["--offload", offload]
            try:
                return runner.run(runner.build_parser().parse_args(argv))
            except runner.RunError as error:
                # memsched.run's own refusals (no runtime, ...) carry no
                # MLIR diagnostic; they are clear errors all the same.
                message = str(error)
                return message if "error:" in message else "error: " + message

    def check_error(self, fail, label, pipeline, error):
        if "error:" not in error:
            fail("diagnostic", label, pipeline, "no error diagnostic: "
                 + error)
        if "internal error" in error:
            fail("diagnostic", label, pipeline, error)

    def floors(self, text):
        """The floors of each function of ``text``, by name, as (any plan,
        plans without swaps): the smaller of each as it is and after cse and
        canonicalize (the cleanup a budget pass's output is measured after,
        which may fold ops away, or fold a fill into a constant that is then
        resident)."""
        floors = {}
        cleaned, _ = self.run(text, "cse,canonicalize")
        for module in [text, cleaned]:
            try:
                functions = self.planned(module) if module else {}
            except (ValueError, self.memsched.MLIRError):
                return {}
            for name, function in functions.items():
                if "floor_bytes" in function:
                    figures = (function["floor_bytes"],
                               function["recompute_floor_bytes"])
                    floors[name] = tuple(map(min, floors.get(name, figures),
                                             figures))
        return floors

    def check_budget(self, fail, label, pipeline, fraction, before, output,
                     floors):
        cleaned, cleaned_error = self.run(output, "cse,canonicalize")
        if cleaned is None:
            fail("verifier", label, pipeline, "cse,canonicalize fails: "
                 + cleaned_error)
            return
        for stage, module in [("pass", output), ("cleanup", cleaned)]:
            try:
                functions = self.planned(module)
            except ValueError as error:
                fail("json", label, pipeline, str(error))
                return
            for name, function in functions.items():
                fit = function.get("fit")
                if not fit:
                    continue
                budget = fit["budget_bytes"]
                if (fraction is not None and name in before and
                        "planned_bytes" in before[name]):
                    bound = math.floor(fraction *
                                       before[name]["planned_bytes"])
                    if budget > bound + 1:
                        fail("budget", label, pipeline,
                             "@%s: recorded budget %d B above %s of the "
                             "input's planned bytes (%d B)"
                             % (name, budget, fraction, bound))
                if function["planned_bytes"] > budget:
                    fail("budget", label, pipeline,
                         "@%s after %s: planned %d B > budget %d B"
                         % (name, stage, function["planned_bytes"], budget))
                # The floor of the cleaned-up input bounds every order,
                # recomputation and swap plan (a concatenation computed in
                # place, a split op or fused ops change the ops whose
                # working sets make it; arguments in host memory are no
                # longer resident); an output without swaps, the higher
                # floor of recomputation.
                if (name not in floors or "concat" in label or
                        "split" in label or fit.get("split") or
                        "fuse" in label or fit.get("fused") or
                        fit.get("offload")):
                    continue
                floor, recompute_floor = floors[name]
                if "memsched.swap_out" not in module:
                    floor = recompute_floor
                if function["planned_bytes"] < floor:
                    fail("floor", label, pipeline,
                         "@%s after %s: planned %d B below the input's "
                         "floor %d B" % (name, stage,
                                         function["planned_bytes"], floor))

    def cpu(self, text, entry):
        """The bit patterns of ``entry``'s results, or an error message."""
        try:
            return self.execute.run_on_cpu(text, func=entry)
        except self.memsched.MLIRError as error:
            return "the CPU pipeline refuses: " + str(error)
        except RuntimeError as error:
            return str(error)

    def loop(self):
        for line in sys.stdin:
            seed = int(line)
            kind, stats, failures, outcomes = self.check(seed)
            self.say("result", seed, kind, dict(stats), failures, outcomes)


# The subprocess checks: memsched-opt's test passes and the IR after a
# failed pass.


def opt_run(opt, text, arguments, timeout):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir",
                                     delete=False) as handle:
        handle.write(text)
    try:
        completed = subprocess.run([opt, handle.name] + arguments,
                                   capture_output=True, text=True,
                                   timeout=timeout)
        return completed
    finally:
        os.unlink(handle.name)


def crashed(completed):
    return completed.returncode < 0 or any(
        marker in completed.stderr for marker in CRASH_MARKERS)


def subprocess_checks(args, seed, outcomes):
    """Failures found by running memsched-opt itself on program ``seed``
    (with its calls annotated, as the in-process checks run it)."""
    _, text, _, kind = generate(seed)
    failures = []
    opt = args.opt
    if "call @" in text:
        annotated = opt_run(opt, text, ["-memsched-annotate-calls", "-o", "-"],
                            args.timeout)
        if annotated.returncode == 0:
            text = annotated.stdout
    checks = []
    # Control flow is modelled from above (a body's writes in place may
    # count as allocations): its check is that bound.
    checks.append(("bufferization-model",
                   ["-test-memsched-check-bufferization-model" +
                    ("=upper-bound" if kind == "control-flow" else "")]))
    checks.append(("bufferize+plan+verify",
                   ["--pass-pipeline=builtin.module(%s,func.func("
                    "memsched-plan-buffers),func.func("
                    "test-memsched-verify-plan))" % BUFFERIZE]))

    def check(label, arguments):
        """Runs one check; returns whether it passed."""
        completed = opt_run(opt, text, arguments + ["-o", "/dev/null"],
                            args.timeout)
        if crashed(completed):
            failures.append(("crash", label, " ".join(arguments),
                             completed.stderr[-2000:]))
        elif completed.returncode != 0:
            failures.append(("plan", label, " ".join(arguments),
                             first_error(completed.stderr)))
        return completed.returncode == 0

    passed = {label: check(label, arguments) for label, arguments in checks}
    # Where the model matches bufferization on the input, it must still
    # bound it after concat-in-place computes pieces in their slices (the
    # known mismatches of the input would only repeat; the model may count
    # a copy bufferization avoids, as it does for control flow).
    if passed["bufferization-model"]:
        check("concat-in-place+bufferization-model",
              ["--pass-pipeline=builtin.module(func.func("
               "memsched-concat-in-place),"
               "test-memsched-check-bufferization-model{upper-bound=true})"])
    # The function the first failed pass failed on must be as in the input
    # (single passes only: in a pipeline, the passes before the failing one
    # change the IR legitimately).
    failed = [label for label, outcome in outcomes.items()
              if outcome != "ok" and label in SINGLE_PASSES]
    specs = {label: pipeline for label, pipeline, _, _ in pass_specs(
        generate(seed)[0])}
    specs["memsched-report"] = "memsched-report{format=json output=-}"
    if failed:
        label = failed[0]
        pipeline = specs[label]
        # Local scope: alias names (#map3) depend on the other functions,
        # which a pass that succeeded on them has changed.
        printed = opt_run(opt, text, ["-mlir-print-local-scope", "-o", "-"],
                          args.timeout).stdout
        completed = opt_run(opt, text, [
            "--pass-pipeline=builtin.module(%s)" % pipeline,
            "-mlir-print-local-scope",
            "--mlir-print-ir-after-failure", "--mlir-print-ir-module-scope",
            "--mlir-disable-threading", "-o", "/dev/null"], args.timeout)
        if crashed(completed):
            failures.append(("crash", label, pipeline,
                             completed.stderr[-2000:]))
        elif completed.returncode == 0:
            failures.append(("nondeterministic", label, pipeline,
                             "fails in process, succeeds in memsched-opt"))
        else:
            header = re.search(r"IR Dump After .* Failed .*operation: "
                               r"@([\w.$-]+)\) //----- //\n",
                               completed.stderr)
            after = completed.stderr[header.end():] if header else ""
            name = header.group(1) if header else None
            if name and (_function(after, name) is None or
                         _function(after, name) != _function(printed, name)):
                failures.append(("ir-changed", label, pipeline,
                                 "the IR after the failure differs from "
                                 "the input"))
    return failures


def _function(module, name):
    """The text of function ``@name`` in a printed module, or None."""
    match = re.search(r"^  func\.func (private )?@%s\(" % re.escape(name),
                      module, re.M)
    if not match:
        return None
    end = module.find("\n  }\n", match.start())
    return module[match.start():end] if end >= 0 else None


# The driver.


def parse_seeds(text):
    if "-" in text:
        first, last = text.split("-", 1)
        return range(int(first), int(last) + 1)
    return range(int(text))


class Pool:
    """One worker process, restarted after a crash or a time-out."""

    def __init__(self, args):
        self.args = args
        self.process = None
        self.stderr = None

    def start(self):
        self.stderr = tempfile.TemporaryFile("w+")
        command = [sys.executable, os.path.abspath(__file__), "--worker",
                   "--exec-ops", str(self.args.exec_ops),
                   "--exec-rate", str(self.args.exec_rate),
                   "--gpu-rate", str(self.args.gpu_rate),
                   "--slow", str(self.args.slow)]
        if self.args.max_ops:
            command += ["--max-ops", str(self.args.max_ops)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE,
                                        stderr=self.stderr, text=True,
                                        bufsize=1)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def check(self, seed):
        """("result", ...) fields, or ("crash"|"timeout", last pass,
        pipeline, stderr tail)."""
        if self.process is None:
            self.start()
        self.process.stdin.write("%d\n" % seed)
        self.process.stdin.flush()
        last = ("(start)", "")
        deadline = time.time() + self.args.timeout
        while True:
            left = deadline - time.time()
            ready, _, _ = select.select([self.process.stdout], [], [],
                                        max(left, 0))
            if not ready:
                self.stop()
                return ("timeout",) + last + ("",)
            line = self.process.stdout.readline()
            if not line:
                code = self.process.wait()
                self.stderr.seek(0)
                tail = self.stderr.read()[-3000:]
                self.process = None
                return ("crash",) + last + ("exit %d\n%s" % (code, tail),)
            fields = json.loads(line)
            if fields[0] == "pass":
                last = (fields[1], fields[2])
                deadline = time.time() + self.args.timeout
            else:
                return fields


def device_pipeline(entry, budget, offload=""):
    """memsched.run's arguments for the emulated device run."""
    return "memsched.run --emulate --func %s --tolerance exact%s%s" % (
        entry, " --budget " + budget if budget else "",
        " --offload " + offload if offload else "")


def repro(args, seed, pipeline):
    path = os.path.join(args.save, "seed%d.mlir" % seed) if args.save \
        else "seed%d.mlir" % seed
    if pipeline.startswith("memsched.run "):
        return "python3 -m memsched.run %s %s" % (
            path, pipeline[len("memsched.run "):])
    if not pipeline:
        return "memsched-opt %s" % path
    if pipeline.startswith("-"):
        return "memsched-opt %s %s" % (path, pipeline)
    return "memsched-opt %s %s" % (path, shlex.quote(
        "--pass-pipeline=builtin.module(%s)" % pipeline))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds",
                        default=os.environ.get("MEMSCHED_FUZZ_SEEDS",
                                               "0-99"))
    parser.add_argument("--opt", default=os.environ.get(
        "MEMSCHED_OPT", os.path.join(ROOT, "build", "bin", "memsched-opt")))
    parser.add_argument("--save", default=None,
                        help="directory for the programs that fail")
    parser.add_argument("--max-ops", type=int, default=None,
                        help="at most this many generated ops per program")
    parser.add_argument("--exec-ops", type=int, default=40)
    parser.add_argument("--exec-rate", type=float, default=0.3)
    parser.add_argument("--gpu-rate", type=float, default=0.3,
                        help="share of the executed programs also run "
                        "through the emulated device pipeline")
    parser.add_argument("--subprocess-every", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds one pass may take before the worker "
                        "is stopped")
    parser.add_argument("--slow", type=float, default=10,
                        help="seconds above which a pass counts as slow")
    parser.add_argument("--known", action="append", default=[],
                        metavar="CLASS:PASS",
                        help="a failure already known (and tested by its own "
                        "lit test): printed as FUZZ-KNOWN and counted apart; "
                        "PASS may be *")
    parser.add_argument("--stop-after", type=float, default=None,
                        help="seconds after which no new program is started "
                        "(the summary gives the seeds done)")
    parser.add_argument("--kind", default=None,
                        help="only the programs of this kind (e.g. "
                        "control-flow); the other seeds are skipped")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress on stderr")
    parser.add_argument("--worker", action="store_true",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    MAX_OPS[0] = args.max_ops
    args.opt = os.path.abspath(args.opt)
    if args.worker:
        # The protocol keeps its own descriptor: passes that print (a report
        # to "-") write to stderr instead.
        protocol = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)
        Worker(args, protocol).loop()
        return
    seeds = parse_seeds(args.seeds)
    if args.kind:
        seeds = [seed for seed in seeds if generate(seed)[3] == args.kind]
    if args.save:
        os.makedirs(args.save, exist_ok=True)
    pool = Pool(args)
    began = time.time()
    totals = collections.Counter()
    kinds = collections.Counter()
    outcome_counts = collections.defaultdict(collections.Counter)
    failures_by_class = collections.Counter()
    distinct = collections.OrderedDict()
    done = []
    for index, seed in enumerate(seeds):
        if args.stop_after and time.time() - began > args.stop_after:
            break
        done.append(seed)
        fields = pool.check(seed)
        if fields[0] == "result":
            _, _, kind, stats, failures, outcomes = fields
            failures = [tuple(f) for f in failures]
        else:
            kind = generate(seed)[3]
            stats, outcomes = {}, {}
            failures = [(fields[0], fields[1], fields[2], fields[3])]
        if index % args.subprocess_every == 0 and fields[0] == "result":
            failures += subprocess_checks(args, seed, outcomes)
            totals["subprocess-checked"] += 1
        kinds[kind] += 1
        totals.update(stats)
        for label, outcome in outcomes.items():
            outcome_counts[label][_normalize(outcome)] += 1
        for cls, label, pipeline, detail in failures:
            known = any(entry in ("%s:%s" % (cls, label), "%s:*" % cls)
                        for entry in args.known)
            failures_by_class["known " + cls if known else cls] += 1
            key = ("known " + cls if known else cls, label, _normalize(detail.splitlines()[0]
                                          if detail else ""))
            if key not in distinct:
                distinct[key] = (seed, pipeline)
            print("FUZZ-%s %s seed %d pass %s: %s\n  repro: %s"
                  % ("KNOWN" if known else "FAILURE", cls, seed, label, detail.splitlines()[0] if detail
                     else "", repro(args, seed, pipeline)), flush=True)
            if args.save:
                with open(os.path.join(args.save, "seed%d.mlir" % seed),
                          "w") as handle:
                    handle.write(generate(seed)[1])
                with open(os.path.join(args.save, "seed%d.txt" % seed),
                          "a") as handle:
                    handle.write("%s %s\n%s\n%s\n\n" % (
                        cls, label, repro(args, seed, pipeline), detail))
        if not args.quiet and (index + 1) % 100 == 0:
            print("%d programs, %.0f s, %d failures" % (
                index + 1, time.time() - began,
                sum(failures_by_class.values())), file=sys.stderr,
                flush=True)
    pool.stop()
    seconds = time.time() - began
    print_summary(args, done, kinds, totals, failures_by_class,
                  outcome_counts, distinct, seconds)


def _normalize(message):
    """A message with numbers, names and locations blanked, to count kinds
    of refusals and failures."""
    message = re.sub(r"loc\([^)]*\):\s*", "", message)
    message = re.sub(r"\S+\.mlir:\d+:\d+:\s*", "", message)
    message = re.sub(r"'@?[\w.$#%-]+'", "'_'", message)
    message = re.sub(r"@[\w.$-]+", "@_", message)
    message = re.sub(r"%[\w#]+", "%_", message)
    message = re.sub(r"\d+(\.\d+)?( ?[KMG]i?B)?", "N", message)
    message = re.sub(r"tensor<[^>]*>", "tensor<_>", message)
    return message[:150]


def print_summary(args, seeds, kinds, totals, failures_by_class,
                  outcome_counts, distinct, seconds):
    print("fuzzed %d programs (seeds %s) in %.0f s" % (
        len(seeds), "%d-%d" % (seeds[0], seeds[-1]) if seeds else "none",
        seconds))
    print("")
    print("| programs | %s | passes run | skipped after a slow one | "
          "executed on CPU | checked with memsched-opt |"
          % " | ".join(sorted(kinds)))
    print("|---:|%s---:|---:|---:|---:|" % ("---:|" * len(kinds)))
    print("| %d | %s | %d | %d | %d | %d |" % (
        len(seeds), " | ".join(str(kinds[k]) for k in sorted(kinds)),
        totals["passes"], totals["skipped"], totals["executed"],
        totals["subprocess-checked"]))
    print("")
    print("| %s |" % " | ".join(FAILURE_CLASSES))
    print("|%s" % ("---:|" * len(FAILURE_CLASSES)))
    print("| %s |" % " | ".join(str(failures_by_class[c])
                                for c in FAILURE_CLASSES))
    known = sorted(c for c in failures_by_class if c.startswith("known "))
    if known:
        print("")
        print("known failures (each with its own lit test): %s" % ", ".join(
            "%s %d" % (c[len("known "):], failures_by_class[c])
            for c in known))
    print("")
    print("| pass | ok | refused (first line of the error, most common) |")
    print("|---|---:|---|")
    for label in sorted(outcome_counts):
        counts = outcome_counts[label]
        refusals = [(n, m) for m, n in counts.items() if m != "ok"]
        refusals.sort(reverse=True)
        print("| %s | %d | %s |" % (label, counts["ok"], "; ".join(
            "%d: %s" % (n, m.replace("|", "/")) for n, m in refusals[:3])))
    print("")
    print("distinct failures: %d" % len(distinct))
    for (cls, label, message), (seed, pipeline) in distinct.items():
        print("- %s in %s (first seed %d): %s\n  %s" % (
            cls, label, seed, message, repro(args, seed, pipeline)))
    print("total failures: %d" % sum(
        n for c, n in failures_by_class.items() if not c.startswith("known ")))


if __name__ == "__main__":
    main()
