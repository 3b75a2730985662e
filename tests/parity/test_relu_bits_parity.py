"""The bits relu and relu_ leave on big float32/float64 tensors, torch 2.13 against the core
(issue 10): the sizes and layouts the course and benchmarks use (1000×1000, a size that no
row length divides, transposed, strided, a view of a bigger tensor), filled with every kind
of NaN (quiet, signalling, with a payload, both signs), both zeros and ±inf among ordinary
numbers. ops/unary.py:relu_kernel runs NumPy's clip ufunc there; test_nan_sign_parity.py
covers the short lengths (the element loop, one vector step, a tail).
"""

import numpy as np
import pytest

from .harness import Registry, check_parity
from .test_nan_sign_parity import bits

pytestmark = pytest.mark.parity

prog = Registry()

_SPECIAL = {"float32": ([0x7FC00000, 0xFFC00000, 0x7FC12345, 0xFFC12345, 0x7FA00000,
                         0xFFA00001], np.uint32, np.float32),
            "float64": ([0x7FF8000000000000, 0xFFF8000000000000, 0x7FF8000012345000,
                         0xFFF8000012345000, 0x7FF4000000000000], np.uint64, np.float64)}


def _big(t, dtype, shape, seed):
    """Normal numbers with a special value (NaN kinds, ±0.0, ±inf) in every 7th cell."""
    patterns, uint, np_dtype = _SPECIAL[dtype]
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape).astype(np_dtype)
    special = np.concatenate([np.array(patterns, dtype=uint).view(np_dtype),
                              np.array([0.0, -0.0, np.inf, -np.inf], dtype=np_dtype)])
    flat = a.reshape(-1)
    flat[::7] = special[rng.integers(0, special.size, flat[::7].size)]
    return t.tensor(a)


@prog
def relu_of_big_tensors_keeps_nan_and_zero_bits(t):
    out = {}
    for dtype in ("float32", "float64"):
        for shape in ((1000, 1000), (65537,), (3, 40_001)):
            x = _big(t, dtype, shape, sum(shape))
            y = x.clone()
            out[f"{dtype}_{shape}"] = (bits(x.relu()), bits(y.relu_()), bits(y))
        x = _big(t, dtype, (300, 500), 1)
        views = {"transposed": x.t(), "strided": x[::2, 1::3], "rows": x[10:290]}
        for name, v in views.items():
            y = x.clone()
            w = {"transposed": y.t(), "strided": y[::2, 1::3], "rows": y[10:290]}[name]
            out[f"{dtype}_{name}"] = (bits(v.relu()), bits(w.relu_()), bits(y))
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_relu_bits_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
