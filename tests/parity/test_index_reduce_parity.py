"""index_reduce(_) on torch 2.13 and the core: prod, mean, amax, amin with and without
include_self, values, gradients (ties share the gradient; prod with zeros), grad_fn names,
saved tensors and their version checks, integer/bool/half dtypes, out=, argument errors word
for word. (PyTorch's "index_reduce() is in beta" warning comes once per process, so whether a
program sees it depends on what ran before: it is checked in fresh processes,
test_index_reduce_warns_once.)
"""

import warnings

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, meta, upstream
from .warn_once import run_sequence

pytestmark = [pytest.mark.parity,
              pytest.mark.filterwarnings("ignore:index_reduce\\(\\) is in beta")]

prog = Registry()
REDUCES = ("prod", "mean", "amax", "amin")


def saved_values(fn):
    return None if fn is None else {n: getattr(fn, n) for n in sorted(dir(fn))
                                    if n.startswith("_saved_")}


def dense(t, a):
    return None if a.grad is None else t.zeros_like(a) + a.grad


def backward_error(t, y):
    return catch(lambda: y.backward(upstream(t, y)))


def quiet(fn):
    """fn(), with the beta warning (once per process) left out of the observation."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "index_reduce")
        return catch(fn)


def _one(t, reduce, include_self, dim, seed):
    a = leaf(t, arr(3, 4, seed=seed))
    s = leaf(t, arr(5, 4, seed=seed + 1) if dim == 0 else arr(3, 5, seed=seed + 1))
    idx = t.tensor([0, 2, 2, 0, 2]) if dim == 0 else t.tensor([3, 3, 0, 1, 3])
    y = a.index_reduce(dim, idx, s, reduce, include_self=include_self)
    obs = {"y": y, "fn": fn_name(y.grad_fn), "saved": saved_values(y.grad_fn),
           "next": [fn_name(f) for f, _ in y.grad_fn.next_functions]}
    y.backward(upstream(t, y))
    return {**obs, "ga": dense(t, a), "gs": dense(t, s)}


def _make_reduce_program(reduce):
    def program(t):
        return {f"{inc}-{dim}": quiet(lambda inc=inc, dim=dim, seed=seed: _one(
            t, reduce, inc, dim, seed))
                for seed, (inc, dim) in enumerate([(True, 0), (False, 0), (True, 1),
                                                   (False, -1)])}
    program.__name__ = f"index_reduce_{reduce}_values_grads_and_node"
    return prog(program)


for _r in REDUCES:
    _make_reduce_program(_r)


@prog
def index_reduce_inplace_records_and_saves(t):
    out = {}
    for reduce in REDUCES:
        a = leaf(t, arr(3, 4, seed=1))
        s = leaf(t, arr(4, 4, seed=2))
        idx = t.tensor([0, 2, 0, 1])
        h = a * 1
        r = quiet(lambda h=h, s=s, idx=idx, reduce=reduce: h.index_reduce_(
            0, idx, s, reduce, include_self=reduce != "prod"))
        obs = {"h": h * 1, "same": r is h, "version": h._version, "fn": fn_name(h.grad_fn),
               "saved": saved_values(h.grad_fn),
               "next": [fn_name(f) for f, _ in h.grad_fn.next_functions]}
        (h * h).sum().backward()
        out[reduce] = {**obs, "ga": dense(t, a), "gs": dense(t, s)}
    return out


@prog
def index_reduce_saved_tensors_are_version_checked(t):
    def run():
        s = leaf(t, arr(3, 3, seed=2))
        a = leaf(t, arr(2, 3, seed=1))
        i = t.tensor([0, 1, 1])
        y = a.index_reduce(0, i, s, "mean")
        i.add_(0)
        index_err = backward_error(t, y)
        s2 = s * 1
        y2 = a.index_reduce(0, t.tensor([0, 1, 1]), s2, "amax")
        s2.mul_(2)
        src_err = backward_error(t, y2)
        h = a * 1
        y3 = h.index_reduce(0, t.tensor([0, 1, 1]), s, "prod")
        h.add_(1)
        self_err = backward_error(t, y3)
        g = a * 1
        g.index_reduce_(0, t.tensor([1, 0, 0]), s, "mean")
        g.mul_(2)
        return {"index": index_err, "source": src_err, "self": self_err,
                "result": backward_error(t, g)}
    return quiet(run)


@prog
def index_reduce_ties_and_zeros(t):
    def run():
        out = {}
        a = leaf(t, np.array([7.0, 2.0, 3.0], np.float32))
        s = leaf(t, np.array([7.0, 6.0, 7.0, 2.0], np.float32))
        i = t.tensor([0, 1, 0, 1])
        for reduce in ("amax", "amin"):
            for inc in (True, False):
                a.grad = s.grad = None
                y = a.index_reduce(0, i, s, reduce, include_self=inc)
                y.backward(t.tensor([1.0, 2.0, 3.0]))
                out[f"{reduce}-{inc}"] = (y, dense(t, a), dense(t, s))
        for name, src in {"one": [0.0, 2.0, 3.0, 5.0], "two": [0.0, 2.0, 0.0, 5.0]}.items():
            for inc in (True, False):
                b = leaf(t, np.array([[0.0, 2.0], [3.0, 4.0], [1.5, 1.0]], np.float32))
                z = leaf(t, np.array([src, src[::-1]], np.float32).T.copy())
                y = b.index_reduce(0, i, z, "prod", include_self=inc)
                y.backward(t.tensor([[1.0, -2.0], [0.5, 3.0], [1.0, 1.0]]))
                out[f"prod-{name}-{inc}"] = (y, dense(t, b), dense(t, z))
        return out
    return quiet(run)


@prog
def index_reduce_dtypes(t):
    def run():
        i = t.tensor([0, 1, 0, 1, 3])
        out = {}
        for dt in ("int64", "int32", "int16", "int8", "uint8"):
            x = t.tensor([5, -7, 3, 2], dtype=getattr(t, dt)) if dt != "uint8" else \
                t.tensor([5, 7, 3, 2], dtype=t.uint8)
            s = t.tensor([100, 100, 2, -3, 9], dtype=getattr(t, dt)) if dt != "uint8" else \
                t.tensor([200, 100, 2, 3, 9], dtype=t.uint8)
            for reduce in REDUCES:
                for inc in (True, False):
                    out[f"{dt}-{reduce}-{inc}"] = x.index_reduce(0, i, s, reduce,
                                                                 include_self=inc)
        h = t.tensor(arr(3, 4, seed=3))
        hs = t.tensor(arr(3, 5, seed=4))
        hi = t.tensor([0, 3, 3, 1, 3])
        for dt in ("float16", "bfloat16", "float64"):
            for r in REDUCES:
                out[f"{dt}-{r}"] = h.to(getattr(t, dt)).index_reduce(
                    1, hi, hs.to(getattr(t, dt)), r, include_self=r != "mean")
        x = t.tensor([1.0, float("nan"), 3.0, -float("inf")])
        sp = t.tensor([float("nan"), 2.0, float("inf"), 5.0])
        for r in REDUCES:
            out[f"special-{r}"] = x.index_reduce(0, t.tensor([0, 1, 2, 3]), sp, r)
        b = t.tensor([True, False])
        out["bool"] = catch(lambda: b.index_reduce(0, t.tensor([0]), t.tensor([True]), "amax"))
        out["bool_oob"] = catch(lambda: b.index_reduce(0, t.tensor([7]), t.tensor([True]),
                                                       "prod"))
        out["bool_exclude"] = catch(lambda: b.index_reduce(0, t.tensor([0]), t.tensor([True]),
                                                           "mean", include_self=False))
        out["bool_empty"] = catch(lambda: b.index_reduce(0, t.zeros(0, dtype=t.int64),
                                                         t.zeros(0, dtype=t.bool), "prod"))
        out["bool_empty_2d"] = b.view(2, 1).index_reduce(0, t.zeros(0, dtype=t.int64),
                                                         t.zeros(0, 1, dtype=t.bool), "prod")
        b2 = t.tensor([[True, False], [False, True], [True, True]])
        s2 = t.tensor([[False, True], [True, True]])
        for r in REDUCES:
            for name, i2 in (("two", [0, 1]), ("same", [0, 0]), ("oob", [0, 5])):
                out[f"bool_2d-{r}-{name}"] = catch(lambda r=r, i2=i2: b2.index_reduce(
                    0, t.tensor(i2), s2, r))
        out["bool_2d_empty_mean"] = b2.index_reduce(0, t.zeros(0, dtype=t.int64),
                                                    t.zeros(0, 2, dtype=t.bool), "mean")
        out["bool_2d_exclude"] = catch(lambda: b2.index_reduce(0, t.tensor([0]), s2[:1],
                                                               "amax", include_self=False))
        return out
    return quiet(run)


@prog
def index_reduce_shapes_views_and_out(t):
    def run():
        x = t.tensor(arr(3, 4, seed=1))
        s = t.tensor(arr(3, 2, seed=2))
        i = t.tensor([3, 1])
        v = t.tensor(arr(3, 4, seed=7))
        n = t.tensor(arr(3, 4, seed=8)).narrow(1, 2, 1)
        o = t.empty(3, 4)
        r = t.index_reduce(x, 1, i, s, "amax", out=o)
        small = t.zeros(2)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            warnings.filterwarnings("ignore", "index_reduce")
            grow = t.index_reduce(x, 1, i, s, "mean", out=small)
        xs = x.clone()
        same = t.index_reduce(xs, 1, i, s, "amin", include_self=False, out=xs)
        return {
            "t": (x.t().index_reduce(0, i, s.t(), "prod"),
                  meta(x.t().index_reduce(0, i, s.t(), "prod"))),
            "t_inplace": (v.t().index_reduce_(0, i, s.t(), "amax"), v, v._version),
            "int_index": x.index_reduce(1, i.int(), s, "amin"),
            "zero_dim_index": x.index_reduce(1, t.tensor(2), s[:, :1], "mean"),
            "zero_dim": t.tensor(3.0).index_reduce(0, t.tensor([0]), t.tensor(2.0), "prod"),
            "zero_dim_scalar_index": t.tensor(3.0).index_reduce(0, t.tensor(0), t.tensor(2.0),
                                                                "mean"),
            "one_elem": t.tensor([3.0]).index_reduce(0, t.tensor([0, 0]), t.tensor([2.0, 4.0]),
                                                     "mean", include_self=False),
            "empty": x.index_reduce(0, t.zeros(0, dtype=t.int64), t.zeros(0, 4), "amax",
                                    include_self=False),
            "empty_self": t.zeros(2, 0).index_reduce(0, t.tensor([1]), t.zeros(1, 0), "mean"),
            "narrow_alias": n.index_reduce_(0, t.tensor([2, 0, 2]), n.expand(3, 1), "prod"),
            "kw": x.index_reduce(dim=1, index=i, source=s, reduce="mean", include_self=False),
            "fn_kw": t.index_reduce(input=x, dim=1, index=i, source=s, reduce="amin"),
            "o": o, "same_object": r is o, "version": o._version, "grow": grow,
            "warns": [str(w.message).split(" (Triggered")[0] for w in caught],
            "self_out": (same, xs._version),
            "dtype": catch(lambda: t.index_reduce(x, 1, i, s, "prod", out=t.empty(
                3, 4, dtype=t.float64))),
            "out_is_index": catch(lambda: t.index_reduce(x, 0, t.tensor([0]), t.ones(1, 4),
                                                         "prod", out=t.tensor([0]))),
            "out_is_source": catch(lambda: t.index_reduce(x, 1, i, s, "prod", out=s)),
            "bad_reduce": catch(lambda: t.index_reduce(x, 1, i, s, "sum", out=t.empty(3, 4))),
            "out_type": catch(lambda: t.index_reduce(x, 1, i, s, "prod", out=3)),
            "grad": catch(lambda: t.index_reduce(leaf(t, arr(3, 4, seed=1)), 1, i, s, "prod",
                                                 out=t.empty(3, 4))),
            "method_out": catch(lambda: x.index_reduce(1, i, s, "prod", out=t.empty(3, 4))),
        }
    return quiet(run)


@prog
def index_reduce_errors(t):
    x = t.tensor([1.0, 2.0, 3.0, 4.0])
    s = t.tensor([5.0, 6.0, 7.0])
    i = t.tensor([0, 1, 0])
    m = t.zeros(2, 3)
    cases = {
        "sum": lambda: x.index_reduce(0, i, s, "sum"),
        "max": lambda: x.index_reduce(0, i, s, "max"),
        "foo_first": lambda: x.index_reduce(5, i.float(), s, "foo"),
        "index_dtype": lambda: x.index_reduce(0, i.float(), s, "prod"),
        "dtype": lambda: x.index_reduce(0, i, s.double(), "prod"),
        "index_2d": lambda: x.index_reduce(0, i[None], s, "prod"),
        "oob": lambda: x.index_reduce(0, t.tensor([0, 9, 0]), s, "prod"),
        "neg": lambda: x.index_reduce(0, t.tensor([0, -1, 0]), s, "prod"),
        "oob_exclude": lambda: x.index_reduce(0, t.tensor([0, 9, 0]), s, "prod",
                                              include_self=False),
        "neg_exclude": lambda: x.index_reduce(0, t.tensor([-4, 0, 0]), s, "prod",
                                              include_self=False),
        "neg_exclude_far": lambda: x.index_reduce(0, t.tensor([-5, 0, 0]), s, "prod",
                                                  include_self=False),
        "inplace_oob_exclude": lambda: x.clone().index_reduce_(0, t.tensor([0, 9, 0]), s,
                                                               "amax", include_self=False),
        "count": lambda: x.index_reduce(0, t.tensor([0, 1]), s, "prod"),
        "count_dim1": lambda: m.index_reduce(1, t.tensor([0, 1]), t.ones(2, 3), "prod"),
        "slice_shape": lambda: m.index_reduce(0, t.tensor([0, 1]), t.ones(2, 4), "prod"),
        "dim": lambda: m.index_reduce(2, t.tensor([0, 1]), t.ones(2, 3), "prod"),
        "source_1d": lambda: m.index_reduce(0, t.tensor([0, 1]), t.ones(2), "prod"),
        "zero_dim_self": lambda: t.tensor(3.0).index_reduce(0, t.tensor([1]), t.tensor([2.0]),
                                                            "prod"),
        "zero_dim_source": lambda: t.tensor(3.0).index_reduce(0, t.tensor([0, 0]),
                                                              t.tensor(2.0), "prod"),
        "vector_zero_dim_source": lambda: t.tensor([3.0]).index_reduce(0, t.tensor(0),
                                                                       t.tensor(2.0), "amax"),
        "expanded": lambda: x.expand(2, 4).index_reduce_(1, i, t.ones(2, 3), "prod"),
        "same": lambda: s.index_reduce_(0, i, s, "prod"),
        "overlap": lambda: x.clone().index_reduce_(0, t.tensor([0, 1]), x[2:4], "prod"),
        "leaf": lambda: leaf(t, arr(4, seed=1)).index_reduce_(0, i, s, "prod"),
        "missing": lambda: x.index_reduce(0, i, s),
        "missing_two": lambda: t.index_reduce(x, 0, i),
        "reduce_int": lambda: x.index_reduce(0, i, s, 3),
        "reduce_none_kw": lambda: x.index_reduce(0, i, s, reduce=None),
        "dim_float": lambda: x.index_reduce(0.5, i, s, "prod"),
        "fn_dim_float": lambda: t.index_reduce(x, 0.5, i, s, "prod"),
        "fn_too_many": lambda: t.index_reduce(x, 0, i, s, "prod", True),
        "too_many": lambda: x.index_reduce_(0, i, s, "prod", 1),
        "include_self_int": lambda: x.index_reduce(0, i, s, "prod", include_self=1),
        "source_number": lambda: x.index_reduce(0, i, 3.0, "mean"),
        "dim_str": lambda: x.index_reduce("d", i, s, "prod"),
        "tensor_dim": lambda: x.index_reduce(t.tensor(0), i, s, "prod"),
        "unknown_kw": lambda: x.index_reduce(0, i, s, "prod", alpha=2),
    }
    out = {k: quiet(f) for k, f in cases.items()}
    out["unchanged"] = x
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_index_reduce_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)


_WARN_CALLS = """
x = t.zeros(3)
i = t.tensor([0])
calls = {
    "method": lambda: x.index_reduce(0, i, t.ones(1), "prod"),
    "inplace": lambda: x.clone().index_reduce_(0, i, t.ones(1), "amax"),
    "function": lambda: t.index_reduce(x, 0, i, t.ones(1), "mean"),
    "refused": lambda: x.index_reduce(0, i, t.ones(1), "sum"),
}
"""


@pytest.mark.parametrize("sequence", ["method,method,inplace,function",
                                      "refused,function,method", "inplace,method"])
def test_index_reduce_warns_once(sequence, torch_mod):
    """PyTorch's TORCH_WARN_ONCE: the first index_reduce of a process warns, later ones
    don't, whichever form (a fresh process per library and sequence)."""
    expected = run_sequence(_WARN_CALLS, "torch", sequence)
    assert any(w for _, _, w in expected)
    assert run_sequence(_WARN_CALLS, "core", sequence) == expected
