// A deep MLP training step (8 tanh layers of width 32, batch 64):
// activations dominate its memory, which makes it the small
// example for recomputation. Regenerate with examples/generate_chain.py.
// Exported by memsched.torch from torch 1.13.0a0.
// Arguments:
//   %arg0  0.weight  tensor<32x32xf32>
//   %arg1  0.bias  tensor<32xf32>
//   %arg2  2.weight  tensor<32x32xf32>
//   %arg3  2.bias  tensor<32xf32>
//   %arg4  4.weight  tensor<32x32xf32>
//   %arg5  4.bias  tensor<32xf32>
//   %arg6  6.weight  tensor<32x32xf32>
//   %arg7  6.bias  tensor<32xf32>
//   %arg8  8.weight  tensor<32x32xf32>
//   %arg9  8.bias  tensor<32xf32>
//   %arg10  10.weight  tensor<32x32xf32>
//   %arg11  10.bias  tensor<32xf32>
//   %arg12  12.weight  tensor<32x32xf32>
//   %arg13  12.bias  tensor<32xf32>
//   %arg14  14.weight  tensor<32x32xf32>
//   %arg15  14.bias  tensor<32xf32>
//   %arg16  16.weight  tensor<10x32xf32>
//   %arg17  16.bias  tensor<10xf32>
//   %arg18  input0  tensor<64x32xf32>
//   %arg19  target  tensor<64xi64>
// Results: loss, grad:0.weight, grad:0.bias, grad:2.weight, grad:2.bias, grad:4.weight, grad:4.bias, grad:6.weight, grad:6.bias, grad:8.weight, grad:8.bias, grad:10.weight, grad:10.bias, grad:12.weight, grad:12.bias, grad:14.weight, grad:14.bias, grad:16.weight, grad:16.bias
module {
  func.func @train_step(%arg0: tensor<32x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32x32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32x32xf32>, %arg5: tensor<32xf32>, %arg6: tensor<32x32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<32x32xf32>, %arg9: tensor<32xf32>, %arg10: tensor<32x32xf32>, %arg11: tensor<32xf32>, %arg12: tensor<32x32xf32>, %arg13: tensor<32xf32>, %arg14: tensor<32x32xf32>, %arg15: tensor<32xf32>, %arg16: tensor<10x32xf32>, %arg17: tensor<10xf32>, %arg18: tensor<64x32xf32>, %arg19: tensor<64xi64>) -> (tensor<f32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>) {
    %t1 = tensor.empty() : tensor<64x32xf32>
    %t2 = arith.constant 0x00000000 : f32
    %t3 = linalg.fill ins(%t2 : f32) outs(%t1 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("0:aten.mm.default")
    %t4 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%arg18, %arg0 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t3 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("0:aten.mm.default")
    %t5 = tensor.empty() : tensor<64x32xf32>
    %t10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t4 : tensor<64x32xf32>) outs(%t5 : tensor<64x32xf32>) {
    ^bb0(%a6: f32, %a7: f32):
      %v8 = arith.constant 0x3F800000 : f32
      %v9 = arith.mulf %a6, %v8 : f32
      linalg.yield %v9 : f32
    } -> tensor<64x32xf32> loc("0:aten.mul.Tensor")
    %t11 = tensor.empty() : tensor<32xf32>
    %t16 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1 : tensor<32xf32>) outs(%t11 : tensor<32xf32>) {
    ^bb0(%a12: f32, %a13: f32):
      %v14 = arith.constant 0x3F800000 : f32
      %v15 = arith.mulf %a12, %v14 : f32
      linalg.yield %v15 : f32
    } -> tensor<32xf32> loc("0:aten.mul.Tensor")
    %t17 = tensor.empty() : tensor<64x32xf32>
    %t22 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t16, %t10 : tensor<32xf32>, tensor<64x32xf32>) outs(%t17 : tensor<64x32xf32>) {
    ^bb0(%a18: f32, %a19: f32, %a20: f32):
      %v21 = arith.addf %a18, %a19 : f32
      linalg.yield %v21 : f32
    } -> tensor<64x32xf32> loc("0:aten.add.Tensor")
    %t23 = tensor.empty() : tensor<64x32xf32>
    %t27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t22 : tensor<64x32xf32>) outs(%t23 : tensor<64x32xf32>) {
    ^bb0(%a24: f32, %a25: f32):
      %v26 = math.tanh %a24 : f32
      linalg.yield %v26 : f32
    } -> tensor<64x32xf32> loc("1:aten.tanh.default")
    %t28 = tensor.empty() : tensor<64x32xf32>
    %t29 = arith.constant 0x00000000 : f32
    %t30 = linalg.fill ins(%t29 : f32) outs(%t28 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("2:aten.mm.default")
    %t31 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t27, %arg2 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t30 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("2:aten.mm.default")
    %t32 = tensor.empty() : tensor<64x32xf32>
    %t37 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t31 : tensor<64x32xf32>) outs(%t32 : tensor<64x32xf32>) {
    ^bb0(%a33: f32, %a34: f32):
      %v35 = arith.constant 0x3F800000 : f32
      %v36 = arith.mulf %a33, %v35 : f32
      linalg.yield %v36 : f32
    } -> tensor<64x32xf32> loc("2:aten.mul.Tensor")
    %t38 = tensor.empty() : tensor<32xf32>
    %t43 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg3 : tensor<32xf32>) outs(%t38 : tensor<32xf32>) {
    ^bb0(%a39: f32, %a40: f32):
      %v41 = arith.constant 0x3F800000 : f32
      %v42 = arith.mulf %a39, %v41 : f32
      linalg.yield %v42 : f32
    } -> tensor<32xf32> loc("2:aten.mul.Tensor")
    %t44 = tensor.empty() : tensor<64x32xf32>
    %t49 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t43, %t37 : tensor<32xf32>, tensor<64x32xf32>) outs(%t44 : tensor<64x32xf32>) {
    ^bb0(%a45: f32, %a46: f32, %a47: f32):
      %v48 = arith.addf %a45, %a46 : f32
      linalg.yield %v48 : f32
    } -> tensor<64x32xf32> loc("2:aten.add.Tensor")
    %t50 = tensor.empty() : tensor<64x32xf32>
    %t54 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t49 : tensor<64x32xf32>) outs(%t50 : tensor<64x32xf32>) {
    ^bb0(%a51: f32, %a52: f32):
      %v53 = math.tanh %a51 : f32
      linalg.yield %v53 : f32
    } -> tensor<64x32xf32> loc("3:aten.tanh.default")
    %t55 = tensor.empty() : tensor<64x32xf32>
    %t56 = arith.constant 0x00000000 : f32
    %t57 = linalg.fill ins(%t56 : f32) outs(%t55 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("4:aten.mm.default")
    %t58 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t54, %arg4 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t57 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("4:aten.mm.default")
    %t59 = tensor.empty() : tensor<64x32xf32>
    %t64 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t58 : tensor<64x32xf32>) outs(%t59 : tensor<64x32xf32>) {
    ^bb0(%a60: f32, %a61: f32):
      %v62 = arith.constant 0x3F800000 : f32
      %v63 = arith.mulf %a60, %v62 : f32
      linalg.yield %v63 : f32
    } -> tensor<64x32xf32> loc("4:aten.mul.Tensor")
    %t65 = tensor.empty() : tensor<32xf32>
    %t70 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg5 : tensor<32xf32>) outs(%t65 : tensor<32xf32>) {
    ^bb0(%a66: f32, %a67: f32):
      %v68 = arith.constant 0x3F800000 : f32
      %v69 = arith.mulf %a66, %v68 : f32
      linalg.yield %v69 : f32
    } -> tensor<32xf32> loc("4:aten.mul.Tensor")
    %t71 = tensor.empty() : tensor<64x32xf32>
    %t76 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t70, %t64 : tensor<32xf32>, tensor<64x32xf32>) outs(%t71 : tensor<64x32xf32>) {
    ^bb0(%a72: f32, %a73: f32, %a74: f32):
      %v75 = arith.addf %a72, %a73 : f32
      linalg.yield %v75 : f32
    } -> tensor<64x32xf32> loc("4:aten.add.Tensor")
    %t77 = tensor.empty() : tensor<64x32xf32>
    %t81 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t76 : tensor<64x32xf32>) outs(%t77 : tensor<64x32xf32>) {
    ^bb0(%a78: f32, %a79: f32):
      %v80 = math.tanh %a78 : f32
      linalg.yield %v80 : f32
    } -> tensor<64x32xf32> loc("5:aten.tanh.default")
    %t82 = tensor.empty() : tensor<64x32xf32>
    %t83 = arith.constant 0x00000000 : f32
    %t84 = linalg.fill ins(%t83 : f32) outs(%t82 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("6:aten.mm.default")
    %t85 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t81, %arg6 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t84 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("6:aten.mm.default")
    %t86 = tensor.empty() : tensor<64x32xf32>
    %t91 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t85 : tensor<64x32xf32>) outs(%t86 : tensor<64x32xf32>) {
    ^bb0(%a87: f32, %a88: f32):
      %v89 = arith.constant 0x3F800000 : f32
      %v90 = arith.mulf %a87, %v89 : f32
      linalg.yield %v90 : f32
    } -> tensor<64x32xf32> loc("6:aten.mul.Tensor")
    %t92 = tensor.empty() : tensor<32xf32>
    %t97 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg7 : tensor<32xf32>) outs(%t92 : tensor<32xf32>) {
    ^bb0(%a93: f32, %a94: f32):
      %v95 = arith.constant 0x3F800000 : f32
      %v96 = arith.mulf %a93, %v95 : f32
      linalg.yield %v96 : f32
    } -> tensor<32xf32> loc("6:aten.mul.Tensor")
    %t98 = tensor.empty() : tensor<64x32xf32>
    %t103 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t97, %t91 : tensor<32xf32>, tensor<64x32xf32>) outs(%t98 : tensor<64x32xf32>) {
    ^bb0(%a99: f32, %a100: f32, %a101: f32):
      %v102 = arith.addf %a99, %a100 : f32
      linalg.yield %v102 : f32
    } -> tensor<64x32xf32> loc("6:aten.add.Tensor")
    %t104 = tensor.empty() : tensor<64x32xf32>
    %t108 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t103 : tensor<64x32xf32>) outs(%t104 : tensor<64x32xf32>) {
    ^bb0(%a105: f32, %a106: f32):
      %v107 = math.tanh %a105 : f32
      linalg.yield %v107 : f32
    } -> tensor<64x32xf32> loc("7:aten.tanh.default")
    %t109 = tensor.empty() : tensor<64x32xf32>
    %t110 = arith.constant 0x00000000 : f32
    %t111 = linalg.fill ins(%t110 : f32) outs(%t109 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("8:aten.mm.default")
    %t112 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t108, %arg8 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t111 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("8:aten.mm.default")
    %t113 = tensor.empty() : tensor<64x32xf32>
    %t118 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t112 : tensor<64x32xf32>) outs(%t113 : tensor<64x32xf32>) {
    ^bb0(%a114: f32, %a115: f32):
      %v116 = arith.constant 0x3F800000 : f32
      %v117 = arith.mulf %a114, %v116 : f32
      linalg.yield %v117 : f32
    } -> tensor<64x32xf32> loc("8:aten.mul.Tensor")
    %t119 = tensor.empty() : tensor<32xf32>
    %t124 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg9 : tensor<32xf32>) outs(%t119 : tensor<32xf32>) {
    ^bb0(%a120: f32, %a121: f32):
      %v122 = arith.constant 0x3F800000 : f32
      %v123 = arith.mulf %a120, %v122 : f32
      linalg.yield %v123 : f32
    } -> tensor<32xf32> loc("8:aten.mul.Tensor")
    %t125 = tensor.empty() : tensor<64x32xf32>
    %t130 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t124, %t118 : tensor<32xf32>, tensor<64x32xf32>) outs(%t125 : tensor<64x32xf32>) {
    ^bb0(%a126: f32, %a127: f32, %a128: f32):
      %v129 = arith.addf %a126, %a127 : f32
      linalg.yield %v129 : f32
    } -> tensor<64x32xf32> loc("8:aten.add.Tensor")
    %t131 = tensor.empty() : tensor<64x32xf32>
    %t135 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t130 : tensor<64x32xf32>) outs(%t131 : tensor<64x32xf32>) {
    ^bb0(%a132: f32, %a133: f32):
      %v134 = math.tanh %a132 : f32
      linalg.yield %v134 : f32
    } -> tensor<64x32xf32> loc("9:aten.tanh.default")
    %t136 = tensor.empty() : tensor<64x32xf32>
    %t137 = arith.constant 0x00000000 : f32
    %t138 = linalg.fill ins(%t137 : f32) outs(%t136 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("10:aten.mm.default")
    %t139 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t135, %arg10 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t138 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("10:aten.mm.default")
    %t140 = tensor.empty() : tensor<64x32xf32>
    %t145 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t139 : tensor<64x32xf32>) outs(%t140 : tensor<64x32xf32>) {
    ^bb0(%a141: f32, %a142: f32):
      %v143 = arith.constant 0x3F800000 : f32
      %v144 = arith.mulf %a141, %v143 : f32
      linalg.yield %v144 : f32
    } -> tensor<64x32xf32> loc("10:aten.mul.Tensor")
    %t146 = tensor.empty() : tensor<32xf32>
    %t151 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg11 : tensor<32xf32>) outs(%t146 : tensor<32xf32>) {
    ^bb0(%a147: f32, %a148: f32):
      %v149 = arith.constant 0x3F800000 : f32
      %v150 = arith.mulf %a147, %v149 : f32
      linalg.yield %v150 : f32
    } -> tensor<32xf32> loc("10:aten.mul.Tensor")
    %t152 = tensor.empty() : tensor<64x32xf32>
    %t157 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t151, %t145 : tensor<32xf32>, tensor<64x32xf32>) outs(%t152 : tensor<64x32xf32>) {
    ^bb0(%a153: f32, %a154: f32, %a155: f32):
      %v156 = arith.addf %a153, %a154 : f32
      linalg.yield %v156 : f32
    } -> tensor<64x32xf32> loc("10:aten.add.Tensor")
    %t158 = tensor.empty() : tensor<64x32xf32>
    %t162 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t157 : tensor<64x32xf32>) outs(%t158 : tensor<64x32xf32>) {
    ^bb0(%a159: f32, %a160: f32):
      %v161 = math.tanh %a159 : f32
      linalg.yield %v161 : f32
    } -> tensor<64x32xf32> loc("11:aten.tanh.default")
    %t163 = tensor.empty() : tensor<64x32xf32>
    %t164 = arith.constant 0x00000000 : f32
    %t165 = linalg.fill ins(%t164 : f32) outs(%t163 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("12:aten.mm.default")
    %t166 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t162, %arg12 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t165 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("12:aten.mm.default")
    %t167 = tensor.empty() : tensor<64x32xf32>
    %t172 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t166 : tensor<64x32xf32>) outs(%t167 : tensor<64x32xf32>) {
    ^bb0(%a168: f32, %a169: f32):
      %v170 = arith.constant 0x3F800000 : f32
      %v171 = arith.mulf %a168, %v170 : f32
      linalg.yield %v171 : f32
    } -> tensor<64x32xf32> loc("12:aten.mul.Tensor")
    %t173 = tensor.empty() : tensor<32xf32>
    %t178 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg13 : tensor<32xf32>) outs(%t173 : tensor<32xf32>) {
    ^bb0(%a174: f32, %a175: f32):
      %v176 = arith.constant 0x3F800000 : f32
      %v177 = arith.mulf %a174, %v176 : f32
      linalg.yield %v177 : f32
    } -> tensor<32xf32> loc("12:aten.mul.Tensor")
    %t179 = tensor.empty() : tensor<64x32xf32>
    %t184 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t178, %t172 : tensor<32xf32>, tensor<64x32xf32>) outs(%t179 : tensor<64x32xf32>) {
    ^bb0(%a180: f32, %a181: f32, %a182: f32):
      %v183 = arith.addf %a180, %a181 : f32
      linalg.yield %v183 : f32
    } -> tensor<64x32xf32> loc("12:aten.add.Tensor")
    %t185 = tensor.empty() : tensor<64x32xf32>
    %t189 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t184 : tensor<64x32xf32>) outs(%t185 : tensor<64x32xf32>) {
    ^bb0(%a186: f32, %a187: f32):
      %v188 = math.tanh %a186 : f32
      linalg.yield %v188 : f32
    } -> tensor<64x32xf32> loc("13:aten.tanh.default")
    %t190 = tensor.empty() : tensor<64x32xf32>
    %t191 = arith.constant 0x00000000 : f32
    %t192 = linalg.fill ins(%t191 : f32) outs(%t190 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("14:aten.mm.default")
    %t193 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t189, %arg14 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t192 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("14:aten.mm.default")
    %t194 = tensor.empty() : tensor<64x32xf32>
    %t199 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t193 : tensor<64x32xf32>) outs(%t194 : tensor<64x32xf32>) {
    ^bb0(%a195: f32, %a196: f32):
      %v197 = arith.constant 0x3F800000 : f32
      %v198 = arith.mulf %a195, %v197 : f32
      linalg.yield %v198 : f32
    } -> tensor<64x32xf32> loc("14:aten.mul.Tensor")
    %t200 = tensor.empty() : tensor<32xf32>
    %t205 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg15 : tensor<32xf32>) outs(%t200 : tensor<32xf32>) {
    ^bb0(%a201: f32, %a202: f32):
      %v203 = arith.constant 0x3F800000 : f32
      %v204 = arith.mulf %a201, %v203 : f32
      linalg.yield %v204 : f32
    } -> tensor<32xf32> loc("14:aten.mul.Tensor")
    %t206 = tensor.empty() : tensor<64x32xf32>
    %t211 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t205, %t199 : tensor<32xf32>, tensor<64x32xf32>) outs(%t206 : tensor<64x32xf32>) {
    ^bb0(%a207: f32, %a208: f32, %a209: f32):
      %v210 = arith.addf %a207, %a208 : f32
      linalg.yield %v210 : f32
    } -> tensor<64x32xf32> loc("14:aten.add.Tensor")
    %t212 = tensor.empty() : tensor<64x32xf32>
    %t216 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t211 : tensor<64x32xf32>) outs(%t212 : tensor<64x32xf32>) {
    ^bb0(%a213: f32, %a214: f32):
      %v215 = math.tanh %a213 : f32
      linalg.yield %v215 : f32
    } -> tensor<64x32xf32> loc("15:aten.tanh.default")
    %t217 = tensor.empty() : tensor<64x10xf32>
    %t218 = arith.constant 0x00000000 : f32
    %t219 = linalg.fill ins(%t218 : f32) outs(%t217 : tensor<64x10xf32>) -> tensor<64x10xf32> loc("16:aten.mm.default")
    %t220 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t216, %arg16 : tensor<64x32xf32>, tensor<10x32xf32>) outs(%t219 : tensor<64x10xf32>) -> tensor<64x10xf32> loc("16:aten.mm.default")
    %t221 = tensor.empty() : tensor<64x10xf32>
    %t226 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t220 : tensor<64x10xf32>) outs(%t221 : tensor<64x10xf32>) {
    ^bb0(%a222: f32, %a223: f32):
      %v224 = arith.constant 0x3F800000 : f32
      %v225 = arith.mulf %a222, %v224 : f32
      linalg.yield %v225 : f32
    } -> tensor<64x10xf32> loc("16:aten.mul.Tensor")
    %t227 = tensor.empty() : tensor<10xf32>
    %t232 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg17 : tensor<10xf32>) outs(%t227 : tensor<10xf32>) {
    ^bb0(%a228: f32, %a229: f32):
      %v230 = arith.constant 0x3F800000 : f32
      %v231 = arith.mulf %a228, %v230 : f32
      linalg.yield %v231 : f32
    } -> tensor<10xf32> loc("16:aten.mul.Tensor")
    %t233 = tensor.empty() : tensor<64x10xf32>
    %t238 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t232, %t226 : tensor<10xf32>, tensor<64x10xf32>) outs(%t233 : tensor<64x10xf32>) {
    ^bb0(%a234: f32, %a235: f32, %a236: f32):
      %v237 = arith.addf %a234, %a235 : f32
      linalg.yield %v237 : f32
    } -> tensor<64x10xf32> loc("16:aten.add.Tensor")
    %t239 = tensor.empty() : tensor<64xf32>
    %t240 = arith.constant 0xFF800000 : f32
    %t241 = linalg.fill ins(%t240 : f32) outs(%t239 : tensor<64xf32>) -> tensor<64xf32> loc("backward:aten.amax.default")
    %t245 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t238 : tensor<64x10xf32>) outs(%t241 : tensor<64xf32>) {
    ^bb0(%a242: f32, %a243: f32):
      %v244 = arith.maximumf %a243, %a242 : f32
      linalg.yield %v244 : f32
    } -> tensor<64xf32> loc("backward:aten.amax.default")
    %t246 = tensor.expand_shape %t245 [[0, 1]] output_shape [64, 1] : tensor<64xf32> into tensor<64x1xf32> loc("backward:aten.amax.default")
    %t247 = tensor.empty() : tensor<64x10xf32>
    %t252 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t238, %t246 : tensor<64x10xf32>, tensor<64x1xf32>) outs(%t247 : tensor<64x10xf32>) {
    ^bb0(%a248: f32, %a249: f32, %a250: f32):
      %v251 = arith.subf %a248, %a249 : f32
      linalg.yield %v251 : f32
    } -> tensor<64x10xf32> loc("backward:aten.sub.Tensor")
    %t253 = tensor.empty() : tensor<64x10xf32>
    %t257 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t252 : tensor<64x10xf32>) outs(%t253 : tensor<64x10xf32>) {
    ^bb0(%a254: f32, %a255: f32):
      %v256 = math.exp %a254 : f32
      linalg.yield %v256 : f32
    } -> tensor<64x10xf32> loc("backward:aten.exp.default")
    %t258 = tensor.empty() : tensor<64xf32>
    %t259 = arith.constant 0x00000000 : f32
    %t260 = linalg.fill ins(%t259 : f32) outs(%t258 : tensor<64xf32>) -> tensor<64xf32> loc("backward:aten.sum.dim_IntList")
    %t264 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t257 : tensor<64x10xf32>) outs(%t260 : tensor<64xf32>) {
    ^bb0(%a261: f32, %a262: f32):
      %v263 = arith.addf %a262, %a261 : f32
      linalg.yield %v263 : f32
    } -> tensor<64xf32> loc("backward:aten.sum.dim_IntList")
    %t265 = tensor.expand_shape %t264 [[0, 1]] output_shape [64, 1] : tensor<64xf32> into tensor<64x1xf32> loc("backward:aten.sum.dim_IntList")
    %t266 = tensor.empty() : tensor<64x1xf32>
    %t270 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t265 : tensor<64x1xf32>) outs(%t266 : tensor<64x1xf32>) {
    ^bb0(%a267: f32, %a268: f32):
      %v269 = math.log %a267 : f32
      linalg.yield %v269 : f32
    } -> tensor<64x1xf32> loc("backward:aten.log.default")
    %t271 = tensor.empty() : tensor<64x10xf32>
    %t276 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t252, %t270 : tensor<64x10xf32>, tensor<64x1xf32>) outs(%t271 : tensor<64x10xf32>) {
    ^bb0(%a272: f32, %a273: f32, %a274: f32):
      %v275 = arith.subf %a272, %a273 : f32
      linalg.yield %v275 : f32
    } -> tensor<64x10xf32> loc("backward:aten.sub.Tensor")
    %t277 = tensor.expand_shape %arg19 [[0, 1]] output_shape [64, 1] : tensor<64xi64> into tensor<64x1xi64> loc("backward:aten.unsqueeze.default")
    %t278 = tensor.empty() : tensor<64x1xf32>
    %t284 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t277 : tensor<64x1xi64>) outs(%t278 : tensor<64x1xf32>) {
    ^bb0(%a279: i64, %a280: f32):
      %v281 = linalg.index 0 : index
      %v282 = arith.index_cast %a279 : i64 to index
      %v283 = tensor.extract %t276[%v281, %v282] : tensor<64x10xf32>
      linalg.yield %v283 : f32
    } -> tensor<64x1xf32> loc("backward:aten.gather.default")
    %t285 = tensor.collapse_shape %t284 [[0, 1]] : tensor<64x1xf32> into tensor<64xf32> loc("backward:aten.squeeze.dim")
    %t286 = tensor.empty() : tensor<64xf32>
    %t290 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t285 : tensor<64xf32>) outs(%t286 : tensor<64xf32>) {
    ^bb0(%a287: f32, %a288: f32):
      %v289 = arith.negf %a287 : f32
      linalg.yield %v289 : f32
    } -> tensor<64xf32> loc("backward:aten.neg.default")
    %t291 = tensor.empty() : tensor<f32>
    %t292 = arith.constant 0x42800000 : f32
    %t293 = linalg.fill ins(%t292 : f32) outs(%t291 : tensor<f32>) -> tensor<f32> loc("backward:aten.new_full.default")
    %t294 = tensor.empty() : tensor<f32>
    %t295 = arith.constant 0x00000000 : f32
    %t296 = linalg.fill ins(%t295 : f32) outs(%t294 : tensor<f32>) -> tensor<f32> loc("backward:aten.mean.default")
    %t300 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%t290 : tensor<64xf32>) outs(%t296 : tensor<f32>) {
    ^bb0(%a297: f32, %a298: f32):
      %v299 = arith.addf %a298, %a297 : f32
      linalg.yield %v299 : f32
    } -> tensor<f32> loc("backward:aten.mean.default")
    %t301 = tensor.empty() : tensor<f32>
    %t306 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%t300 : tensor<f32>) outs(%t301 : tensor<f32>) {
    ^bb0(%a302: f32, %a303: f32):
      %v304 = arith.constant 0x42800000 : f32
      %v305 = arith.divf %a302, %v304 : f32
      linalg.yield %v305 : f32
    } -> tensor<f32> loc("backward:aten.mean.default")
    %t307 = tensor.empty() : tensor<f32>
    %t308 = arith.constant 0x3F800000 : f32
    %t309 = linalg.fill ins(%t308 : f32) outs(%t307 : tensor<f32>) -> tensor<f32> loc("backward:aten.ones_like.default")
    %t310 = tensor.empty() : tensor<f32>
    %t315 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%t309, %t293 : tensor<f32>, tensor<f32>) outs(%t310 : tensor<f32>) {
    ^bb0(%a311: f32, %a312: f32, %a313: f32):
      %v314 = arith.divf %a311, %a312 : f32
      linalg.yield %v314 : f32
    } -> tensor<f32> loc("backward:aten.div.Tensor")
    %t316 = tensor.expand_shape %arg19 [[0, 1]] output_shape [64, 1] : tensor<64xi64> into tensor<64x1xi64> loc("backward:aten.unsqueeze.default")
    %t317 = tensor.empty() : tensor<64x10xf32>
    %t318 = arith.constant 0x00000000 : f32
    %t319 = linalg.fill ins(%t318 : f32) outs(%t317 : tensor<64x10xf32>) -> tensor<64x10xf32> loc("backward:aten.zeros_like.default")
    %t320 = tensor.empty() : tensor<64x10xf32>
    %t329 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t319, %t316 : tensor<64x10xf32>, tensor<64x1xi64>) outs(%t320 : tensor<64x10xf32>) {
    ^bb0(%a321: f32, %a322: i64, %a323: f32):
      %v324 = linalg.index 1 : index
      %v325 = arith.index_cast %v324 : index to i64
      %v326 = arith.cmpi eq, %v325, %a322 : i64
      %v327 = arith.constant 0xBF800000 : f32
      %v328 = arith.select %v326, %v327, %a321 : f32
      linalg.yield %v328 : f32
    } -> tensor<64x10xf32> loc("backward:aten.scatter.value")
    %t330 = tensor.empty() : tensor<64x10xf32>
    %t335 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t329, %t315 : tensor<64x10xf32>, tensor<f32>) outs(%t330 : tensor<64x10xf32>) {
    ^bb0(%a331: f32, %a332: f32, %a333: f32):
      %v334 = arith.mulf %a331, %a332 : f32
      linalg.yield %v334 : f32
    } -> tensor<64x10xf32> loc("backward:aten.mul.Tensor")
    %t336 = tensor.empty() : tensor<64x10xf32>
    %t340 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t276 : tensor<64x10xf32>) outs(%t336 : tensor<64x10xf32>) {
    ^bb0(%a337: f32, %a338: f32):
      %v339 = math.exp %a337 : f32
      linalg.yield %v339 : f32
    } -> tensor<64x10xf32> loc("backward:aten.exp.default")
    %t341 = tensor.empty() : tensor<64xf32>
    %t342 = arith.constant 0x00000000 : f32
    %t343 = linalg.fill ins(%t342 : f32) outs(%t341 : tensor<64xf32>) -> tensor<64xf32> loc("backward:aten.sum.dim_IntList")
    %t347 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t335 : tensor<64x10xf32>) outs(%t343 : tensor<64xf32>) {
    ^bb0(%a344: f32, %a345: f32):
      %v346 = arith.addf %a345, %a344 : f32
      linalg.yield %v346 : f32
    } -> tensor<64xf32> loc("backward:aten.sum.dim_IntList")
    %t348 = tensor.expand_shape %t347 [[0, 1]] output_shape [64, 1] : tensor<64xf32> into tensor<64x1xf32> loc("backward:aten.sum.dim_IntList")
    %t349 = tensor.empty() : tensor<64x10xf32>
    %t354 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t340, %t348 : tensor<64x10xf32>, tensor<64x1xf32>) outs(%t349 : tensor<64x10xf32>) {
    ^bb0(%a350: f32, %a351: f32, %a352: f32):
      %v353 = arith.mulf %a350, %a351 : f32
      linalg.yield %v353 : f32
    } -> tensor<64x10xf32> loc("backward:aten.mul.Tensor")
    %t355 = tensor.empty() : tensor<64x10xf32>
    %t360 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t335, %t354 : tensor<64x10xf32>, tensor<64x10xf32>) outs(%t355 : tensor<64x10xf32>) {
    ^bb0(%a356: f32, %a357: f32, %a358: f32):
      %v359 = arith.subf %a356, %a357 : f32
      linalg.yield %v359 : f32
    } -> tensor<64x10xf32> loc("backward:aten.sub.Tensor")
    %t361 = tensor.empty() : tensor<64x32xf32>
    %t362 = arith.constant 0x00000000 : f32
    %t363 = linalg.fill ins(%t362 : f32) outs(%t361 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t364 = linalg.matmul ins(%t360, %arg16 : tensor<64x10xf32>, tensor<10x32xf32>) outs(%t363 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t365 = tensor.empty() : tensor<10x32xf32>
    %t366 = arith.constant 0x00000000 : f32
    %t367 = linalg.fill ins(%t366 : f32) outs(%t365 : tensor<10x32xf32>) -> tensor<10x32xf32> loc("backward:aten.mm.default")
    %t368 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t360, %t216 : tensor<64x10xf32>, tensor<64x32xf32>) outs(%t367 : tensor<10x32xf32>) -> tensor<10x32xf32> loc("backward:aten.mm.default")
    %t369 = tensor.empty() : tensor<10xf32>
    %t370 = arith.constant 0x00000000 : f32
    %t371 = linalg.fill ins(%t370 : f32) outs(%t369 : tensor<10xf32>) -> tensor<10xf32> loc("backward:aten.sum.dim_IntList")
    %t375 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t360 : tensor<64x10xf32>) outs(%t371 : tensor<10xf32>) {
    ^bb0(%a372: f32, %a373: f32):
      %v374 = arith.addf %a373, %a372 : f32
      linalg.yield %v374 : f32
    } -> tensor<10xf32> loc("backward:aten.sum.dim_IntList")
    %t376 = tensor.expand_shape %t375 [[0, 1]] output_shape [1, 10] : tensor<10xf32> into tensor<1x10xf32> loc("backward:aten.sum.dim_IntList")
    %t377 = tensor.collapse_shape %t376 [[0, 1]] : tensor<1x10xf32> into tensor<10xf32> loc("backward:aten.view.default")
    %t378 = tensor.empty() : tensor<64x32xf32>
    %t383 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t216, %t216 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t378 : tensor<64x32xf32>) {
    ^bb0(%a379: f32, %a380: f32, %a381: f32):
      %v382 = arith.mulf %a379, %a380 : f32
      linalg.yield %v382 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t384 = tensor.empty() : tensor<64x32xf32>
    %t389 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t383 : tensor<64x32xf32>) outs(%t384 : tensor<64x32xf32>) {
    ^bb0(%a385: f32, %a386: f32):
      %v387 = arith.constant 0x3F800000 : f32
      %v388 = arith.subf %v387, %a385 : f32
      linalg.yield %v388 : f32
    } -> tensor<64x32xf32> loc("backward:aten.sub.Tensor")
    %t390 = tensor.empty() : tensor<64x32xf32>
    %t395 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t364, %t389 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t390 : tensor<64x32xf32>) {
    ^bb0(%a391: f32, %a392: f32, %a393: f32):
      %v394 = arith.mulf %a391, %a392 : f32
      linalg.yield %v394 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t396 = tensor.empty() : tensor<64x32xf32>
    %t397 = arith.constant 0x00000000 : f32
    %t398 = linalg.fill ins(%t397 : f32) outs(%t396 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t399 = linalg.matmul ins(%t395, %arg14 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t398 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t400 = tensor.empty() : tensor<32x32xf32>
    %t401 = arith.constant 0x00000000 : f32
    %t402 = linalg.fill ins(%t401 : f32) outs(%t400 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t403 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t395, %t189 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t402 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t404 = tensor.empty() : tensor<32xf32>
    %t405 = arith.constant 0x00000000 : f32
    %t406 = linalg.fill ins(%t405 : f32) outs(%t404 : tensor<32xf32>) -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t410 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t395 : tensor<64x32xf32>) outs(%t406 : tensor<32xf32>) {
    ^bb0(%a407: f32, %a408: f32):
      %v409 = arith.addf %a408, %a407 : f32
      linalg.yield %v409 : f32
    } -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t411 = tensor.expand_shape %t410 [[0, 1]] output_shape [1, 32] : tensor<32xf32> into tensor<1x32xf32> loc("backward:aten.sum.dim_IntList")
    %t412 = tensor.collapse_shape %t411 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32> loc("backward:aten.view.default")
    %t413 = tensor.empty() : tensor<64x32xf32>
    %t418 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t189, %t189 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t413 : tensor<64x32xf32>) {
    ^bb0(%a414: f32, %a415: f32, %a416: f32):
      %v417 = arith.mulf %a414, %a415 : f32
      linalg.yield %v417 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t419 = tensor.empty() : tensor<64x32xf32>
    %t424 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t418 : tensor<64x32xf32>) outs(%t419 : tensor<64x32xf32>) {
    ^bb0(%a420: f32, %a421: f32):
      %v422 = arith.constant 0x3F800000 : f32
      %v423 = arith.subf %v422, %a420 : f32
      linalg.yield %v423 : f32
    } -> tensor<64x32xf32> loc("backward:aten.sub.Tensor")
    %t425 = tensor.empty() : tensor<64x32xf32>
    %t430 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t399, %t424 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t425 : tensor<64x32xf32>) {
    ^bb0(%a426: f32, %a427: f32, %a428: f32):
      %v429 = arith.mulf %a426, %a427 : f32
      linalg.yield %v429 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t431 = tensor.empty() : tensor<64x32xf32>
    %t432 = arith.constant 0x00000000 : f32
    %t433 = linalg.fill ins(%t432 : f32) outs(%t431 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t434 = linalg.matmul ins(%t430, %arg12 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t433 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t435 = tensor.empty() : tensor<32x32xf32>
    %t436 = arith.constant 0x00000000 : f32
    %t437 = linalg.fill ins(%t436 : f32) outs(%t435 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t438 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t430, %t162 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t437 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t439 = tensor.empty() : tensor<32xf32>
    %t440 = arith.constant 0x00000000 : f32
    %t441 = linalg.fill ins(%t440 : f32) outs(%t439 : tensor<32xf32>) -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t445 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t430 : tensor<64x32xf32>) outs(%t441 : tensor<32xf32>) {
    ^bb0(%a442: f32, %a443: f32):
      %v444 = arith.addf %a443, %a442 : f32
      linalg.yield %v444 : f32
    } -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t446 = tensor.expand_shape %t445 [[0, 1]] output_shape [1, 32] : tensor<32xf32> into tensor<1x32xf32> loc("backward:aten.sum.dim_IntList")
    %t447 = tensor.collapse_shape %t446 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32> loc("backward:aten.view.default")
    %t448 = tensor.empty() : tensor<64x32xf32>
    %t453 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t162, %t162 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t448 : tensor<64x32xf32>) {
    ^bb0(%a449: f32, %a450: f32, %a451: f32):
      %v452 = arith.mulf %a449, %a450 : f32
      linalg.yield %v452 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t454 = tensor.empty() : tensor<64x32xf32>
    %t459 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t453 : tensor<64x32xf32>) outs(%t454 : tensor<64x32xf32>) {
    ^bb0(%a455: f32, %a456: f32):
      %v457 = arith.constant 0x3F800000 : f32
      %v458 = arith.subf %v457, %a455 : f32
      linalg.yield %v458 : f32
    } -> tensor<64x32xf32> loc("backward:aten.sub.Tensor")
    %t460 = tensor.empty() : tensor<64x32xf32>
    %t465 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t434, %t459 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t460 : tensor<64x32xf32>) {
    ^bb0(%a461: f32, %a462: f32, %a463: f32):
      %v464 = arith.mulf %a461, %a462 : f32
      linalg.yield %v464 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t466 = tensor.empty() : tensor<64x32xf32>
    %t467 = arith.constant 0x00000000 : f32
    %t468 = linalg.fill ins(%t467 : f32) outs(%t466 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t469 = linalg.matmul ins(%t465, %arg10 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t468 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t470 = tensor.empty() : tensor<32x32xf32>
    %t471 = arith.constant 0x00000000 : f32
    %t472 = linalg.fill ins(%t471 : f32) outs(%t470 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t473 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t465, %t135 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t472 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t474 = tensor.empty() : tensor<32xf32>
    %t475 = arith.constant 0x00000000 : f32
    %t476 = linalg.fill ins(%t475 : f32) outs(%t474 : tensor<32xf32>) -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t480 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t465 : tensor<64x32xf32>) outs(%t476 : tensor<32xf32>) {
    ^bb0(%a477: f32, %a478: f32):
      %v479 = arith.addf %a478, %a477 : f32
      linalg.yield %v479 : f32
    } -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t481 = tensor.expand_shape %t480 [[0, 1]] output_shape [1, 32] : tensor<32xf32> into tensor<1x32xf32> loc("backward:aten.sum.dim_IntList")
    %t482 = tensor.collapse_shape %t481 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32> loc("backward:aten.view.default")
    %t483 = tensor.empty() : tensor<64x32xf32>
    %t488 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t135, %t135 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t483 : tensor<64x32xf32>) {
    ^bb0(%a484: f32, %a485: f32, %a486: f32):
      %v487 = arith.mulf %a484, %a485 : f32
      linalg.yield %v487 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t489 = tensor.empty() : tensor<64x32xf32>
    %t494 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t488 : tensor<64x32xf32>) outs(%t489 : tensor<64x32xf32>) {
    ^bb0(%a490: f32, %a491: f32):
      %v492 = arith.constant 0x3F800000 : f32
      %v493 = arith.subf %v492, %a490 : f32
      linalg.yield %v493 : f32
    } -> tensor<64x32xf32> loc("backward:aten.sub.Tensor")
    %t495 = tensor.empty() : tensor<64x32xf32>
    %t500 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t469, %t494 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t495 : tensor<64x32xf32>) {
    ^bb0(%a496: f32, %a497: f32, %a498: f32):
      %v499 = arith.mulf %a496, %a497 : f32
      linalg.yield %v499 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t501 = tensor.empty() : tensor<64x32xf32>
    %t502 = arith.constant 0x00000000 : f32
    %t503 = linalg.fill ins(%t502 : f32) outs(%t501 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t504 = linalg.matmul ins(%t500, %arg8 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t503 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t505 = tensor.empty() : tensor<32x32xf32>
    %t506 = arith.constant 0x00000000 : f32
    %t507 = linalg.fill ins(%t506 : f32) outs(%t505 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t508 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t500, %t108 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t507 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t509 = tensor.empty() : tensor<32xf32>
    %t510 = arith.constant 0x00000000 : f32
    %t511 = linalg.fill ins(%t510 : f32) outs(%t509 : tensor<32xf32>) -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t515 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t500 : tensor<64x32xf32>) outs(%t511 : tensor<32xf32>) {
    ^bb0(%a512: f32, %a513: f32):
      %v514 = arith.addf %a513, %a512 : f32
      linalg.yield %v514 : f32
    } -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t516 = tensor.expand_shape %t515 [[0, 1]] output_shape [1, 32] : tensor<32xf32> into tensor<1x32xf32> loc("backward:aten.sum.dim_IntList")
    %t517 = tensor.collapse_shape %t516 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32> loc("backward:aten.view.default")
    %t518 = tensor.empty() : tensor<64x32xf32>
    %t523 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t108, %t108 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t518 : tensor<64x32xf32>) {
    ^bb0(%a519: f32, %a520: f32, %a521: f32):
      %v522 = arith.mulf %a519, %a520 : f32
      linalg.yield %v522 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t524 = tensor.empty() : tensor<64x32xf32>
    %t529 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t523 : tensor<64x32xf32>) outs(%t524 : tensor<64x32xf32>) {
    ^bb0(%a525: f32, %a526: f32):
      %v527 = arith.constant 0x3F800000 : f32
      %v528 = arith.subf %v527, %a525 : f32
      linalg.yield %v528 : f32
    } -> tensor<64x32xf32> loc("backward:aten.sub.Tensor")
    %t530 = tensor.empty() : tensor<64x32xf32>
    %t535 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t504, %t529 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t530 : tensor<64x32xf32>) {
    ^bb0(%a531: f32, %a532: f32, %a533: f32):
      %v534 = arith.mulf %a531, %a532 : f32
      linalg.yield %v534 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t536 = tensor.empty() : tensor<64x32xf32>
    %t537 = arith.constant 0x00000000 : f32
    %t538 = linalg.fill ins(%t537 : f32) outs(%t536 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t539 = linalg.matmul ins(%t535, %arg6 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t538 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t540 = tensor.empty() : tensor<32x32xf32>
    %t541 = arith.constant 0x00000000 : f32
    %t542 = linalg.fill ins(%t541 : f32) outs(%t540 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t543 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t535, %t81 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t542 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t544 = tensor.empty() : tensor<32xf32>
    %t545 = arith.constant 0x00000000 : f32
    %t546 = linalg.fill ins(%t545 : f32) outs(%t544 : tensor<32xf32>) -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t550 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t535 : tensor<64x32xf32>) outs(%t546 : tensor<32xf32>) {
    ^bb0(%a547: f32, %a548: f32):
      %v549 = arith.addf %a548, %a547 : f32
      linalg.yield %v549 : f32
    } -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t551 = tensor.expand_shape %t550 [[0, 1]] output_shape [1, 32] : tensor<32xf32> into tensor<1x32xf32> loc("backward:aten.sum.dim_IntList")
    %t552 = tensor.collapse_shape %t551 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32> loc("backward:aten.view.default")
    %t553 = tensor.empty() : tensor<64x32xf32>
    %t558 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t81, %t81 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t553 : tensor<64x32xf32>) {
    ^bb0(%a554: f32, %a555: f32, %a556: f32):
      %v557 = arith.mulf %a554, %a555 : f32
      linalg.yield %v557 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t559 = tensor.empty() : tensor<64x32xf32>
    %t564 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t558 : tensor<64x32xf32>) outs(%t559 : tensor<64x32xf32>) {
    ^bb0(%a560: f32, %a561: f32):
      %v562 = arith.constant 0x3F800000 : f32
      %v563 = arith.subf %v562, %a560 : f32
      linalg.yield %v563 : f32
    } -> tensor<64x32xf32> loc("backward:aten.sub.Tensor")
    %t565 = tensor.empty() : tensor<64x32xf32>
    %t570 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t539, %t564 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t565 : tensor<64x32xf32>) {
    ^bb0(%a566: f32, %a567: f32, %a568: f32):
      %v569 = arith.mulf %a566, %a567 : f32
      linalg.yield %v569 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t571 = tensor.empty() : tensor<64x32xf32>
    %t572 = arith.constant 0x00000000 : f32
    %t573 = linalg.fill ins(%t572 : f32) outs(%t571 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t574 = linalg.matmul ins(%t570, %arg4 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t573 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t575 = tensor.empty() : tensor<32x32xf32>
    %t576 = arith.constant 0x00000000 : f32
    %t577 = linalg.fill ins(%t576 : f32) outs(%t575 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t578 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t570, %t54 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t577 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t579 = tensor.empty() : tensor<32xf32>
    %t580 = arith.constant 0x00000000 : f32
    %t581 = linalg.fill ins(%t580 : f32) outs(%t579 : tensor<32xf32>) -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t585 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t570 : tensor<64x32xf32>) outs(%t581 : tensor<32xf32>) {
    ^bb0(%a582: f32, %a583: f32):
      %v584 = arith.addf %a583, %a582 : f32
      linalg.yield %v584 : f32
    } -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t586 = tensor.expand_shape %t585 [[0, 1]] output_shape [1, 32] : tensor<32xf32> into tensor<1x32xf32> loc("backward:aten.sum.dim_IntList")
    %t587 = tensor.collapse_shape %t586 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32> loc("backward:aten.view.default")
    %t588 = tensor.empty() : tensor<64x32xf32>
    %t593 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t54, %t54 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t588 : tensor<64x32xf32>) {
    ^bb0(%a589: f32, %a590: f32, %a591: f32):
      %v592 = arith.mulf %a589, %a590 : f32
      linalg.yield %v592 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t594 = tensor.empty() : tensor<64x32xf32>
    %t599 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t593 : tensor<64x32xf32>) outs(%t594 : tensor<64x32xf32>) {
    ^bb0(%a595: f32, %a596: f32):
      %v597 = arith.constant 0x3F800000 : f32
      %v598 = arith.subf %v597, %a595 : f32
      linalg.yield %v598 : f32
    } -> tensor<64x32xf32> loc("backward:aten.sub.Tensor")
    %t600 = tensor.empty() : tensor<64x32xf32>
    %t605 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t574, %t599 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t600 : tensor<64x32xf32>) {
    ^bb0(%a601: f32, %a602: f32, %a603: f32):
      %v604 = arith.mulf %a601, %a602 : f32
      linalg.yield %v604 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t606 = tensor.empty() : tensor<64x32xf32>
    %t607 = arith.constant 0x00000000 : f32
    %t608 = linalg.fill ins(%t607 : f32) outs(%t606 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t609 = linalg.matmul ins(%t605, %arg2 : tensor<64x32xf32>, tensor<32x32xf32>) outs(%t608 : tensor<64x32xf32>) -> tensor<64x32xf32> loc("backward:aten.mm.default")
    %t610 = tensor.empty() : tensor<32x32xf32>
    %t611 = arith.constant 0x00000000 : f32
    %t612 = linalg.fill ins(%t611 : f32) outs(%t610 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t613 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t605, %t27 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t612 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t614 = tensor.empty() : tensor<32xf32>
    %t615 = arith.constant 0x00000000 : f32
    %t616 = linalg.fill ins(%t615 : f32) outs(%t614 : tensor<32xf32>) -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t620 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t605 : tensor<64x32xf32>) outs(%t616 : tensor<32xf32>) {
    ^bb0(%a617: f32, %a618: f32):
      %v619 = arith.addf %a618, %a617 : f32
      linalg.yield %v619 : f32
    } -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t621 = tensor.expand_shape %t620 [[0, 1]] output_shape [1, 32] : tensor<32xf32> into tensor<1x32xf32> loc("backward:aten.sum.dim_IntList")
    %t622 = tensor.collapse_shape %t621 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32> loc("backward:aten.view.default")
    %t623 = tensor.empty() : tensor<64x32xf32>
    %t628 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t27, %t27 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t623 : tensor<64x32xf32>) {
    ^bb0(%a624: f32, %a625: f32, %a626: f32):
      %v627 = arith.mulf %a624, %a625 : f32
      linalg.yield %v627 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t629 = tensor.empty() : tensor<64x32xf32>
    %t634 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t628 : tensor<64x32xf32>) outs(%t629 : tensor<64x32xf32>) {
    ^bb0(%a630: f32, %a631: f32):
      %v632 = arith.constant 0x3F800000 : f32
      %v633 = arith.subf %v632, %a630 : f32
      linalg.yield %v633 : f32
    } -> tensor<64x32xf32> loc("backward:aten.sub.Tensor")
    %t635 = tensor.empty() : tensor<64x32xf32>
    %t640 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t609, %t634 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t635 : tensor<64x32xf32>) {
    ^bb0(%a636: f32, %a637: f32, %a638: f32):
      %v639 = arith.mulf %a636, %a637 : f32
      linalg.yield %v639 : f32
    } -> tensor<64x32xf32> loc("backward:aten.mul.Tensor")
    %t641 = tensor.empty() : tensor<32x32xf32>
    %t642 = arith.constant 0x00000000 : f32
    %t643 = linalg.fill ins(%t642 : f32) outs(%t641 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t644 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%t640, %arg18 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%t643 : tensor<32x32xf32>) -> tensor<32x32xf32> loc("backward:aten.mm.default")
    %t645 = tensor.empty() : tensor<32xf32>
    %t646 = arith.constant 0x00000000 : f32
    %t647 = linalg.fill ins(%t646 : f32) outs(%t645 : tensor<32xf32>) -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t651 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t640 : tensor<64x32xf32>) outs(%t647 : tensor<32xf32>) {
    ^bb0(%a648: f32, %a649: f32):
      %v650 = arith.addf %a649, %a648 : f32
      linalg.yield %v650 : f32
    } -> tensor<32xf32> loc("backward:aten.sum.dim_IntList")
    %t652 = tensor.expand_shape %t651 [[0, 1]] output_shape [1, 32] : tensor<32xf32> into tensor<1x32xf32> loc("backward:aten.sum.dim_IntList")
    %t653 = tensor.collapse_shape %t652 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32> loc("backward:aten.view.default")
    %t654 = tensor.empty() : tensor<32x32xf32>
    %t657 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t644 : tensor<32x32xf32>) outs(%t654 : tensor<32x32xf32>) {
    ^bb0(%a655: f32, %a656: f32):
      linalg.yield %a655 : f32
    } -> tensor<32x32xf32> loc("backward:aten.t.default")
    %t658 = tensor.empty() : tensor<32x32xf32>
    %t661 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t613 : tensor<32x32xf32>) outs(%t658 : tensor<32x32xf32>) {
    ^bb0(%a659: f32, %a660: f32):
      linalg.yield %a659 : f32
    } -> tensor<32x32xf32> loc("backward:aten.t.default")
    %t662 = tensor.empty() : tensor<32x32xf32>
    %t665 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t578 : tensor<32x32xf32>) outs(%t662 : tensor<32x32xf32>) {
    ^bb0(%a663: f32, %a664: f32):
      linalg.yield %a663 : f32
    } -> tensor<32x32xf32> loc("backward:aten.t.default")
    %t666 = tensor.empty() : tensor<32x32xf32>
    %t669 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t543 : tensor<32x32xf32>) outs(%t666 : tensor<32x32xf32>) {
    ^bb0(%a667: f32, %a668: f32):
      linalg.yield %a667 : f32
    } -> tensor<32x32xf32> loc("backward:aten.t.default")
    %t670 = tensor.empty() : tensor<32x32xf32>
    %t673 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t508 : tensor<32x32xf32>) outs(%t670 : tensor<32x32xf32>) {
    ^bb0(%a671: f32, %a672: f32):
      linalg.yield %a671 : f32
    } -> tensor<32x32xf32> loc("backward:aten.t.default")
    %t674 = tensor.empty() : tensor<32x32xf32>
    %t677 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t473 : tensor<32x32xf32>) outs(%t674 : tensor<32x32xf32>) {
    ^bb0(%a675: f32, %a676: f32):
      linalg.yield %a675 : f32
    } -> tensor<32x32xf32> loc("backward:aten.t.default")
    %t678 = tensor.empty() : tensor<32x32xf32>
    %t681 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t438 : tensor<32x32xf32>) outs(%t678 : tensor<32x32xf32>) {
    ^bb0(%a679: f32, %a680: f32):
      linalg.yield %a679 : f32
    } -> tensor<32x32xf32> loc("backward:aten.t.default")
    %t682 = tensor.empty() : tensor<32x32xf32>
    %t685 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t403 : tensor<32x32xf32>) outs(%t682 : tensor<32x32xf32>) {
    ^bb0(%a683: f32, %a684: f32):
      linalg.yield %a683 : f32
    } -> tensor<32x32xf32> loc("backward:aten.t.default")
    %t686 = tensor.empty() : tensor<10x32xf32>
    %t689 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t368 : tensor<10x32xf32>) outs(%t686 : tensor<10x32xf32>) {
    ^bb0(%a687: f32, %a688: f32):
      linalg.yield %a687 : f32
    } -> tensor<10x32xf32> loc("backward:aten.t.default")
    return %t306, %t657, %t653, %t661, %t622, %t665, %t587, %t669, %t552, %t673, %t517, %t677, %t482, %t681, %t447, %t685, %t412, %t689, %t377 : tensor<f32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<10x32xf32>, tensor<10xf32>
  }
}
