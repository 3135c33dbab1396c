//===- Passes.td - memsched conversion passes --------------*- tablegen -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares the passes that lower memsched programs towards a target:
// swap ops to host-arena copies, and tensor programs to GPU kernels, device
// allocations and copies (memsched-to-gpu-pipeline, docs/gpu.md).
// Registration and the pass base classes are generated.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_CONVERSION_PASSES_TD
#define MEMSCHED_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def MemschedLowerSwapsPass : Pass<"memsched-lower-swaps", "mlir::ModuleOp"> {
  let summary = "Lower swap ops to copies into a host arena";
  let description = [{
    Runs on tensors, before bufferization. Every function's host copies get
    planned offsets in one host arena (a `memref.global` named
    `__memsched_host_arena_<function>`, 64-byte aligned slots, a slot per
    swap-out for the life of the call).

    `target=cpu` (used by `memsched-to-cpu-pipeline`): `memsched.swap_out`
    becomes a `bufferization.materialize_in_destination` of the tensor into
    its slot (a synchronous copy), and `memsched.swap_in` a copy of the slot
    into a new tensor (`bufferization.to_tensor` + `linalg.copy`), so
    results are bit-identical and bufferization frees the device buffer
    after its last use.

    `target=gpu`: the arena is registered as pinned host memory
    (`gpu.host_register`) on entry; a swap-out becomes an asynchronous
    `gpu.memcpy` on its own stream from the tensor's buffer into its slot,
    and a `gpu.wait` on it is placed before the first op that starts after
    the copy ends in the time model of `device` (at the latest at the
    first `memsched.swap_wait` on it, a planned stall, or before the
    swap-in): buffer planning keeps the buffer live until that wait. On
    CPU, `memsched.swap_wait` is erased (the copies are synchronous). A
    swap-in becomes a `memref.alloc` (planned into the arena like any
    buffer) filled by an asynchronous `gpu.memcpy` from the slot, and a
    `gpu.wait` on it right before the first op reading the result, so
    compute waits only there.
  }];
  let options = [
    Option<"target", "target", "::mlir::memsched::SwapLoweringTarget",
           "::mlir::memsched::SwapLoweringTarget::Cpu",
           "What the swap copies become",
           [{::llvm::cl::values(
             clEnumValN(::mlir::memsched::SwapLoweringTarget::Cpu, "cpu",
                        "synchronous copies on the host"),
             clEnumValN(::mlir::memsched::SwapLoweringTarget::Gpu, "gpu",
                        "asynchronous gpu.memcpy through a pinned arena"))}]>,
    Option<"device", "device", "std::string", "\"\"",
           "Device preset or .json file; empty: the recorded one, else h100 timing the swap-outs (target=gpu)">,
  ];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def MemschedTagKernelsPass : Pass<"memsched-tag-kernels", "mlir::ModuleOp"> {
  let summary = "Name the GPU kernel every linalg op becomes";
  let description = [{
    Tensor level, first step of `memsched-to-gpu-pipeline`. Every linalg op
    in the block of a function gets `memsched.kernel = "<function>_<n>_<op>"`
    where `n` is the op's position in the block and `<op>` its name without
    the dialect (for example `train_step_12_matmul`). Ops that already have
    a name keep it, so recomputed clones keep their original's name.
    memsched-linalg-to-gpu names each kernel after its op, the runtime's
    profile reports times by kernel name, and memsched-import-profile reads
    them back onto the ops. Functions marked `memsched.host` are skipped.
  }];
}

def MemschedRegionResultsOutsidePass
    : Pass<"memsched-region-results-outside", "mlir::func::FuncOp"> {
  let summary = "Give structured control flow's tensor results a buffer "
                "defined outside the op";
  let description = [{
    Tensor level, before one-shot bufferization in memsched-to-gpu-pipeline.
    A loop whose body yields a tensor it computes anew, or a branch that
    yields one, bufferizes to an allocation inside the region that the op
    returns: a buffer with no lifetime a device arena can plan. This pass
    writes each such yielded tensor into a destination the op already has
    or one made before it, with `bufferization.materialize_in_destination`:
    for `scf.for`, the iteration argument (the loop's carried buffer); for
    `scf.if` and `scf.index_switch`, a `tensor.empty` of the result's type
    before the op. The value is copied there at the end of the region (or
    computed there, where bufferization writes in place), and the region's
    own buffers are freed inside it.

    Where a branch computes the value it yields with a destination-style
    op into a `tensor.empty` nothing else uses, the op computes it in the
    destination instead (nothing is copied). So does a loop's, where
    nothing after that op in the body reads the carried tensor and the op
    reads it only element by element where it writes (an all-parallel
    linalg op with the result's indexing), also through a chain of writes
    in place into values computed just before: an accumulator is then
    updated in its buffer, with no buffer of the body's own. A region
    whose value is an insertion into another tensor instead inserts into a
    copy of that tensor made in the destination (`linalg.copy`), so it
    allocates nothing for the value (for a loop, where nothing after the
    insertion reads the carried tensor). A branch's result then never
    aliases the values its branches yield, so bufferization does not merge
    their alias sets (which would make writes elsewhere copy).

    Functions marked `memsched.host` are skipped, and so are results with
    dynamic shapes and `scf.while`, whose results pass through two regions.
    Results are unchanged, bit for bit.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect",
                           "mlir::tensor::TensorDialect"];
  let options = [
    Option<"loops", "loops", "bool", "true",
           "Also write what scf.for bodies yield into the carried "
           "tensor (the CPU pipeline does branches only: its loops may "
           "return buffers they allocate)">,
  ];
}

def MemschedDeviceBoundaryPass
    : Pass<"memsched-device-boundary", "mlir::ModuleOp"> {
  let summary = "Make bufferized functions run on the device behind a host "
                "interface";
  let description = [{
    Runs on memrefs, after one-shot bufferization with function boundaries
    and before memsched-plan-buffers. Every function with a body and without
    the `memsched.host` attribute keeps its host-memory signature and gets:

    * for each memref argument, a device copy (`gpu.alloc` + `gpu.memcpy`
      host to device) at entry that replaces the argument in the body, and,
      if the body may write it, a copy back to the argument before the
      return;
    * for each constant global (`memref.get_global` of a constant), a device
      copy at entry;
    * for each memref result, a host allocation (marked
      `memsched.host_buffer`) filled by a `gpu.memcpy` from the device value
      right before the return, so the device value no longer escapes and
      memsched-plan-buffers places it in the arena;
    * `gpu.dealloc` of the copies before the return.

    The copies are the function's resident device memory; the function gets
    a `memsched.device` dictionary with `resident_bytes`, `argument_bytes`,
    `constant_bytes` and `result_bytes`.

    Errors, leaving the module unchanged: memref arguments, results or
    constants with dynamic shapes or non-identity layouts, calls inside a
    device function, functions with several blocks.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::memref::MemRefDialect"];
}

def MemschedDeviceAllocationsPass
    : Pass<"memsched-device-allocations", "mlir::func::FuncOp"> {
  let summary = "Allocate the buffers of a device function in device memory";
  let description = [{
    Runs after memsched-device-boundary and memsched-plan-buffers, on the
    functions memsched-device-boundary marked `memsched.device`. Every
    `memref.alloc` (the planned arena and anything left unplanned) except
    host result buffers becomes a `gpu.alloc`, freed by a `gpu.dealloc`
    before the return (existing `memref.dealloc` ops become `gpu.dealloc`);
    `memref.copy` becomes `gpu.memcpy` between contiguous buffers and
    `linalg.copy` (a kernel) otherwise.

    The function gets `memsched.device.device_bytes`, the device memory it
    allocates at most: resident copies + arena + unplanned buffers. The
    runtime's high-water mark is checked against it.

    Errors: an allocation in a nested region (its lifetime is not planned),
    an op other than linalg, views, allocation and GPU ops that touches a
    device buffer on the host (it would dereference device memory).
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect"];
}

def MemschedLinalgToGpuPass : Pass<"memsched-linalg-to-gpu", "mlir::ModuleOp"> {
  let summary = "Turn linalg ops on memrefs into tiled GPU launches";
  let description = [{
    In functions marked `memsched.device`, every linalg op is generalized,
    its loops are permuted so that the parallel ones come first (the
    reduction order of each output element is unchanged, so results stay
    bit-identical to the CPU lowering), and its parallel loops become an
    `scf.parallel` tiled into thread blocks (`scf::tileParallelLoop`): the
    innermost parallel dimension maps to `threadIdx.x` with tiles of
    `threads-x`, the next to `threadIdx.y` with tiles of `threads-y` (one
    parallel dimension: tiles of `threads-1d`), tile indices to the block
    grid, dimensions beyond three run sequentially in each thread. An op
    without parallel loops (a full reduction) runs in one thread. The
    upstream parallel-loops-to-GPU conversion then makes one `gpu.launch`
    per op, named after the op's `memsched.kernel` (uniqued with a suffix),
    all of a function's kernels in one GPU module `<function>_kernels`.

    In every other function, linalg ops become sequential loops, as in
    memsched-to-cpu-pipeline.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect"];
  let options = [
    Option<"threadsX", "threads-x", "int64_t", "32",
           "Tile of the innermost parallel dimension (threads in x)">,
    Option<"threadsY", "threads-y", "int64_t", "8",
           "Tile of the second innermost parallel dimension (threads in y)">,
    Option<"threads1D", "threads-1d", "int64_t", "256",
           "Tile of ops with one parallel dimension">,
    Option<"microX", "micro-x", "int64_t", "4",
           "Outputs per thread over the innermost parallel dimension of ops "
           "with reductions (register tile)">,
    Option<"microY", "micro-y", "int64_t", "4",
           "Outputs per thread over the second innermost parallel dimension "
           "of ops with reductions">,
  ];
}

def MemschedImportProfilePass
    : Pass<"memsched-import-profile", "mlir::ModuleOp"> {
  let summary = "Read measured kernel times back as op costs";
  let description = [{
    Reads the JSON profile memsched's CUDA runtime writes
    (`MEMSCHED_PROFILE=<file>`, docs/gpu.md) and sets `memsched.cost` (the
    measured seconds per call, which the cost model uses instead of its
    estimate) on every tensor-level op whose `memsched.kernel` name (as
    memsched-tag-kernels gives it; ops without one are named the same way
    first) appears in the profile. Import into the program that was
    profiled, before it is reordered or optimized: the names are positions.
    A remark counts the ops that got a measured cost.
  }];
  let options = [
    Option<"profile", "profile", "std::string", "\"\"",
           "Profile JSON written by the runtime">,
    Option<"calls", "calls", "int64_t", "1",
           "Calls of each function during the profiled run; kernel totals "
           "are divided by it">,
  ];
}

def MemschedCheckGpuTargetPass
    : Pass<"memsched-check-gpu-target", "mlir::ModuleOp"> {
  let summary = "Check a GPU target before lowering to it";
  let description = [{
    First step of `memsched-to-gpu-pipeline`, so that a bad target is an
    error naming what is missing rather than an abort deep in the NVPTX
    backend: `chip` must be a processor LLVM's NVPTX backend knows; its PTX
    version (`+ptxNN` in `features`) must be one the chip needs at least
    (LLVM aborts otherwise; sm_90 needs +ptx78, sm_90a +ptx80, sm_100
    +ptx86); `format` must be isa, bin or fatbin; and bin and fatbin need
    `ptxas` (fatbin also `fatbinary`) from a CUDA toolkit, looked up in the
    toolkit directory MLIR uses and on PATH; and math functions in device
    code need libdevice, which the serializer links only from a known
    toolkit directory (CUDA_ROOT, CUDA_HOME or CUDA_PATH). The module is not
    changed.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90\"", "Target GPU">,
    Option<"features", "features", "std::string", "\"+ptx80\"",
           "Target features (the PTX version)">,
    Option<"format", "format", "std::string", "\"isa\"",
           "isa (PTX, compiled by the driver at load time), bin (cubin) or "
           "fatbin">,
    Option<"checkToolkit", "check-toolkit", "bool", "true",
           "Check what the serializer needs from the CUDA toolkit (off when "
           "kernels are emulated)">,
  ];
}

def MemschedLaunchesToLoopsPass
    : Pass<"memsched-launches-to-loops", "mlir::func::FuncOp"> {
  let summary = "Run gpu.launch bodies as host loops";
  let description = [{
    Replaces every `gpu.launch` without barriers, shuffles or shared memory
    by six nested `scf.for` loops over its grid and block (blocks outermost,
    x innermost), with the block and thread ids bound to the loop indices.
    `memsched-to-gpu-pipeline{emulate-kernels}` uses it to run the whole
    device program (boundary copies, the planned arena, swaps, tiled
    kernels) on the CPU against a runtime over host memory, which is how CI
    checks the GPU lowering bit for bit without a GPU.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

#endif // MEMSCHED_CONVERSION_PASSES_TD
