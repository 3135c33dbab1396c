func.func @chain(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e0 = tensor.empty() : tensor<16xf32>
  %a = linalg.exp ins(%x : tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %b = linalg.exp ins(%a : tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  return %b : tensor<16xf32>
}
