"""div with ``rounding_mode=`` on torch 2.13 and the core: the bits of every quotient (float32,
float64, float16, bfloat16, the integer types; tensor, Python-number and 0-dim divisors; strided
and broadcast layouts; zeros, infinities and NaN), DivBackward2 and what it saves, versions,
views, ``out=``, and the refusals (a bad mode, bool, a zero integer divisor).
"""

import numpy as np
import pytest

from .harness import (
    Raised,
    Registry,
    arr,
    catch,
    compare,
    fn_name,
    leaf,
    pos,
    run,
    upstream,
    warned,
)

pytestmark = pytest.mark.parity

prog = Registry()

MODES = ("trunc", "floor")
BITS = {"float32": "int32", "float64": "int64", "float16": "int16", "bfloat16": "int16"}


def bits(t, y):
    """A float result as its bit pattern (-0.0 vs 0.0 and every last bit compared exactly),
    and where it is NaN: which NaN PyTorch's vector loop leaves (all ones for inf // 2) is
    ops/cpu_lanes.py's business, not div's."""
    name = str(y.dtype).split(".")[-1]
    if name not in BITS:
        return y
    nan = y.isnan()
    return y.masked_fill(nan, 0.0).view(getattr(t, BITS[name])), nan


def _operands(seed, n=204):
    """Quotients of every size: small, huge, near integers, exact integers, zeros, specials."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 4, n)
    b = rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 2, n)
    a[:12] = [7, -7, 7, -7, 0, -0.0, 1, -1, np.inf, -np.inf, np.nan, 6]
    b[:12] = [2, 2, -2, -2, 3, 3, 0, -0.0, 2, 0, 1, 3]
    b[12:20] = b[20:28] * 0 + 1 / 3
    a[12:20] = np.arange(8) - 4.0
    return a, b


def _float_program(dtype):
    def program(t):
        dt = getattr(t, dtype)
        a, b = _operands(1)
        x = t.tensor(a.astype(np.float32)).to(dt)
        y = t.tensor(b.astype(np.float32)).to(dt)
        out = {}
        for mode in MODES:
            out[mode] = bits(t, x.div(y, rounding_mode=mode))
            out[mode + "_number"] = [bits(t, x.div(s, rounding_mode=mode))
                                     for s in (0.3, 3.0, -0.7, 1e-3, 7, 0)]
            out[mode + "_0dim"] = bits(t, x.div(y[20], rounding_mode=mode))
            out[mode + "_row"] = bits(t, x[:200].view(8, 25).div(y[:25], rounding_mode=mode))
            out[mode + "_strided"] = bits(t, x[::2].div(y[1::2], rounding_mode=mode))
            out[mode + "_t"] = bits(t, x[:200].view(8, 25).t().div(y[:8], rounding_mode=mode))
            z = x.clone()
            out[mode + "_"] = (bits(t, z.div_(y, rounding_mode=mode)), z._version)
        out["none"] = bits(t, x.div(y, rounding_mode=None))
        return out
    program.__name__ = f"div_modes_{dtype}_bits"
    return program


for _dt in ("float32", "float64", "float16", "bfloat16"):
    prog(_float_program(_dt))


def _int_program(dtype):
    def program(t):
        dt = getattr(t, dtype)
        lo = 0 if dtype == "uint8" else -100
        a = t.tensor(np.arange(-60, 60) % 101 + lo, dtype=dt)
        b = t.tensor((np.arange(120) * 7) % 23 - (0 if dtype == "uint8" else 11), dtype=dt)
        b = b + (b == 0).to(dt)  # no zero divisor here (see int_division_by_zero)
        out = {}
        for mode in MODES:
            out[mode] = a.div(b, rounding_mode=mode)
            out[mode + "_number"] = [a.div(s, rounding_mode=mode) for s in (3, 7, 2.5)]
            if dtype != "uint8":
                out[mode + "_neg"] = a.div(-3, rounding_mode=mode)
            z = a.clone()
            out[mode + "_"] = (z.div_(b, rounding_mode=mode), z._version)
            out[mode + "_float"] = catch(lambda mode=mode: a.clone().div_(2.5, rounding_mode=mode))
        out["none"] = a.div(b, rounding_mode=None)
        out["none_"] = catch(lambda: a.clone().div_(b, rounding_mode=None))
        return out
    program.__name__ = f"div_modes_{dtype}"
    return program


for _dt in ("int8", "uint8", "int16", "int32", "int64"):
    prog(_int_program(_dt))


@prog
def int_division_by_zero(t):
    i = t.tensor([7, -7, 3])
    z = i.clone()
    return {
        "floor": catch(lambda: i.div(t.tensor([1, 0, 1]), rounding_mode="floor")),
        "trunc": catch(lambda: i.div(0, rounding_mode="trunc")),
        "in_place": catch(lambda: z.div_(t.tensor(0), rounding_mode="floor")),
        "untouched": (z, z._version),
        "true": i.div(0), "float": t.tensor([7.0, -7.0, 0.0]).div(0, rounding_mode="floor"),
    }


@prog
def bool_and_promotion(t):
    b = t.tensor([True, False, True])
    i = t.tensor([5, -5, 4])
    return {
        "bool": catch(lambda: b.div(b, rounding_mode="trunc")),
        "bool_floor": catch(lambda: b.div(True, rounding_mode="floor")),
        "bool_": catch(lambda: b.clone().div_(b, rounding_mode="trunc")),
        "bool_int": b.div(i, rounding_mode="floor"), "int_bool": i.div(b[[0, 0, 2]],
                                                                        rounding_mode="trunc"),
        "int_float": i.div(t.tensor([2.0, 2.0, 3.0]), rounding_mode="floor"),
        "int_half": i.div(t.tensor(2.0, dtype=t.float16), rounding_mode="trunc"),
        "half_int": t.tensor([5.0, -5.0], dtype=t.float16).div(t.tensor([2, 3]),
                                                                rounding_mode="floor"),
        "int8_wraps": t.tensor([100, -100], dtype=t.int8).div(200, rounding_mode="trunc"),
        "none_int": i.div(2, rounding_mode=None),
    }


@prog
def bad_modes_and_types(t):
    x = t.tensor(arr(2, 3))
    out = {}
    for mode in ("bad", "", "Floor", "floor ", "true"):
        out[mode] = catch(lambda mode=mode: x.div(x, rounding_mode=mode))
    out["in_place"] = catch(lambda: x.div_(2, rounding_mode="bad"))
    out["version"] = x._version
    out["int_mode"] = catch(lambda: x.div(x, rounding_mode=1))
    out["positional"] = catch(lambda: x.div(x, "floor"))
    out["keywords"] = catch(lambda: x.div(other=x, rounding_mode=1))
    out["none_other"] = catch(lambda: x.div_(None, rounding_mode="floor"))
    out["divide_none"] = catch(lambda: x.divide(None))
    out["true_divide_mode"] = catch(lambda: x.true_divide(x, rounding_mode="floor"))
    out["function"] = catch(lambda: t.div(x, 2, "floor"))
    out["function_none"] = catch(lambda: t.div(x, None, rounding_mode="trunc"))
    out["function_true_divide"] = catch(lambda: t.true_divide(x, x, rounding_mode="floor"))
    out["bytes"] = x.div(2, rounding_mode=b"floor")
    return out


@prog
def aliases_and_functions(t):
    x = t.tensor(arr(2, 3, seed=3, low=-9, high=9))
    y = t.tensor(pos(3, seed=4) * 3)
    a, b = x.clone(), x.clone()
    return {
        "divide": x.divide(y, rounding_mode="floor"),
        "divide_": a.divide_(y, rounding_mode="trunc"),
        "divide_version": a._version, "div_": b.div_(2.5, rounding_mode="floor"),
        "torch_div": t.div(x, y, rounding_mode="trunc"),
        "torch_divide": t.divide(x, other=2, rounding_mode="floor"),
        "torch_keywords": t.div(input=x, other=y, rounding_mode="floor"),
        "true_divide": (x.true_divide(y), t.true_divide(x, 2)),
        "same_object": a.div_(1, rounding_mode="floor") is a,
    }


@prog
def div_mode_out(t):
    x = t.tensor(arr(2, 3, seed=5, low=-9, high=9))
    i = t.tensor([[7, -7, 5], [-5, 9, -9]])
    o = t.empty(0)
    r = t.div(x, 2, rounding_mode="floor", out=o)
    o6 = t.empty(6)
    resized, warnings = warned(lambda: t.div(x, x, rounding_mode="trunc", out=o6))
    oi = t.empty(2, 3, dtype=t.int64)
    same = x.clone()
    return {
        "out": o, "returned": r is o, "version": o._version, "resized": (resized, warnings),
        "int_out": t.div(i, 2, rounding_mode="floor", out=oi), "int_version": oi._version,
        "int_into_float": t.div(i, -4, rounding_mode="trunc", out=t.empty(0)),
        "float_into_int": catch(lambda: t.div(x, 2, rounding_mode="floor", out=oi)),
        "self_out": (t.div(same, 3, rounding_mode="trunc", out=same), same._version),
        "none": t.divide(x, x, rounding_mode=None, out=t.empty(0)),
        "bad_mode": catch(lambda: t.div(x, x, rounding_mode="bad", out=t.empty(0))),
        "autograd": catch(lambda: t.div(leaf(t, arr(3)), 2, rounding_mode="floor",
                                        out=t.empty(0))),
        "zero": catch(lambda: t.div(i, 0, rounding_mode="trunc", out=t.empty(0, dtype=t.int64))),
    }


def saved_names(fn):
    return None if fn is None else sorted(n for n in dir(fn) if n.startswith("_saved_"))


@prog
def div_backward2_graph(t):
    out = {}
    for mode in (*MODES, None):
        a = leaf(t, pos(2, 3, seed=1))
        b = leaf(t, pos(3, seed=2))
        y = a.div(b, rounding_mode=mode)
        f = y.grad_fn
        out[str(mode)] = {
            "name": fn_name(f), "saved": saved_names(f), "mode": f._saved_rounding_mode,
            "self": f._saved_self, "other": f._saved_other,
            "next": [fn_name(n) for n, _ in f.next_functions],
        }
        y.backward(upstream(t, y))
        out[str(mode) + "_grads"] = (a.grad, b.grad)
        c = leaf(t, pos(3, seed=3))
        z = c.div(2, rounding_mode=mode)
        out[str(mode) + "_number"] = (fn_name(z.grad_fn), z.grad_fn._saved_other,
                                      z.grad_fn._saved_self, saved_names(z.grad_fn))
        z.backward(upstream(t, z))
        out[str(mode) + "_number_grad"] = c.grad
        d = leaf(t, pos(3, seed=4))
        w = t.tensor(pos(3, seed=5)).div(d, rounding_mode=mode)  # only other needs a grad
        out[str(mode) + "_other_only"] = (w.grad_fn._saved_self, saved_names(w.grad_fn))
        w.sum().backward()
        out[str(mode) + "_other_grad"] = d.grad
    out["float_number"] = leaf(t, [1.0]).div(2.5, rounding_mode="trunc").grad_fn._saved_other
    out["bool_number"] = leaf(t, [1.0]).div(True, rounding_mode="floor").grad_fn._saved_other
    out["plain"] = fn_name((leaf(t, [1.0]) * 1).div(2).grad_fn)
    out["int_self"] = fn_name(t.tensor([3, 4]).div(leaf(t, [2.0, 3.0]),
                                                   rounding_mode="floor").grad_fn)
    return out


@prog
def div_mode_in_place_autograd(t):
    out = {}
    for mode in (*MODES, None):
        a = leaf(t, pos(2, 3, seed=1))
        b = leaf(t, pos(3, seed=2))
        y = a * 1
        r = y.div_(b, rounding_mode=mode)
        f = y.grad_fn
        out[str(mode)] = {"same": r is y, "version": y._version, "name": fn_name(f),
                          "saved": saved_names(f), "self": f._saved_self,
                          "next": [fn_name(n) for n, _ in f.next_functions]}
        y.backward(upstream(t, y))
        out[str(mode) + "_grads"] = (a.grad, b.grad)
        # a view: CopySlices on the base
        c = leaf(t, pos(2, 3, seed=3))
        base = c * 1
        base[0].div_(3, rounding_mode=mode)
        out[str(mode) + "_view"] = (fn_name(base.grad_fn), base._version)
        base.backward(upstream(t, base))
        out[str(mode) + "_view_grad"] = c.grad
        out[str(mode) + "_leaf"] = catch(lambda mode=mode: leaf(t, [1.0]).div_(2,
                                                                                rounding_mode=mode))
    return out


@prog
def div_mode_saved_versions(t):
    """The saved operands are version-checked: change one in place before backward."""
    out = {}
    for mode in (*MODES, None):
        a = leaf(t, pos(3, seed=1))
        b = leaf(t, pos(3, seed=2))
        other = b * 1
        y = a.div(other, rounding_mode=mode)
        other.mul_(2)
        out[str(mode) + "_other"] = catch(lambda y=y: y.sum().backward())
        s = a * 1
        z = s.div(b, rounding_mode=mode)
        s.add_(1)
        out[str(mode) + "_self"] = catch(lambda z=z: z.sum().backward())
        k = leaf(t, pos(3, seed=3))
        q = (k * 1).div(t.tensor(pos(3, seed=4)), rounding_mode=mode)
        q.sum().backward()
        out[str(mode) + "_twice"] = catch(lambda q=q: q.sum().backward())
    return out


@prog
def div_mode_retain_and_dtypes(t):
    a = leaf(t, pos(3, seed=1))
    y = a * 1
    y.retain_grad()
    y.div_(2, rounding_mode="floor")
    y.sum().backward()
    h = t.tensor(pos(3, seed=2)).half().requires_grad_()
    z = h.div(t.tensor(pos(3, seed=3)), rounding_mode="trunc")
    z.backward(t.ones(3))
    d = t.tensor(pos(3, seed=4), dtype=t.float64, requires_grad=True)
    e = d.div(t.tensor(pos(3, seed=5)).requires_grad_(), rounding_mode=None)
    e.backward(t.ones(3, dtype=t.float64))
    return {"retains": y.retains_grad, "y_grad": y.grad, "a_grad": a.grad,
            "half": (z.dtype, h.grad), "double": (e.dtype, d.grad)}


@pytest.mark.parametrize("prog", prog.params())
def test_div_rounding_parity(prog, torch_mod, core):
    ref = run(torch_mod, prog)
    assert not isinstance(ref, Raised), ref  # a program that raises as a whole compares nothing
    diffs = compare(ref, run(core, prog))
    assert not diffs, "\n".join(d[:1500] for d in diffs)
