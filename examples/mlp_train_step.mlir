// memsched example: one full training step (forward + loss + backward) of a
// 3-layer MLP, written by hand in linalg on tensors with upstream dialects only
// (func, arith, math, linalg, tensor). f32, static shapes, batch 8.
//
// Model:
//   x[8x32] -> h1 = x  @ w1 + b1   [8x64] -> r1 = relu(h1)
//           -> h2 = r1 @ w2 + b2   [8x64] -> r2 = relu(h2)
//           -> logits = r2 @ w3 + b3 [8x10]
//   loss = mean_n( logsumexp(logits[n, :]) - logits[n, y[n]] )
//          (softmax cross-entropy against integer class labels y[8] : i64)
//
// Signature (parameters, then inputs, then target; returns the loss and the
// gradient of every parameter, in parameter order):
//   @train_step(w1: 32x64, b1: 64, w2: 64x64, b2: 64, w3: 64x10, b3: 10,
//               x: 8x32, y: 8xi64)
//     -> (loss: tensor<f32>, dw1: 32x64, db1: 64, dw2: 64x64, db2: 64,
//         dw3: 64x10, db3: 10)
//
// Saved activations needed by the backward pass: x, h1, r1, h2, r2, and the
// softmax intermediates (exps, sumexp) and the one-hot target.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
#id0 = affine_map<() -> ()>

module {
  func.func @train_step(%w1: tensor<32x64xf32>, %b1: tensor<64xf32>,
                        %w2: tensor<64x64xf32>, %b2: tensor<64xf32>,
                        %w3: tensor<64x10xf32>, %b3: tensor<10xf32>,
                        %x: tensor<8x32xf32>, %y: tensor<8xi64>)
      -> (tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x64xf32>,
          tensor<64xf32>, tensor<64x10xf32>, tensor<10xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %inv_batch = arith.constant 1.250000e-01 : f32

    // ===================== forward =====================

    // forward: layer 1, h1 = x @ w1 + b1, r1 = relu(h1)
    %mm1_empty = tensor.empty() : tensor<8x64xf32>
    %mm1_acc = linalg.fill ins(%zero : f32) outs(%mm1_empty : tensor<8x64xf32>) -> tensor<8x64xf32>
    %mm1 = linalg.matmul ins(%x, %w1 : tensor<8x32xf32>, tensor<32x64xf32>)
                         outs(%mm1_acc : tensor<8x64xf32>) -> tensor<8x64xf32>
    %h1_empty = tensor.empty() : tensor<8x64xf32>
    %h1 = linalg.generic {indexing_maps = [#id2, #col, #id2],
                          iterator_types = ["parallel", "parallel"]}
        ins(%mm1, %b1 : tensor<8x64xf32>, tensor<64xf32>)
        outs(%h1_empty : tensor<8x64xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<8x64xf32>
    %r1_empty = tensor.empty() : tensor<8x64xf32>
    %r1 = linalg.generic {indexing_maps = [#id2, #id2],
                          iterator_types = ["parallel", "parallel"]}
        ins(%h1 : tensor<8x64xf32>) outs(%r1_empty : tensor<8x64xf32>) {
    ^bb0(%a: f32, %out: f32):
      %m = arith.maximumf %a, %zero : f32
      linalg.yield %m : f32
    } -> tensor<8x64xf32>

    // forward: layer 2, h2 = r1 @ w2 + b2, r2 = relu(h2)
    %mm2_empty = tensor.empty() : tensor<8x64xf32>
    %mm2_acc = linalg.fill ins(%zero : f32) outs(%mm2_empty : tensor<8x64xf32>) -> tensor<8x64xf32>
    %mm2 = linalg.matmul ins(%r1, %w2 : tensor<8x64xf32>, tensor<64x64xf32>)
                         outs(%mm2_acc : tensor<8x64xf32>) -> tensor<8x64xf32>
    %h2_empty = tensor.empty() : tensor<8x64xf32>
    %h2 = linalg.generic {indexing_maps = [#id2, #col, #id2],
                          iterator_types = ["parallel", "parallel"]}
        ins(%mm2, %b2 : tensor<8x64xf32>, tensor<64xf32>)
        outs(%h2_empty : tensor<8x64xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<8x64xf32>
    %r2_empty = tensor.empty() : tensor<8x64xf32>
    %r2 = linalg.generic {indexing_maps = [#id2, #id2],
                          iterator_types = ["parallel", "parallel"]}
        ins(%h2 : tensor<8x64xf32>) outs(%r2_empty : tensor<8x64xf32>) {
    ^bb0(%a: f32, %out: f32):
      %m = arith.maximumf %a, %zero : f32
      linalg.yield %m : f32
    } -> tensor<8x64xf32>

    // forward: layer 3, logits = r2 @ w3 + b3
    %mm3_empty = tensor.empty() : tensor<8x10xf32>
    %mm3_acc = linalg.fill ins(%zero : f32) outs(%mm3_empty : tensor<8x10xf32>) -> tensor<8x10xf32>
    %mm3 = linalg.matmul ins(%r2, %w3 : tensor<8x64xf32>, tensor<64x10xf32>)
                         outs(%mm3_acc : tensor<8x10xf32>) -> tensor<8x10xf32>
    %logits_empty = tensor.empty() : tensor<8x10xf32>
    %logits = linalg.generic {indexing_maps = [#id2, #col, #id2],
                              iterator_types = ["parallel", "parallel"]}
        ins(%mm3, %b3 : tensor<8x10xf32>, tensor<10xf32>)
        outs(%logits_empty : tensor<8x10xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<8x10xf32>

    // ===================== loss =====================

    // loss: row max of the logits (for a numerically stable softmax)
    %rowmax_empty = tensor.empty() : tensor<8xf32>
    %rowmax_acc = linalg.fill ins(%ninf : f32) outs(%rowmax_empty : tensor<8xf32>) -> tensor<8xf32>
    %rowmax = linalg.reduce ins(%logits : tensor<8x10xf32>)
                            outs(%rowmax_acc : tensor<8xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %m = arith.maximumf %in, %acc : f32
        linalg.yield %m : f32
      }

    // loss: exps = exp(logits - rowmax), sumexp = sum_j exps
    %exps_empty = tensor.empty() : tensor<8x10xf32>
    %exps = linalg.generic {indexing_maps = [#id2, #row, #id2],
                            iterator_types = ["parallel", "parallel"]}
        ins(%logits, %rowmax : tensor<8x10xf32>, tensor<8xf32>)
        outs(%exps_empty : tensor<8x10xf32>) {
    ^bb0(%l: f32, %m: f32, %out: f32):
      %d = arith.subf %l, %m : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    } -> tensor<8x10xf32>
    %sumexp_empty = tensor.empty() : tensor<8xf32>
    %sumexp_acc = linalg.fill ins(%zero : f32) outs(%sumexp_empty : tensor<8xf32>) -> tensor<8xf32>
    %sumexp = linalg.generic {indexing_maps = [#id2, #row],
                              iterator_types = ["parallel", "reduction"]}
        ins(%exps : tensor<8x10xf32>) outs(%sumexp_acc : tensor<8xf32>) {
    ^bb0(%e: f32, %acc: f32):
      %s = arith.addf %e, %acc : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>

    // loss: lse = log(sumexp) + rowmax
    %lse_empty = tensor.empty() : tensor<8xf32>
    %lse = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                           iterator_types = ["parallel"]}
        ins(%sumexp, %rowmax : tensor<8xf32>, tensor<8xf32>)
        outs(%lse_empty : tensor<8xf32>) {
    ^bb0(%s: f32, %m: f32, %out: f32):
      %lg = math.log %s : f32
      %r = arith.addf %lg, %m : f32
      linalg.yield %r : f32
    } -> tensor<8xf32>

    // loss: one-hot target, onehot[n, j] = (j == y[n]) ? 1 : 0
    %onehot_empty = tensor.empty() : tensor<8x10xf32>
    %onehot = linalg.generic {indexing_maps = [#row, #id2],
                              iterator_types = ["parallel", "parallel"]}
        ins(%y : tensor<8xi64>) outs(%onehot_empty : tensor<8x10xf32>) {
    ^bb0(%label: i64, %out: f32):
      %j = linalg.index 1 : index
      %ji = arith.index_cast %j : index to i64
      %eq = arith.cmpi eq, %ji, %label : i64
      %v = arith.select %eq, %one, %zero : f32
      linalg.yield %v : f32
    } -> tensor<8x10xf32>

    // loss: picked[n] = sum_j onehot[n, j] * logits[n, j] = logits[n, y[n]]
    %picked_empty = tensor.empty() : tensor<8xf32>
    %picked_acc = linalg.fill ins(%zero : f32) outs(%picked_empty : tensor<8xf32>) -> tensor<8xf32>
    %picked = linalg.generic {indexing_maps = [#id2, #id2, #row],
                              iterator_types = ["parallel", "reduction"]}
        ins(%logits, %onehot : tensor<8x10xf32>, tensor<8x10xf32>)
        outs(%picked_acc : tensor<8xf32>) {
    ^bb0(%l: f32, %o: f32, %acc: f32):
      %p = arith.mulf %l, %o : f32
      %s = arith.addf %p, %acc : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>

    // loss: per-sample negative log-likelihood, nll = lse - picked
    %nll_empty = tensor.empty() : tensor<8xf32>
    %nll = linalg.generic {indexing_maps = [#id1, #id1, #id1],
                           iterator_types = ["parallel"]}
        ins(%lse, %picked : tensor<8xf32>, tensor<8xf32>)
        outs(%nll_empty : tensor<8xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %d = arith.subf %a, %b : f32
      linalg.yield %d : f32
    } -> tensor<8xf32>

    // loss: mean over the batch
    %losssum_empty = tensor.empty() : tensor<f32>
    %losssum_acc = linalg.fill ins(%zero : f32) outs(%losssum_empty : tensor<f32>) -> tensor<f32>
    %losssum = linalg.reduce ins(%nll : tensor<8xf32>)
                             outs(%losssum_acc : tensor<f32>) dimensions = [0]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    %loss_empty = tensor.empty() : tensor<f32>
    %loss = linalg.generic {indexing_maps = [#id0, #id0], iterator_types = []}
        ins(%losssum : tensor<f32>) outs(%loss_empty : tensor<f32>) {
    ^bb0(%s: f32, %out: f32):
      %r = arith.mulf %s, %inv_batch : f32
      linalg.yield %r : f32
    } -> tensor<f32>

    // ===================== backward =====================

    // backward: dlogits = (softmax - onehot) / batch, softmax = exps / sumexp
    %dlogits_empty = tensor.empty() : tensor<8x10xf32>
    %dlogits = linalg.generic {indexing_maps = [#id2, #row, #id2, #id2],
                               iterator_types = ["parallel", "parallel"]}
        ins(%exps, %sumexp, %onehot : tensor<8x10xf32>, tensor<8xf32>, tensor<8x10xf32>)
        outs(%dlogits_empty : tensor<8x10xf32>) {
    ^bb0(%e: f32, %s: f32, %o: f32, %out: f32):
      %p = arith.divf %e, %s : f32
      %d = arith.subf %p, %o : f32
      %g = arith.mulf %d, %inv_batch : f32
      linalg.yield %g : f32
    } -> tensor<8x10xf32>

    // backward: layer 3, dw3 = r2^T @ dlogits, db3 = sum_n dlogits
    %r2t_empty = tensor.empty() : tensor<64x8xf32>
    %r2t = linalg.transpose ins(%r2 : tensor<8x64xf32>)
                            outs(%r2t_empty : tensor<64x8xf32>) permutation = [1, 0]
    %dw3_empty = tensor.empty() : tensor<64x10xf32>
    %dw3_acc = linalg.fill ins(%zero : f32) outs(%dw3_empty : tensor<64x10xf32>) -> tensor<64x10xf32>
    %dw3 = linalg.matmul ins(%r2t, %dlogits : tensor<64x8xf32>, tensor<8x10xf32>)
                         outs(%dw3_acc : tensor<64x10xf32>) -> tensor<64x10xf32>
    %db3_empty = tensor.empty() : tensor<10xf32>
    %db3_acc = linalg.fill ins(%zero : f32) outs(%db3_empty : tensor<10xf32>) -> tensor<10xf32>
    %db3 = linalg.reduce ins(%dlogits : tensor<8x10xf32>)
                         outs(%db3_acc : tensor<10xf32>) dimensions = [0]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }

    // backward: layer 3 input gradient, dr2 = dlogits @ w3^T
    %w3t_empty = tensor.empty() : tensor<10x64xf32>
    %w3t = linalg.transpose ins(%w3 : tensor<64x10xf32>)
                            outs(%w3t_empty : tensor<10x64xf32>) permutation = [1, 0]
    %dr2_empty = tensor.empty() : tensor<8x64xf32>
    %dr2_acc = linalg.fill ins(%zero : f32) outs(%dr2_empty : tensor<8x64xf32>) -> tensor<8x64xf32>
    %dr2 = linalg.matmul ins(%dlogits, %w3t : tensor<8x10xf32>, tensor<10x64xf32>)
                         outs(%dr2_acc : tensor<8x64xf32>) -> tensor<8x64xf32>

    // backward: relu 2, dh2 = (h2 > 0) ? dr2 : 0
    %dh2_empty = tensor.empty() : tensor<8x64xf32>
    %dh2 = linalg.generic {indexing_maps = [#id2, #id2, #id2],
                           iterator_types = ["parallel", "parallel"]}
        ins(%dr2, %h2 : tensor<8x64xf32>, tensor<8x64xf32>)
        outs(%dh2_empty : tensor<8x64xf32>) {
    ^bb0(%g: f32, %h: f32, %out: f32):
      %pos = arith.cmpf ogt, %h, %zero : f32
      %r = arith.select %pos, %g, %zero : f32
      linalg.yield %r : f32
    } -> tensor<8x64xf32>

    // backward: layer 2, dw2 = r1^T @ dh2, db2 = sum_n dh2
    %r1t_empty = tensor.empty() : tensor<64x8xf32>
    %r1t = linalg.transpose ins(%r1 : tensor<8x64xf32>)
                            outs(%r1t_empty : tensor<64x8xf32>) permutation = [1, 0]
    %dw2_empty = tensor.empty() : tensor<64x64xf32>
    %dw2_acc = linalg.fill ins(%zero : f32) outs(%dw2_empty : tensor<64x64xf32>) -> tensor<64x64xf32>
    %dw2 = linalg.matmul ins(%r1t, %dh2 : tensor<64x8xf32>, tensor<8x64xf32>)
                         outs(%dw2_acc : tensor<64x64xf32>) -> tensor<64x64xf32>
    %db2_empty = tensor.empty() : tensor<64xf32>
    %db2_acc = linalg.fill ins(%zero : f32) outs(%db2_empty : tensor<64xf32>) -> tensor<64xf32>
    %db2 = linalg.generic {indexing_maps = [#id2, #col],
                           iterator_types = ["reduction", "parallel"]}
        ins(%dh2 : tensor<8x64xf32>) outs(%db2_acc : tensor<64xf32>) {
    ^bb0(%g: f32, %acc: f32):
      %s = arith.addf %g, %acc : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>

    // backward: layer 2 input gradient, dr1 = dh2 @ w2^T
    %w2t_empty = tensor.empty() : tensor<64x64xf32>
    %w2t = linalg.transpose ins(%w2 : tensor<64x64xf32>)
                            outs(%w2t_empty : tensor<64x64xf32>) permutation = [1, 0]
    %dr1_empty = tensor.empty() : tensor<8x64xf32>
    %dr1_acc = linalg.fill ins(%zero : f32) outs(%dr1_empty : tensor<8x64xf32>) -> tensor<8x64xf32>
    %dr1 = linalg.matmul ins(%dh2, %w2t : tensor<8x64xf32>, tensor<64x64xf32>)
                         outs(%dr1_acc : tensor<8x64xf32>) -> tensor<8x64xf32>

    // backward: relu 1, dh1 = (h1 > 0) ? dr1 : 0
    %dh1_empty = tensor.empty() : tensor<8x64xf32>
    %dh1 = linalg.generic {indexing_maps = [#id2, #id2, #id2],
                           iterator_types = ["parallel", "parallel"]}
        ins(%dr1, %h1 : tensor<8x64xf32>, tensor<8x64xf32>)
        outs(%dh1_empty : tensor<8x64xf32>) {
    ^bb0(%g: f32, %h: f32, %out: f32):
      %pos = arith.cmpf ogt, %h, %zero : f32
      %r = arith.select %pos, %g, %zero : f32
      linalg.yield %r : f32
    } -> tensor<8x64xf32>

    // backward: layer 1, dw1 = x^T @ dh1, db1 = sum_n dh1
    %xt_empty = tensor.empty() : tensor<32x8xf32>
    %xt = linalg.transpose ins(%x : tensor<8x32xf32>)
                           outs(%xt_empty : tensor<32x8xf32>) permutation = [1, 0]
    %dw1_empty = tensor.empty() : tensor<32x64xf32>
    %dw1_acc = linalg.fill ins(%zero : f32) outs(%dw1_empty : tensor<32x64xf32>) -> tensor<32x64xf32>
    %dw1 = linalg.matmul ins(%xt, %dh1 : tensor<32x8xf32>, tensor<8x64xf32>)
                         outs(%dw1_acc : tensor<32x64xf32>) -> tensor<32x64xf32>
    %db1_empty = tensor.empty() : tensor<64xf32>
    %db1_acc = linalg.fill ins(%zero : f32) outs(%db1_empty : tensor<64xf32>) -> tensor<64xf32>
    %db1 = linalg.generic {indexing_maps = [#id2, #col],
                           iterator_types = ["reduction", "parallel"]}
        ins(%dh1 : tensor<8x64xf32>) outs(%db1_acc : tensor<64xf32>) {
    ^bb0(%g: f32, %acc: f32):
      %s = arith.addf %g, %acc : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>

    return %loss, %dw1, %db1, %dw2, %db2, %dw3, %db3
        : tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x64xf32>,
          tensor<64xf32>, tensor<64x10xf32>, tensor<10xf32>
  }
}
