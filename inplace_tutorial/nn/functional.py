"""nn.functional: the stateless functions the layers call (F.relu, F.conv2d ...).

Each one is a thin composition of core ops, so its grad_fn is the same node PyTorch
shows: F.linear -> AddmmBackward0, F.cross_entropy -> NllLossBackward0, F.dropout ->
MulBackward0 (as on PyTorch's CPU path).
"""
from __future__ import annotations

import math

from ..creation import rand
from ..ops import activations, attention, loss_ops, nn_ops, normalization
from ..ops import embedding as embedding_ops
from ..tensor import Tensor


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    return input.relu_() if inplace else input.relu()


def sigmoid(input: Tensor) -> Tensor:
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:
    return input.tanh()


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """input @ weight.T + bias; one addmm for 2-D input, as in PyTorch."""
    nn_ops.check_linear_dtypes(input, weight)
    if input.dim() == 2 and bias is not None:
        return nn_ops.linear(input, weight, bias)  # == bias.addmm(input, weight.t())
    if input.dim() > 2 and bias is not None and input.is_contiguous():
        # PyTorch folds a contiguous (..., in) input into one addmm on a 2-D view, then
        # views the result back: grad_fn ViewBackward0 over AddmmBackward0
        out = nn_ops.linear(input.view(-1, input.shape[-1]), weight, bias)
        return out.view(*input.shape[:-1], weight.shape[0])
    out = input.matmul(weight.t())
    return out if bias is None else out + bias


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,
           padding=0) -> Tensor:
    return nn_ops.conv2d(input, weight, bias, stride, padding)


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
    return nn_ops.native_batch_norm(input, weight, bias, running_mean, running_var, training,
                                    momentum, eps)


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0,
               return_indices: bool = False):
    out, indices = nn_ops.max_pool2d_with_indices(input, kernel_size, stride, padding)
    return (out, indices) if return_indices else out


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0) -> Tensor:
    return nn_ops.avg_pool2d(input, kernel_size, stride, padding)


def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    """Zero each element with probability p and scale the rest by 1/(1-p).

    The mask comes from ipt's generator, so ``ipt.manual_seed`` makes it reproducible.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input.mul_(0.0) if inplace else input * 0.0
    # torch: noise = empty_like(input).bernoulli_(1 - p).div_(1 - p); input * noise
    mask = (rand(*input.shape, dtype=input.dtype) >= p).to(input.dtype).div_(1.0 - p)
    return input.mul_(mask) if inplace else input * mask


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """x * Phi(x) (GeluBackward0); approximate='tanh' is GPT-2's tanh formula."""
    return activations.gelu(input, approximate)


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise over the trailing dims (NativeLayerNormBackward0)."""
    return normalization.layer_norm(input, normalized_shape, weight, bias, eps)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None) -> Tensor:
    """Rows of ``weight`` picked by the integer ``input`` (EmbeddingBackward0)."""
    return embedding_ops.embedding(input, weight, padding_idx)


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


def softmax(input: Tensor, dim: int) -> Tensor:
    return input.softmax(dim)


def log_softmax(input: Tensor, dim: int) -> Tensor:
    return input.log_softmax(dim)


def nll_loss(input: Tensor, target: Tensor, reduction: str = "mean",
             ignore_index: int = -100) -> Tensor:
    return loss_ops.nll_loss(input, target, reduction, ignore_index)


def cross_entropy(input: Tensor, target: Tensor, reduction: str = "mean",
                  ignore_index: int = -100) -> Tensor:
    """log_softmax over the class dim, then nll_loss: PyTorch's own composition."""
    return loss_ops.nll_loss(input.log_softmax(1), target, reduction, ignore_index)


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    return loss_ops.mse_loss(input, target, reduction)


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    return input.flatten(start_dim, end_dim)
