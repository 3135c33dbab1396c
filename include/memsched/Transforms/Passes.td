//===- Passes.td - memsched passes -------------------------*- tablegen -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares memsched's optimization and analysis passes; the
// lowering passes are in memsched/Conversion/Passes.td. Registration and the
// pass base classes are generated; nothing here is registered by hand.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_TRANSFORMS_PASSES_TD
#define MEMSCHED_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MemschedReportPass : Pass<"memsched-report", "mlir::ModuleOp"> {
  let summary = "Report the memory and time figures of every function";
  let description = [{
    Builds the tensor graph of every function with a body, simulates it in
    its current op order, and writes a report: a text table or JSON
    (`format=text|json`) to a file or standard output (`output=<file>|-`), and
    optionally a Chrome trace (`trace=<file>`, loads in Perfetto and
    chrome://tracing) with one slice per op on a compute track and a memory
    counter track. The IR is not changed.

    JSON contract, one entry per function:

    ```json
    {"functions": [{"name": "f", "ops": 12, "resident_bytes": 1024,
                    "peak_transient_bytes": 4096, "peak_bytes": 5120,
                    "lower_bound_bytes": 3072, "max_live_bytes": 4096,
                    "modeled_time_s": 1.2e-05, "device": "h100"} ] }
    ```

    A function outside the memory model (dynamic shapes) appears as
    `{"name": ..., "skipped": "<reason>"}`.
  }];
  let options = [
    Option<"format", "format", "::mlir::memsched::ReportFormat",
           "::mlir::memsched::ReportFormat::Text", "Report format",
           [{::llvm::cl::values(
             clEnumValN(::mlir::memsched::ReportFormat::Text, "text",
                        "a table per function"),
             clEnumValN(::mlir::memsched::ReportFormat::Json, "json",
                        "JSON (docs/report.md)"))}]>,
    Option<"output", "output", "std::string", "\"-\"",
           "File to write the report to, or - for standard output">,
    Option<"trace", "trace", "std::string", "\"\"",
           "File to write a Chrome trace to (none when empty)">,
    Option<"device", "device", "std::string", "\"\"",
           "Device preset (h100, h200, a100-80gb, cpu) or a .json device "
           "file; empty: the device each function records, else h100">,
    Option<"timeline", "timeline", "bool", "false",
           "Add each function's per-op timeline to the JSON report">,
  ];
}

def MemschedExecHarnessPass : Pass<"memsched-exec-harness", "mlir::ModuleOp"> {
  let summary = "Add a main function that runs a function on fixed inputs";
  let description = [{
    Adds `func.func @memsched_main()` that builds deterministic inputs for
    every argument of the function named by `func=`, calls it, and prints
    every result element's bit pattern (floats are bitcast to integers of the
    same width), so that two programs can be compared bit for bit after
    `memsched-to-cpu-pipeline` and `mlir-runner -e memsched_main`.

    Element `k` (row-major linear index) of argument `i` is
    `((26k + 31i + seed) mod 127 - 63) / 128` for floating-point types (exact
    in every float type), and
    `(3k + i + seed) mod int-modulus` for integer and index types (`k mod 2`
    for i1). Output is one header line per result,
    `memsched-result <n> <type>`, then one line per element.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::func::FuncDialect",
    "mlir::linalg::LinalgDialect", "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect", "mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"funcName", "func", "std::string", "\"train_step\"",
           "Name of the function to run">,
    Option<"seed", "seed", "int64_t", "0", "Offset added to every input">,
    Option<"intModulus", "int-modulus", "int64_t", "10",
           "Integer inputs are taken modulo this value">,
  ];
}

def MemschedReorderPass : Pass<"memsched-reorder", "mlir::func::FuncOp"> {
  let summary = "Reorder ops to minimise the peak memory of the function";
  let description = [{
    Builds the tensor graph of the function, computes a topological order of
    its ops that minimises the peak of live transient bytes (the memory model
    of the guide), and moves the ops into that order. Data dependences,
    write-after-read constraints of in-place writes and the relative order of
    side-effecting ops are kept, so results are unchanged.

    `algorithm=` selects the scheduler: `auto` (default: exact search on
    small graphs, Liu's optimal traversal on trees, otherwise the best of
    every heuristic below refined by exact re-ordering of windows around the
    peak; never worse than the input order), `program` (keep the order),
    `exact`, `liu`, `liu-postorder`, `postorder`, `xla-list` (alias `list`),
    `xla-dfs` (alias `dfs`), `inductor-lpmf` (`lpmf`), `inductor-bfs`
    (`bfs`), `inductor-dfs`, `xla` (best of XLA's three) and `inductor`
    (best of Inductor's three and the input order). A single heuristic is
    applied even when it is worse than the input order.

    The pass emits a remark with the peak before and after, and attaches a
    `memsched.reorder` dictionary to the function that `memsched-report`
    includes in its report. If the rebuilt graph of the new order models a
    higher peak than the input (which a different in-place decision by the
    graph builder could cause), the input order is restored.

    `fuse-elementwise=true` also plans the function after upstream MLIR's
    elementwise fusion (`-linalg-fuse-elementwise-ops`, an identity rewrite:
    the same arithmetic per element without the intermediate tensors) and
    keeps the fused function, reordered, where its peak is lower (`chosen`
    then starts with `fused+`); the two plans share the work limits of one.

    `objective=planned` minimises the planned bytes instead of the peak:
    returned buffers (a training step's gradients) are allocated whole
    apart whatever the order, so they count from the start, and the order
    lowers the arena's live peak, which may lie early in the backward pass
    where the transient peak does not. `auto` then never raises the planned
    bytes; the peak may rise. The remark and `lower_bound_bytes` /
    `candidates` are then of the planned bytes.

    `inplace-writes=true` orders for the function memsched-inplace will
    make of it: an op that reads the last use of a buffer and writes one of
    its size holds one buffer for both, so a branch written over its input
    can be made last. The order is judged with each order's writes taken,
    against the input's and the order found without counting them (the one
    that measures least is kept), and the remark and the dictionary's
    figures are those; the exact search of parts is not run for it.
  }];
  let dependentDialects = [
    "mlir::affine::AffineDialect", "mlir::linalg::LinalgDialect",
    "mlir::memref::MemRefDialect"
  ];
  let options = [
    Option<"algorithm", "algorithm", "std::string", "\"auto\"",
           "Scheduler: auto, program, exact, liu, liu-postorder, postorder, "
           "xla-list, xla-dfs, inductor-lpmf, inductor-bfs, inductor-dfs, "
           "xla or inductor">,
    Option<"timeLimitMs", "time-limit-ms", "int64_t", "0",
           "Optional wall-clock limit of auto and exact, in milliseconds "
           "(0: none; the searches stop at work limits)">,
    Option<"exactMaxTasks", "exact-max-tasks", "int64_t", "512",
           "Largest part between cut ops (after folding chains) the exact "
           "search takes on, at most 512">,
    Option<"device", "device", "std::string", "\"\"",
           "Device preset or .json file; empty: the recorded one, else h100 (for op workspaces and costs)">,
    Option<"fuseElementwise", "fuse-elementwise", "bool", "false",
           "Also plan the function after upstream elementwise fusion "
           "(-linalg-fuse-elementwise-ops) and keep it where its peak is "
           "lower">,
    Option<"objective", "objective", "std::string", "\"peak\"",
           "What the order minimises: peak (live transient bytes) or "
           "planned (the planned bytes budgets bound: returned buffers "
           "count whole from the start)">,
    Option<"inplaceWrites", "inplace-writes", "bool", "false",
           "Count the in-place writes memsched-inplace makes after the "
           "order (an op writing over the last read of an input of its "
           "size holds one buffer), and judge the order with them taken">,
  ];
}

def MemschedRematPass : Pass<"memsched-remat", "mlir::func::FuncOp"> {
  let summary = "Meet a memory budget by recomputing values where they are "
                "needed again";
  let description = [{
    Tensor level. Builds the tensor graph of the function in its current op
    order and, if its peak (resident + transient, the memory model of the
    guide) exceeds `budget=`, drops buffers in gaps of their uses: a
    dropped buffer is freed after its last use before the gap, and the ops
    defining it (its writer chain, views, the empty tensor) are cloned
    before the gap ends, right before the first reader after it or earlier,
    right after an input they read is last used; the readers after the gap
    read the copy. A value may be dropped in several gaps (recomputed once
    per group of late readers; `recompute-once=1` allows one). A clone reads
    the copy of another dropped buffer when that one is dropped by then, so
    chains of activations are recomputed segment-wise from the nearest kept
    values.

    `budget=` is an absolute size (`16GiB`, `512MB`, `1.5e9`) or a fraction
    of the function's peak before the pass (`0.5x`); it bounds the simulated
    peak of the result, which the pass checks by rebuilding the graph of the
    rewritten function. When no plan meets it, the pass emits an error
    naming the smallest budget the algorithm reached and leaves the IR
    unchanged. `algorithm=` picks how buffers are chosen: `auto` (default:
    the cheapest of greedy, chen and chen refined by the greedy, of every
    drop set where they are few, of Rotor's dynamic program where the
    function reads as a chain of stages (`rotor-max-stages=`), and with
    `ilp-max-tasks=` of Checkmate's ILP on small functions), `greedy` (recompute time per byte freed
    at the peak, then un-drop what is not needed), `chen` (sqrt(n)
    segments, best segment count) or `sequential` (PyTorch's
    checkpoint_sequential split; `segments=` sets the count).

    Every clone carries `memsched.recompute = <n>`, a number of its own, so
    that CSE and canonicalization cannot fold it back into its original.
    Only ops without memory effects are cloned. The function gets a
    `memsched.remat` dictionary (budget, peaks before and after,
    `recompute_time_s`, `recomputed_ops`, ...) that `memsched-report`
    includes, and a remark sums it up. The plan is made for the current
    order (run `memsched-reorder` before if desired); with `auto`, each
    plan is then also ordered as `memsched-reorder objective=planned`
    orders it, and that order kept where its planned bytes measure fewer
    (`reorder-after=`).
  }];
  let options = [
    Option<"budget", "budget", "std::string", "\"\"",
           "Bound on the footprint (resident + arena + escaping bytes): a size "
           "(16GiB, 512MB, 1.5e9), a fraction of the planned bytes before "
           "memsched (0.5x), or min">,
    Option<"algorithm", "algorithm", "::mlir::memsched::scheduling::RematAlgorithm",
           "::mlir::memsched::scheduling::RematAlgorithm::Auto",
           "How to choose what to recompute",
           [{::llvm::cl::values(
             clEnumValN(::mlir::memsched::scheduling::RematAlgorithm::Auto, "auto",
                        "the cheapest of greedy, chen and chen refined by the greedy"),
             clEnumValN(::mlir::memsched::scheduling::RematAlgorithm::Greedy, "greedy",
                        "greedy drops (docs/passes.md)"),
             clEnumValN(::mlir::memsched::scheduling::RematAlgorithm::Chen, "chen",
                        "segments, their count searched"),
             clEnumValN(::mlir::memsched::scheduling::RematAlgorithm::Sequential, "sequential",
                        "round(sqrt(n)) segments"))}]>,
    Option<"segments", "segments", "int64_t", "0",
           "Segment count of chen and sequential (0: sqrt(n) for "
           "sequential, searched for chen)">,
    Option<"recomputeOnce", "recompute-once", "bool", "false",
           "Recompute each value at most once, right before its first late "
           "reader (the smaller plan space of earlier versions, for "
           "comparison); by default a value may be recomputed once per "
           "group of late readers, and earlier, while its inputs are alive">,
    Option<"timeLimitMs", "time-limit-ms", "int64_t", "0",
           "Optional wall-clock limit of the plan refinement, in "
           "milliseconds (0: none; the planners stop at work limits, so "
           "results do not depend on the machine)">,
    Option<"ilpMaxTasks", "ilp-max-tasks", "int64_t", "0",
           "auto also solves Checkmate's ILP (CBC; 2000 nodes and 2 s per "
           "solve) on functions of at most this many tasks without "
           "in-place chains: any value recomputed at any point, as often "
           "as it pays (0: off)">,
    Option<"rotorMaxStages", "rotor-max-stages", "int64_t", "128",
           "auto also reads the function as a chain of at most this many "
           "stages (merging adjacent ones beyond it) and plans it with "
           "Rotor's dynamic program (at most 256; 0: off)">,
    Option<"localSearchWork", "local-search-work", "int64_t", "200000",
           "Work limit of the local search that ends greedy and auto, in "
           "task simulations (plans evaluated times tasks); more buys "
           "cheaper plans on DAGs of hundreds of ops (0: off)">,
    Option<"reorderAfter", "reorder-after", "bool", "true",
           "With algorithm=auto, also order each plan's ops as "
           "memsched-reorder objective=planned does, kept where the planned "
           "bytes measure fewer (cleanup included) at no more modelled time">,
    Option<"device", "device", "std::string", "\"\"",
           "Device preset or .json file; empty: the recorded one, else h100 (op times decide what is cheap to "
           "recompute)">,
  ];
}

def MemschedSwapPass : Pass<"memsched-swap", "mlir::func::FuncOp"> {
  let summary = "Meet a memory budget by swapping activations to host memory "
                "and back, overlapped with compute";
  let description = [{
    Tensor level. Builds the tensor graph of the function in its current op
    order and, if its peak exceeds `budget=`, plans swaps on the two-stream
    time model (compute stream plus one copy engine per direction, with the
    host link bandwidths of `device=`): which values to move to host memory
    across a gap in their uses, and how early to prefetch each one. For each
    swap it inserts `memsched.swap_out` right after the op defining the
    value and `memsched.swap_in` after the chosen prefetch op, and makes the
    reads after the gap read the swapped-in tensor. Where no copy out could
    end before a step that needs its memory, the plan may stall compute:
    a `memsched.swap_wait` before that step waits for the copy, and the
    buffer is free from there (the stall is part of the modelled time;
    `allow-stalls=false` forbids it).

    `budget=` is an absolute size or a fraction of the peak before the pass
    (`0.5x`). It bounds the peak the pass checks on the rewritten function,
    where a swapped-out buffer is held until its copy ends and a swapped-in
    one is taken from its issue point. A budget below resident memory or
    below the largest single op's working set, or one no plan meets, is an
    error (naming the smallest reachable budget) and the IR is left
    unchanged. `algorithm=`: `planned` (default: peak-directed, hides copies
    first), `size-idle` (bytes times idle time, the TFLMS/Capuchin-style
    greedy rule) or `everything` (vDNN: every candidate, prefetched one op
    ahead, budget ignored). The function gets a `memsched.swap` dictionary
    (`swap_bytes`, `swap_exposed_time_s`, `swap_hidden_fraction`, ...) that
    `memsched-report` includes.
  }];
  let options = [
    Option<"budget", "budget", "std::string", "\"\"",
           "Bound on the footprint (resident + arena + escaping bytes): a size "
           "(16GiB, 512MB, 1.5e9), a fraction of the planned bytes before "
           "memsched (0.5x), or min">,
    Option<"algorithm", "algorithm", "::mlir::memsched::scheduling::SwapAlgorithm",
           "::mlir::memsched::scheduling::SwapAlgorithm::Planned",
           "How to choose what to swap",
           [{::llvm::cl::values(
             clEnumValN(::mlir::memsched::scheduling::SwapAlgorithm::Planned, "planned",
                        "peak-directed, hidden copies first"),
             clEnumValN(::mlir::memsched::scheduling::SwapAlgorithm::SizeIdle, "size-idle",
                        "bytes x idle time greedy"),
             clEnumValN(::mlir::memsched::scheduling::SwapAlgorithm::Everything, "everything",
                        "vDNN's baseline, takes no budget"))}]>,
    Option<"minBytes", "min-bytes", "int64_t", "0",
           "Never swap buffers smaller than this many bytes">,
    Option<"allowStalls", "allow-stalls", "bool", "true",
           "Let `planned` make compute wait for a swap-out "
           "(memsched.swap_wait) where no copy could end in time otherwise">,
    Option<"timeLimitMs", "time-limit-ms", "int64_t", "0",
           "Optional wall-clock limit of the plan refinement, in "
           "milliseconds (0: none; the planners stop at work limits, so "
           "results do not depend on the machine)">,
    Option<"device", "device", "std::string", "\"\"",
           "Device preset or .json file; empty: the recorded one, else h100 (op times and host link bandwidths)">,
  ];
  let dependentDialects = ["::mlir::memsched::MemschedDialect"];
}

def MemschedFitPass : Pass<"memsched-fit", "mlir::func::FuncOp"> {
  let summary = "Meet a memory budget with recomputation and swapping chosen "
                "together by modelled time";
  let description = [{
    Tensor level; the core of `memsched-optimize`. If the function's peak
    exceeds `budget=`, it compares, on the modelled step time of the GUIDE's
    two-stream model: recomputation alone, swapping alone, and joint plans
    that recompute down to an intermediate budget and swap the rest (so a
    value is swapped where its copy hides behind compute and recomputed
    where it would not). The cheapest plan whose planned device memory
    (resident + arena + escaping buffers, the arena planned on swap-aware
    lifetimes) is within the budget is applied. An unreachable budget is an
    error naming the smallest reachable one; the IR is then unchanged.
    `allow-remat=false` or `allow-swap=false` restricts the choice. The
    function gets a `memsched.fit` dictionary with the time of every option
    tried, and `memsched.remat` / `memsched.swap` for the parts applied.
    With `offload=` (a subset of params, grads, optimizer, inputs), the
    function is also planned with that state in host memory (memsched-offload)
    and the better of the two outcomes is kept: met before not met, then
    the faster (for `min`, the smaller); `memsched.fit`'s `offload` says
    which. Where no way meets the budget, or for `min`, each way is also
    planned from the function fused by memsched-fuse (where the generators
    it fuses lower the floor), and from that function split by
    memsched-split (to its lowest floor), and the best kept;
    `memsched.fit`'s `fused` and `split` say which.
  }];
  let options = [
    Option<"budget", "budget", "std::string", "\"\"",
           "Bound on the footprint (resident + arena + escaping bytes): a size "
           "(16GiB, 512MB, 1.5e9), a fraction of the planned bytes before "
           "memsched (0.5x), or min">,
    ListOption<"offload", "offload", "std::string",
               "Resident state that may move to host memory: params, grads, "
               "optimizer, inputs (also planned without; the better is "
               "kept)">,
    Option<"reorder", "reorder", "std::string", "\"\"",
           "memsched-reorder's algorithm: the function is also planned "
           "reordered (and so is the offloaded copy), and the better kept "
           "(empty: planned in its order; an offloaded copy is reordered "
           "again only when the function was reordered)">,
    Option<"allowRemat", "allow-remat", "bool", "true",
           "Consider recomputation">,
    Option<"allowSwap", "allow-swap", "bool", "true",
           "Consider swapping to host memory">,
    Option<"allowSplit", "allow-split", "bool", "true",
           "Where the budget is not met (or is min), also plan the function "
           "with the ops setting its floor split (memsched-split)">,
    Option<"allowFuse", "allow-fuse", "bool", "true",
           "Where the budget is not met (or is min) and the generators "
           "memsched-fuse fuses lower the floor, also plan the function so "
           "fused (and split after that)">,
    Option<"timeLimitMs", "time-limit-ms", "int64_t", "0",
           "Optional wall-clock limit of each planner's refinement, in "
           "milliseconds (0: none; the planners stop at work limits)">,
    Option<"ilpMaxTasks", "ilp-max-tasks", "int64_t", "0",
           "Recomputation's auto also solves Checkmate's ILP on functions "
           "of at most this many tasks without in-place chains "
           "(memsched-remat's ilp-max-tasks; 0: off)">,
    Option<"reorderAfter", "reorder-after", "bool", "true",
           "As memsched-remat's: plans with recomputation alone are also "
           "ordered for the planned bytes where that measures fewer">,
    Option<"device", "device", "std::string", "\"\"",
           "Device preset or .json file; empty: the recorded one, else h100">,
  ];
  let dependentDialects = ["::mlir::memsched::MemschedDialect"];
}

def MemschedSplitPass : Pass<"memsched-split", "mlir::func::FuncOp"> {
  let summary = "Split the op whose working set bounds the footprint into "
                "pieces along a parallel loop (TSPLIT's lever)";
  let description = [{
    Tensor level; an identity rewrite. Recomputation and swapping cannot go
    below the floor (`memsched-report`'s `floor_bytes`): resident bytes,
    returned bytes and the largest working set of one op. When the floor is
    above `budget=`, the op setting it is split along one of its parallel
    loops into pieces that run one after another, each computing its range
    of that loop into its slice of the op's result (the tiled op of
    upstream's TilingInterface). Its producers that only it reads and that
    can be computed slice by slice (`linalg.fill`, elementwise and
    broadcasting linalg ops, `tensor.insert_slice` into a larger tensor
    where the insertion covers the split dimension, `tensor.empty`) are
    split with it, so their large results exist one piece at a time. Each
    element is computed by the same operations in the same order, so
    results are bit-identical.

    The loop split is the first parallel loop, in the order of the result's
    dimensions, along which every operand is either not read or read
    through that loop alone (disjoint slices: the batch of a convolution or
    a pooling backward). The number of pieces is the smallest power of two
    up to `max-pieces` whose split brings the floor within the budget, else
    the one that lowers it most; then the next op setting the floor is
    tried, until the floor is within the budget or no split lowers it. For
    `min`, splits continue while they lower the floor. The function gets a
    `memsched.split` dictionary (floors before and after, ops split,
    pieces, planned bytes before, which budget fractions refer to). Nothing
    changes when the floor is within the budget.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
  let options = [
    Option<"budget", "budget", "std::string", "\"\"",
           "Bound on the footprint, as memsched-fit's (a size, a fraction "
           "of the planned bytes before memsched such as 0.5x, or min)">,
    Option<"maxPieces", "max-pieces", "int64_t", "16",
           "Most pieces one op is split into (at least 2)">,
    Option<"device", "device", "std::string", "\"\"",
           "Device preset or .json file; empty: the recorded one, else h100 "
           "(for op workspaces)">,
  ];
}

def MemschedFusePass : Pass<"memsched-fuse", "mlir::func::FuncOp"> {
  let summary = "Fuse what lowers the floor: fills, broadcasts and one-hot "
                "masks into their readers, then elementwise chains";
  let description = [{
    Tensor level; an identity rewrite. The floor (`memsched-report`'s
    `floor_bytes`) counts each op's operands and results; recomputation and
    swapping cannot go below it. A generator is a linalg op that computes a
    large tensor element by element from small inputs: one statically
    shaped result, parallel loops only, an init its body does not read, and
    tensor inputs (values its body captures included) of at most
    1/`input-ratio` of the result's bytes: a `linalg.fill`, a
    `linalg.broadcast`, the one-hot mask of a cross-entropy's backward.
    Each use of a generator as an input of a `linalg.generic` of the same
    block that upstream's elementwise fusion can take gets a copy of the
    generator fused into it (a shared producer would stay, as an extra
    result); a generator left without readers is erased, and fused readers
    can be generators in turn (a fill scattered into, then scaled). Then,
    with `elementwise=true`, upstream's elementwise fusion of producers with
    one reader (its patterns, the control of `-linalg-fuse-elementwise-ops`)
    is applied where it raises the floor by at most 1/64 (a fused op reads
    its producer's small inputs too). Each element is computed
    by the same operations in the same order, so results are
    bit-identical. The function gets a `memsched.fuse` dictionary
    (`generators`: readers a generator was fused into; `elementwise`:
    whether the second step was kept; floors before and after; planned
    bytes before, which budget fractions refer to). Nothing changes when
    nothing fuses.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
  let options = [
    Option<"inputRatio", "input-ratio", "int64_t", "64",
           "A generator's tensor inputs are at most 1/input-ratio of its "
           "result's bytes (at least 1)">,
    Option<"elementwise", "elementwise", "bool", "true",
           "Then fuse elementwise producers into their only reader where "
           "that raises the floor by at most 1/64">,
    Option<"device", "device", "std::string", "\"\"",
           "Device preset or .json file for the floors recorded; empty: the "
           "recorded one, else h100">,
  ];
}

def MemschedPlanBuffersPass
    : Pass<"memsched-plan-buffers", "mlir::func::FuncOp"> {
  let summary = "Place every static allocation of a function in one arena";
  let description = [{
    Runs on memrefs, after bufferization. Collects the `memref.alloc` ops of
    the function's block that have a static shape, an identity layout and
    the requested memory space, computes each one's lifetime in the current
    op order (from the first to the last op using it or any value that may
    alias it: views, subviews, casts, reshapes; a view op itself, which
    touches no memory, does not count), plans aligned offsets with
    the offset planner (docs/planning.md), and replaces the allocations by
    one `memref.alloc` of bytes (marked `memsched.arena`) and a `memref.view`
    per buffer at its planned offset. Their `memref.dealloc` ops are removed
    (the arena is deallocated before the return if any of them was).

    A buffer a device function copies out as a result (into a
    `memsched.host_buffer` allocation, memsched-device-boundary) lives to
    the end, and the memory model counts it apart from the arena at its own
    size. Where packing such buffers among the others costs more (the
    alignment padding of small results), they are placed above the others'
    arena instead, each at its element's alignment, largest first: the
    arena is then at most the others' arena plus the results' bytes.

    Allocations with dynamic sizes, in nested regions, or that escape
    (returned, passed to a call, yielded from a region, passed into a
    non-linalg region op) stay as they are, each with a remark. A remark
    sums up the plan, and a `memsched.plan` dictionary on the function
    records `arena_bytes`, `max_live_bytes`, `fragmentation` (arena /
    max-live), the number of planned and unplanned buffers, the algorithm
    and whether the arena is proven minimal.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect"];
  let options = [
    Option<"algorithm", "algorithm", "std::string", "\"auto\"",
           "Offset planner: auto, greedy-by-size, best-fit-by-size, "
           "best-fit-by-lifetime, xla-best or exact">,
    Option<"alignment", "alignment", "int64_t", "256",
           "Alignment of every offset and of the arena, in bytes">,
    Option<"memorySpace", "memory-space", "std::string", "\"\"",
           "Memory space of the allocations to plan and of the arena, as "
           "an attribute (empty: the default memory space)">,
    Option<"timeLimitMs", "time-limit-ms", "int64_t", "0",
           "Optional wall-clock limit of the auto and exact planners, in "
           "milliseconds (0: none; they stop at work limits)">,
  ];
}

def MemschedCheckElementTypesPass
    : Pass<"memsched-check-element-types", "mlir::ModuleOp"> {
  let summary = "Refuse element types the lowering cannot store";
  let description = [{
    The first step of memsched-to-cpu-pipeline and memsched-to-gpu-pipeline.
    Every float element type of the module (in tensors, memrefs, vectors or
    scalars) must be one the LLVM lowering stores: f16, bf16, f32, f64, f80
    or f128. Any other (the f8, f6 and f4 families, tf32) is an error at the
    first op or argument that uses it, naming the type and the supported
    ones; the module is left unchanged. Without it, such types failed deep
    inside the arith-to-LLVM conversion, or the pipeline ended with IR that
    is not LLVM dialect.
  }];
}

def MemschedAnnotateCallsPass
    : Pass<"memsched-annotate-calls", "mlir::ModuleOp"> {
  let summary = "Give every call the memory its callee holds while it runs";
  let description = [{
    Sets `memsched.workspace` on every call to a function of the module
    with a body: the callee's peak of transient bytes in its current order
    (its own calls counted the same way, callees first) less the call's
    results, which the caller counts as its own buffers, plus the operands
    the caller copies because the callee may write into them (a constant,
    or a value the caller uses again). A function pass
    may not read another function (passes run on functions in parallel),
    so this module pass says it for them; memsched-optimize runs it first.
    A recursive callee, or one outside the memory model, counts every
    tensor its body makes at once; calls to declarations are left alone.
    Run it again after passes that change callees.
  }];
}

def MemschedOrderGlobalsPass
    : Pass<"memsched-order-globals", "mlir::ModuleOp"> {
  let summary = "Give the constants bufferization creates a fixed order and "
                "fixed names";
  let description = [{
    Runs right after one-shot bufferization in memsched-to-cpu-pipeline and
    memsched-to-gpu-pipeline. Bufferizing function boundaries visits
    functions that do not call each other in an order that changes from run
    to run (upstream MLIR 22), and creates the private constant
    `memref.global` of each tensor constant in that order, uniquing equal
    names by that order too. This pass sorts those globals by type and
    contents, renames them `__constant_<shape>` (with `_0`, `_1`, ... for
    several of one shape, in that order), gives each the location of its
    first use in program order (it had that of whichever constant was met
    first) and moves them to the top of the module, so that the same input
    always lowers to the same module, locations included. Other globals are
    left as they are.
  }];
}

def MemschedExplicitCopiesPass
    : Pass<"memsched-explicit-copies", "mlir::func::FuncOp"> {
  let summary = "Make the copies the memory model predicts explicit, so that "
                "one-shot bufferization makes them where the model does";
  let description = [{
    Tensor level, right before one-shot bufferization in
    memsched-to-cpu-pipeline and memsched-to-gpu-pipeline. Where the memory
    model (docs/memory-model.md, Buffers) gives the result of a
    destination-style op or of an `scf.for` a new buffer rather than its
    init's, the init is replaced by a `bufferization.alloc_tensor` right
    before the op, copying the init where the op reads it (an
    `tensor.empty` init, or one a linalg payload does not read, is not
    copied). One-shot bufferization then has no conflict left to resolve
    there and allocates what the model counted, where it counted it: left to
    itself it decides bottom-up and may instead copy a view of the buffer
    where the view is defined, which the model does not predict.

    Functions the model skips (dynamic shapes) or cannot build, external
    ones and those marked `memsched.host` are left unchanged; so are bodies
    of control flow. Results are unchanged, bit for bit.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

def MemschedInplacePass : Pass<"memsched-inplace", "mlir::func::FuncOp"> {
  let summary = "Let elementwise ops write their result into a dead input";
  let description = [{
    Tensor level, before bufferization. For every elementwise linalg op (all
    loops parallel) whose payload does not read its init, the pass looks for
    an input with the result's type and an identity indexing map (as the
    init's) whose buffer no later op reads, and makes that input the init.
    One-shot bufferization then writes the result into the input's buffer
    instead of allocating a new one; results are unchanged because the
    payload never reads the init.

    Never used as the destination: a result of a call (the results of a
    call may alias each other or its arguments), an input read later (by any
    alias), a
    constant, a value returned by the function, a buffer that another
    in-place decision already keeps live, and a function argument unless
    `donate-arguments` is set (the caller then gives up the argument's
    contents). Where only later readers of an input keep it from being the
    destination, those readers (and what they need that comes after the op)
    move ahead of the op first, if they have no side effects, do not depend
    on the op, and make fewer bytes than the write saves (their workspace
    included), so that no step of the order holds more. A remark reports
    how many ops were rewritten and the peak before and after (memory model
    of the guide, which counts the saving).
  }];
  let options = [
    Option<"donateArguments", "donate-arguments", "bool", "false",
           "Allow writing into function arguments whose contents the "
           "function no longer needs">,
    Option<"moveReaders", "move-readers", "bool", "true",
           "Run later readers of an input first where that lets an op "
           "write into it at no cost">,
    Option<"device", "device", "std::string", "\"\"",
           "Device preset or .json file; empty: the recorded one, else h100 (for op workspaces and costs)">,
  ];
}

def MemschedConcatInPlacePass
    : Pass<"memsched-concat-in-place", "mlir::func::FuncOp"> {
  let summary = "Compute the pieces of concatenations and pads in their "
                "slices of the result";
  let description = [{
    Tensor level, before bufferization; an identity rewrite of the graph
    (Serenity's). A concatenation (`tensor.concat`, decomposed with
    upstream's decomposition, or a chain of `tensor.insert_slice` into a
    `tensor.empty`, as memsched.torch lowers `cat` and `stack`) copies each
    piece into its buffer, and a `tensor.pad` copies its source into a
    larger one, so piece and result coexist. Where a piece is computed by
    destination-style ops (and reshapes) into a `tensor.empty` of its own
    and read by nothing else, the pass makes those ops write into a
    `tensor.extract_slice` of the result instead (a pad becomes a
    `linalg.fill` of the padded tensor and its source is computed in the
    interior): one-shot bufferization computes the piece in place and the
    insertion copies nothing. A concatenation that a pad reads can itself be
    computed in the pad's interior.

    The insertions write disjoint slices, so their order does not change
    the result: the rewritten pieces are inserted in the order they are
    computed, each right after its producer (a piece's ops move after the
    previous insertion where needed), and the other pieces after them at
    the concatenation. Chains with dynamic or overlapping slices are left
    alone.

    The result's buffer is live from the first piece on, which can cost
    more than it saves. Each concatenation is tried with each number of its
    first pieces left as copies, alone and with the pad that reads it; each
    pad alone; in the current order. The best is kept if it lowers the
    planned bytes (then the peak), and the rewrites only if together they
    beat the function as it came. Run it after `memsched-inplace` and
    `memsched-reorder`, and reorder again.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
  let options = [
    Option<"device", "device", "std::string", "\"\"",
           "Device preset or .json file; empty: the recorded one, else h100 (for op workspaces and costs)">,
  ];
}

def MemschedOffloadPass : Pass<"memsched-offload", "mlir::func::FuncOp"> {
  let summary = "Keep parameters, gradients, optimizer state and inputs in "
                "host memory";
  let description = [{
    Tensor level, before the budget planning of `memsched-optimize` (which
    runs it first when given `offload=`). The leading arguments of a
    training step whose types are those of its results after the first are
    what the step updates (memsched.torch's convention: `(params...,
    inputs...) -> (loss, grads...)`, with an optimizer step `(params...,
    state..., inputs...) -> (loss, params'..., state'...)`); the
    function's `memsched.training_step = {parameters = N, optimizer_state =
    M}` says which are parameters and which optimizer state (without it,
    all are parameters).

    * `params` (and `optimizer` for the state): each such argument is
      marked `memsched.host_memory` (the caller passes it in host memory)
      and read through `memsched.host_argument`; its readers are split into
      groups at gaps of modelled compute longer than twice its copy time,
      and each group reads its own `memsched.swap_in`, issued as much
      modelled compute before the group's first reader as the copy takes
      (not before the previous group's last reader), so that the copy
      overlaps compute.
    * `grads` (and `optimizer` for the updated state): each such result is
      copied out by a `memsched.swap_out` right after the op that makes it
      and returned by `memsched.host_result`, at a result marked
      `memsched.host_memory`; its device buffer is freed when the copy
      ends.
    * `inputs`: each argument after those the step updates (the batch,
      labels; every argument of a function with none) that is a statically
      shaped tensor without an encoding moves the way a parameter does;
      other arguments (scalars, dynamic shapes) and inputs the function
      returns or writes in place stay.
    * With optimizer state, the optimizer's update of each parameter first
      moves to right after its gradient (the last op before the optimizer
      it reads), so that its state's copies overlap the rest of the
      backward pass instead of following it.

    A private function (called within the module with device values)
    keeps its calling convention and is left as it is. Refused, with the IR
    unchanged: unknown names, a function whose parameters cannot be told
    apart (unless only `inputs` move), a parameter the function writes in
    place (the destination of an op) or returns, a gradient that is an
    argument, `optimizer` without optimizer state, a
    `memsched.training_step` that does not match the signature. One remark
    per function gives the device bytes moved to host.
  }];
  let dependentDialects = ["::mlir::memsched::MemschedDialect"];
  let options = [
    ListOption<"offload", "offload", "std::string",
               "What to keep in host memory: params, grads, optimizer, "
               "inputs">,
    Option<"device", "device", "std::string", "\"\"",
           "Device preset or .json file; empty: the recorded one, else h100 (for copy and compute times)">,
  ];
}

#endif // MEMSCHED_TRANSFORMS_PASSES_TD
