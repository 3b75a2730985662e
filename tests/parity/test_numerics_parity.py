"""Numerics of issue 10 on torch 2.13 and the core: which of several equal values sort and
topk put first (values AND indices, with NaN, -0.0, every dtype, stable or not); how wide
cumsum/cumprod's running value is.

Integer indices are compared exactly, so a tie put in another order fails the program; float
results are compared bit for bit through ``bits``.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


def bits(x):
    """The bit patterns of a float tensor's values (float16/bfloat16 widened exactly to
    float32 first): the harness compares arrays of integers exactly."""
    a = x.detach()
    a = (a.double() if str(a.dtype) == "torch.float64" else a.float()).numpy()
    return a.view(np.int64 if a.dtype == np.float64 else np.int32).copy()


def _ties(*shape, seed=0, levels=4, nan=0.0, negzero=0.0):
    """float32 values from a few levels (so most values tie), some NaN and -0.0 if asked."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, levels, size=shape).astype(np.float32)
    a[rng.random(shape) < nan] = np.nan
    a[(a == 0) & (rng.random(shape) < negzero)] = -0.0
    return a


# ======================================================================================
# sort / argsort: std::sort (stable=False, the default) or std::stable_sort


@prog
def sort_ties_std_sort_order(t):
    out = {}
    for n in (5, 16, 17, 40, 333, 2000):
        x = t.tensor(_ties(n, seed=n, nan=0.1, negzero=0.5))
        out[n] = {
            "asc": x.sort(), "desc": x.sort(descending=True),
            "unstable": x.sort(stable=False, descending=True),
            "stable": x.sort(stable=True), "stable_desc": x.sort(stable=True, descending=True),
            "argsort": x.argsort(), "argsort_desc": x.argsort(descending=True),
            "argsort_stable": x.argsort(stable=True, descending=True),
        }
    return out


@prog
def sort_ties_along_each_dim(t):
    x = t.tensor(_ties(6, 40, 30, seed=3, levels=3, nan=0.05))
    return {f"d{d}_{desc}": x.sort(d, desc) for d in (0, 1, 2) for desc in (False, True)} | {
        "t": x.transpose(0, 2).sort(1),
        "slice": x[:, ::2].sort(1, True),
    }


@prog
def sort_ties_every_dtype(t):
    a = _ties(4, 300, seed=5, levels=5)
    out = {}
    for name in ("float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8",
                 "bool"):
        x = t.tensor(a).to(getattr(t, name))
        out[name] = (x.sort(), x.sort(0, True), x.argsort(1, True))
    return out


@prog
def sort_patterns(t):
    """Sorted, reversed, organ-pipe and saw-tooth lines: the pivots' worst cases."""
    n = 3000
    pats = {
        "sorted": np.arange(n) // 7, "reversed": np.arange(n)[::-1] // 7,
        "organ": np.concatenate([np.arange(n // 2), np.arange(n // 2)[::-1]]) // 3,
        "saw": np.arange(n) % 17, "same": np.zeros(n),
    }
    return {k: (t.tensor(p.astype(np.float32)).sort(), t.tensor(p.astype(np.float32)).sort(
        descending=True)) for k, p in pats.items()}


@prog
def sort_long_integer_radix(t):
    """A 1-D integer tensor of 32768 or more elements sorted ascending goes to FBGEMM's
    (stable) radix sort; shorter, descending or 2-D ones to std::sort."""
    a = np.random.default_rng(7).integers(0, 3, 33000)
    x = t.tensor(a)
    return {
        "radix": x.sort().indices, "int8": x.to(t.int8).argsort(),
        "desc": x.sort(descending=True).indices, "short": x[:32767].argsort(),
        "bool": x.bool().argsort(), "float": x.float().argsort(),
    }


@prog
def sort_expanded_line_keeps_index_order(t):
    x = t.tensor([2.0]).expand(50)
    y = t.tensor(_ties(40, 1, seed=2)).expand(40, 30)
    return {"sort": x.sort(), "argsort": x.argsort(descending=True), "rows": y.sort(1),
            "cols": y.sort(0)}


# ======================================================================================
# topk: std::partial_sort (k * 64 <= n) or std::nth_element (+ std::sort of k - 1)


@prog
def topk_ties_order(t):
    out = {}
    for n in (10, 64, 65, 200, 3000):
        x = t.tensor(_ties(n, seed=n + 1, nan=0.05, negzero=0.5))
        for k in sorted({1, 2, n // 64, n // 64 + 1, n // 3, n - 1, n} - {0}):
            out[f"{n}_{k}"] = (x.topk(k), x.topk(k, largest=False),
                               x.topk(k, sorted=False), x.topk(k, largest=False, sorted=False))
    return out


@prog
def topk_unsorted_without_ties(t):
    """sorted=False leaves std::nth_element's arrangement, ties or not."""
    x = t.tensor(arr(500, seed=3))
    return {k: (x.topk(k, sorted=False), x.topk(k, largest=False, sorted=False))
            for k in (3, 7, 8, 9, 100, 499)}


@prog
def topk_ties_dims_and_dtypes(t):
    a = _ties(5, 120, seed=9, levels=3)
    out = {}
    for name in ("float32", "float16", "bfloat16", "int64", "int8", "uint8"):
        x = t.tensor(a).to(getattr(t, name))
        out[name] = (x.topk(30), x.topk(2, 0, largest=False), x.t().topk(1, 0, sorted=False))
    return out


# ======================================================================================
# cumsum / cumprod: the running value is acc_type<T, false> (double for float)


@prog
def cumsum_float32_accumulates_in_float64(t):
    """100000 float32 terms: summed in float32 the result drifts by many units in the last
    place; PyTorch's CPU loop keeps a double and rounds each output once."""
    x = t.tensor(arr(3, 100000, seed=1, low=-1.0, high=1.0))
    y = t.tensor(arr(40000, 3, seed=2, low=0.0, high=1.0))
    z = x.clone()
    z.cumsum_(1)
    return {"d1": bits(x.cumsum(1)), "d0": bits(y.cumsum(0)), "t": bits(y.t().cumsum(1)),
            "inplace": bits(z), "slice": bits(x[:, ::3].cumsum(-1)),
            "module": bits(t.cumsum(y, dim=0)),
            "from_double": bits(x.double().cumsum(1, dtype=t.float32)),
            "from_half": bits(x.half().cumsum(1, dtype=t.float32))}


@prog
def cumprod_float32_accumulates_in_float64(t):
    x = t.tensor(1 + arr(2, 60000, seed=3, low=-1e-3, high=1e-3))
    z = x.clone()
    z.cumprod_(1)
    return {"d1": bits(x.cumprod(1)), "d0": bits(x.t().cumprod(0)), "inplace": bits(z),
            "long": bits(t.tensor(1 + arr(5, 7, 3000, seed=4, low=-1e-3, high=1e-3)).cumprod(2))}


@prog
def cumsum_cumprod_reduced_accumulate_in_float32(t):
    x = t.tensor(arr(4, 5000, seed=5, low=-1.0, high=1.0))
    out = {}
    for name in ("float16", "bfloat16"):
        h = x.to(getattr(t, name))
        p = (1 + x * 1e-3).to(getattr(t, name))
        hi = h.clone()
        hi.cumsum_(0)
        out[name] = (bits(h.cumsum(1)), bits(h.cumsum(0)), bits(p.cumprod(1)), bits(hi))
    out["float64"] = bits(x.double().cumsum(1))
    return out


@prog
def cumsum_cumprod_backward_float32(t):
    x = t.tensor(1 + arr(2, 30000, seed=6, low=-1e-3, high=1e-3), requires_grad=True)
    g = t.tensor(arr(2, 30000, seed=7, low=-1.0, high=1.0))
    x.cumsum(1).backward(g)
    gs = x.grad.clone()
    x.grad = None
    x.cumprod(1).backward(g)
    return {"cumsum": bits(gs), "cumprod": bits(x.grad)}


# ======================================================================================
# float16 / bfloat16 addcmul, addcdiv, lerp: float32 opmath, FMA, one rounding at the end


def _spread(n, seed):
    """Values over twelve decades, so that an addend far below the product (where a fused
    multiply-add and two roundings disagree) is common."""
    rng = np.random.default_rng(seed)
    return (rng.uniform(-1, 1, n) * 10.0 ** rng.integers(-8, 5, n)).astype(np.float32)


def _reduced_ternary(t, name):
    d = getattr(t, name)
    a, b = arr(20011, seed=1), arr(20011, seed=2)
    c = np.where(np.abs(arr(20011, seed=3)) < 0.1, 0.5, arr(20011, seed=3)).astype(np.float32)
    e = _spread(20011, 4)
    out = {}
    for k, (x0, x1, x2) in {"uniform": (a, b, c), "small_self": (e, b, c),
                            "spread": (a, e, e)}.items():
        x0, x1, x2 = (t.tensor(v).to(d) for v in (x0, x1, x2))
        r = {}
        for v in (1, 0.7, -1.3, 3):
            r[f"addcmul_{v}"] = bits(x0.addcmul(x1, x2, value=v))
            r[f"addcdiv_{v}"] = bits(x0.addcdiv(x1, x2, value=v))
            y = x0.clone()
            y.addcmul_(x1, x2, value=v)
            z = x0.clone()
            z.addcdiv_(x1, x2, value=v)
            r[f"inplace_{v}"] = (bits(y), bits(z))
        for w in (0.3, 0.5, 0.7, -0.2, 1.5):
            y = x0.clone()
            y.lerp_(x1, w)
            r[f"lerp_{w}"] = (bits(x0.lerp(x1, w)), bits(y))
        r["lerp_tensor"] = bits(x0.lerp(x1, x2))
        r["strided"] = bits(x0[::3].addcmul(x1[::3], x2[::3], value=0.7))
        r["broadcast"] = bits(x0[:600].reshape(-1, 1).addcdiv(x1[:7], x2[:7]))
        out[k] = r
    s = t.tensor([float("nan"), float("inf"), -float("inf"), 1.0, 0.0, -0.0, 60000.0]).to(d)
    r = s.addcmul(s.flip(0), s, value=2)
    out["special"] = (r != r, r.nan_to_num(0.0))
    return out


@prog
def half_addcmul_addcdiv_lerp_bits(t):
    return _reduced_ternary(t, "float16")


@prog
def bfloat16_addcmul_addcdiv_lerp_bits(t):
    return _reduced_ternary(t, "bfloat16")


# ======================================================================================
# NaN sign bits


@prog
def neg_flips_the_sign_bit_of_nan(t):
    v = np.array([np.nan, -np.nan, 1.0, -1.0, 0.0, -0.0, np.inf], np.float32)
    x = t.tensor(v)
    y = x.clone()
    y.neg_()
    h = x.half()
    return {"neg": bits(x.neg()), "neg_": bits(y), "op": bits(-x),
            "float64": bits(x.double().neg()),
            "strided": bits(x.reshape(7, 1).expand(7, 3).t()[1].neg()),
            "where": bits(t.where(x > 0, x, -x)),
            "half": h.neg().detach().numpy().view(np.int16).copy(),
            "int8": t.tensor([1, -2, 0, -128], dtype=t.int8).neg(),
            "uint8": t.tensor([1, 2, 0], dtype=t.uint8).neg()}


# ======================================================================================
# out-of-place twins: torch.fill, torch.bernoulli, Tensor.bernoulli, torch.detach


def _draw_meta(t, r):
    """Shape, dtype, strides, requires_grad, node: what a random draw must share with torch
    (its values come from the core's own generator)."""
    if not isinstance(r, t.Tensor):
        return r
    return (tuple(r.shape), str(r.dtype), r.stride(), r.requires_grad,
            None if r.grad_fn is None else r.grad_fn.name())


@prog
def fill_bernoulli_detach_twins(t):
    p = t.full((2, 3), 0.5, requires_grad=True)
    g = None  # the core has no Generator class (its fills take and ignore the argument)
    v = t.tensor(2.0, requires_grad=True)
    draws = {
        "bern": lambda: t.bernoulli(p), "bern_p": lambda: t.bernoulli(p, 0.3),
        "bern_p_kw": lambda: t.bernoulli(p, p=0.3), "bern_gen": lambda: t.bernoulli(p, generator=g),
        "method": lambda: p.bernoulli(), "method_p": lambda: p.bernoulli(0.2),
        "method_p_kw": lambda: p.bernoulli(p=0.2),
        "half": lambda: t.bernoulli(t.full((2,), 0.5, dtype=t.float16)),
        "int_p": lambda: t.bernoulli(t.tensor([1, 0]), 0.5),
        "transposed": lambda: t.bernoulli(p.detach().t()),
        "errors": lambda: (catch(lambda: t.bernoulli(t.tensor([1, 0]))),
                           catch(lambda: t.bernoulli(p.detach(), 1.5)),
                           catch(lambda: t.bernoulli(t.tensor([1.5]))),
                           catch(lambda: t.bernoulli(0.5)), catch(lambda: t.bernoulli(p, "a")),
                           catch(lambda: p.bernoulli("a")), catch(lambda: p.bernoulli(p))),
        "backward_p": lambda: catch(lambda: t.bernoulli(p, 0.3).sum().backward()),
    }
    out = {k: _draw_meta(t, f()) for k, f in draws.items()}
    t.bernoulli(p).sum().backward()
    out["grad"] = p.grad
    x = t.tensor(arr(2, 3, seed=5), requires_grad=True)
    f0, f1 = t.fill(x, 2.5), t.fill(x * 1, v)
    (f0 * x).sum().backward()
    f1.sum().backward()
    out["fill"] = (f0, f1, _draw_meta(t, f0), _draw_meta(t, f1), x.grad, v.grad,
                   t.fill(x.detach().t(), 1.0).stride(), t.fill(t.tensor([1, 2]), 2.5),
                   t.fill(x, value=3), catch(lambda: t.fill(x, t.ones(2))),
                   catch(lambda: t.fill(x, "a")), catch(lambda: t.fill(1.0, 2)))
    d = t.detach(x)
    out["detach"] = (d, d.requires_grad, d.grad_fn is None, d.data_ptr() == x.data_ptr(),
                     d._version)
    return out


# ======================================================================================
# view nodes: every ``_saved_*`` torch lists in dir(grad_fn), with its value, and no other


def _saved_fields(t, y):
    """(node name, {field: value}) for every _saved_* attribute the node lists."""
    g = y.grad_fn
    out = {}
    for name in dir(g):
        if name.startswith("_saved_"):
            v = getattr(g, name)
            out[name] = tuple(int(i) for i in v) if isinstance(v, (tuple, list)) else v
    return type(g).__name__, out


def _view_programs(t, x):
    return {
        "view": lambda: x().view(6, 4), "view_neg": lambda: x().view(-1, 2),
        "reshape_copy": lambda: x().transpose(0, 1).reshape(-1), "flatten": lambda: x().flatten(),
        "unflatten": lambda: x().unflatten(2, (2, 2)), "view_as": lambda: x().view_as(x()[0, 0]
                                                                                     .expand(24)),
        "t": lambda: x()[0].t(), "T": lambda: x()[0].T, "mT": lambda: x().mT,
        "transpose": lambda: x().transpose(0, 2), "transpose_neg": lambda: x().transpose(-1, 0),
        "swapdims": lambda: x().swapdims(0, 1), "permute": lambda: x().permute(2, 0, 1),
        "permute_neg": lambda: x().permute(-1, 0, -2), "movedim": lambda: x().movedim(0, 2),
        "expand": lambda: x()[:, :1].expand(2, 5, 4), "expand_neg": lambda: x()[:, :1].expand(
            3, -1, 5, -1),
        "squeeze": lambda: x()[:, :1].squeeze(), "squeeze_dim": lambda: x()[:, :1].squeeze(1),
        "squeeze_neg": lambda: x()[:, :1].squeeze(-2),
        "squeeze_dims": lambda: x()[:1, :, :1].squeeze((0, -1)),
        "unsqueeze": lambda: x().unsqueeze(1), "unsqueeze_neg": lambda: x().unsqueeze(-1),
        "select": lambda: x()[1], "select_neg": lambda: x().select(-1, -2),
        "getitem_int": lambda: x()[:, 1],
        "slice": lambda: x()[:, 1:3], "slice_step": lambda: x()[..., ::2],
        "slice_neg": lambda: x()[-1:], "slice_past_end": lambda: x()[:, 1:10],
        "slice_neg_end": lambda: x()[:, -2:-1], "narrow": lambda: x().narrow(2, 1, 2),
        "narrow_neg": lambda: x().narrow(-1, -2, 1),
        "as_strided": lambda: x().as_strided((2, 2), (3, 1), 1),
        "as_strided_no_offset": lambda: x().as_strided((2, 2), (3, 1)),
        "unfold": lambda: x().unfold(2, 2, 1), "unfold_neg": lambda: x().unfold(-1, 2, 2),
        "diagonal": lambda: x().diagonal(), "diagonal_neg": lambda: x().diagonal(-1, -1, 0),
        "split": lambda: x().split(1, 2)[0], "split_neg": lambda: x().split(2, -1)[1],
        "split_sizes": lambda: x().split([1, 3], 2)[1], "chunk": lambda: x().chunk(3, -1)[0],
        "unbind": lambda: x().unbind(1)[0], "unbind_neg": lambda: x().unbind(-1)[2],
        "alias": lambda: x()[...],
    }


@prog
def view_nodes_saved_fields(t):
    def x():
        return t.tensor(np.arange(24.0, dtype=np.float32).reshape(2, 3, 4), requires_grad=True)
    return {k: _saved_fields(t, f()) for k, f in _view_programs(t, x).items()}


@prog
def view_nodes_gradients_with_negative_args(t):
    """The nodes keep the arguments as given; their backward still wraps them right."""
    out = {}
    for k in _view_programs(t, None):
        a = t.tensor(arr(2, 3, 4, seed=8), requires_grad=True)
        y = _view_programs(t, lambda a=a: a * 1)[k]()
        y.backward(t.tensor(arr(*tuple(y.shape), seed=9)))
        out[k] = a.grad
    return out


@prog
def inplace_view_nodes_saved_fields(t):
    def meta(f):
        y = t.tensor(np.arange(24.0, dtype=np.float32).reshape(2, 3, 4), requires_grad=True) * 1
        f(y)
        return _saved_fields(t, y)
    def regenerated(f):
        y = t.tensor(np.arange(24.0, dtype=np.float32).reshape(2, 3, 4), requires_grad=True) * 1
        v = f(y)
        v.mul_(2)
        return _saved_fields(t, v)
    return {
        "transpose_": meta(lambda y: y.transpose_(0, -1)),
        "unsqueeze_": meta(lambda y: y.unsqueeze_(-1)), "squeeze_": meta(lambda y: y.squeeze_()),
        "squeeze_dim_": meta(lambda y: y.squeeze_(-1)),
        "squeeze_dims_": meta(lambda y: y.squeeze_((0,))),
        "as_strided_": meta(lambda y: y.as_strided_((2, 2), (3, 1), 2)),
        "as_strided_no_offset_": meta(lambda y: y.as_strided_((2, 2), (3, 1))),
        "regenerated_select": regenerated(lambda y: y[:, 1]),
        "regenerated_transpose": regenerated(lambda y: y.transpose(0, 1)),
    }


@pytest.mark.parametrize("prog", prog.params())
def test_numerics_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
