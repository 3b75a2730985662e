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


@pytest.mark.parametrize("prog", prog.params())
def test_clamp_bits_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
