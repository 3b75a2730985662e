"""Shape ops of issue 10 on torch 2.13 and the core: flip/roll/repeat, diagonal/tril/triu/
fill_diagonal_, cumsum/cumprod. Values, layouts, view and data_ptr relations, ``_version``,
grad_fn names, ``_saved_*`` names and values (PyTorch shows a saved negative int64 as an
unsigned number), gradients and error texts word for word. Sorting, norms, dim views and i0
are in test_reorder_sort_norm_parity.py.
"""

import pytest

from .harness import (
    Registry,
    arr,
    catch,
    check_parity,
    fn_name,
    graph,
    leaf,
    meta,
    next_names,
    ptr_delta,
    same_storage,
    upstream,
)
from .reorder_helpers import grad_of, layouts, saved

pytestmark = pytest.mark.parity

prog = Registry()


# ======================================================================================
# flip / roll / repeat


@prog
def flip_values_and_layouts(t):
    x = t.arange(12.0).reshape(3, 4)
    return {
        "d0": x.flip(0),
        "d01": x.flip(0, 1),
        "list": x.flip([1]),
        "tuple": x.flip((0, 1)),
        "neg": x.flip(-1),
        "empty": x.flip([]),
        "module": t.flip(x, [0]),
        "zero_dim": t.tensor(3.0).flip(0),
        "bool": t.tensor([True, False, False]).flip(0),
        "long": t.tensor([[1, 2], [3, 4]]).flip(1),
        "not_a_view": x.flip(0)._base is None,
        "layouts": layouts(t, lambda v: v.flip(0)),
        "layouts_last": layouts(t, lambda v: v.flip(-1)),
    }


@prog
def flip_keeps_dense_strides(t):
    # a dense tensor whose size-1 dim has an odd stride: flip (empty_like's preserve_format)
    # keeps self's strides exactly; a non-dense one gets dense strides in its memory order
    x = t.arange(12.0).as_strided((3, 1, 4), (4, 7, 1))
    y = t.arange(24.0).reshape(4, 6)[:, ::2].t()
    return {
        "odd": (x.flip(0), meta(x.flip(2))),
        "sliced": (y.flip(1), meta(y.flip(1))),
        "sort": meta(x.sort(0).values),
        "argsort": meta(y.argsort(0)),
        "roll": meta(x.roll(1, 0)),
        "cumsum": meta(x.cumsum(2)),
    }


@prog
def flip_errors(t):
    x = t.zeros(2, 3)
    return {
        "dup": catch(lambda: x.flip(0, 0)),
        "dup_neg": catch(lambda: x.flip(1, -1)),
        "range": catch(lambda: x.flip(2)),
        "float": catch(lambda: x.flip(1.5)),
        "str": catch(lambda: x.flip("a")),
        "missing": catch(lambda: x.flip()),
        "zero_dim": catch(lambda: t.tensor(1.0).flip(1)),
    }


@prog
def flip_autograd(t):
    return {
        "d0": grad_of(t, lambda a: a.flip(0), (3, 4)),
        "neg": grad_of(t, lambda a: a.flip(-1, 0), (3, 4)),
        "saved_neg": leaf(t, arr(2, 2)).flip(-2).grad_fn._saved_dims,
    }


@prog
def roll_values_and_layouts(t):
    x = t.arange(12.0).reshape(3, 4)
    return {
        "flat": x.roll(1),
        "flat_neg": x.roll(-5),
        "d0": x.roll(1, 0),
        "d1_big": x.roll(9, 1),
        "two": x.roll((1, -1), (0, 1)),
        "list": x.roll([2], [1]),
        "same_dim": x.roll((1, 1), (0, 0)),
        "neg_dim": x.roll(1, -1),
        "module": t.roll(x, 2, 1),
        "zero_dim": t.tensor(3.0).roll(1),
        "empty": t.zeros(0, 3).roll(1, 0),
        "long": t.tensor([1, 2, 3]).roll(1),
        "layouts": layouts(t, lambda v: v.roll(1, 0)),
        "layouts_flat": layouts(t, lambda v: v.roll(2)),
        "three": t.arange(24.0).reshape(2, 3, 4).roll((1, 2, -1), (0, 1, 2)),
    }


@prog
def roll_errors(t):
    x = t.zeros(2, 3)
    return {
        "align": catch(lambda: x.roll((1, 2), (0,))),
        "align_flat": catch(lambda: x.roll((1, 2))),
        "range": catch(lambda: x.roll(1, 2)),
        "required": catch(lambda: x.roll((), ())),
        "float": catch(lambda: x.roll(1.5)),
        "dim_float": catch(lambda: x.roll(1, 1.5)),
        "zero_dim": catch(lambda: t.tensor(1.0).roll(1, 1)),
        "zero_dim_0": catch(lambda: t.tensor(1.0).roll(1, 0)),
        "zero_dim_neg": catch(lambda: t.tensor(1.0).roll((1, 2), (-1, 0))),
    }


@prog
def roll_autograd(t):
    return {
        "flat": grad_of(t, lambda a: a.roll(-2), (3, 4)),
        "dims": grad_of(t, lambda a: a.roll((1, -3), (0, -1)), (3, 4)),
        "transposed": grad_of(t, lambda a: a.t().roll(1, 0), (3, 4)),
    }


@prog
def repeat_values_and_errors(t):
    x = t.arange(6.0).reshape(2, 3)
    v = t.tensor([1.0, 2.0])
    return {
        "r21": x.repeat(2, 1),
        "r12": x.repeat(1, 2),
        "lead": v.repeat(2, 1, 2),
        "list": x.repeat([2, 2]),
        "tuple": x.repeat((1, 1)),
        "zero": x.repeat(0, 1),
        "zero_dim": t.tensor(2.0).repeat(3),
        "bool": t.tensor([True, False]).repeat(2),
        "t": (x.t().repeat(1, 1), meta(x.t().repeat(1, 1))),
        "meta": meta(x.repeat(2, 2)),
        "copy": same_storage(x, x.repeat(1, 1)),
        "fewer": catch(lambda: x.repeat(2)),
        "neg": catch(lambda: x.repeat(2, -1)),
        "missing": catch(lambda: x.repeat()),
    }


@prog
def repeat_autograd(t):
    return {
        "r": grad_of(t, lambda a: a.repeat(2, 3), (2, 3)),
        "lead": grad_of(t, lambda a: a.repeat(2, 1, 2), (2, 3)),
        "vec": grad_of(t, lambda a: a.repeat(3), (4,)),
        "zero": grad_of(t, lambda a: a.repeat(0, 2).sum() + a.sum(), (2, 3)),
    }


# ======================================================================================
# diagonal / tril / triu / fill_diagonal_


@prog
def diagonal_is_a_view(t):
    x = t.arange(12.0).reshape(3, 4)
    b = t.arange(24.0).reshape(2, 3, 4)
    out = {}
    for name, d in (
        ("main", x.diagonal()),
        ("up", x.diagonal(1)),
        ("down", x.diagonal(-1)),
        ("far", x.diagonal(5)),
        ("far_neg", x.diagonal(-5)),
        ("t", x.t().diagonal(1)),
        ("batch", b.diagonal(0, 1, 2)),
        ("batch_neg", b.diagonal(1, -1, 0)),
        ("swapped", x.diagonal(0, 1, 0)),
        ("module", t.diagonal(x, 1)),
    ):
        out[name] = (
            d,
            meta(d),
            same_storage(d, x if name not in ("batch", "batch_neg") else b),
            d._base is not None,
        )
    d = x.diagonal()
    d.mul_(10)
    out["written"] = x
    out["shared_version"] = (x._version, d._version)
    out["ptr"] = ptr_delta(x.diagonal(2), x)
    return out


@prog
def diagonal_errors(t):
    x = t.zeros(2, 3)
    return {
        "same": catch(lambda: x.diagonal(0, 1, 1)),
        "same_neg": catch(lambda: x.diagonal(0, 1, -1)),
        "vector": catch(lambda: t.zeros(3).diagonal()),
        "range": catch(lambda: x.diagonal(0, 0, 2)),
        "float": catch(lambda: x.diagonal(1.5)),
    }


@prog
def diagonal_autograd(t):
    a = leaf(t, arr(3, 4, seed=2))
    y = a * 1
    d = y.diagonal(1)
    d.mul_(2)
    y.backward(upstream(t, y))
    return {
        "main": grad_of(t, lambda a: a.diagonal(), (3, 4)),
        "batch": grad_of(t, lambda a: a.diagonal(-1, 2, 0), (3, 2, 4)),
        "inplace_base": fn_name(y.grad_fn),
        "inplace_view": fn_name(d.grad_fn),
        "graph": graph(y.grad_fn),
        "grad_through_write": a.grad,
    }


@prog
def tril_triu_values(t):
    x = t.arange(1.0, 13.0).reshape(3, 4)
    b = t.arange(24.0).reshape(2, 3, 4)
    out = {}
    for k in (-2, -1, 0, 1, 3, 5):
        out[f"tril{k}"] = x.tril(k)
        out[f"triu{k}"] = x.triu(k)
    out["batch"] = (b.tril(), b.triu(-1))
    out["t"] = (x.t().tril(), meta(x.t().tril()), x.t().triu(1))
    out["bool"] = t.ones(3, 3, dtype=t.bool).tril()
    out["long"] = t.tensor([[1, 2], [3, 4]]).triu()
    out["empty"] = t.zeros(0, 3).tril()
    out["module"] = (t.tril(x, 1), t.triu(x, diagonal=-1))
    out["copy"] = same_storage(x, x.tril())
    return out


@prog
def tril_triu_inplace(t):
    out = {}
    for op in ("tril_", "triu_"):
        x = t.arange(1.0, 13.0).reshape(3, 4)
        r = getattr(x, op)(1)
        out[op] = (x, r is x, x._version)
        y = t.arange(1.0, 13.0).reshape(4, 3).t()  # a transposed view: written in place
        base = y._base
        getattr(y, op)()
        out[op + "_view"] = (y, base, y._version, meta(y))
        z = t.arange(1.0, 10.0).reshape(3, 3)
        getattr(z[1:], op)(-1)
        out[op + "_slice"] = z
    return out


@prog
def tril_triu_errors(t):
    return {
        "tril_1d": catch(lambda: t.zeros(3).tril()),
        "triu_0d": catch(lambda: t.tensor(1.0).triu()),
        "tril__1d": catch(lambda: t.zeros(3).tril_()),
        "triu__1d": catch(lambda: t.zeros(3).triu_()),
        "float": catch(lambda: t.zeros(2, 2).tril(1.5)),
        "none": catch(lambda: t.zeros(2, 2).triu(None)),
        "float_": catch(lambda: t.zeros(2, 2).tril_(0.5)),
        "leaf": catch(lambda: leaf(t, arr(2, 2)).tril_()),
        "leaf_1d": catch(lambda: leaf(t, arr(2)).triu_()),
        "version_1d": (lambda z: (catch(lambda: z.tril_()), z._version))(t.zeros(3)),
    }


@prog
def tril_triu_autograd(t):
    out = {
        "tril": grad_of(t, lambda a: a.tril(-1), (3, 4)),
        "triu": grad_of(t, lambda a: a.triu(2), (2, 3, 4)),
    }
    for op in ("tril_", "triu_"):
        a = leaf(t, arr(3, 3, seed=1))
        y = a * 2
        getattr(y, op)(1)
        out[op] = (fn_name(y.grad_fn), saved(y.grad_fn), next_names(y.grad_fn))
        y.backward(upstream(t, y))
        out[op + "_grad"] = a.grad
        b = leaf(t, arr(3, 3, seed=2))
        w = b * 1
        v = w[1:]
        getattr(v, op)()
        out[op + "_view"] = (fn_name(w.grad_fn), fn_name(v.grad_fn), graph(w.grad_fn))
        w.backward(upstream(t, w))
        out[op + "_view_grad"] = b.grad
    return out


@prog
def fill_diagonal_values(t):
    out = {}
    for name, shape, wrap in (
        ("square", (3, 3), False),
        ("tall", (7, 3), False),
        ("tall_wrap", (7, 3), True),
        ("wide_wrap", (3, 5), True),
        ("cube", (2, 2, 2), False),
        ("tall_wrap_close", (4, 3), True),
    ):
        x = t.zeros(*shape)
        r = x.fill_diagonal_(5.0, wrap=wrap)
        out[name] = (x, r is x, x._version)
    z = t.zeros(3, 4).t()
    z.fill_diagonal_(1)
    out["t"] = (z, meta(z))
    out["long"] = t.zeros(3, 3, dtype=t.long).fill_diagonal_(1.5)
    out["tensor_value"] = t.zeros(2, 2).fill_diagonal_(t.tensor(2.0))
    out["bool_value"] = t.zeros(2, 2).fill_diagonal_(True)
    return out


@prog
def fill_diagonal_errors(t):
    return {
        "vector": catch(lambda: t.zeros(3).fill_diagonal_(1)),
        "unequal": catch(lambda: t.zeros(2, 2, 3).fill_diagonal_(1)),
        "str": catch(lambda: t.zeros(2, 2).fill_diagonal_("a")),
        "wrap_int": catch(lambda: t.zeros(2, 2).fill_diagonal_(1, wrap=2)),
        "overflow": catch(lambda: t.zeros(2, 2, dtype=t.int8).fill_diagonal_(300)),
        "leaf": catch(lambda: leaf(t, arr(2, 2)).fill_diagonal_(1.0)),
    }


@prog
def fill_diagonal_autograd(t):
    a = leaf(t, arr(3, 3, seed=1))
    y = a * 1
    y.fill_diagonal_(2.0)
    g1 = (fn_name(y.grad_fn), graph(y.grad_fn), y._version)
    y.backward(upstream(t, y))
    b = leaf(t, arr(7, 3, seed=2))
    w = b * 1
    w.fill_diagonal_(0.5, wrap=True)
    g2 = (fn_name(w.grad_fn), graph(w.grad_fn), w._version)
    w.backward(upstream(t, w))
    return {"square": g1, "square_grad": a.grad, "wrap": g2, "wrap_grad": b.grad}


# ======================================================================================
# cumsum / cumprod


@prog
def cumsum_cumprod_values(t):
    x = t.tensor(arr(3, 4, seed=6))
    out = {}
    for op in ("cumsum", "cumprod"):
        out[op] = (
            getattr(x, op)(0),
            getattr(x, op)(1),
            getattr(x, op)(-1),
            getattr(t, op)(x, 1),
            getattr(x, op)(dim=0),
        )
        out[op + "_layouts"] = layouts(t, lambda v, op=op: getattr(v, op)(0))
        out[op + "_ints"] = [
            getattr(t.tensor([1, 2, 3], dtype=d), op)(0)
            for d in (t.int8, t.uint8, t.int16, t.int32, t.int64, t.bool)
        ]
        out[op + "_dtype"] = (
            getattr(x, op)(1, dtype=t.float64),
            getattr(t.tensor([1.5, 2.5, -1.5]), op)(0, dtype=t.int32),
            getattr(t.tensor([1, 2]), op)(0, dtype=t.float32),
        )
        out[op + "_half"] = getattr(t.tensor([1.0, 2.5, 3.0], dtype=t.float16), op)(0)
        out[op + "_0d"] = (getattr(t.tensor(2.0), op)(0), getattr(t.tensor(2.0), op)(-1))
        out[op + "_empty"] = getattr(t.zeros(0, 3), op)(1)
        out[op + "_copy"] = same_storage(x, getattr(x, op)(0))
    out["cumsum_int8_wraps"] = t.tensor([100, 100], dtype=t.int8).cumsum_(0)
    out["cumprod_int8_wraps"] = t.tensor([100, 3], dtype=t.int8).cumprod_(0)
    return out


@prog
def cumsum_cumprod_inplace(t):
    out = {}
    for op in ("cumsum_", "cumprod_"):
        x = t.tensor(arr(3, 4, seed=7))
        r = getattr(x, op)(1)
        out[op] = (x, r is x, x._version)
        y = t.tensor(arr(4, 3, seed=8)).t()
        getattr(y, op)(0, dtype=t.float32)
        out[op + "_t"] = (y, y._base, meta(y))
        z = t.tensor([1, 2, 3], dtype=t.int32)
        getattr(z, op)(0)
        out[op + "_int"] = z
    return out


@prog
def cumsum_cumprod_errors(t):
    x = t.zeros(2, 3)
    out = {}
    for op in ("cumsum", "cumprod"):
        out[op] = {
            "range": catch(lambda op=op: getattr(x, op)(2)),
            "missing": catch(lambda op=op: getattr(x, op)()),
            "float": catch(lambda op=op: getattr(x, op)(1.5)),
            "tuple": catch(lambda op=op: getattr(x, op)((0,))),
            "dtype_str": catch(lambda op=op: getattr(x, op)(0, dtype="float")),
            "dtype_bool": catch(lambda op=op: getattr(x, op)(0, dtype=t.bool)),
            "bool_": catch(lambda op=op: getattr(t.tensor([True, False]), op + "_")(0)),
            "dtype_": catch(lambda op=op: getattr(x.clone(), op + "_")(0, dtype=t.float64)),
            "int_dtype_": catch(
                lambda op=op: getattr(t.tensor([1, 2]), op + "_")(0, dtype=t.float32)
            ),
            "expanded_": catch(lambda op=op: getattr(t.ones(1, 3).expand(3, 3), op + "_")(0)),
            "leaf_": catch(lambda op=op: getattr(leaf(t, arr(3)), op + "_")(0, dtype=t.float64)),
        }
        v = t.ones(3)
        catch(lambda op=op, v=v: getattr(v, op + "_")(0, dtype=t.float64))
        out[op + "_version_after_error"] = v._version
    return out


@prog
def cumsum_cumprod_autograd(t):
    out = {
        "cumsum": grad_of(t, lambda a: a.cumsum(1), (3, 4)),
        "cumsum_neg": grad_of(t, lambda a: a.cumsum(-2), (2, 3, 4)),
        "cumsum_dtype": grad_of(t, lambda a: a.cumsum(0, dtype=t.float64), (3, 2)),
        "cumprod": grad_of(t, lambda a: a.cumprod(1), (3, 4)),
        "cumprod_0d": grad_of(t, lambda a: a.cumprod(0), ()),
    }
    for op in ("cumsum_", "cumprod_"):
        a = leaf(t, arr(3, 4, seed=9))
        y = a * 1
        getattr(y, op)(0)
        out[op] = (fn_name(y.grad_fn), saved(y.grad_fn))
        y.backward(upstream(t, y))
        out[op + "_grad"] = a.grad
    return out


@prog
def cumprod_backward_with_zeros(t):
    v = t.tensor(
        [[2.0, 0.0, 3.0, 4.0], [0.0, 1.5, 0.0, 2.0], [1.0, 2.0, 3.0, 0.0], [0.5, -1.0, 2.0, 3.0]]
    )
    a = t.tensor(v.tolist(), requires_grad=True)
    y = a.cumprod(1)
    y.backward(upstream(t, y))
    b = t.tensor(v.tolist(), requires_grad=True)
    z = b.cumprod(0)
    z.backward(upstream(t, z))
    return {"d1": a.grad, "d0": b.grad}


@prog
def cumprod_saved_self_modified(t):
    a = leaf(t, arr(3, seed=1))
    h = a * 1
    y = h.cumprod(0)
    h.mul_(2)
    s = a * 1
    w = s.cumsum(0)
    s.mul_(2)  # cumsum saves nothing of self: backward still works
    w.backward(t.ones(3))
    return {"err": catch(lambda: y.backward(t.ones(3))), "cumsum_ok": a.grad}


@pytest.mark.parametrize("prog", prog.params())
def test_reorder_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
