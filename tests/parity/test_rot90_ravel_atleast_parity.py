"""torch.rot90 / fliplr / flipud, ravel, atleast_1d/2d/3d against torch 2.13.

rot90 has its own node (Rot90Backward0: ``_saved_k`` and ``_saved_dims`` as typed, unsigned
when negative) and a result laid out as a flip, transposed for an odd number of turns, or a
contiguous clone for none; its checks come in torch's order (two dims, two dims at least, in
range, different as typed). fliplr/flipud are flips (FlipBackward0). ravel is
contiguous().view(-1): a view of self when it can be, of a clone when not. atleast_Nd returns
self itself, a reshape or unsqueezes; one tensor in, one out; several or a sequence, a tuple.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, graph, meta, upstream

pytestmark = pytest.mark.parity

prog = Registry()


# --------------------------------------------------------------------------- rot90
def _rot90_program(name, shape, *args, transposed=False, **kw):
    def program(t):
        a = t.tensor(arr(*shape, seed=1), requires_grad=True)
        x = a.transpose(0, 1) if transposed else a * 1
        y = x.rot90(*args, **kw)
        fn = y.grad_fn
        obs = {"y": y, "meta": meta(y), "graph": graph(fn), "k": fn._saved_k,
               "dims": fn._saved_dims, "fresh": y.data_ptr() != x.data_ptr(),
               "function": t.rot90(x, *args, **kw)}
        y.backward(upstream(t, y))
        return {**obs, "a.grad": a.grad, "grad_meta": meta(a.grad)}
    program.__name__ = name
    prog(program)


_rot90_program("rot90_default", (3, 4))
for _k in (0, 1, 2, 3, 4, 5, -1, -2, -3, -6):
    _rot90_program(f"rot90_k{_k}".replace("-", "minus"), (3, 4), _k)
_rot90_program("rot90_dims_reversed", (3, 4), 1, (1, 0))
_rot90_program("rot90_dims_negative", (3, 4), 1, [-1, 0])
_rot90_program("rot90_3d_dims_2_0", (2, 3, 4), 1, [2, 0])
_rot90_program("rot90_3d_k3_dims_1_2", (2, 3, 4), 3, (1, 2))
_rot90_program("rot90_3d_k2_dims_0_minus1", (2, 3, 4), 2, (0, -1))
_rot90_program("rot90_keywords", (3, 4), k=3, dims=[1, 0])
_rot90_program("rot90_transposed_k1", (4, 3), 1, transposed=True)
_rot90_program("rot90_transposed_k2", (4, 3), 2, transposed=True)
_rot90_program("rot90_transposed_k0", (4, 3), 0, transposed=True)


@prog
def rot90_layouts_and_dtypes(t):
    x = t.tensor(arr(4, 6, seed=2))
    ints = t.tensor(arr(3, 5, seed=3, dtype=np.int64, low=-9, high=9))
    out = {}
    for k in range(4):
        for name, v in (("strided", x[:, ::2]), ("int", ints), ("bool", ints > 0),
                        ("half", x.half()), ("double", x.double().t()),
                        ("empty", t.zeros(0, 3)),
                        ("3d_permuted", t.tensor(arr(2, 3, 4, seed=4)).permute(2, 0, 1))):
            y = v.rot90(k)
            out[f"{name}_{k}"] = (y, meta(y))
    return out


@prog
def rot90_matches_numpy_direction(t):
    x = t.arange(12).reshape(3, 4)
    return {"k1": x.rot90(), "k_minus1": x.rot90(-1), "k2_dims10": x.rot90(2, [1, 0])}


@prog
def rot90_saves_no_tensor(t):
    h = t.tensor(arr(3, 4, seed=5), requires_grad=True) * 1
    y = h.rot90(1)
    with t.no_grad():
        h.mul_(2)  # Rot90Backward0 saves only k and dims: backward still runs
    y.backward(upstream(t, y))
    return {"saved": sorted(n for n in dir(y.grad_fn) if n.startswith("_saved_")),
            "versions": h._version}


@prog
def rot90_errors(t):
    x = t.tensor(arr(3, 4, seed=6))
    z = t.tensor(arr(2, 3, 4, seed=7))
    calls = {
        "one_dim_given": lambda: x.rot90(1, [0]),
        "three_dims_given": lambda: x.rot90(1, [0, 1, 2]),
        "no_dims": lambda: x.rot90(1, []),
        "vector": lambda: t.arange(3.0).rot90(),
        "vector_bad_dims": lambda: t.arange(3.0).rot90(1, [0, 0]),
        "scalar": lambda: t.tensor(1.0).rot90(1, [0, 1]),
        "same_dims": lambda: x.rot90(1, [1, 1]),
        "same_dims_wrapped": lambda: x.rot90(1, [0, -2]),
        "same_dims_wrapped_other": lambda: x.rot90(1, [-1, 1]),
        "3d_same_wrapped": lambda: z.rot90(1, [0, -3]),
        "out_of_range_dim1": lambda: x.rot90(1, [0, 2]),
        "out_of_range_dim0": lambda: z.rot90(1, [5, 0]),
        "out_of_range_both_equal": lambda: z.rot90(1, [5, 5]),
        "negative_out_of_range": lambda: x.rot90(1, [-3, 0]),
        "k_float": lambda: x.rot90(1.0),
        "k_bool": lambda: x.rot90(True),
        "k_none": lambda: x.rot90(None),
        "dims_int": lambda: x.rot90(1, 0),
        "dims_none": lambda: x.rot90(1, None),
        "dims_floats": lambda: x.rot90(1, [0.0, 1.0]),
        "too_many": lambda: x.rot90(1, 0, 1),
        "unknown_keyword": lambda: x.rot90(axes=(0, 1)),
        "function_dims_int": lambda: t.rot90(x, 1, 0),
        "function_not_tensor": lambda: t.rot90([[1, 2]], 1),
        "function_too_many": lambda: t.rot90(x, 1, [0, 1], 2),
    }
    return {name: catch(fn) for name, fn in calls.items()}


# --------------------------------------------------------------------------- fliplr, flipud
@prog
def fliplr_flipud_graphs(t):
    a = t.tensor(arr(3, 4, seed=8), requires_grad=True)
    lr, ud = (a * 1).fliplr(), t.flipud(a * 1)
    col = t.tensor(arr(5, seed=9), requires_grad=True)
    v = col.flipud()
    (lr * 2 + ud).sum().backward()
    v.backward(upstream(t, v))
    return {"lr": lr, "ud": ud, "v": v, "graphs": [graph(lr.grad_fn), graph(ud.grad_fn)],
            "dims": [lr.grad_fn._saved_dims, ud.grad_fn._saved_dims], "a.grad": a.grad,
            "col.grad": col.grad, "metas": [meta(t.fliplr(a.detach().t())),
                                            meta(a.detach()[:, ::2].flipud())]}


@prog
def fliplr_flipud_errors(t):
    v = t.tensor(arr(4, seed=10))
    calls = {"fliplr_vector": lambda: v.fliplr(), "fliplr_scalar": lambda: t.fliplr(v[0]),
             "flipud_scalar": lambda: v[0].flipud(), "flipud_arg": lambda: v.flipud(0),
             "fliplr_function_list": lambda: t.fliplr([[1.0]]),
             "flipud_keyword": lambda: t.flipud(input=v), "flipud_vector": lambda: t.flipud(v)}
    return {name: catch(fn) for name, fn in calls.items()}


# --------------------------------------------------------------------------- ravel
@prog
def ravel_views_and_copies(t):
    a = t.tensor(arr(3, 4, seed=11), requires_grad=True)
    h = a * 1
    cases = {"contiguous": h, "transposed": h.t(), "strided": h[:, ::2], "scalar": h[0, 0],
             "row": h[1], "column": h[:, 1], "expanded": h[:1].expand(3, 4)}
    out = {}
    for name, x in cases.items():
        y = x.ravel()
        out[name] = {"y": y, "meta": meta(y), "view_of_x": y.data_ptr() == x.data_ptr()
                     and y._base is not None, "graph": graph(y.grad_fn, 3)}
    f = t.ravel(h.t())
    (f * t.arange(12.0)).sum().backward()
    return {**out, "function": f, "a.grad": a.grad}


@prog
def ravel_writes_through_its_view(t):
    x = t.zeros(2, 3)
    r = x.ravel()
    r[4] = 7.0
    c = x.t().ravel()
    c[0] = 9.0  # a copy: x keeps its zero
    return {"x": x, "versions": [x._version, r._version, c._version],
            "errors": [catch(lambda: x.ravel(0)), catch(lambda: t.ravel(x, 0)),
                       catch(lambda: t.ravel(None))]}


# --------------------------------------------------------------------------- atleast_Nd
@prog
def atleast_shapes_and_graphs(t):
    a = t.tensor(arr(2, 3, 4, seed=12), requires_grad=True)
    h = a * 1
    xs = {"0d": h[0, 0, 0], "1d": h[0, 0], "2d": h[0], "3d": h, "4d": h.unsqueeze(0)}
    out = {}
    for fname in ("atleast_1d", "atleast_2d", "atleast_3d"):
        fn = getattr(t, fname)
        for name, x in xs.items():
            y = fn(x)
            out[f"{fname}_{name}"] = {"meta": meta(y), "same": y is x,
                                      "node": fn_name(y.grad_fn),
                                      "view": y._base is not None}
    y = t.atleast_3d(h[1, 2])
    y.backward(upstream(t, y))
    return {**out, "y": y, "a.grad": a.grad}


@prog
def atleast_sequences(t):
    x, v, s = t.ones(2, 2), t.arange(3.0), t.tensor(5.0)
    out = {}
    for fname in ("atleast_1d", "atleast_2d", "atleast_3d"):
        fn = getattr(t, fname)
        for name, args in (("two", (x, s)), ("list", ([v, s, x],)), ("tuple", ((s,),)),
                           ("list_one", ([x],)), ("none_given", ()), ("empty_list", ([],))):
            r = fn(*args)
            out[f"{fname}_{name}"] = (type(r).__name__, [tuple(e.shape) for e in r])
        out[f"{fname}_same"] = [e is x for e in fn(x, x)]
    return out


@prog
def atleast_errors(t):
    x = t.ones(2)
    calls = {"int": lambda: t.atleast_1d(1), "float": lambda: t.atleast_2d(2.5),
             "list_of_ints": lambda: t.atleast_3d([1, 2]), "mixed": lambda: t.atleast_1d(x, 1),
             "none": lambda: t.atleast_2d(None), "keyword": lambda: t.atleast_1d(input=x),
             "list_with_none": lambda: t.atleast_3d([x, None]),
             "numpy": lambda: t.atleast_1d(np.ones(2))}
    return {name: catch(fn) for name, fn in calls.items()}


@pytest.mark.parametrize("program", prog.params())
def test_rot90_ravel_atleast_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
