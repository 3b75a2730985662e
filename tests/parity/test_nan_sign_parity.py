"""NaN sign bits, -0.0 and reinterpreting casts on torch 2.13 and the core (issue 10), and
the small methods that came with them: ``Tensor.where``.

Float results are compared bit for bit: ``bits`` turns a float tensor into its integer bit
patterns, so a NaN whose sign or payload differs, or a 0.0 where torch has -0.0, fails the
program (the harness's value comparison treats every NaN alike and -0.0 == 0.0).
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, meta, ptr_delta, upstream

pytestmark = pytest.mark.parity

prog = Registry()


def bits(x):
    """A float tensor's bit patterns as integers (float16/bfloat16 read through
    ``view(int16)``: widening them to float32 would itself change a signalling NaN's bits in
    PyTorch): the harness compares integer arrays exactly."""
    a = x.detach()
    if a.element_size() == 2:
        int16 = a.new_zeros(()).short().dtype  # of a's own module, torch or the core
        return a.view(int16).numpy().copy()
    a = (a.double() if str(a.dtype) == "torch.float64" else a.float()).numpy()
    return a.view(np.int64 if a.dtype == np.float64 else np.int32).copy()


# ======================================================================================
# NaN sign bits and signed zeros


def _special(t, dtype, nans=True):
    """±NaN (quiet, with a payload, signalling), ±0.0, ±1, ±inf as exact bit patterns."""
    if dtype in ("float32", "float64"):
        wide = dtype == "float64"
        u = np.array([0x7FC00000, 0xFFC00000, 0x7FC12345, 0xFFC12345, 0x7FA00000]
                     if nans else [], dtype=np.uint32)
        if wide:
            a = np.array([0x7FF8000000000000, 0xFFF8000000000000, 0x7FF8000012345000,
                          0xFFF8000012345000, 0x7FF4000000000000] if nans else [],
                         dtype=np.uint64).view(np.float64)
        else:
            a = u.view(np.float32)
        rest = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 2.5, -0.5],
                        dtype=np.float64 if wide else np.float32)
        return t.tensor(np.concatenate([a, rest]))
    rest = [0.0, -0.0, 1.0, -1.0, float("inf"), -float("inf"), 2.5, -0.5]
    return t.tensor(rest).to(getattr(t, dtype))


def _lengths(t, x):
    """x alone (PyTorch's element loop), repeated to 37 and 200 elements (vectors, then a
    tail), and a strided view of the long one."""
    long = x.repeat(200 // x.numel() + 1)[:200]
    return {"short": x, "37": x.repeat(4)[:37], "200": long, "strided": long[::3]}


@prog
def sign_of_nan_is_zero(t):
    out = {}
    for dtype in ("float32", "float64"):
        for k, x in _lengths(t, _special(t, dtype)).items():
            y = x.clone()
            out[f"{dtype}_{k}"] = (bits(x.sign()), bits(x.sgn()), bits(y.sign_()),
                                   bits(x.clone().sgn_()))
    for dtype in ("float16", "bfloat16"):
        x = _special(t, dtype)
        x = t.cat([x, t.tensor([float("nan"), -float("nan")]).to(getattr(t, dtype))])
        out[dtype] = (bits(x.sign()), bits(x.sgn()), bits(x.clone().sign_()))
    return out


@prog
def relu_and_scalar_clamps_keep_self_on_ties(t):
    """``x < lo ? lo : x``: relu(-0.0) is -0.0, clamp_min(0.0, -0.0) is 0.0, a NaN passes
    through with its sign and payload; a NaN bound makes every element the canonical NaN."""
    out = {}
    for dtype in ("float32", "float64"):
        for k, x in _lengths(t, _special(t, dtype)).items():
            out[f"{dtype}_{k}"] = {
                "relu": bits(x.relu()), "relu_": bits(x.clone().relu_()),
                "clamp_min_0": bits(x.clamp_min(0.0)), "clamp_min_-0": bits(x.clamp_min(-0.0)),
                "clamp_max_0": bits(x.clamp_max(0)), "clamp_max_-0": bits(x.clamp_max(-0.0)),
                "clamp": bits(x.clamp(-0.0, 0.0)), "clamp_": bits(x.clone().clamp_(0.0, -0.0)),
                "clamp_min_": bits(x.clone().clamp_min_(-0.0)),
                "clamp_nan": bits(x.clamp(min=float("nan"))),
            }
    for dtype in ("float16", "bfloat16"):
        for k, x in _lengths(t, _special(t, dtype, nans=False)).items():
            out[f"{dtype}_{k}"] = (bits(x.relu()), bits(x.clone().relu_()),
                                   bits(x.clamp_min(-0.0)), bits(x.clamp(0.0, -0.0)))
    return out


def _pairs(t, dtype, n, seed):
    """Two tensors of n special values each (every NaN kind, both zeros), drawn at random."""
    pool = _special(t, dtype, nans=dtype in ("float32", "float64"))
    if dtype in ("float16", "bfloat16"):  # their NaNs: made by a cast, both signs
        nan = t.tensor([float("nan"), -float("nan")]).to(getattr(t, dtype))
        pool = t.cat([pool, nan])
    rng = np.random.default_rng(seed)
    pick = [t.tensor(rng.integers(0, pool.numel(), n)) for _ in range(2)]
    return pool[pick[0]], pool[pick[1]]


@prog
def maximum_minimum_nan_and_zero_bits(t):
    """The element loop: canonical NaN, a tie keeps self; vectors of 64 bytes: all-ones NaN,
    a tie keeps other. Lengths below, at and past a register, broadcasts, strided views."""
    out = {}
    for dtype in ("float32", "float64", "float16", "bfloat16"):
        for n in (1, 7, 16, 17, 40, 100):
            a, b = _pairs(t, dtype, 2 * n, n)
            a2, b2 = a.reshape(2, n), b.reshape(2, n)
            for name in ("maximum", "minimum"):
                f = getattr(t, name)
                out[f"{dtype}_{n}_{name}"] = (
                    bits(f(a, b)), bits(f(a2, b2[:1])), bits(f(a2, b[:1])), bits(f(a2, b[0])),
                    bits(f(a2.t(), b2.t())), bits(f(a2[:, 1::2], b2[:, : n // 2 * 2 : 2])),
                    bits(getattr(a2, name)(b2)))
    return out


@prog
def maximum_minimum_out_bits(t):
    """out= leaves the bits the method leaves (a fresh out; an out that is an input is not
    compared here)."""
    out = {}
    for dtype in ("float32", "float64", "float16", "bfloat16"):
        for n in (7, 40, 100):
            a, b = _pairs(t, dtype, 2 * n, 300 + n)
            a2, b2 = a.reshape(2, n), b.reshape(2, n)
            for name in ("maximum", "minimum"):
                f = getattr(t, name)
                o, o_t = t.empty(2, n, dtype=a.dtype), t.empty(n, 2, dtype=a.dtype).t()
                f(a2, b2, out=o)
                f(a2, b2[:1], out=o_t)
                out[f"{dtype}_{n}_{name}"] = (bits(o), bits(o_t))
    return out


@prog
def clamp_min_max_tensor_bound_bits(t):
    out = {}
    for dtype in ("float32", "float64"):
        for n in (1, 5, 17, 33, 70):
            a, b = _pairs(t, dtype, n, 100 + n)
            out[f"{dtype}_{n}"] = (bits(a.clamp_min(b)), bits(a.clamp_max(b)),
                                   bits(a.clamp_min(b[:1])), bits(a.clamp_max(b[0])))
    return out


def _nan_halves(t, dtype):
    """16-bit NaNs with a sign, a payload and the signalling bit, as exact bit patterns."""
    pats = ([0x7E00, 0xFE00, 0x7E23, 0xFE23, 0x7D00, 0x3C00, 0x8000] if dtype == "float16"
            else [0x7FC0, 0xFFC0, 0x7FC3, 0xFFC3, 0x7FA0, 0x3F80, 0x8000])
    return t.tensor(pats, dtype=t.int16 if max(pats) < 0x8000 else t.int32).to(t.int16).view(
        getattr(t, dtype))


@prog
def casts_keep_nan_bits_as_torch(t):
    """float32 -> float16 quiets a signalling NaN, -> bfloat16 makes every NaN all ones;
    float16 -> bfloat16 gives the canonical NaN, bfloat16 -> float16 keeps sign and payload
    (quieted), float16 -> float64 quiets: at every length."""
    out = {}
    f32 = _special(t, "float32")
    for n in (1, 11, 64, 143):
        x = f32.repeat(n // f32.numel() + 1)[:n] if n > 1 else f32[4:5]
        out[f"f32_{n}"] = (bits(x.half()), bits(x.to(t.bfloat16)), bits(x.double()))
        for dtype in ("float16", "bfloat16"):
            h = _nan_halves(t, dtype)
            h = h.repeat(n // h.numel() + 1)[:n] if n > 1 else h[4:5]
            other = t.bfloat16 if dtype == "float16" else t.float16
            out[f"{dtype}_{n}"] = (bits(h.to(other)), bits(h.double()))
    return out


# ======================================================================================
# Tensor.where(condition, other): torch.where(condition, self, other) as a method


@prog
def where_method_values_and_grads(t):
    x = leaf(t, arr(2, 3, seed=1))
    y = leaf(t, arr(3, seed=2))
    r = x.where(x > 0, y)
    saved = r.grad_fn._saved_condition
    r.backward(upstream(t, r))
    s = x.where(condition=x < 0, other=-1.5)
    return {"r": r, "fn": fn_name(r.grad_fn), "saved": saved,
            "saved_after_backward": catch(lambda: r.grad_fn._saved_condition),
            "gx": x.grad, "gy": y.grad, "s": s, "s_fn": fn_name(s.grad_fn),
            "nexts": [None if f is None else fn_name(f) for f, _ in r.grad_fn.next_functions]}


@prog
def where_method_promotion_and_broadcast(t):
    i = t.tensor([1, 2, 3])
    c = t.tensor([True, False, True])
    return {
        "int_float_scalar": i.where(c, 1.5), "int_int_scalar": i.where(c, 7),
        "float_double": t.tensor([1.0, 2.0, 3.0]).where(c, t.zeros(3, dtype=t.float64)),
        "broadcast": t.tensor([1.0, 2.0, 3.0]).where(c, t.zeros(2, 1)),
        "cond_broadcast": t.tensor(arr(2, 3)).where(t.tensor([[True], [False]]), 0.0),
        "half": t.tensor([1.0, 2.0, 3.0]).half().where(c, 2.5),
        "bool_self": c.where(c, False),
    }


@prog
def where_method_bad_calls(t):
    x = t.tensor([1.0, -2.0, 3.0])
    c = x > 0
    return {
        "no_other": catch(lambda: x.where(c)),
        "float_condition": catch(lambda: x.where(x, 0)),
        "int_condition": catch(lambda: x.where(1, 0.0)),
        "str_other": catch(lambda: x.where(c, "a")),
        "none_other": catch(lambda: x.where(c, other=None)),
        "bad_shape": catch(lambda: x.where(c, t.zeros(2))),
    }


# ======================================================================================
# Tensor.view(dtype): the same bytes read as another dtype


def _geometry(x):
    return None if not hasattr(x, "stride") else (meta(x), x.requires_grad, x._is_view(),
                                                  x._base is None, x.is_leaf, fn_name(x.grad_fn))


@prog
def view_dtype_same_size_values_and_layout(t):
    x = t.tensor(np.array([1.0, -0.0, 2.5, -3.0, np.inf, np.nan], dtype=np.float32))
    out = {}
    for name in ("int32", "float32"):
        v = x.view(getattr(t, name))
        out[name] = (v, _geometry(v), ptr_delta(v, x), v is x)
    h = x.half()
    out["half_as_int16"] = h.view(t.int16)
    out["half_as_bf16_as_int16"] = h.view(t.bfloat16).view(t.int16)
    out["int_as_float_keyword"] = t.tensor([1065353216, -1082130432], dtype=t.int32).view(
        dtype=t.float32)
    out["u8_as_bool"] = t.tensor([1, 0, 1], dtype=t.uint8).view(t.bool)
    out["python_types"] = (t.tensor([1.0, 2.0], dtype=t.float64).view(int),
                           t.tensor([1, 2]).view(float), t.tensor([1, 0], dtype=t.int8).view(bool))
    out["strided"] = _geometry(t.tensor(arr(4, 6)).t()[1:, ::2].view(t.int32))
    out["zero_dim"] = _geometry(t.tensor(1.5).view(t.int32))
    return out


@prog
def view_dtype_narrower_and_wider(t):
    x = t.tensor(arr(2, 3, 4, seed=3)).double()
    out = {}
    for name in ("float32", "int16", "int8", "uint8", "float16", "bfloat16"):
        v = x.view(getattr(t, name))
        out[name] = (_geometry(v), v.view(t.float64) if name != "bfloat16" else None)
    out["int8_bytes"] = x.view(t.uint8)
    y = t.tensor(arr(3, 8, seed=4))
    out["wider"] = {
        "f64": (y.view(t.float64), _geometry(y.view(t.float64))),
        "i64_slice": _geometry(y[1:, 2:6].view(t.int64)),
        "u8_to_i32": t.tensor(np.arange(16, dtype=np.uint8)).view(t.int32),
        "u8_to_f64": _geometry(t.tensor(np.arange(48, dtype=np.uint8)).reshape(3, 16)[:, 8:]
                               .view(t.float64)),
        "expanded": _geometry(t.tensor([1.0, 2.0]).expand(3, 2).view(t.float64)),
        "empty": _geometry(t.empty(0).view(t.float64)),
        "ptr": ptr_delta(y[1:, 2:].view(t.float64), y),
    }
    return out


@prog
def view_dtype_bad_geometry(t):
    x = t.tensor(arr(2, 3, 4))
    return {
        "odd_last": catch(lambda: x[:, :, :3].view(t.float64)),
        "odd_offset": catch(lambda: x[:, :, 1:3].view(t.float64)),
        "transposed_wide": catch(lambda: x.transpose(1, 2).view(t.float64)),
        "transposed_narrow": catch(lambda: x.transpose(1, 2).view(t.float16)),
        "odd_stride": catch(lambda: t.tensor(arr(30)).as_strided((3, 4), (5, 1)).view(
            t.float64)),
        "zero_dim_wide": catch(lambda: t.tensor(1.0).view(t.float64)),
        "zero_dim_narrow": catch(lambda: t.tensor(1.0).view(t.uint8)),
        "empty_2d": catch(lambda: t.empty(2, 0).view(t.float64)),
        "expanded_narrow": catch(lambda: t.tensor([1.0]).expand(4).view(t.float16)),
        "int16_to_int64": catch(lambda: t.zeros(2, 6, dtype=t.int16).view(t.int64)),
    }


@prog
def view_dtype_bad_arguments(t):
    x = t.tensor(arr(2, 4))
    return {
        "dtype_and_int": catch(lambda: x.view(t.int32, 2)),
        "int_and_dtype": catch(lambda: x.view(2, t.int32)),
        "str": catch(lambda: x.view("a")),
        "none": catch(lambda: x.view(None)),
        "list_of_dtype": catch(lambda: x.view([t.int32])),
        "size_keyword": x.view(size=(8,)),
        "size_keyword_dtype": catch(lambda: x.view(size=t.int32)),
    }


@prog
def view_dtype_autograd(t):
    """No history, never requires grad, shares the version counter: a write through it
    invalidates what autograd saved of the original."""
    out = {}
    x = leaf(t, arr(4, seed=5))
    for name in ("float32", "int32", "float16", "float64"):
        v = x[:4].view(getattr(t, name)) if name != "float64" else x.view(t.float64)
        out[name] = _geometry(v)
    y = x * 2
    s = y.sin()
    v = y.view(t.int32)
    v.add_(1)
    out["versions"] = (y._version, v._version, x._version)
    out["backward"] = catch(lambda: s.sum().backward())
    out["y_after_write"] = y  # the lowest mantissa bits changed
    w = x.view(t.float32)
    w.mul_(2)  # writes into a leaf that requires grad: allowed, no history to protect
    out["leaf_write"] = (x._version, w._version, w.requires_grad)
    out["requires_grad_"] = catch(lambda: y.view(t.float16).requires_grad_().requires_grad)
    x2 = leaf(t, arr(3, seed=6))
    z = x2.exp()
    out["exp_then_reinterpret"] = catch(lambda: (z.view(t.int32).zero_(), z.sum().backward()))
    return out


@prog
def view_dtype_inference_and_no_grad(t):
    with t.inference_mode():
        it = t.ones(4)
        inside = it.view(t.int32)
        inside_flags = (inside.is_inference(), catch(lambda: inside._version))
    outside = it.view(t.int32)
    outside.add_(1)
    with t.no_grad():
        ng = (leaf(t, arr(2)) * 1).view(t.int32)
    return {"inside": inside_flags,
            "outside": (outside.is_inference(), outside._version, it),
            "no_grad": _geometry(ng)}


# ======================================================================================
# index_add with alpha != 1 in float16/bfloat16: where PyTorch rounds alpha * source


def _index_add_case(t, dtype, shape, dim, n, seed, high=2):
    rng = np.random.default_rng(seed)
    x = t.tensor(rng.uniform(-3, 3, shape).astype(np.float32)).to(dtype)
    src_shape = list(shape)
    src_shape[dim] = n
    src = t.tensor(rng.uniform(-3, 3, src_shape).astype(np.float32)).to(dtype)
    return x, t.tensor(rng.integers(0, min(high, shape[dim]), n)), src


_INDEX_ADD_SHAPES = [((7,), 0), ((40,), 0), ((5, 3), 0), ((5, 3), 1), ((6, 40), 0), ((6, 40), 1),
                     ((3, 4, 70), 1), ((70, 3), 1), ((2, 100), 0), ((3, 2, 33), 0),
                     ((2, 5, 3), 1)]


@prog
def index_add_alpha_16bit_rounding(t):
    """Vectors of 32 in float32 (one rounding), tails and strided rows element by element
    (the product rounded to 16 bits, then the sum); 1-D: the element loop; repeated indices."""
    out = {}
    for dtype in (t.float16, t.bfloat16):
        for shape, dim in _INDEX_ADD_SHAPES:
            for alpha in (0.1, -1.7, 3.3, 1.0009765625):
                x, idx, src = _index_add_case(t, dtype, shape, dim, 5, len(out))
                y = x.clone()
                y.index_add_(dim, idx, src, alpha=alpha)
                out[f"{dtype}{shape}{dim}{alpha}"] = (bits(x.index_add(dim, idx, src, alpha=alpha)),
                                                      bits(y))
    return out


@prog
def index_add_alpha_16bit_expanded_source(t):
    """A source expanded along the row (stride 0): add's kernel still takes vectors, with the
    source as a broadcast scalar (cpu_lanes.py's rule), so those rows round once."""
    out = {}
    for dtype in (t.float16, t.bfloat16):
        for shape, dim in (((22, 34), 0), ((32, 12), 1), ((5, 40, 3), 0)):
            x, idx, src = _index_add_case(t, dtype, shape, dim, 5, len(out))
            row = (dim + 1) % len(shape)
            wide = src.narrow(row, 0, 1).expand(*src.shape)
            out[f"{dtype}{shape}{dim}"] = bits(x.index_add(dim, idx, wide, alpha=0.3))
            xt = x.transpose(0, -1).contiguous().transpose(0, -1)
            out[f"{dtype}{shape}{dim}_t"] = bits(xt.index_add(dim, idx, wide, alpha=-1.7))
    return out


@prog
def index_add_alpha_one_16bit_rounding(t):
    """alpha=1: 1-D adds one element at a time (rounding each sum); along the first or last
    dim PyTorch accumulates in float32 and rounds once; along a middle dim, slice by slice."""
    out = {}
    for dtype in (t.float16, t.bfloat16):
        for shape, dim in _INDEX_ADD_SHAPES + [((3, 4, 70), 2), ((3, 4, 70), 0), ((4, 64), 0)]:
            x, idx, src = _index_add_case(t, dtype, shape, dim, 9, len(out))
            out[f"{dtype}{shape}{dim}"] = bits(x.index_add(dim, idx, src))
        e = 2.0 ** -11 if dtype == t.float16 else 2.0 ** -8  # half an ulp of 1: a tie
        small = t.tensor([1.0, e, e]).to(dtype)
        out[f"{dtype}_ties_1d"] = bits(t.zeros(1, dtype=dtype).index_add(0, t.tensor([0, 0, 0]),
                                                                         small))
        out[f"{dtype}_ties_2d"] = bits(t.zeros(1, 40, dtype=dtype).index_add(
            0, t.tensor([0, 0, 0]), small[:, None].expand(3, 40).contiguous()))
    return out


@prog
def index_add_alpha_other_dtypes_and_shapes(t):
    out = {}
    for dtype in (t.float32, t.int32, t.int64):
        for shape, dim in ((7,), 0), ((5, 3), 1):
            x, idx, src = _index_add_case(t, dtype, shape, dim, 6, 3)
            out[f"{dtype}{shape}"] = x.index_add(dim, idx, src, alpha=2 if dtype != t.float32
                                                 else 0.5)
    h = t.tensor(arr(6, seed=8)).half()
    out["zero_dim"] = bits(t.tensor(1.5).half().index_add(0, t.tensor([0]), t.tensor(0.1).half(),
                                                          alpha=0.3))
    out["zero_dim_two_sources"] = catch(lambda: t.tensor(1.5).half().index_add(
        0, t.tensor([0, 0]), t.tensor([0.1, 0.2]).half(), alpha=0.3))
    out["strided_source"] = bits(h[::2].index_add(0, t.tensor([2, 0]), h[1::3], alpha=-0.7))
    y = h.clone()
    out["aliased_source"] = catch(lambda: y.index_add_(0, t.tensor([1, 1, 0]), y[3:], alpha=1.3))
    out["aliased_source_untouched"] = bits(y)
    z = t.tensor(arr(4, 40, seed=9)).bfloat16()
    out["transposed_self"] = bits(z.t().index_add(1, t.tensor([3, 3, 1]), z[:3].t(),
                                                  alpha=0.3))
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_nan_sign_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
