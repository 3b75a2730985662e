"""Every op in the derivative table passes gradcheck (float64, finite differences).

The case list must cover DERIVATIVES exactly, so a new op cannot join the table without a
gradient check. Values are random (hypothesis picks the seed); shapes are small and fixed per
op, with other shapes covered in test_autograd.py.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_settings import examples

import inplace_tutorial as ipt
from inplace_tutorial.autograd import gradcheck
from inplace_tutorial.autograd.function import DERIVATIVES
from inplace_tutorial.nn import functional as F
from inplace_tutorial.ops.scalar_overloads import add_scalar, div_scalar, mul_scalar


def _seeded(fn):
    """Random fills must draw the same numbers at every evaluation of finite differences."""
    def run(*xs):
        ipt.manual_seed(0)
        return fn(*xs)
    return run


def _rows(a):
    return ipt.arange(a.shape[0])


def _classes(a, ignore: bool = False):
    """Class indices for every position of a (N, C, ...) input (the class dim left out), a
    fixed pattern for any size; ``ignore``: every fifth one is -100."""
    shape = (a.shape[0], *a.shape[2:])
    n = int(np.prod(shape))
    idx = np.arange(n) * 7 % a.shape[1]
    if ignore:
        idx[::5] = -100
    return ipt.tensor(idx.reshape(shape))


def _zero_first(a):
    """a with its first column zeroed, through a multiplication (the gradient flows on)."""
    mask = ipt.ones(*a.shape, dtype=a.dtype)
    mask[:, 0] = 0
    return a * mask


def _svd_vectors(a):
    """Functions of U and Vh that no sign choice of LAPACK changes (u_j v_jᵀ, squares), of
    the reduced SVD of a (wide) and the full SVD of its transpose (tall: U's columns past k
    take no part, as their gradient is not defined)."""
    U, S, Vh = ipt.linalg.svd(a, full_matrices=False)
    U2, _, Vh2 = ipt.linalg.svd(a.transpose(1, 2))
    k = S.shape[-1]
    w = ipt.tensor(np.linspace(-1.0, 2.0, k), dtype=ipt.float64)
    return ((U @ Vh).sum(-1) + (U2[..., :k] @ Vh2).sum(-2) + (U * U * w).sum(-1)
            + (Vh2 * Vh2 * w.unsqueeze(-1)).sum(-2))


def _class_weights(a):
    return ipt.tensor(np.linspace(0.5, 2.0, a.shape[1]), dtype=ipt.float64)


A, B, M, BATCH, IMG = (2, 3), (3, 4), (3, 3), (2, 3, 4), (2, 2, 4, 4)
# op -> (function of the float64 leaves, shapes of the leaves, value kind: True = positive;
# "float32-exact" = multiples of 2**-10, so a float32 round trip and the finite-difference
# steps of 2**-10 stay exact)
CASES = {
    "abs": (lambda a: a.abs(), [A], False),
    "add": (lambda a, b: a.add(b, alpha=2), [A, A], False),
    "sub": (lambda a, b: a.sub(b, alpha=3), [A, A], False),
    "rsub": (lambda a: 2 - a, [A], False),
    "mul": (lambda a, b: a * b, [A, A], False),
    "div": (lambda a, b: a / b, [A, A], True),
    # (a named mode is a step function: zero gradient, compared with torch in the parity suite)
    "div_mode": (lambda a, b: a.div(b, rounding_mode=None), [A, A], True),
    "pow": (lambda a: a.pow(3), [A], True),
    "pow_tensor": (lambda a, b: a.pow(b), [A, A], True),
    "pow_scalar": (lambda a: 2 ** a, [A], False),
    "neg": (lambda a: -a, [A], False),
    "exp": (lambda a: a.exp(), [A], False),
    "log": (lambda a: a.log(), [A], True),
    "sqrt": (lambda a: a.sqrt(), [A], True),
    "relu": (lambda a: a.relu(), [A], False),
    "sigmoid": (lambda a: a.sigmoid(), [A], False),
    "tanh": (lambda a: a.tanh(), [A], False),
    "reciprocal": (lambda a: a.reciprocal(), [A], True),
    "sign": (lambda a: a.sign() * a, [A], False),
    "angle": (lambda a: a.angle() * a + ipt.angle(a.t()).t(), [A], False),
    "clamp": (lambda a: a.clamp(-0.3, 0.4), [A], False),
    "clamp_min": (lambda a: a.clamp_min(0.1), [A], False),
    "clamp_max": (lambda a: a.clamp_max(0.1), [A], False),
    "maximum": (lambda a, b: ipt.maximum(a, b), [A, A], False),
    "fmax": (lambda a, b: ipt.fmax(a, b), [A, A], False),
    "fmin": (lambda a, b: ipt.fmin(a, b), [A, A], False),
    "minimum": (lambda a, b: ipt.minimum(a, b), [A, A], False),
    "where": (lambda a, b: ipt.where(a > b, a, b), [A, A], False),
    "addcmul": (lambda a, b, c: a.addcmul(b, c, value=0.5), [A, A, A], False),
    "addcdiv": (lambda a, b, c: a.addcdiv(b, c, value=0.5), [A, A, A], True),
    "lerp": (lambda a, b: a.lerp(b, 0.25), [A, A], False),
    "copy_": (lambda a, b: (a * 1).copy_(b * 2), [A, A], False),
    "zero_": (lambda a: (a * 2).zero_() + a, [A], False),
    "fill_": (lambda a: (a * 2).fill_(3.0) * a, [A], False),
    "normal_": (_seeded(lambda a: (a * 1).normal_() + a), [A], False),
    "uniform_": (_seeded(lambda a: (a * 1).uniform_() * a), [A], False),
    "random_from": (_seeded(lambda a: (a * 1).random_(0, 5) + a), [A], False),
    "random_to": (_seeded(lambda a: (a * 1).random_(5) * a), [A], False),
    "random_": (_seeded(lambda a: (a * 1).random_() * 2.0 ** -53 + a), [A], False),
    "bernoulli_": (_seeded(lambda a: (a * 1).bernoulli_(0.5) * a), [A], False),
    "bernoulli_tensor": (_seeded(lambda a, p: (a * 1).bernoulli_(p.sigmoid().detach()) + a
                                 + p), [A, A], False),
    "exponential_": (_seeded(lambda a: (a * 1).exponential_() * a), [A], False),
    "geometric_": (_seeded(lambda a: (a * 1).geometric_(0.5) + a), [A], False),
    "log_normal_": (_seeded(lambda a: (a * 1).log_normal_() * a), [A], False),
    "cauchy_": (_seeded(lambda a: (a * 1).cauchy_() + a), [A], False),
    "fill_tensor": (lambda a, v: (a * 2).fill_(v[0, 0] * 3) * a, [A, A], False),
    "fill_out": (lambda a: ipt.fill(a * 2, 3.0) * a, [A], False),
    "fill_tensor_out": (lambda a, v: ipt.fill(a * 2, v[0, 0] * 3) * a, [A, A], False),
    "bernoulli": (_seeded(lambda a: ipt.bernoulli(a.sigmoid()) + a), [A], False),
    "to": (lambda a: a.to(ipt.float32).to(ipt.float64) * a, [A], "float32-exact"),
    "clone": (lambda a: a.clone(), [A], False),
    "view": (lambda a: a.view(6), [A], False),
    "_unsafe_view": (lambda a: a.t().reshape(6), [A], False),
    "_reshape_alias": (lambda a: a.t().reshape(a.shape[1], a.shape[0], 1) * 1, [A], False),
    "permute": (lambda a: a.permute(2, 0, 1), [BATCH], False),
    "transpose": (lambda a: a.transpose(0, 2), [BATCH], False),
    "t": (lambda a: a.t(), [A], False),
    "expand": (lambda a: a.unsqueeze(0).expand(3, 2, 3), [A], False),
    "unsqueeze": (lambda a: a.unsqueeze(1), [A], False),
    "squeeze": (lambda a: a.unsqueeze(0).squeeze(), [A], False),
    "squeeze_dim": (lambda a: a.unsqueeze(1).squeeze(1), [A], False),
    "squeeze_dims": (lambda a: a.unsqueeze(1).unsqueeze(0).squeeze((0, -2)), [A], False),
    "select": (lambda a: a.select(1, 2), [A], False),
    "slice": (lambda a: a[:, ::2], [A], False),
    "alias": (lambda a: a[...], [A], False),
    "unbind": (lambda a: a.unbind(0)[1] * 2, [A], False),
    "split": (lambda a: a.split(2, 1)[1] * 2, [A], False),
    "split_with_sizes": (lambda a: a.split([1, 2], 1)[0] * 2, [A], False),
    "as_strided": (lambda a: a.as_strided((2, 2), (1, 2), 1), [A], False),
    "transpose_": (lambda a: (a * 1).transpose_(0, 1), [A], False),
    "t_": (lambda a: (a * 1).t_(), [A], False),
    "unsqueeze_": (lambda a: (a * 1).unsqueeze_(0), [A], False),
    "squeeze_": (lambda a: (a * 1).unsqueeze(0).squeeze_(), [A], False),
    "squeeze_dim_": (lambda a: (a * 1).unsqueeze(0).squeeze_(0), [A], False),
    "squeeze_dims_": (lambda a: (a * 1).unsqueeze(0).squeeze_((0, 1)), [A], False),
    "as_strided_": (lambda a: (a * 1).as_strided_((3,), (2,), 0), [A], False),
    "index": (lambda a: a[[1, 0, 1]] * 1, [A], False),
    "index_put_": (lambda a, b: (a * 1).index_put_((a > 0.0,), b[0, 0]), [A, A], False),
    # two index tensors (rows picked twice, accumulated), then one picking whole rows
    "index_put": (lambda a, b: a.index_put((_rows(a) // 2, _rows(a) % a.shape[1]), b[:, 0] * 1,
                                           accumulate=True)
                  + a.index_put((_rows(a).flip(0),), b), [A, A], False),
    "sum": (lambda a: a.sum(), [A], False),
    "sum_dim": (lambda a: a.sum(1, keepdim=True), [A], False),
    "mean": (lambda a: a.mean(), [A], False),
    "mean_dim": (lambda a: a.mean(0), [A], False),
    "var": (lambda a: a.var(1), [A], False),
    "std": (lambda a: a.std(0, unbiased=False), [A], False),
    "amax": (lambda a: a.amax(1), [A], False),
    "max_all": (lambda a: a.max(), [A], False),
    "max_dim": (lambda a: a.max(1).values, [A], False),
    "amin": (lambda a: a.amin(1), [A], False),
    "min_all": (lambda a: a.min(), [A], False),
    "min_dim": (lambda a: a.min(1).values, [A], False),
    "softmax": (lambda a: a.softmax(1), [A], False),
    "log_softmax": (lambda a: a.log_softmax(0), [A], False),
    "mm": (lambda a, b: a.mm(b), [A, B], False),
    "mv": (lambda a, b: a.mv(b), [A, (3,)], False),
    "dot": (lambda a, b: a.dot(b), [(3,), (3,)], False),
    "bmm": (lambda a, b: a.bmm(b), [BATCH, (2, 4, 3)], False),
    "addmm": (lambda s, a, b: ipt.addmm(s, a, b, beta=0.5, alpha=2), [(2, 4), A, B], False),
    "addbmm": (lambda s, a, b: ipt.addbmm(s, a, b, beta=2), [M, (2, 3, 4), (2, 4, 3)], False),
    "baddbmm": (lambda s, a, b: ipt.baddbmm(s, a, b, alpha=0.5), [(2, 3, 3), BATCH, (2, 4, 3)],
                False),
    "einsum": (lambda a, b: ipt.einsum("bij,bjk->ik", a, b), [BATCH, (2, 4, 3)], False),
    "convolution": (lambda x, w, b: F.conv2d(x, w, b, stride=1, padding=1).sum()
                    + F.conv2d(x, w[:2, :1], b[:2], 1, 2, 2, 2).sum()
                    + F.conv2d(x[0], w, None, (2, 1), 1, (1, 2)).sum(),
                    [IMG, (3, 2, 3, 3), (3,)], False),
    "max_pool2d": (lambda x: F.max_pool2d(x, 2).sum()
                   + F.max_pool2d(x, 3, 2, 1, dilation=2, ceil_mode=True).sum()
                   + F.max_pool2d(x[0], 2, 1, dilation=(1, 2)).sum(), [IMG], False),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, 2).sum()
                   + F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False).sum()
                   + F.avg_pool2d(x[0], 2, 3, 1, ceil_mode=True, divisor_override=3).sum(),
                   [IMG], False),
    "native_batch_norm": (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
                          [IMG, (2,), (2,)], False),
    "mse_loss": (lambda a, b: F.mse_loss(a, b), [A, A], False),
    "nll_loss": (lambda a: F.nll_loss(a.log_softmax(1), ipt.tensor([2, 0]))
                 + F.nll_loss(a, ipt.tensor([1, -100]), weight=ipt.tensor([0.5, 2.0, 1.5],
                                                                         dtype=ipt.float64))
                 + F.nll_loss(a[1], ipt.tensor(2), reduction="sum"), [A], False),
    "nll_loss2d": (lambda a: F.nll_loss(a, _classes(a, ignore=True), weight=_class_weights(a))
                   + F.cross_entropy(a[:, :, 0], _classes(a[:, :, 0]), reduction="sum"),
                   [(2, 3, 2, 2)], False),
    "mul_scalar": (lambda a: mul_scalar(a, 0.7), [A], False),
    "div_scalar": (lambda a: div_scalar(a, 3), [A], False),
    "add_scalar": (lambda a, p: add_scalar(a, 2.5).sum()
                   + F.cross_entropy(a, p, label_smoothing=0.2)
                   + F.cross_entropy(a, _classes(a), label_smoothing=0.3), [A, A], False),
    "native_layer_norm": (lambda x, w, b: F.layer_norm(x, (3, 4), w, b), [BATCH, (3, 4), (3, 4)],
                          False),
    "embedding": (lambda w: F.embedding(ipt.tensor([[0, 2], [2, 3]]), w, padding_idx=1),
                  [(4, 3)], False),
    "constant_pad_nd": (lambda a: ipt.constant_pad_nd(a, (1, 2, -1, 1), 0.5), [A], False),
    "linalg_cross": (lambda a, b: ipt.linalg.cross(a, b) + ipt.cross(a.t(), b.t(), dim=0).t(),
                     [(2, 3), (1, 3)], False),
    "gelu": (lambda a: F.gelu(a) + F.gelu(a * 3, approximate="tanh"), [A], False),
    "sdpa": (lambda q, k, v: F.scaled_dot_product_attention(
        q, k, v, attn_mask=ipt.tensor([[True, False, True]] * 2)), [(2, 2, 4), (2, 3, 4),
                                                                    (2, 3, 2)], False),
    # pointwise: tensor-bound clamp, tensor-weight lerp, unary math, in-place comparisons,
    # binary math
    "clamp_tensor": (lambda a, lo, hi: a.clamp(lo * 0.3, hi * 0.3 + 1), [A, A, A], False),
    "clamp_min_tensor": (lambda a, b: a.clamp_min(b), [A, A], False),
    "clamp_max_tensor": (lambda a, b: (a * 1).clamp_max_(b), [A, A], False),
    "lerp_tensor": (lambda a, b, w: a.lerp(b, w), [A, A, A], False),
    "sin": (lambda a: a.sin(), [A], False),
    "cos": (lambda a: (a * 1).cos_(), [A], False),
    "tan": (lambda a: (a * 0.5).tan(), [A], False),
    "asin": (lambda a: (a * 0.4).asin(), [A], False),
    "acos": (lambda a: (a * 0.4).acos_(), [A], False),
    "atan": (lambda a: a.atan(), [A], False),
    "sinh": (lambda a: a.sinh(), [A], False),
    "cosh": (lambda a: a.cosh(), [A], False),
    "asinh": (lambda a: a.asinh(), [A], False),
    "acosh": (lambda a: (a + 1).acosh(), [A], True),
    "atanh": (lambda a: (a * 0.4).atanh(), [A], False),
    "deg2rad": (lambda a: a.deg2rad(), [A], False),
    "rad2deg": (lambda a: (a * 1).rad2deg_(), [A], False),
    "sinc": (lambda a: a.sinc(), [A], False),
    "floor": (lambda a: a.floor() + a, [A], False),
    "ceil": (lambda a: (a * 1).ceil_() * a, [A], False),
    "trunc": (lambda a: a.trunc() * a, [A], False),
    "round": (lambda a: a.round() * a, [A], False),
    "round_decimals": (lambda a: a.round(decimals=1) * a, [A], False),
    "frac": (lambda a: a.frac(), [A], False),
    "exp2": (lambda a: a.exp2(), [A], False),
    "expm1": (lambda a: (a * 1).expm1_(), [A], False),
    "log2": (lambda a: a.log2(), [A], True),
    "log10": (lambda a: a.log10(), [A], True),
    "log1p": (lambda a: a.log1p(), [A], True),
    "rsqrt": (lambda a: (a * 1).rsqrt_(), [A], True),
    "sgn": (lambda a: a.sgn() * a, [A], False),
    "logit": (lambda a: (a * 0.4).logit(0.25), [A], True),
    # activations of ops/activation.py (F.elu_ and the other in-place forms have their own rows)
    "elu": (lambda a: F.elu(a, 0.5) + F.selu(a * 2), [A], False),
    "elu_": (lambda a: F.elu_(a * 1, 0.5) + F.selu(a * 2, inplace=True), [A], False),
    "celu": (lambda a: F.celu(a, 2.0), [A], False),
    "celu_": (lambda a: F.celu_(a * 1, 0.5), [A], False),
    "leaky_relu": (lambda a: F.leaky_relu(a, 0.2), [A], False),
    "leaky_relu_": (lambda a: F.leaky_relu_(a * 1, 0.3), [A], False),
    "hardtanh": (lambda a: F.hardtanh(a, -0.5, 1.0) + F.relu6(a * 4, inplace=True), [A], False),
    "threshold": (lambda a: F.threshold(a, 0.3, 5.0), [A], False),
    "threshold_": (lambda a: F.threshold_(a * 1, 0.3, -5.0), [A], False),
    "rrelu_with_noise": (_seeded(lambda a: F.rrelu(a, 0.1, 0.3, training=True) + F.rrelu(a)),
                         [A], False),
    "rrelu_with_noise_": (_seeded(lambda a: F.rrelu_(a * 1, 0.1, 0.3, training=True)
                                  + F.rrelu_(a * 2)), [A], False),
    # the self-gated activations (ops/self_gated.py): one row each serves both forms
    "silu": (lambda a: F.silu(a) + F.silu(a * 2, inplace=True), [A], False),
    "mish": (lambda a: F.mish(a) + F.mish(a * 2, inplace=True), [A], False),
    "hardswish": (lambda a: F.hardswish(a * 4) + F.hardswish(a * 1, inplace=True), [A], False),
    "hardsigmoid": (lambda a: F.hardsigmoid(a * 4) + F.hardsigmoid(a * 1, True), [A], False),
    # softplus, log_sigmoid, the shrinks, glu, prelu (ops/softplus.py, shrink.py, glu.py ...)
    "softplus": (lambda a: F.softplus(a) + F.softplus(a * 4, 2.0, 3.0), [A], False),
    "log_sigmoid_forward": (lambda a: F.logsigmoid(a * 3), [A], False),
    "hardshrink": (lambda a: F.hardshrink(a, 0.01) + a.hardshrink(0.02) * 2, [A], False),
    "softshrink": (lambda a: F.softshrink(a, 0.01) + F.softshrink(a * 2, 0.02), [A], False),
    "glu": (lambda a: F.glu(a, 0) + F.glu(a.t(), -1).t(), [(2, 2)], False),
    "_prelu_kernel": (lambda a, w: F.prelu(a, w) + F.prelu(a.t(), w[:1]).t(), [(3, 2), (2,)],
                      False),
    "nan_to_num": (lambda a: (a.log() * 1).nan_to_num_(), [A], True),
    "conj_physical_": (lambda a: (a * 1).conj_physical_(), [A], False),
    "eq_": (lambda a: (a * 1).eq_(0.5) + a, [A], False),
    "eq_tensor_": (lambda a, b: (a * 1).eq_(b) + a * b, [A, A], False),
    "ne_": (lambda a: (a * 1).ne_(0.5) + a, [A], False),
    "ne_tensor_": (lambda a, b: (a * 1).ne_(b) + a * b, [A, A], False),
    "lt_": (lambda a: (a * 1).lt_(0.5) + a, [A], False),
    "lt_tensor_": (lambda a, b: (a * 1).lt_(b) + a * b, [A, A], False),
    "le_": (lambda a: (a * 1).le_(0.5) + a, [A], False),
    "le_tensor_": (lambda a, b: (a * 1).le_(b) + a * b, [A, A], False),
    "gt_": (lambda a: (a * 1).gt_(0.5) + a, [A], False),
    "gt_tensor_": (lambda a, b: (a * 1).gt_(b) + a * b, [A, A], False),
    "ge_": (lambda a: (a * 1).ge_(0.5) + a, [A], False),
    "ge_tensor_": (lambda a, b: (a * 1).ge_(b) + a * b, [A, A], False),
    "atan2": (lambda a, b: a.atan2(b), [A, A], True),
    "copysign": (lambda a, b: a.copysign(b), [A, A], False),
    "copysign_scalar": (lambda a: (a * 1).copysign_(-1.0), [A], False),
    "fmod": (lambda a, b: a.fmod(b), [A, A], True),
    "fmod_scalar": (lambda a: a.fmod(0.3), [A], True),
    "remainder": (lambda a, b: (a * 3).remainder_(b), [A, A], True),
    "remainder_scalar": (lambda a: a.remainder(0.3), [A], True),
    "hypot": (lambda a, b: a.hypot(b), [A, A], False),
    "xlogy": (lambda a, b: a.xlogy(b), [A, A], True),
    "xlogy_scalar": (lambda a: (a * 1).xlogy_(3.0), [A], True),
    "ldexp": (lambda a, b: a.ldexp(b), [A, A], False),
    "nextafter": (lambda a, b: a.nextafter(b), [A, A], False),
    # joining, masking and index ops (ops/joining.py, masking.py, index_ops.py)
    "cat": (lambda a, b: ipt.cat([a, b * 2, a], 1), [A, A], False),
    "stack": (lambda a, b: ipt.stack([a, b], -1), [A, A], False),
    "masked_fill": (lambda a: a.masked_fill(a > 0.5, 0.25), [A], False),
    "masked_fill_tensor": (lambda a, b: (a * 1).masked_fill_(a > 0.0, b[0, 0]), [A, A], False),
    "index_copy_": (lambda a, b: a.index_copy(0, ipt.tensor([1, 0]), b[:2] * 1), [A, A], False),
    "masked_scatter": (lambda a, b: a.masked_scatter(a > 0.5, b), [A, A], False),
    "index_select": (lambda a: a.index_select(0, ipt.tensor([1, 0, 1])), [A], False),
    "index_add": (lambda a, b: (a * 1).index_add_(1, ipt.tensor([2, 0, 2]), b[:, :3], alpha=2),
                  [A, A], False),
    "index_fill": (lambda a: a.index_fill(1, ipt.tensor([0, 2]), 0.5), [A], False),
    "index_fill_tensor": (lambda a, b: (a * 1).index_fill_(0, ipt.tensor([1]), b[0, 1]),
                          [A, A], False),
    "gather": (lambda a, b: a.gather(1, (b.detach() > 0).long()), [A, A], False),
    # one index row: no cell is written twice (PyTorch's formula assumes that)
    "scatter_src": (lambda a, b: (a * 1).scatter_(0, (b[:1].detach() > 0).long(), b[:1] * 1),
                    [A, A], False),
    "scatter_value": (lambda a, b: a.scatter(1, (b.detach() > 0).long(), 0.5), [A, A], False),
    "scatter_add": (lambda a, b: a.scatter_add(0, (b.detach() > 0).long(), b), [A, A], False),
    # every reduce, with and without self, in-place and out-of-place, cells hit twice
    "scatter_reduce": (lambda a, b: a.scatter_reduce(0, (b.detach() > 0).long(), b, "prod")
                       + a.scatter_reduce(1, (b.detach() > 0).long(), b, "mean",
                                          include_self=False)
                       + (a * 1).scatter_reduce_(0, (b.detach() > 0).long(), b, "amax")
                       + a.scatter_reduce(1, (b.detach() > 0).long(), b, "amin",
                                          include_self=False)
                       + (a * 1).scatter_reduce_(1, (b.detach() > 0).long(), b, "sum",
                                                 include_self=False), [A, A], False),
    "index_reduce": (lambda a, b: a.index_reduce(0, (b[:, 0].detach() > 0).long(), b, "prod")
                     + a.index_reduce(1, (b[0].detach() > 0).long(), b, "mean",
                                      include_self=False)
                     + (a * 1).index_reduce_(1, (b[0].detach() > 0).long(), b, "amax")
                     + a.index_reduce(0, (b[:, 0].detach() > 0).long(), b, "amin",
                                      include_self=False), [A, A], False),
}

# shape ops of issue 10 (ops/reorder.py, triangular.py, scan.py ...): a row serves both the
# out-of-place and the in-place form, so cases use both
CASES.update({
    "flip": (lambda a: a.flip(0, -1), [A], False),
    "roll": (lambda a: a.roll((1, -2), (0, 1)) + a.roll(2), [A], False),
    "repeat": (lambda a: a.repeat(2, 1, 2), [A], False),
    "diagonal": (lambda a: a.diagonal(1, 1, 2), [BATCH], False),
    "tril": (lambda a: (a * 1).tril_(-1) + a.tril(1), [M], False),
    "triu": (lambda a: (a * 1).triu_(1) + a.triu(-1), [M], False),
    "cumsum": (lambda a: a.cumsum(1) + (a * 1).cumsum_(0), [A], False),
    "cumprod": (lambda a: a.cumprod(1) + (a * 1).cumprod_(0), [A], False),
    "sort": (lambda a: a.sort(1, descending=True).values, [A], False),
    "topk": (lambda a: a.topk(2, 0).values, [B], False),
    "linalg_vector_norm": (lambda a: a.norm(dim=1) + a.norm(1, 1) + a.norm(3, 1)
                           + a.norm(float("inf"), 1), [A], False),
    "renorm": (lambda a: a.renorm(2, 0, 1.0) + (a * 1).renorm_(1, 1, 0.5), [A], False),
    # the SVD (ops/svd.py): U, S and Vh, reduced and full, and the matrix norms built on S
    "_linalg_svd": (lambda a: ipt.linalg.svdvals(a) * 2 + a.norm("nuc", (1, 2)).unsqueeze(-1)
                    + ipt.linalg.matrix_norm(a.transpose(1, 2), -2, keepdim=True)[:, 0]
                    + _svd_vectors(a), [BATCH], False),
    # reductions of issue 10 (ops/reduce_ops.py); _zero_first puts a zero in each row, so
    # prod's backward takes its division-free path too
    "prod": (lambda a: a.prod() + _zero_first(a).prod() + _zero_first(_zero_first(a).t()).prod(),
             [A], False),
    "prod_dim_int": (lambda a: a.prod(1) + _zero_first(a).prod(-1, True).squeeze(1)
                     + a.prod(0, dtype=ipt.float64).sum(), [A], False),
    "logsumexp": (lambda a: a.logsumexp(1) + a.logsumexp((0, 1), True)[0], [A], False),
    "nansum": (lambda a: a.nansum(1) + a.nansum() + a.nansum((0,), True).sum(), [A], False),
    "trace": (lambda a: a.trace() + a.t().trace() + a[:, 1:].trace(), [A], False),
    "unfold": (lambda a: a.unfold(1, 2, 1), [B], False),
    "i0": (lambda a: a.i0() + (a * 1).i0_(), [A], False),
    # BLAS level 2 (ops/matrix_vector.py): self broadcast (s[:1], s[0]) and written in place
    "addmv": (lambda s, m, v: ipt.addmv(s[:1], m, v, beta=0.5, alpha=2)
              + (s * 1).addmv_(m, v, beta=-1), [(2,), A, (3,)], False),
    "addr": (lambda s, u, v: ipt.addr(s[0], u, v, beta=2, alpha=-0.5)
             + (s * 1).addr_(u, v, alpha=3), [A, (2,), (3,)], False),
    # flat indexing (ops/put_take.py): a strided self, negative and repeated indices
    "put": (lambda a, s: a.t().put(ipt.arange(s.numel()) * 2 % a.numel() - 1, s)
            + (a * 1).put_(ipt.arange(s.numel()) % 3, s, accumulate=True).t(), [A, (2,)],
            False),
    "take": (lambda a: a.t().take(ipt.arange(a.numel()) * 7 % a.numel() - 2), [A], False),
})

# torch.normal (ops/distributions.py): PyTorch's derivative takes the draw as constant in
# mean and std (zeros, no reparameterisation), while finite differences see the draw move
# with them; so the draw enters times 0, and the rows' zeros (in each input's shape) are
# checked next to the inputs' other uses
CASES.update({
    "normal_tensor_tensor": (_seeded(lambda m, s: ipt.normal(m, s.abs()) * 0 + m * s),
                             [A, (3,)], False),
    "normal_tensor_float": (_seeded(lambda m: ipt.normal(m.t(), 2.0) * 0 + m.t()), [A], False),
    "normal_float_tensor": (_seeded(lambda s: ipt.normal(1.0, s.abs()) * 0 + s), [A], False),
})
# masked_select (ops/masking.py): every other column, and a mask broadcast over a row of self
CASES.update({
    "masked_select": (lambda a: a.masked_select(ipt.arange(a.shape[-1]) % 2 == 0) * 2
                      + a[0].masked_select(ipt.arange(a.numel()).reshape(a.shape) % 3 == 0
                                           ).sum(), [A], False),
})

# the selecting reductions (ops/selection.py): random values, so no ties
CASES.update({
    "kthvalue": (lambda a: a.kthvalue(2, 1).values * 2 + a.t().kthvalue(1, 0, True).values[0],
                 [A], False),
    "median": (lambda a: a.median() + a.t()[1:].median(), [B], False),
    "median_dim": (lambda a: a.median(1).values + a.median(0, True).values.sum(), [B], False),
    "nanmedian": (lambda a: a.nanmedian() * 2, [A], False),
    "nanmedian_dim": (lambda a: a.nanmedian(-1, True).values, [B], False),
    "mode": (lambda a: a.mode().values + a.mode(0, True).values.sum(), [B], False),
    "cummax": (lambda a: a.cummax(1).values + a.cummax(0).values, [A], False),
    "cummin": (lambda a: a.cummin(-1).values * 2 + a.t().cummin(0).values.t(), [A], False),
    "aminmax": (lambda a: a.aminmax().min * 2 + a.aminmax(dim=1, keepdim=True).max
                + a.aminmax(dim=0).min[0], [A], False),
})

# F.pad's reflect/replicate kernels (ops/padding.py): 1-D, 2-D and 3-D, borders that fold
# back onto the edge, a negative amount that cuts
_PADS = {1: ((2, 5), (3, 1)), 2: ((2, 4, 5), (2, 1, -1, 2)), 3: ((2, 3, 4, 5), (2, 1, -1, 1, 1, 0))}
CASES.update({
    f"{kernel}_pad{k}d": (lambda a, mode=mode, pad=pad: F.pad(a, pad, mode=mode) * 1.5,
                          [shape], False)
    for kernel, mode in (("reflection", "reflect"), ("replication", "replicate"))
    for k, (shape, pad) in _PADS.items()})

def _weighted(pair):
    """Both outputs of var_mean/std_mean into one value, each with its own weight."""
    first, second = pair
    return (first * 2).sum() + (second * 3).sum()


# functions learners reach for (issue 10: ops/tensor_transformations.py ...)
CASES.update({
    "rot90": (lambda a: a.rot90(1) * 2 + a.rot90(-2, (1, 0)).t() + a.rot90(0, (-1, 0)).t(),
              [BATCH[1:]], False),
    "diag_embed": (lambda a: a.diag_embed(1, 0, 2) * 2 + a.diag(-1).sum(), [A], False),
    "diagonal_copy": (lambda a: a.diag(1) * 2 + a.t().diag(-1), [B], False),
    "logaddexp": (lambda a, b: ipt.logaddexp(a, b) + b.logaddexp(a[0]), [A, A], False),
    "logaddexp2": (lambda a, b: ipt.logaddexp2(a, b) * 2 + a[:, :1].logaddexp2(b), [A, A],
                   False),
    "var_mean": (lambda a: _weighted(ipt.var_mean(a, 1)) + _weighted(ipt.var_mean(
        a, correction=0, keepdim=True)), [B], False),
    "std_mean": (lambda a: _weighted(ipt.std_mean(a, (0, 1), False)) + _weighted(ipt.std_mean(
        a, -1, keepdim=True)), [B], False),
})

def _shape_a(x, top: float):
    """igamma's first argument: fixed values from 0.25 to ``top``, in x's shape (made by the
    core, so the byte tests that run these cases count it: a NumPy linspace would not be)."""
    return ipt.linspace(0.25, top, x.numel(), dtype=x.dtype).reshape(x.shape)


# special functions (ops/erf.py, ops/gamma.py, ops/polygamma.py): in place too, where the
# saved input is a copy taken before the write
CASES.update({
    "erf": (lambda a: a.erf() * 2 + (a * 1).erf_(), [A], False),
    "erfc": (lambda a: a.erfc() * 2 + ipt.special.erfc(a).t().t(), [A], False),
    "erfinv": (lambda a: (a * 0.4).erfinv() + (a * 0.3).erfinv_(), [A], False),
    "lgamma": (lambda a: a.lgamma() + (a - 3).lgamma() * 2 + (a * 1).lgamma_(), [A], True),
    "digamma": (lambda a: a.digamma() + (a * 1).digamma_() * 2, [A], True),
    "polygamma": (lambda a: a.polygamma(1) + ipt.polygamma(2, a) * 2 + a.polygamma(0), [A],
                  True),
    "polygamma_": (lambda a: (a * 1).polygamma_(3) + (a + 1).polygamma_(1), [A], True),
    "mvlgamma": (lambda a: (a + 1).mvlgamma(2) + (a + 2).mvlgamma_(4) * 2, [A], True),
    # (a's derivative is not implemented: only x is a leaf, a a fixed tensor)
    "igamma": (lambda x: ipt.igamma(_shape_a(x, 1.5), x) + _shape_a(x, 3).igamma_(x * 2),
               [A], True),
    "igammac": (lambda x: ipt.igammac(_shape_a(x, 0.5), x) + ipt.special.gammaincc(
        _shape_a(x, 4), x * 3), [A], True),
})

# Rows whose backward PyTorch leaves unimplemented (derivatives.yaml's not_implemented, or
# its NotImplemented node): backward through them must raise PyTorch's error instead.
NOT_IMPLEMENTED = {
    "asinh_": (lambda a: (a * 1).asinh_(), NotImplementedError,
               "the derivative for 'inplace version of asinh' is not implemented."),
    "acosh_": (lambda a: (a + 2).acosh_(), NotImplementedError,
               "the derivative for 'inplace version of acosh' is not implemented."),
    "atanh_": (lambda a: (a * 0.1).atanh_(), NotImplementedError,
               "the derivative for 'inplace version of atanh' is not implemented."),
    "floor_divide": (lambda a: a.floor_divide(a * 0.5), RuntimeError,
                     "derivative for aten::floor_divide is not implemented"),
    "floor_divide_scalar": (lambda a: a // 0.5, RuntimeError,
                            "derivative for aten::floor_divide is not implemented"),
    "heaviside": (lambda a: a.heaviside(a), RuntimeError,
                  "derivative for aten::heaviside is not implemented"),
    "bernoulli_p": (lambda a: ipt.bernoulli(a, 0.5), RuntimeError,
                    "derivative for aten::bernoulli is not implemented"),
    "bincount": (lambda a: ipt.bincount(ipt.zeros(a.numel(), dtype=ipt.int64), a.flatten()),
                 RuntimeError, "derivative for aten::bincount is not implemented"),
    "scatter_with_reduce_": (lambda a: (a * 1).scatter_(0, ipt.zeros(a.shape, dtype=ipt.int64), a,
                                                         reduce="add"),
                             RuntimeError, "derivative for aten::scatter_ is not implemented"),
    "scatter_with_reduce": (lambda a: a.scatter(0, ipt.zeros(a.shape, dtype=ipt.int64), 2.0,
                                                     reduce="multiply"),
                            RuntimeError, "derivative for aten::scatter is not implemented"),
    "set_": (lambda a: (a * 1).set_(), RuntimeError, "derivative for set_ is not implemented"),
    "set_source_Tensor": (lambda a: (a * 1).set_(a * 2), RuntimeError,
                          "derivative for set_ is not implemented"),
}


def test_every_op_in_the_derivative_table_has_a_gradcheck_case():
    assert not set(CASES) & set(NOT_IMPLEMENTED)
    assert set(CASES) | set(NOT_IMPLEMENTED) == set(DERIVATIVES)


@pytest.mark.parametrize("op", sorted(NOT_IMPLEMENTED))
def test_backward_through_a_not_implemented_row_raises(op):
    fn, exc, text = NOT_IMPLEMENTED[op]
    a = ipt.tensor([0.5, 0.75], dtype=ipt.float64, requires_grad=True)
    y = fn(a)
    assert type(y.grad_fn).__name__ == DERIVATIVES[op].node
    with pytest.raises(exc) as info:
        y.sum().backward()
    assert str(info.value) == text


@examples(3)
@given(seed=st.integers(0, 2**16))
@pytest.mark.parametrize("op", sorted(CASES))
def test_gradcheck(op, seed):
    fn, shapes, kind = CASES[op]
    rng = np.random.default_rng(seed)
    leaves = []
    for shape in shapes:
        values = rng.uniform(0.5, 2.0, shape) if kind is True else rng.uniform(-2.0, 2.0, shape)
        # keep clear of the kinks at 0 (relu, abs, clamp) without creating ties (max_pool)
        values = np.where(np.abs(values) < 0.05, values + np.copysign(0.1, values), values)
        if kind == "float32-exact":
            values = np.round(values * 1024) / 1024
        leaves.append(ipt.tensor(values, dtype=ipt.float64, requires_grad=True))
    eps = 2.0**-10 if kind == "float32-exact" else 1e-6
    assert gradcheck(fn, leaves, eps=eps)
