"""The bits relu and relu_ leave on big float32/float64 tensors, torch 2.13 against the core
(issue 10): the sizes and layouts the course and benchmarks use (1000×1000, a size that no
row length divides, transposed, strided, a view of a bigger tensor), filled with every kind
of NaN (quiet, signalling, with a payload, both signs), both zeros and ±inf among ordinary
numbers. ops/unary.py:relu_kernel runs NumPy's clip ufunc there; test_nan_sign_parity.py
covers the short lengths (the element loop, one vector step, a tail). And ReluBackward0's
gradient bits where the result is NaN or zero (ops/unary.py:_relu_bw).
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


@prog
def relu_backward_passes_nan_results_and_gives_plus_zero(t):
    """ReluBackward0 is threshold_backward(grad, result, 0), ``result <= 0 ? 0 : grad``: a NaN
    result passes its gradient (sign(result) * grad made it NaN), a clipped cell gets +0.0
    even under a negative gradient, and the gradient's own NaN bits pass through."""
    out = {}
    for dtype in ("float32", "float64"):
        d = getattr(t, dtype)
        for n in (9, 40, 70_001):
            vals = t.tensor([float("nan"), -0.0, 0.0, 1.0, -1.0, float("inf"), -float("nan"),
                             3.0, -2.0]).to(d)
            grads = t.tensor([2.0, -3.0, -3.0, 4.0, -5.0, -6.0, 7.0, float("nan"),
                              -float("inf")]).to(d)
            x = vals.repeat(n // 9 + 1)[:n].clone().requires_grad_()
            g = grads.repeat(n // 9 + 1)[:n]
            for inplace in (False, True):
                y = x * 1
                z = y.relu_() if inplace else y.relu()
                z.backward(g)
                out[f"{dtype}_{n}_{inplace}"] = bits(x.grad)
                x.grad = None
        x = t.tensor([-1.0, 0.0, 2.0, float("nan")]).to(d).requires_grad_()
        (x * 1).relu().sum().backward()  # an expanded gradient (stride 0)
        out[f"{dtype}_expanded"] = bits(x.grad)
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_relu_bits_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
