"""torch.cross / torch.linalg.cross, torch.diff, torch.take_along_dim, and out= of torch.outer
and torch.masked_select, against torch 2.13.

cross: LinalgCrossBackward0 saves self when other needs a gradient and other when self does
(and dim, as typed); broadcasting of the batch dims; the checks of linalg_cross's meta
function, then its kernel's dtype errors. diff and take_along_dim are PyTorch composites: the
graph is theirs (SubBackward0 over SliceBackward0, CatBackward0; GatherBackward0 over
ExpandBackward0 or ViewBackward0), and their out= forms speak sub's and gather's words.
outer's out= is mul's out= form; masked_select's has its own checks (any cell shared with an
input is refused, even all of them) and writes out in out's own strides.
torch.cross's "without dim" warning comes once per process in PyTorch (TORCH_WARN_ONCE): it is
checked in fresh processes (test_cross_without_dim_warns_once).
"""

import json
import subprocess
import sys

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, graph, leaf, meta, upstream

pytestmark = [pytest.mark.parity,
              pytest.mark.filterwarnings("ignore:Using torch.cross without"),
              pytest.mark.filterwarnings("ignore:An output with one or more elements")]

prog = Registry()


# --------------------------------------------------------------------------- cross
def _cross_program(name, a_shape, b_shape, grads=(True, True), call="linalg", **kw):
    def program(t):
        a = t.tensor(arr(*a_shape, seed=1), requires_grad=grads[0])
        b = t.tensor(arr(*b_shape, seed=2), requires_grad=grads[1])
        if call == "linalg":
            y = t.linalg.cross(a, b, **kw)
        elif call == "method":
            y = a.cross(b, **kw)
        else:
            y = t.cross(a, b, **kw)
        fn = y.grad_fn
        saved = {n: (meta(getattr(fn, n)) if hasattr(fn, n) else "absent")
                 for n in ("_saved_self", "_saved_other")}
        obs = {"y": y, "meta": meta(y), "grad_fn": fn_name(fn), "dim": fn._saved_dim,
               "saved": saved}
        y.backward(upstream(t, y))
        return {**obs, "a.grad": a.grad, "b.grad": b.grad}
    program.__name__ = name
    prog(program)


_cross_program("linalg_cross_last_dim", (4, 3), (4, 3))
_cross_program("linalg_cross_dim0", (3, 5), (3, 5), dim=0)
_cross_program("linalg_cross_dim_negative", (2, 3, 4), (2, 3, 4), dim=-2)
_cross_program("linalg_cross_broadcast", (2, 1, 3), (1, 4, 3))
_cross_program("linalg_cross_only_self_grad", (4, 3), (4, 3), grads=(True, False))
_cross_program("linalg_cross_only_other_grad", (4, 3), (1, 3), grads=(False, True))
_cross_program("linalg_cross_vectors", (3,), (3,))
_cross_program("torch_cross_dim_given", (3, 3), (3, 3), call="torch", dim=1)
_cross_program("torch_cross_default_dim", (2, 3, 3), (2, 3, 3), call="torch")
_cross_program("method_cross_default_dim", (4, 3), (4, 3), call="method")
_cross_program("method_cross_dim", (3, 2), (3, 2), call="method", dim=0)


@prog
def cross_layouts_and_dtypes(t):
    a = t.tensor(arr(3, 4, seed=3)).t()  # (4, 3), column-major
    b = t.tensor(arr(4, 3, seed=4))
    ints = t.tensor([[1, 2, 3], [100, -7, 50]], dtype=t.int8)
    out = {"transposed": (t.linalg.cross(a, b), meta(t.linalg.cross(a, b))),
           "permuted": meta(t.linalg.cross(t.tensor(arr(2, 3, 4, seed=5)).permute(2, 0, 1),
                                            t.tensor(arr(4, 2, 3, seed=6)), dim=2)),
           "int8_wraps": t.linalg.cross(ints, ints.flip(0)),
           "long": t.cross(ints.long(), ints.long().flip(0), dim=1),
           "double": t.linalg.cross(a.double(), b.double()),
           "half": t.linalg.cross(a.half(), b.half()),
           "empty_batch": t.linalg.cross(t.zeros(0, 3), t.zeros(0, 3)).shape}
    return out


@prog
def cross_saved_tensors_guard_backward(t):
    h = t.tensor(arr(2, 3, seed=7), requires_grad=True) * 1
    k = t.tensor(arr(2, 3, seed=8), requires_grad=True) * 1
    y = t.linalg.cross(h, k)
    with t.no_grad():
        k.mul_(2)
    return {"backward": catch(lambda: y.sum().backward())}


@prog
def cross_errors(t):
    R = lambda *s: t.tensor(arr(*s, seed=9))  # noqa: E731
    calls = {
        "ranks": lambda: t.linalg.cross(R(3), R(2, 3)),
        "ranks_torch": lambda: t.cross(R(2, 3), R(3)),
        "length": lambda: t.linalg.cross(R(2, 4), R(2, 4)),
        "length_other": lambda: t.linalg.cross(R(2, 3), R(2, 1)),
        "length_dim0": lambda: t.cross(R(2, 3), R(2, 3), dim=0),
        "length_default_dim": lambda: t.cross(R(1, 3), R(3, 1)),
        "broadcast": lambda: t.linalg.cross(R(2, 3), R(4, 3)),
        "dim_out_of_range": lambda: t.cross(R(2, 3), R(2, 3), dim=5),
        "dim_negative_out_of_range": lambda: t.linalg.cross(R(2, 3), R(2, 3), dim=-3),
        "no_size_3": lambda: t.cross(R(2, 2), R(2, 2)),
        "scalars_linalg": lambda: t.linalg.cross(t.tensor(1.0), t.tensor(1.0)),
        "scalars_torch": lambda: t.cross(t.tensor(1.0), t.tensor(1.0)),
        "scalars_dim": lambda: t.linalg.cross(t.tensor(1.0), t.tensor(1.0), dim=3),
        "dtypes": lambda: t.linalg.cross(R(2, 3), R(2, 3).double()),
        "dtypes_long": lambda: t.linalg.cross(R(2, 3), R(2, 3).long()),
        "bool": lambda: t.linalg.cross(t.ones(2, 3).bool(), t.ones(2, 3).bool()),
        "other_int": lambda: t.linalg.cross(R(2, 3), 1),
        "other_none": lambda: t.cross(R(2, 3), None),
        "method_other_none": lambda: R(2, 3).cross(None),
        "method_dim_str": lambda: R(2, 3).cross(R(2, 3), "a"),
        "linalg_dim_float": lambda: t.linalg.cross(R(2, 3), R(2, 3), dim=1.0),
        "linalg_dim_positional": lambda: t.linalg.cross(R(2, 3), R(2, 3), 1),
        "torch_too_many": lambda: t.cross(R(2, 3), R(2, 3), 1, 2),
    }
    return {name: catch(fn) for name, fn in calls.items()}


@prog
def cross_out(t):
    a, b = t.tensor(arr(2, 3, seed=10)), t.tensor(arr(2, 3, seed=11))
    o = t.zeros(2, 3)
    r = t.linalg.cross(a, b, out=o)
    column_major = t.zeros(3, 2).t()
    t.linalg.cross(a, b, out=column_major)
    grown = t.zeros(3)
    t.cross(a, b, 1, out=grown)
    w = t.tensor(arr(2, 3, seed=12), requires_grad=True)
    calls = {
        "dtype": lambda: t.linalg.cross(a, b, out=t.zeros(2, 3).double()),
        "dtype_and_length": lambda: t.linalg.cross(a, b[:, :2], out=t.zeros(2, 2).double()),
        "grad": lambda: t.linalg.cross(w, b, out=t.zeros(2, 3)),
        "grad_torch": lambda: t.cross(w, b, 1, out=t.zeros(2, 3)),
        "alias_self": lambda: t.linalg.cross(a, b, out=a),
        "alias_other_view": lambda: t.linalg.cross(a, b, out=b.view(3, 2)),
        "not_tensor": lambda: t.linalg.cross(a, b, out=1),
        "no_size_3": lambda: t.cross(a[:, :2], b[:, :2], out=t.zeros(2, 2)),
    }
    return {"r_is_o": r is o, "o": o, "v": o._version, "column_major": meta(column_major),
            "grown": (grown, meta(grown)), "a": a, "b": b,
            **{name: catch(fn) for name, fn in calls.items()}}


# --------------------------------------------------------------------------- diff
def _diff_program(name, shape, *args, prepend=None, append=None, dtype=np.float32, **kw):
    def program(t):
        x = t.tensor(arr(*shape, seed=13, dtype=dtype), requires_grad=dtype == np.float32)
        extra = {}
        if prepend is not None:
            extra["prepend"] = leaf(t, arr(*prepend, seed=14))
        if append is not None:
            extra["append"] = leaf(t, arr(*append, seed=15))
        y = t.diff(x, *args, **extra, **kw)
        obs = {"y": y, "meta": meta(y), "graph": graph(y.grad_fn)}
        if y.requires_grad:
            y.backward(upstream(t, y))
            obs["grads"] = [x.grad, *(v.grad for v in extra.values())]
        return obs
    program.__name__ = name
    prog(program)


_diff_program("diff_last_dim", (3, 5))
_diff_program("diff_dim0_twice", (4, 3), 2, 0)
_diff_program("diff_n_zero", (3, 4), 0)
_diff_program("diff_n_beyond_size", (3, 4), 7)
_diff_program("diff_n_equal_size", (2, 3), 3)
_diff_program("diff_prepend", (3, 4), prepend=(3, 2))
_diff_program("diff_append_dim0", (3, 4), 1, 0, append=(1, 4))
_diff_program("diff_prepend_append_n2", (2, 3), 2, prepend=(2, 1), append=(2, 2))
_diff_program("diff_1d", (6,), 3)
_diff_program("diff_int", (3, 4), dtype=np.int64)
_diff_program("diff_double", (3, 4), 1, -2, dtype=np.float64)


@prog
def diff_dtypes_and_layouts(t):
    b = t.tensor([[True, False, False, True], [False, False, True, True]])
    x = t.tensor(arr(4, 3, seed=16))
    u8 = t.tensor([1, 5, 2, 200], dtype=t.uint8)
    return {"bool": t.diff(b), "bool_n2": t.diff(b, 2), "uint8_wraps": t.diff(u8),
            "int8": t.diff(u8.to(t.int8)), "transposed": meta(t.diff(x.t())),
            "transposed_values": t.diff(x.t(), dim=0),
            "prepend_long": t.diff(x, prepend=t.zeros(4, 1, dtype=t.long)),
            "method_keywords": x.diff(n=1, dim=0, prepend=None, append=None),
            "empty": t.diff(t.zeros(3, 0)).shape, "n0_bad_dim": t.diff(x, 0, 5).shape}


@prog
def diff_errors(t):
    x = t.tensor(arr(3, 4, seed=17))
    calls = {
        "scalar": lambda: t.diff(t.tensor(1.0)),
        "negative_n": lambda: t.diff(x, -1),
        "dim": lambda: t.diff(x, 1, 2),
        "prepend_rank": lambda: t.diff(x, prepend=t.zeros(3)),
        "prepend_shape": lambda: t.diff(x, prepend=t.zeros(2, 1)),
        "append_shape_dim0": lambda: t.diff(x, dim=0, append=t.zeros(2, 3)),
        "prepend_bad_dim": lambda: t.diff(x, 1, 4, t.zeros(3, 1)),
        "n_float": lambda: t.diff(x, 1.0),
        "dim_str": lambda: t.diff(x, 1, "a"),
        "prepend_number": lambda: t.diff(x, prepend=1),
        "prepend_positional_number": lambda: t.diff(x, 1, -1, 1),
        "method_n_float": lambda: x.diff(1.5),
        "method_append_list": lambda: x.diff(append=[1.0]),
        "input_list": lambda: t.diff([1.0, 2.0]),
    }
    return {name: catch(fn) for name, fn in calls.items()}


@prog
def diff_out(t):
    x = t.tensor(arr(3, 4, seed=18))
    o = t.zeros(3, 3)
    r = t.diff(x, out=o)
    n0 = t.zeros(2)
    t.diff(x, n=0, out=n0)
    two = t.zeros(1, 4)
    t.diff(x, 2, 0, out=two)
    prepended = t.empty(0)
    t.diff(x, prepend=x[:, :1], out=prepended)
    booleans = t.zeros(1)
    t.diff(t.tensor([True, False]), out=booleans)
    w = t.tensor(arr(3, 4, seed=19), requires_grad=True)
    n0_grad = t.zeros(3, 4)
    t.diff(w, n=0, out=n0_grad)
    calls = {
        "grad": lambda: t.diff(w, out=t.zeros(3, 3)),
        "dtype": lambda: t.diff(x, out=t.zeros(3, 3, dtype=t.long)),
        "dtype_n0": lambda: t.diff(x, n=0, out=t.zeros(3, 4, dtype=t.double)),
        "not_tensor": lambda: t.diff(x, out="a"),
        "scalar": lambda: t.diff(t.tensor(1.0), out=t.zeros(1)),
    }
    return {"r_is_o": r is o, "o": o, "v": o._version, "n0": n0, "two": two,
            "prepended": prepended, "booleans": booleans,
            "n0_grad": (n0_grad, n0_grad.requires_grad, fn_name(n0_grad.grad_fn)),
            **{name: catch(fn) for name, fn in calls.items()}}


# --------------------------------------------------------------------------- take_along_dim
def _take_program(name, shape, index, *args, **kw):
    def program(t):
        x = t.tensor(arr(*shape, seed=20), requires_grad=True)
        y = t.take_along_dim(x, t.tensor(index), *args, **kw)
        fn = y.grad_fn
        obs = {"y": y, "meta": meta(y), "graph": graph(fn), "dim": fn._saved_dim,
               "saved_self": meta(fn._saved_self), "saved_index": meta(fn._saved_index)}
        y.backward(upstream(t, y))
        return {**obs, "x.grad": x.grad}
    program.__name__ = name
    prog(program)


_take_program("take_along_dim_rows", (3, 4), [[0], [2], [3]], 1)
_take_program("take_along_dim_repeats", (3, 4), [[0, 0, 3], [1, 1, 1], [2, 3, 0]], 1)
_take_program("take_along_dim_dim0_broadcast_index", (3, 4), [[2, 0, 1, 1]], 0)
_take_program("take_along_dim_broadcast_self", (1, 4), [[0], [1], [3]], 1)
_take_program("take_along_dim_negative_dim", (2, 3, 4), [[[1], [0], [3]]], -1)
_take_program("take_along_dim_flat", (3, 4), [5, 0, 11, 5])
_take_program("take_along_dim_flat_2d_index", (3, 4), [[1, 2], [3, 3]])
_take_program("take_along_dim_keyword", (3, 4), [[1], [0], [2]], dim=1)


@prog
def take_along_dim_like_argsort(t):
    x = t.tensor(arr(4, 5, seed=21))
    order = x.argsort(dim=1)
    top = x.argmax(dim=0, keepdim=True)
    return {"sorted": t.take_along_dim(x, order, dim=1), "max_rows": t.take_along_dim(x, top, 0),
            "method": x.take_along_dim(order, 1), "method_none": x.take_along_dim(order[:1], None),
            "empty": t.take_along_dim(x, t.zeros(4, 0, dtype=t.long), 1).shape,
            "scalar_flat": t.take_along_dim(t.tensor(3.0), t.tensor(0)),
            "int_self": t.take_along_dim(t.tensor([[1, 2], [3, 4]]), t.tensor([[1], [0]]), 1)}


@prog
def take_along_dim_errors(t):
    x = t.tensor(arr(3, 4, seed=22))
    calls = {
        "ranks": lambda: t.take_along_dim(x, t.tensor([1]), 0),
        "float_index": lambda: t.take_along_dim(x, t.tensor([[1.0]]), 0),
        "int32_index": lambda: t.take_along_dim(x, t.tensor([[1]], dtype=t.int32), 0),
        "dim": lambda: t.take_along_dim(x, t.tensor([[1]]), 2),
        "broadcast": lambda: t.take_along_dim(x, t.tensor([[1], [2]]), 1),
        "flat_out_of_range": lambda: t.take_along_dim(x, t.tensor([12])),
        "flat_negative": lambda: t.take_along_dim(x, t.tensor([-1])),
        "flat_transposed_self": lambda: t.take_along_dim(x.t(), t.tensor([1])),
        "flat_transposed_index": lambda: t.take_along_dim(x, t.tensor([[1, 2], [3, 4]]).t()),
        "index_none": lambda: t.take_along_dim(x, None),
        "dim_float": lambda: t.take_along_dim(x, t.tensor([[1]]), 1.0),
        "scalar_dim": lambda: t.take_along_dim(t.tensor(3.0), t.tensor(0), 0),
        "scalar_dim_out_of_range": lambda: t.take_along_dim(t.tensor(3.0), t.tensor(0), 2),
        "method_index_list": lambda: x.take_along_dim([[1]], 0),
        "input_list": lambda: t.take_along_dim([1.0], t.tensor([0])),
    }
    return {name: catch(fn) for name, fn in calls.items()}


@prog
def take_along_dim_out(t):
    x = t.tensor(arr(3, 4, seed=23))
    i = t.tensor([[0], [2], [3]])
    o = t.zeros(3, 1)
    r = t.take_along_dim(x, i, 1, out=o)
    grown = t.zeros(5)
    t.take_along_dim(x, i, 1, out=grown)
    flat = t.zeros(2)
    t.take_along_dim(x, t.tensor([1, 7]), out=flat)
    w = t.tensor(arr(3, 4, seed=24), requires_grad=True)
    calls = {"grad": lambda: t.take_along_dim(w, i, 1, out=t.zeros(3, 1)),
             "dtype": lambda: t.take_along_dim(x, i, 1, out=t.zeros(3, 1).double()),
             "not_tensor": lambda: t.take_along_dim(x, i, 1, out=[1.0]),
             "alias": lambda: t.take_along_dim(x, i, 1, out=x[:, :1])}
    return {"r_is_o": r is o, "o": o, "v": o._version, "grown": grown, "flat": flat,
            **{name: catch(fn) for name, fn in calls.items()}}


@prog
def take_along_dim_saved_indices_versions(t):
    # with a dim the node keeps a copy of the (broadcast) indices, without one a view
    x = t.tensor(arr(3, 4, seed=31), requires_grad=True)
    i = t.tensor([[1], [0], [2]])
    y = t.take_along_dim(x, i, 1)
    flat_i = t.tensor([5, 0])
    z = t.take_along_dim(x, flat_i)
    i.add_(1)
    flat_i.add_(1)
    return {"with_dim": catch(lambda: y.sum().backward()), "grad": x.grad,
            "flat": catch(lambda: z.sum().backward())}


# --------------------------------------------------------------------------- outer out=
@prog
def outer_out(t):
    v, u = t.tensor(arr(3, seed=25)), t.tensor(arr(2, seed=26))
    o = t.zeros(3, 2)
    r = t.outer(v, u, out=o)
    transposed = t.zeros(2, 3).t()
    t.outer(v, u, out=transposed)
    grown = t.zeros(2, 3)
    t.ger(v, u, out=grown)
    doubled = t.zeros(3, 2, dtype=t.float64)
    t.outer(v, u, out=doubled)
    ints = t.zeros(3, 3)
    t.outer(t.tensor([1, -2, 3]), t.tensor([1, -2, 3]), out=ints)
    w = t.tensor(arr(3, seed=27), requires_grad=True)
    calls = {"grad": lambda: t.outer(w, u, out=t.zeros(3, 2)),
             "grad_ger": lambda: t.ger(w, u, out=t.zeros(3, 2)),
             "long_out": lambda: t.outer(v, u, out=t.zeros(3, 2, dtype=t.long)),
             "alias": lambda: t.outer(v, v, out=v),
             "matrix": lambda: t.outer(v.view(3, 1), u, out=o),
             "vec2_int": lambda: t.outer(v, 1, out=o),
             "not_tensor": lambda: t.outer(v, u, out=1),
             "method_extra": lambda: v.outer(u, u),
             "method_ger_extra": lambda: v.ger(u, u)}
    return {"r_is_o": r is o, "o": o, "v": o._version, "transposed": meta(transposed),
            "grown": (grown, meta(grown)), "doubled": doubled, "ints": ints,
            **{name: catch(fn) for name, fn in calls.items()}}


# --------------------------------------------------------------------------- masked_select out=
@prog
def masked_select_out(t):
    x = t.tensor(arr(2, 3, seed=28))
    mask = x > 0
    o = t.zeros(int(mask.sum()))
    r = t.masked_select(x, mask, out=o)
    strided = t.zeros(2 * int(mask.sum()))[::2]
    t.masked_select(x, mask, out=strided)
    grown = t.zeros(1)
    t.masked_select(x, mask, out=grown)
    matrix = t.zeros(3, 3)
    t.masked_select(x, mask, out=matrix)
    nothing = t.zeros(2, 2)
    t.masked_select(x, x > 5, out=nothing)
    broadcast = t.empty(0)
    t.masked_select(x[0], t.tensor([[True], [False], [True]]), out=broadcast)
    return {"r_is_o": r is o, "o": o, "v": o._version, "strided": (strided, meta(strided)),
            "grown": (grown, meta(grown)), "matrix": matrix, "nothing": (nothing, meta(nothing),
                                                                          nothing._version),
            "broadcast": broadcast}


@prog
def masked_select_out_errors(t):
    x = t.tensor(arr(2, 3, seed=29))
    mask = x > 0
    w = t.tensor(arr(2, 3, seed=30), requires_grad=True)
    o = t.zeros(6)
    calls = {
        "grad": lambda: t.masked_select(w, mask, out=t.zeros(3)),
        "float_mask": lambda: t.masked_select(x, x, out=t.zeros(3)),
        "float_mask_and_dtype": lambda: t.masked_select(x, x, out=t.zeros(3).double()),
        "dtype": lambda: t.masked_select(x, mask, out=t.zeros(3).double()),
        "long": lambda: t.masked_select(x, mask, out=t.zeros(3, dtype=t.long)),
        "alias_self": lambda: t.masked_select(x, mask, out=x),
        "alias_self_view": lambda: t.masked_select(x, mask, out=x.view(-1)[2:]),
        "internal_overlap": lambda: t.masked_select(x, mask, out=t.zeros(1).expand(6)),
        "broadcast": lambda: t.masked_select(x, t.ones(3, 3, dtype=t.bool), out=o),
        "not_tensor": lambda: t.masked_select(x, mask, out=1),
        "mask_none": lambda: t.masked_select(x, None),
        "mask_none_out": lambda: t.masked_select(x, None, out=o),
        "method_extra": lambda: x.masked_select(mask, mask),
        "method_none": lambda: x.masked_select(None),
        "function_extra": lambda: t.masked_select(x, mask, mask),
    }
    return {**{name: catch(fn) for name, fn in calls.items()}, "o": o, "x": x,
            "versions": [o._version, x._version]}


@pytest.mark.parametrize("program", prog.params())
def test_cross_diff_take_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


_WARN_SCRIPT = """
import json, sys, warnings
import numpy as np
if sys.argv[1] == "torch":
    import torch as t
else:
    import inplace_tutorial as t
a = t.tensor(np.ones((2, 3), dtype=np.float32))
seen = []
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for call in (lambda: t.cross(a, a, dim=1), lambda: t.cross(a, a, out=t.zeros(2, 3)),
                 lambda: a.cross(a), lambda: t.cross(a, a), lambda: t.linalg.cross(a, a)):
        call()
        seen.append([str(w.message).split(" (Triggered internally")[0] for w in caught
                     if w.category is UserWarning])
print(json.dumps(seen))
"""


def test_cross_without_dim_warns_once(torch_mod):
    """TORCH_WARN_ONCE: the first torch.cross without dim warns (not the out= form, which
    doesn't warn at all), later ones don't (a fresh process per library)."""
    def seen(which):
        done = subprocess.run([sys.executable, "-c", _WARN_SCRIPT, which], capture_output=True,
                              text=True, check=True)
        return json.loads(done.stdout)
    expected = seen("torch")
    assert expected[1] == [] and len(expected[2]) == 1 and expected[4] == expected[2]
    assert seen("core") == expected

