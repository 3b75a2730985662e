"""div's rounding modes: ``x.div(y, rounding_mode='trunc')`` rounds the quotient toward zero,
``'floor'`` toward minus infinity (Python's ``//``); ``rounding_mode=None`` given by name is
true division. PyTorch records all three as ``div.Tensor_mode``: node DivBackward2 saves
self, other and the mode itself, and a rounded quotient is a step function, so its gradient
is zero. elementwise.py's div and div_ hand a call here when it names a mode; div's aliases
(divide, divide_, true_divide, true_divide_) are here too.

The kernels are BinaryOpsKernel.cpp's div_trunc_kernel and div_floor_kernel. Integers divide
exactly (trunc as C does, floor as Python does) and a zero divisor raises "ZeroDivisionError"
before anything is written. Floats compute in their own type (floor with Python's divmod
recipe, which NumPy's floor_divide shares). float16/bfloat16 take one of two paths: with a
divisor that is one value for every element (a Python number, a 0-dim tensor) PyTorch divides
in float32 and rounds once; otherwise its vector code rounds to 16 bits after every step.
"""
from __future__ import annotations

import numpy as np

from ..arg_parser import as_called, binding, invalid_combination, is_number, overloads
from ..autograd import grad_mode
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import zeros_like
from ..tensor import Tensor, tensor_method
from ._chunked import with_temporaries
from .reduced import is_reduced
from .tensor_iterator import inplace_elementwise, new_elementwise

NOT_GIVEN = "true division, rounding_mode not given"  # div's default: DivBackward0, not 2
MODES = (None, "trunc", "floor")


def check_call(op: str, other, mode):
    """The binding's type checks (other a Tensor or a Number, the mode a str or None; a bytes
    mode is read as text, as PyTorch's parser does; a refusal lists torch's signatures of
    ``op``, signatures.py), then div.Tensor_mode's own check of the mode's value. Returns the
    mode (NOT_GIVEN, None or a str)."""
    if isinstance(mode, bytes):
        mode = mode.decode()
    if not (isinstance(other, Tensor) or is_number(other)) or not (
            mode is None or mode is NOT_GIVEN or isinstance(mode, str)):
        names, values = (["other"], (other,)) if mode is NOT_GIVEN else (
            ["other", "*", "rounding_mode"], (other, mode))
        args, kwargs = as_called(names, values)
        raise invalid_combination(op, args, overloads(op).forms, kwargs)
    if mode not in MODES and mode is not NOT_GIVEN:
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{mode}'")
    return mode


def _one_value(other) -> bool:
    """TensorIterator's is_scalar(2): the divisor is the same cell for every element."""
    return not isinstance(other, Tensor) or all(
        st == 0 for size, st in zip(other._shape, other._stride) if size > 1)


# --------------------------------------------------------------------------- the kernels
def _refuse_bool(mode: str, out: np.ndarray) -> None:
    if out.dtype == np.bool_:
        raise NotImplementedError(f'"div_{mode}_cpu" not implemented for \'Bool\'')


def _check_divisor(b) -> None:
    """Integer division by zero, checked on the whole divisor before the first write."""
    if np.count_nonzero(b) != np.size(b):
        raise RuntimeError("ZeroDivisionError")


@with_temporaries("div_trunc", None)
def _int_trunc(a, b, out, dtype, tmp):
    """C's a / b: (a - fmod(a, b)) is an exact multiple of b, so floor division is exact."""
    r = tmp[0]
    np.fmod(a, b, out=r, dtype=dtype, casting="unsafe")
    np.subtract(a, r, out=r, dtype=dtype, casting="unsafe")
    np.floor_divide(r, b, out=out, dtype=dtype, casting="unsafe")


def _round16(w: np.ndarray, t16: np.ndarray) -> np.ndarray:
    """w rounded to the 16-bit type of ``t16`` (and back to float32), in place."""
    np.copyto(t16, w, casting="unsafe")
    np.copyto(w, t16)
    return w


def _widen(out: np.ndarray, a, b, wa: np.ndarray, wb: np.ndarray, t16: np.ndarray,
           cast_b: bool) -> None:
    """The operands in float32; ``cast_b``: the divisor first cast to out's 16-bit type, as
    TensorIterator casts every operand to the common dtype (a one-value divisor is read as it
    was given: iter.original_scalar_value)."""
    np.copyto(wa, a, casting="unsafe")
    np.copyto(wb, b, casting="unsafe")
    if cast_b:
        _round16(wb, t16)


@with_temporaries("div_trunc", np.float32, np.float32, np.uint16)
def _reduced_trunc(a, b, out, dtype, tmp):
    """Vector code: the quotient is rounded to 16 bits, then truncated (exact)."""
    wa, wb, t16 = tmp[0], tmp[1], tmp[2].view(out.dtype)
    _widen(out, a, b, wa, wb, t16, True)
    np.true_divide(wa, wb, out=wa)
    np.copyto(out, wa, casting="unsafe")
    np.trunc(out, out=out)


@with_temporaries("div_floor", np.float32, np.float32, np.float32, np.float32, np.float32,
                  np.uint16, np.bool_)
def _reduced_floor(a, b, out, dtype, tmp):
    """div_floor_floating_vec on 16-bit vectors: every step rounds to 16 bits."""
    wa, wb, basic, mod, div, t16, m = (*tmp[:5], tmp[5].view(out.dtype), tmp[6])
    _widen(out, a, b, wa, wb, t16, True)
    _round16(np.true_divide(wa, wb, out=basic), t16)
    np.fmod(wa, wb, out=mod)  # exact in 16 bits
    _round16(np.subtract(wa, mod, out=div), t16)
    # Sleef's fmod fix-up: where a / b overflows (and a is finite) the recipe divides a itself
    np.logical_and(np.isinf(basic), np.isfinite(wa), out=m)
    np.copyto(div, wa, where=m)
    _round16(np.true_divide(div, wb, out=div), t16)
    # a remainder whose sign differs from the divisor's: one less
    np.logical_xor(np.less(wb, 0), np.less(mod, 0), out=m)
    np.logical_and(m, np.not_equal(mod, 0), out=m)
    fd = wa  # (a is no longer needed)
    np.subtract(div, 1, out=fd)
    np.copyto(div, _round16(fd, t16), where=m)
    np.floor(div, out=fd)
    np.subtract(div, fd, out=mod)
    np.greater(_round16(mod, t16), 0.5, out=m)
    np.add(fd, 1, out=mod)
    np.copyto(fd, _round16(mod, t16), where=m)
    np.copysign(0, basic, out=mod)
    np.copyto(fd, mod, where=np.equal(div, 0, out=m))
    np.copyto(fd, basic, where=np.equal(wb, 0, out=m))
    np.copyto(out, fd, casting="unsafe")


@with_temporaries("div_trunc", np.float32, np.float32, np.uint16)
def _reduced_trunc_one_value(a, b, out, dtype, tmp):
    wa, wb, t16 = tmp[0], tmp[1], tmp[2].view(out.dtype)
    _widen(out, a, b, wa, wb, t16, False)
    np.true_divide(wa, wb, out=wa)
    np.trunc(wa, out=wa)
    np.copyto(out, wa, casting="unsafe")


@with_temporaries("div_floor", np.float32, np.float32, np.uint16)
def _reduced_floor_one_value(a, b, out, dtype, tmp):
    wa, wb, t16 = tmp[0], tmp[1], tmp[2].view(out.dtype)
    _widen(out, a, b, wa, wb, t16, False)
    np.floor_divide(wa, wb, out=wa)
    np.copyto(out, wa, casting="unsafe")


_REDUCED = {("trunc", False): _reduced_trunc, ("floor", False): _reduced_floor,
            ("trunc", True): _reduced_trunc_one_value, ("floor", True): _reduced_floor_one_value}


def rounding_kernel(mode: str, one_value: bool):
    """The kernel ``(a, b, out, dtype)`` of div with ``mode`` ('trunc' or 'floor')."""
    def kernel(a, b, out, dtype):
        _refuse_bool(mode, out)
        with np.errstate(all="ignore"):  # x / 0 is inf or nan, as in PyTorch
            if is_reduced(out.dtype):
                _REDUCED[mode, one_value](a, b, out=out, dtype=np.float32)
            elif out.dtype.kind in "iu":
                _check_divisor(b)
                if mode == "floor":
                    np.floor_divide(a, b, out=out, dtype=dtype, casting="unsafe")
                else:
                    _int_trunc(a, b, out=out, dtype=dtype)
            elif mode == "floor":
                np.floor_divide(a, b, out=out, dtype=dtype, casting="unsafe")
            else:
                np.true_divide(a, b, out=out, dtype=dtype, casting="unsafe")
                np.trunc(out, out=out)
    kernel.rounds_16_bits_itself = True  # (tensor_iterator.call_kernel: not reduced.run)
    return kernel


_KERNELS = {(mode, one): rounding_kernel(mode, one) for mode in ("trunc", "floor")
            for one in (False, True)}


# --------------------------------------------------------------------------- the ops
def div_mode(self: Tensor, other, mode: str | None, true_kernel) -> Tensor:
    """div.Tensor_mode out of place (``true_kernel``: elementwise.py's true division)."""
    kernel = true_kernel if mode is None else _KERNELS[mode, _one_value(other)]
    with grad_mode.no_grad():
        out = new_elementwise("div", mode is None, kernel, self, other)
    return record("div_mode", out, {"self": self, "other": other}, rounding_mode=mode)


def div_mode_(self: Tensor, other, mode: str | None, true_kernel) -> Tensor:
    """div_.Tensor_mode: written into self's own cells, through record_inplace's checks."""
    kernel = true_kernel if mode is None else _KERNELS[mode, _one_value(other)]
    return inplace_elementwise("div_mode", mode is None, kernel, self, other,
                               rounding_mode=mode)


@derivative("div_mode", "DivBackward2", inputs=("self", "other"),
            saves={"self": "other", "other": None, "rounding_mode": None})
def _div_mode_bw(ctx, g):
    """derivatives.yaml, div.Tensor_mode: div_tensor_self_backward / div_tensor_other_backward
    with the mode; given a mode both are zeros (of the grad's layout)."""
    if ctx.attr("rounding_mode") is not None:
        return (zeros_like(g) if ctx.needs(0) else None,
                zeros_like(g) if ctx.needs(1) else None)
    other = ctx.saved("other") if "other" in ctx._saved else ctx.attr("other")
    ga = g / other if ctx.needs(0) else None
    gb = g.neg() * ((ctx.saved("self") / other) / other) if ctx.needs(1) else None
    return (ga, gb)


# --------------------------------------------------------------------------- aliases
@binding()
@tensor_method
def divide(self, other, *, rounding_mode=NOT_GIVEN) -> Tensor:
    """PyTorch's alias of div."""
    check_call("divide", other, rounding_mode)
    return self.div(other, rounding_mode=rounding_mode)


@binding()
@tensor_method
def divide_(self, other, *, rounding_mode=NOT_GIVEN) -> Tensor:
    """PyTorch's alias of div_."""
    check_call("divide_", other, rounding_mode)
    return self.div_(other, rounding_mode=rounding_mode)


@binding()
@tensor_method
def true_divide(self, other) -> Tensor:
    """PyTorch's alias of div (no rounding_mode)."""
    check_call("true_divide", other, NOT_GIVEN)
    return self.div(other)


@binding()
@tensor_method
def true_divide_(self, other) -> Tensor:
    """PyTorch's alias of div_."""
    check_call("true_divide_", other, NOT_GIVEN)
    return self.div_(other)
