"""Joining and index ops on torch 2.13 and the core: cat/stack/hstack/vstack, masked_fill(_),
index_copy(_) ... with their values, gradients, strides, versions, grad_fn names, saved
tensors (and the version error when a saved index or mask changes), warnings and error texts.
"""

import warnings

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, meta, upstream

pytestmark = pytest.mark.parity

prog = Registry()


def saved_names(fn):
    return None if fn is None else sorted(n for n in dir(fn) if n.startswith("_saved_"))


def saved_values(fn):
    """Every ``_saved_*`` attribute of a node (tensors are observed as tensors)."""
    return None if fn is None else {n: getattr(fn, n) for n in saved_names(fn)}


def dense(t, a):
    return None if a.grad is None else t.zeros_like(a) + a.grad


def warned(fn):
    """(result or error, the messages of the warnings fn emitted, without PyTorch's
    "(Triggered internally at <its source file>)" tail)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = catch(fn)
    return out, [str(w.message).split(" (Triggered internally")[0] for w in caught]


def backward_error(t, y):
    return catch(lambda: y.backward(upstream(t, y)))


# ======================================================================================
# cat


@prog
def cat_values_layout_and_node(t):
    a = leaf(t, arr(2, 3, seed=1))
    b = leaf(t, arr(1, 3, seed=2))
    y = t.cat([a, b])
    y.backward(upstream(t, y))
    c = t.cat((a.detach(), b.detach()), dim=0)
    return {
        "y": y, "meta": meta(y), "fn": fn_name(y.grad_fn), "saved": saved_values(y.grad_fn),
        "next": [fn_name(f) for f, _ in y.grad_fn.next_functions],
        "ga": dense(t, a), "gb": dense(t, b), "tuple": c, "new_storage": c._base is None,
        "version": c._version,
    }


@prog
def cat_negative_dim_is_saved_as_passed(t):
    a = leaf(t, arr(2, 3, seed=1))
    y = t.cat([a, a * 2, a[:, :1]], -1)
    y.backward(upstream(t, y))
    return {"y": y, "saved": saved_values(y.grad_fn), "g": dense(t, a),
            "dim1": t.cat([a, a], 1).grad_fn._saved_dim}


@prog
def cat_of_views_and_transposes_is_contiguous(t):
    x = t.tensor(arr(3, 4, seed=3))
    outs = {
        "t": t.cat([x.t(), x.t()]), "t1": t.cat([x.t(), x.t()], 1),
        "strided": t.cat([x[:, ::2], x[:, 1::2]], 1), "expanded": t.cat([x[:1].expand(3, 4), x]),
        "mixed": t.cat([x, x.t().t()]),
    }
    return {k: (v, meta(v)) for k, v in outs.items()}


@prog
def cat_channels_last_inputs_give_channels_last(t):
    x = t.tensor(arr(2, 3, 4, 5, seed=4)).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
    y = t.tensor(arr(2, 3, 4, 5, seed=5))
    return {"both": meta(t.cat([x, x], 1)), "one": meta(t.cat([x, y], 1)),
            "values": t.cat([x, y], 0)}


@prog
def cat_promotes_dtypes(t):
    f = t.tensor(arr(2, 2, seed=1))
    i = t.tensor([[1, 2], [3, 4]])
    b = t.tensor([[True, False], [False, True]])
    d = t.tensor(arr(2, 2, seed=2), dtype=t.float64)
    lf = leaf(t, arr(2, 2, seed=3))
    y = t.cat([lf, d])
    y.backward(upstream(t, y))
    return {"fi": t.cat([f, i]), "ib": t.cat([i, b]), "bi": t.cat([b, i.int()]),
            "fd": t.cat([f, d]), "half": t.cat([f, f.half()]), "grad": dense(t, lf),
            "y": y, "bool": t.cat([b, b])}


@prog
def cat_skips_legacy_empty_tensors(t):
    a = leaf(t, arr(2, 3, seed=1))
    e = leaf(t, np.zeros(0, np.float32))
    y = t.cat([a, e, a])
    y.backward(upstream(t, y))
    return {
        "y": y, "ga": dense(t, a), "ge": e.grad,
        "first": t.cat([t.tensor([]), a.detach()], 1),
        "dtype": t.cat([a.detach(), t.zeros(0, dtype=t.float64)]).dtype,
        "all_empty": t.cat([t.zeros(0), t.zeros(0)], 1),
        "empty_rows": t.cat([a.detach(), t.zeros(0, 3)]),
        "bad_dim": catch(lambda: t.cat([t.zeros(0), a], 2)),
    }


@prog
def cat_errors(t):
    a = t.tensor(arr(2, 3, seed=1))
    return {
        "empty": catch(lambda: t.cat([])),
        "zero_dim": catch(lambda: t.cat([a, t.tensor(1.0)])),
        "zero_dim_first": catch(lambda: t.cat([t.tensor(1.0), t.tensor(2.0)])),
        "ndim": catch(lambda: t.cat([a, t.zeros(2)])),
        "sizes": catch(lambda: t.cat([a, t.zeros(1, 4)])),
        "sizes_dim1": catch(lambda: t.cat([a, t.zeros(1, 3)], 1)),
        "dim_range": catch(lambda: t.cat([a, a], 2)),
        "dim_float": catch(lambda: t.cat([a, a], 1.5)),
        "dim_bool": catch(lambda: t.cat([a, a], True)),
        "not_list": catch(lambda: t.cat(a)),
        "element": catch(lambda: t.cat([a, 1])),
        "element_list": catch(lambda: t.cat([a, [1.0, 2.0]])),
    }


@prog
def cat_inputs_can_change_after_cat(t):
    """CatBackward0 saves no tensor: changing an input in place after cat is harmless."""
    a = leaf(t, arr(2, 2, seed=1))
    h = a * 2
    y = t.cat([h, a])
    h.add_(1)
    y.backward(upstream(t, y))
    return {"g": dense(t, a), "h_version": h._version}


@prog
def cat_aliases(t):
    a = t.tensor(arr(2, 2, seed=1))
    return {"concat": t.concat([a, a], 1), "concatenate": t.concatenate([a, a], axis=1),
            "kw": t.cat(tensors=[a, a], dim=-1)}


# ======================================================================================
# stack, hstack, vstack


@prog
def stack_values_and_backward(t):
    a = leaf(t, arr(2, 3, seed=1))
    b = leaf(t, arr(2, 3, seed=2))
    out = {}
    for d in (0, 1, 2, -1):
        y = t.stack([a, b * 3], d)
        y.backward(upstream(t, y))
        out[d] = (y, meta(y), fn_name(y.grad_fn), saved_values(y.grad_fn))
    out["ga"], out["gb"] = dense(t, a), dense(t, b)
    out["t"] = meta(t.stack([a.detach().t(), b.detach().t()], 1))
    out["promote"] = t.stack([t.tensor([1, 2]), t.tensor([0.5, 1.5])])
    return out


@prog
def stack_errors(t):
    a = t.tensor(arr(2, 3, seed=1))
    return {
        "empty": catch(lambda: t.stack([])), "size": catch(lambda: t.stack([a, a.t()])),
        "size2": catch(lambda: t.stack([a, a, a[:1]])), "dim": catch(lambda: t.stack([a, a], 3)),
        "not_list": catch(lambda: t.stack(a)), "dim_float": catch(lambda: t.stack([a, a], 1.0)),
        "scalars": t.stack([t.tensor(1.0), t.tensor(2.0)]),
    }


@prog
def hstack_and_vstack(t):
    v = leaf(t, arr(3, seed=1))
    m = leaf(t, arr(2, 3, seed=2))
    s = leaf(t, arr(seed=3))
    h1, h2 = t.hstack([v, v]), t.hstack([m, m * 2])
    v1, v2 = t.vstack([v, m]), t.vstack([s, s])
    total = h1.sum() + h2.sum() + v1.sum() + v2.sum()
    total.backward()
    return {
        "h1": h1, "h2": h2, "v1": v1, "v2": v2, "hs": t.hstack([s, s]),
        "fns": [fn_name(x.grad_fn) for x in (h1, h2, v1, v2)],
        "v1_next": [fn_name(f) for f, _ in v1.grad_fn.next_functions],
        "gv": dense(t, v), "gm": dense(t, m), "gs": dense(t, s),
        "h_empty": catch(lambda: t.hstack([])), "v_empty": catch(lambda: t.vstack([])),
        "h_tensor": catch(lambda: t.hstack(m)), "v_bad": catch(lambda: t.vstack([m, 1])),
    }


# ======================================================================================
# masked_fill


@prog
def masked_fill_scalar_in_place(t):
    x = t.tensor(arr(2, 3, seed=1))
    m = t.tensor([True, False, True])
    r = x.masked_fill_(m, -1.5)
    a = leaf(t, arr(2, 3, seed=2))
    h = a * 2
    h.masked_fill_(t.tensor([[True, False, False], [False, True, True]]), float("-inf"))
    y = h.exp()
    y.backward(upstream(t, y))
    return {"x": x, "same": r is x, "version": x._version, "h": h, "fn": fn_name(h.grad_fn),
            "saved": saved_values(h.grad_fn), "g": dense(t, a), "meta": meta(x)}


@prog
def masked_fill_out_of_place_broadcasts(t):
    a = leaf(t, arr(3, seed=1))
    m = t.tensor([[True, False, True], [False, False, True]])
    y = a.masked_fill(m, 0.5)
    y.backward(upstream(t, y))
    x = t.tensor(arr(3, 2, seed=2))
    return {
        "y": y, "meta": meta(y), "fn": fn_name(y.grad_fn), "saved": saved_values(y.grad_fn),
        "g": dense(t, a), "version": a._version,
        "t": (x.t().masked_fill(t.tensor([True, False, True]), 9.0),
              meta(x.t().masked_fill(t.tensor([True, False, True]), 9.0))),
        "strided": meta(x[::2].masked_fill(t.tensor([True, False]), 1.0)),
        "zero_dim": t.tensor(1.0).masked_fill(t.tensor([True, False]), 5.0),
        "fn_module": t.masked_fill(x, t.tensor([False, True]), 3.0),
    }


@prog
def masked_fill_tensor_value(t):
    a = leaf(t, arr(2, 3, seed=1))
    v = t.tensor(2.5, requires_grad=True)
    m = t.tensor([True, False, True])
    y = a.masked_fill(m, v)
    y.backward(upstream(t, y))
    z = t.zeros(2, 3)
    z.masked_fill_(m, v)
    z.backward(upstream(t, z))
    w = a.detach().masked_fill(m, t.tensor(1.0, dtype=t.float64, requires_grad=True))
    return {
        "y": y, "fn": fn_name(y.grad_fn), "saved": saved_values(y.grad_fn), "ga": dense(t, a),
        "gv": dense(t, v), "z": z, "z_fn": fn_name(z.grad_fn),
        "next": [fn_name(f) for f, _ in z.grad_fn.next_functions], "w": w,
        "w_fn": fn_name(w.grad_fn),
        "plain": a.detach().masked_fill(m, t.tensor(7.0)),
        "plain_fn": fn_name(a.masked_fill(m, t.tensor(7.0)).grad_fn),
    }


@prog
def masked_fill_dtypes(t):
    m = t.tensor([True, False, True])
    return {
        "long_float": t.tensor([1, 2, 3]).masked_fill_(m, 1.7),
        "long_tensor": t.tensor([1, 2, 3]).masked_fill(m, t.tensor(-2.9)),
        "bool": t.tensor([False, False, True]).masked_fill_(m, 2),
        "int8": t.tensor([1, 2, 3], dtype=t.int8).masked_fill_(m, -128),
        "uint8": t.tensor([1, 2, 3], dtype=t.uint8).masked_fill_(m, 255),
        "half": t.tensor([1.0, 2.0, 3.0], dtype=t.float16).masked_fill_(m, 1e4),
        "inf": t.tensor([1.0, 2.0, 3.0]).masked_fill_(m, float("inf")),
        "long_true": t.tensor([1, 2, 3]).masked_fill(m, True),
        "double": t.tensor([1.0, 2.0, 3.0], dtype=t.float64).masked_fill(m, 1e300),
    }


@prog
def masked_fill_errors(t):
    x = t.tensor(arr(2, 3, seed=1))
    m = t.tensor([True, False, True])
    return {
        "float_mask": catch(lambda: x.clone().masked_fill_(m.float(), 1.0)),
        "long_mask": catch(lambda: x.clone().masked_fill_(t.tensor([1, 0, 1]), 1.0)),
        "oop_float_mask": catch(lambda: x.masked_fill(m.float(), 1.0)),
        "value_1d": catch(lambda: x.clone().masked_fill_(m, t.tensor([1.0]))),
        "oop_value_1d": catch(lambda: x.masked_fill(m, t.tensor([1.0, 2.0]))),
        "mask_bigger": catch(lambda: x.clone().masked_fill_(t.ones(4, 2, 3, dtype=t.bool), 1.0)),
        "oop_mask_bigger": x.masked_fill(t.ones(4, 2, 3, dtype=t.bool), 1.0),
        "mismatch": catch(lambda: x.clone().masked_fill_(t.tensor([True, False]), 1.0)),
        "oop_mismatch": catch(lambda: x.masked_fill(t.tensor([True, False]), 1.0)),
        "int8_overflow": catch(lambda: t.tensor([1, 2, 3], dtype=t.int8).masked_fill_(m, 300)),
        "int8_tensor_overflow": catch(
            lambda: t.tensor([1, 2, 3], dtype=t.int8).masked_fill_(m, t.tensor(300))),
        "long_nan": catch(lambda: t.tensor([1, 2, 3]).masked_fill_(m, float("nan"))),
        "half_overflow": catch(
            lambda: t.tensor([1.0, 2, 3], dtype=t.float16).masked_fill_(m, 1e10)),
        "float_overflow": catch(lambda: x.clone().masked_fill_(m, 1e300)),
        "str": catch(lambda: x.clone().masked_fill_(m, "a")),
        "none": catch(lambda: x.clone().masked_fill_(m, None)),
        "list_mask": catch(lambda: x.clone().masked_fill_([True, False, True], 1.0)),
        "list_mask_tensor": catch(lambda: x.clone().masked_fill_([True, False, True],
                                                                 t.tensor(1.0))),
        "list_value": catch(lambda: x.clone().masked_fill_(m, [1.0])),
        "int_int": catch(lambda: x.clone().masked_fill_(1, 1)),
        "leaf": catch(lambda: leaf(t, arr(3, seed=2)).masked_fill_(m.float(), 1.0)),
        "x_unchanged": x,
    }


@prog
def masked_fill_overlap_rules(t):
    """Expanded self: a warning, then the write; a mask sharing self's cells partially:
    refused; the very same cells (b.masked_fill_(b, ...)): allowed."""
    e = t.zeros(1, 3).expand(2, 3)
    r1 = warned(lambda: e.masked_fill_(t.tensor([True, False, True]), 1.0))
    b = t.tensor([True, False, True, True])
    partial = catch(lambda: b[:3].masked_fill_(b[1:], False))
    c = t.tensor([True, False, True, True])
    c.masked_fill_(c, False)
    return {"expanded": r1[1], "e": e, "e_version": e._version, "partial": partial, "b": b,
            "same": c, "same_version": c._version}


@prog
def masked_fill_saved_mask_version_error(t):
    a = leaf(t, arr(3, seed=1))
    m = t.tensor([True, False, True])
    y = (a * 1).masked_fill(m, 1.0)
    m.logical_not_()
    err = backward_error(t, y)
    m2 = t.tensor([True, False, True])
    h = a * 2
    h.masked_fill_(m2, 0.0)
    m2[0] = False
    return {"oop": err, "inplace": backward_error(t, h), "m_version": m._version}


@prog
def masked_fill_on_views_and_in_no_grad(t):
    a = leaf(t, arr(2, 3, seed=1))
    h = a * 1
    v = h[:, 1:]
    v.masked_fill_(t.tensor([True, False]), 0.0)
    y = h * 2
    y.backward(upstream(t, y))
    with t.no_grad():
        z = (a * 1).masked_fill_(t.tensor([False, True, False]), 3.0)
    return {"h": h, "h_fn": fn_name(h.grad_fn), "v_fn": fn_name(v.grad_fn), "g": dense(t, a),
            "versions": (h._version, v._version), "z": z, "z_fn": fn_name(z.grad_fn)}


# ======================================================================================
# index_copy


@prog
def index_copy_in_place_and_backward(t):
    a = leaf(t, arr(4, 3, seed=1))
    s = leaf(t, arr(2, 3, seed=2))
    h = a * 1
    idx = t.tensor([3, 0])
    r = h.index_copy_(0, idx, s * 2)
    y = h * h
    y.backward(upstream(t, y))
    return {"h": h, "same": r is h, "version": h._version, "fn": fn_name(h.grad_fn),
            "saved": saved_values(h.grad_fn), "ga": dense(t, a), "gs": dense(t, s),
            "next": [fn_name(f) for f, _ in h.grad_fn.next_functions]}


@prog
def index_copy_out_of_place_and_dims(t):
    a = leaf(t, arr(3, 4, seed=1))
    s = leaf(t, arr(3, 2, seed=2))
    y = a.index_copy(-1, t.tensor([1, 3]), s)
    y.backward(upstream(t, y))
    x = t.tensor(arr(2, 3, seed=3))
    return {
        "y": y, "meta": meta(y), "saved": saved_values(y.grad_fn), "ga": dense(t, a),
        "gs": dense(t, s), "a_version": a._version,
        "t": (x.t().index_copy(0, t.tensor([1, 0, 2]), x.t()),
              meta(x.t().index_copy(0, t.tensor([1, 0, 2]), x.t()))),
        "fn_module": t.index_copy(x, 1, t.tensor([2]), t.ones(2, 1)),
        "self_only": saved_values(a.index_copy(0, t.tensor([0]), t.ones(1, 4)).grad_fn),
        "source_only": saved_values(a.detach().index_copy(0, t.tensor([0]), s.t()[:1]).grad_fn),
    }


@prog
def index_copy_scalars_and_duplicates(t):
    a = leaf(t, arr(3, seed=1))
    v = t.tensor(5.0, requires_grad=True)
    y = a.index_copy(0, t.tensor([1]), v)
    y.backward(upstream(t, y))
    dup = t.zeros(2, 3).index_copy_(0, t.tensor([1, 1]), t.tensor(arr(2, 3, seed=2)))
    b = leaf(t, arr(2, 2, seed=3))
    s = leaf(t, arr(2, 2, seed=4))
    z = b.index_copy(0, t.tensor([0, 0]), s)
    z.backward(upstream(t, z))
    return {
        "y": y, "ga": dense(t, a), "gv": dense(t, v), "saved": saved_values(y.grad_fn),
        "zero_dim_index": t.zeros(3).index_copy_(0, t.tensor(1), t.tensor(5.0)),
        "zero_dim_self": t.tensor(1.0).index_copy_(0, t.tensor([0]), t.tensor(5.0)),
        "zero_dim_self_1": t.tensor(1.0).index_copy_(0, t.tensor([0]), t.tensor([5.0])),
        "dup": dup, "z": z, "gb": dense(t, b), "gs": dense(t, s),
        "empty": t.zeros(2, 3).index_copy_(0, t.tensor([], dtype=t.int64), t.zeros(0, 3)),
        "expanded_src": t.zeros(3, 3).index_copy_(0, t.tensor([0, 1, 2]),
                                                  t.ones(1, 3).expand(3, 3)),
        "expanded_index": t.zeros(3, 3).index_copy_(0, t.tensor([0]).expand(3),
                                                    t.tensor(arr(3, 3, seed=5))),
    }


@prog
def index_copy_saved_index_version_error(t):
    a = leaf(t, arr(3, 2, seed=1))
    idx = t.tensor([2, 0])
    h = a * 1
    h.index_copy_(0, idx, t.ones(2, 2))
    idx[0] = 1
    err = backward_error(t, h)
    s = leaf(t, arr(1, 2, seed=2))
    src = s * 1
    y = a.detach().index_copy(0, t.tensor([1]), src)
    src.mul_(2)
    return {"index": err, "idx_version": idx._version, "source": backward_error(t, y)}


@prog
def index_copy_errors(t):
    x = t.tensor(arr(2, 3, seed=1))
    s = t.tensor(arr(1, 3, seed=2))
    i0 = t.tensor([1])
    x3 = t.zeros(2, 3, 4)
    y = t.arange(8.0)
    lng = t.tensor([1, 0])
    return {
        "dim": catch(lambda: x.clone().index_copy_(2, i0, s)),
        "float_index": catch(lambda: x.clone().index_copy_(0, i0.float(), s)),
        "int_index": catch(lambda: x.clone().index_copy_(0, i0.int(), s)),
        "index_2d": catch(lambda: x.clone().index_copy_(0, i0.reshape(1, 1), s)),
        "oob": catch(lambda: x.clone().index_copy_(0, t.tensor([2]), s)),
        "oob_second": catch(lambda: x.clone().index_copy_(0, t.tensor([0, 5]), t.ones(2, 3))),
        "negative": catch(lambda: x.clone().index_copy_(0, t.tensor([-1]), s)),
        "count": catch(lambda: x.clone().index_copy_(0, t.tensor([0, 1]), s)),
        "slice": catch(lambda: x.clone().index_copy_(0, i0, t.zeros(1, 4))),
        "slice3d": catch(lambda: x3.clone().index_copy_(1, t.tensor([0]), t.zeros(3, 1, 4))),
        "scalar_src": catch(lambda: x3.clone().index_copy_(1, t.tensor([0, 1]), t.tensor(1.0))),
        "scalar_into_2d": catch(lambda: t.zeros(2, 2).index_copy_(0, t.tensor([0]),
                                                                  t.tensor(3.0))),
        "ndim": catch(lambda: x.clone().index_copy_(0, i0, t.zeros(3))),
        "dtype": catch(lambda: x.clone().index_copy_(0, i0, s.double())),
        "dtype_long": catch(lambda: t.tensor([[1, 2, 3]]).index_copy_(0, i0, s)),
        "oop_dtype": catch(lambda: x.index_copy(0, i0.float(), s)),
        "source_float": catch(lambda: x.clone().index_copy_(0, i0, 1.0)),
        "index_list": catch(lambda: x.clone().index_copy_(0, [1], s)),
        "dim_float": catch(lambda: x.clone().index_copy_(0.0, i0, s)),
        "expanded_self": catch(lambda: t.zeros(1, 3).expand(2, 3).index_copy_(0, i0, s)),
        "overlap_source": catch(lambda: y[:4].index_copy_(0, t.tensor([0, 1]), y[1:3])),
        "same_source": catch(lambda: y.view(2, 4).index_copy_(0, t.tensor([1, 0]), y.view(2, 4))),
        "same_index": catch(lambda: lng.index_copy_(0, lng, t.tensor([5, 6]))),
        "leaf_first": catch(lambda: leaf(t, arr(2, 3, seed=3)).index_copy_(5, i0.float(), s)),
        "y": y, "lng": lng,
    }


# ======================================================================================
# inference mode


@prog
def slice_assignment_and_new_ops_under_inference_mode(t):
    z = t.zeros(3)
    with t.inference_mode():
        z[1:] = 5.0
        z.masked_fill_(t.tensor([True, False, False]), 2.0)
        z.index_copy_(0, t.tensor([2]), t.tensor([7.0]))
        w = t.zeros(2, 2)
        w[0] = 1.0
        c = t.cat([w, w])
    return {"z": z, "version": z._version, "w": w, "c": c, "c_inference": c.is_inference(),
            "w_inference": w.is_inference()}



# ======================================================================================
# masked_scatter


@prog
def masked_scatter_values_and_backward(t):
    a = leaf(t, arr(2, 3, seed=1))
    s = leaf(t, arr(7, seed=2))
    m = t.tensor([True, False, True])
    y = a.masked_scatter(m, s)
    y.backward(upstream(t, y))
    h = a.detach().clone()
    r = h.masked_scatter_(m, t.tensor(arr(2, 3, seed=3)).t())
    b = leaf(t, arr(3, seed=4))
    z = b.masked_scatter(t.tensor([[True, False, True], [False, True, False]]), s * 1)
    z.backward(upstream(t, z))
    return {"y": y, "meta": meta(y), "fn": fn_name(y.grad_fn), "saved": saved_values(y.grad_fn),
            "ga": dense(t, a), "gs": dense(t, s), "h": h, "same": r is h, "version": h._version,
            "z": z, "gb": dense(t, b), "t": meta(a.detach().t().masked_scatter(
                t.tensor([True, False]), s.detach())),
            "long": t.tensor([[0, 1, 2], [3, 4, 5]]).masked_scatter_(m, t.arange(6)),
            "empty": t.zeros(2, 3).masked_scatter_(t.zeros(3, dtype=t.bool), t.zeros(0))}


@prog
def masked_scatter_errors(t):
    x = t.tensor(arr(2, 3, seed=1))
    m = t.tensor([True, False, True])
    return {
        "few": catch(lambda: x.clone().masked_scatter_(m, t.tensor([1.0, 2, 3]))),
        "zero_dim_src": catch(lambda: x.clone().masked_scatter_(m, t.tensor(1.0))),
        "oop_few": catch(lambda: x.masked_scatter(m, t.tensor([1.0]))),
        "float_mask": catch(lambda: x.clone().masked_scatter_(m.float(), t.ones(6))),
        "dtype": catch(lambda: x.clone().masked_scatter_(m, t.ones(6, dtype=t.float64))),
        "mask_big": catch(lambda: x.clone().masked_scatter_(t.ones(4, 2, 3, dtype=t.bool),
                                                            t.ones(24))),
        "mask_mismatch": catch(lambda: x.clone().masked_scatter_(t.ones(2, dtype=t.bool),
                                                                 t.ones(6))),
        "oop_mismatch": catch(lambda: x.masked_scatter(t.ones(2, dtype=t.bool), t.ones(6))),
        "src_list": catch(lambda: x.clone().masked_scatter_(m, [1.0])),
        "src_num": catch(lambda: x.clone().masked_scatter_(m, 1.0)),
        "mask_list": catch(lambda: x.clone().masked_scatter_([True], t.ones(6))),
        "expanded": catch(lambda: t.zeros(1, 3).expand(2, 3).masked_scatter_(m, t.ones(6))),
        "saved_mask": _saved_mask_error(t),
    }


def _saved_mask_error(t):
    a = leaf(t, arr(3, seed=5))
    m = t.tensor([True, False, True])
    y = a.masked_scatter(m, t.ones(3))
    m.logical_not_()
    return backward_error(t, y)


# ======================================================================================
# index_select, index_add, index_fill


@prog
def index_select_values_and_backward(t):
    a = leaf(t, arr(3, 4, seed=1))
    outs = {}
    for d, idx in ((0, [2, 0, 2]), (1, [3, 1]), (-1, [0])):
        y = a.index_select(d, t.tensor(idx))
        y.backward(upstream(t, y))
        outs[d] = (y, meta(y), saved_values(y.grad_fn))
    x = t.tensor(arr(3, 4, seed=2))
    return {
        **{str(k): v for k, v in outs.items()}, "g": dense(t, a), "fn": fn_name(y.grad_fn),
        "zero_dim_index": x.index_select(1, t.tensor(2)), "int": x.index_select(0, t.tensor(
            [1], dtype=t.int32)), "t": (x.t().index_select(0, t.tensor([2, 0])),
                                       meta(x.t().index_select(0, t.tensor([2, 0])))),
        "empty": x.index_select(1, t.tensor([], dtype=t.int64)),
        "scalar": t.tensor(5.0).index_select(0, t.tensor(0)),
        "bool": x.gt(0).index_select(1, t.tensor([1, 1])),
        "fn_module": t.index_select(x, 0, t.tensor([1])),
    }


@prog
def index_select_errors(t):
    x = t.tensor(arr(2, 3, seed=1))
    return {
        "float": catch(lambda: x.index_select(1, t.tensor([0.0]))),
        "2d": catch(lambda: x.index_select(1, t.tensor([[0]]))),
        "oob_dim1": catch(lambda: x.index_select(1, t.tensor([3]))),
        "neg_dim1": catch(lambda: x.index_select(1, t.tensor([-1]))),
        "oob_dim0": catch(lambda: x.index_select(0, t.tensor([2]))),
        "oob_3d_last": catch(lambda: t.zeros(2, 3, 4).index_select(2, t.tensor([5]))),
        "oob_3d_mid": catch(lambda: t.zeros(2, 3, 4).index_select(1, t.tensor([0, 5]))),
        "oob_1d": catch(lambda: t.zeros(3).index_select(0, t.tensor([3]))),
        "scalar_many": catch(lambda: t.tensor(5.0).index_select(0, t.tensor([0, 0]))),
        "scalar_oob": catch(lambda: t.tensor(5.0).index_select(0, t.tensor([1]))),
        "dim": catch(lambda: x.index_select(2, t.tensor([0]))),
        "list": catch(lambda: x.index_select(1, [0])),
        "saved_index": _saved_index_select_error(t),
    }


def _saved_index_select_error(t):
    a = leaf(t, arr(3, seed=2))
    i = t.tensor([2, 0])
    y = a.index_select(0, i)
    i.add_(0)
    return backward_error(t, y)


@prog
def index_add_values_and_backward(t):
    a = leaf(t, arr(3, 4, seed=1))
    s = leaf(t, arr(2, 4, seed=2))
    h = a * 1
    h.index_add_(0, t.tensor([2, 2]), s, alpha=2.5)
    h.backward(upstream(t, h))
    y = a.index_add(1, t.tensor([3, 0]), s.t()[:3] * 1)
    x = t.tensor(arr(2, 3, seed=3))
    return {
        "h": h, "fn": fn_name(h.grad_fn), "saved": saved_values(h.grad_fn), "ga": dense(t, a),
        "gs": dense(t, s), "y": y, "meta_t": meta(x.t().index_add(0, t.tensor([1]),
                                                                 t.ones(1, 2))),
        "self_only": saved_values(a.index_add(0, t.tensor([0]), t.ones(1, 4)).grad_fn),
        "int_alpha": t.tensor([[1, 2], [3, 4]]).index_add_(0, t.tensor([1]),
                                                             t.tensor([[5, 5]]), alpha=1.5),
        "int_index": x.index_add(0, t.tensor([1], dtype=t.int32), t.ones(1, 3)),
        "bool": x.gt(0).index_add_(0, t.tensor([1]), t.ones(1, 3, dtype=t.bool)),
        "int8_wrap": t.tensor([100], dtype=t.int8).index_add_(0, t.tensor([0]),
                                                             t.tensor([100], dtype=t.int8)),
        "zero_dim": t.tensor(1.0).index_add_(0, t.tensor([0]), t.tensor(2.0)),
        "alpha_saved": a.index_add(0, t.tensor([0]), s[:1], alpha=3).grad_fn._saved_alpha,
        "fn_module": t.index_add(x, 1, t.tensor([0]), t.ones(2, 1), alpha=-1),
    }


@prog
def index_add_errors(t):
    x = t.tensor(arr(2, 3, seed=1))
    o = t.ones(1, 3)
    i1 = t.tensor([1])
    y = t.arange(8.0)
    return {
        "float": catch(lambda: x.clone().index_add_(0, t.tensor([1.0]), o)),
        "2d": catch(lambda: x.clone().index_add_(0, t.tensor([[1]]), o)),
        "oob": catch(lambda: x.clone().index_add_(0, t.tensor([2]), o)),
        "neg": catch(lambda: x.clone().index_add_(0, t.tensor([-1]), o)),
        "count": catch(lambda: x.clone().index_add_(0, t.tensor([1, 0]), o)),
        "slice": catch(lambda: x.clone().index_add_(0, i1, t.ones(1, 4))),
        "ndim": catch(lambda: x.clone().index_add_(0, i1, t.ones(3))),
        "dtype": catch(lambda: x.clone().index_add_(0, i1, o.double())),
        "zero_dim_src": catch(lambda: t.zeros(3).index_add_(0, i1, t.tensor(2.0))),
        "zero_dim_self": catch(lambda: t.tensor(1.0).index_add_(0, t.tensor([0]),
                                                               t.tensor([2.0]))),
        "scalar_src": catch(lambda: x.clone().index_add_(0, i1, 1.0)),
        "alpha_str": catch(lambda: x.clone().index_add_(0, i1, o, alpha="a")),
        "expanded": catch(lambda: t.zeros(1, 3).expand(2, 3).index_add_(0, i1, o)),
        "overlap": catch(lambda: y[:4].index_add_(0, t.tensor([0, 1]), y[1:3])),
        "dim_src": catch(lambda: t.zeros(2, 3).index_add_(1, t.tensor([0]), t.ones(3))),
        "y": y,
    }


@prog
def index_fill_values_and_backward(t):
    a = leaf(t, arr(3, 4, seed=1))
    h = a * 1
    h.index_fill_(1, t.tensor([0, -1]), -2.0)
    v = t.tensor(1.5, requires_grad=True)
    y = a.index_fill(0, t.tensor([2, 2]), v)
    (h.sum() + (y * y).sum()).backward()
    x = t.tensor(arr(2, 3, seed=2))
    return {
        "h": h, "fn": fn_name(h.grad_fn), "saved": saved_values(h.grad_fn), "y": y,
        "fn1": fn_name(y.grad_fn), "saved1": saved_values(y.grad_fn), "ga": dense(t, a),
        "gv": dense(t, v), "t": (x.t().index_fill(0, t.tensor([0]), 9.0),
                                 meta(x.t().index_fill(0, t.tensor([0]), 9.0))),
        "zero_dim_index": x.clone().index_fill_(1, t.tensor(1), 1.0),
        "zero_dim_self": t.tensor(1.0).index_fill_(0, t.tensor([0]), 5.0),
        "long": t.tensor([[1, 2], [3, 4]]).index_fill_(1, t.tensor([0]), 1.7),
        "tensor_value": x.clone().index_fill_(0, t.tensor([1]), t.tensor(-1.0)),
        "fn_module": t.index_fill(x, 1, t.tensor([2]), 0.0),
        "expanded": warned(lambda: t.zeros(1, 3).expand(2, 3).index_fill_(1, t.tensor([0]),
                                                                         1.0)),
    }


@prog
def index_fill_errors(t):
    x = t.tensor(arr(2, 3, seed=1))
    i = t.tensor([0])
    lng = t.tensor([0, 1, 2])
    return {
        "value_1d": catch(lambda: x.clone().index_fill_(1, i, t.tensor([1.0]))),
        "int_index": catch(lambda: x.clone().index_fill_(1, i.int(), 1.0)),
        "2d": catch(lambda: x.clone().index_fill_(1, t.tensor([[0]]), 1.0)),
        "oob": catch(lambda: x.clone().index_fill_(1, t.tensor([3]), 1.0)),
        "neg_oob": catch(lambda: x.clone().index_fill_(1, t.tensor([-4]), 1.0)),
        "int8": catch(lambda: t.tensor([[1]], dtype=t.int8).index_fill_(1, i, 300)),
        "str": catch(lambda: x.clone().index_fill_(1, i, "a")),
        "none": catch(lambda: x.clone().index_fill_(1, i, None)),
        "list_index": catch(lambda: x.clone().index_fill_(1, [0], 1.0)),
        "overlap": catch(lambda: lng.index_fill_(0, lng[:1], 5)),
        "dim": catch(lambda: x.clone().index_fill_(2, i, 1.0)),
        "leaf": catch(lambda: leaf(t, arr(3, seed=2)).index_fill_(0, i.int(), 1.0)),
    }


# ======================================================================================
# gather, scatter, scatter_add


@prog
def gather_values_and_backward(t):
    a = leaf(t, arr(3, 4, seed=1))
    idx = t.tensor([[0, 1, 2, 0], [2, 2, 1, 0]])
    y = a.gather(0, idx)
    y.backward(upstream(t, y))
    z = a.gather(-1, t.tensor([[3], [0], [3]]))
    x = t.tensor(arr(2, 3, seed=2))
    return {
        "y": y, "meta": meta(y), "fn": fn_name(y.grad_fn), "saved": saved_values(y.grad_fn),
        "g": dense(t, a), "z": z, "z_saved": saved_values(z.grad_fn),
        "small": x.gather(1, t.tensor([[2], [0]])), "wide": x.gather(1, t.tensor([[2, 0, 1, 1]])),
        "int": x.gather(1, t.tensor([[1, 0]], dtype=t.int32)),
        "zero_dim": t.tensor(5.0).gather(0, t.tensor(0)),
        "zero_dim_many": t.tensor(5.0).gather(0, t.tensor([0, 0])),
        "vector_0d_index": t.arange(3.0).gather(0, t.tensor(2)),
        "t": (x.t().gather(0, t.tensor([[1, 0], [0, 1]])),
              meta(x.t().gather(0, t.tensor([[1, 0], [0, 1]])))),
        "empty": x.gather(1, t.zeros(2, 0, dtype=t.int64)),
        "fn_module": t.gather(x, 0, t.tensor([[1, 0, 1]])),
    }


@prog
def gather_saves_self_and_index(t):
    a = leaf(t, arr(2, 3, seed=1))
    h = a * 1
    i = t.tensor([[0, 2]])
    y = h.gather(1, i)
    h.mul_(2)
    err_self = backward_error(t, y)
    j = t.tensor([[0, 2]])
    z = a.gather(1, j)
    j[0, 0] = 1
    return {"self": err_self, "index": backward_error(t, z)}


@prog
def gather_errors(t):
    x = t.tensor(arr(2, 3, seed=1))
    return {
        "float": catch(lambda: x.gather(1, t.tensor([[0.0]]))),
        "ndim": catch(lambda: x.gather(1, t.tensor([0]))),
        "size": catch(lambda: x.gather(1, t.tensor([[2], [0], [1]]))),
        "oob": catch(lambda: x.gather(1, t.tensor([[3]]))),
        "neg": catch(lambda: x.gather(1, t.tensor([[-1]]))),
        "dim": catch(lambda: x.gather(2, t.tensor([[0]]))),
        "list": catch(lambda: x.gather(1, [[0]])),
    }


@prog
def scatter_values_and_backward(t):
    a = leaf(t, arr(3, 4, seed=1))
    s = leaf(t, arr(2, 4, seed=2))
    idx = t.tensor([[0, 1, 2, 0], [2, 2, 1, 1]])
    h = a * 1
    r = h.scatter_(0, idx, s)
    y = a.scatter(1, t.tensor([[3], [0], [1]]), -1.0)
    (h * h).sum().backward(retain_graph=True)
    y.backward(upstream(t, y))
    x = t.tensor(arr(2, 3, seed=3))
    return {
        "h": h, "same": r is h, "version": h._version, "fn": fn_name(h.grad_fn),
        "saved": saved_values(h.grad_fn), "y": y, "fn1": fn_name(y.grad_fn),
        "saved1": saved_values(y.grad_fn), "ga": dense(t, a), "gs": dense(t, s),
        "value_kw": x.clone().scatter_(1, t.tensor([[2], [0]]), value=7.0),
        "src_kw": x.clone().scatter_(1, t.tensor([[2], [0]]), src=t.ones(2, 1)),
        "src_bigger": x.clone().scatter_(1, t.tensor([[2], [0]]), t.tensor(arr(2, 5, seed=4))),
        "dup": x.clone().scatter_(1, t.tensor([[1, 1]]), t.tensor([[5.0, 6.0]])),
        "wide": x.clone().scatter_(1, t.tensor([[2, 0, 1, 1]]), t.tensor(arr(1, 4, seed=5))),
        "long_float": t.tensor([[1, 2, 3]]).scatter_(1, t.tensor([[1]]), 1.7),
        "t": (x.t().scatter(0, t.tensor([[1]]), 7.0), meta(x.t().scatter(0, t.tensor([[1]]),
                                                                            7.0))),
        "zero_dim": t.tensor(1.0).scatter_(0, t.tensor(0), 5.0),
        "empty": x.clone().scatter_(1, t.zeros(2, 0, dtype=t.int64), 1.0),
        "int_index": x.clone().scatter_(1, t.tensor([[2, 1]], dtype=t.int32), 0.5),
        "fn_module": t.scatter(x, 0, t.tensor([[1, 0, 1]]), t.ones(1, 3)),
    }


@prog
def scatter_errors(t):
    x = t.tensor(arr(2, 3, seed=1))
    i = t.tensor([[1]])
    y = t.arange(8.0)
    lng = t.tensor([0, 1, 2, 3])
    return {
        "float": catch(lambda: x.clone().scatter_(1, t.tensor([[1.0]]), 1.0)),
        "oob": catch(lambda: x.clone().scatter_(1, t.tensor([[3]]), 1.0)),
        "oob_src": catch(lambda: x.clone().scatter_(1, t.tensor([[0, 3]]), t.ones(1, 2))),
        "neg": catch(lambda: x.clone().scatter_(1, t.tensor([[-1]]), 1.0)),
        "ndim": catch(lambda: x.clone().scatter_(1, t.tensor([1]), 1.0)),
        "ndim_src": catch(lambda: x.clone().scatter_(1, i, t.ones(1))),
        "zero_dim_src": catch(lambda: x.clone().scatter_(1, i, t.tensor(5.0))),
        "dtype": catch(lambda: x.clone().scatter_(1, i, t.ones(1, 1, dtype=t.float64))),
        "src_small": catch(lambda: x.clone().scatter_(1, t.tensor([[2, 1], [0, 1]]),
                                                      t.ones(2, 1))),
        "self_small": catch(lambda: x.clone().scatter_(1, t.tensor([[2], [0], [1]]),
                                                       t.ones(3, 1))),
        "value_small": catch(lambda: x.clone().scatter_(1, t.tensor([[2], [0], [1]]), 1.0)),
        "int8": catch(lambda: t.tensor([[1]], dtype=t.int8).scatter_(1, t.tensor([[0]]), 300)),
        "str": catch(lambda: x.clone().scatter_(1, i, "a")),
        "none": catch(lambda: x.clone().scatter_(1, i, None)),
        "expanded": catch(lambda: t.zeros(1, 3).expand(2, 3).scatter_(0, t.tensor([[0, 1, 0]]),
                                                                      1.0)),
        "overlap": catch(lambda: y[:4].scatter_(0, t.tensor([0, 1]), y[1:3])),
        "same_index": catch(lambda: lng.scatter_(0, lng, 5)),
        "not_dense_overlap": y.view(2, 4)[:, :2].scatter_(1, t.tensor([[0, 1]]),
                                                          y.view(2, 4)[:, 1:3]),
        "leaf": catch(lambda: leaf(t, arr(3, seed=2)).scatter_(0, t.tensor([9]), 1.0)),
    }


@prog
def scatter_add_values_and_backward(t):
    a = leaf(t, arr(3, 4, seed=1))
    s = leaf(t, arr(2, 4, seed=2))
    idx = t.tensor([[0, 1, 2, 0], [0, 2, 2, 1]])
    h = a * 1
    h.scatter_add_(0, idx, s)
    y = a.scatter_add(1, t.tensor([[3, 3], [0, 0], [1, 2]]), s.t()[:3, :2] * 1)
    (h * h).sum().backward(retain_graph=True)
    y.backward(upstream(t, y))
    x = t.tensor(arr(2, 3, seed=3))
    return {
        "h": h, "fn": fn_name(h.grad_fn), "saved": saved_values(h.grad_fn), "y": y,
        "ga": dense(t, a), "gs": dense(t, s), "t": meta(x.t().scatter_add(
            0, t.tensor([[1]]), t.ones(1, 1))),
        "self_only": saved_values(a.scatter_add(0, idx, s.detach()).grad_fn),
        "bool": x.gt(0).scatter_add_(1, t.tensor([[1]]), t.ones(1, 1, dtype=t.bool)),
        "long": t.tensor([[1, 2, 3]]).scatter_add_(1, t.tensor([[0, 0]]), t.tensor([[4, 5]])),
        "fn_module": t.scatter_add(x, 0, t.tensor([[1, 1, 0]]), t.ones(1, 3)),
    }


@prog
def scatter_add_errors(t):
    x = t.tensor(arr(2, 3, seed=1))
    return {
        "value": catch(lambda: x.clone().scatter_add_(1, t.tensor([[1]]), 2.0)),
        "oob": catch(lambda: x.clone().scatter_add_(1, t.tensor([[3]]), t.ones(1, 1))),
        "float": catch(lambda: x.clone().scatter_add_(1, t.tensor([[1.0]]), t.ones(1, 1))),
        "dtype": catch(lambda: x.clone().scatter_add_(1, t.tensor([[1]]),
                                                      t.ones(1, 1, dtype=t.float64))),
        "size": catch(lambda: x.clone().scatter_add_(1, t.tensor([[2], [0], [1]]),
                                                     t.ones(3, 1))),
        "src_small": catch(lambda: x.clone().scatter_add_(1, t.tensor([[2, 1]]), t.ones(1, 1))),
        "list": catch(lambda: x.clone().scatter_add_(1, t.tensor([[1]]), [1.0])),
        "saved_index": _saved_scatter_add_error(t),
    }


def _saved_scatter_add_error(t):
    s = leaf(t, arr(1, 2, seed=2))
    i = t.tensor([[0, 2]])
    y = t.zeros(2, 3).scatter_add(1, i, s)
    i.zero_()
    return backward_error(t, y)



@prog
def writes_whose_source_is_self(t):
    """masked_scatter_ reads its source while it writes (a source that is self sees earlier
    writes); the index ops refuse a source that is the same tensor object, or a dense view
    of the same cells, but let a non-dense alias through (PyTorch's "too hard" case)."""
    x = t.tensor(arr(3, 4, seed=1))
    x.masked_scatter_(x > 0, x)
    y = t.tensor(arr(3, 4, seed=2))
    y.masked_scatter_(y > 0, y.expand_as(y))
    v = t.tensor(arr(3, 4, seed=3)).narrow(1, 2, 1)
    w = t.tensor(arr(4, 2, seed=4))
    n5 = t.tensor(arr(3, 4, seed=5)).narrow(1, 2, 1)
    n6 = t.tensor(arr(3, 4, seed=6)).narrow(1, 2, 1)
    return {
        "x": x, "y": y,
        "narrow_alias": v.index_copy_(0, t.tensor([2, 0, 1]), v.expand_as(v)),
        "same_object": catch(lambda: w.index_copy_(0, t.tensor([1, 0, 3, 2]), w)),
        "dense_alias": catch(lambda: w.index_copy_(0, t.tensor([1, 0, 3, 2]), w.view(4, 2))),
        "scatter_same": catch(lambda: w.scatter_(0, t.tensor([[1, 0]]), w)),
        "index_add_alias": v.index_add_(0, t.tensor([2, 0, 1]), v.view(3, 1)),
        "scatter_alias": n5.scatter_(0, t.tensor([[2], [0], [1]]), n5.expand(3, 1)),
        "scatter_add_alias": n6.scatter_add_(0, t.tensor([[2], [0], [2]]), n6.expand(3, 1)),
        "empty": t.zeros(0, 2).index_copy_(0, t.tensor([], dtype=t.int64), t.zeros(0, 2)),
    }



@prog
def scatter_with_reduce(t):
    """reduce="add" / "multiply": repeated targets combine; PyTorch records its NotImplemented
    node (one edge, to self) and backward raises."""
    x = t.tensor(arr(2, 3, seed=1))
    i = t.tensor([[1, 1, 0]])
    a = leaf(t, arr(2, 3, seed=2))
    h = a * 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch warns once per process for a Tensor src
        add = x.clone().scatter_(1, i, t.tensor(arr(1, 3, seed=3)), reduce="add")
        r = h.scatter_(1, i, t.ones(1, 3), reduce="add")
    y = a.scatter(1, i, 2.0, reduce="multiply")
    return {
        "add": add, "mul": x.clone().scatter_(1, i, 3.0, reduce="multiply"),
        "long": t.tensor([[1, 2, 3]]).scatter_(1, t.tensor([[0, 0]]), 3, reduce="multiply"),
        "oop": y, "fn": fn_name(y.grad_fn),
        "next": [fn_name(f) for f, _ in y.grad_fn.next_functions],
        "h_fn": fn_name(h.grad_fn), "same": r is h, "version": h._version,
        "h_next": [fn_name(f) for f, _ in h.grad_fn.next_functions],
        "bw": backward_error(t, y), "bw_": backward_error(t, h),
        "bad": catch(lambda: x.clone().scatter_(1, t.tensor([[5]]), 2.0, reduce="max")),
        "bad_dtype": catch(lambda: x.clone().scatter_(1, i, t.ones(1, 3, dtype=t.int64),
                                                      reduce="max")),
    }


@pytest.mark.parametrize("prog", prog.params())
def test_join_index_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
