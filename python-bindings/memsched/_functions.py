"""Functions of ``torch`` and ``torch.nn.functional`` that the first trace
runs in other ATen ops, so that autograd differentiates those.

Each entry is used where PyTorch 1.13 gives the importer nothing it can
lower: no decomposition of the op or of its backward outside prims
(bilinear upsampling, adaptive pooling, 1-D convolutions, pixel shuffles,
PReLU, embedding bags of a fixed size, the smooth L1 and Huber losses), or
a kernel that fails under fake tensors (cross entropy with label smoothing
writes a real scalar tensor through ``index_put_``). Each computes what PyTorch's
kernel computes, in the same ATen ops where there is one (the 1-D
convolution is the 2-D one over a height of 1). A decomposer returns None
where it does not apply; the function then runs as it is.
"""

import torch
import torch.nn.functional as F


def _bilinear(input, size=None, scale_factor=None, mode="nearest",
              align_corners=None, recompute_scale_factor=None,
              antialias=False):
    if mode != "bilinear" or antialias or input.dim() != 4:
        return None
    from torch._decomp.decompositions import upsample_bilinear2d_vec
    if size is not None:
        size = [size] * 2 if isinstance(size, int) else list(size)
        scales = None
    else:
        scales = [scale_factor] * 2 if isinstance(
            scale_factor, (int, float)) else list(scale_factor)
        if recompute_scale_factor:
            size = [int(n * s) for n, s in zip(input.shape[2:], scales)]
            scales = None
    return upsample_bilinear2d_vec(input, size, bool(align_corners), scales)


def _pooled_sizes(input, output_size, dims):
    """Adaptive pooling's ``(input size, output size)`` over each of the
    last ``dims`` dims (an output size of None keeps the input's)."""
    sizes = [output_size] * dims if isinstance(output_size, int) else \
        list(output_size)
    return [(n, n if s is None else s)
            for n, s in zip(input.shape[-dims:], sizes)]


def _even_windows(input, output_size, dims):
    """The window of adaptive pooling where every window has the same
    size; None otherwise."""
    sizes = _pooled_sizes(input, output_size, dims)
    if any(n % s for n, s in sizes):
        return None
    return [n // s for n, s in sizes]


def _adaptive_avg_pool2d(input, output_size):
    """Uneven windows only: the even ones are average pooling, whose
    backward has a core lowering."""
    from torch._decomp.decompositions import adaptive_avg_pool2d
    sizes = _pooled_sizes(input, output_size, 2)
    if all(n % s == 0 or s % n == 0 for n, s in sizes):
        return None
    return adaptive_avg_pool2d(input, [s for _, s in sizes])


def _adaptive_max_pool2d(input, output_size, return_indices=False):
    window = _even_windows(input, output_size, 2)
    if return_indices or window is None:
        return None
    return F.max_pool2d(input, window, window)


def _adaptive_max_pool1d(input, output_size, return_indices=False):
    window = _even_windows(input, output_size, 1)
    if return_indices or window is None:
        return None
    return F.max_pool1d(input, window, window)


def _pair(value, leading):
    """A 1-D convolution's stride, padding or dilation for the 2-D one:
    ``leading`` for the height of 1."""
    if isinstance(value, str):
        return value
    if isinstance(value, (tuple, list)):
        value, = value
    return (leading, value)


def _conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1,
            groups=1):
    return torch.conv2d(input.unsqueeze(-2), weight.unsqueeze(-2), bias,
                        _pair(stride, 1), _pair(padding, 0),
                        _pair(dilation, 1), groups).squeeze(-2)


def _conv_transpose1d(input, weight, bias=None, stride=1, padding=0,
                      output_padding=0, groups=1, dilation=1):
    return torch.conv_transpose2d(
        input.unsqueeze(-2), weight.unsqueeze(-2), bias, _pair(stride, 1),
        _pair(padding, 0), _pair(output_padding, 0), groups,
        _pair(dilation, 1)).squeeze(-2)


def _pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    r = upscale_factor
    *lead, channels, height, width = input.shape
    n = len(lead)
    blocks = input.reshape(*lead, channels // (r * r), r, r, height, width)
    return blocks.permute(*range(n), n, n + 3, n + 1, n + 4, n + 2).reshape(
        *lead, channels // (r * r), height * r, width * r)


def _pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    r = downscale_factor
    *lead, channels, height, width = input.shape
    n = len(lead)
    blocks = input.reshape(*lead, channels, height // r, r, width // r, r)
    return blocks.permute(*range(n), n, n + 2, n + 4, n + 1, n + 3).reshape(
        *lead, channels * r * r, height // r, width // r)


def _prelu(input, weight):
    """``x`` where positive, else ``weight * x``; one weight per channel
    (dim 1, or dim 0 of a 1-D input) or one for all."""
    if weight.numel() == 1:
        slope = weight.reshape(())
    else:
        shape = [1] * input.dim()
        shape[1 if input.dim() > 1 else 0] = weight.numel()
        slope = weight.reshape(shape)
    return torch.where(input > 0, input, slope * input)


def _embedding_bag(input, weight, offsets=None, max_norm=None,
                   norm_type=2, scale_grad_by_freq=False, mode="mean",
                   sparse=False, per_sample_weights=None,
                   include_last_offset=False, padding_idx=None):
    """Bags of a fixed size (a 2-D input, one bag per row): the rows'
    embeddings summed, averaged or maximised over each bag; entries equal
    to ``padding_idx`` take no part (an empty bag gives zeros). Bags given
    by offsets have sizes known only from data: None."""
    if input.dim() != 2 or offsets is not None or max_norm is not None or \
            (padding_idx is not None and mode == "max"):
        return None
    rows = F.embedding(input, weight, scale_grad_by_freq=scale_grad_by_freq)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.unsqueeze(-1)
    if mode == "max":
        return rows.max(1).values
    if padding_idx is not None:
        kept = (input != padding_idx % weight.shape[0]).unsqueeze(-1)
        rows = rows.masked_fill(~kept, 0.0)
    total = rows.sum(1)
    if mode == "sum":
        return total
    if padding_idx is None:
        return total / input.shape[1]
    count = kept.sum(1)
    return torch.where(count > 0, total / count.clamp(min=1), 0.0)


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _reduction_of(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return torch.nn._reduction.legacy_get_string(size_average, reduce)
    return reduction


def _smooth_l1_loss(input, target, size_average=None, reduce=None,
                    reduction="mean", beta=1.0):
    reduction = _reduction_of(size_average, reduce, reduction)
    input, target = torch.broadcast_tensors(input, target)
    difference = (input - target).abs()
    if beta == 0:
        return _reduce(difference, reduction)
    loss = torch.where(difference < beta, 0.5 * difference * difference /
                       beta, difference - 0.5 * beta)
    return _reduce(loss, reduction)


def _huber_loss(input, target, reduction="mean", delta=1.0):
    input, target = torch.broadcast_tensors(input, target)
    difference = (input - target).abs()
    loss = torch.where(difference < delta, 0.5 * difference * difference,
                       delta * (difference - 0.5 * delta))
    return _reduce(loss, reduction)


def _cross_entropy(input, target, weight=None, size_average=None,
                   ignore_index=-100, reduce=None, reduction="mean",
                   label_smoothing=0.0):
    """With label smoothing and class indices only: ``(1 - e) * nll +
    e / C * smooth``, where ``smooth`` is the (weighted) negative sum of
    the log-probabilities, 0 at ignored targets, reduced as the loss is."""
    if not label_smoothing or target.is_floating_point():
        return None
    reduction = _reduction_of(size_average, reduce, reduction)
    class_dim = 0 if input.dim() == 1 else 1
    classes = input.shape[class_dim]
    log_probabilities = F.log_softmax(input, class_dim)
    nll = F.nll_loss(log_probabilities, target, weight,
                     ignore_index=ignore_index, reduction=reduction)
    ignored = target == ignore_index
    if weight is not None:
        shape = [1] * input.dim()
        shape[class_dim] = classes
        log_probabilities = log_probabilities * weight.reshape(shape)
    smooth = (-log_probabilities.sum(class_dim)).masked_fill(ignored, 0.0)
    if reduction == "mean":
        if weight is not None:
            # The weights of the targets, 0 where ignored (class 0 stands
            # in for an ignored target's class, which may be out of range).
            taken = weight.gather(0, target.masked_fill(ignored, 0).flatten())
            smooth = smooth.sum() / taken.masked_fill(ignored.flatten(),
                                                      0.0).sum()
        else:
            smooth = smooth.sum() / (~ignored).sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - label_smoothing) * nll + smooth * (label_smoothing / classes)


DECOMPOSITIONS = {
    F.interpolate: _bilinear,
    F.adaptive_avg_pool2d: _adaptive_avg_pool2d,
    F.adaptive_max_pool2d: _adaptive_max_pool2d,
    F.adaptive_max_pool1d: _adaptive_max_pool1d,
    torch.conv1d: _conv1d,
    torch.conv_transpose1d: _conv_transpose1d,
    torch.pixel_shuffle: _pixel_shuffle,
    torch.pixel_unshuffle: _pixel_unshuffle,
    torch.prelu: _prelu,
    F.embedding_bag: _embedding_bag,
    F.smooth_l1_loss: _smooth_l1_loss,
    F.huber_loss: _huber_loss,
    F.cross_entropy: _cross_entropy,
}
