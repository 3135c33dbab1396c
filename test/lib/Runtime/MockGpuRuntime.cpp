//===- MockGpuRuntime.cpp - A logging stand-in for the mgpu* ABI ----------===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// Test-only library with the same exports as memsched_cuda_runtime. Memory
// calls use host memory (malloc and memcpy), kernels do not run, and every
// call that matters for memory planning is printed as one `mgpu ...` line,
// so that tests on machines without a GPU can check what lowered code asks
// the runtime for: the call sequence, the sizes, the launch shapes, and that
// a function's arena is allocated once at its planned size. At exit a
// `mgpu summary` line gives the counts and the high-water mark of device
// bytes.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#define MOCK_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
struct MockState {
  std::map<void *, uint64_t> liveAllocations;
  uint64_t liveBytes = 0;
  uint64_t peakBytes = 0;
  uint64_t allocations = 0;
  uint64_t launches = 0;
  uint64_t copies = 0;
  uint64_t streams = 0;
  ~MockState() {
    std::printf("mgpu summary allocations=%llu launches=%llu copies=%llu "
                "streams=%llu peak_bytes=%llu live_bytes=%llu\n",
                static_cast<unsigned long long>(allocations),
                static_cast<unsigned long long>(launches),
                static_cast<unsigned long long>(copies),
                static_cast<unsigned long long>(streams),
                static_cast<unsigned long long>(peakBytes),
                static_cast<unsigned long long>(liveBytes));
    std::fflush(stdout);
  }
};
MockState &state() {
  static MockState instance;
  return instance;
}

/// A stand-in for a CUfunction: the kernel's name.
struct MockFunction {
  std::string name;
};

// Handles for streams and events: distinct non-null pointers.
char streamHandle, eventHandle, moduleHandle;
} // namespace

/// The head of the ranked memref descriptor `gpu.host_register` passes; the
/// sizes follow the offset.
struct MockMemRef {
  char *allocated;
  char *aligned;
  int64_t offset;
};

MOCK_EXPORT void *mgpuModuleLoad(void *data, size_t size) {
  std::printf("mgpu module.load bytes=%zu\n", size);
  return &moduleHandle;
}

MOCK_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel) {
  std::printf("mgpu module.load_jit ptx_bytes=%zu opt=%d\n",
              std::strlen(static_cast<const char *>(data)), optLevel);
  return &moduleHandle;
}

MOCK_EXPORT void mgpuModuleUnload(void *module) {
  std::printf("mgpu module.unload\n");
}

MOCK_EXPORT void *mgpuModuleGetFunction(void *module, const char *name) {
  return new MockFunction{name};
}

MOCK_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                  intptr_t gridY, intptr_t gridZ,
                                  intptr_t blockX, intptr_t blockY,
                                  intptr_t blockZ, int32_t sharedMemBytes,
                                  void *stream, void **params, void **extra,
                                  size_t paramsCount) {
  ++state().launches;
  std::printf("mgpu launch %s grid=(%ld,%ld,%ld) block=(%ld,%ld,%ld) "
              "smem=%d params=%zu\n",
              static_cast<MockFunction *>(function)->name.c_str(),
              static_cast<long>(gridX), static_cast<long>(gridY),
              static_cast<long>(gridZ), static_cast<long>(blockX),
              static_cast<long>(blockY), static_cast<long>(blockZ),
              sharedMemBytes, paramsCount);
}

MOCK_EXPORT void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                                         intptr_t clusterY, intptr_t clusterZ,
                                         intptr_t gridX, intptr_t gridY,
                                         intptr_t gridZ, intptr_t blockX,
                                         intptr_t blockY, intptr_t blockZ,
                                         int32_t sharedMemBytes, void *stream,
                                         void **params, void **extra) {
  ++state().launches;
  std::printf("mgpu launch_cluster %s\n",
              static_cast<MockFunction *>(function)->name.c_str());
}

MOCK_EXPORT void *mgpuStreamCreate() {
  ++state().streams;
  return &streamHandle;
}
MOCK_EXPORT void mgpuStreamDestroy(void *stream) {}
MOCK_EXPORT void mgpuStreamSynchronize(void *stream) {}
MOCK_EXPORT void mgpuStreamWaitEvent(void *stream, void *event) {}
MOCK_EXPORT void *mgpuEventCreate() { return &eventHandle; }
MOCK_EXPORT void mgpuEventDestroy(void *event) {}
MOCK_EXPORT void mgpuEventSynchronize(void *event) {}
MOCK_EXPORT void mgpuEventRecord(void *event, void *stream) {}

MOCK_EXPORT void *mgpuMemAlloc(uint64_t bytes, void *stream,
                               bool isHostShared) {
  MockState &s = state();
  size_t size = (bytes + 255) / 256 * 256 + 256;
  void *memory = std::aligned_alloc(256, size);
  // Device memory starts with unknown contents: all-ones bytes (a NaN in
  // every float type) make a read before the first write show in results
  // instead of reading the zeros of fresh host pages.
  std::memset(memory, 0xFF, size);
  s.liveAllocations[memory] = bytes;
  s.liveBytes += bytes;
  s.peakBytes = std::max(s.peakBytes, s.liveBytes);
  ++s.allocations;
  std::printf("mgpu alloc bytes=%llu shared=%d live=%llu\n",
              static_cast<unsigned long long>(bytes), isHostShared ? 1 : 0,
              static_cast<unsigned long long>(s.liveBytes));
  return memory;
}

MOCK_EXPORT void mgpuMemFree(void *pointer, void *stream) {
  MockState &s = state();
  auto it = s.liveAllocations.find(pointer);
  if (it == s.liveAllocations.end()) {
    std::printf("mgpu free of an unknown pointer\n");
    return;
  }
  s.liveBytes -= it->second;
  std::printf("mgpu free bytes=%llu live=%llu\n",
              static_cast<unsigned long long>(it->second),
              static_cast<unsigned long long>(s.liveBytes));
  s.liveAllocations.erase(it);
  std::free(pointer);
}

MOCK_EXPORT void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  ++state().copies;
  std::memcpy(dst, src, bytes);
  std::printf("mgpu memcpy bytes=%zu\n", bytes);
}

MOCK_EXPORT void mgpuMemset32(void *dst, uint32_t value, size_t count,
                              void *stream) {
  auto *words = static_cast<uint32_t *>(dst);
  for (size_t i = 0; i < count; ++i)
    words[i] = value;
  std::printf("mgpu memset32 count=%zu\n", count);
}

MOCK_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                              void *stream) {
  auto *halves = static_cast<unsigned short *>(dst);
  for (size_t i = 0; i < count; ++i)
    halves[i] = value;
  std::printf("mgpu memset16 count=%zu\n", count);
}

MOCK_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, MockMemRef *descriptor,
                                           int64_t elementBytes) {
  const int64_t *sizes = &descriptor->offset + 1;
  int64_t elements = 1;
  for (int64_t i = 0; i < rank; ++i)
    elements *= sizes[i];
  std::printf("mgpu host_register bytes=%lld\n",
              static_cast<long long>(elements * elementBytes));
}

MOCK_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                             MockMemRef *descriptor,
                                             int64_t elementBytes) {
  std::printf("mgpu host_unregister\n");
}

MOCK_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  std::printf("mgpu set_default_device %d\n", device);
}
