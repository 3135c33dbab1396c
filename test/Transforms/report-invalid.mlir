// RUN: rm -rf %t && split-file %s %t
// RUN: not memsched-opt %t/unknown-format.mlir -memsched-report=format=xml 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: memsched-opt %t/unknown-device.mlir -verify-diagnostics -memsched-report=device=tpu
// RUN: memsched-opt %t/unreadable-device.mlir -verify-diagnostics -memsched-report=device=%t/missing.json
// RUN: echo '{"base": "h100",' > %t/malformed.json
// RUN: memsched-opt %t/malformed-device.mlir -verify-diagnostics -memsched-report=device=%t/malformed.json
// RUN: echo '{"base": "h100"}' > %t/device.txt
// RUN: memsched-opt %t/device-not-json-name.mlir -verify-diagnostics -memsched-report=device=%t/device.txt
// RUN: echo '{"base": "h100", "memory_bw": 1e12}' > %t/unknown-field.json
// RUN: memsched-opt %t/unknown-field.mlir -verify-diagnostics -memsched-report=device=%t/unknown-field.json
// RUN: echo '{"base": "tpu"}' > %t/unknown-base.json
// RUN: memsched-opt %t/unknown-base.mlir -verify-diagnostics -memsched-report=device=%t/unknown-base.json
// RUN: echo '[1, 2]' > %t/not-object.json
// RUN: memsched-opt %t/not-object.mlir -verify-diagnostics -memsched-report=device=%t/not-object.json
// RUN: echo '{"name": "bare"}' > %t/missing-fields.json
// RUN: memsched-opt %t/missing-fields.mlir -verify-diagnostics -memsched-report=device=%t/missing-fields.json
// RUN: echo '{"base": "h100", "memory_bandwidth": -1}' > %t/negative.json
// RUN: memsched-opt %t/negative-field.mlir -verify-diagnostics -memsched-report=device=%t/negative.json
// RUN: echo '{"base": "h100", "host_to_device_bandwidth": 1e308}' > %t/extreme.json
// RUN: memsched-opt %t/extreme-field.mlir -verify-diagnostics -memsched-report=device=%t/extreme.json
// RUN: echo '{"base": "h100", "copy_latency": 1e9}' > %t/extreme-latency.json
// RUN: memsched-opt %t/extreme-latency.mlir -verify-diagnostics -memsched-report=device=%t/extreme-latency.json
// RUN: memsched-opt %t/unwritable-output.mlir -verify-diagnostics -memsched-report=output=%t/no-such-dir/report.json
// RUN: echo '{"base": "h100", "memory_bandwidth": 1.675e12, "name": "half-bandwidth"}' > %t/half-bandwidth.json
// RUN: memsched-opt %t/custom-device.mlir -verify-diagnostics -memsched-report="format=json device=%t/half-bandwidth.json" -o /dev/null | FileCheck %s --check-prefix=CUSTOM
// RUN: memsched-opt %t/custom-device.mlir -verify-diagnostics -memsched-report="format=json device=h100" -o /dev/null | FileCheck %s --check-prefix=H100

// Each case below is its own input file (split-file), so that each RUN line
// can pass different report options and verify its own diagnostic. The
// device is resolved per function (a function may record its own), so the
// device cases hold one function and get one error, at that function.

//--- unknown-format.mlir
// Tests that an unknown report format is refused by the option parser.
// FORMAT: for the --format option: Cannot find option named 'xml'!
module {
}

//--- unknown-device.mlir
// Tests that an unknown device preset name is an error that lists the presets.
// expected-error @below {{memsched-report: unknown device 'tpu'; expected one of h100, h200, a100-80gb, cpu or a path to a .json file}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- unreadable-device.mlir
// Tests that a device file that cannot be read is an error naming the file.
// expected-error-re @below {{memsched-report: cannot read device file '{{.*}}missing.json': No such file or directory}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- malformed-device.mlir
// Tests that a device file that is not valid JSON is an error.
// expected-error @below {{memsched-report: malformed device JSON:}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- device-not-json-name.mlir
// Tests that a device file must be named *.json: any other name is taken as
// an (unknown) preset name.
// expected-error-re @below {{memsched-report: unknown device '{{.*}}device.txt'; expected one of h100, h200, a100-80gb, cpu or a path to a .json file}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- unknown-field.mlir
// Tests that a device file with an unknown field is an error naming it.
// expected-error @below {{memsched-report: device JSON: unknown field 'memory_bw'}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- unknown-base.mlir
// Tests that a device file whose base is not a preset is an error.
// expected-error @below {{memsched-report: device JSON: 'base' must name a preset (h100, h200, a100-80gb, cpu)}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- not-object.mlir
// Tests that a device file that is not a JSON object is an error.
// expected-error @below {{memsched-report: device JSON must be an object}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- missing-fields.mlir
// Tests that a device file without a base must give every figure.
// expected-error @below {{memsched-report: device JSON: 'memory_bandwidth' must be given (or come from a 'base' preset)}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- negative-field.mlir
// Tests that a negative device figure is an error.
// expected-error @below {{memsched-report: device JSON: 'memory_bandwidth' must be a rate per second in [1, 1e18]}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- extreme-field.mlir
// Tests that a figure whose modelled times would leave the range of a
// double (the JSON report then printed bare inf and nan) is an error.
// expected-error @below {{memsched-report: device JSON: 'host_to_device_bandwidth' must be a rate per second in [1, 1e18]}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- extreme-latency.mlir
// expected-error @below {{memsched-report: device JSON: 'copy_latency' must be a number of seconds in [0, 1000]}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

//--- unwritable-output.mlir
// Tests that a report file that cannot be created is an error.
// expected-error-re @below {{memsched-report: cannot open output file '{{.*}}report.json': No such file or directory}}
module {
}

//--- custom-device.mlir
// Tests that a valid device file based on h100 with half its memory bandwidth
// names the device and doubles the memory time of a memory-bound op.

// One exp on 1024xf32: 1024 flops, 4096 + 4096 = 8192 bytes.
//   h100: 8192 / 3.35e12 + 4e-6 = 2.4453731e-9 + 4e-6 = 4.0024454e-6 s
//   half-bandwidth: 8192 / 1.675e12 + 4e-6 = 4.8907463e-9 + 4e-6
//                   = 4.0048907e-6 s
// Memory figures do not depend on the device: resident 4096, peak 8192.
// One task: the exp (the empty is a free op).
// CUSTOM:      "device": "half-bandwidth",
// CUSTOM:      "modeled_time_s": 4.0048907{{[0-9]*}}e-06,
// CUSTOM-NEXT: "name": "exp",
// CUSTOM-NEXT: "ops": 1,
// CUSTOM:      "peak_bytes": 8192,
// H100:        "device": "h100",
// H100:        "modeled_time_s": 4.0024453{{[0-9]*}}e-06,
// H100-NEXT:   "name": "exp",
// H100-NEXT:   "ops": 1,
// H100:        "peak_bytes": 8192,
module {
  func.func @exp(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %e = tensor.empty() : tensor<1024xf32>
    %a = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    return %a : tensor<1024xf32>
  }
}
