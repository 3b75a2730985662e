"""The bits clamp, clamp_min, clamp_max and relu leave on torch 2.13 and the core (issue 10):
NaN operands of every kind (quiet, signalling, with a payload, both signs), NaN bounds, and
ties of 0.0 with -0.0, in float16 and bfloat16, in place and out of place, at lengths inside
one vector step, past it, with a tail, strided and transposed (the element loop).
capability_runner.py runs these programs under each of PyTorch's CPU builds too
(ops/nan_sign.py:clamp16 says what differs by build).
"""

import numpy as np
import pytest

from .harness import Registry, check_parity
from .test_nan_sign_parity import bits

pytestmark = pytest.mark.parity

prog = Registry()

_PATTERNS = {
    "float16": [0x7E00, 0xFE00, 0x7E23, 0xFE23, 0x7D00, 0xFD01, 0x7C01, 0xFFFF,
                0x3C00, 0xBC00, 0x0000, 0x8000, 0x7C00, 0xFC00, 0x3555, 0xB800],
    "bfloat16": [0x7FC0, 0xFFC0, 0x7FC3, 0xFFC3, 0x7FA0, 0xFF81, 0x7F81, 0xFFFF,
                 0x3F80, 0xBF80, 0x0000, 0x8000, 0x7F80, 0xFF80, 0x3EAB, 0xBF00],
}


def _values(t, dtype):
    """NaNs of every kind, ±0, ±1, ±inf and two ordinary numbers, as exact bit patterns."""
    raw = np.array(_PATTERNS[dtype], dtype=np.uint16).view(np.int16).copy()
    return t.tensor(raw).view(getattr(t, dtype))


def _lengths(t, x):
    """One element (the element loop), a vector step and a tail, several steps, a strided
    view and a transposed 2-D view (no vector loop along a strided row)."""
    long = x.repeat(300 // x.numel() + 1)[:300]
    return {"1": x[4:5].clone(), "16": x.clone(), "37": long[:37].clone(),
            "64": long[:64].clone(), "100": long[:100].clone(), "300": long,
            "strided": long[::3], "transposed": long[:240].reshape(40, 6).t()}


_SCALAR_BOUNDS = [(0.0, None), (-0.0, None), (None, 0.0), (None, -0.0), (0.5, None),
                  (None, -1.0), (-0.0, 0.0), (0.0, -0.0), (-1.0, 0.3), (2.0, 1.0), (0.1, 65504)]


@prog
def clamp_to_numbers_16bit_nan_and_zero_bits(t):
    """``x < lo ? lo : x``: a NaN x keeps its bits in the element loop; the vector loop of the
    AVX builds quiets a float16 NaN and makes a bfloat16 one all ones."""
    out = {}
    for dtype in ("float16", "bfloat16"):
        for k, x in _lengths(t, _values(t, dtype)).items():
            for lo, hi in _SCALAR_BOUNDS:
                key = f"{dtype}_{k}_{lo}_{hi}"
                if lo is not None and hi is not None:
                    out[key] = (bits(x.clamp(lo, hi)), bits(x.clone().clamp_(lo, hi)),
                                bits(t.clamp(x, min=lo, max=hi)))
                elif lo is not None:
                    out[key] = (bits(x.clamp_min(lo)), bits(x.clone().clamp_min_(lo)),
                                bits(x.clamp(min=lo)), bits(x.clone().clamp_(min=lo)))
                else:
                    out[key] = (bits(x.clamp_max(hi)), bits(x.clone().clamp_max_(hi)),
                                bits(x.clamp(max=hi)), bits(x.clone().clamp_(max=hi)))
            out[f"{dtype}_{k}_relu"] = (bits(x.relu()), bits(x.clone().relu_()),
                                        bits(t.relu(x)))
    return out


@prog
def clamp_to_nan_number_16bit(t):
    """A NaN bound fills the result with the canonical NaN, whatever x holds."""
    out = {}
    nan = float("nan")
    for dtype in ("float16", "bfloat16"):
        for k, x in _lengths(t, _values(t, dtype)).items():
            out[f"{dtype}_{k}"] = (bits(x.clamp_min(nan)), bits(x.clone().clamp_max_(nan)),
                                   bits(x.clamp(nan, 1.0)), bits(x.clone().clamp_(-1.0, nan)),
                                   bits(x.clamp(max=nan)))
    return out


@prog
def clamp_to_numbers_16bit_big_relu(t):
    """relu and clamp past the fast-path threshold (4096 elements) and the chunk size."""
    out = {}
    for dtype in ("float16", "bfloat16"):
        x = _values(t, dtype).repeat(2600)[:40001]
        out[dtype] = (bits(x.relu()), bits(x.clone().relu_()), bits(x.clamp(-0.0, 0.5)),
                      bits(x[1:].reshape(200, 200).t().relu()))
    return out


def _special(t, dtype):
    """The 16-bit patterns above, or float32/float64 NaNs of every kind and the same numbers."""
    if dtype in ("float16", "bfloat16"):
        return _values(t, dtype)
    if dtype == "float32":
        nans = np.array([0x7FC00000, 0xFFC00000, 0x7FC12345, 0xFFC12345, 0x7FA00000,
                         0xFF800001], dtype=np.uint32).view(np.float32)
    else:
        nans = np.array([0x7FF8000000000000, 0xFFF8000000000000, 0x7FF8000012345000,
                         0xFFF8000012345000, 0x7FF4000000000000, 0xFFF0000000000001],
                        dtype=np.uint64).view(np.float64)
    numbers = [1.0, -1.0, 0.0, -0.0, np.inf, -np.inf, 0.3, -0.5, 2.0, -0.0]
    return t.tensor(np.concatenate([nans, np.array(numbers, dtype=nans.dtype)]))


def _draw(t, pool, n, seed):
    rng = np.random.default_rng(seed)
    return pool[t.tensor(rng.integers(0, pool.numel(), n))]


_DTYPES = ("float32", "float64", "float16", "bfloat16")


@prog
def clamp_to_tensors_nan_and_zero_bits(t):
    """Tensor bounds: one bound is maximum's/minimum's loop (a NaN is canonical in the element
    loop, all ones or an operand's in the vector loop, a tie keeps the bound there); two
    bounds: clamp's own loop (a NaN bound canonical, a NaN self as it is, a tie keeps self in
    the element loop). Out of place and in place, vectors and tails, broadcast bounds."""
    out = {}
    for dtype in _DTYPES:
        pool = _special(t, dtype)
        for n in (1, 7, 16, 33, 70, 100):
            x, lo, hi = (_draw(t, pool, 2 * n, 10 * n + k).reshape(2, n) for k in range(3))
            key = f"{dtype}_{n}"
            out[key + "_min"] = (bits(x.clamp_min(lo)), bits(x.clone().clamp_min_(lo)),
                                 bits(x.clamp(min=lo[:1])), bits(x.clone().clamp_(min=lo[:1])))
            out[key + "_max"] = (bits(x.clamp_max(hi)), bits(x.clone().clamp_max_(hi)),
                                 bits(x.clamp(max=hi[0])), bits(x.clone().clamp_(max=hi[0])))
            out[key + "_both"] = (bits(x.clamp(lo, hi)), bits(x.clone().clamp_(lo, hi)),
                                  bits(x.clamp(lo[:1], hi)), bits(x.clone().clamp_(lo, hi[1])),
                                  bits(t.clamp(x, lo[0, 0], hi[:, :1])))
            out[key + "_strided"] = (bits(x.t().clamp(lo.t(), hi.t())),
                                     bits(x[:, ::2].clamp(lo[:, ::2], hi[:, ::2])),
                                     bits(x.t().clone().clamp_(lo.t(), hi.t())),
                                     bits(x[:, ::2].clamp_min(lo[:, ::2])))
    return out


@prog
def clamp_to_tensors_zero_ties_from_bounds(t):
    """Bounds that cross (lo > hi) and zeros of both signs in the bounds only: the result is
    a bound, and which zero depends on the loop."""
    out = {}
    for dtype in _DTYPES:
        for n in (1, 5, 40, 70):
            x = t.tensor([-1.0, 1.0, -0.0, 0.0, 3.0]).repeat(n)[:n].to(getattr(t, dtype))
            lo, hi = t.zeros_like(x), -t.zeros_like(x)
            out[f"{dtype}_{n}"] = (bits(x.clamp(lo, hi)), bits(x.clone().clamp_(lo, hi)),
                                   bits(x.clamp(hi, lo)), bits(x.clone().clamp_(hi, lo)),
                                   bits(x.clone().clamp_min_(hi)), bits(x.clone().clamp_max_(lo)))
    return out


@prog
def clamp_to_tensors_out_and_nan_self_overlap(t):
    """out= takes the bits of the loop out's layout picks (a transposed out: the element
    loop); a bound that is self, cell for cell (x.clamp_(x, x))."""
    out = {}
    for dtype in _DTYPES:
        pool = _special(t, dtype)
        x, lo, hi = (_draw(t, pool, 80, 7 + k).reshape(2, 40) for k in range(3))
        o = t.empty(2, 40, dtype=x.dtype)
        t.clamp(x, lo, hi, out=o)
        o2 = t.empty(40, 2, dtype=x.dtype).t()
        t.clamp(x, min=lo, out=o2)
        y = x.clone()
        y.clamp_(y, y)
        o3 = t.empty(40, 2, dtype=x.dtype).t()
        t.clamp(x, -0.0, 0.5, out=o3)
        o4 = t.empty(2, 40, dtype=x.dtype)
        t.clamp_max(x, 0.0, out=o4)
        out[dtype] = (bits(o), bits(o2), bits(y), bits(o3), bits(o4),
                      [v._version for v in (o, o2, y, o3, o4)])
    return out


@prog
def clamp_number_bounds_checked_conversion(t):
    """A number bound goes through c10's checked conversion to the common dtype before the
    kernel writes anything: too large for the type is refused (float16, bfloat16, float32,
    int8), an int wraps into uint8; a NaN bound fills without converting the other one; a
    leaf that requires grad is refused first."""
    def attempt(f):
        try:
            r = f()
            return ("ok", bits(r) if r.dtype.is_floating_point else r, str(r.dtype))
        except Exception as e:  # noqa: BLE001 (the error's type and text are the observation)
            return (type(e).__name__, str(e))

    h = t.tensor([1.0, -2.0, 3.0]).half()
    out = {
        "half_max": attempt(lambda: h.clamp(0.1, 70000)),
        "half_min_": attempt(lambda: h.clone().clamp_min_(70000.0)),
        "half_max_": attempt(lambda: h.clone().clamp_max_(-1e6)),
        "half_65504": attempt(lambda: h.clamp_max(65504.0)),
        "half_65519": attempt(lambda: h.clamp_max(65519.0)),
        "half_int": attempt(lambda: h.clamp(0, 100000)),
        "half_inf": attempt(lambda: h.clamp(0, float("inf"))),
        "half_0d": attempt(lambda: t.tensor(1.0).half().clamp(0, 70000)),
        "half_empty": attempt(lambda: t.empty(0).half().clamp(0, 70000)),
        "half_nan_and_big": attempt(lambda: h.clamp(float("nan"), 70000)),
        "bf16_big": attempt(lambda: h.bfloat16().clamp_max(3.395e38)),
        "bf16_huge": attempt(lambda: h.bfloat16().clamp_max(1e39)),
        "f32_huge": attempt(lambda: t.tensor([1.0]).clamp(0, 1e39)),
        "f32_min_huge": attempt(lambda: t.tensor([1.0]).clamp_min(-1e39)),
        "f64_big": attempt(lambda: t.tensor([1.0], dtype=t.float64).clamp(0, 1e300)),
        "i8_300": attempt(lambda: t.tensor([1], dtype=t.int8).clamp(0, 300)),
        "i8_max_300": attempt(lambda: t.tensor([1], dtype=t.int8).clamp_max(300)),
        "u8_min_-1": attempt(lambda: t.tensor([1], dtype=t.uint8).clamp_min(-1)),
        "u8_-1_3": attempt(lambda: t.tensor([5], dtype=t.uint8).clamp(-1, 3)),
        "i8_float": attempt(lambda: t.tensor([1], dtype=t.int8).clamp(0.5, 300.5)),
    }
    y = t.tensor([1, 1], dtype=t.int8)
    out["i8_inplace_untouched"] = (attempt(lambda: y.clamp_(0, 300)), y, y._version)
    x = t.ones(2, dtype=t.float16, requires_grad=True)
    out["leaf_first"] = attempt(lambda: x.clamp_(0, 70000))
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_clamp_bits_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
