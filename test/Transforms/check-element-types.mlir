// RUN: rm -rf %t && split-file %s %t
// RUN: memsched-opt %t/f8-argument.mlir -verify-diagnostics -memsched-to-cpu-pipeline -o /dev/null
// RUN: memsched-opt %t/f4-result.mlir -verify-diagnostics -memsched-to-cpu-pipeline -o /dev/null
// RUN: memsched-opt %t/tf32-scalar.mlir -verify-diagnostics -memsched-check-element-types -o /dev/null
// RUN: memsched-opt %t/supported.mlir -memsched-check-element-types | FileCheck %s --check-prefix=SUPPORTED
// RUN: memsched-opt %t/supported.mlir -memsched-to-cpu-pipeline -o /dev/null

// Tests that the lowering pipelines refuse float element types the LLVM
// lowering cannot store, up front and by name (before, f8 types failed
// inside the arith-to-LLVM conversion, or the pipeline ended with IR that
// is not LLVM dialect), and accept every supported one unchanged.

//--- f8-argument.mlir
// expected-error @below {{memsched-check-element-types: element type 'f8E4M3FN' cannot be lowered (the LLVM lowering stores the float types f16, bf16, f32, f64, f80 and f128)}}
func.func @f(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  return %x : tensor<4xf8E4M3FN>
}

//--- f4-result.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf4E2M1FN> {
  // expected-error @below {{memsched-check-element-types: element type 'f4E2M1FN' cannot be lowered}}
  %t = arith.truncf %x : tensor<4xf32> to tensor<4xf4E2M1FN>
  return %t : tensor<4xf4E2M1FN>
}

//--- tf32-scalar.mlir
func.func @f(%x: f32) -> tf32 {
  // expected-error @below {{element type 'tf32' cannot be lowered}}
  %t = arith.truncf %x : f32 to tf32
  return %t : tf32
}

//--- supported.mlir
// SUPPORTED-LABEL: func.func @f
func.func @f(%a: tensor<4xf16>, %b: tensor<4xbf16>, %c: tensor<4xf64>, %d: tensor<4xi24>, %e: tensor<4xcomplex<f32>>) -> (tensor<4xf16>, tensor<4xbf16>, tensor<4xf64>, tensor<4xi24>, tensor<4xcomplex<f32>>) {
  return %a, %b, %c, %d, %e : tensor<4xf16>, tensor<4xbf16>, tensor<4xf64>, tensor<4xi24>, tensor<4xcomplex<f32>>
}
