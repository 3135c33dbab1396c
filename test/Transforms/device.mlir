// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-reorder=device=cpu -memsched-report=format=json -o /dev/null | FileCheck %s --check-prefix=GIVEN
// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-reorder -memsched-report=format=json -o /dev/null | FileCheck %s --check-prefix=DEFAULT
// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-reorder=device=cpu -memsched-report="format=json device=h200" -o /dev/null | FileCheck %s --check-prefix=OVERRIDE
// RUN: memsched-opt %s -split-input-file -verify-diagnostics -memsched-reorder=device=cpu | FileCheck %s --check-prefix=IR

// Tests that the device is given once: a pass given device= records it on
// the function (memsched.target_device), later passes and the report use
// it; without one, the module's recorded device, else h100; a report given
// a device uses that one.

// GIVEN: "device": "cpu"
// DEFAULT: "device": "h100"
// OVERRIDE: "device": "h200"
// IR-LABEL: func.func @step
// IR-SAME: memsched.target_device = "cpu"
// expected-remark @below {{memsched-reorder: peak 512 B -> 512 B}}
func.func @step(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Tests that a device recorded on the module applies to its functions.

// GIVEN: "device": "cpu"
// DEFAULT: "device": "a100-80gb"
// OVERRIDE: "device": "h200"
module attributes {memsched.target_device = "a100-80gb"} {
  // expected-remark @below {{memsched-reorder: peak 512 B -> 512 B}}
  func.func @step(%x: tensor<64xf32>) -> tensor<64xf32> {
    %e = tensor.empty() : tensor<64xf32>
    %r = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    return %r : tensor<64xf32>
  }
}
