"""Run functions on CPU and compare two programs bit for bit.

Uses ``memsched-exec-harness`` + ``memsched-to-cpu-pipeline`` through the
native module, then ``mlir-runner`` (from LLVM 22) to execute.
``run_with_inputs`` instead compiles the module to a shared object
(``mlir-translate``, ``llc``, the C compiler) and calls it on numpy arrays.
"""

import ctypes
import os
import re
import shlex
import shutil
import subprocess
import tempfile

from . import run_pipeline

_LLVM_DIR_CANDIDATES = [os.environ.get("MEMSCHED_LLVM_TOOLS_DIR", ""),
                        "/usr/lib/llvm-22/bin"]


def _llvm_tool(name):
    for directory in _LLVM_DIR_CANDIDATES:
        if directory and os.path.exists(os.path.join(directory, name)):
            return os.path.join(directory, name)
    found = shutil.which(name)
    if not found:
        raise FileNotFoundError("cannot find %s (install mlir-22-tools)" % name)
    return found


def run_on_cpu(text, func="train_step", seed=0):
    """Runs ``func`` of module ``text`` on deterministic inputs.

    Returns a list of results, each a list of the integers that are the bit
    patterns of its elements (floats bitcast to integers), in order.
    """
    lowered = run_pipeline(
        text, "memsched-exec-harness{func=%s seed=%d},memsched-to-cpu-pipeline"
        % (func, seed))
    runner = _llvm_tool("mlir-runner")
    lib_dir = os.path.join(os.path.dirname(os.path.dirname(runner)), "lib")
    libs = ",".join(os.path.join(lib_dir, name) for name in
                    ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"])
    completed = subprocess.run(
        [runner, "-e", "memsched_main", "-entry-point-result=void",
         "-shared-libs=" + libs], input=lowered, capture_output=True,
        text=True, check=False)
    if completed.returncode != 0:
        raise RuntimeError("mlir-runner failed:\n" + completed.stderr)
    results = []
    for line in completed.stdout.splitlines():
        if line.startswith("memsched-result"):
            results.append([])
        elif line.strip():
            results[-1].append(int(line))
    return results


def compare_on_cpu(original, transformed, func="train_step", seed=0):
    """Returns None when both programs give bit-identical results, else a
    message naming the first result and element that differ."""
    first = run_on_cpu(original, func, seed)
    second = run_on_cpu(transformed, func, seed)
    if len(first) != len(second):
        return "different number of results: %d vs %d" % (len(first),
                                                         len(second))
    for index, (a, b) in enumerate(zip(first, second)):
        if len(a) != len(b):
            return "result %d: %d vs %d elements" % (index, len(a), len(b))
        for element, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return "result %d element %d: bits %d vs %d" % (index,
                                                                 element, x, y)
    return None


# Element types run_with_inputs supports: MLIR name -> numpy dtype name. An
# i1 memref holds one byte (0 or 1) per element after lowering, like numpy's
# bool_.
_NUMPY_DTYPES = {"f32": "float32", "f64": "float64", "i64": "int64",
                 "i32": "int32", "i1": "bool"}

# The allocated pointer memref.get_global lowers to: a result that is a
# constant global must not be freed.
_GLOBAL_ALLOCATED_POINTER = 0xdeadbeef

_OPEN = "(<[{"
_CLOSE = ")>]}"


def _scan(text, start, stop):
    """Scans ``text`` from ``start`` at bracket depth 0 and returns the index
    of the first character for which ``stop(char, depth)`` holds (depth is
    the depth before that character), or len(text). Skips quoted strings;
    the ``>`` of ``->`` is no bracket."""
    depth, index, quoted = 0, start, False
    while index < len(text):
        char = text[index]
        if quoted:
            if char == "\\":
                index += 1
            elif char == '"':
                quoted = False
        elif stop(char, depth):
            return index
        elif char == '"':
            quoted = True
        elif text.startswith("->", index):
            index += 1
        elif char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
        index += 1
    return index


def _closing(text, start):
    """Index of the bracket that closes the one at ``text[start]``."""
    end = _scan(text, start + 1,
                lambda char, depth: depth == 0 and char in _CLOSE)
    if end >= len(text):
        raise ValueError("unbalanced brackets in %r" % text[start:start + 80])
    return end


def _split_top_level(text):
    """Splits ``text`` at the commas outside brackets and quotes."""
    pieces, start = [], 0
    while True:
        end = _scan(text, start, lambda char, depth: depth == 0 and
                    char == ",")
        pieces.append(text[start:end].strip())
        if end >= len(text):
            break
        start = end + 1
    return [piece for piece in pieces if piece]


def _take_type(text, start=0):
    """The type that starts at ``text[start]`` (after blanks): everything up
    to the next blank, comma or closing bracket outside brackets."""
    while start < len(text) and text[start].isspace():
        start += 1
    end = _scan(text, start, lambda char, depth: depth == 0 and
                (char.isspace() or char == "," or char in _CLOSE))
    return text[start:end]


def _symbol_pattern(name):
    if re.fullmatch(r"[A-Za-z_][\w$.]*", name):
        return "@" + re.escape(name)
    return '@"%s"' % re.escape(name)


def _function_types(text, op, name):
    """(visibility, argument types, result types) of the first ``op @name``
    (``func.func`` or ``llvm.func``) in printed module ``text``, or None."""
    match = re.search(r"^\s*%s\s+((?:\w+\s+)*)%s\(" %
                      (re.escape(op), _symbol_pattern(name)), text, re.M)
    if not match:
        return None
    close = _closing(text, match.end() - 1)
    arguments = []
    for piece in _split_top_level(text[match.end():close]):
        colon = re.match(r"%[^:\s]*\s*:", piece)
        if not colon:
            raise NotImplementedError("cannot read the argument %r of @%s" %
                                      (piece, name))
        arguments.append(_take_type(piece, colon.end()))
    rest = text[close + 1:].lstrip()
    results = []
    if rest.startswith("->"):
        rest = rest[2:].lstrip()
        if rest.startswith("("):
            results = [_take_type(piece) for piece in
                       _split_top_level(rest[1:_closing(rest, 0)])]
        else:
            results = [_take_type(rest)]
    return match.group(1).split(), arguments, results


def _tensor_type(text, what):
    """(shape, MLIR element type) of a ranked static tensor type."""
    match = re.fullmatch(r"tensor<((?:\d+x)*)(\w+)>", text)
    if not match or match.group(2) not in _NUMPY_DTYPES:
        raise NotImplementedError(
            "%s has type %s; run_with_inputs supports ranked static-shape "
            "tensors of %s" % (what, text, ", ".join(_NUMPY_DTYPES)))
    shape = tuple(int(size) for size in match.group(1).split("x")[:-1])
    return shape, match.group(2)


def _descriptor_llvm_type(rank):
    """The LLVM dialect struct of a memref descriptor of rank ``rank``."""
    if rank == 0:
        return "struct<(ptr, ptr, i64)>"
    return ("struct<(ptr, ptr, i64, array<%d x i64>, array<%d x i64>)>" %
            (rank, rank))


_DESCRIPTORS = {}


def _descriptor_ctype(rank):
    """ctypes mirror of the memref descriptor {allocated, aligned, offset,
    sizes[rank], strides[rank]} (rank 0: the first three fields)."""
    if rank not in _DESCRIPTORS:
        fields = [("allocated", ctypes.c_void_p),
                  ("aligned", ctypes.c_void_p),
                  ("offset", ctypes.c_int64)]
        if rank:
            fields += [("sizes", ctypes.c_int64 * rank),
                       ("strides", ctypes.c_int64 * rank)]
        _DESCRIPTORS[rank] = type("MemRefDescriptor%d" % rank,
                                  (ctypes.Structure,), {"_fields_": fields})
    return _DESCRIPTORS[rank]


def _row_major_strides(shape):
    strides, stride = [], 1
    for size in reversed(shape):
        strides.append(stride)
        stride *= size
    return tuple(reversed(strides))


def _run_tool(command, what, **kwargs):
    completed = subprocess.run(command, capture_output=True, text=True,
                               check=False, **kwargs)
    if completed.returncode != 0:
        raise RuntimeError("%s failed (exit status %d):\n%s" %
                           (what, completed.returncode, completed.stderr))


def _check_lowered(lowered, func, arguments, results):
    """Checks that the lowered @func and its C wrapper have the signature
    run_with_inputs calls: one descriptor per memref argument, the results
    returned as one descriptor or a struct of descriptors, and a wrapper
    taking a pointer per argument, after a result pointer if there are
    results."""
    lowered_types = _function_types(lowered, "llvm.func", func)
    wrapper = _function_types(lowered, "llvm.func", "_mlir_ciface_" + func)
    if lowered_types is None or wrapper is None:
        raise RuntimeError("the lowered module has no @%s and "
                           "@_mlir_ciface_%s" % (func, func))
    expected_fields = sum(3 + 2 * len(shape) for shape, _ in arguments)
    descriptors = ["!llvm." + _descriptor_llvm_type(len(shape))
                   for shape, _ in results]
    if len(results) == 1:
        expected_results = descriptors
    elif results:
        expected_results = ["!llvm.struct<(%s)>" % ", ".join(
            descriptor[len("!llvm."):] for descriptor in descriptors)]
    else:
        expected_results = []
    expected_wrapper = len(arguments) + (1 if results else 0)
    if (len(lowered_types[1]) != expected_fields or
            lowered_types[2] != expected_results or
            wrapper[1] != ["!llvm.ptr"] * expected_wrapper or wrapper[2]):
        raise RuntimeError(
            "unexpected lowered signature of @%s: %s -> %s, wrapper %s" %
            (func, lowered_types[1], lowered_types[2], wrapper[1]))


def run_with_inputs(text, inputs, func="train_step", pipeline_options=""):
    """Compiles module ``text`` for the CPU and runs ``func`` on ``inputs``.

    ``func`` must be a public ``func.func`` whose arguments and results are
    ranked static-shape tensors of f32, f64, i64, i32 or i1 (rank 0
    included). ``inputs`` is a sequence of numpy arrays, one per argument,
    with the argument's shape and dtype (float32, float64, int64, int32,
    bool); they are copied, so the function never writes into them.
    ``pipeline_options`` are options of ``memsched-to-cpu-pipeline``, e.g.
    ``"plan-buffers=false"``.

    Returns the results as a list of new numpy arrays, in order. Raises
    ``MLIRError`` when parsing or lowering fails, ``ValueError`` for inputs
    of the wrong number, shape or dtype (or an unknown ``func``),
    ``NotImplementedError`` for argument or result types it cannot pass,
    and ``RuntimeError`` with the tool's stderr when mlir-translate, llc or
    the C compiler fails. A crash of the compiled code ends the process.
    """
    import numpy as np  # only run_with_inputs needs numpy

    # Printing the parsed module gives a canonical signature to read.
    printed = run_pipeline(text, "")
    signature = _function_types(printed, "func.func", func)
    if signature is None:
        raise ValueError("the module has no func.func @%s" % func)
    visibility, argument_types, result_types = signature
    if "private" in visibility:
        raise ValueError("@%s is private; only public functions can be "
                         "called" % func)
    arguments = [_tensor_type(type_, "argument %d of @%s" % (index, func))
                 for index, type_ in enumerate(argument_types)]
    results = [_tensor_type(type_, "result %d of @%s" % (index, func))
               for index, type_ in enumerate(result_types)]

    inputs = list(inputs)
    if len(inputs) != len(arguments):
        raise ValueError("@%s takes %d arguments, got %d inputs" %
                         (func, len(arguments), len(inputs)))
    arrays = []
    for index, (value, (shape, element)) in enumerate(zip(inputs, arguments)):
        value = np.asarray(value)
        expected = np.dtype(_NUMPY_DTYPES[element])
        if value.shape != shape or value.dtype != expected:
            raise ValueError(
                "argument %d of @%s: expected %s (numpy %s, shape %s), got "
                "%s, shape %s" %
                (index, func, argument_types[index], expected, shape,
                 value.dtype, value.shape))
        # A private C-ordered copy: bufferization may write into arguments.
        arrays.append(np.array(value, dtype=expected, order="C", copy=True))

    options = pipeline_options.strip()
    if options.startswith("{") and options.endswith("}"):
        options = options[1:-1]
    pipeline = "func.func(llvm-request-c-wrappers),memsched-to-cpu-pipeline"
    if options:
        pipeline += "{%s}" % options
    lowered = run_pipeline(text, pipeline)
    _check_lowered(lowered, func, arguments, results)

    translate = _llvm_tool("mlir-translate")
    llc = _llvm_tool("llc")
    runner_lib = os.path.join(
        os.path.dirname(os.path.dirname(_llvm_tool("mlir-runner"))), "lib")
    compiler = shlex.split(os.environ.get("CC", "cc"))
    with tempfile.TemporaryDirectory(prefix="memsched-run-") as directory:
        mlir_path = os.path.join(directory, "module.mlir")
        llvm_path = os.path.join(directory, "module.ll")
        object_path = os.path.join(directory, "module.o")
        library_path = os.path.join(directory, "module.so")
        with open(mlir_path, "w") as handle:
            handle.write(lowered)
        what = "mlir-translate"
        if "bufferization.clone" in lowered:
            # The deallocation pipeline clones results the function does not
            # own (an argument, a constant); nothing lowers the clone.
            what += (" (the lowered module still has bufferization.clone; "
                     "pipeline_options=\"deallocate=false\" avoids it)")
        _run_tool([translate, "--mlir-to-llvmir", mlir_path, "-o", llvm_path],
                  what)
        _run_tool([llc, "-O2", "-relocation-model=pic", "-filetype=obj",
                   llvm_path, "-o", object_path], "llc")
        link = compiler + ["-shared", "-o", library_path, object_path]
        # memref.copy of non-contiguous memrefs calls memrefCopy.
        if os.path.exists(os.path.join(runner_lib,
                                       "libmlir_c_runner_utils.so")):
            link += ["-L" + runner_lib, "-Wl,-rpath," + runner_lib,
                     "-lmlir_c_runner_utils"]
        _run_tool(link + ["-lm"], "the C compiler (%s)" % " ".join(compiler))
        library = ctypes.CDLL(library_path)
    try:
        entry = library["_mlir_ciface_" + func]
        entry.restype = None
        descriptors = []
        for array, (shape, _) in zip(arrays, arguments):
            descriptor = _descriptor_ctype(len(shape))()
            descriptor.allocated = descriptor.aligned = array.ctypes.data
            descriptor.offset = 0
            if shape:
                descriptor.sizes[:] = shape
                descriptor.strides[:] = _row_major_strides(shape)
            descriptors.append(descriptor)
        pointers = [ctypes.addressof(d) for d in descriptors]
        result_descriptors = []
        if len(results) == 1:
            returned = _descriptor_ctype(len(results[0][0]))()
            result_descriptors = [returned]
        elif results:
            returned = type("MemRefResults", (ctypes.Structure,), {
                "_fields_": [("r%d" % index, _descriptor_ctype(len(shape)))
                             for index, (shape, _) in enumerate(results)]})()
            result_descriptors = [getattr(returned, "r%d" % index)
                                  for index in range(len(results))]
        if results:
            pointers.insert(0, ctypes.addressof(returned))
        entry.argtypes = [ctypes.c_void_p] * len(pointers)
        entry(*pointers)

        outputs = [_copy_result(np, descriptor, shape,
                                np.dtype(_NUMPY_DTYPES[element]), index, func)
                   for index, (descriptor, (shape, element)) in
                   enumerate(zip(result_descriptors, results))]
        # Free each result buffer once, unless it is an input's buffer or a
        # constant global.
        libc_free = ctypes.CDLL(None).free
        libc_free.argtypes = [ctypes.c_void_p]
        libc_free.restype = None
        keep = {array.ctypes.data for array in arrays}
        keep.add(_GLOBAL_ALLOCATED_POINTER)
        for descriptor in result_descriptors:
            allocated = descriptor.allocated
            if allocated and allocated not in keep:
                libc_free(allocated)
                keep.add(allocated)
    finally:
        _unload(library)
    return outputs


def _copy_result(np, descriptor, shape, dtype, index, func):
    """A new numpy array with the elements the descriptor points to."""
    rank = len(shape)
    sizes = tuple(descriptor.sizes) if rank else ()
    strides = tuple(descriptor.strides) if rank else ()
    if sizes != shape:
        raise RuntimeError("result %d of @%s has sizes %s instead of %s" %
                           (index, func, sizes, shape))
    if any(size == 0 for size in sizes):
        return np.zeros(sizes, dtype)
    if not descriptor.aligned:
        raise RuntimeError("result %d of @%s is a null memref" % (index, func))
    first = descriptor.offset + sum(min(0, (size - 1) * stride)
                                    for size, stride in zip(sizes, strides))
    last = descriptor.offset + sum(max(0, (size - 1) * stride)
                                   for size, stride in zip(sizes, strides))
    span_type = ctypes.c_char * ((last - first + 1) * dtype.itemsize)
    span = span_type.from_address(descriptor.aligned + first * dtype.itemsize)
    flat = np.frombuffer(span, dtype=dtype)
    view = np.lib.stride_tricks.as_strided(
        flat[descriptor.offset - first:], shape=sizes,
        strides=[stride * dtype.itemsize for stride in strides])
    return np.array(view, copy=True)


def _unload(library):
    """dlcloses a library loaded for one run, so repeated runs do not pile
    up loaded copies."""
    try:
        import _ctypes
        _ctypes.dlclose(library._handle)
    except (ImportError, AttributeError, OSError):
        pass
