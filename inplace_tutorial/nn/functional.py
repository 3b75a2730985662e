"""nn.functional: the stateless functions the layers call (F.relu, F.conv2d ...).

Each one is a thin composition of core ops, so its grad_fn is the same node PyTorch
shows: F.linear -> AddmmBackward0, F.cross_entropy -> NllLossBackward0, F.dropout ->
MulBackward0 (as on PyTorch's CPU path).

Argument checks come first, in PyTorch's order and words (nn/checks.py), so a bad call
raises PyTorch's error before any kernel reads a value.
"""
from __future__ import annotations

import math
import warnings

from .. import dtypes
from ..autograd import grad_mode
from ..creation import zeros
from ..function_parser import torch_function
from ..layout import broadcast_shapes
from ..ops import activations, attention, loss_ops, nn_ops, normalization, pad_nd, pooling
from ..ops import batch_norm as batch_norm_ops
from ..ops import cross_entropy as cross_entropy_ops
from ..ops import embedding as embedding_ops
from ..ops import padding as padding_ops
from ..ops.arg_checks import check_tensor, check_type, int_list
from ..ops.random_factories import rand
from ..tensor import Tensor
from . import checks, conv_utils
from .functional_activations import (  # noqa: F401  (F.elu, F.silu, F.leaky_relu_ ...)
    celu,
    celu_,
    elu,
    elu_,
    glu,
    hardshrink,
    hardsigmoid,
    hardswish,
    hardtanh,
    hardtanh_,
    leaky_relu,
    leaky_relu_,
    logsigmoid,
    mish,
    prelu,
    relu6,
    rrelu,
    rrelu_,
    selu,
    selu_,
    silu,
    softplus,
    softshrink,
    softsign,
    tanhshrink,
    threshold,
    threshold_,
)


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    check_tensor("relu_" if inplace else "relu", "input", input)
    return input.relu_() if inplace else input.relu()


def relu_(input: Tensor) -> Tensor:
    check_tensor("relu_", "input", input)
    return input.relu_()


def sigmoid(input: Tensor) -> Tensor:
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:
    return input.tanh()


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """input @ weight.T + bias; one addmm for 2-D input, as in PyTorch."""
    checks.linear(input, weight, bias)  # (the dtypes too: input's is weight's from here on)
    ndim = input.dim()
    if ndim == 2 and bias is not None:
        return nn_ops.linear(input, weight, bias)  # == bias.addmm(input, weight.t())
    if ndim != 2 and bias is not None and input.is_contiguous():
        # PyTorch folds a contiguous (in,) or (..., in) input into one addmm on a 2-D view,
        # then views the result back: grad_fn ViewBackward0 over AddmmBackward0
        out = nn_ops.linear(input.view(-1, input.shape[-1]), weight, bias)
        return out.view(*input.shape[:-1], weight.shape[0])
    out = input.matmul(weight.t())
    return out if bias is None else out + bias


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = conv_utils.NO_BIAS,
           stride=conv_utils.ONE, padding=conv_utils.ZERO, dilation=conv_utils.ONE,
           groups: int = conv_utils.ONE) -> Tensor:
    """A 3-D (unbatched) input is run as a batch of one, as PyTorch does. padding='same'
    with an odd total pads the right/bottom's extra cell first (ConstantPadNdBackward0 under
    the convolution, as PyTorch's convolution_same), then both sides alike."""
    geometry, given, extra = conv_utils.conv2d(input, weight, bias, stride, padding, dilation,
                                           groups)
    bias = None if bias is conv_utils.NO_BIAS else bias
    x = input.unsqueeze(0) if input.dim() == 3 else input
    if any(extra):
        x = pad_nd.constant_pad_nd(x, (0, extra[1], 0, extra[0]))
    out = nn_ops.conv2d(x, weight, bias, *geometry, int(groups), given)
    return out.squeeze(0) if input.dim() == 3 else out


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """native_batch_norm, after F.batch_norm's and _batch_norm_impl_index's checks. An empty
    input never reaches the kernel (see _empty_batch_norm)."""
    if training:  # PyTorch's _verify_batch_size, on input.size() (a torch.Size)
        size = input.size()
        prod = size[0]
        for d in size[2:]:
            prod *= d
        if prod == 1:
            raise ValueError("Expected more than 1 value per channel when training, got input "
                             f"size {size}")
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    checks.batch_norm_types(input, running_mean, running_var, weight, bias)
    if input.numel() == 0:
        return _empty_batch_norm(input, weight, bias)
    checks.batch_norm(input, running_mean, running_var, weight, bias, training)
    return batch_norm_ops.native_batch_norm(input, weight, bias, running_mean, running_var,
                                            training, momentum, eps)


def _empty_batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None) -> Tensor:
    """_batch_norm_impl_index's answer to an empty input, before it checks the statistics'
    sizes: no statistics, no running-stat update, and not the input itself (a view or an
    empty result would cut the graph), but ``input.clone() * weight[0] + bias[0]``, so the
    graph reads AddBackward0 <- MulBackward0 <- CloneBackward0."""
    out = input.clone()
    if weight is not None:
        out = out * weight[0]
    if bias is not None:
        out = out + bias[0]
    return out


def max_pool2d(*args, **kwargs) -> Tensor | tuple:
    """Max over each window (MaxPool2DWithIndicesBackward0, which saves the indices).

    As torch's F.max_pool2d (torch._jit_internal.boolean_dispatch), it hands the call on to
    max_pool2d_with_indices when return_indices is true (by keyword, else 7th positional),
    otherwise to _max_pool2d: Python's own refusals name the function that got the call
    (``_max_pool2d() got an unexpected keyword argument 'foo'``)."""
    flag = kwargs["return_indices"] if "return_indices" in kwargs else (
        args[6] if len(args) > 6 else False)
    return (max_pool2d_with_indices if flag else _max_pool2d)(*args, **kwargs)


def _max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
                ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
    """F.max_pool2d without indices (torch.max_pool2d's binding checks the arguments)."""
    k, st, pad, dil = checks.pool2d("max_pool2d", input, kernel_size, stride, padding,
                                    dilation, ceil_mode)
    return pooling.max_pool2d_with_indices(input, k, st, pad, dil, ceil_mode)[0]


def max_pool2d_with_indices(input: Tensor, kernel_size, stride=None, padding=0,
                            dilation=1, ceil_mode: bool = False,
                            return_indices: bool = False) -> tuple:
    """F.max_pool2d(..., return_indices=True): (values, indices), torch._C._nn's
    max_pool2d_with_indices binding naming the bad argument."""
    k, st, pad, dil = checks.pool2d("max_pool2d", input, kernel_size, stride, padding,
                                    dilation, ceil_mode, binding="max_pool2d_with_indices")
    return pooling.max_pool2d_with_indices(input, k, st, pad, dil, ceil_mode)


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """Mean over each window (AvgPool2DBackward0)."""
    k, st, pad, _ = checks.pool2d("avg_pool2d", input, kernel_size, stride, padding,
                                  ceil_mode=ceil_mode, count_include_pad=count_include_pad,
                                  divisor_override=divisor_override)
    return pooling.avg_pool2d(input, k, st, pad, ceil_mode, count_include_pad,
                              divisor_override)


def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    """Zero each element with probability p and scale the rest by 1/(1-p).

    The mask comes from ipt's generator, so ``ipt.manual_seed`` makes it reproducible.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    check_tensor("dropout_" if inplace else "dropout", "input", input)
    checks.of_type("dropout_" if inplace else "dropout", "train", training, bool, 3)
    if not training or p == 0.0:
        return input
    if p == 1.0:  # PyTorch multiplies by a zero of input's own dtype
        zero = zeros((), dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    if not input.dtype.is_floating_point:  # the mask is float: it can't be written back
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{input.dtype.short}")
    # torch: noise = empty_like(input).bernoulli_(1 - p).div_(1 - p); input * noise
    mask = (rand(input.shape, dtype=input.dtype) >= p).to(input.dtype).div_(1.0 - p)
    return input.mul_(mask) if inplace else input * mask


def gelu(input: Tensor, *, approximate: str = "none") -> Tensor:
    """x * Phi(x) (GeluBackward0); approximate='tanh' is GPT-2's tanh formula."""
    check_tensor("gelu", "input", input)
    checks.of_type("gelu", "approximate", approximate, str, None)
    return activations.gelu(input, approximate)


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise over the trailing dims (NativeLayerNormBackward0)."""
    check_tensor("layer_norm", "input", input)
    normalized_shape = int_list("layer_norm", "normalized_shape", (normalized_shape,),
                                position=2, varargs=False)
    check_type("layer_norm", "eps", eps, float, 5)
    if not normalized_shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    checks.layer_norm(input, weight, bias)
    return normalization.layer_norm(input, normalized_shape, weight, bias, eps)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """Rows of ``weight`` picked by the integer ``input`` (EmbeddingBackward0). With
    ``max_norm``, the rows picked are first renormalised in the weight itself (see
    ops/embedding.py:embedding_renorm_), as PyTorch's F.embedding does.
    ``scale_grad_by_freq`` divides each row's gradient by its index's count in the batch;
    ``sparse`` asks for a sparse gradient, which the core can't make (its backward says so)."""
    if padding_idx is not None:  # F.embedding's Python asserts, before anything else
        if padding_idx > 0:
            if padding_idx >= weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.size(0) + padding_idx
    if max_norm is not None:
        input = input.contiguous()  # (PyTorch's own first step: a list has no .contiguous)
        with grad_mode.no_grad():
            embedding_ops.embedding_renorm_(weight, input, max_norm, norm_type)
    check_tensor("embedding", "weight", weight, 1)  # torch.embedding(weight, indices)
    check_tensor("embedding", "indices", input, 2)
    checks.of_type("embedding", "scale_grad_by_freq", scale_grad_by_freq, bool, 4)
    checks.of_type("embedding", "sparse", sparse, bool, 5)
    return embedding_ops.embedding(input, weight, padding_idx, scale_grad_by_freq, sparse)


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None) -> Tensor:
    """softmax(q k^T / sqrt(E) + mask) v: one fused node, as PyTorch's CPU kernel.

    PyTorch's fused kernel needs value's last dim equal to query's and no dropout; otherwise
    it runs the math path, spelled out here too (matmul, softmax, dropout, matmul), and each
    piece records its own node."""
    if dropout_p > 0.0 or value.shape[-1] != query.shape[-1]:
        return _attention_math(query, key, value, attn_mask, dropout_p, is_causal,
                                       scale)
    return attention.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p,
                                                  is_causal, scale)


def _attention_math(query, key, value, attn_mask, dropout_p, is_causal, scale):
    sc = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = query.matmul(key.transpose(-2, -1)) * sc
    mask = attention.additive_mask(attn_mask, is_causal, query.shape[-2], key.shape[-2],
                                    query.dtype)
    if mask is not None:
        scores = scores + mask
    probs = scores.softmax(-1)
    return (dropout(probs, dropout_p) if dropout_p > 0.0 else probs).matmul(value)


def _softmax_dim(name: str, ndim: int) -> int:
    """PyTorch's _get_softmax_dim: the legacy choice when no dim is given, with its warning."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: dtypes.dtype | None = None) -> Tensor:
    if dim is None:
        dim = _softmax_dim("softmax", input.dim())
    return (input if dtype is None else input.to(dtype)).softmax(dim)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype: dtypes.dtype | None = None) -> Tensor:
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim())
    return (input if dtype is None else input.to(dtype)).log_softmax(dim)


def _legacy_reduction(size_average: bool | None, reduce: bool | None) -> str:
    """PyTorch's _Reduction.legacy_get_string: the deprecated flags, read as a reduction."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn(f"size_average and reduce args will be deprecated, please use "
                  f"reduction='{ret}' instead.", stacklevel=3)
    return ret


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             size_average: bool | None = None, ignore_index: int = -100,
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """-input[target] (times weight[target]), reduced; input (C,), (N, C) or (N, C, d1, ...)
    with targets (), (N,) or (N, d1, ...) (NllLossBackward0, or NllLoss2DBackward0)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    checks.reduction(reduction)
    checks.loss_arguments("nll_loss_nd", input, target, weight, ignore_index)
    return loss_ops.nll_loss_nd(input, target, weight, reduction, ignore_index)


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  size_average: bool | None = None, ignore_index: int = -100,
                  reduce: bool | None = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """log_softmax over the class dim, then nll_loss: PyTorch's own composition (see
    ops/cross_entropy.py for probability targets and label smoothing)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    checks.reduction(reduction)
    checks.loss_arguments("cross_entropy_loss", input, target, weight, ignore_index)
    check_type("cross_entropy_loss", "label_smoothing", label_smoothing, float, 6)
    return cross_entropy_ops.cross_entropy(input, target, weight, reduction, ignore_index,
                                           label_smoothing)


def mse_loss(input: Tensor, target: Tensor, size_average: bool | None = None,
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """As PyTorch's F.mse_loss: target and input broadcast (with a warning when their sizes
    differ), then the kernel runs on the broadcast pair."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if target.size() != input.size():
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input "
                      f"size ({input.size()}). This will likely lead to incorrect results due "
                      "to broadcasting. Please ensure they have the same size.", stacklevel=2)
    checks.reduction(reduction)
    shape = broadcast_shapes(input._shape, target._shape)
    rd = dtypes.result_type(input, target)  # the kernel computes in the promoted dtype
    if rd.is_floating_point:
        input, target = input.to(rd), target.to(rd)
    if input._shape != shape:
        input = input.expand(shape)
    if target._shape != shape:
        target = target.expand(shape)
    return loss_ops.mse_loss(input, target, reduction)


def pad(input: Tensor, pad, mode: str = "constant", value=None) -> Tensor:  # noqa: A002
    """F.pad (ops/padding.py): 'constant' is constant_pad_nd; 'reflect' and 'replicate' are
    kernels with their own nodes (ReflectionPad2DBackward0 ...); 'circular' is slice copies."""
    return padding_ops.pad(input, pad, mode, value)


# The functions torch binds with its C++ parser (F.linear is torch._C._nn.linear, F.conv2d is
# torch.conv2d): a call that parser refuses is refused in its words (function_parser.py)
linear = torch_function("linear", "nn")(linear)
avg_pool2d = torch_function("avg_pool2d", "nn")(avg_pool2d)
gelu = torch_function("gelu", "nn")(gelu)
scaled_dot_product_attention = torch_function("scaled_dot_product_attention", "nn")(
    scaled_dot_product_attention)
conv2d = torch_function("conv2d")(conv2d)
relu_ = torch_function("relu_")(relu_)
