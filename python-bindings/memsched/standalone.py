"""Standalone executables of lowered programs.

``build_executable`` turns the LLVM-dialect text of a harnessed program
(``memsched-exec-harness`` then ``memsched-to-gpu-pipeline`` or
``memsched-to-cpu-pipeline``) into a program that needs neither MLIR nor
LLVM where it runs: only the GPU runtime library placed beside it, and the
CUDA driver. A machine with a GPU but no MLIR runs what a machine with
MLIR but no GPU built (``bench/gpu/measure.py --prepare/--run``).
"""

import os
import shutil
import subprocess
import tempfile

from memsched.execute import _llvm_tool

# What mlir-runner and its utility libraries give a harnessed program: the
# entry point, the three printers the harness calls, and the strided copy
# that memref.copy lowers to (MLIR's C runner utilities' ABI: an unranked
# descriptor points at {allocated, aligned, offset, sizes[rank],
# strides[rank]}).
_MAIN = r"""
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void memsched_main(void);

typedef struct {
  int64_t rank;
  void *descriptor;
} UnrankedMemRef;

static char *base(const UnrankedMemRef *m, int64_t element_size) {
  int64_t *fields = (int64_t *)m->descriptor;
  return (char *)(intptr_t)fields[1] + fields[2] * element_size;
}

void memrefCopy(int64_t element_size, UnrankedMemRef *src,
                UnrankedMemRef *dst) {
  int64_t rank = src->rank;
  int64_t *src_fields = (int64_t *)src->descriptor;
  int64_t *dst_fields = (int64_t *)dst->descriptor;
  int64_t *sizes = src_fields + 3, *src_strides = src_fields + 3 + rank;
  int64_t *dst_strides = dst_fields + 3 + rank;
  int64_t total = 1, index[64] = {0};
  for (int64_t d = 0; d < rank; ++d)
    total *= sizes[d];
  if (rank > 64)
    abort();
  if (total == 0)
    return;
  char *from = base(src, element_size), *to = base(dst, element_size);
  for (int64_t n = 0; n < total; ++n) {
    int64_t src_offset = 0, dst_offset = 0;
    for (int64_t d = 0; d < rank; ++d) {
      src_offset += index[d] * src_strides[d];
      dst_offset += index[d] * dst_strides[d];
    }
    memcpy(to + dst_offset * element_size, from + src_offset * element_size,
           element_size);
    for (int64_t d = rank - 1; d >= 0 && ++index[d] == sizes[d]; --d)
      index[d] = 0;
  }
}

void printI64(int64_t value) { printf("%" PRId64, value); }
void printNewline(void) { putchar('\n'); }
void printString(const char *text) { fputs(text, stdout); }

int main(void) {
  memsched_main();
  fflush(stdout);
  return 0;
}
"""


class BuildError(Exception):
    """A tool failed while building an executable."""


def _tool(command, what):
    completed = subprocess.run(command, capture_output=True, text=True,
                               check=False)
    if completed.returncode != 0:
        raise BuildError("%s failed (exit %d):\n%s" % (
            what, completed.returncode, completed.stderr[-4000:]))


def build_executable(lowered, path, runtime_library=None, compiler="cc"):
    """Builds ``path`` from the lowered program ``lowered``. With
    ``runtime_library`` (a GPU runtime, e.g. memsched's CUDA runtime), the
    library is copied beside ``path`` and found there at run time."""
    output_dir = os.path.dirname(os.path.abspath(path))
    with tempfile.TemporaryDirectory() as work:
        module = os.path.join(work, "program.mlir")
        with open(module, "w") as handle:
            handle.write(lowered)
        llvm_ir = os.path.join(work, "program.ll")
        _tool([_llvm_tool("mlir-translate"), "--mlir-to-llvmir", module,
               "-o", llvm_ir], "mlir-translate")
        obj = os.path.join(work, "program.o")
        # The medium code model: a swap's host arena may pass 2 GiB, out of
        # reach of the small model's 32-bit offsets.
        _tool([_llvm_tool("llc"), "-O2", "-filetype=obj",
               "-relocation-model=pic", "-code-model=medium", llvm_ir, "-o",
               obj], "llc")
        main = os.path.join(work, "main.c")
        with open(main, "w") as handle:
            handle.write(_MAIN)
        command = [compiler, "-O2", main, obj, "-o", path, "-lm"]
        if runtime_library:
            name = os.path.basename(runtime_library)
            target = os.path.join(output_dir, name)
            if os.path.abspath(runtime_library) != target:
                shutil.copyfile(runtime_library, target)
            # The CUDA driver the runtime needs is on the running machine,
            # not necessarily on this one.
            command += ["-L" + output_dir, "-l:" + name,
                        "-Wl,-rpath,$ORIGIN", "-Wl,--allow-shlib-undefined"]
        _tool(command, "linking")
    return path
