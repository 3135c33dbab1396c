# RUN: %PYTHON %s | FileCheck %s
# Tests memsched.torch.fit: the training step planned by memsched runs in
# PyTorch (the captured ATen ops in the plan's order, with its
# recomputations and host copies) and returns the loss and the gradients
# bit-identical to the captured order run the same way, close to PyTorch
# eager (float32, another evaluation order: the tolerance of check.py), with
# the live storage measured at op boundaries within 10% of memsched's
# planned bytes (ATen kernels may hold operands memsched's own ops do not;
# at `min` on this small net the two agree within 0.1%) and below the unplanned step's (the CPU allocator's peak too, kernel
# workspaces included); a budget under the floor raises memsched-optimize's
# error.

import torch

import memsched
import memsched.torch as mt


class Net(torch.nn.Module):
    """Convolutions with batch norm, a residual block, max pooling and
    dropout (a random input of the step)."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Sequential(
            torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.BatchNorm2d(16),
            torch.nn.ReLU(), torch.nn.MaxPool2d(2))
        self.block = torch.nn.Sequential(
            torch.nn.Conv2d(16, 16, 3, padding=1), torch.nn.BatchNorm2d(16),
            torch.nn.ReLU(), torch.nn.Conv2d(16, 16, 3, padding=1))
        self.head = torch.nn.Sequential(
            torch.nn.Flatten(), torch.nn.Dropout(0.25),
            torch.nn.Linear(16 * 16 * 16, 10))

    def forward(self, x):
        x = self.stem(x)
        return self.head(torch.relu(x + self.block(x)))


def close(ours, theirs):
    scale = max(1.0, float(theirs.abs().max()))
    return float((ours - theirs).abs().max()) / scale <= 1e-5


torch.manual_seed(0)
model = Net()
images = torch.randn(16, 3, 32, 32)
labels = torch.randint(0, 10, (16,))
params = [p for p in model.parameters() if p.requires_grad]

for budget in ["0.8x", "min"]:
    fitted = mt.fit(model, images, labels, budget=budget)
    counts = fitted.schedule.counts()
    loss, grads = fitted(images, labels, seed=1)
    again, expected = fitted.run_unplanned(images, labels, seed=1)
    identical = torch.equal(loss, again) and len(grads) == len(params) and \
        all(torch.equal(a, b) for a, b in zip(grads, expected))
    # PyTorch eager with the same dropout mask.
    masks = fitted.arguments(images, labels, seed=1)[-1:]
    from memsched import _capture
    with _capture.replay_random(masks):
        reference = torch.nn.functional.cross_entropy(model(images), labels)
        reference_grads = torch.autograd.grad(reference, params)
    matches = close(loss, reference) and all(
        close(a, b) for a, b in zip(grads, reference_grads))
    figures = fitted.measure(images, labels, seed=1)
    planned = figures["planned_bytes"]
    print("budget %s: recomputed or swapped %s, bit-identical %s, matches "
          "eager %s, boundary within %s, below unplanned %s" % (
              budget, counts["recompute"] + counts["swap_out"] > 0,
              identical, matches,
              figures["fitted_boundary_bytes"] <= 1.10 * planned and
              fitted.estimated_bytes >= figures["fitted_boundary_bytes"] and
              (fitted.budget_bytes is None or
               fitted.estimated_bytes <= fitted.budget_bytes),
              figures["fitted_boundary_bytes"] <
              figures["unplanned_boundary_bytes"] and
              figures["fitted_peak_bytes"] < figures["unplanned_peak_bytes"]))
    # The step reads the model's current parameters.
    with torch.no_grad():
        for p, g in zip(params, grads):
            p -= 0.1 * g
    loss2, _ = fitted(images, labels, seed=1)
    print("after an update: %s" % (float(loss2) != float(loss)))
# CHECK: budget 0.8x: recomputed or swapped False, bit-identical True, matches eager True, boundary within True, below unplanned True
# CHECK: after an update: True
# CHECK: budget min: recomputed or swapped True, bit-identical True, matches eager True, boundary within True, below unplanned True
# CHECK: after an update: True

# Parameters and gradients in host memory: each parameter copied in before
# its uses, each gradient copied out and returned as a CPU tensor; the
# device holds less than with the same budget and levers kept resident.
# Recomputation alone on both sides: with swaps, the resident step's joint
# plan reaches its floor (2925268 B) where the offloaded step's planners
# stop at 2984388 B (its floor is 2556036 B; bench/RESULTS.md).
resident = mt.fit(model, images, labels, budget="min", allow_swap=False)
offloaded = mt.fit(model, images, labels, budget="min",
                   offload=("params", "grads"), allow_swap=False)
counts = offloaded.schedule.counts()
loss, grads = offloaded(images, labels, seed=1)
again, expected = offloaded.run_unplanned(images, labels, seed=1)
figures = offloaded.measure(images, labels, seed=1)
print("offload: copies in %s, out %s, bit-identical %s, boundary within %s, "
      "below resident %s" % (
          counts["swap_in"] >= len(params), counts["swap_out"] >= len(params),
          torch.equal(loss, again) and all(
              torch.equal(a, b) for a, b in zip(grads, expected)),
          figures["fitted_boundary_bytes"] <= 1.05 * figures["planned_bytes"],
          figures["fitted_boundary_bytes"] < resident.measure(
              images, labels, seed=1)["fitted_boundary_bytes"]))
# CHECK: offload: copies in True, out True, bit-identical True, boundary within True, below resident True

try:
    mt.fit(model, images, labels, budget="1KiB")
except memsched.MLIRError as error:
    print("error:", str(error).splitlines()[-2 if "note" in str(error) else -1][:200])
# CHECK: error: {{.*}}cannot meet the budget of 1.00 KiB{{.*}}smallest reachable footprint is

try:
    fitted(torch.randn(8, 3, 32, 32), labels[:8])
except ValueError as error:
    print("error:", error)
# CHECK: error: argument 'input0' is (8, 3, 32, 32) torch.float32; the step was fitted for (16, 3, 32, 32) torch.float32

try:
    mt.fit(model, images, labels, offload=("params", "inputs"))
except ValueError as error:
    print("error:", error)
# CHECK: error: fit takes the inputs on the device the step runs on: offload is a subset of params, grads
