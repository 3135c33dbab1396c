//===- SplitMix64.h - A small portable random generator ---------*- C++ -*-===//
//
// Part of the memsched project.
//
//===----------------------------------------------------------------------===//
//
// SplitMix64 (Steele, Lea and Flood): the same sequence from a seed on every
// platform and standard library, which std::uniform_*_distribution does not
// promise. Benchmarks and tests that print or pin random instances use it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMSCHED_SCHEDULING_SPLITMIX64_H
#define MEMSCHED_SCHEDULING_SPLITMIX64_H

#include <cstdint>

namespace mlir {
namespace memsched {
namespace scheduling {

class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [low, high] (modulo bias is negligible for small ranges).
  int64_t uniform(int64_t low, int64_t high) {
    return low + static_cast<int64_t>(next() % uint64_t(high - low + 1));
  }
  /// Uniform in [low, high) with 53 random bits.
  double uniformReal(double low, double high) {
    return low + (high - low) * double(next() >> 11) / double(1ULL << 53);
  }

private:
  uint64_t state;
};

} // namespace scheduling
} // namespace memsched
} // namespace mlir

#endif // MEMSCHED_SCHEDULING_SPLITMIX64_H
