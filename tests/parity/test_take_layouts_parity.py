"""index_select and index_fill's backward on sources np.take would copy whole (transposed,
strided, expanded, permuted 3-D), on torch 2.13 and the core: the core reads them slice by
slice or a few rows at a time (ops/_take.py), so both of its paths are exercised here: slices
of fewer than 1024 cells (gathered a piece at a time) and larger ones (copied view to view).
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, meta, upstream

pytestmark = pytest.mark.parity

prog = Registry()


def _picked(t, y, a):
    y.backward(upstream(t, y))
    return {"y": y, "meta": meta(y), "fn": fn_name(y.grad_fn), "g": a.grad}


@prog
def index_select_transposed_and_strided_sources(t):
    outs = {}
    for name, make, dim, idx in (
        ("t dim0", lambda a: a.t(), 0, [4, 0, 4, 2]),
        ("t dim1", lambda a: a.t(), 1, [1, 1, 0]),
        ("strided", lambda a: a[::2, 1::2], 1, [2, 0]),
        ("expanded", lambda a: a[:1].expand(6, 5), 1, [4, 3, 3]),
        ("permuted 3-D", lambda a: a.reshape(3, 5, 1).expand(3, 5, 2).permute(1, 2, 0), 2,
         [2, 0]),
    ):
        a = leaf(t, arr(3, 5, seed=len(outs) + 1))
        src = make(a)
        outs[name] = _picked(t, src.index_select(dim, t.tensor(idx)), a)
    return outs


@prog
def index_select_large_slices(t):
    """Slices of 1,600 and 2,048 cells: the view-to-view path."""
    a = leaf(t, arr(4, 40, 40, seed=3))
    y = a.permute(2, 0, 1).index_select(1, t.tensor([3, 0, 3]))
    out = _picked(t, y, a)
    b = leaf(t, arr(2, 1024, seed=4))
    z = b.t().index_select(1, t.tensor([1, 0, 1, 1]))
    out["z"] = _picked(t, z, b)
    e = t.tensor(arr(1, 2048, seed=5)).expand(3, 2048).t()
    out["expanded"] = e.index_select(1, t.tensor([2, 0]))
    out["int32"] = e.index_select(0, t.tensor([2047, 0], dtype=t.int32))
    return out


@prog
def index_fill_value_gradient_from_an_expanded_grad(t):
    """sum()'s backward hands index_fill_ an expanded gradient; the value's gradient is the
    sum of the filled slices, each once (grad.index_select(dim, index.unique()).sum())."""
    a = leaf(t, arr(4, 6, seed=6))
    v = leaf(t, arr(1, seed=7))
    y = (a * 1).index_fill_(1, t.tensor([5, 0, 5, 2]), v[0])
    (y.sum() * 3).backward()
    w = leaf(t, arr(40, 40, seed=8))
    u = leaf(t, arr(1, seed=9))
    z = (w * 1).t().index_fill_(0, t.tensor([2, 39]), u[0])
    z.backward(t.ones(40, 1).expand(40, 40))
    return {"ga": a.grad, "gv": v.grad, "fn": fn_name(y.grad_fn), "gw": w.grad, "gu": u.grad}


@prog
def index_fill_value_gradient_with_negative_indices(t):
    """A negative index fills from the end, but the value's backward runs index_select on the
    index as given, which refuses it: dim 1 of a matrix in its kernel's words (the most
    negative index named: the index is unique()d, sorted, first), other dims IndexError."""
    out = {}
    for name, shape, dim, idx in (("dim 1", (4, 6), 1, [-1, 2, -3]), ("dim 0", (4, 6), 0, [-1]),
                                  ("dim 2", (2, 3, 4), 2, [1, -2]), ("1-D", (5,), 0, [2, -1]),
                                  ("0-dim", (), 0, [-1]), ("0-dim ok", (), 0, [0, 0])):
        a = leaf(t, arr(*shape, seed=len(out)) if shape else arr(1, seed=1)[0])
        v = leaf(t, arr(1, seed=2)[0])
        y = (a * 1).index_fill(dim, t.tensor(idx), v)
        out[name] = (catch(lambda y=y: y.sum().backward()), v.grad, a.grad, y)
    return out


@prog
def embedding_of_a_transposed_weight(t):
    """F.embedding reads a weight.t() row by row (np.take would copy it whole first), with
    1-D and 2-D indices, rows of fewer and of more than 1024 cells."""
    w = leaf(t, arr(6, 4, seed=15))
    y = t.nn.functional.embedding(t.tensor([[3, 0], [3, 1]]), w.t())
    out = _picked(t, y, w)
    big = t.tensor(arr(1100, 3, seed=16)).t()
    out["big"] = t.nn.functional.embedding(t.tensor([2, 0, 2]), big)
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_take_layouts_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
