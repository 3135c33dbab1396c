"""memsched-remat through the pass on chains, against Rotor's optimum.

`memsched-remat-chain-bench --emit-mlir DIR` writes the chains of its tables
(homogeneous, random heterogeneous, ResNet-like; at most 128 stages) as
training steps in linalg on tensors, every op timed by `memsched.cost` and
sized as the chain says (MiB scaled to KiB), and lists budgets of 0.4-0.9 of
each chain's store-all peak with Rotor's exact optimum (1-KiB slots) there.
This script runs `memsched-remat=budget=<bytes>` on each, by default and
with the chain phase off (`rotor-max-stages=0`), then `-cse -canonicalize`
and memsched-report, checks that the planned bytes stay within the budget,
and prints the pass's recompute time over Rotor's per budget, with the
geometric mean over the budgets Rotor meets.

Usage: python3 bench/remat_chain_pass.py [--build build]
"""
import argparse
import json
import math
import os
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_pass(opt, path, budget, options):
    """(recompute seconds, algorithm, planned bytes, pass seconds), or None
    when the pass cannot meet the budget."""
    start = time.perf_counter()
    done = subprocess.run(
        [opt, path, "-mlir-print-op-on-diagnostic=false",
         f"-memsched-remat=budget={budget}{options}", "-cse",
         "-canonicalize", "-memsched-report=format=json", "-o", os.devnull],
        capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        return None
    function = json.loads(done.stdout)["functions"][0]
    remat = function["remat"]
    return (remat["recompute_time_s"], remat["algorithm"],
            function["planned_bytes"], seconds)


def ratio(ours, rotor):
    if rotor <= 1e-12:
        return "1.00" if ours <= 1e-12 else "inf"
    return f"{ours / rotor:.3f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = parser.parse_args()
    opt = os.path.join(args.build, "bin", "memsched-opt")
    bench = os.path.join(args.build, "bin", "memsched-remat-chain-bench")
    with tempfile.TemporaryDirectory() as directory:
        listing = subprocess.run([bench, "--emit-mlir", directory],
                                 capture_output=True, text=True, check=True)
        entries = json.loads(listing.stdout)
        rows = {}
        logs = {"default": [], "off": []}
        slowest = 0.0
        for entry in entries:
            rotor = entry["rotor_extra_s"]
            cells = []
            for key, options in (("default", ""),
                                 ("off", " rotor-max-stages=0")):
                result = run_pass(opt, entry["file"], entry["budget_bytes"],
                                  options)
                if result is None:
                    cells.append("miss" if rotor is not None else "-")
                    continue
                extra, algorithm, planned, seconds = result
                if planned > entry["budget_bytes"]:
                    raise SystemExit(
                        f"budget broken: {entry['chain']} at "
                        f"{entry['fraction']}: planned {planned} > "
                        f"{entry['budget_bytes']}")
                slowest = max(slowest, seconds)
                if rotor is None:
                    cells.append("met (Rotor not)")
                    continue
                if rotor > 1e-12:
                    logs[key].append(math.log(max(extra, 1e-12) / rotor))
                cells.append(ratio(extra, rotor) +
                             (f" ({algorithm})" if key == "default" else ""))
            rows.setdefault(entry["chain"], []).append(
                (entry["fraction"], cells))
    fractions = [fraction for fraction, _ in next(iter(rows.values()))]
    print("| chain | " + " | ".join(f"{f:.1f}" for f in fractions) + " |")
    print("|---|" + "---:|" * len(fractions))
    for chain, cells in rows.items():
        print(f"| {chain} | " + " | ".join(
            f"{c[0]} / {c[1]}" for _, c in cells) + " |")
    print()
    for key, label in (("default", "memsched-remat (default)"),
                       ("off", "memsched-remat, rotor-max-stages=0")):
        values = logs[key]
        mean = math.exp(sum(values) / len(values)) if values else float("nan")
        print(f"{label}: recompute time over Rotor's, geometric mean "
              f"{mean:.3f} over {len(values)} budgets")
    print(f"slowest pass run (with -cse -canonicalize and the report): "
          f"{slowest:.2f} s")


if __name__ == "__main__":
    main()
