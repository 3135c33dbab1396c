# RUN: %PYTHON %s | FileCheck %s
# Tests memsched.outputs.compare: element types are read from shaped and
# scalar result types, a one-ulp difference is within tolerance, a NaN on
# one side only is not, and the first differences are listed.

import struct

from memsched.outputs import compare, parse_output


def bits(value):
    return struct.unpack("<I", struct.pack("<f", value))[0]


def output(results):
    lines = []
    for type_, values in results:
        lines.append("memsched-result 0 " + type_)
        lines += [str(bits(v)) for v in values]
    return "\n".join(lines)


reference = parse_output(output([("tensor<f32>", [1.0]),
                                 ("tensor<2x3xf32>", [1.0] * 6)]))
one_ulp = struct.unpack("<f", struct.pack("<I", bits(1.0) + 1))[0]
close = parse_output(output([("tensor<f32>", [1.0]),
                             ("tensor<2x3xf32>", [1.0] * 5 + [one_ulp])]))
check = compare(reference, close, 1e-5, 1e-6)
# CHECK: ulp: identical False within True differing 1 nan 0 first (1, 5)
print("ulp: identical %s within %s differing %d nan %d first (%d, %d)" % (
    check["identical"], check["within_tolerance"], check["differing"],
    check["nan_mismatches"], check["first_differences"][0]["result"],
    check["first_differences"][0]["element"]))

nan = parse_output(output([("tensor<f32>", [1.0]),
                           ("tensor<2x3xf32>", [float("nan")] * 6)]))
check = compare(reference, nan, 1e-5, 1e-6)
# CHECK: nan: within False differing 6 nan 6
print("nan: within %s differing %d nan %d" % (
    check["within_tolerance"], check["differing"], check["nan_mismatches"]))
