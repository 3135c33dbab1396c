// A two-layer step without math functions (no libdevice needed): forward
// matmul + bias + relu, a second matmul, a loss-like sum, and the gradient
// of the second layer's weights.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @train_step(%x: tensor<16x32xf32>, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x8xf32>) -> (tensor<f32>, tensor<64x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f0 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16x64xf32>
  %a = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<16x64xf32>, tensor<64xf32>) outs(%e1 : tensor<16x64xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x64xf32>
  %e2 = tensor.empty() : tensor<16x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %y = linalg.matmul ins(%a, %w2 : tensor<16x64xf32>, tensor<64x8xf32>) outs(%f2 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %e3 = tensor.empty() : tensor<f32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce ins(%y : tensor<16x8xf32>) outs(%f3 : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e4 = tensor.empty() : tensor<64x16xf32>
  %at = linalg.transpose ins(%a : tensor<16x64xf32>) outs(%e4 : tensor<64x16xf32>) permutation = [1, 0]
  %e5 = tensor.empty() : tensor<64x8xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<64x8xf32>) -> tensor<64x8xf32>
  %gw2 = linalg.matmul ins(%at, %y : tensor<64x16xf32>, tensor<16x8xf32>) outs(%f5 : tensor<64x8xf32>) -> tensor<64x8xf32>
  return %loss, %gw2 : tensor<f32>, tensor<64x8xf32>
}
