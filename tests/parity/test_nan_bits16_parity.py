"""The NaN bits float16 and bfloat16 unary ops leave on torch 2.13 and the core (issue 10):
every NaN input pattern class (quiet, signalling, with a payload, both signs) and the NaNs
made from numbers (log of a negative, sin of inf ...), in place and out of place, at lengths
inside one vector step, past it, with a tail, and strided (the element loop).
capability_runner.py runs these programs under each of PyTorch's CPU builds too
(ops/unary_nan_bits.py says what differs by build).
"""

import numpy as np
import pytest

from .harness import Registry, check_parity
from .test_nan_sign_parity import bits

pytestmark = pytest.mark.parity

prog = Registry()

VML = ("exp", "expm1", "log1p", "sqrt", "sin", "cos", "tan", "tanh", "asin", "acos", "atan",
       "floor", "ceil", "round", "trunc", "i0")
VEC = ("exp2", "rsqrt", "sinh", "cosh", "atanh", "sigmoid", "reciprocal", "frac", "deg2rad",
       "rad2deg", "abs", "neg")
# (sinc, also element loop only: its values, last bit included, in test_rounding16_parity)
SCALAR = ("asinh", "acosh")
# log, log2, log10 of a negative number under AVX512 leave a NaN whose payload depends on the
# number (not modelled); their NaN inputs are compared below
LOGS = ("log", "log2", "log10")

_NANS = {"float16": [0x7E00, 0xFE00, 0x7E45, 0xFE45, 0x7D00, 0xFD01, 0x7C01, 0xFFFF],
         "bfloat16": [0x7FC0, 0xFFC0, 0x7FC5, 0xFFC5, 0x7FA0, 0xFFA1, 0x7F81, 0xFFFF]}
_NUMBERS = [0.0, -0.0, 1.0, -1.0, float("inf"), -float("inf"), 2.5, -0.5, -2.5, 0.9, -3.0]


def _values(t, dtype, numbers=True):
    nans = t.tensor(np.array(_NANS[dtype], dtype=np.uint16).view(np.int16).copy())
    x = nans.view(getattr(t, dtype))
    if numbers:
        x = t.cat([x, t.tensor(_NUMBERS).to(getattr(t, dtype))])
    return x


def _lengths(x):
    long = x.repeat(300 // x.numel() + 1)[:300]
    return {"1": x[:1].clone(), "13": x[:13].clone(), "37": long[:37].clone(),
            "64": long[:64].clone(), "100": long[:100].clone(), "300": long,
            "strided": long[::3]}


def _run(t, names, numbers):
    out = {}
    for dtype in ("float16", "bfloat16"):
        for k, x in _lengths(_values(t, dtype, numbers)).items():
            out[f"{dtype}_{k}"] = {name: (bits(getattr(x, name)()),
                                          bits(getattr(x.clone(), name + "_")()))
                                   for name in names}
    return out


@prog
def vml_ops_16bit_nan_bits(t):
    return _run(t, VML, numbers=True)


@prog
def vector_loop_ops_16bit_nan_bits(t):
    return _run(t, VEC, numbers=True)


@prog
def element_loop_ops_16bit_nan_bits(t):
    return _run(t, SCALAR, numbers=True)


@prog
def log_family_16bit_nan_inputs(t):
    return _run(t, LOGS, numbers=False)


@prog
def nan_bits16_out_and_views(t):
    """out= and a transposed view take the same loops."""
    out = {}
    for dtype in ("float16", "bfloat16"):
        x = _values(t, dtype).repeat(8)[:96].reshape(12, 8).t()
        for name in ("exp", "sinh", "sigmoid", "sqrt", "sin"):
            o = t.empty(8, 12, dtype=getattr(t, dtype))
            getattr(t, name)(x, out=o)
            out[f"{dtype}_{name}"] = (bits(o), bits(getattr(t, name)(x)),
                                      bits(getattr(x.clone(), name + "_")()))
    return out


# ======================================================================================
# Casts between the four float dtypes: NaN bits by pair, length and layout (copy_kernel.py:
# _NAN_BITS): float16 -> float32 quiets (a one-element tensor gives 0x7FFFFFFF); float32 ->
# float16 keeps the payload's top bits (0x7E00 when none is left; DEFAULT's element loop drops
# it); -> bfloat16 is all ones in the vector loop (float32: every element of a contiguous row;
# float64: 16 at a time, the tail 0x7FC0), 0x7FC0 in the element loop and in DEFAULT.

_WIDE_NANS = {"float32": (np.uint32, [0x7FC00000, 0xFFC00000, 0x7FC12345, 0xFFC12345, 0x7FA00000,
                                      0xFFA00001, 0x7F800001, 0xFF801000]),
              "float64": (np.uint64, [0x7FF8000000000000, 0xFFF8000000000000,
                                      0x7FF8000012345000, 0xFFF8000012345000,
                                      0x7FF4000000000000, 0xFFF0000000000001])}


def _cast_source(t, dtype):
    if dtype in _WIDE_NANS:
        u, pats = _WIDE_NANS[dtype]
        signed = np.array(pats, dtype=u).view(np.int64 if u is np.uint64 else np.int32)
        x = t.tensor(signed.copy()).view(getattr(t, dtype))
        return t.cat([x, t.tensor([1.0, -0.0, float("inf")]).to(getattr(t, dtype))])
    return _values(t, dtype)


@prog
def casts_nan_bits_every_pair_and_layout(t):
    out = {}
    dts = ("float16", "bfloat16", "float32", "float64")
    for src in dts:
        x = _cast_source(t, src)
        long = x.repeat(100 // x.numel() + 1)[:100]
        views = {"1": x[2:3].clone(), "7": long[:7].clone(), "37": long[:37].clone(),
                 "100": long, "strided": long[::3],
                 "transposed": long[:96].reshape(12, 8).t(),
                 "rows": long[:96].reshape(4, 24)[:, :20]}
        for dst in dts:
            if dst != src:
                out[f"{src}_{dst}"] = {k: bits(v.to(getattr(t, dst))) for k, v in views.items()}
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_nan_bits16_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
