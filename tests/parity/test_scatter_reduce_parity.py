"""scatter_reduce(_) on torch 2.13 and the core: every reduce with and without include_self,
values, gradients (ties in amax/amin share the gradient evenly; prod with zeros), grad_fn
names, saved tensors and their version checks, integer/bool/half dtypes, out=, argument
errors word for word.
"""

import warnings

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, meta, upstream

pytestmark = pytest.mark.parity

prog = Registry()
REDUCES = ("sum", "prod", "mean", "amax", "amin")


def saved_values(fn):
    return None if fn is None else {n: getattr(fn, n) for n in sorted(dir(fn))
                                    if n.startswith("_saved_")}


def dense(t, a):
    return None if a.grad is None else t.zeros_like(a) + a.grad


def backward_error(t, y):
    return catch(lambda: y.backward(upstream(t, y)))


def warned(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = catch(fn)
    return out, [str(w.message).split(" (Triggered internally")[0] for w in caught]


def _one(t, reduce, include_self, dim, seed):
    a = leaf(t, arr(3, 4, seed=seed))
    s = leaf(t, arr(2, 4, seed=seed + 1) if dim == 0 else arr(3, 3, seed=seed + 1))
    idx = t.tensor([[0, 2, 2, 0], [2, 2, 1, 0]]) if dim == 0 else \
        t.tensor([[3, 3, 0], [1, 1, 1], [0, 2, 0]])
    y = a.scatter_reduce(dim, idx, s, reduce, include_self=include_self)
    obs = {"y": y, "fn": fn_name(y.grad_fn), "saved": saved_values(y.grad_fn),
           "next": [fn_name(f) for f, _ in y.grad_fn.next_functions]}
    y.backward(upstream(t, y))
    return {**obs, "ga": dense(t, a), "gs": dense(t, s)}


def _make_reduce_program(reduce):
    def program(t):
        return {f"{inc}-{dim}": _one(t, reduce, inc, dim, seed)
                for seed, (inc, dim) in enumerate([(True, 0), (False, 0), (True, 1),
                                                   (False, -1)])}
    program.__name__ = f"scatter_reduce_{reduce}_values_grads_and_node"
    return prog(program)


for _r in REDUCES:
    _make_reduce_program(_r)


@prog
def scatter_reduce_inplace_records_and_saves(t):
    out = {}
    for reduce in REDUCES:
        a = leaf(t, arr(3, 4, seed=1))
        s = leaf(t, arr(2, 4, seed=2))
        idx = t.tensor([[0, 1, 2, 0], [2, 2, 1, 0]])
        h = a * 1
        r = h.scatter_reduce_(0, idx, s, reduce, include_self=reduce != "prod")
        obs = {"h": h * 1, "same": r is h, "version": h._version, "fn": fn_name(h.grad_fn),
               "saved": saved_values(h.grad_fn),
               "next": [fn_name(f) for f, _ in h.grad_fn.next_functions]}
        (h * h).sum().backward()
        out[reduce] = {**obs, "ga": dense(t, a), "gs": dense(t, s)}
    return out


@prog
def scatter_reduce_saved_tensors_are_version_checked(t):
    s = leaf(t, arr(1, 3, seed=2))
    a = leaf(t, arr(2, 3, seed=1))
    i = t.tensor([[0, 1, 1]])
    y = a.scatter_reduce(0, i, s, "sum")
    i.add_(0)
    index_err = backward_error(t, y)
    s2 = s * 1
    y2 = a.scatter_reduce(0, t.tensor([[0, 1, 1]]), s2, "amax")
    s2.mul_(2)
    src_err = backward_error(t, y2)
    h = a * 1
    y3 = h.scatter_reduce(0, t.tensor([[0, 1, 1]]), s, "prod")
    h.add_(1)
    self_err = backward_error(t, y3)
    g = a * 1
    g.scatter_reduce_(0, t.tensor([[1, 0, 0]]), s, "mean")
    g.mul_(2)
    result_err = backward_error(t, g)
    y4 = a.scatter_reduce(0, t.tensor([[1, 0, 0]]), s, "amin")
    y4.add_(1)
    out_err = backward_error(t, y4)
    return {"index": index_err, "src": src_err, "self": self_err, "result": result_err,
            "out": out_err}


@prog
def scatter_reduce_ties_share_the_gradient(t):
    a = leaf(t, np.array([7.0, 2.0, 3.0, 4.0], np.float32))
    s = leaf(t, np.array([7.0, 6.0, 7.0, 2.0], np.float32))
    i = t.tensor([0, 1, 0, 1])
    out = {}
    for reduce in ("amax", "amin"):
        for inc in (True, False):
            a.grad = s.grad = None
            y = a.scatter_reduce(0, i, s, reduce, include_self=inc)
            y.backward(t.tensor([1.0, 2.0, 3.0, 4.0]))
            out[f"{reduce}-{inc}"] = (y, dense(t, a), dense(t, s))
    return out


@prog
def scatter_reduce_prod_with_zeros(t):
    out = {}
    cases = {"one_zero": [0.0, 2.0, 3.0, 5.0], "two_zeros": [0.0, 2.0, 0.0, 5.0],
             "none": [1.5, 2.0, 3.0, 5.0]}
    for name, src in cases.items():
        for self_vals in ([2.0, 3.0, 4.0], [0.0, 3.0, 4.0]):
            for inc in (True, False):
                a = leaf(t, np.array(self_vals, np.float32))
                s = leaf(t, np.array(src, np.float32))
                y = a.scatter_reduce(0, t.tensor([0, 1, 0, 1]), s, "prod", include_self=inc)
                y.backward(t.tensor([1.0, -2.0, 0.5]))
                out[f"{name}-{self_vals[0]}-{inc}"] = (y, dense(t, a), dense(t, s))
    return out


@prog
def scatter_reduce_integer_and_bool_dtypes(t):
    i = t.tensor([0, 1, 0, 1, 3])
    out = {}
    for dt in ("int64", "int32", "int16", "int8", "uint8"):
        x = t.tensor([5, -7, 3, 2], dtype=getattr(t, dt)) if dt != "uint8" else \
            t.tensor([5, 7, 3, 2], dtype=t.uint8)
        s = t.tensor([100, 100, 2, -3, 9], dtype=getattr(t, dt)) if dt != "uint8" else \
            t.tensor([200, 100, 2, 3, 9], dtype=t.uint8)
        for reduce in REDUCES:
            for inc in (True, False):
                out[f"{dt}-{reduce}-{inc}"] = x.scatter_reduce(0, i, s, reduce,
                                                               include_self=inc)
    b = t.tensor([True, False, False, True])
    bs = t.tensor([False, True, False, True, True])
    for reduce in ("sum", "prod", "amax", "amin"):
        for inc in (True, False):
            out[f"bool-{reduce}-{inc}"] = b.scatter_reduce(0, i, bs, reduce, include_self=inc)
    out["bool_mean"] = catch(lambda: b.scatter_reduce(0, i, bs, "mean"))
    out["bool_mean_empty"] = catch(lambda: b.scatter_reduce(0, t.zeros(0, dtype=t.int64), bs,
                                                            "mean"))
    out["bool_mean_oob"] = catch(lambda: b.scatter_reduce(0, t.tensor([9]), bs, "mean"))
    out["bool_mean_oob_exclude"] = catch(lambda: b.scatter_reduce(0, t.tensor([9]), bs, "mean",
                                                                  include_self=False))
    out["long_requires_no_grad"] = t.tensor([1, 2]).scatter_reduce(
        0, t.tensor([0]), t.tensor([4]), "sum").requires_grad
    return out


@prog
def scatter_reduce_float_specials_and_small_floats(t):
    x = t.tensor([1.0, float("nan"), 3.0, -float("inf")])
    s = t.tensor([float("nan"), 2.0, float("inf"), 5.0])
    i = t.tensor([0, 1, 2, 3])
    out = {f"{r}-{inc}": x.scatter_reduce(0, i, s, r, include_self=inc)
           for r in REDUCES for inc in (True, False)}
    h = t.tensor(arr(3, 4, seed=3))
    hs = t.tensor(arr(3, 4, seed=4))
    hi = t.tensor([[0, 1, 2, 0], [0, 0, 1, 2], [1, 1, 1, 1]])
    for dt in ("float16", "bfloat16", "float64"):
        for r in REDUCES:
            out[f"{dt}-{r}"] = h.to(getattr(t, dt)).scatter_reduce(
                1, hi, hs.to(getattr(t, dt)), r, include_self=r != "sum")
    out["empty_exclude"] = x.scatter_reduce(0, t.tensor([0]), s, "amax", include_self=False)
    return out


@prog
def scatter_reduce_half_accumulates_in_float32(t):
    """float16/bfloat16: PyTorch's CPU kernel combines in float32 and rounds once (a mean then
    divides in 16 bits); a cell hit 30 times shows it. Values as Python floats: the
    comparison's 1e-5 tolerance is far below one unit in the last place of a half."""
    rng = np.random.default_rng(5)
    x = rng.uniform(-2, 2, (4, 6)).astype(np.float32)
    s = rng.uniform(-2, 2, (60, 6)).astype(np.float32)
    i = rng.integers(0, 4, (60, 6))
    rows = np.broadcast_to(rng.integers(0, 4, (60, 1)), (60, 6)).copy()
    out = {}
    for dt in ("float16", "bfloat16"):
        h, hs = t.tensor(x).to(getattr(t, dt)), t.tensor(s).to(getattr(t, dt))
        for r in REDUCES:
            for inc in (True, False):
                out[f"{dt}-{r}-{inc}"] = h.scatter_reduce(0, t.tensor(i), hs, r,
                                                          include_self=inc).float().tolist()
            out[f"{dt}-{r}-rows"] = h.scatter_reduce(0, t.tensor(rows), hs, r).float().tolist()
    return out


@prog
def scatter_family_half_accumulates_in_float32(t):
    """scatter_add, scatter_(reduce=), index_add and the backward of gather/index_select on
    float16/bfloat16 sum in float32 too (values as Python floats, see above)."""
    rng = np.random.default_rng(6)
    x = rng.uniform(-2, 2, (4, 6)).astype(np.float32)
    s = rng.uniform(-2, 2, (60, 6)).astype(np.float32)
    i = t.tensor(rng.integers(0, 4, (60, 6)))
    rows = t.tensor(rng.integers(0, 4, 60))
    out = {}
    for dt in ("float16", "bfloat16"):
        h, hs = t.tensor(x).to(getattr(t, dt)), t.tensor(s).to(getattr(t, dt))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # scatter_(reduce=) warns once per process
            out[f"{dt}-scatter_add"] = h.scatter_add(0, i, hs).float().tolist()
            out[f"{dt}-reduce_add"] = h.clone().scatter_(0, i, hs, reduce="add").float().tolist()
            out[f"{dt}-reduce_mul"] = h.clone().scatter_(0, i, hs,
                                                         reduce="multiply").float().tolist()
        out[f"{dt}-index_add"] = h.index_add(0, rows, hs).float().tolist()
        g = hs.detach().requires_grad_()
        g.gather(1, t.zeros(60, 9, dtype=t.int64)).backward(t.ones(60, 9, dtype=g.dtype) / 3)
        out[f"{dt}-gather_grad"] = g.grad.float().tolist()
        g.grad = None
        g.index_select(0, rows).backward(t.ones(60, 6, dtype=g.dtype) / 3)
        out[f"{dt}-index_select_grad"] = g.grad.float().tolist()
    return out


@prog
def scatter_reduce_shapes_views_and_aliases(t):
    x = t.tensor(arr(3, 4, seed=1))
    s = t.tensor(arr(4, 5, seed=2))
    i = t.tensor([[0, 2], [1, 1]])
    a = leaf(t, arr(3, 4, seed=5))
    big = leaf(t, arr(4, 5, seed=6))
    y = a.scatter_reduce(1, i, big, "mean")
    y_err = backward_error(t, y)  # the gradient of src has the index's shape
    a2 = leaf(t, arr(3, 4, seed=5))
    y2 = a2.scatter_reduce(1, i, big[:2, :2], "mean")
    y2.backward(upstream(t, y2))
    v = t.tensor(arr(3, 4, seed=7))
    n = t.tensor(arr(3, 4, seed=8)).narrow(1, 2, 1)
    return {
        "src_bigger": x.scatter_reduce(0, i, s, "prod"), "y": y, "y_err": y_err,
        "y2": y2, "ga": dense(t, a2), "gbig": dense(t, big),
        "t": (x.t().scatter_reduce(0, i, s, "sum"), meta(x.t().scatter_reduce(0, i, s, "sum"))),
        "t_inplace": (v.t().scatter_reduce_(1, i, s.t(), "amax"), v, v._version),
        "int_index": x.scatter_reduce(1, i.int(), s, "amin"),
        "zero_dim": t.tensor(3.0).scatter_reduce(0, t.tensor(0), t.tensor(2.0), "prod"),
        "zero_dim_many": t.tensor(3.0).scatter_reduce(0, t.tensor([0, 0]), t.tensor([2.0, 5.0]),
                                                      "mean", include_self=False),
        "empty_index": x.scatter_reduce(0, t.zeros(0, dtype=t.int64), s, "mean"),
        "empty_index_2d": x.scatter_reduce(0, t.zeros(2, 0, dtype=t.int64), s, "prod",
                                           include_self=False),
        "narrow_alias": n.scatter_reduce_(0, t.tensor([[2], [0], [2]]), n.expand(3, 1), "prod"),
        "kw": x.scatter_reduce(dim=0, index=i, src=s, reduce="sum", include_self=False),
        "fn": t.scatter_reduce(x, 0, i, s, "amax"),
        "fn_kw": t.scatter_reduce(input=x, dim=0, index=i, src=s, reduce="amin",
                                  include_self=False),
    }


@prog
def scatter_reduce_old_spellings_max_and_min(t):
    a = leaf(t, arr(4, seed=1))
    s = leaf(t, arr(3, seed=2))
    i = t.tensor([0, 1, 0])
    y = a.scatter_reduce(0, i, s, "max")
    return {"max": y, "min": a.scatter_reduce(0, i, s, "min", include_self=False),
            "saved": y.grad_fn._saved_reduce, "bw": backward_error(t, y)}


@prog
def scatter_reduce_out(t):
    x = t.tensor(arr(4, seed=1))
    s = t.tensor(arr(3, seed=2))
    i = t.tensor([0, 1, 0])
    o = t.empty(4)
    r = t.scatter_reduce(x, 0, i, s, "sum", out=o)
    small = t.zeros(2)
    empty = t.zeros(0)
    grow, warns = warned(lambda: t.scatter_reduce(x, 0, i, s, "prod", out=small))
    xs = x.clone()
    same = t.scatter_reduce(xs, 0, i, s, "amax", out=xs)
    return {
        "o": o, "same_object": r is o, "version": o._version, "grow": grow, "warns": warns,
        "empty": t.scatter_reduce(x, 0, i, s, "mean", out=empty), "self_out": (same, xs._version),
        "dtype": catch(lambda: t.scatter_reduce(x, 0, i, s, "sum", out=t.empty(4,
                                                                              dtype=t.float64))),
        "out_is_index": catch(lambda: t.scatter_reduce(x, 0, i, s, "sum", out=i)),
        "out_is_src": catch(lambda: t.scatter_reduce(x, 0, i, s, "sum", out=s)),
        "src_unchanged": s,
        "bad_reduce": catch(lambda: t.scatter_reduce(x, 0, i, s, "foo", out=t.empty(4))),
        "out_type": catch(lambda: t.scatter_reduce(x, 0, i, s, "sum", out=3)),
        "grad": catch(lambda: t.scatter_reduce(leaf(t, arr(4, seed=1)), 0, i, s, "sum",
                                               out=t.empty(4))),
        "method_out": catch(lambda: x.scatter_reduce(0, i, s, "sum", out=t.empty(4))),
    }


@prog
def scatter_reduce_errors(t):
    x = t.tensor(arr(4, seed=1))
    s = t.tensor(arr(3, seed=2))
    i = t.tensor([0, 1, 0])
    m = t.tensor(arr(2, 3, seed=3))
    return {
        "reduce": catch(lambda: x.scatter_reduce(0, i, s, "foo")),
        "reduce_add": catch(lambda: x.clone().scatter_reduce_(0, i, s, "add")),
        "reduce_case": catch(lambda: x.scatter_reduce(0, i, s, "Sum")),
        "dtype": catch(lambda: x.scatter_reduce(0, i, s.double(), "sum")),
        "index_dtype": catch(lambda: x.scatter_reduce(0, i.float(), s, "sum")),
        "index_dtype_first": catch(lambda: x.scatter_reduce(0, i.float(), s, "foo")),
        "dim": catch(lambda: x.scatter_reduce(5, i, s, "foo")),
        "oob": catch(lambda: x.scatter_reduce(0, t.tensor([9]), s, "sum")),
        "neg": catch(lambda: x.scatter_reduce(0, t.tensor([-1]), s, "sum")),
        "oob_before_reduce": catch(lambda: x.scatter_reduce(0, t.tensor([9]), s, "foo")),
        "oob_inplace_exclude": catch(lambda: x.clone().scatter_reduce_(0, t.tensor([9]), s, "sum",
                                                                       include_self=False)),
        "ndim_index": catch(lambda: x.scatter_reduce(0, i[None], s, "sum")),
        "ndim_src": catch(lambda: x.scatter_reduce(0, i, s[None], "sum")),
        "index_big": catch(lambda: x.scatter_reduce(0, t.tensor([0, 1, 0, 1, 2]), s, "sum")),
        "index_wide": catch(lambda: m.scatter_reduce(0, t.zeros(1, 4, dtype=t.int64),
                                                     t.ones(3, 3), "sum")),
        "src_small": catch(lambda: m.scatter_reduce(0, t.zeros(2, 2, dtype=t.int64),
                                                    t.ones(1, 3), "sum")),
        "expanded": catch(lambda: x.expand(2, 4).scatter_reduce_(1, t.tensor([[1]]), s[None],
                                                                 "sum")),
        "overlap": catch(lambda: x.clone().scatter_reduce_(0, i, x, "sum")),
        "same": catch(lambda: s.scatter_reduce_(0, i, s, "sum")),
        "leaf": catch(lambda: leaf(t, arr(4, seed=1)).scatter_reduce_(0, i, s, "sum")),
        "unchanged": x,
        "src_number": catch(lambda: x.scatter_reduce(0, i, 1.0, "sum")),
        "missing": catch(lambda: x.scatter_reduce(0, i, s)),
        "missing_two": catch(lambda: x.scatter_reduce(0, i)),
        "missing_all": catch(lambda: x.scatter_reduce()),
        "reduce_int": catch(lambda: x.scatter_reduce(0, i, s, 3)),
        "reduce_none": catch(lambda: x.scatter_reduce(0, i, s, None)),
        "too_many": catch(lambda: x.scatter_reduce(0, i, s, "sum", True)),
        "include_self_int": catch(lambda: x.scatter_reduce(0, i, s, "sum", include_self=1)),
        "include_self_none": catch(lambda: x.scatter_reduce_(0, i, s, "sum", include_self=None)),
        "dim_float": catch(lambda: x.scatter_reduce(0.0, i, s, "sum")),
        "dim_str_kw": catch(lambda: x.scatter_reduce(dim="a", index=i, src=s, reduce="sum")),
        "index_list": catch(lambda: x.scatter_reduce(0, [0], s, "sum")),
        "src_str": catch(lambda: x.scatter_reduce(0, i, "a", 3)),
        "twice": catch(lambda: x.scatter_reduce(0, i, s, "sum", reduce="sum")),
        "unknown_kw": catch(lambda: x.scatter_reduce(0, i, s, "sum", foo=1)),
        "fn_missing": catch(lambda: t.scatter_reduce(x, 0, i)),
        "fn_dim": catch(lambda: t.scatter_reduce(x, "a", i, s, "sum")),
        "fn_reduce": catch(lambda: t.scatter_reduce(x, 0, i, s, 3)),
        "fn_input": catch(lambda: t.scatter_reduce(3, 0, i, s, "sum")),
        "fn_too_many": catch(lambda: t.scatter_reduce(x, 0, i, s, "sum", False)),
        "tensor_dim": x.scatter_reduce(t.tensor(0), i, s, "sum"),
    }


@pytest.mark.parametrize("prog", prog.params())
def test_scatter_reduce_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
