// RUN: memsched-opt %s -memsched-exec-harness=func=compute | FileCheck %s --check-prefix=HARNESS
// RUN: memsched-opt %s -memsched-exec-harness=func=compute -memsched-to-cpu-pipeline | %run_harness | FileCheck %s --check-prefix=EXEC --match-full-lines
// RUN: memsched-opt %s -memsched-exec-harness="func=options seed=100 int-modulus=7" | FileCheck %s --check-prefix=HARNESS-OPTS
// RUN: memsched-opt %s -memsched-exec-harness="func=options seed=100 int-modulus=7" -memsched-to-cpu-pipeline | %run_harness | FileCheck %s --check-prefix=EXEC-OPTS --match-full-lines

// Tests the main function that memsched-exec-harness adds (inputs built by
// the documented formula, one call, bit patterns printed per result) and the
// exact output of running it.
//
// Inputs (seed 0, int-modulus 10): element k of argument i is
//   floats: ((26k + 31i + seed) mod 127 - 63) / 128
//   ints:   (3k + i + seed) mod int-modulus;  i1: k mod 2
// and scalar arguments take element k = 0.
//   %a (i = 0, 2x2xf32): (26k mod 127 - 63)/128, k = 0..3:
//       -63/128, -37/128, -11/128, 15/128
//   %b (i = 1, 2x2xf32): ((26k + 31) mod 127 - 63)/128:
//       -32/128, -6/128, 20/128, 46/128
//   %n (i = 2, 3xi64): (3k + 2) mod 10 = 2, 5, 8
//   %s (i = 3, f32):   (93 mod 127 - 63)/128 = 30/128
//   %m (i = 4, 3xi1):  k mod 2 = 0, 1, 0
//   %k (i = 5, i64):   5 mod 10 = 5

// HARNESS-LABEL: func.func @memsched_main() attributes {memsched.host} {
// Tensor arguments are filled by a linalg.generic over an empty tensor.
// HARNESS:       %[[A:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x2xf32>)
// HARNESS:         linalg.index 0
// HARNESS:         linalg.index 1
// HARNESS:         arith.constant 26 : i64
// HARNESS:         arith.constant 127 : i64
// HARNESS:         arith.constant 63 : i64
// HARNESS:         arith.constant 1.280000e+02 : f32
// HARNESS:       } -> tensor<2x2xf32>
// Argument 1 adds 31 * 1 = 31.
// HARNESS:       %[[B:.*]] = linalg.generic
// HARNESS:         arith.constant 31 : i64
// HARNESS:       } -> tensor<2x2xf32>
// Argument 2 (ints) adds 2 mod 10 = 2 and takes the rest modulo 10.
// HARNESS:       %[[N:.*]] = linalg.generic
// HARNESS:         arith.constant 3 : i64
// HARNESS:         arith.constant 2 : i64
// HARNESS:         arith.constant 10 : i64
// HARNESS:       } -> tensor<3xi64>
// Argument 3 (a scalar f32) adds 31 * 3 = 93.
// HARNESS:       arith.constant 93 : i64
// HARNESS:       %[[S:.*]] = arith.divf
// i1 elements are k mod 2: no multiplier, modulus 2.
// HARNESS:       %[[M:.*]] = linalg.generic
// HARNESS:         arith.constant 2 : i64
// HARNESS:         arith.trunci %{{.*}} : i64 to i1
// HARNESS:       } -> tensor<3xi1>
// Argument 5 (a scalar i64) adds 5.
// HARNESS:       arith.constant 5 : i64
// HARNESS:       %[[K:.*]] = arith.remui
// HARNESS:       %[[R:.*]]:6 = call @compute(%[[A]], %[[B]], %[[N]], %[[S]], %[[M]], %[[K]])
// HARNESS-NEXT:  vector.print str "memsched-result 0 tensor<2x2xf32>\0A"
// Ranked results are flattened and printed element by element; floats as
// integers of the same width.
// HARNESS-NEXT:  %[[FLAT:.*]] = tensor.collapse_shape %[[R]]#0 {{\[\[}}0, 1]] : tensor<2x2xf32> into tensor<4xf32>
// HARNESS:       scf.for
// HARNESS-NEXT:    %[[E:.*]] = tensor.extract %[[FLAT]]
// HARNESS-NEXT:    %[[BITS:.*]] = arith.bitcast %[[E]] : f32 to i32
// HARNESS-NEXT:    vector.print %[[BITS]] : i32
// A 0-d result is extracted once.
// HARNESS:       vector.print str "memsched-result 1 tensor<f32>\0A"
// HARNESS-NEXT:  %[[E1:.*]] = tensor.extract %[[R]]#1[] : tensor<f32>
// HARNESS-NEXT:  %[[BITS1:.*]] = arith.bitcast %[[E1]] : f32 to i32
// HARNESS-NEXT:  vector.print %[[BITS1]] : i32
// HARNESS-NEXT:  vector.print str "memsched-result 2 f32\0A"
// HARNESS-NEXT:  %[[BITS2:.*]] = arith.bitcast %[[R]]#2 : f32 to i32
// HARNESS-NEXT:  vector.print %[[BITS2]] : i32
// HARNESS-NEXT:  vector.print str "memsched-result 3 tensor<3xi64>\0A"
// A 1-d result is not collapsed.
// HARNESS-NOT:   tensor.collapse_shape
// HARNESS:       tensor.extract %[[R]]#3[
// HARNESS-NEXT:  vector.print %{{.*}} : i64
// HARNESS:       vector.print str "memsched-result 4 tensor<3xi1>\0A"
// HARNESS:       tensor.extract %[[R]]#4[
// HARNESS-NEXT:  vector.print %{{.*}} : i1
// HARNESS:       vector.print str "memsched-result 5 i64\0A"
// HARNESS-NEXT:  vector.print %[[R]]#5 : i64
// HARNESS-NEXT:  return

// Result 0 = %a + %b: (-63-32, -37-6, -11+20, 15+46)/128 = (-95, -43, 9, 61)/128.
// EXEC:      memsched-result 0 tensor<2x2xf32>
// -95/128 = -0.7421875 = -1.484375 * 2^-1: sign 1, exponent 126 (0x3F000000),
// fraction 0.484375 = 31/64 -> 31 * 2^17 = 0x3E0000; bits 0xBF3E0000 =
// 3208511488 - 2^32 = -1086455808.
// EXEC-NEXT: -1086455808
// -43/128 = -0.3359375 = -1.34375 * 2^-2: exponent 125 (0x3E800000),
// fraction 11/32 -> 11 * 2^18 = 0x2C0000; bits 0xBEAC0000 = -1096024064.
// EXEC-NEXT: -1096024064
// 9/128 = 0.0703125 = 1.125 * 2^-4: exponent 123 (0x3D800000), fraction 1/8
// -> 2^20 = 0x100000; bits 0x3D900000 = 1032847360.
// EXEC-NEXT: 1032847360
// 61/128 = 0.4765625 = 1.90625 * 2^-2: exponent 125 (0x3E800000), fraction
// 29/32 -> 29 * 2^18 = 0x740000; bits 0x3EF40000 = 1056178176.
// EXEC-NEXT: 1056178176
// Result 1 = sum of %a = (-63 - 37 - 11 + 15)/128 = -96/128 = -0.75
// = -1.5 * 2^-1: exponent 126, fraction 0.5 -> 0x400000; bits 0xBF400000 =
// -1086324736.
// EXEC-NEXT: memsched-result 1 tensor<f32>
// EXEC-NEXT: -1086324736
// Result 2 = %s * %s = (30/128)^2 = 900/16384 = 0.054931640625 = 1.7578125 *
// 2^-5: exponent 122 (0x3D000000), fraction 97/128 -> 97 * 2^16 = 0x610000;
// bits 0x3D610000 = 1029767168.
// EXEC-NEXT: memsched-result 2 f32
// EXEC-NEXT: 1029767168
// Result 3 = %n + %n = 4, 10, 16.
// EXEC-NEXT: memsched-result 3 tensor<3xi64>
// EXEC-NEXT: 4
// EXEC-NEXT: 10
// EXEC-NEXT: 16
// Result 4 = not %m = 1, 0, 1.
// EXEC-NEXT: memsched-result 4 tensor<3xi1>
// EXEC-NEXT: 1
// EXEC-NEXT: 0
// EXEC-NEXT: 1
// Result 5 = %k * %k = 25.
// EXEC-NEXT: memsched-result 5 i64
// EXEC-NEXT: 25
// EXEC-NOT:  {{.}}
func.func @compute(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %n: tensor<3xi64>,
                   %s: f32, %m: tensor<3xi1>, %k: i64)
    -> (tensor<2x2xf32>, tensor<f32>, f32, tensor<3xi64>, tensor<3xi1>, i64) {
  %e = tensor.empty() : tensor<2x2xf32>
  %sum = linalg.add ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>)
                    outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %total = linalg.reduce ins(%a : tensor<2x2xf32>) outs(%acc : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %init: f32) {
      %t = arith.addf %init, %in : f32
      linalg.yield %t : f32
    }
  %sq = arith.mulf %s, %s : f32
  %en = tensor.empty() : tensor<3xi64>
  %n2 = linalg.add ins(%n, %n : tensor<3xi64>, tensor<3xi64>)
                   outs(%en : tensor<3xi64>) -> tensor<3xi64>
  %em = tensor.empty() : tensor<3xi1>
  %true = arith.constant true
  %notm = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                          iterator_types = ["parallel"]}
      ins(%m : tensor<3xi1>) outs(%em : tensor<3xi1>) {
    ^bb0(%in: i1, %out: i1):
      %x = arith.xori %in, %true : i1
      linalg.yield %x : i1
  } -> tensor<3xi1>
  %kk = arith.muli %k, %k : i64
  return %sum, %total, %sq, %n2, %notm, %kk
      : tensor<2x2xf32>, tensor<f32>, f32, tensor<3xi64>, tensor<3xi1>, i64
}

// With seed 100 and int-modulus 7:
//   %i (i = 0, 4xi32): (3k + 0 + 100) mod 7 = (3k + 2) mod 7 = 2, 5, 1, 4
//   %x (i = 1, 2xf32): ((26k + 31 + 100) mod 127 - 63)/128
//       = ((26k + 4) mod 127 - 63)/128 = -59/128, -33/128

// HARNESS-OPTS-LABEL: func.func @memsched_main() attributes {memsched.host} {
// 100 mod 7 = 2, then modulo 7.
// HARNESS-OPTS:       arith.constant 2 : i64
// HARNESS-OPTS:       arith.constant 7 : i64
// HARNESS-OPTS:       arith.trunci %{{.*}} : i64 to i32
// (31 + 100) mod 127 = 4.
// HARNESS-OPTS:       arith.constant 4 : i64
// HARNESS-OPTS:       call @options(

// EXEC-OPTS:      memsched-result 0 tensor<4xi32>
// EXEC-OPTS-NEXT: 2
// EXEC-OPTS-NEXT: 5
// EXEC-OPTS-NEXT: 1
// EXEC-OPTS-NEXT: 4
// EXEC-OPTS-NEXT: memsched-result 1 tensor<2xf32>
// -59/128 = -0.4609375 = -1.84375 * 2^-2: exponent 125 (0x3E800000), fraction
// 27/32 -> 27 * 2^18 = 0x6C0000; bits 0xBEEC0000 = -1091829760.
// EXEC-OPTS-NEXT: -1091829760
// -33/128 = -0.2578125 = -1.03125 * 2^-2: exponent 125, fraction 1/32 ->
// 2^18 = 0x40000; bits 0xBE840000 = -1098645504.
// EXEC-OPTS-NEXT: -1098645504
// EXEC-OPTS-NOT:  {{.}}
func.func @options(%i: tensor<4xi32>, %x: tensor<2xf32>) -> (tensor<4xi32>, tensor<2xf32>) {
  %ei = tensor.empty() : tensor<4xi32>
  %ci = linalg.copy ins(%i : tensor<4xi32>) outs(%ei : tensor<4xi32>) -> tensor<4xi32>
  %ex = tensor.empty() : tensor<2xf32>
  %cx = linalg.copy ins(%x : tensor<2xf32>) outs(%ex : tensor<2xf32>) -> tensor<2xf32>
  return %ci, %cx : tensor<4xi32>, tensor<2xf32>
}
