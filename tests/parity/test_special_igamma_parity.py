"""igamma and igammac (ops/igamma.py, torch.special.gammainc/gammaincc) on torch 2.13 and the
core: values and PyTorch's boundary values, dtypes (no kernel for two integer or bool
tensors), broadcasting, in place, out=, IgammaBackward0/IgammacBackward0 (both save self and
other; self's derivative is not implemented), and the distance between the two over a sweep.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, meta, upstream
from .reorder_helpers import saved

pytestmark = pytest.mark.parity

prog = Registry()

EDGES_A = [-1.0, 0.0, 0.0, 1.0, float("inf"), float("inf"), 2.0, float("nan"), 0.5, 3.0]
EDGES_X = [1.0, 0.0, 1.0, 0.0, 1.0, float("inf"), float("inf"), 1.0, -0.5, float("nan")]


@prog
def igamma_values_and_edges(t):
    out = {}
    for op in ("igamma", "igammac"):
        for dtype in (t.float32, t.float64):
            a = t.tensor([0.5, 1.0, 2.0, 5.0, 0.01, 30.0, 3.0, 1e-3], dtype=dtype)
            x = t.tensor([0.25, 1.0, 3.0, 1.0, 2.0, 10.0, 40.0, 1e-4], dtype=dtype)
            out[f"{op}_{dtype}"] = getattr(a, op)(x)
        out[op + "_edges"] = getattr(t.tensor(EDGES_A), op)(t.tensor(EDGES_X))
        out[op + "_broadcast"] = getattr(t.tensor([[1.0], [2.0]]), op)(t.tensor([0.5, 1.5, 4.0]))
        out[op + "_int_other"] = getattr(t.tensor([1.0, 2.0]), op)(t.tensor([1, 3]))
        out[op + "_int_self"] = getattr(t.tensor([1, 2]), op)(t.tensor([0.5, 3.0]))
        out[op + "_ints"] = catch(lambda op=op: getattr(t.tensor([1, 2]), op)(t.tensor([1, 2])))
        out[op + "_bools"] = catch(lambda op=op: getattr(t.tensor([True]), op)(t.tensor([True])))
        out[op + "_half"] = getattr(t.tensor([1.0, 2.0], dtype=t.float16), op)(
            t.tensor([0.5, 2.5], dtype=t.float16))
        out[op + "_scalar"] = catch(lambda op=op: getattr(t.tensor([1.0]), op)(2.0))
        out[op + "_fn_scalar"] = catch(lambda op=op: getattr(t, op)(t.tensor([1.0]), 2))
        out[op + "_shape"] = catch(lambda op=op: getattr(t.ones(2), op)(t.ones(3)))
        out[op + "_layout"] = meta(getattr(t.tensor(arr(3, 4)).abs().t(), op)(t.ones(4, 3)))
    return out


@prog
def igamma_inplace_out_and_special(t):
    out = {}
    for op in ("igamma", "igammac"):
        y = t.tensor([1.0, 2.5, 4.0])
        r = getattr(y, op + "_")(t.tensor([0.5, 2.5, 1.0]))
        out[op] = (y, r is y, y._version)
        out[op + "_long_self"] = catch(lambda op=op: getattr(t.tensor([1, 2]), op + "_")(
            t.tensor([0.5, 1.0])))
        out[op + "_broadcast_self"] = catch(lambda op=op: getattr(t.ones(3), op + "_")(
            t.ones(2, 3)))
        o = t.empty(3)
        out[op + "_out"] = (getattr(t, op)(t.tensor([1.0, 2.0, 3.0]), t.tensor([2.0]), out=o),
                            o._version)
        out[op + "_out_long"] = catch(lambda op=op: getattr(t, op)(
            t.ones(2), t.ones(2), out=t.empty(2, dtype=t.long)))
    s = t.special
    a, x = t.tensor([0.5, 2.0, 7.0]), t.tensor([1.0, 1.0, 9.0])
    out["gammainc"] = (s.gammainc(a, x), s.gammaincc(a, x), s.gammainc(a, x, out=t.empty(3)))
    out["gammainc_bad"] = (catch(lambda: s.gammainc(a, 2)), catch(lambda: s.gammaincc(None, x)))
    return out


@prog
def igamma_autograd(t):
    out = {}
    for op in ("igamma", "igammac"):
        a = t.tensor([0.5, 2.0, 7.0])
        x = leaf(t, np.abs(arr(3, seed=21)) + 0.5)
        y = getattr(t, op)(a, x)
        out[op] = (y, fn_name(y.grad_fn), saved(y.grad_fn))
        y.backward(upstream(t, y))
        out[op + "_grad"] = x.grad
        b = leaf(t, np.abs(arr(3, seed=22)) + 0.5)
        out[op + "_self_grad"] = catch(lambda op=op, b=b: getattr(b, op)(t.ones(3)).sum()
                                       .backward())
        w = b * 1
        getattr(w, op + "_")(t.tensor([1.0, 2.0, 3.0]))
        out[op + "_inplace"] = (fn_name(w.grad_fn), saved(w.grad_fn))
        out[op + "_inplace_backward"] = catch(lambda w=w: w.sum().backward())
        z = leaf(t, np.abs(arr(3, seed=23)) + 0.5)
        v = getattr(t.tensor([1.5, 2.0, 0.5]), op)(z * 1)
        v.backward(upstream(t, v))
        out[op + "_other_only"] = z.grad
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_igamma_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)


@pytest.mark.parametrize("op", ["igamma", "igammac"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_igamma_distance(op, dtype, torch_mod, core):
    """P and Q over a in (1e-3, 1e4), x = a times e^(-3 .. 3): the core's series and continued
    fraction against torch's. Where torch uses its uniform asymptotic expansion (a > 20 and
    x ~ a) its float64 values are off by up to 2e-9 relative (mpmath: P(23.1485, 16.2492) =
    0.0621893225363547541...; torch 0.0621893224214181, the core 0.0621893225363545), and in
    float32 torch computes in float (P(1, 1) = 1 - 1/e: the core's float32 is the nearest,
    torch's 8 ulps away), so the bounds are torch's error, not the core's. Elsewhere the core
    is the less exact: its factor x^a e^-x / Gamma(a), taken through logarithms, carries
    a |log x| rounding errors (2e-11 relative at a = 7744, where Cephes' Lanczos form keeps
    torch's exact), and Q = 1 - P cancels where P is near 1 (small a and x). Results below
    float64's normal range (torch flushes them to 0; the core keeps the subnormal) count as 0."""
    rng = np.random.default_rng(7)
    a = np.exp(rng.uniform(np.log(1e-3), np.log(1e4), 40000)).astype(dtype)
    x = (a * np.exp(rng.uniform(-3, 3, 40000))).astype(dtype)
    ref = getattr(torch_mod.tensor(a), op)(torch_mod.tensor(x)).numpy().astype(np.float64)
    got = getattr(core.tensor(a), op)(core.tensor(x)).numpy().astype(np.float64)
    assert np.array_equal(np.isnan(ref), np.isnan(got))
    err = np.abs(ref - got)
    if dtype == np.float64:
        a64, x64 = a.astype(np.float64), x.astype(np.float64)
        small = (a64 < 20) | (np.abs(x64 - a64) / a64 > 0.3)  # torch's series / fraction
        bound = 1e-15 * (a64 * np.abs(np.log(x64)) + x64 + 500) * np.abs(ref) + 1e-300
        assert (err[small] <= bound[small]).all()
        assert (err[~small] <= 5e-9 * np.abs(ref[~small]) + 1e-300).all()
    else:
        assert (err <= 2e-4 * np.abs(ref) + 1e-7).all()
