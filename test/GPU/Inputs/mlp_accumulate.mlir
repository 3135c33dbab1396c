// The MLP example's step run over 2 micro-batches in an scf.for that sums
// its results (gradient accumulation; made by test/python/Inputs/
// random_programs.py's accumulate()).
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0) -> (d0)>
#map4 = affine_map<() -> ()>
module {
  func.func @train_step(%arg0: tensor<32x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<64xf32>, %arg4: tensor<64x10xf32>, %arg5: tensor<10xf32>, %arg6: tensor<8x32xf32>, %arg7: tensor<8xi64>) -> (tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64x10xf32>, tensor<10xf32>) {
    %acc_c0 = arith.constant 0 : index
    %acc_c1 = arith.constant 1 : index
    %acc_trips = arith.constant 2 : index
    %acc_zero = arith.constant 0.0 : f32
    %acc_e0 = tensor.empty() : tensor<f32>
    %acc_init0 = linalg.fill ins(%acc_zero : f32) outs(%acc_e0 : tensor<f32>) -> tensor<f32>
    %acc_e1 = tensor.empty() : tensor<32x64xf32>
    %acc_init1 = linalg.fill ins(%acc_zero : f32) outs(%acc_e1 : tensor<32x64xf32>) -> tensor<32x64xf32>
    %acc_e2 = tensor.empty() : tensor<64xf32>
    %acc_init2 = linalg.fill ins(%acc_zero : f32) outs(%acc_e2 : tensor<64xf32>) -> tensor<64xf32>
    %acc_e3 = tensor.empty() : tensor<64x64xf32>
    %acc_init3 = linalg.fill ins(%acc_zero : f32) outs(%acc_e3 : tensor<64x64xf32>) -> tensor<64x64xf32>
    %acc_e4 = tensor.empty() : tensor<64xf32>
    %acc_init4 = linalg.fill ins(%acc_zero : f32) outs(%acc_e4 : tensor<64xf32>) -> tensor<64xf32>
    %acc_e5 = tensor.empty() : tensor<64x10xf32>
    %acc_init5 = linalg.fill ins(%acc_zero : f32) outs(%acc_e5 : tensor<64x10xf32>) -> tensor<64x10xf32>
    %acc_e6 = tensor.empty() : tensor<10xf32>
    %acc_init6 = linalg.fill ins(%acc_zero : f32) outs(%acc_e6 : tensor<10xf32>) -> tensor<10xf32>
    %acc_loop:7 = scf.for %acc_i = %acc_c0 to %acc_trips step %acc_c1 iter_args(%acc_arg0 = %acc_init0, %acc_arg1 = %acc_init1, %acc_arg2 = %acc_init2, %acc_arg3 = %acc_init3, %acc_arg4 = %acc_init4, %acc_arg5 = %acc_init5, %acc_arg6 = %acc_init6) -> (tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64x10xf32>, tensor<10xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      %cst_0 = arith.constant 1.000000e+00 : f32
      %cst_1 = arith.constant 0xFF800000 : f32
      %cst_2 = arith.constant 1.250000e-01 : f32
      %0 = tensor.empty() : tensor<8x64xf32>
      %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x64xf32>) -> tensor<8x64xf32>
      %2 = linalg.matmul ins(%arg6, %arg0 : tensor<8x32xf32>, tensor<32x64xf32>) outs(%1 : tensor<8x64xf32>) -> tensor<8x64xf32>
      %3 = tensor.empty() : tensor<8x64xf32>
      %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %arg1 : tensor<8x64xf32>, tensor<64xf32>) outs(%3 : tensor<8x64xf32>) {
      ^bb0(%in: f32, %in_9: f32, %out: f32):
        %73 = arith.addf %in, %in_9 : f32
        linalg.yield %73 : f32
      } -> tensor<8x64xf32>
      %5 = tensor.empty() : tensor<8x64xf32>
      %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<8x64xf32>) outs(%5 : tensor<8x64xf32>) {
      ^bb0(%in: f32, %out: f32):
        %73 = arith.maximumf %in, %cst : f32
        linalg.yield %73 : f32
      } -> tensor<8x64xf32>
      %7 = tensor.empty() : tensor<8x64xf32>
      %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<8x64xf32>) -> tensor<8x64xf32>
      %9 = linalg.matmul ins(%6, %arg2 : tensor<8x64xf32>, tensor<64x64xf32>) outs(%8 : tensor<8x64xf32>) -> tensor<8x64xf32>
      %10 = tensor.empty() : tensor<8x64xf32>
      %11 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %arg3 : tensor<8x64xf32>, tensor<64xf32>) outs(%10 : tensor<8x64xf32>) {
      ^bb0(%in: f32, %in_9: f32, %out: f32):
        %73 = arith.addf %in, %in_9 : f32
        linalg.yield %73 : f32
      } -> tensor<8x64xf32>
      %12 = tensor.empty() : tensor<8x64xf32>
      %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<8x64xf32>) outs(%12 : tensor<8x64xf32>) {
      ^bb0(%in: f32, %out: f32):
        %73 = arith.maximumf %in, %cst : f32
        linalg.yield %73 : f32
      } -> tensor<8x64xf32>
      %14 = tensor.empty() : tensor<8x10xf32>
      %15 = linalg.fill ins(%cst : f32) outs(%14 : tensor<8x10xf32>) -> tensor<8x10xf32>
      %16 = linalg.matmul ins(%13, %arg4 : tensor<8x64xf32>, tensor<64x10xf32>) outs(%15 : tensor<8x10xf32>) -> tensor<8x10xf32>
      %17 = tensor.empty() : tensor<8x10xf32>
      %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%16, %arg5 : tensor<8x10xf32>, tensor<10xf32>) outs(%17 : tensor<8x10xf32>) {
      ^bb0(%in: f32, %in_9: f32, %out: f32):
        %73 = arith.addf %in, %in_9 : f32
        linalg.yield %73 : f32
      } -> tensor<8x10xf32>
      %19 = tensor.empty() : tensor<8xf32>
      %20 = linalg.fill ins(%cst_1 : f32) outs(%19 : tensor<8xf32>) -> tensor<8xf32>
      %reduced = linalg.reduce ins(%18 : tensor<8x10xf32>) outs(%20 : tensor<8xf32>) dimensions = [1] 
        (%in: f32, %init: f32) {
          %73 = arith.maximumf %in, %init : f32
          linalg.yield %73 : f32
        }
      %21 = tensor.empty() : tensor<8x10xf32>
      %22 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%18, %reduced : tensor<8x10xf32>, tensor<8xf32>) outs(%21 : tensor<8x10xf32>) {
      ^bb0(%in: f32, %in_9: f32, %out: f32):
        %73 = arith.subf %in, %in_9 : f32
        %74 = math.exp %73 : f32
        linalg.yield %74 : f32
      } -> tensor<8x10xf32>
      %23 = tensor.empty() : tensor<8xf32>
      %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<8xf32>) -> tensor<8xf32>
      %25 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%22 : tensor<8x10xf32>) outs(%24 : tensor<8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %73 = arith.addf %in, %out : f32
        linalg.yield %73 : f32
      } -> tensor<8xf32>
      %26 = tensor.empty() : tensor<8xf32>
      %27 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel"]} ins(%25, %reduced : tensor<8xf32>, tensor<8xf32>) outs(%26 : tensor<8xf32>) {
      ^bb0(%in: f32, %in_9: f32, %out: f32):
        %73 = math.log %in : f32
        %74 = arith.addf %73, %in_9 : f32
        linalg.yield %74 : f32
      } -> tensor<8xf32>
      %28 = tensor.empty() : tensor<8x10xf32>
      %29 = linalg.generic {indexing_maps = [#map2, #map], iterator_types = ["parallel", "parallel"]} ins(%arg7 : tensor<8xi64>) outs(%28 : tensor<8x10xf32>) {
      ^bb0(%in: i64, %out: f32):
        %73 = linalg.index 1 : index
        %74 = arith.index_cast %73 : index to i64
        %75 = arith.cmpi eq, %74, %in : i64
        %76 = arith.select %75, %cst_0, %cst : f32
        linalg.yield %76 : f32
      } -> tensor<8x10xf32>
      %30 = tensor.empty() : tensor<8xf32>
      %31 = linalg.fill ins(%cst : f32) outs(%30 : tensor<8xf32>) -> tensor<8xf32>
      %32 = linalg.generic {indexing_maps = [#map, #map, #map2], iterator_types = ["parallel", "reduction"]} ins(%18, %29 : tensor<8x10xf32>, tensor<8x10xf32>) outs(%31 : tensor<8xf32>) {
      ^bb0(%in: f32, %in_9: f32, %out: f32):
        %73 = arith.mulf %in, %in_9 : f32
        %74 = arith.addf %73, %out : f32
        linalg.yield %74 : f32
      } -> tensor<8xf32>
      %33 = tensor.empty() : tensor<8xf32>
      %34 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel"]} ins(%27, %32 : tensor<8xf32>, tensor<8xf32>) outs(%33 : tensor<8xf32>) {
      ^bb0(%in: f32, %in_9: f32, %out: f32):
        %73 = arith.subf %in, %in_9 : f32
        linalg.yield %73 : f32
      } -> tensor<8xf32>
      %35 = tensor.empty() : tensor<f32>
      %36 = linalg.fill ins(%cst : f32) outs(%35 : tensor<f32>) -> tensor<f32>
      %reduced_3 = linalg.reduce ins(%34 : tensor<8xf32>) outs(%36 : tensor<f32>) dimensions = [0] 
        (%in: f32, %init: f32) {
          %73 = arith.addf %in, %init : f32
          linalg.yield %73 : f32
        }
      %37 = tensor.empty() : tensor<f32>
      %38 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = []} ins(%reduced_3 : tensor<f32>) outs(%37 : tensor<f32>) {
      ^bb0(%in: f32, %out: f32):
        %73 = arith.mulf %in, %cst_2 : f32
        linalg.yield %73 : f32
      } -> tensor<f32>
      %39 = tensor.empty() : tensor<8x10xf32>
      %40 = linalg.generic {indexing_maps = [#map, #map2, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%22, %25, %29 : tensor<8x10xf32>, tensor<8xf32>, tensor<8x10xf32>) outs(%39 : tensor<8x10xf32>) {
      ^bb0(%in: f32, %in_9: f32, %in_10: f32, %out: f32):
        %73 = arith.divf %in, %in_9 : f32
        %74 = arith.subf %73, %in_10 : f32
        %75 = arith.mulf %74, %cst_2 : f32
        linalg.yield %75 : f32
      } -> tensor<8x10xf32>
      %41 = tensor.empty() : tensor<64x8xf32>
      %transposed = linalg.transpose ins(%13 : tensor<8x64xf32>) outs(%41 : tensor<64x8xf32>) permutation = [1, 0] 
      %42 = tensor.empty() : tensor<64x10xf32>
      %43 = linalg.fill ins(%cst : f32) outs(%42 : tensor<64x10xf32>) -> tensor<64x10xf32>
      %44 = linalg.matmul ins(%transposed, %40 : tensor<64x8xf32>, tensor<8x10xf32>) outs(%43 : tensor<64x10xf32>) -> tensor<64x10xf32>
      %45 = tensor.empty() : tensor<10xf32>
      %46 = linalg.fill ins(%cst : f32) outs(%45 : tensor<10xf32>) -> tensor<10xf32>
      %reduced_4 = linalg.reduce ins(%40 : tensor<8x10xf32>) outs(%46 : tensor<10xf32>) dimensions = [0] 
        (%in: f32, %init: f32) {
          %73 = arith.addf %in, %init : f32
          linalg.yield %73 : f32
        }
      %47 = tensor.empty() : tensor<10x64xf32>
      %transposed_5 = linalg.transpose ins(%arg4 : tensor<64x10xf32>) outs(%47 : tensor<10x64xf32>) permutation = [1, 0] 
      %48 = tensor.empty() : tensor<8x64xf32>
      %49 = linalg.fill ins(%cst : f32) outs(%48 : tensor<8x64xf32>) -> tensor<8x64xf32>
      %50 = linalg.matmul ins(%40, %transposed_5 : tensor<8x10xf32>, tensor<10x64xf32>) outs(%49 : tensor<8x64xf32>) -> tensor<8x64xf32>
      %51 = tensor.empty() : tensor<8x64xf32>
      %52 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%50, %11 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%51 : tensor<8x64xf32>) {
      ^bb0(%in: f32, %in_9: f32, %out: f32):
        %73 = arith.cmpf ogt, %in_9, %cst : f32
        %74 = arith.select %73, %in, %cst : f32
        linalg.yield %74 : f32
      } -> tensor<8x64xf32>
      %53 = tensor.empty() : tensor<64x8xf32>
      %transposed_6 = linalg.transpose ins(%6 : tensor<8x64xf32>) outs(%53 : tensor<64x8xf32>) permutation = [1, 0] 
      %54 = tensor.empty() : tensor<64x64xf32>
      %55 = linalg.fill ins(%cst : f32) outs(%54 : tensor<64x64xf32>) -> tensor<64x64xf32>
      %56 = linalg.matmul ins(%transposed_6, %52 : tensor<64x8xf32>, tensor<8x64xf32>) outs(%55 : tensor<64x64xf32>) -> tensor<64x64xf32>
      %57 = tensor.empty() : tensor<64xf32>
      %58 = linalg.fill ins(%cst : f32) outs(%57 : tensor<64xf32>) -> tensor<64xf32>
      %59 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "parallel"]} ins(%52 : tensor<8x64xf32>) outs(%58 : tensor<64xf32>) {
      ^bb0(%in: f32, %out: f32):
        %73 = arith.addf %in, %out : f32
        linalg.yield %73 : f32
      } -> tensor<64xf32>
      %60 = tensor.empty() : tensor<64x64xf32>
      %transposed_7 = linalg.transpose ins(%arg2 : tensor<64x64xf32>) outs(%60 : tensor<64x64xf32>) permutation = [1, 0] 
      %61 = tensor.empty() : tensor<8x64xf32>
      %62 = linalg.fill ins(%cst : f32) outs(%61 : tensor<8x64xf32>) -> tensor<8x64xf32>
      %63 = linalg.matmul ins(%52, %transposed_7 : tensor<8x64xf32>, tensor<64x64xf32>) outs(%62 : tensor<8x64xf32>) -> tensor<8x64xf32>
      %64 = tensor.empty() : tensor<8x64xf32>
      %65 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%63, %4 : tensor<8x64xf32>, tensor<8x64xf32>) outs(%64 : tensor<8x64xf32>) {
      ^bb0(%in: f32, %in_9: f32, %out: f32):
        %73 = arith.cmpf ogt, %in_9, %cst : f32
        %74 = arith.select %73, %in, %cst : f32
        linalg.yield %74 : f32
      } -> tensor<8x64xf32>
      %66 = tensor.empty() : tensor<32x8xf32>
      %transposed_8 = linalg.transpose ins(%arg6 : tensor<8x32xf32>) outs(%66 : tensor<32x8xf32>) permutation = [1, 0] 
      %67 = tensor.empty() : tensor<32x64xf32>
      %68 = linalg.fill ins(%cst : f32) outs(%67 : tensor<32x64xf32>) -> tensor<32x64xf32>
      %69 = linalg.matmul ins(%transposed_8, %65 : tensor<32x8xf32>, tensor<8x64xf32>) outs(%68 : tensor<32x64xf32>) -> tensor<32x64xf32>
      %70 = tensor.empty() : tensor<64xf32>
      %71 = linalg.fill ins(%cst : f32) outs(%70 : tensor<64xf32>) -> tensor<64xf32>
      %72 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "parallel"]} ins(%65 : tensor<8x64xf32>) outs(%71 : tensor<64xf32>) {
      ^bb0(%in: f32, %out: f32):
        %73 = arith.addf %in, %out : f32
        linalg.yield %73 : f32
      } -> tensor<64xf32>
      %acc_sum0 = linalg.add ins(%acc_arg0, %38 : tensor<f32>, tensor<f32>) outs(%acc_arg0 : tensor<f32>) -> tensor<f32>
      %acc_sum1 = linalg.add ins(%acc_arg1, %69 : tensor<32x64xf32>, tensor<32x64xf32>) outs(%acc_arg1 : tensor<32x64xf32>) -> tensor<32x64xf32>
      %acc_sum2 = linalg.add ins(%acc_arg2, %72 : tensor<64xf32>, tensor<64xf32>) outs(%acc_arg2 : tensor<64xf32>) -> tensor<64xf32>
      %acc_sum3 = linalg.add ins(%acc_arg3, %56 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc_arg3 : tensor<64x64xf32>) -> tensor<64x64xf32>
      %acc_sum4 = linalg.add ins(%acc_arg4, %59 : tensor<64xf32>, tensor<64xf32>) outs(%acc_arg4 : tensor<64xf32>) -> tensor<64xf32>
      %acc_sum5 = linalg.add ins(%acc_arg5, %44 : tensor<64x10xf32>, tensor<64x10xf32>) outs(%acc_arg5 : tensor<64x10xf32>) -> tensor<64x10xf32>
      %acc_sum6 = linalg.add ins(%acc_arg6, %reduced_4 : tensor<10xf32>, tensor<10xf32>) outs(%acc_arg6 : tensor<10xf32>) -> tensor<10xf32>
      scf.yield %acc_sum0, %acc_sum1, %acc_sum2, %acc_sum3, %acc_sum4, %acc_sum5, %acc_sum6 : tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64x10xf32>, tensor<10xf32>
    }
    return %acc_loop#0, %acc_loop#1, %acc_loop#2, %acc_loop#3, %acc_loop#4, %acc_loop#5, %acc_loop#6 : tensor<f32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64x10xf32>, tensor<10xf32>
  }
}

