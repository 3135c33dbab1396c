//===- DeviceSpec.h - Device presets for the time model ---------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// This file declares DeviceSpec: the figures of a device (memory capacity,
// bandwidths, peak throughput, latencies) that the cost and time models read.
// Presets are data; a JSON file can start from a preset and override any field.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_ANALYSIS_DEVICESPEC_H
#define MEMSCHED_ANALYSIS_DEVICESPEC_H

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::memsched {

/// The figures of one device. Rates are per second, sizes in bytes, times in
/// seconds.
struct DeviceSpec {
  /// Preset or user-given name, printed in reports.
  std::string name;
  /// Device memory available to the program.
  int64_t capacityBytes = 0;
  /// Device memory (HBM) bandwidth.
  double memoryBandwidth = 0;
  /// Dense peak throughput for FP32, TF32 and BF16/FP16 math.
  double fp32Flops = 0;
  double tf32Flops = 0;
  double bf16Flops = 0;
  /// Host link bandwidth per direction, used by swaps.
  double hostToDeviceBandwidth = 0;
  double deviceToHostBandwidth = 0;
  /// Fixed cost of one kernel launch.
  double launchLatency = 0;
  /// Fixed cost of one host/device copy.
  double copyLatency = 0;
  /// Whether FP32 matrix ops run on TF32 tensor cores.
  bool allowTF32 = false;

  /// Returns the peak throughput for arithmetic on `elementType`; `isMatmul`
  /// selects tensor-core rates where the device has them.
  double getPeakFlops(Type elementType, bool isMatmul) const;

  /// Returns the names of the presets, in a stable order.
  static ArrayRef<StringRef> getPresetNames();

  /// Returns the preset called `name`, or failure.
  static FailureOr<DeviceSpec> getPreset(StringRef name);

  /// Parses a JSON object with an optional "base" preset name and any field
  /// of the struct (snake_case names); on failure `error` says what is wrong.
  static FailureOr<DeviceSpec> parseJSON(StringRef text, std::string &error);

  /// Resolves a `device=` option: a preset name, or the path of a JSON file.
  static FailureOr<DeviceSpec> lookup(StringRef nameOrPath, std::string &error);
  /// As lookup(), for a pass option: a failure is emitted as an error on
  /// `anchor`, prefixed with `passName`.
  static FailureOr<DeviceSpec> lookupOrEmitError(StringRef nameOrPath,
                                                 Operation *anchor,
                                                 StringRef passName);

  /// Resolves a pass's `device=` option for `op`: the option when it is not
  /// empty, else the `memsched.target_device` attribute of `op` or of its
  /// nearest ancestor that has one, else the default preset (h100). A given
  /// option is not recorded here (see record()). Failures are emitted at
  /// `op`'s location, prefixed with `passName`.
  static FailureOr<DeviceSpec>
  resolveOrEmitError(StringRef option, Operation *op, StringRef passName);
  /// Records a non-empty `device=` option on `op` (memsched.target_device),
  /// so that later passes and the report plan for the same device. Passes
  /// call it once they have succeeded, leaving failed functions unchanged.
  static void record(StringRef option, Operation *op);
  /// The device `op` is planned for: its own or its nearest ancestor's
  /// `memsched.target_device`, else the default preset name.
  static std::string getRecordedName(Operation *op);

  /// Returns the spec as a JSON object with the same field names that
  /// `parseJSON` accepts.
  llvm::json::Object toJSON() const;
};

} // namespace mlir::memsched

#endif // MEMSCHED_ANALYSIS_DEVICESPEC_H
