"""Shape ops of issue 10 on torch 2.13 and the core, second file: sort/argsort/topk,
norm/renorm, Tensor.unfold/unflatten/movedim/swapdims and i0. Values, layouts, views,
``_version``, grad_fn names, ``_saved_*`` names and values, gradients and error texts.
"""

import pytest

from .harness import (
    Registry,
    arr,
    catch,
    check_parity,
    fn_name,
    leaf,
    meta,
    same_storage,
    upstream,
)
from .reorder_helpers import grad_of, layouts, saved

pytestmark = pytest.mark.parity

prog = Registry()


# ======================================================================================
# sort / argsort / topk


@prog
def sort_values_and_layouts(t):
    x = t.tensor(arr(3, 5, seed=10))
    out = {}
    for name, r in (
        ("default", x.sort()),
        ("d0", x.sort(0)),
        ("desc", x.sort(1, True)),
        ("kw", x.sort(dim=0, descending=True)),
        ("stable", x.sort(stable=True, descending=True)),
        ("module", t.sort(x, 0)),
    ):
        out[name] = (r.values, r.indices, r[0], type(r).__name__)
    out["layouts"] = layouts(t, lambda v: v.sort(0).values)
    out["layouts_idx"] = layouts(t, lambda v: v.sort(-1).indices)
    out["ties"] = (
        t.tensor([1.0, 2.0, 2.0, 1.0, 2.0]).sort(),
        t.tensor([1.0, 2.0, 2.0, 1.0, 2.0]).sort(descending=True),
    )
    nan = t.tensor([3.0, float("nan"), 1.0, -1.0])
    out["nan"] = (nan.sort(), nan.sort(descending=True))
    out["ints"] = [
        t.tensor([3, -1, 2, 0], dtype=d).sort(descending=True)
        for d in (t.int8, t.int16, t.int32, t.int64)
    ]
    out["uint8_bool"] = (t.tensor([3, 0, 2], dtype=t.uint8).sort(), t.tensor([True, False]).sort())
    out["half"] = t.tensor([3.0, -1.0, 2.0], dtype=t.float16).sort()
    out["zero_dim"] = t.tensor(3.0).sort()
    out["empty"] = t.zeros(0, 3).sort(0)
    out["repr"] = repr(t.tensor([2.0, 1.0]).sort())
    return out


@prog
def argsort_values(t):
    x = t.tensor(arr(4, 3, seed=11))
    ties = t.tensor([2, 1, 2, 1])
    return {
        "default": x.argsort(),
        "d0": x.argsort(0),
        "desc": x.argsort(1, True),
        "stable": ties.argsort(stable=True),
        "stable_desc": ties.argsort(stable=True, descending=True),
        "module": t.argsort(x, dim=0),
        "layouts": layouts(t, lambda v: v.argsort(0)),
        "grad_fn": leaf(t, arr(3)).argsort().grad_fn,
        "zero_dim": t.tensor(1.0).argsort(),
    }


@prog
def sort_errors(t):
    x = t.zeros(2, 3)
    return {
        "range": catch(lambda: x.sort(2)),
        "float": catch(lambda: x.sort(1.5)),
        "bool_dim": catch(lambda: x.sort(True)),
        "stable_int": catch(lambda: x.sort(stable=1)),
        "two_ints": catch(lambda: x.sort(0, 1)),
        "argsort_float": catch(lambda: x.argsort(1.5)),
        "argsort_two_ints": catch(lambda: x.argsort(0, 1)),
    }


@prog
def topk_values_and_errors(t):
    x = t.tensor(arr(3, 5, seed=12))
    v = t.tensor([3.0, 1.0, 4.0, 1.5, 9.0, 2.6])
    out = {}
    for name, r in (
        ("k2", x.topk(2)),
        ("d0", x.topk(2, 0)),
        ("small", x.topk(3, largest=False)),
        ("kw", x.topk(k=1, dim=-1)),
        ("module", t.topk(x, 2, 0)),
        ("all", v.topk(6)),
        ("zero", x.topk(0)),
        ("long", t.tensor([3, 1, 2]).topk(2)),
    ):
        out[name] = (r.values, r.indices, type(r).__name__, meta(r.values))
    out["t"] = (x.t().topk(2, 0), meta(x.t().topk(2, 0).values), x.t().topk(2, 1))
    nan = t.tensor([1.0, float("nan"), 2.0])
    out["nan"] = (nan.topk(2), nan.topk(2, largest=False))
    out["zero_dim"] = t.tensor(3.0).topk(1)
    out["errors"] = {
        "k_big": catch(lambda: x.topk(6)),
        "k_neg": catch(lambda: x.topk(-1)),
        "k_float": catch(lambda: x.topk(1.5)),
        "k_none": catch(lambda: x.topk(None)),
        "dim": catch(lambda: x.topk(1, 2)),
        "dim_float": catch(lambda: x.topk(2, 1.5)),
        "largest": catch(lambda: x.topk(2, largest=1)),
        "bool": catch(lambda: t.tensor([True, False]).topk(1)),
    }
    return out


@prog
def sort_topk_autograd(t):
    out = {
        "sort": grad_of(t, lambda a: a.sort(1), (3, 4)),
        "sort_desc": grad_of(t, lambda a: a.sort(0, descending=True), (3, 4)),
        "sort_default_dim": grad_of(t, lambda a: a.sort(), (2, 3)),
        "topk": grad_of(t, lambda a: a.topk(2), (3, 4)),
        "topk_d0": grad_of(t, lambda a: a.topk(2, 0, largest=False), (3, 4)),
        "topk_neg": grad_of(t, lambda a: a.topk(1, -2), (3, 4)),
        "topk_t": grad_of(t, lambda a: a.t().topk(2, 1), (3, 4)),
    }
    a = leaf(t, arr(2, 3, seed=4))
    r = (a * 1).sort(1)
    r.indices.zero_()  # the node saved these indices: backward sees the version change
    out["indices_modified"] = catch(lambda: r.values.sum().backward())
    out["indices_saved_is_output"] = r.values.grad_fn._saved_indices is not None
    return out


# ======================================================================================
# norm / renorm


@prog
def norm_values(t):
    x = t.tensor(arr(3, 4, seed=13))
    out = {}
    for p in (2, 1, float("inf"), float("-inf"), 0, 3, 0.5, 1.5, "fro", None, 2.0):
        out[str(p)] = (x.norm(p), x.norm(p, 1), x.norm(p, dim=0, keepdim=True))
    out["dims"] = (x.norm(dim=(0, 1)), x.norm("fro", (0, 1)), x.norm(1, [0]), x.norm(dim=-1))
    out["keep_meta"] = meta(x.norm(dim=1, keepdim=True))
    out["dtype"] = (x.norm(dtype=t.float64), x.norm(1, 1, dtype=t.float64))
    out["half"] = t.tensor([3.0, -4.0, 12.0], dtype=t.float16).norm()
    out["module"] = (t.norm(x), t.norm(x, 1, 1), t.norm(x, dim=0))
    out["empty"] = t.zeros(0).norm()
    out["zero_dim"] = t.tensor(-3.0).norm()
    out["t"] = x.t().norm(dim=0)
    out["empty_dim"] = t.zeros(0, 3).norm(float("inf"), dim=1)
    return out


@prog
def norm_errors(t):
    x = t.zeros(2, 3)
    return {
        "long": catch(lambda: t.tensor([1, 2]).norm()),
        "bool": catch(lambda: t.tensor([True]).norm()),
        "dtype_long": catch(lambda: x.norm(dtype=t.int64)),
        "dim": catch(lambda: x.norm(dim=2)),
        "dup": catch(lambda: x.norm(dim=(1, 1))),
        "str": catch(lambda: x.norm("abc")),
        "inf_empty": catch(lambda: t.zeros(0).norm(float("inf"))),
        "neg_empty": catch(lambda: t.zeros(0).norm(-1)),
        "neginf_empty": catch(lambda: t.zeros(0).norm(float("-inf"))),
        "inf_empty_dim": catch(lambda: t.zeros(0, 3).norm(float("inf"), dim=0)),
        "dim_float": catch(lambda: x.norm(2, 1.5)),
    }


@prog
def norm_autograd(t):
    out = {}
    for p in (2, 1, float("inf"), 3, 0.5, 1.5, "fro", None):
        out[f"all_{p}"] = grad_of(t, lambda a, p=p: a.norm(p), (3, 4))
        out[f"dim_{p}"] = grad_of(t, lambda a, p=p: a.norm(p, dim=1), (3, 4))
    out["keep"] = grad_of(t, lambda a: a.norm(dim=-1, keepdim=True), (2, 3))
    out["dims"] = grad_of(t, lambda a: a.norm(1, dim=(0, 2)), (2, 3, 4))
    out["dtype"] = grad_of(t, lambda a: a.norm(dtype=t.float64), (3,))
    z = leaf(t, [[0.0, 0.0], [3.0, 4.0]])
    z.norm(dim=1).sum().backward()
    out["zero_row"] = z.grad
    m = leaf(t, [1.0, -3.0, 3.0, 2.0])
    m.norm(float("inf")).backward()
    out["inf_ties"] = m.grad
    n = leaf(t, [1.0, 0.0, -2.0])
    y = n.norm(0)
    out["p0"] = (fn_name(y.grad_fn), saved(y.grad_fn))
    y.backward()
    out["p0_grad"] = n.grad
    h = leaf(t, arr(3, seed=3)) * 1
    y = h.norm()
    h.mul_(2)
    out["modified"] = catch(lambda: y.backward())
    return out


@prog
def renorm_values_and_errors(t):
    x = t.arange(12.0).reshape(3, 4)
    out = {
        "d0": x.renorm(2, 0, 5.0),
        "d1_inf": x.renorm(float("inf"), 1, 5),
        "p1": x.renorm(1, -1, 7.0),
        "p3": x.renorm(3, 0, 4.0),
        "module": t.renorm(x, 2, 1, 3.0),
        "t": x.t().renorm(2, 0, 5.0),
        "t_meta": meta(x.t().renorm(2, 0, 5.0)),
        "batch": t.tensor(arr(2, 3, 4, seed=1)).renorm(2, 1, 1.0),
        "none_over": x.renorm(2, 0, 100.0),
        "half": x.half().renorm(2, 0, 5.0),
    }
    y = t.arange(12.0).reshape(3, 4)
    r = y.renorm_(2, 0, 5.0)
    out["inplace"] = (y, r is y, y._version)
    out["errors"] = {
        "p0": catch(lambda: x.renorm(0, 0, 1.0)),
        "pneg": catch(lambda: x.renorm(-1, 0, 1.0)),
        "maxneg": catch(lambda: x.renorm(2, 0, -1)),
        "maxneg_f": catch(lambda: x.renorm(2, 0, -0.5)),
        "max_big": catch(lambda: x.renorm(2, 0, -1e10)),
        "long": catch(lambda: t.tensor([[1, 2]]).renorm(2, 0, 1.0)),
        "dim": catch(lambda: x.renorm(2, 2, 1.0)),
        "vector": catch(lambda: t.ones(2).renorm(2, 0, 1.0)),
        "zero_dim": catch(lambda: t.tensor(1.0).renorm(2, 0, 1.0)),
        "p_str": catch(lambda: x.renorm("fro", 0, 1.0)),
        "expanded_": catch(lambda: t.ones(1, 3).expand(3, 3).renorm_(2, 0, 1.0)),
        "leaf_": catch(lambda: leaf(t, arr(2, 2)).renorm_(2, 0, 1.0)),
        "p0_": catch(lambda: t.ones(2, 2).renorm_(0, 0, 1.0)),
    }
    return out


@prog
def renorm_autograd(t):
    out = {
        "d0": grad_of(t, lambda a: a.renorm(2, 0, 1.0), (3, 4)),
        "d1": grad_of(t, lambda a: a.renorm(1, -1, 1.5), (3, 4)),
        "inf": grad_of(t, lambda a: a.renorm(float("inf"), 0, 1.0), (3, 4)),
        "p3": grad_of(t, lambda a: a.renorm(3, 1, 0.5), (2, 3, 4)),
        "int_args": grad_of(t, lambda a: a.renorm(2, 0, 1), (3, 4)),
    }
    a = leaf(t, arr(3, 4, seed=6))
    y = a * 1
    y.renorm_(2, 0, 1.0)
    out["inplace"] = (fn_name(y.grad_fn), saved(y.grad_fn))
    y.backward(upstream(t, y))
    out["inplace_grad"] = a.grad
    return out


# ======================================================================================
# unfold / unflatten / movedim / swapdims / i0


@prog
def unfold_is_a_view(t):
    x = t.arange(12.0).reshape(3, 4)
    out = {}
    for name, u in (
        ("w2", x.unfold(1, 2, 1)),
        ("step2", x.unfold(1, 2, 2)),
        ("step3", x.unfold(1, 2, 3)),
        ("d0", x.unfold(0, 2, 1)),
        ("neg", x.unfold(-1, 3, 1)),
        ("size0", x.unfold(1, 0, 1)),
        ("t", x.t().unfold(0, 2, 2)),
        ("zero_dim", t.tensor(2.0).unfold(0, 1, 1)),
        ("full", x.unfold(1, 4, 1)),
    ):
        out[name] = (
            u,
            meta(u),
            same_storage(u, x) if name != "zero_dim" else None,
            u._base is not None,
        )
    u = x.unfold(1, 2, 1)
    u[0, 0].fill_(-1.0)
    out["write_through"] = (x, x._version, u._version)
    out["errors"] = {
        "big": catch(lambda: x.unfold(1, 5, 1)),
        "step0": catch(lambda: x.unfold(1, 2, 0)),
        "neg_size": catch(lambda: x.unfold(1, -1, 1)),
        "range": catch(lambda: x.unfold(2, 1, 1)),
        "zero_dim_big": catch(lambda: t.tensor(2.0).unfold(0, 2, 1)),
        "float": catch(lambda: x.unfold(1.5, 2, 1)),
    }
    return out


@prog
def unfold_autograd(t):
    return {
        "overlap": grad_of(t, lambda a: a.unfold(1, 3, 1), (3, 5)),
        "gaps": grad_of(t, lambda a: a.unfold(1, 2, 3), (3, 7)),
        "d0": grad_of(t, lambda a: a.unfold(-2, 2, 1), (4, 3)),
        "zero_dim": grad_of(t, lambda a: a.unfold(0, 1, 1), ()),
    }


@prog
def unflatten_values_and_errors(t):
    x = t.arange(12.0).reshape(3, 4)
    out = {}
    for name, u in (
        ("d1", x.unflatten(1, (2, 2))),
        ("neg", x.unflatten(-1, (-1, 2))),
        ("list", x.unflatten(0, [3, 1])),
        ("t", x.t().unflatten(0, (2, 2))),
        ("t1", x.t().unflatten(1, (3, 1))),
        ("module", t.unflatten(x, 1, (4, 1))),
    ):
        out[name] = (u, meta(u), same_storage(u, x))
    a = leaf(t, arr(3, 4))
    y = a.unflatten(1, (2, 2))
    out["fn"] = fn_name(y.grad_fn)
    y.backward(upstream(t, y))
    out["grad"] = a.grad
    out["errors"] = {
        "bad": catch(lambda: x.unflatten(1, (3, 2))),
        "bad_neg": catch(lambda: x.unflatten(-1, (3, 2))),
        "empty": catch(lambda: x.unflatten(1, ())),
        "int": catch(lambda: x.unflatten(1, 4)),
        "range": catch(lambda: x.unflatten(2, (1, 4))),
    }
    return out


@prog
def movedim_swapdims_values(t):
    b = t.arange(24.0).reshape(2, 3, 4)
    out = {}
    for name, v in (
        ("int", b.movedim(0, 2)),
        ("neg", b.movedim(-1, 0)),
        ("tuple", b.movedim((0, 1), (2, 0))),
        ("list", b.movedim([2], [1])),
        ("moveaxis", b.moveaxis(1, 0)),
        ("same", b.movedim(1, 1)),
        ("module", t.movedim(b, 0, -1)),
        ("module_axis", t.moveaxis(b, (0,), (1,))),
        ("swapdims", b.swapdims(0, 2)),
        ("swapaxes", b.swapaxes(-1, 1)),
        ("t_swapdims", t.swapdims(b, 0, 1)),
        ("t_swapaxes", t.swapaxes(b, 0, 1)),
    ):
        out[name] = (v, meta(v), same_storage(v, b))
    out["zero_dim"] = t.tensor(1.0).movedim(0, 0)
    out["errors"] = {
        "len": catch(lambda: b.movedim((0, 1), (0,))),
        "rep": catch(lambda: b.movedim((0, 0), (0, 1))),
        "rep_dst": catch(lambda: b.movedim((0, 1), (1, 1))),
        "range": catch(lambda: b.movedim(3, 0)),
        "float": catch(lambda: b.movedim(0.5, 1)),
        "swap_range": catch(lambda: b.swapdims(0, 3)),
        "swap_float": catch(lambda: b.swapdims(0.5, 1)),
        "swapaxes_float": catch(lambda: b.swapaxes(0, 1.5)),
    }
    return out


def _without_saved(d):
    """These reuse permute/transpose, whose saved values are theirs (test_views_parity)."""
    return {k: v for k, v in d.items() if k != "saved"}


@prog
def movedim_swapdims_autograd(t):
    out = {
        "movedim": _without_saved(grad_of(t, lambda a: a.movedim((0, 2), (1, 0)), (2, 3, 4))),
        "movedim_dims": leaf(t, arr(2, 3, 4)).movedim((0, 2), (1, 0)).grad_fn._saved_dims,
        "swapdims": _without_saved(grad_of(t, lambda a: a.swapdims(0, -1), (2, 3, 4))),
        "swapaxes": _without_saved(grad_of(t, lambda a: a.swapaxes(1, 0), (2, 3))),
        "zero_dim": _without_saved(grad_of(t, lambda a: a.movedim(0, 0), ())),
    }
    for op in ("swapdims_", "swapaxes_"):
        a = leaf(t, arr(2, 3, seed=2))
        y = a * 1
        r = getattr(y, op)(0, 1)
        out[op] = (fn_name(y.grad_fn), r is y, y._version, meta(y))
        y.backward(upstream(t, y))
        out[op + "_grad"] = a.grad
        out[op + "_leaf"] = catch(lambda op=op: getattr(leaf(t, arr(2, 3)), op)(0, 1))
        z = t.zeros(2, 3)
        getattr(z, op)(1, 0)
        out[op + "_plain"] = (meta(z), z._version)
    return out


@prog
def i0_values_and_autograd(t):
    v = [0.0, 1.0, -2.5, 7.9, 8.0, 8.1, 10.0, -30.0, 100.0]
    x = t.tensor(v)
    d = t.tensor(v, dtype=t.float64)
    y = x.clone()
    r = y.i0_()
    out = {
        "f32": x.i0(),
        "f64": d.i0(),
        "module": t.i0(x),
        "inplace": (y, r is y, y._version),
        "long": t.tensor([1, 2]).i0(),
        "bool": t.tensor([True, False]).i0(),
        "half": t.tensor([1.0, 2.0], dtype=t.float16).i0(),
        "long_": catch(lambda: t.tensor([1, 2]).i0_()),
        "layout": meta(t.tensor(arr(3, 4)).t().i0()),
        "grad": grad_of(t, lambda a: a.i0(), (2, 3)),
        "grad_big": grad_of(t, lambda a: (a * 6).i0(), (2, 3)),
        "leaf_": catch(lambda: leaf(t, arr(2)).i0_()),
    }
    a = leaf(t, arr(2, 3, seed=8))
    w = a * 1
    w.i0_()
    out["inplace_node"] = (fn_name(w.grad_fn), saved(w.grad_fn))
    w.backward(upstream(t, w))
    out["inplace_grad"] = a.grad
    return out



@prog
def reduced_precision_shape_ops(t):
    out = {}
    for d in (t.float16, t.bfloat16):
        x = t.tensor(arr(3, 4, seed=14)).to(d)
        out[str(d)] = {
            "sort": x.sort(1), "topk": x.topk(2), "argsort": x.argsort(0),
            "cumsum": x.cumsum(1), "cumprod": x.cumprod(0), "flip": x.flip(0),
            "roll": x.roll(1, 1), "tril": x.tril(), "norm": x.norm(), "norm1": x.norm(1, 1),
            "renorm": x.renorm(2, 0, 1.0), "i0": x.i0(), "unfold": x.unfold(1, 2, 2),
            "cumsum_": x.clone().cumsum_(0), "i0_": x.clone().i0_(),
        }
    return out


@prog
def shape_views_under_modes(t):
    a = leaf(t, arr(3, 3, seed=15))
    y = a * 1
    with t.no_grad():
        d = y.diagonal()
        u = y.unfold(1, 2, 1)
    out = {"no_grad": (d.requires_grad, u.requires_grad, d.grad_fn is None)}
    out["no_grad_write"] = catch(lambda: d.mul_(2))
    out["no_grad_write_unfold"] = catch(lambda: u.mul_(2))
    with t.inference_mode():
        x = t.ones(3, 3)
        dv = x.diagonal()
        s = x.sort(0).values
    out["inference"] = (dv.is_inference(), s.is_inference(), catch(lambda: dv.add_(1)))
    b = leaf(t, arr(3, 3, seed=16))
    z = b * 2
    z.retain_grad()
    z.tril_()
    z.sum().backward()
    out["retain_grad_tril_"] = (z.retains_grad, z.grad, b.grad)
    return out

@pytest.mark.parametrize("prog", prog.params())
def test_reorder_sort_norm_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
