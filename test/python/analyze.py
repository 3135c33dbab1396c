# RUN: %PYTHON %s | FileCheck %s
# Tests that memsched.analyze returns the report contract and a timeline.

import memsched

TEXT = """
func.func @chain(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e0 = tensor.empty() : tensor<16xf32>
  %a = linalg.exp ins(%x : tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %b = linalg.exp ins(%a : tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  return %b : tensor<16xf32>
}
"""

report = memsched.analyze(TEXT, device="a100-80gb")
function = report["functions"][0]
# Resident: %x, 64 bytes. Two tasks, the exps (the empties are free ops);
# step 1 holds %a and %b (128 bytes), the peak.
# CHECK: name chain
# CHECK: ops 2
# CHECK: resident_bytes 64
# CHECK: peak_transient_bytes 128
# CHECK: peak_bytes 192
# CHECK: device a100-80gb
for key in ["name", "ops", "resident_bytes", "peak_transient_bytes",
            "peak_bytes", "lower_bound_bytes", "max_live_bytes",
            "modeled_time_s", "device"]:
    print(key, function[key])
# CHECK: timeline ['linalg.exp', 'linalg.exp']
print("timeline", function["timeline"]["ops"])
# CHECK: live [64, 128]
print("live", function["timeline"]["live_bytes"])
# CHECK: time increases True
times = function["timeline"]["end_s"]
print("time increases", all(a <= b for a, b in zip(times, times[1:])))
# The peak is at the second exp (line 6 of TEXT), where %a (line 4) and %b
# (returned) are live; the text lists them as the C++ report does.
# CHECK: memsched report for @chain
# CHECK: peak at {{ *}}<input>:6:8 ('linalg.exp'), largest live buffers:
# CHECK-NEXT: {{^ +}}64 B  <input>:4:8 (linalg.exp){{$}}
# CHECK-NEXT: {{^ +}}64 B  <input>:6:8 (linalg.exp, returned){{$}}
# CHECK: peak {{.*}}(192 bytes)
print(memsched.report(report))
