"""torch's module-level in-place functions: ``torch.sqrt_(x)`` is ``x.sqrt_()``.

PyTorch generates a ``torch.<op>_`` twin for many in-place methods (``torch.relu_``,
``torch.zero_``, ``torch.clamp_min_`` ...). Each one here is the method under another name:
same checks, same node (``SqrtBackward0``), same version bump, the tensor itself returned.
Only the binding differs: ``input`` is argument 1, so torch's parser, not the method's, words
a refusal (``sqrt_() takes 1 positional argument but 2 were given``); that is
``function_parser.torch_function`` over each def. The twins that ``functional.py`` already
makes from its lists (``relu_``, ``exp_``, ``clamp_``, ``addmm_`` ...) stay there.
"""
from __future__ import annotations

import math

from . import function_parser
from .creation import empty_like, zeros
from .function_parser import torch_function
from .ops import activation
from .ops.rrelu import rrelu_ as _rrelu_
from .tensor import Tensor

# ruff: noqa: A002  (``input`` is PyTorch's name for the first argument)

# ---- unary math (ops/unary.py, ops/unary_math.py, ops/logit.py, ops/nan_to_num.py, ops/trig.py)


@torch_function()
def abs_(input: Tensor) -> Tensor:
    return input.abs_()


@torch_function()
def neg_(input: Tensor) -> Tensor:
    return input.neg_()


@torch_function()
def negative_(input: Tensor) -> Tensor:
    return input.negative_()


@torch_function()
def reciprocal_(input: Tensor) -> Tensor:
    return input.reciprocal_()


@torch_function()
def sqrt_(input: Tensor) -> Tensor:
    return input.sqrt_()


@torch_function()
def rsqrt_(input: Tensor) -> Tensor:
    return input.rsqrt_()


@torch_function()
def square_(input: Tensor) -> Tensor:
    return input.square_()


@torch_function()
def log_(input: Tensor) -> Tensor:
    return input.log_()


@torch_function()
def log2_(input: Tensor) -> Tensor:
    return input.log2_()


@torch_function()
def log10_(input: Tensor) -> Tensor:
    return input.log10_()


@torch_function()
def log1p_(input: Tensor) -> Tensor:
    return input.log1p_()


@torch_function()
def exp2_(input: Tensor) -> Tensor:
    return input.exp2_()


@torch_function()
def expm1_(input: Tensor) -> Tensor:
    return input.expm1_()


@torch_function()
def erf_(input: Tensor) -> Tensor:  # (ops/erf.py)
    return input.erf_()


@torch_function()
def erfc_(input: Tensor) -> Tensor:
    return input.erfc_()


@torch_function()
def logit_(input: Tensor, eps: float | None = None) -> Tensor:
    return input.logit_(eps)


@torch_function()
def sinc_(input: Tensor) -> Tensor:
    return input.sinc_()


@torch_function()
def conj_physical_(input: Tensor) -> Tensor:
    return input.conj_physical_()


@torch_function()
def nan_to_num_(input: Tensor, nan: float | None = None, posinf: float | None = None,
                neginf: float | None = None) -> Tensor:
    # torch's nan=None means 0.0 (the method's default); passed on only when given
    return input.nan_to_num_(*(() if nan is None else (nan,)), posinf=posinf, neginf=neginf)


# ---- trigonometry and angles (ops/trig.py) ----------------------------------------------------


@torch_function()
def sin_(input: Tensor) -> Tensor:
    return input.sin_()


@torch_function()
def cos_(input: Tensor) -> Tensor:
    return input.cos_()


@torch_function()
def tan_(input: Tensor) -> Tensor:
    return input.tan_()


@torch_function()
def asin_(input: Tensor) -> Tensor:
    return input.asin_()


@torch_function()
def acos_(input: Tensor) -> Tensor:
    return input.acos_()


@torch_function()
def atan_(input: Tensor) -> Tensor:
    return input.atan_()


@torch_function()
def sinh_(input: Tensor) -> Tensor:
    return input.sinh_()


@torch_function()
def cosh_(input: Tensor) -> Tensor:
    return input.cosh_()


@torch_function()
def asinh_(input: Tensor) -> Tensor:
    return input.asinh_()


@torch_function()
def acosh_(input: Tensor) -> Tensor:
    return input.acosh_()


@torch_function()
def atanh_(input: Tensor) -> Tensor:
    return input.atanh_()


@torch_function()
def arcsin_(input: Tensor) -> Tensor:
    return input.arcsin_()


@torch_function()
def arccos_(input: Tensor) -> Tensor:
    return input.arccos_()


@torch_function()
def arctan_(input: Tensor) -> Tensor:
    return input.arctan_()


@torch_function()
def arcsinh_(input: Tensor) -> Tensor:
    return input.arcsinh_()


@torch_function()
def arccosh_(input: Tensor) -> Tensor:
    return input.arccosh_()


@torch_function()
def arctanh_(input: Tensor) -> Tensor:
    return input.arctanh_()


@torch_function()
def deg2rad_(input: Tensor) -> Tensor:
    return input.deg2rad_()


@torch_function()
def rad2deg_(input: Tensor) -> Tensor:
    return input.rad2deg_()


# ---- rounding (ops/rounding.py) --------------------------------------------------------------


@torch_function()
def ceil_(input: Tensor) -> Tensor:
    return input.ceil_()


@torch_function()
def floor_(input: Tensor) -> Tensor:
    return input.floor_()


@torch_function()
def trunc_(input: Tensor) -> Tensor:
    return input.trunc_()


@torch_function()
def fix_(input: Tensor) -> Tensor:
    return input.fix_()


@torch_function()
def frac_(input: Tensor) -> Tensor:
    return input.frac_()


@torch_function()
def round_(input: Tensor, **decimals) -> Tensor:
    # two forms, round_(input) and round_(input, *, decimals): torch's parser told them apart
    return input.round_(**decimals)


# ---- fills and clamps (ops/fill.py, ops/elementwise.py) ---------------------------------------


@torch_function()
def zero_(input: Tensor) -> Tensor:
    return input.zero_()


@torch_function()
def fill_(input: Tensor, value) -> Tensor:
    return input.fill_(value)


@torch_function()
def clamp_min_(input: Tensor, min) -> Tensor:
    return input.clamp_min_(min)


@torch_function()
def clamp_max_(input: Tensor, max) -> Tensor:
    return input.clamp_max_(max)


@torch_function()
def clip_(input: Tensor, min=None, max=None) -> Tensor:
    return input.clip_(min, max)


# ---- binary (ops/binary_math.py) -------------------------------------------------------------


@torch_function()
def gcd_(input: Tensor, other: Tensor) -> Tensor:
    return input.gcd_(other)


@torch_function()
def lcm_(input: Tensor, other: Tensor) -> Tensor:
    return input.lcm_(other)


@torch_function()
def ldexp_(input: Tensor, other: Tensor) -> Tensor:
    return input.ldexp_(other)


@torch_function()
def xlogy_(input: Tensor, other) -> Tensor:
    return input.xlogy_(other)


# ---- metadata and BLAS level 2 (ops/strided.py, tensor.py, ops/matrix_vector.py) ---------------


@torch_function()
def as_strided_(input: Tensor, size, stride, storage_offset: int | None = None) -> Tensor:
    return input.as_strided_(size, stride, storage_offset)


@torch_function()
def detach_(input: Tensor) -> Tensor:
    return input.detach_()


@torch_function(strict=True)
def addmv_(*args, **kwargs) -> Tensor:
    """torch.addmv_(input, mat, vec, *, beta=1, alpha=1), and torch's two deprecated forms with
    the scalars first (``addmv_(beta, input, mat, vec)``): torch's parser binds each call,
    by position or by name, and the method gets the names."""
    _, values = function_parser.parse("addmv_", args, kwargs)
    scalars = {k: values[k] for k in ("beta", "alpha") if values.get(k) is not None}
    return values["input"].addmv_(values["mat"], values["vec"], **scalars)


# ---- activations with no Tensor method (ops/activation.py; their F.* forms are in
# nn/functional_activations.py) ----------------------------------------------------------------
celu_ = torch_function("celu_")(activation.celu_)
selu_ = torch_function("selu_")(activation.selu_)
rrelu_ = torch_function("rrelu_")(_rrelu_)  # (ops/rrelu.py)
threshold_ = torch_function("threshold_")(activation.threshold_)
ACTIVATIONS = ["celu_", "rrelu_", "selu_", "threshold_"]



def dropout_impl(input: Tensor, p: float, train: bool, inplace: bool, feature: bool = False,
                 alpha: bool = False) -> Tensor:
    """ATen's _dropout_impl (torch.dropout, alpha_dropout, feature_dropout,
    feature_alpha_dropout and their in-place forms; F.dropout checks p first in Python):
    nothing at all when p is 0 or not training (no write, no version bump), a multiplication
    by zero when p is 1, else by a bernoulli(1 - p) noise of input's dtype, one draw per
    element or, ``feature``, per (sample, channel); divided by 1 - p, or for alpha dropout
    scaled by a and shifted by b so that SELU's mean and variance are kept (AddBackward0)."""
    if not isinstance(train, bool):
        raise TypeError("train must be a bool")  # the binding words it as torch's parser
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p:g}")
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        zero = zeros((), dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    if feature and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    noise = (input.new_empty((*input.shape[:2], *(1,) * (input.dim() - 2))) if feature
             else empty_like(input)).bernoulli_(1 - p)
    if not alpha:
        noise.div_(1 - p)
        return input.mul_(noise) if inplace else input * noise
    a = 1.0 / math.sqrt((_SELU_ALPHA * _SELU_ALPHA * p + 1) * (1 - p))
    b = noise.add(-1).mul_(_SELU_ALPHA * a).add_(_SELU_ALPHA * a * p)
    noise.mul_(a)
    return (input.mul_(noise) if inplace else input * noise).add_(b)


_SELU_ALPHA = 1.7580993408473766  # alpha dropout's alpha' (SELU's -lambda * alpha)


@torch_function()
def dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    return dropout_impl(input, p, train, True)


@torch_function()
def feature_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    return dropout_impl(input, p, train, True, feature=True)


@torch_function()
def alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    return dropout_impl(input, p, train, True, alpha=True)


@torch_function()
def feature_alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    return dropout_impl(input, p, train, True, feature=True, alpha=True)


__all__ = [*ACTIVATIONS, "dropout_", "feature_dropout_", "alpha_dropout_",
           "feature_alpha_dropout_",
    "abs_", "acos_", "acosh_", "addmv_", "arccos_", "arccosh_", "arcsin_", "arcsinh_",
    "arctan_", "arctanh_", "as_strided_", "asin_", "asinh_", "atan_", "atanh_", "ceil_",
    "clamp_max_", "clamp_min_", "clip_", "conj_physical_", "cos_", "cosh_", "deg2rad_",
    "detach_", "erf_", "erfc_", "exp2_", "expm1_", "fill_", "fix_", "floor_", "frac_", "gcd_",
    "lcm_", "ldexp_",
    "log10_", "log1p_", "log2_", "log_", "logit_", "nan_to_num_", "neg_", "negative_",
    "rad2deg_", "reciprocal_", "round_", "rsqrt_", "sin_", "sinc_", "sinh_", "sqrt_",
    "square_", "tan_", "trunc_", "xlogy_", "zero_"]
