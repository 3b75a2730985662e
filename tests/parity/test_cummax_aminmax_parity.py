"""cummax/cummin and aminmax on torch 2.13 and the core: values and indices (ties: the later
element wins, with its zero's sign; every NaN takes over), dtypes, layouts, 0-dim and empty
tensors, the return types, out= (checks and their order, resizes, aliasing), grad_fn names,
``_saved_*`` fields, gradients (scatter_add; ties shared evenly), version errors, error texts.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, ints, leaf, meta, warned
from .reorder_helpers import grad_of, layouts, saved

pytestmark = pytest.mark.parity

prog = Registry()


def _tied(seed, *shape, zeros=True):
    """Small integers (many ties), signed zeros, and NaNs in every third row."""
    a = ints(*shape, seed=seed, low=-2, high=3)
    rng = np.random.default_rng(seed)
    if zeros:
        a = np.where(a == 0, np.where(rng.random(a.shape) < 0.5, -0.0, 0.0), a)
    a = a.astype(np.float32)
    a[::3][rng.random(a[::3].shape) < 0.3] = np.nan
    return a


def _pair(r):
    return (r[0], r[1], type(r).__name__, meta(r[0]), meta(r[1]))


# ======================================================================================
# cummax / cummin


@prog
def cummax_cummin_values(t):
    out = {}
    for op in ("cummax", "cummin"):
        x = t.tensor(_tied(1, 4, 7))
        f = lambda v, *a, op=op, **k: getattr(v, op)(*a, **k)  # noqa: E731
        out[op] = {
            "d1": _pair(f(x, 1)), "d0": _pair(f(x, 0)), "neg": _pair(f(x, -1)),
            "kw": _pair(f(x, dim=0)), "module": _pair(getattr(t, op)(x, 1)),
            "signs": f(x, 1).values.reciprocal().lt(0),
            "zero_dim": _pair(f(t.tensor(2.5), 0)), "zero_dim_neg": _pair(f(t.tensor(2.5), -1)),
            "empty": _pair(f(t.zeros(0, 3), 0)), "empty_any_dim": _pair(f(t.zeros(0, 3), 5)),
            "empty_1d": _pair(f(t.zeros(0), 1)),
            "layouts": layouts(t, lambda v, f=f: f(v, 0).values),
            "layouts_idx": layouts(t, lambda v, f=f: f(v, -1).indices),
            "dtypes": [f(t.tensor([1, 3, 2, 3, 0, -1, 3], dtype=d), 0)
                       for d in (t.int8, t.uint8, t.int16, t.int32, t.int64, t.float16,
                                 t.bfloat16, t.float64, t.bool)],
            "nan": f(t.tensor([1.0, float("nan"), 3.0, float("nan"), 0.0]), 0),
            "repr": repr(f(t.tensor([2.0, 1.0]), 0)),
        }
    return out


@prog
def cummax_cummin_errors(t):
    x = t.zeros(2, 3)
    out = {}
    for op in ("cummax", "cummin"):
        f = getattr(x, op)
        out[op] = {
            "dim": catch(lambda f=f: f(2)),
            "neg_dim": catch(lambda f=f: f(-3)),
            "scalar_dim": catch(lambda op=op: getattr(t.tensor(1.0), op)(1)),
            "scalar_neg_dim": catch(lambda op=op: getattr(t.tensor(1.0), op)(-2)),
            "missing": catch(lambda f=f: f()),
            "none_kw": catch(lambda f=f: f(dim=None)),
            "float": catch(lambda f=f: f(1.5)),
            "bool": catch(lambda f=f: f(True)),
            "two": catch(lambda f=f: f(0, 1)),
            "module_missing": catch(lambda op=op: getattr(t, op)(x)),
            "module_float_kw": catch(lambda op=op: getattr(t, op)(x, dim=1.5)),
        }
    return out


# ======================================================================================
# aminmax


@prog
def aminmax_values(t):
    x = t.tensor(_tied(2, 4, 6, zeros=False))
    out = {
        "all": _pair(x.aminmax()), "d1": _pair(x.aminmax(dim=1)),
        "d0_keep": _pair(x.aminmax(dim=0, keepdim=True)),
        "neg": _pair(x.aminmax(dim=-1)), "keep_all": _pair(x.aminmax(keepdim=True)),
        "none": _pair(x.aminmax(dim=None)), "module": _pair(t.aminmax(x, dim=1)),
        "fields": (x.aminmax().min, x.aminmax().max),
        "zero_dim": (_pair(t.tensor(2.0).aminmax()), _pair(t.tensor(2.0).aminmax(dim=0)),
                     _pair(t.tensor(2.0).aminmax(dim=-1, keepdim=True))),
        "empty_rows": _pair(t.zeros(0, 2).aminmax(dim=1, keepdim=True)),
        "layouts": layouts(t, lambda v: v.aminmax(dim=0).min),
        "layouts_max": layouts(t, lambda v: v.aminmax(dim=1, keepdim=True).max),
        "dtypes": [t.tensor([[1, 3, 2], [3, 0, -1]], dtype=d).aminmax(dim=1)
                   for d in (t.int8, t.uint8, t.int16, t.int32, t.int64, t.float16, t.bfloat16,
                             t.float64, t.bool)],
        "nan": t.tensor([[1.0, float("nan"), 2.0], [3.0, 1.0, 0.5]]).aminmax(dim=1),
        "repr": repr(t.tensor([2.0, 1.0]).aminmax()),
    }
    return out


@prog
def aminmax_errors(t):
    x = t.zeros(2, 3)
    return {
        "empty": catch(lambda: t.zeros(0, 3).aminmax()),
        "empty_dim": catch(lambda: t.zeros(0, 3).aminmax(dim=0)),
        "empty_neg_dim": catch(lambda: t.zeros(0, 3).aminmax(dim=-2)),
        "empty_1d": catch(lambda: t.zeros(0).aminmax(dim=0)),
        "dim": catch(lambda: x.aminmax(dim=2)),
        "scalar_dim": catch(lambda: t.tensor(1.0).aminmax(dim=1)),
        "positional": catch(lambda: x.aminmax(1)),
        "float": catch(lambda: x.aminmax(dim=1.0)),
        "tuple": catch(lambda: x.aminmax(dim=(0, 1))),
        "bool_dim": catch(lambda: x.aminmax(dim=True)),
        "keepdim_int": catch(lambda: x.aminmax(keepdim=1)),
        "unknown": catch(lambda: x.aminmax(foo=0)),
        "module_positional": catch(lambda: t.aminmax(x, 0)),
        "module_min_kw": catch(lambda: t.aminmax(x, dim=0, min=t.zeros(0))),
    }


# ======================================================================================
# out=


@prog
def cummax_aminmax_out(t):
    x = t.tensor(arr(3, 4, seed=3))
    out = {}
    calls = {
        "cummax": lambda o: t.cummax(x, 1, out=o),
        "cummin": lambda o: t.cummin(x, dim=0, out=o),
        "aminmax": lambda o: t.aminmax(x, dim=1, out=o),
        "aminmax_all": lambda o: t.aminmax(x, out=o),
        "aminmax_keep": lambda o: t.aminmax(x, dim=0, keepdim=True, out=o),
    }
    for name, call in calls.items():
        idx = t.float32 if name.startswith("aminmax") else t.int64
        o = (t.zeros(0), t.zeros(0, dtype=idx))
        r = call(o)
        out[name] = (r, type(r).__name__, r[0] is o[0], r[1] is o[1], o[0]._version,
                     meta(o[0]), meta(o[1]))
        big = (t.zeros(5), t.zeros(5, dtype=idx))
        out[name + "_resized"] = warned(lambda call=call, big=big: call(big)), meta(big[0])
        for bad, o in (("v_double", (t.zeros(0, dtype=t.float64), t.zeros(0, dtype=idx))),
                       ("i_float", (t.zeros(0), t.zeros(0, dtype=t.float16))),
                       ("v_long", (t.zeros(0, dtype=t.int64), t.zeros(0, dtype=idx)))):
            out[f"{name}_{bad}"] = (catch(lambda call=call, o=o: call(o)), meta(o[0]),
                                    meta(o[1]))
        out[name + "_tensor"] = catch(lambda call=call: call(t.zeros(0)))
        out[name + "_one"] = catch(lambda call=call: call((t.zeros(0),)))
        out[name + "_int"] = catch(lambda call=call: call((t.zeros(0), 1)))
        out[name + "_grad_out"] = catch(lambda call=call, idx=idx: call(
            (t.zeros(0, requires_grad=True), t.zeros(0, dtype=idx))))
    long_out = (t.zeros(0, dtype=t.float64), t.zeros(0, dtype=t.int64))
    out["cummax_scalar_dim_after_types"] = (
        catch(lambda: t.cummax(t.tensor(2.0), 5, out=long_out)),
        catch(lambda: t.cummax(t.tensor(2.0), 5, out=(t.zeros(0), t.zeros(0, dtype=t.int64)))))
    v = t.zeros(0)
    out["cummax_bad_dim_resizes_first"] = (
        catch(lambda: t.cummax(x, 5, out=(v, t.zeros(0, dtype=t.int64)))), meta(v))
    y = t.tensor(arr(2, 3, seed=4))
    out["cummax_into_self"] = (t.cummax(y, 0, out=(y, t.zeros(0, dtype=t.int64))), y)
    z = t.tensor(arr(2, 4, seed=5))
    out["aminmax_into_self"] = (warned(lambda: t.aminmax(z, out=(z, t.zeros(0)))), meta(z))
    out["aminmax_empty"] = catch(lambda: t.aminmax(t.zeros(0, 2), out=(t.zeros(0), t.zeros(0))))
    xr = leaf(t, arr(3, 4, seed=3))
    pair = (t.zeros(0), t.zeros(0, dtype=t.int64))
    out["grad_input"] = (catch(lambda: t.cummax(xr, 0, out=pair)),
                         catch(lambda: t.aminmax(xr, out=(t.zeros(0), t.zeros(0)))))
    return out


# ======================================================================================
# autograd


@prog
def cummax_aminmax_autograd(t):
    out = {
        "cummax": grad_of(t, lambda a: a.cummax(1), (3, 4)),
        "cummin": grad_of(t, lambda a: a.cummin(0), (3, 4)),
        "cummax_neg": grad_of(t, lambda a: a.cummax(-1), (2, 5)),
        "cummin_t": grad_of(t, lambda a: a.t().cummin(1), (3, 4)),
        "cummax_0d": grad_of(t, lambda a: a.sum().cummax(0), (3,)),
        "aminmax_min": grad_of(t, lambda a: a.aminmax(), (3, 4)),
        "aminmax_dim": grad_of(t, lambda a: a.aminmax(dim=1), (3, 4)),
        "aminmax_keep": grad_of(t, lambda a: a.aminmax(dim=0, keepdim=True), (3, 4)),
    }
    ties = leaf(t, [1.0, 3.0, 3.0, 0.0, 3.0])
    ties.cummax(0).values.sum().backward()
    m = leaf(t, [[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])
    mn, mx = m.aminmax()
    (mn * 2 + mx * 3).backward()
    m2 = leaf(t, [[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])
    m2.aminmax(dim=1).max.sum().backward()  # min gets no gradient
    n = leaf(t, [1.0, float("nan"), 2.0])
    sum(n.aminmax()).backward()
    out["grads"] = (ties.grad, m.grad, m2.grad, n.grad)
    a = leaf(t, arr(2, 3, seed=4))
    r = (a * 1).aminmax(dim=-1, keepdim=True)
    out["aminmax_node"] = (saved(r.min.grad_fn), r.max.grad_fn is r.min.grad_fn,
                           r.max.grad_fn.name(), r.min.requires_grad, r.max.requires_grad,
                           [n.name() for n, _ in r.min.grad_fn.next_functions])
    r0 = (a * 1).aminmax()
    out["aminmax_node_all"] = saved(r0.max.grad_fn)
    c = (a * 1).cummax(-1)
    out["cummax_node"] = (saved(c.values.grad_fn), c.indices.grad_fn, c.indices.requires_grad)
    c.indices.zero_()
    out["indices_modified"] = catch(lambda: c.values.sum().backward())
    b = a * 1
    mm = b.aminmax()
    mm.max.mul_(2)
    out["max_modified"] = catch(lambda: mm.min.backward())
    b2 = a * 1
    c2 = b2.cummin(0)
    b2.add_(1)
    out["self_modified"] = catch(lambda: c2.values.sum().backward())
    e = leaf(t, np.zeros((0, 3), dtype=np.float32))
    ce = e.cummax(0)
    ce.values.sum().backward()
    out["empty"] = (ce.values.grad_fn.name(), e.grad)
    with t.no_grad():
        out["no_grad"] = (a.cummax(0).values.requires_grad, a.aminmax().min.grad_fn)
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_cummax_aminmax_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
