"""The NaN bits of float32/float64 transcendentals on torch 2.13 and the core (issue 10): a
NaN input comes out quieted with its sign and payload (sigmoid: its sign flipped), and log or
sqrt of a negative number is +NaN; compared bit for bit, in place, out of place and with out=,
at lengths below, at and past a vector, on strided views; and the ops whose bits differ by
CPU build (sinh, cosh, atanh, log1p, asin, floor, ceil, sinc: ops/unary_nan_bits.py).
capability_runner.py runs these programs under each of PyTorch's CPU builds too.
"""

import numpy as np
import pytest

from .harness import Registry, check_parity
from .test_nan_sign_parity import _lengths, _special, bits

pytestmark = pytest.mark.parity

prog = Registry()

def nan_bits(y):
    """The bits of y's NaNs (0 elsewhere), and y itself: its numbers are compared as values,
    with the harness's tolerance (the libraries' exp or sin may differ in the last bit)."""
    return np.where(y.isnan().numpy(), bits(y), 0), y.detach()


KEEP = ("exp", "tanh", "sin", "cos", "tan", "exp2", "expm1", "sigmoid")
INVALID_POSITIVE = ("log", "sqrt", "log2", "log10")


def _with_negatives(t, dtype):
    """The special values plus negative numbers (-2.5, -1e30) and -inf twice more."""
    extra = t.tensor(np.array([-2.5, -1e30, -np.inf, -3.0], dtype=getattr(np, dtype)))
    return t.cat([_special(t, dtype), extra])


@prog
def unary_nan_input_keeps_its_bits(t):
    out = {}
    for dtype in ("float32", "float64"):
        for k, x in _lengths(t, _special(t, dtype)).items():
            out[f"{dtype}_{k}"] = {name: (nan_bits(getattr(x, name)()),
                                          nan_bits(getattr(x.clone(), name + "_")()))
                                   for name in KEEP}
    return out


@prog
def log_and_sqrt_of_negatives_are_positive_nan(t):
    out = {}
    for dtype in ("float32", "float64"):
        for k, x in _lengths(t, _with_negatives(t, dtype)).items():
            out[f"{dtype}_{k}"] = {name: (nan_bits(getattr(x, name)()),
                                          nan_bits(getattr(x.clone(), name + "_")()))
                                   for name in INVALID_POSITIVE}
    return out


@prog
def nan_bits_through_out_and_functions(t):
    out = {}
    for dtype in ("float32", "float64"):
        x = _with_negatives(t, dtype)
        for name in KEEP + INVALID_POSITIVE:
            o = t.empty(x.numel(), dtype=getattr(t, dtype))
            getattr(t, name)(x, out=o)
            out[f"{dtype}_{name}"] = (nan_bits(o), nan_bits(getattr(t, name)(x)))
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_nan_bits_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)


# The ops whose float32/float64 NaN bits differ by CPU build (ops/unary_nan_bits.py): SLEEF's
# all-ones NaN in the vectors of sinh/cosh/atanh (not in their tails), log1p's canonical NaN
# under AVX2/AVX512, MKL's float32 asin dropping payload bits, DEFAULT's floor/ceil keeping a
# signalling NaN; atanh/asin/log1p/sinc of out-of-domain numbers.
BUILD_DEPENDENT = ("sinh", "cosh", "atanh", "log1p", "asin", "floor", "ceil", "sinc")


def _out_of_domain(t, dtype):
    extra = t.tensor(np.array([2.0, 1.5, -1.5, -2.0, np.inf, 0.25], dtype=getattr(np, dtype)))
    return t.cat([_with_negatives(t, dtype), extra])


@prog
def build_dependent_nan_bits(t):
    out = {}
    for dtype in ("float32", "float64"):
        for k, x in _lengths(t, _out_of_domain(t, dtype)).items():
            out[f"{dtype}_{k}"] = {name: (nan_bits(getattr(x, name)()),
                                          nan_bits(getattr(x.clone(), name + "_")()))
                                   for name in BUILD_DEPENDENT}
    return out


@prog
def build_dependent_nan_bits_out_and_views(t):
    """out= (its own layout picks the loop) and a transposed input."""
    out = {}
    for dtype in ("float32", "float64"):
        x = _out_of_domain(t, dtype).repeat(8)[:160].reshape(20, 8).t()
        for name in BUILD_DEPENDENT:
            o = t.empty(8, 20, dtype=getattr(t, dtype))
            getattr(t, name)(x, out=o)
            out[f"{dtype}_{name}"] = (nan_bits(o), nan_bits(getattr(t, name)(x)))
    return out
