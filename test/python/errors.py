# RUN: %PYTHON %s | FileCheck %s
# Tests that MLIR diagnostics surface as memsched.MLIRError with the message.

import memsched

def expect_error(function, *args, **kwargs):
    try:
        function(*args, **kwargs)
    except memsched.MLIRError as error:
        print("MLIRError:", str(error).strip().replace("\n", " | "))
        return
    print("no error")

# CHECK: MLIRError: {{.*}}error: custom op 'func.funk' is unknown
expect_error(memsched.analyze, "func.funk @f() { return }")
# The device is resolved per function: the error is at the function.
# CHECK: MLIRError: loc("<input>":1:1): error: memsched: unknown device 'tpu'; expected one of h100, h200, a100-80gb, cpu
expect_error(memsched.analyze, "func.func @f() { return }", device="tpu")
# CHECK: MLIRError: error: invalid pipeline 'no-such-pass'
expect_error(memsched.run_pipeline, "func.func @f() { return }",
             "no-such-pass")
# Multiple blocks are outside the memory model: an error, not a crash.
# CHECK: MLIRError: {{.*}}error: memsched cannot analyze '@two'{{.*}}2 blocks
expect_error(memsched.analyze, """
func.func @two(%c: i1) {
  cf.cond_br %c, ^a, ^a
^a:
  return
}""")
# CHECK: RuntimeError subclass True
print("RuntimeError subclass", issubclass(memsched.MLIRError, RuntimeError))
