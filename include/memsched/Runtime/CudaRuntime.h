//===- CudaRuntime.h - memsched's CUDA runtime entry points -----*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// The entry points memsched_cuda_runtime adds to the mgpu* ABI that lowered
// code calls. A host program (or a compiler's runtime) that loads lowered
// code with this library can read the device high-water mark, allocate the
// pinned host memory swaps go to, and write the per-kernel profile that
// memsched-import-profile reads back.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_RUNTIME_CUDARUNTIME_H
#define MEMSCHED_RUNTIME_CUDARUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The most device memory allocated through mgpuMemAlloc at once, in bytes,
/// since the start or the last memschedResetDevicePeak().
uint64_t memschedDevicePeakBytes(void);
/// Device memory allocated through mgpuMemAlloc and not yet freed, in bytes.
uint64_t memschedDeviceLiveBytes(void);
/// Restarts the high-water mark at the live bytes.
void memschedResetDevicePeak(void);
/// Page-locked host memory (cuMemHostAlloc), usable by asynchronous copies.
void *memschedHostArenaAlloc(uint64_t bytes);
/// Frees memory from memschedHostArenaAlloc.
void memschedHostArenaFree(void *memory);
/// Writes the profile (the format of MEMSCHED_PROFILE, docs/gpu.md) to
/// `path`; returns 0 on success.
int memschedWriteProfile(const char *path);

#ifdef __cplusplus
}
#endif

#endif // MEMSCHED_RUNTIME_CUDARUNTIME_H
