"""float16 and bfloat16 add and sub, and bfloat16 mul, bit for bit (ops/_half_add.py): PyTorch
computes in float32 lanes and rounds once; the core does the same on the bits. Random bit patterns
(subnormals, ties, cancellations, sums that round up to the next exponent or overflow), every
call form, the general path's cases (inf, NaN, overflow, broadcast, strided) next to them,
sizes over a chunk.
"""

import numpy as np
import pytest

from .harness import Registry, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


def _bits(n, seed, small=False):
    """float16 values from random bits: finite, magnitudes below 2**15 (no sum overflows)."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 1 << 16, n).astype(np.uint16) & np.uint16(0x83FF)
    exp = rng.integers(0, 3 if small else 30, n).astype(np.uint16)
    return (bits | (exp << np.uint16(10))).view(np.float16)


def _h(t, a):
    return t.tensor(a.view(np.int16)).view(t.float16)


def _raw(x, t):
    return x.view(t.int16)  # compared as bits: -0.0, subnormals and all


@prog
def float16_add_sub_every_form(t):
    a, b = _bits(70_001, 0), _bits(70_001, 1)  # more than one chunk, odd length
    x, y = _h(t, a), _h(t, b)
    out = {"add": _raw(x + y, t), "sub": _raw(x - y, t), "add()": _raw(t.add(x, y), t),
           "sub()": _raw(t.sub(x, y), t), "rsub": _raw(t.rsub(x, y), t)}
    z = x.clone()
    z.add_(y)
    out["add_"], out["add_ version"] = _raw(z, t), z._version
    z.sub_(y)
    out["sub_ after add_"], out["version"] = _raw(z, t), z._version
    z += x
    out["+="] = _raw(z, t)
    target = t.empty(70_001, dtype=t.float16)
    t.add(x, y, out=target)
    out["out="] = _raw(target, t)
    t.sub(x, target, out=target)  # out is the second operand
    out["out= aliasing other"] = _raw(target, t)
    w = x.clone()
    w.add_(w)
    out["self + self"] = _raw(w, t)
    return out


@prog
def float16_add_small_values_and_cancellation(t):
    a = _bits(5000, 2, small=True)
    x, y = _h(t, a), _h(t, _bits(5000, 3, small=True))
    return {"subnormal sums": _raw(x + y, t), "differences": _raw(x - y, t),
            "x - x": _raw(x - x, t), "x + (-x)": _raw(x + (-x), t),
            "-0 + -0": _raw(_h(t, np.array([-0.0] * 4, np.float16)) * 1 + (-0.0), t)}


@prog
def float16_add_general_path_cases(t):
    a, b = _bits(4096, 4).reshape(64, 64), _bits(4096, 5).reshape(64, 64)
    big = np.array([65504, 60000, -65504, 32768, np.inf, -np.inf, 1.0, 0.5], np.float16)
    x, y = _h(t, a), _h(t, b)
    out = {"overflow": _raw(_h(t, big) + _h(t, big[::-1].copy()), t),
           "broadcast": _raw(x + y[0], t), "transposed": _raw(x + y.t(), t)}
    z = x.clone()
    z.t().add_(y)
    out["strided add_"] = _raw(z, t)
    n = _h(t, np.array([np.nan, 1.0, np.inf, -np.inf], np.float16))
    out["nan inf"] = (n + n[[1, 1, 3, 2]]).isnan()
    return out


def _bf16(t, n, seed):
    """bfloat16 from random bits over every finite exponent (subnormals, sums that overflow)."""
    bits = np.random.default_rng(seed).integers(0, 1 << 16, n).astype(np.uint16)
    bits[n // 2:] &= np.uint16(0x80FF)  # exponents 0 and 1: subnormal sums
    bits[bits & np.uint16(0x7F80) == np.uint16(0x7F80)] ^= np.uint16(0x0100)  # no inf/NaN
    return t.tensor(bits.view(np.int16)).view(t.bfloat16)


@prog
def bfloat16_add_sub_every_form(t):
    x, y = _bf16(t, 70_001, 6), _bf16(t, 70_001, 7)
    out = {"add": _raw(x + y, t), "sub": _raw(x - y, t), "x - x": _raw(x - x, t)}
    z = x.clone()
    z.add_(y)
    out["add_"], out["version"] = _raw(z, t), z._version
    z.sub_(x)
    out["sub_"] = _raw(z, t)
    target = t.empty(70_001, dtype=t.bfloat16)
    t.add(x, y, out=target)
    out["out="] = _raw(target, t)
    n = t.tensor([float("inf"), float("nan"), 1.0, -3.0]).bfloat16()
    out["inf nan"] = (n + n.flip(0)).isnan()
    return out


@prog
def bfloat16_mul_every_form(t):
    # products over every exponent pair: underflow to float32 subnormals and zero, overflow
    # to inf, ties of the one rounding; float16's product stays on the general path
    x, y = _bf16(t, 70_001, 8), _bf16(t, 70_001, 9)
    out = {"mul": _raw(x * y, t), "x * x": _raw(x * x, t), "mul()": _raw(t.mul(x, y), t)}
    z = x.clone()
    z.mul_(y)
    out["mul_"], out["version"] = _raw(z, t), z._version
    z *= x
    out["*="] = _raw(z, t)
    target = t.empty(70_001, dtype=t.bfloat16)
    t.mul(x, y, out=target)
    out["out="] = _raw(target, t)
    h = _h(t, _bits(5000, 10))
    out["float16 mul"] = _raw(h * _h(t, _bits(5000, 11, small=True)), t)
    return out


@pytest.mark.parametrize("program", prog.params())
def test_half_add_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
