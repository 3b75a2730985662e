"""The selecting reductions on torch 2.13 and the core: kthvalue, median and nanmedian (with
and without dim). Values and indices (ties: which of equal values is picked, and a zero's
sign), NaN, dtypes, keepdim, layouts, the return types, out= (checks, resizes, warnings,
versions), grad_fn names, ``_saved_*`` fields, gradients, version errors and error texts.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, ints, leaf, meta, warned
from .reorder_helpers import grad_of, layouts, saved

pytestmark = pytest.mark.parity

prog = Registry()


def _pair(r):
    return (r.values, r.indices, r[0], r[1], type(r).__name__, meta(r.values), meta(r.indices))


def _tied(seed, *shape):
    """Small integers (many ties) with signed zeros and, in every third row, NaNs."""
    a = ints(*shape, seed=seed, low=-2, high=3)
    rng = np.random.default_rng(seed)
    a = np.where(a == 0, np.where(rng.random(a.shape) < 0.5, -0.0, 0.0), a).astype(np.float32)
    a[::3][rng.random(a[::3].shape) < 0.3] = np.nan
    return a


# ======================================================================================
# kthvalue


@prog
def kthvalue_values(t):
    x = t.tensor(arr(3, 5, seed=1))
    out = {
        "k2": _pair(x.kthvalue(2)),
        "d0": _pair(x.kthvalue(1, 0)),
        "keep": _pair(x.kthvalue(3, 1, True)),
        "kw": _pair(x.kthvalue(k=5, dim=-1, keepdim=False)),
        "module": _pair(t.kthvalue(x, 2, 0)),
        "zero_dim": _pair(t.tensor(3.0).kthvalue(1)),
        "zero_dim_keep": _pair(t.tensor(3.0).kthvalue(1, 0, True)),
        "zero_dim_bool": _pair(t.tensor(True).kthvalue(1)),
        "empty_rows": _pair(t.zeros(0, 3).kthvalue(2)),
        "empty_lines": _pair(t.zeros(3, 0).kthvalue(1, 0)),
        "repr": repr(t.tensor([2.0, 1.0]).kthvalue(1)),
    }
    out["layouts"] = layouts(t, lambda v: v.kthvalue(2, 0).values)
    out["layouts_idx"] = layouts(t, lambda v: v.kthvalue(1, -1, True).indices)
    out["dtypes"] = [t.tensor([3, -1, 2, 2, 0], dtype=d).kthvalue(3)
                     for d in (t.int8, t.int16, t.int32, t.int64, t.uint8, t.float16,
                               t.bfloat16, t.float64)]
    return out


@prog
def kthvalue_ties_nan_zeros(t):
    """Which of equal values quickselect leaves at k: its index and a zero's sign."""
    out = {}
    for seed in range(6):
        x = t.tensor(_tied(seed, 6, 23))
        out[f"seed{seed}"] = [x.kthvalue(k, 1) for k in (1, 5, 12, 20, 23)]
        out[f"seed{seed}_signs"] = [x.kthvalue(k, 1).values.reciprocal().lt(0) for k in (3, 9, 13)]
    z = t.tensor([0.0, -0.0, 0.0, -0.0, 1.0, -0.0])
    out["zeros"] = [(z.kthvalue(k), z.kthvalue(k).values.reciprocal().lt(0)) for k in range(1, 7)]
    nan = t.tensor([1.0, float("nan"), 2.0, float("nan")])
    out["nan"] = [nan.kthvalue(k) for k in range(1, 5)]
    return out


@prog
def kthvalue_errors(t):
    x = t.zeros(2, 3)
    return {
        "k0": catch(lambda: x.kthvalue(0)),
        "k_big": catch(lambda: x.kthvalue(4)),
        "k_big_d0": catch(lambda: x.kthvalue(3, 0)),
        "k_neg_dim": catch(lambda: x.kthvalue(5, -2)),
        "dim": catch(lambda: x.kthvalue(1, 2)),
        "zero_dim_k2": catch(lambda: t.tensor(1.0).kthvalue(2)),
        "zero_dim_dim": catch(lambda: t.tensor(1.0).kthvalue(1, 1)),
        "empty_dim": catch(lambda: t.zeros(0, 3).kthvalue(1, 0)),
        "bool": catch(lambda: t.tensor([True, False]).kthvalue(1)),
        "bool_empty": catch(lambda: t.zeros(2, 0, dtype=t.bool).kthvalue(1, 0)),
        "k_float": catch(lambda: x.kthvalue(1.5)),
        "k_none": catch(lambda: x.kthvalue(None)),
        "dim_float": catch(lambda: x.kthvalue(1, 0.5)),
        "keepdim_int": catch(lambda: x.kthvalue(1, keepdim=1)),
        "missing": catch(lambda: x.kthvalue()),
        "too_many": catch(lambda: x.kthvalue(1, 0, False, 1)),
        "unknown_kw": catch(lambda: x.kthvalue(1, axis=0)),
        "module_input": catch(lambda: t.kthvalue(1, 1)),
        "module_too_many": catch(lambda: t.kthvalue(x, 1, 0, False, None)),
    }


# ======================================================================================
# median / nanmedian


@prog
def median_values(t):
    x = t.tensor(arr(3, 6, seed=2))
    out = {}
    for op in ("median", "nanmedian"):
        f = lambda v, *a, op=op, **k: getattr(v, op)(*a, **k)  # noqa: E731
        out[op] = {
            "all": f(x), "all_t": f(x.t()), "all_odd": f(x[:, :5]),
            "d1": _pair(f(x, 1)), "d0": _pair(f(x, 0)), "keep": _pair(f(x, 1, True)),
            "kw": _pair(f(x, dim=-2, keepdim=True)),
            "module": (getattr(t, op)(x), _pair(getattr(t, op)(x, 0))),
            "zero_dim": (f(t.tensor(3.0)), _pair(f(t.tensor(3.0), 0))),
            "empty": [f(t.zeros(0, dtype=d)) for d in (t.float32, t.int64, t.int32, t.int16,
                                                        t.int8, t.uint8, t.bool)],
            "empty_rows": _pair(f(t.zeros(0, 3), 1)),
            "layouts": layouts(t, lambda v, f=f: f(v, 0).values),
            "layouts_all": layouts(t, lambda v, f=f: f(v)),
            "dtypes": [(f(t.tensor([3, -1, 2, 2, 0, 7], dtype=d)),
                        f(t.tensor([[3, -1, 2], [2, 0, 7]], dtype=d), 1))
                       for d in (t.int8, t.int16, t.int32, t.int64, t.uint8, t.float16,
                                 t.bfloat16, t.float64)],
            "repr": repr(f(t.tensor([2.0, 1.0]), 0)),
        }
    return out


@prog
def median_ties_nan_zeros(t):
    out = {}
    for seed in range(6):
        x = t.tensor(_tied(seed + 10, 6, 21))
        for op in ("median", "nanmedian"):
            out[f"{op}{seed}"] = (getattr(x, op)(1), getattr(x, op)(0, True),
                                  getattr(x, op)(), getattr(x, op)().reciprocal().lt(0),
                                  getattr(x[1:3], op)(), getattr(x[1:3], op)().reciprocal().lt(0))
    nan = t.tensor([[1.0, float("nan"), 2.0, float("nan")], [float("nan")] * 4])
    out["nan"] = [(getattr(nan, op)(1), getattr(nan, op)(), getattr(nan[0], op)())
                  for op in ("median", "nanmedian")]
    out["all_nan_long"] = t.tensor([float("nan")] * 40).nanmedian(0)
    z = t.tensor([0.0, -0.0, -0.0, 0.0, 1.0, -0.0, 0.0, -1.0, -0.0] * 3)
    out["zeros"] = [(getattr(z, op)(), getattr(z, op)().reciprocal().lt(0), getattr(z, op)(0))
                    for op in ("median", "nanmedian")]
    return out


@prog
def median_errors(t):
    x = t.zeros(2, 3)
    out = {}
    for op in ("median", "nanmedian"):
        f = getattr(x, op)
        out[op] = {
            "dim": catch(lambda f=f: f(2)),
            "zero_dim_dim": catch(lambda op=op: getattr(t.tensor(1.0), op)(1)),
            "empty_dim": catch(lambda op=op: getattr(t.zeros(0, 3), op)(0)),
            "bool": catch(lambda op=op: getattr(t.tensor([True, False]), op)()),
            "bool_dim": catch(lambda op=op: getattr(t.tensor([True, False]), op)(0)),
            "bool_empty_dim": catch(lambda op=op: getattr(t.zeros(0, 2, dtype=t.bool), op)(1)),
            "none": catch(lambda f=f: f(None)),
            "dim_none_kw": catch(lambda f=f: f(dim=None)),
            "float": catch(lambda f=f: f(1.0)),
            "tuple_kw": catch(lambda f=f: f(dim=(0, 1))),
            "keepdim_int": catch(lambda f=f: f(0, 1)),
            "keepdim_only": catch(lambda f=f: f(keepdim=True)),
            "too_many": catch(lambda f=f: f(0, True, 1)),
            "module_none": catch(lambda op=op: getattr(t, op)(x, None)),
            "module_too_many": catch(lambda op=op: getattr(t, op)(x, 0, False, None)),
        }
    return out


# ======================================================================================
# mode


@prog
def mode_values_ties_nan(t):
    x = t.tensor(arr(3, 5, seed=6))
    out = {
        "default": _pair(x.mode()), "d0": _pair(x.mode(0)), "keep": _pair(x.mode(1, True)),
        "kw": _pair(x.mode(dim=-2, keepdim=True)), "module": _pair(t.mode(x, 0)),
        "zero_dim": _pair(t.tensor(3.0).mode()),
        "zero_dim_keep": _pair(t.tensor(3.0).mode(0, True)),
        "empty_rows": _pair(t.zeros(0, 3).mode(1)),
        "empty_keep": _pair(t.zeros(0, 3).mode(1, True)),
        "layouts": layouts(t, lambda v: v.mode(0).values),
        "layouts_idx": layouts(t, lambda v: v.mode(-1, True).indices),
        "dtypes": [t.tensor([[3, -1, 2, 2, 0, 3], [1, 1, 0, 0, 5, 5]], dtype=d).mode()
                   for d in (t.int8, t.uint8, t.int16, t.int32, t.int64, t.float16, t.bfloat16,
                             t.float64, t.bool)],
        "repr": repr(t.tensor([2.0, 1.0]).mode()),
    }
    for seed in range(4):  # short lines (insertion sort) and long ones (introsort), NaN rows
        v = t.tensor(_tied(seed + 20, 6, 9 + 30 * seed))
        out[f"tied{seed}"] = (v.mode(1), v.mode(1).values.reciprocal().lt(0), v.mode(0))
    nan = t.tensor([[1.0, float("nan"), 1.0, float("nan")], [float("nan")] * 4])
    out["nan"] = nan.mode()
    return out


@prog
def mode_errors_out_autograd(t):
    x = t.tensor(arr(3, 4, seed=7))
    out = {
        "dim": catch(lambda: x.mode(2)), "scalar_dim": catch(lambda: t.tensor(1.0).mode(1)),
        "empty_dim": catch(lambda: t.zeros(0, 3).mode(0)),
        "float": catch(lambda: x.mode(1.0)), "none_kw": catch(lambda: x.mode(dim=None)),
        "keepdim_int": catch(lambda: x.mode(0, 1)),
        "too_many": catch(lambda: x.mode(0, True, 1)),
    }
    for name, o in (("ok", _outs(t)), ("big", _outs(t, n=5)), ("v_double", _outs(t, t.float64)),
                    ("i_float", _outs(t, None, t.float32)),
                    ("both", _outs(t, t.float64, t.float32))):
        out["out_" + name] = (warned(lambda o=o: t.mode(x, 1, out=o)), meta(o[0]), meta(o[1]))
    o = _outs(t, n=2)
    out["out_keep"] = (warned(lambda: t.mode(x, 0, True, out=o)), meta(o[0]))
    o = _outs(t, n=2)
    out["out_scalar"] = (warned(lambda: t.mode(t.tensor(2.0), out=o)), meta(o[0]))
    o = _outs(t, n=2)
    out["out_empty"] = (warned(lambda: t.mode(t.zeros(0, 3), 1, out=o)), meta(o[0]))
    out["out_tensor"] = catch(lambda: t.mode(x, out=t.zeros(0)))
    out["out_grad"] = catch(lambda: t.mode(leaf(t, arr(2, seed=1)), out=_outs(t)))
    out["autograd"] = (grad_of(t, lambda a: a.mode(1), (3, 4)),
                       grad_of(t, lambda a: a.mode(0, True), (3, 4)),
                       grad_of(t, lambda a: a.sum().mode(), (3,)))
    a = leaf(t, [[1.0, 2.0, 1.0], [3.0, 3.0, 0.0]])
    r = (a * 1).mode()
    r.values.sum().backward()
    out["ties_grad"] = a.grad
    r = (a * 1).mode()
    r.indices.add_(0)
    out["indices_modified"] = catch(lambda: r.values.sum().backward())
    return out


# ======================================================================================
# out=


def _outs(t, v_dtype=None, i_dtype=None, n=0):
    return (t.zeros(n, dtype=v_dtype or t.float32), t.zeros(n, dtype=i_dtype or t.int64))


@prog
def selection_out(t):
    x = t.tensor(arr(3, 4, seed=3))
    out = {}
    calls = {
        "kthvalue": lambda o, **k: t.kthvalue(x, 2, 1, out=o, **k),
        "kthvalue_keep": lambda o: t.kthvalue(x, 2, 0, True, out=o),
        "median": lambda o: t.median(x, 1, out=o),
        "median_keep": lambda o: t.median(x, 0, keepdim=True, out=o),
        "nanmedian": lambda o: t.nanmedian(x, -1, out=o),
    }
    for name, call in calls.items():
        o = _outs(t)
        r = call(o)
        out[name] = (r, type(r).__name__, r[0] is o[0], r.indices is o[1], o[0]._version,
                     meta(o[0]), meta(o[1]))
        big = _outs(t, n=5)
        out[name + "_resized"] = warned(lambda call=call, big=big: call(big)), meta(big[0])
        strided = (t.zeros(3, 2).t()[0], t.zeros(3, 2, dtype=t.int64).t()[0])
        out[name + "_strided"] = (catch(lambda call=call, s=strided: call(s)), meta(strided[0]))
        out[name + "_list"] = catch(lambda call=call: call(list(_outs(t))))
        for bad, o in (("v_double", _outs(t, t.float64)), ("i_float", _outs(t, None, t.float32)),
                       ("both", _outs(t, t.float64, t.float32)),
                       ("v_bool", _outs(t, t.bool)), ("i_int32", _outs(t, None, t.int32))):
            out[f"{name}_{bad}"] = (catch(lambda call=call, o=o: call(o)), meta(o[0]),
                                    meta(o[1]))
        out[name + "_tensor"] = catch(lambda call=call: call(t.zeros(0)))
        out[name + "_one"] = catch(lambda call=call: call((t.zeros(0),)))
        out[name + "_three"] = catch(lambda call=call: call((t.zeros(0), t.zeros(0), 1)))
        out[name + "_int"] = catch(lambda call=call: call((t.zeros(0), 1)))
        out[name + "_grad_out"] = catch(lambda call=call: call(
            (t.zeros(0, requires_grad=True), t.zeros(0, dtype=t.int64))))
    xr = leaf(t, arr(3, 4, seed=3))
    out["grad_input"] = (catch(lambda: t.kthvalue(xr, 1, out=_outs(t))),
                         catch(lambda: t.median(xr, 0, out=_outs(t))))
    out["median_all_out"] = catch(lambda: t.median(x, out=_outs(t)))
    out["median_all_out_tensor"] = catch(lambda: t.median(x, out=t.zeros(0)))
    out["kthvalue_self"] = catch(lambda: t.kthvalue(x, 1, 0, out=(x, t.zeros(0, dtype=t.int64))))
    y = t.tensor(arr(3, 4, seed=3))
    out["median_into_self"] = (t.median(y, 0, out=(y[0], t.zeros(0, dtype=t.int64))), y)
    z = t.zeros(0, dtype=t.int64)
    out["kthvalue_i_left"] = (catch(lambda: t.kthvalue(x, 1, out=(t.zeros(7), z))), meta(z))
    return out


# ======================================================================================
# autograd


@prog
def selection_autograd(t):
    out = {
        "kthvalue": grad_of(t, lambda a: a.kthvalue(2, 1), (3, 4)),
        "kthvalue_keep": grad_of(t, lambda a: a.kthvalue(3, 0, True), (3, 4)),
        "kthvalue_neg": grad_of(t, lambda a: a.kthvalue(1, -2), (3, 4)),
        "kthvalue_t": grad_of(t, lambda a: a.t().kthvalue(2), (3, 4)),
        "kthvalue_0d": grad_of(t, lambda a: a.sum().kthvalue(1), (3,)),
        "median": grad_of(t, lambda a: a.median(), (3, 4)),
        "median_dim": grad_of(t, lambda a: a.median(1), (3, 4)),
        "median_keep": grad_of(t, lambda a: a.median(-1, True), (3, 4)),
        "nanmedian": grad_of(t, lambda a: a.nanmedian(), (3, 4)),
        "nanmedian_dim": grad_of(t, lambda a: a.nanmedian(0), (3, 4)),
        "median_0d": grad_of(t, lambda a: a.sum().median(), (3,)),
    }
    ties = leaf(t, [1.0, 2.0, 2.0, 1.0, 3.0])
    ties.median().backward()
    nan = leaf(t, [1.0, float("nan"), 2.0, float("nan")])
    nan.median().backward()
    nan2 = leaf(t, [1.0, float("nan"), 2.0, float("nan")])
    nan2.nanmedian().backward()
    zero = leaf(t, [0.0, -0.0, 1.0])
    zero.median().backward()
    out["evenly"] = (ties.grad, nan.grad, nan2.grad, zero.grad)
    a = leaf(t, arr(2, 3, seed=4))
    r = (a * 1).kthvalue(2, 1)
    out["fields"] = (saved(r.values.grad_fn), r.indices.grad_fn, r.indices.requires_grad,
                     r.values.grad_fn.next_functions[0][0].name())
    r.indices.zero_()  # the node saved these indices: backward sees the version change
    out["indices_modified"] = catch(lambda: r.values.sum().backward())
    b = a * 1
    m = b.median()
    b.add_(1)
    out["self_modified"] = catch(lambda: m.backward())
    m2 = (a * 1).median()
    m2.mul_(2)
    out["result_modified"] = catch(lambda: m2.backward())
    c = leaf(t, ints(2, 3, seed=5))
    with t.no_grad():
        out["no_grad"] = c.median(1).values.requires_grad, c.median().grad_fn
    out["long"] = t.tensor([3, 1, 2]).median().requires_grad
    return out


@prog
def max_min_all_evenly_distribute(t):
    """The whole-tensor max()/min() share the gradient as median() does: among ties, or among
    the NaNs when the result is NaN (amax/amin give NaN everywhere there)."""
    out = {}
    for name, data in (("nan", [1.0, float("nan"), 2.0, float("nan")]), ("ties", [1.0, 3.0, 3.0]),
                       ("zeros", [0.0, -0.0, -1.0])):
        for op in ("max", "min", "amax", "amin"):
            a = leaf(t, data)
            getattr(a, op)().backward()
            out[f"{op}_{name}"] = a.grad
    b = leaf(t, [[1.0, float("nan")], [float("nan"), 0.0]])
    b.t().max().backward()
    out["strided"] = b.grad
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_selection_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
