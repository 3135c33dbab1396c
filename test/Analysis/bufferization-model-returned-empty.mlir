// RUN: memsched-opt %s --mlir-disable-threading -test-memsched-check-bufferization-model -o /dev/null | FileCheck %s
// RUN: memsched-opt %s --mlir-disable-threading -test-memsched-print-peak-memory -o /dev/null | FileCheck %s --check-prefix=PEAK

// A tensor.empty
// that is returned without any op writing it is still allocated (the return
// is its first use) and live to the end.

// Tests that a returned tensor.empty counts as a live transient buffer.

// 16*4 = 64 bytes, returned.
// CHECK: bufferization-model @returned_empty predicted 64 bufferized 64{{$}}
// resident 0; peak_transient 64 (live at the only step); lower_bound = 0 +
// returned 64.
// PEAK: peak-memory @returned_empty resident 0 peak_transient 64 peak 64 lower_bound 64 max_live 64 peak_step 0{{$}}
// PEAK-NEXT: step 0 tensor.empty live 64{{$}}
func.func @returned_empty() -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  return %e : tensor<16xf32>
}
