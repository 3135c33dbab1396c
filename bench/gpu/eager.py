"""PyTorch eager's own figures for the zoo's training steps on a CUDA
device: the anchor memsched's GPU plans are compared with.

    python3 bench/gpu/eager.py [--models resnet18,vgg11] [--json out.json]

Each model of ``memsched.torch_models.zoo("bench")`` (the same modules,
inputs and sizes as ``bench/models/*.mlir.gz``), in float32 on the device:
the bytes held before the step (parameters and inputs), the allocator's
peak during one step (forward, cross-entropy loss, ``torch.autograd.grad``
of the parameters: the step memsched exports, gradients returned rather
than accumulated) from ``torch.cuda.max_memory_allocated``, and the
step's time (median of 5 after 2 warm-ups, synchronised). PyTorch's
default math modes (cuDNN may use TF32 for convolutions; matmuls do not).

Needs PyTorch and torchvision only, not memsched's extension: the model
file is loaded by path, so this runs on a GPU machine without MLIR.
"""

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def _zoo_module():
    path = os.path.join(ROOT, "python-bindings", "memsched",
                        "torch_models.py")
    spec = importlib.util.spec_from_file_location("memsched_torch_models",
                                                  path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(model, inputs, target, device, repeats=5, warmup=2):
    model = model.to(device).train()
    inputs = inputs.to(device)
    target = target.to(device)
    params = [p for p in model.parameters() if p.requires_grad]

    def step():
        loss = torch.nn.functional.cross_entropy(model(inputs), target)
        grads = torch.autograd.grad(loss, params)
        return loss, grads

    torch.cuda.synchronize(device)
    before = torch.cuda.memory_allocated(device)
    torch.cuda.reset_peak_memory_stats(device)
    result = step()
    torch.cuda.synchronize(device)
    peak = torch.cuda.max_memory_allocated(device)
    del result
    for _ in range(warmup):
        step()
    times = []
    for _ in range(repeats):
        torch.cuda.synchronize(device)
        started = time.perf_counter()
        step()
        torch.cuda.synchronize(device)
        times.append(time.perf_counter() - started)
    return {"held_before_bytes": before, "peak_bytes": peak,
            "step_s": statistics.median(times)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models",
                        default="resnet18,vgg11,mobilenet_v2,resnet50,gpt")
    parser.add_argument("--json")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("bench/gpu/eager.py: no CUDA device", file=sys.stderr)
        return 2
    device = torch.device("cuda")
    print("device: %s, torch %s" % (torch.cuda.get_device_name(device),
                                    torch.__version__))
    print("| model | held before (B) | eager peak (B) | step (s) |")
    print("|---|---|---|---|")
    rows = []
    zoo = _zoo_module().zoo
    for name in args.models.split(","):
        model, inputs, target = zoo("bench", [name])[name]
        row = dict(model=name, **measure(model, inputs, target, device))
        rows.append(row)
        print("| %s | %d | %d | %.4f |" % (name, row["held_before_bytes"],
                                          row["peak_bytes"], row["step_s"]))
        sys.stdout.flush()
        del model, inputs, target
        torch.cuda.empty_cache()
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
