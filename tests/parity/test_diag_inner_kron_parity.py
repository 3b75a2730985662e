"""torch.diag / diag_embed / diagflat, torch.inner and torch.kron against torch 2.13.

diag_embed has its own node (DiagEmbedBackward0: offset, dim1, dim2 as typed); diag of a
vector is diag_embed, of a matrix diagonal_copy (DiagonalBackward0_copy, a fresh vector);
diagflat is a flattening view, then diag. inner is tensordot's graph (permutes, reshapes,
mm or dot, a view), or a multiplication for a 0-dim operand; kron is _unsafe_view, mul,
_unsafe_view. The out= forms: diag's and inner's check out's dtype, resize it and copy;
kron's writes through mul's out= form into an _unsafe_view of out (out's version stays).
"""

import numpy as np
import pytest

from .harness import Raised, Registry, arr, catch, check_parity, graph, meta, upstream, warned

pytestmark = [pytest.mark.parity,
              pytest.mark.filterwarnings("ignore:An output with one or more elements")]

prog = Registry()


def _saved(fn):
    return {n: (tuple(getattr(fn, n).shape) if hasattr(getattr(fn, n), "shape")
                else getattr(fn, n)) for n in dir(fn) if n.startswith("_saved_")}


def _program(name, call, *shapes, transposed=()):
    def program(t):
        leaves = [t.tensor(arr(*s, seed=k + 1), requires_grad=True)
                  for k, s in enumerate(shapes)]
        xs = [x.t() if k in transposed else x * 1 for k, x in enumerate(leaves)]
        y = call(t, *xs)
        obs = {"y": y, "meta": meta(y), "graph": graph(y.grad_fn, 5), "saved": _saved(y.grad_fn)}
        y.backward(upstream(t, y))
        return {**obs, "grads": [x.grad for x in leaves]}
    program.__name__ = name
    prog(program)


# --------------------------------------------------------------------------- diag family
_program("diag_vector", lambda t, v: t.diag(v), (3,))
_program("diag_vector_offset", lambda t, v: v.diag(2), (3,))
_program("diag_vector_negative_offset", lambda t, v: t.diag(v, -1), (4,))
_program("diag_matrix", lambda t, m: m.diag(), (3, 4))
_program("diag_matrix_offset", lambda t, m: t.diag(m, 1), (3, 4))
_program("diag_matrix_negative_offset", lambda t, m: m.diag(diagonal=-2), (4, 3))
_program("diag_matrix_offset_past_the_end", lambda t, m: m.diag(5), (3, 4))
_program("diag_transposed_matrix", lambda t, m: m.diag(1), (4, 3), transposed=(0,))
_program("diag_embed_default", lambda t, b: b.diag_embed(), (2, 3))
_program("diag_embed_dims", lambda t, b: t.diag_embed(b, 1, 0, 2), (2, 3))
_program("diag_embed_negative_dims", lambda t, b: b.diag_embed(-1, -1, -3), (2, 3))
_program("diag_embed_swapped_dims", lambda t, b: b.diag_embed(0, 2, 1), (2, 3))
_program("diag_embed_transposed", lambda t, b: b.diag_embed(1), (3, 2), transposed=(0,))
_program("diag_embed_keywords", lambda t, b: b.diag_embed(offset=-2, dim1=1, dim2=0), (4,))
_program("diagflat_matrix", lambda t, m: m.diagflat(), (2, 3))
_program("diagflat_vector_offset", lambda t, v: t.diagflat(v, -1), (3,))
_program("diagflat_transposed", lambda t, m: m.diagflat(1), (3, 2), transposed=(0,))
_program("diagflat_scalar", lambda t, v: v[1].diagflat(1), (3,))


@prog
def diag_dtypes_and_layouts(t):
    ints = t.tensor(arr(3, 4, seed=3, dtype=np.int64, low=-9, high=9))
    x = t.tensor(arr(4, 5, seed=4))
    out = {}
    for name, v in (("int", ints), ("bool", ints > 0), ("half", x.half()), ("double", x.double()),
                    ("strided", x[::2, 1:]), ("empty", t.zeros(0, 3)), ("row", x[1]),
                    ("empty_vector", t.zeros(0))):
        for fn in ("diag", "diagflat", "diag_embed"):
            y = getattr(v, fn)(1) if fn != "diag_embed" or v.dim() else None
            out[f"{name}_{fn}"] = None if y is None else (y, meta(y))
    return out


@prog
def diag_embed_keeps_no_tensor(t):
    h = t.tensor(arr(2, 3, seed=5), requires_grad=True) * 1
    y, z = h.diag_embed(), h.diag()
    with t.no_grad():
        h.add_(1)
    y.backward(upstream(t, y))
    z.backward(upstream(t, z))
    return {"y": y, "z": z, "version": h._version}


@prog
def diag_errors(t):
    x, v = t.tensor(arr(3, 4, seed=6)), t.tensor(arr(3, seed=7))
    calls = {
        "diag_3d": lambda: t.diag(t.zeros(2, 2, 2)), "diag_0d": lambda: t.tensor(1.0).diag(),
        "diag_float": lambda: x.diag(1.0), "diag_none": lambda: t.diag(x, None),
        "diag_list": lambda: t.diag([1.0, 2.0]), "diag_too_many": lambda: x.diag(0, 1),
        "diag_keyword": lambda: x.diag(offset=1),
        "embed_same": lambda: v.diag_embed(0, 1, 1),
        "embed_same_wrapped": lambda: v.diag_embed(0, 0, -2),
        "embed_range": lambda: v.diag_embed(0, 0, 2),
        "embed_range_negative": lambda: v.diag_embed(0, -3, 0),
        "embed_scalar": lambda: t.tensor(1.0).diag_embed(),
        "embed_float": lambda: v.diag_embed(0.5),
        "embed_function_dims": lambda: t.diag_embed(x, 0, 0, 3),
        "flat_float": lambda: x.diagflat(1.5),
        "flat_function_list": lambda: t.diagflat([1.0]),
    }
    return {name: catch(fn) for name, fn in calls.items()}


@prog
def diag_out(t):
    v, m = t.tensor(arr(3, seed=8)), t.tensor(arr(3, 4, seed=9))
    res = {}
    for name, x, k, o in (("vector", v, 0, t.zeros(3, 3)), ("vector_resize", v, 1, t.zeros(2)),
                          ("vector_empty", v, -1, t.zeros(0)),
                          ("vector_transposed", v, 0, t.zeros(3, 3).t()),
                          ("matrix", m, 1, t.zeros(3)), ("matrix_resize", m, 0, t.zeros(5)),
                          ("vector_dtype", v, 0, t.zeros(3, 3, dtype=t.float64)),
                          ("matrix_dtype", m, 0, t.zeros(3, dtype=t.int64)),
                          ("3d", t.zeros(2, 2, 2), 0, t.zeros(2))):
        r, w = warned(lambda x=x, k=k, o=o: t.diag(x, k, out=o))
        res[name] = {"same": r if isinstance(r, Raised) else r is o, "o": o,
                     "meta": meta(o), "version": o._version, "warned": w}
    res["not_tensor"] = catch(lambda: t.diag(v, out=3))
    return res


# --------------------------------------------------------------------------- inner
_program("inner_vectors", lambda t, a, b: t.inner(a, b), (4,), (4,))
_program("inner_matrix_vector", lambda t, a, b: a.inner(b), (2, 4), (4,))
_program("inner_vector_matrix", lambda t, a, b: t.inner(a, b), (4,), (3, 4))
_program("inner_matrices", lambda t, a, b: a.inner(b), (2, 4), (3, 4))
_program("inner_batches", lambda t, a, b: t.inner(a, b), (2, 3, 4), (5, 4))
_program("inner_transposed", lambda t, a, b: a.inner(b), (3, 4), (2, 3), transposed=(0,))
_program("inner_transposed_other", lambda t, a, b: t.inner(a, b), (2, 3), (3, 4),
         transposed=(1,))
_program("inner_row_and_vector", lambda t, a, b: t.inner(a, b), (1, 4), (4,))
_program("inner_rows", lambda t, a, b: a.inner(b), (1, 4), (1, 4))
_program("inner_vector_and_stack", lambda t, a, b: t.inner(a, b), (4,), (3, 1, 4))
_program("inner_size_one_last_dims", lambda t, a, b: a.inner(b), (3, 1), (2, 1))
_program("inner_scalar_first", lambda t, a, b: t.inner(a[0], b), (3,), (2, 3))
_program("inner_scalar_second", lambda t, a, b: a.inner(b[1]), (2, 3), (3,))


@prog
def inner_dtypes_and_errors(t):
    v, m = t.tensor(arr(3, seed=10)), t.tensor(arr(3, 4, seed=11))
    ints = t.tensor(arr(2, 3, seed=12, dtype=np.int64, low=-5, high=5))
    calls = {
        "ints": lambda: t.inner(ints, ints), "half": lambda: t.inner(v.half(), v.half()),
        "double": lambda: m.double().inner(m.double()), "empty": lambda: t.inner(t.zeros(0, 3), v),
        "int_scalar": lambda: t.inner(t.tensor(2), v), "last_dims": lambda: t.inner(m, ints),
        "dtypes": lambda: t.inner(v, v.double()), "int_float": lambda: t.inner(ints[0], v),
        "bool": lambda: t.inner(v > 0, v > 0), "number": lambda: t.inner(v, 2.0),
        "method_number": lambda: v.inner(2), "none": lambda: v.inner(None),
        "list": lambda: t.inner([1.0, 2.0, 3.0], v), "too_many": lambda: t.inner(v, v, v),
    }
    return {name: catch(fn) for name, fn in calls.items()}


@prog
def inner_out(t):
    v, m = t.tensor(arr(3, seed=13)), t.tensor(arr(2, 3, seed=14))
    g = t.tensor(arr(3, seed=15), requires_grad=True)
    res = {}
    for name, a, b, o in (("vectors", v, v, t.zeros(())), ("matrix", m, v, t.zeros(2)),
                          ("resize", m, m, t.zeros(5)), ("transposed", m, m, t.zeros(2, 2).t()),
                          ("dtype", v, v, t.zeros((), dtype=t.float64)),
                          ("scalar", v[0], m, t.zeros(2, 3)),
                          ("scalar_dtype", v[0], m, t.zeros(2, 3, dtype=t.float64)),
                          ("grad", g, v, t.zeros(())), ("scalar_grad", g[0], v, t.zeros(3))):
        r, w = warned(lambda a=a, b=b, o=o: t.inner(a, b, out=o))
        res[name] = {"r": r if isinstance(r, Raised) else r is o, "o": o.detach(), "meta": meta(o),
                     "version": o._version, "warned": w, "grad_fn": graph(o.grad_fn, 1),
                     "requires_grad": o.requires_grad}
    return res


# --------------------------------------------------------------------------- kron
_program("kron_matrices", lambda t, a, b: t.kron(a, b), (3, 4), (2, 3))
_program("kron_vectors", lambda t, a, b: a.kron(b), (3,), (2,))
_program("kron_vector_matrix", lambda t, a, b: a.kron(b), (3,), (2, 3))
_program("kron_matrix_3d", lambda t, a, b: t.kron(a, b), (2, 2), (2, 1, 3))
_program("kron_scalar", lambda t, a, b: t.kron(a[0], b), (3,), (3, 4))
_program("kron_transposed_other", lambda t, a, b: t.kron(a, b), (2, 2), (3, 1), transposed=(1,))


@prog
def kron_dtypes_and_errors(t):
    v, m = t.tensor(arr(3, seed=16)), t.tensor(arr(3, 4, seed=17))
    ints = t.tensor(arr(2, 2, seed=18, dtype=np.int64, low=-5, high=5))
    calls = {
        "ints": lambda: t.kron(ints, ints), "mixed": lambda: t.kron(ints, m),
        "double": lambda: t.kron(v, v.double()), "bool": lambda: t.kron(ints > 0, ints < 0),
        "half": lambda: m.half().kron(v.half()), "scalars": lambda: t.kron(v[0], v[1]),
        "empty": lambda: t.kron(t.zeros(0, 2), m), "not_viewable": lambda: t.kron(m.t(), v),
        "strided_viewable": lambda: t.kron(m[:, ::2], v),
        "number": lambda: t.kron(m, 2.0), "method_none": lambda: m.kron(None),
        "list": lambda: t.kron([1.0], m),
    }
    return {name: (r, meta(r)) if hasattr(r, "stride") else r
            for name, r in ((n, catch(fn)) for n, fn in calls.items())}


@prog
def kron_out(t):
    v, m = t.tensor(arr(3, seed=19)), t.tensor(arr(3, 4, seed=20))
    g = t.tensor(arr(3, seed=21), requires_grad=True)
    res = {}
    for name, a, b, o in (("fits", m, v, t.zeros(3, 12)), ("resize", m, v, t.zeros(4)),
                          ("transposed", m, v, t.zeros(12, 3).t()),
                          ("double", m, v, t.zeros(3, 12, dtype=t.float64)),
                          ("int_out", m, v, t.zeros(3, 12, dtype=t.int64)),
                          ("grad", g, v, t.zeros(9)), ("empty", v, v, t.zeros(0))):
        r, w = warned(lambda a=a, b=b, o=o: t.kron(a, b, out=o))
        res[name] = {"r": r if isinstance(r, Raised) else r is o, "o": o, "meta": meta(o),
                     "version": o._version, "warned": w}
    return res


@pytest.mark.parametrize("program", prog.params())
def test_diag_inner_kron_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
