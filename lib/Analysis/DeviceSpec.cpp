//===- DeviceSpec.cpp - Device presets for the time model -------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// Preset figures are the vendors' published dense peaks and memory bandwidths;
// host links use achieved (not theoretical) PCIe rates, since swaps see those.
//
//===----------------------------------------------------------------------===//

#include "memsched/Analysis/DeviceSpec.h"
#include "memsched/Dialect/Memsched/IR/MemschedDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::memsched;

static constexpr int64_t kGiB = int64_t(1) << 30;

static DeviceSpec makeH100() {
  DeviceSpec spec;
  spec.name = "h100";
  spec.capacityBytes = 80 * kGiB;
  spec.memoryBandwidth = 3.35e12; // HBM3, SXM5.
  spec.fp32Flops = 67e12;
  spec.tf32Flops = 494.7e12;
  spec.bf16Flops = 989.4e12;
  spec.hostToDeviceBandwidth = 55e9; // PCIe 5 x16, achieved.
  spec.deviceToHostBandwidth = 55e9;
  spec.launchLatency = 4e-6;
  spec.copyLatency = 8e-6;
  return spec;
}

static DeviceSpec makeH200() {
  DeviceSpec spec = makeH100();
  spec.name = "h200";
  spec.capacityBytes = 141 * int64_t(1000000000);
  spec.memoryBandwidth = 4.8e12; // HBM3e.
  return spec;
}

static DeviceSpec makeA100() {
  DeviceSpec spec;
  spec.name = "a100-80gb";
  spec.capacityBytes = 80 * kGiB;
  spec.memoryBandwidth = 2.039e12; // HBM2e, SXM4.
  spec.fp32Flops = 19.5e12;
  spec.tf32Flops = 156e12;
  spec.bf16Flops = 312e12;
  spec.hostToDeviceBandwidth = 25e9; // PCIe 4 x16, achieved.
  spec.deviceToHostBandwidth = 25e9;
  spec.launchLatency = 5e-6;
  spec.copyLatency = 10e-6;
  return spec;
}

/// A nominal multicore host: device memory is host memory, so "swaps" are
/// memcpy at DRAM speed.
static DeviceSpec makeCPU() {
  DeviceSpec spec;
  spec.name = "cpu";
  spec.capacityBytes = 64 * kGiB;
  spec.memoryBandwidth = 50e9;
  spec.fp32Flops = 1e12;
  spec.tf32Flops = 1e12;
  spec.bf16Flops = 1e12;
  spec.hostToDeviceBandwidth = 20e9;
  spec.deviceToHostBandwidth = 20e9;
  spec.launchLatency = 1e-7;
  spec.copyLatency = 1e-7;
  return spec;
}

ArrayRef<StringRef> DeviceSpec::getPresetNames() {
  static const StringRef names[] = {"h100", "h200", "a100-80gb", "cpu"};
  return names;
}

FailureOr<DeviceSpec> DeviceSpec::getPreset(StringRef name) {
  if (name == "h100")
    return makeH100();
  if (name == "h200")
    return makeH200();
  if (name == "a100-80gb")
    return makeA100();
  if (name == "cpu")
    return makeCPU();
  return failure();
}

double DeviceSpec::getPeakFlops(Type elementType, bool isMatmul) const {
  if (elementType && (elementType.isBF16() || elementType.isF16()))
    return isMatmul ? bf16Flops : fp32Flops;
  if (isMatmul && allowTF32 && elementType && elementType.isF32())
    return tf32Flops;
  return fp32Flops;
}

namespace {
/// One field of DeviceSpec as it appears in JSON.
struct NumberField {
  StringRef key;
  double DeviceSpec::*member;
};
} // namespace

static const NumberField kNumberFields[] = {
    {"memory_bandwidth", &DeviceSpec::memoryBandwidth},
    {"fp32_flops", &DeviceSpec::fp32Flops},
    {"tf32_flops", &DeviceSpec::tf32Flops},
    {"bf16_flops", &DeviceSpec::bf16Flops},
    {"host_to_device_bandwidth", &DeviceSpec::hostToDeviceBandwidth},
    {"device_to_host_bandwidth", &DeviceSpec::deviceToHostBandwidth},
    {"launch_latency", &DeviceSpec::launchLatency},
    {"copy_latency", &DeviceSpec::copyLatency},
};

FailureOr<DeviceSpec> DeviceSpec::parseJSON(StringRef text,
                                            std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    error = "malformed device JSON: " + llvm::toString(parsed.takeError());
    return failure();
  }
  const llvm::json::Object *object = parsed->getAsObject();
  if (!object) {
    error = "device JSON must be an object";
    return failure();
  }
  DeviceSpec spec;
  if (const llvm::json::Value *base = object->get("base")) {
    std::optional<StringRef> baseName = base->getAsString();
    FailureOr<DeviceSpec> preset =
        baseName ? getPreset(*baseName) : FailureOr<DeviceSpec>(failure());
    if (failed(preset)) {
      error = "device JSON: 'base' must name a preset (" +
              llvm::join(getPresetNames(), ", ") + ")";
      return failure();
    }
    spec = *preset;
  }
  for (const auto &[key, value] : *object) {
    if (key == "base")
      continue;
    if (key == "name") {
      std::optional<StringRef> name = value.getAsString();
      if (!name) {
        error = "device JSON: 'name' must be a string";
        return failure();
      }
      spec.name = name->str();
      continue;
    }
    if (key == "allow_tf32") {
      std::optional<bool> flag = value.getAsBoolean();
      if (!flag) {
        error = "device JSON: 'allow_tf32' must be a boolean";
        return failure();
      }
      spec.allowTF32 = *flag;
      continue;
    }
    std::optional<double> number = value.getAsNumber();
    if (key == "capacity_bytes") {
      if (!number || *number <= 0 || *number > 4.6e18) {
        error = "device JSON: 'capacity_bytes' must be a positive number of "
                "bytes below 2^62";
        return failure();
      }
      spec.capacityBytes = static_cast<int64_t>(*number);
      continue;
    }
    const NumberField *field =
        llvm::find_if(kNumberFields, [&](const NumberField &candidate) {
          return candidate.key == StringRef(key);
        });
    if (field == std::end(kNumberFields)) {
      error = "device JSON: unknown field '" + key.str() + "'";
      return failure();
    }
    // Rates (bytes or flops per second) in [1, 1e18], latencies (seconds)
    // in [0, 1000]: beyond, modelled times leave the range of a double.
    bool isLatency = StringRef(key).ends_with("latency");
    double largest = isLatency ? 1e3 : 1e18;
    if (!number || *number < 0 || *number > largest ||
        (!isLatency && *number > 0 && *number < 1)) {
      error = "device JSON: '" + key.str() + "' must be " +
              (isLatency ? "a number of seconds in [0, 1000]"
                         : "a rate per second in [1, 1e18]");
      return failure();
    }
    spec.*(field->member) = *number;
  }
  if (spec.name.empty())
    spec.name = "custom";
  for (const NumberField &field : kNumberFields) {
    if (field.key.ends_with("latency") || spec.*(field.member) > 0)
      continue;
    error = "device JSON: '" + field.key.str() +
            "' must be given (or come from a 'base' preset)";
    return failure();
  }
  if (spec.capacityBytes <= 0) {
    error = "device JSON: 'capacity_bytes' must be given (or come from a "
            "'base' preset)";
    return failure();
  }
  return spec;
}

FailureOr<DeviceSpec> DeviceSpec::lookup(StringRef nameOrPath,
                                         std::string &error) {
  if (FailureOr<DeviceSpec> preset = getPreset(nameOrPath); succeeded(preset))
    return preset;
  if (!nameOrPath.ends_with(".json")) {
    error = "unknown device '" + nameOrPath.str() + "'; expected one of " +
            llvm::join(getPresetNames(), ", ") + " or a path to a .json file";
    return failure();
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(nameOrPath);
  if (!file) {
    error = "cannot read device file '" + nameOrPath.str() +
            "': " + file.getError().message();
    return failure();
  }
  return parseJSON((*file)->getBuffer(), error);
}

llvm::json::Object DeviceSpec::toJSON() const {
  llvm::json::Object object;
  object["name"] = name;
  object["capacity_bytes"] = capacityBytes;
  for (const NumberField &field : kNumberFields)
    object[field.key] = this->*(field.member);
  object["allow_tf32"] = allowTF32;
  return object;
}

FailureOr<DeviceSpec> DeviceSpec::lookupOrEmitError(StringRef nameOrPath,
                                                    Operation *anchor,
                                                    StringRef passName) {
  std::string error;
  FailureOr<DeviceSpec> spec = lookup(nameOrPath, error);
  if (failed(spec))
    emitError(anchor->getLoc()) << passName << ": " << error;
  return spec;
}

std::string DeviceSpec::getRecordedName(Operation *op) {
  for (Operation *current = op; current; current = current->getParentOp())
    if (auto name = current->getAttrOfType<StringAttr>(kTargetDeviceAttrName))
      return name.getValue().str();
  return "h100";
}

FailureOr<DeviceSpec> DeviceSpec::resolveOrEmitError(StringRef option,
                                                     Operation *op,
                                                     StringRef passName) {
  std::string name = option.empty() ? getRecordedName(op) : option.str();
  return lookupOrEmitError(name, op, passName);
}

void DeviceSpec::record(StringRef option, Operation *op) {
  if (!option.empty())
    op->setAttr(kTargetDeviceAttrName,
                StringAttr::get(op->getContext(), option));
}
