// A function whose activation is swapped to host memory and back, without
// math functions.
func.func @train_step(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e0 = tensor.empty() : tensor<64x64xf32>
  %x = linalg.add ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %h = memsched.swap_out %x : tensor<64x64xf32> -> !memsched.host<tensor<64x64xf32>>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %y = linalg.mul ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = memsched.swap_in %h : !memsched.host<tensor<64x64xf32>> -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %z = linalg.add ins(%y, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %z : tensor<64x64xf32>
}
