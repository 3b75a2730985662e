"""random_ side by side with torch 2.13: the range each overload and dtype draws from
(random_() on float64 far beyond 2^24, bool both values), the from/to PyTorch moves onto
values a float type holds, and its precision warning. Drawn values are never compared, only
ranges and the set of values a small range hits (see test_random_parity.py for the other
fills and the argument errors of all of them).
"""

import warnings

import numpy as np
import pytest

from .harness import Registry, catch, check_parity
from .test_random_parity import DTYPES, N, _ok, _values

pytestmark = pytest.mark.parity

prog = Registry()


@prog
def random_ranges_per_dtype(t):
    """random_() covers [0, 2^digits] for float types (float64 far beyond 2^24) and [0, max]
    for the others; bool gives both values."""
    out = {}
    for d in DTYPES:
        x = t.empty(N, dtype=getattr(t, d)).random_()
        v = _values(t, x)
        hi = {"bool": 1, "uint8": 255, "int8": 127, "int16": 32767, "int32": 2 ** 31 - 1,
              "int64": 2 ** 63 - 1, "float16": 2 ** 11, "bfloat16": 2 ** 8,
              "float32": 2 ** 24, "float64": 2 ** 53}[d]
        out[d] = {"dtype": x.dtype, "min >= 0": bool(v.min() >= 0),
                  "max <= top": bool(v.max() <= hi), "max > top / 2": bool(v.max() > hi / 2),
                  "integers": bool(np.all(v == np.floor(v))),
                  "mean near top / 2": abs(v.mean() / hi - 0.5) < 0.02}
    b = t.empty(1000, dtype=t.bool).random_()
    out["bool both"] = sorted(set(b.tolist()))
    return out


@prog
def random_small_ranges_hit_every_value(t):
    out = {}
    for d in ("uint8", "int8", "int64", "float16", "bfloat16", "float32", "float64"):
        dt = getattr(t, d)
        out[f"(5) {d}"] = sorted(set(_values(t, t.empty(2000, dtype=dt).random_(5)).tolist()))
        out[f"(-3, 2) {d}"] = sorted(set(
            _values(t, t.empty(2000, dtype=dt).random_(-3, 2)).tolist())) if d != "uint8" \
            else None
    out["bool (0, 2)"] = sorted(set(t.empty(1000, dtype=t.bool).random_(0, 2).tolist()))
    out["bool (1, 2)"] = sorted(set(t.empty(100, dtype=t.bool).random_(1, 2).tolist()))
    x = t.empty(N, dtype=t.int8).random_(-3, None)
    v = _values(t, x)
    out["int8 (-3, None)"] = (v.min(), v.max())
    big = _values(t, t.empty(N, dtype=t.int64).random_(2 ** 62, None))
    out["int64 (2^62, None)"] = bool(big.min() >= 2 ** 62 and big.max() > 2 ** 62 * 1.9)
    full = t.empty(N, dtype=t.int64).random_(-2 ** 63, None).numpy()
    out["int64 full range"] = (bool(full.min() < -2 ** 62), bool(full.max() > 2 ** 62))
    return out


@prog
def random_float_ranges_moved_to_representable_values(t):
    """random_(from, to) on float16: PyTorch moves from/to to values the dtype holds, and
    refuses a range that becomes empty."""
    h = t.zeros(3, dtype=t.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "(65500, 65504)": catch(lambda: h.random_(65500, 65504)),
            "(-3001, -3000)": catch(lambda: h.random_(-3001, -3000)),
            "(65504, None)": catch(lambda: h.random_(65504, None)),
            "(2049, 2050)": _ok(t, lambda: h.random_(2049, 2050)),
            "(0, 65504)": _ok(t, lambda: h.random_(0, 65504)),
            "f32 (2^25, None)": catch(lambda: t.zeros(3).random_(2 ** 25, None)),
            "bf16 (2^60)": _ok(t, lambda: t.zeros(3, dtype=t.bfloat16).random_(2 ** 60)),
            "f64 (2^63 - 1)": _ok(t, lambda: t.zeros(3, dtype=t.float64).random_(2 ** 63 - 1)),
            "version": h._version,
        }


@prog
def random_precision_warnings(t):
    """Outside [-(2^digits), 2^digits] a float type can't draw every integer: PyTorch warns."""
    out = {}
    for label, fn in {
        "f32 (0, 2^25)": lambda: t.zeros(3).random_(0, 2 ** 25),
        "f32 (-2^25, 5)": lambda: t.zeros(3).random_(-2 ** 25, 5),
        "f32 (2^24 + 1)": lambda: t.zeros(3).random_(2 ** 24 + 1),
        "f32 (2^24)": lambda: t.zeros(3).random_(2 ** 24),
        "f16 (3000)": lambda: t.zeros(3, dtype=t.float16).random_(3000),
        "bf16 (1000)": lambda: t.zeros(3, dtype=t.bfloat16).random_(1000),
        "f64 (0, 2^54)": lambda: t.zeros(3, dtype=t.float64).random_(0, 2 ** 54),
        "f64 (2^53)": lambda: t.zeros(3, dtype=t.float64).random_(2 ** 53),
        "int64 (2^54)": lambda: t.zeros(3, dtype=t.int64).random_(2 ** 54),
    }.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fn()
        out[label] = [str(w.message).split(" (Triggered internally")[0] for w in caught]
    return out


@pytest.mark.parametrize("program", prog.params())
def test_random_from_to_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 4
