"""Advanced indexing on torch 2.13 and the core: ``x[index tensors]``, ``x[...] = v``,
``index_put_``/``index_put``/``torch.index_put``, with values, gradients, node names, what the
nodes save (``_saved_indices``, ``_saved_accumulate``, ``_saved_self_sym_sizes``), the version
error when a saved index changes in place, and what an out-of-range index leaves behind.
"""

import warnings

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, meta, upstream

pytestmark = pytest.mark.parity

prog = Registry()


def saved(fn):
    """Every ``_saved_*`` attribute of a node, by name (index tuples observed element-wise)."""
    if fn is None:
        return None
    return {n: catch(lambda n=n: getattr(fn, n)) for n in sorted(dir(fn))
            if n.startswith("_saved_")}


def dense(t, a):
    return None if a.grad is None else t.zeros_like(a) + a.grad


def node(y):
    fn = y.grad_fn
    return {"fn": fn_name(fn), "next": [fn_name(f) for f, _ in fn.next_functions],
            "saved": saved(fn)}


def quiet(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return catch(fn)


# ======================================================================================
# what the nodes save, and the version check on a saved index


@prog
def index_put_saves_indices_and_accumulate(t):
    w = leaf(t, arr(3, 4, seed=1))
    v = leaf(t, arr(3, seed=2))
    i0, i1 = t.tensor([0, 2, 0]), t.tensor([1, 3, 1])
    y = (w * 1).index_put_((i0, i1), v, accumulate=True)
    out = {"y": y, "node": node(y), "version": y._version}
    y.backward(upstream(t, y))
    out.update(gw=dense(t, w), gv=dense(t, v))
    return out


@prog
def index_put_overwrite_gradients(t):
    w = leaf(t, arr(3, 4, seed=3))
    v = leaf(t, arr(2, 1, seed=4))
    y = (w * 1).index_put_((t.tensor([2, 0]),), v)
    out = {"y": y, "node": node(y)}
    y.backward(upstream(t, y))
    out.update(gw=dense(t, w), gv=dense(t, v))
    return out


@prog
def changing_a_saved_index_in_place_makes_backward_raise(t):
    w = leaf(t, arr(3, 4, seed=5))
    v = leaf(t, arr(2, seed=6))
    i0 = t.tensor([0, 2])
    y = (w * 1).index_put_((i0, t.tensor([1, 3])), v)
    i0.add_(0)  # same values, new version: PyTorch refuses to trust it
    j = t.tensor([1, 0])
    z = w[j]
    j[0] = 2
    return {"put": catch(lambda: y.backward(upstream(t, y))),
            "index": catch(lambda: z.backward(upstream(t, z))),
            "saved_read": catch(lambda: z.grad_fn._saved_indices)}


@prog
def changing_a_saved_mask_in_place_makes_backward_raise(t):
    w = leaf(t, arr(2, 3, seed=7))
    m = t.tensor([[True, False, True], [False, True, False]])
    z = w[m]
    y = w * 1
    y[m] = 0.0
    m[0, 0] = False
    return {"z": fn_name(z.grad_fn), "y": fn_name(y.grad_fn),
            "index": catch(lambda: z.backward(upstream(t, z))),
            "put": catch(lambda: y.backward(upstream(t, y)))}


@prog
def getitem_nodes_and_saved_indices(t):
    w = leaf(t, arr(3, 4, seed=8))
    m = t.tensor([True, False, True, True])
    cases = {
        "rows": lambda: w[[2, 0, 2]],
        "mask": lambda: w[w.detach() > 0],
        "cols": lambda: w[:, [0, 3]],
        "slice_then_cols": lambda: w[1:, [0, 1]],
        "pair": lambda: w[[0, 2], [1, 3]],
        "none_between": lambda: w[[0, 1], None, [1, 2]],
        "none_first": lambda: w[None, [0, 1]],
        "ellipsis_none": lambda: w[..., None, [1]],
        "mask_cols": lambda: w[:, m],
        "true": lambda: w[True],
        "false": lambda: w[False],
        "int_then_list": lambda: w[1, [0, 3, 3]],
        "int32": lambda: w[t.tensor([2, -1], dtype=t.int32)],
        "negative": lambda: w[[-1, -3], [-4, 0]],
        "tensor_2d": lambda: w[t.tensor([[0, 1], [2, 2]])],
    }
    out = {}
    for k, f in cases.items():
        z = f()
        z.backward(upstream(t, z))
        out[k] = {"z": z, "meta": meta(z), "node": node(z), "gw": dense(t, w)}
        w.grad = None
    return out


@prog
def setitem_nodes_and_saved_indices(t):
    w = leaf(t, arr(3, 4, seed=9))
    v = leaf(t, arr(2, seed=10))
    out = {}
    for k, idx in {"cols": (slice(None), [0, 1]), "slice_then_cols": (slice(1, None), [0, 1]),
                   "pair": ([0, 2], [1, 3]), "mask": w.detach() > 0.5,
                   "rows_broadcast": ([[0], [2]], [1, 2])}.items():
        y = w * 1
        value = 7.0 if k == "mask" else v
        y[idx] = value
        y.backward(upstream(t, y))
        out[k] = {"y": y, "node": node(y), "version": y._version, "gw": dense(t, w),
                  "gv": dense(t, v)}
        w.grad = v.grad = None
    return out


# ======================================================================================
# the out-of-place twin and the function


@prog
def index_put_out_of_place_twin(t):
    w = leaf(t, arr(3, 2, seed=11))
    x = w.detach().t()  # (2, 3), strides (1, 2): the copy keeps them
    y = x.index_put((t.tensor([1]),), t.tensor(arr(3, seed=12)))
    f = t.index_put(w, (t.tensor([0, 0]), t.tensor([1, 1])), t.tensor([1.0, 2.0]),
                    accumulate=True)
    f.backward(upstream(t, f))
    return {"y": y, "stride": y.stride(), "x_version": x._version, "new": y.data_ptr()
            != x.data_ptr(), "f": f, "node": node(f), "gw": dense(t, w),
            "fn_": t.index_put_(x.clone(), (t.tensor([0]),), t.tensor(5.0))}


# ======================================================================================
# values: duplicates, masks, broadcasting, dtypes


@prog
def accumulate_with_duplicates_adds_each(t):
    x = t.zeros(5)
    x.index_put_((t.tensor([0, 0, 3, 0]),), t.tensor([1.0, 2.0, 3.0, 4.0]), accumulate=True)
    m = t.zeros(2, 3)
    m.index_put_((t.tensor([1, 1]), t.tensor([2, 2])), t.tensor(1.5), accumulate=True)
    i = t.zeros(4, dtype=t.int64)
    i.index_put_((t.tensor([1, 1, 1]),), t.tensor([5, 6, 7]), accumulate=True)
    last = t.zeros(3)
    last[t.tensor([1, 1, 1])] = t.tensor([5.0, 6.0, 7.0])  # serial: the last write stays
    return {"x": x, "m": m, "i": i, "last": last, "versions": (x._version, m._version)}


@prog
def masks_and_broadcast_values(t):
    x = t.tensor(arr(2, 3, 4, seed=13))
    m = t.tensor(arr(2, 3, seed=14) > 0)
    a = x.clone()
    a[m] = t.tensor(arr(4, seed=15))  # one row per True cell, broadcast
    b = x.clone()
    b[:, t.tensor([True, False, True])] = 0.5
    c = x.clone()
    c[[0, 1], :, [1, 2]] = t.tensor(arr(3, seed=16))  # broadcast dims go first
    d = x.clone()
    d[[1]] = t.ones(1, 1, 3, 4)  # leading size-1 dims of the value are dropped
    e = x.clone()
    e[m, 0] = -1.0
    i = t.tensor([[1, 2, 3], [4, 5, 6]])
    i.index_put_((t.tensor([[True, False, True], [False, True, False]]),), t.tensor(1.5))
    return {"a": a, "b": b, "c": c, "d": d, "e": e, "i": i, "xm": x[m], "xm0": x[m, 0]}


# ======================================================================================
# out of range: PyTorch's kernel writes what it visited first, and bumps nothing


@prog
def out_of_range_index_put_raises_and_keeps_the_version(t):
    """PyTorch's kernel writes the cells before the bad index, then raises; the core raises
    before its first write (the course's promise). Both keep the version: compared here are
    the error and the version, and test_index_put_out_of_range_writes_nothing checks the
    core's values."""
    out = {}
    for k, (idx, acc) in {"rows": ((t.tensor([0, 2]),), False),
                          "rows_acc": ((t.tensor([1, 0, -3]),), True),
                          "cols": ((t.tensor([0, 1]), t.tensor([2, 5])), False),
                          "negative": ((t.tensor([1, 0, -3]),), False)}.items():
        x = t.tensor(arr(2, 3, seed=17))
        out[k] = {"err": catch(lambda x=x, idx=idx, acc=acc: x.index_put_(idx, t.tensor(9.0),
                                                                          accumulate=acc)),
                  "version": x._version}
    x = t.tensor(arr(2, 3, seed=18))
    out["setitem_cols"] = {"err": catch(lambda: x.__setitem__((slice(None), [1, 0, 5]), 7.0)),
                           "version": x._version}
    w = leaf(t, arr(2, 3, seed=19))
    y = w * 1
    out["graph"] = {"err": catch(lambda: y.index_put_((t.tensor([3]),), t.tensor(1.0))),
                    "fn": fn_name(y.grad_fn), "version": y._version}
    z = t.tensor(arr(2, 3, seed=20))
    out["oop"] = {"err": catch(lambda: z.index_put((t.tensor([0, 2]),), t.tensor(1.0))),
                  "z": z}
    return out


@prog
def values_that_are_a_broadcast_view_of_self(t):
    """An expanded view of self is a layout PyTorch's overlap check can't judge: it lets it
    through, and its kernel reads each value when it gets there (cells written earlier in
    the same call included)."""
    out = {}
    for k, (idx, acc) in {"acc": ((t.tensor([0, 0]),), True), "copy": ((t.tensor([1, 0]),), False),
                          "acc_bad": ((t.tensor([0, 0, 4]),), True),
                          "cols": ((t.tensor([0, 1]), t.tensor([2, 2])), True)}.items():
        x = t.tensor(arr(2, 3, seed=22))
        n = idx[0].numel()
        v = x[:1].expand(n, 3) if len(idx) == 1 else x[0, :1].expand(n)
        err = catch(lambda x=x, idx=idx, v=v, acc=acc: x.index_put_(idx, v, acc))
        # an out-of-range index: PyTorch has written some cells, the core none (see above)
        out[k] = {"err": err, "version": x._version} | ({} if k == "acc_bad" else {"x": x})
    return out


@prog
def index_errors_in_pytorchs_order(t):
    x = t.tensor(arr(2, 3, 4, seed=21))
    b = t.tensor([[True, False, True], [False, True, False]])
    cases = {
        "float": lambda: x[t.tensor([0.0])],
        "int16": lambda: x[t.tensor([0], dtype=t.int16)],
        "float_list": lambda: x[[1.7]],
        "bad_mask": lambda: x[b[0]],
        "bad_mask_dim1": lambda: x[:, t.ones(2, dtype=t.bool)],
        "broadcast": lambda: x[[0, 1], [0, 1, 2]],
        "out_dim1": lambda: x[:, [0], [9]],
        "too_many": lambda: x[[0], [0], [0], [0]],
        "put_too_many": lambda: x.index_put_((t.tensor([0]),) * 4, t.tensor(1.0)),
        "put_dtype": lambda: x.index_put_((t.tensor([0]),), t.tensor(1)),
        "put_shape": lambda: x.index_put_((t.tensor([0]),), t.ones(2, 3, 4)),
        "put_overlap": lambda: x.index_put_((t.tensor([0]),), x[1]),
        "put_mask_dims": lambda: x.index_put_((b, b), t.tensor(1.0)),
        "put_byte_fill": lambda: x.index_put_((b.to(t.uint8),), t.tensor(1.0)),
        "uint8_mask": lambda: x[t.tensor([0, 1], dtype=t.uint8)],
        "empty_result": lambda: x[:, []],
    }
    return {k: quiet(f) for k, f in cases.items()} | {"version": x._version}


@pytest.mark.parametrize("prog", prog.params())
def test_advanced_indexing_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)


def test_large_index_put_counts_and_writes_like_numpy(core):
    """Several index arrays over a large tensor: the same cells as NumPy's fancy indexing."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((64, 50, 30))
    rows, cols = rng.integers(-64, 64, 500), rng.integers(0, 30, 500)
    x = core.tensor(a.copy())
    got = x[rows.tolist(), :, cols.tolist()]
    assert np.array_equal(got.numpy(), a[rows, :, cols])
    x[core.tensor(rows), 3:7, core.tensor(cols)] = core.tensor(np.ones((500, 4)))
    want = a.copy()
    want[rows, 3:7, cols] = 1.0
    assert np.array_equal(x.numpy(), want)
