# RUN: %PYTHON %s %examples/mlp_train_step.mlir | FileCheck %s
# RUN: %PYTHON -m memsched %examples/mlp_train_step.mlir --reorder lpmf | FileCheck %s --check-prefix=CLI
# RUN: not %PYTHON -m memsched %examples/mlp_train_step.mlir --reorder fastest 2>&1 | FileCheck %s --check-prefix=ERR
# RUN: %PYTHON -m memsched %S/../Transforms/reorder-fuse.mlir --fuse-elementwise | FileCheck %s --check-prefix=FUSE
# Tests memsched.reorder and the --reorder and --fuse-elementwise options of
# the command line: the
# reordered module reports lower planned bytes and the reorder figures, auto
# never raises the planned bytes, and results on CPU are bit-identical to the
# input's.

import sys

import memsched
import memsched.execute

# Two independent chains, each a 4 KiB intermediate reduced to a scalar: in
# program order both intermediates are live together; finishing one chain
# first saves 4 KiB of planned bytes (16392 -> 12296, see
# test/Transforms/reorder.mlir).
CHAINS = """
func.func @two_chains(%x: tensor<1024xf32>, %y: tensor<1024xf32>)
    -> (tensor<f32>, tensor<f32>) {
  %e0 = tensor.empty() : tensor<1024xf32>
  %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.exp ins(%y : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  %zero = arith.constant 0.0 : f32
  %i0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%i0 : tensor<f32>) -> tensor<f32>
  %ra = linalg.reduce ins(%a : tensor<1024xf32>) outs(%f0 : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %i1 = tensor.empty() : tensor<f32>
  %f1 = linalg.fill ins(%zero : f32) outs(%i1 : tensor<f32>) -> tensor<f32>
  %rb = linalg.reduce ins(%b : tensor<1024xf32>) outs(%f1 : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %ra, %rb : tensor<f32>, tensor<f32>
}
"""

def check(text, func, **options):
    before = memsched.analyze(text)["functions"][0]
    reordered = memsched.reorder(text, algorithm="auto", **options)
    after = memsched.analyze(reordered)["functions"][0]
    figures = after["reorder"]
    print("planned:", before["planned_bytes"], "->", after["planned_bytes"])
    print("not higher:", after["planned_bytes"] <= before["planned_bytes"])
    print("consistent:",
          figures["planned_after_bytes"] == after["planned_bytes"],
          figures["planned_before_bytes"] == before["planned_bytes"],
          figures["peak_after_bytes"] == after["peak_bytes"],
          figures["peak_before_bytes"] == before["peak_bytes"])
    print("candidates:", sorted(figures["candidates"]))
    print("chosen:", figures["chosen"])
    print("identical:", memsched.execute.compare_on_cpu(text, reordered, func=func) is None)

# CHECK: planned: 16392 -> 12296
# CHECK: not higher: True
# CHECK: consistent: True True True True
# CHECK: candidates: ['liu', 'program']
# CHECK: identical: True
check(CHAINS, "two_chains")

# On the MLP training step, orders of lower peak (exact: 59052 B against
# 70548 B) plan more bytes, so auto keeps the program order.
# CHECK: planned: 78996 -> 78996
# CHECK: not higher: True
# CHECK: consistent: True True True True
# CHECK: candidates: [{{.*}}'inductor-bfs', 'inductor-dfs', 'inductor-lpmf', 'postorder', 'program', {{.*}}'xla-dfs', 'xla-list']
# CHECK: identical: True
with open(sys.argv[1]) as handle:
    check(handle.read(), "train_step")

# fuse_elementwise: exp then negf, each 4 KiB, fused into one op that needs
# no intermediate (see test/Transforms/reorder-fuse.mlir).
FUSABLE = """
#id = affine_map<(d0) -> (d0)>
func.func @chain(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e0 = tensor.empty() : tensor<1024xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<1024xf32>) outs(%e0 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %e1 = tensor.empty() : tensor<1024xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<1024xf32>) outs(%e1 : tensor<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  return %b : tensor<1024xf32>
}
"""
# CHECK: planned: 12288 -> 8192
# CHECK: not higher: True
# CHECK: consistent: True True True True
# CHECK: chosen: fused+liu
# CHECK: identical: True
check(FUSABLE, "chain", fuse_elementwise=True)

# CLI: reordered by{{ +}}inductor-lpmf
# CLI: peak before reorder
# CLI: peak after reorder

# ERR: memsched-reorder: unknown algorithm 'fastest'

# FUSE-LABEL: memsched report for @chain
# FUSE: reordered by{{ +}}fused+liu
