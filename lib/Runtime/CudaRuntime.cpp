//===- CudaRuntime.cpp - memsched's CUDA runtime ----------------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// The `mgpu*` functions that MLIR's GPU-to-LLVM lowering calls (LLVM 22.1
// ABI, docs/gpu.md), implemented with the CUDA driver API, plus memsched's
// own entry points: device-memory accounting with a high-water mark, a
// pinned host arena, and per-kernel timing written as JSON.
//
// Every driver error aborts with the call, the error's name and its
// description: lowered code has no way to handle a failed launch or copy.
//
// Environment:
//   MEMSCHED_PROFILE=<file>   time every launch with events; at exit write
//                             {"kernels": [{"name", "launches", "total_s",
//                             "mean_s"}], ...} to <file>
//   MEMSCHED_STATS=1          at exit print one line
//                             `memsched-runtime {...}` (JSON) on stderr with
//                             the device high-water mark and the timings
//
//===----------------------------------------------------------------------===//

#include "memsched/Runtime/CudaRuntime.h"

#include <cuda.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#define MEMSCHED_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

[[noreturn]] void fail(const char *call, CUresult result) {
  const char *name = nullptr, *description = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &description);
  std::fprintf(stderr, "memsched-runtime: %s failed: %s (%s)\n", call,
               name ? name : "unknown error",
               description ? description : "no description");
  if (result == CUDA_ERROR_NO_DEVICE || result == CUDA_ERROR_NOT_INITIALIZED)
    std::fprintf(stderr, "memsched-runtime: this machine has no usable CUDA "
                         "device; run the CPU pipeline instead\n");
  std::exit(1);
}

#define CHECK_CU(call)                                                         \
  do {                                                                         \
    CUresult result_ = (call);                                                 \
    if (result_ != CUDA_SUCCESS)                                               \
      fail(#call, result_);                                                    \
  } while (false)

using Clock = std::chrono::steady_clock;

struct KernelTiming {
  uint64_t launches = 0;
  double totalSeconds = 0;
};

/// A launch whose events are read when the profile is written.
struct PendingLaunch {
  std::string name;
  CUevent start, stop;
};

/// Process-wide state: the primary context, accounting and profile.
struct Runtime {
  std::mutex mutex;
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::once_flag contextOnce;
  int defaultDevice = 0;
  std::map<CUdeviceptr, uint64_t> allocations;
  uint64_t liveBytes = 0, peakBytes = 0, allocationCount = 0;
  uint64_t launchCount = 0, copyCount = 0, copiedBytes = 0;
  std::map<CUfunction, std::string> functionNames;
  std::vector<PendingLaunch> pending;
  std::map<std::string, KernelTiming> timings;
  std::string profilePath;
  bool printStats = false;
  // Wall time from the first allocation, copy or launch to the last
  // synchronisation: the run of the program, without module loading.
  bool started = false;
  Clock::time_point firstCall, lastSync;
  // Set by the exit handler. A program compiled ahead of time unloads its
  // modules from its global destructors, which run after the driver's own
  // exit handlers have torn the context down.
  bool exiting = false;

  Runtime() {
    if (const char *path = std::getenv("MEMSCHED_PROFILE"))
      profilePath = path;
    if (const char *stats = std::getenv("MEMSCHED_STATS"))
      printStats = std::strcmp(stats, "0") != 0;
  }

  void ensureContext() {
    std::call_once(contextOnce, [this] { createContext(); });
  }

  void createContext() {
    CHECK_CU(cuInit(0));
    int count = 0;
    CHECK_CU(cuDeviceGetCount(&count));
    if (defaultDevice >= count) {
      std::fprintf(stderr,
                   "memsched-runtime: device %d requested, %d present\n",
                   defaultDevice, count);
      std::exit(1);
    }
    CHECK_CU(cuDeviceGet(&device, defaultDevice));
    CHECK_CU(cuDevicePrimaryCtxRetain(&context, device));
  }

  void markCall() {
    if (!started) {
      started = true;
      firstCall = Clock::now();
    }
  }

  void collectTimings() {
    for (PendingLaunch &launch : pending) {
      float milliseconds = 0;
      // Tolerant: this also runs at exit, when the driver may be gone.
      bool read = cuEventSynchronize(launch.stop) == CUDA_SUCCESS &&
                  cuEventElapsedTime(&milliseconds, launch.start,
                                     launch.stop) == CUDA_SUCCESS;
      cuEventDestroy(launch.start);
      cuEventDestroy(launch.stop);
      if (!read) {
        std::fprintf(stderr, "memsched-runtime: a kernel timing could not "
                             "be read\n");
        continue;
      }
      KernelTiming &timing = timings[launch.name];
      ++timing.launches;
      timing.totalSeconds += milliseconds / 1e3;
    }
    pending.clear();
  }

  std::string json() {
    std::string out = "{\"device_peak_bytes\": " + std::to_string(peakBytes) +
                      ", \"device_live_bytes\": " + std::to_string(liveBytes) +
                      ", \"allocations\": " + std::to_string(allocationCount) +
                      ", \"launches\": " + std::to_string(launchCount) +
                      ", \"copies\": " + std::to_string(copyCount) +
                      ", \"copied_bytes\": " + std::to_string(copiedBytes);
    double wall =
        started ? std::chrono::duration<double>(lastSync - firstCall).count()
                : 0.0;
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.9g", wall);
    out += std::string(", \"run_time_s\": ") + buffer;
    double kernelTotal = 0;
    std::string kernels;
    for (auto &[name, timing] : timings) {
      kernelTotal += timing.totalSeconds;
      char entry[512];
      std::snprintf(entry, sizeof(entry),
                    "%s{\"name\": \"%s\", \"launches\": %llu, \"total_s\": "
                    "%.9g, \"mean_s\": %.9g}",
                    kernels.empty() ? "" : ", ", name.c_str(),
                    static_cast<unsigned long long>(timing.launches),
                    timing.totalSeconds,
                    timing.totalSeconds / static_cast<double>(timing.launches));
      kernels += entry;
    }
    std::snprintf(buffer, sizeof(buffer), "%.9g", kernelTotal);
    out += std::string(", \"kernel_time_s\": ") + buffer;
    out += ", \"kernels\": [" + kernels + "]}";
    return out;
  }

  /// Writes the JSON report to `path`; false when it cannot be written.
  bool writeProfile(const char *path) {
    FILE *file = std::fopen(path, "w");
    if (!file)
      return false;
    std::fprintf(file, "%s\n", json().c_str());
    std::fclose(file);
    return true;
  }

  void finish() {
    exiting = true;
    if (!context)
      return;
    cuCtxPushCurrent(context);
    collectTimings();
    if (!profilePath.empty() && !writeProfile(profilePath.c_str()))
      std::fprintf(stderr, "memsched-runtime: cannot write profile '%s'\n",
                   profilePath.c_str());
    if (printStats)
      std::fprintf(stderr, "memsched-runtime %s\n", json().c_str());
    CUcontext ignored;
    cuCtxPopCurrent(&ignored);
  }
};

Runtime &runtime() {
  // Never destroyed: lowered code may call the ABI from its own global
  // destructors after ours would have run. The report is written by an
  // atexit handler instead.
  static Runtime *instance = [] {
    auto *created = new Runtime();
    std::atexit([] { runtime().finish(); });
    return created;
  }();
  return *instance;
}

/// Makes the primary context current for the scope of one ABI call.
class ScopedContext {
public:
  ScopedContext() {
    Runtime &r = runtime();
    r.ensureContext();
    CHECK_CU(cuCtxPushCurrent(r.context));
  }
  ~ScopedContext() {
    CUcontext ignored;
    CHECK_CU(cuCtxPopCurrent(&ignored));
  }
};

/// The ranked memref descriptor `gpu.host_register` passes: the sizes
/// follow the offset.
struct MemRefHead {
  char *allocated;
  char *aligned;
  int64_t offset;
};

uint64_t getDescribedBytes(int64_t rank, MemRefHead *descriptor,
                           int64_t elementBytes) {
  const int64_t *sizes = &descriptor->offset + 1;
  uint64_t elements = 1;
  for (int64_t i = 0; i < rank; ++i)
    elements *= static_cast<uint64_t>(sizes[i]);
  return elements * static_cast<uint64_t>(elementBytes);
}

} // namespace

//===----------------------------------------------------------------------===//
// mgpu* ABI
//===----------------------------------------------------------------------===//

MEMSCHED_EXPORT void *mgpuModuleLoad(void *data, size_t /*size*/) {
  ScopedContext scope;
  CUmodule module = nullptr;
  CHECK_CU(cuModuleLoadData(&module, data));
  return module;
}

MEMSCHED_EXPORT void *mgpuModuleLoadJIT(void *ptx, int optLevel) {
  ScopedContext scope;
  CUmodule module = nullptr;
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUresult result = cuModuleLoadDataEx(&module, ptx, 3, options, values);
  if (result != CUDA_SUCCESS) {
    std::fprintf(stderr, "memsched-runtime: PTX JIT log:\n%s\n", log);
    fail("cuModuleLoadDataEx", result);
  }
  return module;
}

MEMSCHED_EXPORT void mgpuModuleUnload(void *module) {
  // At exit the process's end releases the module with the context.
  if (runtime().exiting)
    return;
  ScopedContext scope;
  CHECK_CU(cuModuleUnload(static_cast<CUmodule>(module)));
}

MEMSCHED_EXPORT void *mgpuModuleGetFunction(void *module, const char *name) {
  ScopedContext scope;
  CUfunction function = nullptr;
  CHECK_CU(cuModuleGetFunction(&function, static_cast<CUmodule>(module), name));
  std::lock_guard<std::mutex> lock(runtime().mutex);
  runtime().functionNames[function] = name;
  return function;
}

MEMSCHED_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                      intptr_t gridY, intptr_t gridZ,
                                      intptr_t blockX, intptr_t blockY,
                                      intptr_t blockZ, int32_t sharedMemBytes,
                                      void *stream, void **params, void **extra,
                                      size_t /*paramsCount*/) {
  ScopedContext scope;
  Runtime &r = runtime();
  auto cuFunction = static_cast<CUfunction>(function);
  auto cuStream = static_cast<CUstream>(stream);
  if (sharedMemBytes > 48 * 1024)
    CHECK_CU(cuFuncSetAttribute(cuFunction,
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                sharedMemBytes));
  std::lock_guard<std::mutex> lock(r.mutex);
  r.markCall();
  ++r.launchCount;
  bool profile = !r.profilePath.empty() || r.printStats;
  PendingLaunch pending;
  if (profile) {
    pending.name = r.functionNames[cuFunction];
    CHECK_CU(cuEventCreate(&pending.start, CU_EVENT_DEFAULT));
    CHECK_CU(cuEventCreate(&pending.stop, CU_EVENT_DEFAULT));
    CHECK_CU(cuEventRecord(pending.start, cuStream));
  }
  CHECK_CU(cuLaunchKernel(cuFunction, gridX, gridY, gridZ, blockX, blockY,
                          blockZ, sharedMemBytes, cuStream, params, extra));
  if (profile) {
    CHECK_CU(cuEventRecord(pending.stop, cuStream));
    r.pending.push_back(pending);
  }
}

MEMSCHED_EXPORT void
mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY,
                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                        intptr_t blockZ, int32_t sharedMemBytes, void *stream,
                        void **params, void **extra) {
  ScopedContext scope;
  CUlaunchAttribute attribute;
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = static_cast<unsigned>(clusterX);
  attribute.value.clusterDim.y = static_cast<unsigned>(clusterY);
  attribute.value.clusterDim.z = static_cast<unsigned>(clusterZ);
  CUlaunchConfig config = {};
  config.gridDimX = gridX;
  config.gridDimY = gridY;
  config.gridDimZ = gridZ;
  config.blockDimX = blockX;
  config.blockDimY = blockY;
  config.blockDimZ = blockZ;
  config.sharedMemBytes = sharedMemBytes;
  config.hStream = static_cast<CUstream>(stream);
  config.attrs = &attribute;
  config.numAttrs = 1;
  {
    std::lock_guard<std::mutex> lock(runtime().mutex);
    runtime().markCall();
    ++runtime().launchCount;
  }
  CHECK_CU(cuLaunchKernelEx(&config, static_cast<CUfunction>(function), params,
                            extra));
}

MEMSCHED_EXPORT void *mgpuStreamCreate() {
  ScopedContext scope;
  CUstream stream = nullptr;
  CHECK_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  return stream;
}

MEMSCHED_EXPORT void mgpuStreamDestroy(void *stream) {
  ScopedContext scope;
  CHECK_CU(cuStreamDestroy(static_cast<CUstream>(stream)));
}

MEMSCHED_EXPORT void mgpuStreamSynchronize(void *stream) {
  ScopedContext scope;
  CHECK_CU(cuStreamSynchronize(static_cast<CUstream>(stream)));
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.lastSync = Clock::now();
  // Blocking launches synchronise right after: read their events now, so
  // that they do not pile up over a long run.
  r.collectTimings();
}

MEMSCHED_EXPORT void mgpuStreamWaitEvent(void *stream, void *event) {
  ScopedContext scope;
  CHECK_CU(cuStreamWaitEvent(static_cast<CUstream>(stream),
                             static_cast<CUevent>(event), 0));
}

MEMSCHED_EXPORT void *mgpuEventCreate() {
  ScopedContext scope;
  CUevent event = nullptr;
  CHECK_CU(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  return event;
}

MEMSCHED_EXPORT void mgpuEventDestroy(void *event) {
  ScopedContext scope;
  CHECK_CU(cuEventDestroy(static_cast<CUevent>(event)));
}

MEMSCHED_EXPORT void mgpuEventSynchronize(void *event) {
  ScopedContext scope;
  CHECK_CU(cuEventSynchronize(static_cast<CUevent>(event)));
  std::lock_guard<std::mutex> lock(runtime().mutex);
  runtime().lastSync = Clock::now();
}

MEMSCHED_EXPORT void mgpuEventRecord(void *event, void *stream) {
  ScopedContext scope;
  CHECK_CU(cuEventRecord(static_cast<CUevent>(event),
                         static_cast<CUstream>(stream)));
}

MEMSCHED_EXPORT void *mgpuMemAlloc(uint64_t bytes, void *stream,
                                   bool isHostShared) {
  ScopedContext scope;
  CUdeviceptr pointer = 0;
  // CUDA refuses empty allocations; the accounting keeps the planned size.
  size_t allocated = bytes == 0 ? 1 : bytes;
  if (isHostShared)
    CHECK_CU(cuMemAllocManaged(&pointer, allocated, CU_MEM_ATTACH_GLOBAL));
  else
    CHECK_CU(cuMemAlloc(&pointer, allocated));
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.markCall();
  r.allocations[pointer] = bytes;
  r.liveBytes += bytes;
  r.peakBytes = std::max(r.peakBytes, r.liveBytes);
  ++r.allocationCount;
  return reinterpret_cast<void *>(pointer);
}

MEMSCHED_EXPORT void mgpuMemFree(void *pointer, void * /*stream*/) {
  ScopedContext scope;
  auto devicePointer = reinterpret_cast<CUdeviceptr>(pointer);
  CHECK_CU(cuMemFree(devicePointer));
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.allocations.find(devicePointer);
  if (it != r.allocations.end()) {
    r.liveBytes -= it->second;
    r.allocations.erase(it);
  }
}

MEMSCHED_EXPORT void mgpuMemcpy(void *dst, void *src, size_t bytes,
                                void *stream) {
  ScopedContext scope;
  CHECK_CU(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                         reinterpret_cast<CUdeviceptr>(src), bytes,
                         static_cast<CUstream>(stream)));
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.markCall();
  ++r.copyCount;
  r.copiedBytes += bytes;
}

MEMSCHED_EXPORT void mgpuMemset32(void *dst, uint32_t value, size_t count,
                                  void *stream) {
  ScopedContext scope;
  CHECK_CU(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                            static_cast<CUstream>(stream)));
}

MEMSCHED_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                                  void *stream) {
  ScopedContext scope;
  CHECK_CU(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                            static_cast<CUstream>(stream)));
}

MEMSCHED_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank,
                                               MemRefHead *descriptor,
                                               int64_t elementBytes) {
  ScopedContext scope;
  uint64_t bytes = getDescribedBytes(rank, descriptor, elementBytes);
  if (bytes == 0)
    return;
  CUresult result =
      cuMemHostRegister(descriptor->aligned + descriptor->offset * elementBytes,
                        bytes, CU_MEMHOSTREGISTER_PORTABLE);
  // A function registers its host arena on every call; the first call's
  // registration still holds.
  if (result != CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
    CHECK_CU(result);
}

MEMSCHED_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                 MemRefHead *descriptor,
                                                 int64_t elementBytes) {
  ScopedContext scope;
  CHECK_CU(cuMemHostUnregister(descriptor->aligned +
                               descriptor->offset * elementBytes));
}

MEMSCHED_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  Runtime &r = runtime();
  if (r.context && device != r.defaultDevice) {
    std::fprintf(stderr,
                 "memsched-runtime: mgpuSetDefaultDevice(%d) after "
                 "the context of device %d was created\n",
                 device, r.defaultDevice);
    std::exit(1);
  }
  r.defaultDevice = device;
}

//===----------------------------------------------------------------------===//
// memsched entry points
//===----------------------------------------------------------------------===//

MEMSCHED_EXPORT uint64_t memschedDevicePeakBytes() {
  std::lock_guard<std::mutex> lock(runtime().mutex);
  return runtime().peakBytes;
}

MEMSCHED_EXPORT uint64_t memschedDeviceLiveBytes() {
  std::lock_guard<std::mutex> lock(runtime().mutex);
  return runtime().liveBytes;
}

MEMSCHED_EXPORT void memschedResetDevicePeak() {
  std::lock_guard<std::mutex> lock(runtime().mutex);
  runtime().peakBytes = runtime().liveBytes;
}

MEMSCHED_EXPORT void *memschedHostArenaAlloc(uint64_t bytes) {
  ScopedContext scope;
  void *memory = nullptr;
  CHECK_CU(cuMemHostAlloc(&memory, bytes == 0 ? 1 : bytes,
                          CU_MEMHOSTALLOC_PORTABLE));
  return memory;
}

MEMSCHED_EXPORT void memschedHostArenaFree(void *memory) {
  ScopedContext scope;
  CHECK_CU(cuMemFreeHost(memory));
}

MEMSCHED_EXPORT int memschedWriteProfile(const char *path) {
  ScopedContext scope;
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.collectTimings();
  return r.writeProfile(path) ? 0 : 1;
}
