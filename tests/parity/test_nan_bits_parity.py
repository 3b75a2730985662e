"""The NaN bits of float32/float64 transcendentals on torch 2.13 and the core (issue 10): a
NaN input comes out quieted with its sign and payload (sigmoid: its sign flipped), and log or
sqrt of a negative number is +NaN; compared bit for bit, in place, out of place and with out=,
at lengths below, at and past a vector, on strided views. capability_runner.py runs these
programs under each of PyTorch's CPU builds too.
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
