"""Reduced and small dtypes: float16, bfloat16, int8, uint8, int16, int32 next to the others.

PyTorch's promotion table (promote_types and result_type with zero-dim tensors and Python
scalars), in-place casting rules and their texts, integer wrap-around, casts (to, half,
bfloat16, char, byte, short, int, type), element_size and storage bytes, checked scalar
conversion (fill_, full, torch.tensor), NumPy input, finfo/iinfo and reprs.
"""

import numpy as np
import pytest

from .harness import Registry, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()

NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
         "float64"]


def _dts(t):
    return [getattr(t, n) for n in NAMES]


def _vals(t, d, zero_dim=False, seed=0):
    """A small tensor of dtype d with values every dtype can hold."""
    base = [[1, 0, 1], [3, 2, 7], [5, 9, 4]][seed % 3]
    if d is t.bool:
        base = [bool(v % 2) for v in base]
    x = t.tensor(base, dtype=d)
    return x[0] if zero_dim else x


def _obs(t, r):
    return r if not isinstance(r, t.Tensor) else {"value": r, "dtype": str(r.dtype)}


# ======================================================================================
# the promotion table


@prog
def promote_types_table(t):
    return {f"{a}+{b}": str(t.promote_types(a, b)) for a in _dts(t) for b in _dts(t)}


@prog
def result_type_tensor_tiers(t):
    """dimensioned x zero-dim operands of every pair of dtypes."""
    out = {}
    for a in _dts(t):
        for b in _dts(t):
            out[f"{a}[3]+{b}[]"] = str(t.result_type(_vals(t, a), _vals(t, b, True)))
            out[f"{a}[]+{b}[]"] = str(t.result_type(_vals(t, a, True), _vals(t, b, True)))
    return out


@prog
def result_type_python_scalars(t):
    out = {}
    for a in _dts(t):
        for s in (True, 3, 2.5, -1):
            out[f"{a}[3]+{s!r}"] = str(t.result_type(_vals(t, a), s))
            out[f"{a}[]+{s!r}"] = str(t.result_type(_vals(t, a, True), s))
    return out


@prog
def add_across_small_dtypes(t):
    """Values and dtypes of a + b over the whole grid (uint8 + int8 -> int16 ...)."""
    out = {}
    for a in _dts(t):
        for b in _dts(t):
            r = catch(lambda: _vals(t, a) + _vals(t, b, seed=1))  # noqa: B023
            out[f"{a}+{b}"] = _obs(t, r)
    return out


@prog
def mul_with_scalars_small_dtypes(t):
    out = {}
    for a in _dts(t):
        for s in (True, 3, 2.5, 200, -1):
            out[f"{a}*{s!r}"] = _obs(t, catch(lambda: _vals(t, a, seed=1) * s))  # noqa: B023
            out[f"{a}[]*{s!r}"] = _obs(t, catch(lambda: _vals(t, a, True, 1) * s))  # noqa: B023
    return out


@prog
def inplace_cast_rules(t):
    """a.add_(b): the result type must not move up a category into a (text word for word)."""
    out = {}
    for a in _dts(t):
        for b in _dts(t):
            x = _vals(t, a)
            r = catch(lambda: x.add_(_vals(t, b, seed=1)))  # noqa: B023
            out[f"{a}.add_({b})"] = {"r": r if not isinstance(r, t.Tensor) else "ok",
                                     "x": x, "dtype": str(x.dtype), "version": x._version}
        for s in (True, 2, 1.5):
            x = _vals(t, a)
            r = catch(lambda: x.mul_(s))  # noqa: B023
            out[f"{a}.mul_({s!r})"] = {"r": r if not isinstance(r, t.Tensor) else "ok",
                                       "x": x, "version": x._version}
    return out


# ======================================================================================
# integers wrap around


@prog
def integer_wrap_around(t):
    u = t.tensor([250, 3, 0], dtype=t.uint8)
    i = t.tensor([120, -120, 0], dtype=t.int8)
    s = t.tensor([32000, -32000, 1], dtype=t.int16)
    w = t.tensor([2**31 - 1, -(2**31), 5], dtype=t.int32)
    return {
        "u+10": u + 10,
        "u-5": u - 5,
        "u*2": u * 2,
        "u.add_(10)": u.clone().add_(10),
        "i+10": i + 10,
        "i*3": i * 3,
        "i.sub_(10)": i.clone().sub_(10),
        "-i": -i,
        "s+1000": s + 1000,
        "w+1": w + 1,
        "u+i": u + i,
        "i+200": i + 200,
        "u+300": u + 300,
        "u.mul_(300)": u.clone().mul_(300),
    }


# ======================================================================================
# casts


@prog
def cast_methods(t):
    x = t.tensor([1.5, -2.75, 3.0, 0.0, 100.25, -0.5])
    return {
        name: _obs(t, getattr(x, name)())
        for name in ("half", "bfloat16", "float", "double", "char", "short", "int", "long",
                     "bool")
    } | {"byte_of_positive": x.abs().byte()}


@prog
def to_dtype_forms(t):
    x = t.tensor([1.5, 2.5, -3.25])
    return {
        "to(float16)": x.to(t.float16),
        "to(dtype=uint8)": x.abs().to(dtype=t.uint8),
        "to('cpu', int8)": x.to("cpu", t.int8),
        "to(other)": x.to(t.tensor([1], dtype=t.int16)),
        "same_is_self": x.to(t.float32) is x,
        "float_is_self": x.float() is x,
        "copy_is_new": x.to(t.float32, copy=True) is x,
        "half_is_new": x.half() is x,
        "bad_device": catch(lambda: x.to("float16")),
    }


@prog
def type_method(t):
    x = t.tensor([1.5, 2.5])
    return {
        "names": [_vals(t, d).type() for d in _dts(t)],
        "type(float16)": x.type(t.float16),
        "type(str)": x.type("torch.IntTensor"),
        "type(HalfTensor)": x.type("torch.HalfTensor"),
        "type(dtype=int16)": x.type(dtype=t.int16),
        "type(same)_is_self": x.type(t.float32) is x,
        "invalid": catch(lambda: x.type("foo")),
    }


@prog
def cast_between_all_dtypes(t):
    """Every dtype into every other (integers wrap, floats truncate, bool is nonzero)."""
    src = t.tensor([0.0, 1.0, -1.0, 2.5, -7.75, 100.0, 127.0, 65504.0, 1e-3])
    out = {}
    for a in _dts(t):
        x = src.to(a) if a.is_floating_point else src.abs().to(t.int64).to(a)
        for b in _dts(t):
            out[f"{a}->{b}"] = _obs(t, x.to(b))
    return out


@prog
def rounding_into_half_and_bfloat16(t):
    x = t.tensor([1 / 3, 2 / 3, 1e-5, 1e-8, 70000.0, 65519.0, 65520.0, 0.1, 1.00048828125,
                  3.14159265, -2.7182818], dtype=t.float64)
    big = t.tensor([2**24 + 1, 2**30 + 3, 65519, 65520, -65521])
    return {
        "f64->f16": x.half(), "f64->bf16": x.bfloat16(),
        "f32->f16": x.float().half(), "f32->bf16": x.float().bfloat16(),
        "i64->f16": big.half(), "i64->bf16": big.bfloat16(),
        "f16->bf16": x.half().bfloat16(), "bf16->f16": x.bfloat16().half(),
    }


@prog
def cast_grad_fn_and_backward(t):
    x = t.tensor([1.5, -2.0, 0.25], requires_grad=True)
    h = x.half()
    y = (h * h).sum()
    y.backward()
    return {
        "grad_fn": type(h.grad_fn).__name__,
        "h": h,
        "y": y,
        "x.grad": x.grad,
        "x.grad.dtype": str(x.grad.dtype),
        "int_requires_grad": x.int().requires_grad,
        "bf16_grad_fn": type(x.bfloat16().grad_fn).__name__,
    }


# ======================================================================================
# sizes and bytes


@prog
def element_size_and_storage_bytes(t):
    out = {}
    for d in _dts(t):
        x = t.empty(5, 3, dtype=d)
        out[str(d)] = {
            "element_size": x.element_size(),
            "itemsize": d.itemsize,
            "nbytes": x.untyped_storage().nbytes(),
            "is_floating_point": d.is_floating_point,
            "is_signed": d.is_signed,
            "stride": x.stride(),
            "view_ptr_delta": x[1].data_ptr() - x.data_ptr(),
        }
    return out


# ======================================================================================
# checked conversion of Python numbers


VALUES = [-256, -255, -129, -1, 127, 127.9, 128, 255, 255.5, 256, 65520, 2**31, 2**63 - 1,
          2**63, 2**64, -(2**63) - 1, 1e30, 1e39, float("nan"), float("inf"), True]


def _fill_program(kind):
    def program(t):
        out = {}
        for d in _dts(t):
            for v in VALUES:
                x = t.zeros(2, dtype=d)
                if kind == "fill_":
                    r = catch(lambda: x.fill_(v))  # noqa: B023
                elif kind == "full":
                    r = catch(lambda: t.full((2,), v, dtype=d))  # noqa: B023
                else:
                    r = catch(lambda: t.tensor([v], dtype=d))  # noqa: B023
                out[f"{d}<-{v!r}"] = _obs(t, r)
        return out

    program.__name__ = f"checked_conversion_{kind}"
    return program


for _kind in ("fill_", "full", "tensor"):
    prog(_fill_program(_kind))


@prog
def tensor_value_errors(t):
    return {
        "2**63": catch(lambda: t.tensor(2**63)),
        "[2**63]": catch(lambda: t.tensor([2**63])),
        "-2**63-1": catch(lambda: t.tensor(-(2**63) - 1)),
        "None": catch(lambda: t.tensor(None)),
        "[1, None]": catch(lambda: t.tensor([1, None])),
        "str": catch(lambda: t.tensor("abc")),
        "[1, 'a']": catch(lambda: t.tensor([1, "a"])),
        "dict": catch(lambda: t.tensor({1: 2})),
        "object": catch(lambda: t.tensor(object)),
        "[300] uint8": catch(lambda: t.tensor([300], dtype=t.uint8)),
        "nan int32": catch(lambda: t.tensor(float("nan"), dtype=t.int32)),
        "[1e30] int64": catch(lambda: t.tensor([1e30], dtype=t.int64)),
        "2**63 float32": t.tensor(2**63, dtype=t.float32),
        "[1.7, -1.7] int32": t.tensor([1.7, -1.7], dtype=t.int32),
        "[-1] uint8": t.tensor([-1], dtype=t.uint8),
    }


@prog
def tensor_infers_dtype_from_elements(t):
    return {
        "f16 scalar": _obs(t, t.tensor(np.float16(2.5))),
        "[f16, 2]": _obs(t, t.tensor([np.float16(1.5), 2])),
        "[i8, 2]": _obs(t, t.tensor([np.int8(1), 2])),
        "[i8, u8]": _obs(t, t.tensor([np.int8(1), np.uint8(2)])),
        "[u8, True]": _obs(t, t.tensor([np.uint8(1), True])),
        "[f64 scalar]": _obs(t, t.tensor([np.float64(1.5)])),
        "[tensor(int8), 2]": _obs(t, t.tensor([t.tensor(1, dtype=t.int8), 2])),
        "[1, 2.5, True]": _obs(t, t.tensor([1, 2.5, True])),
        "[]": _obs(t, t.tensor([])),
        "[f16] to int8": _obs(t, t.tensor(np.array([1.5], dtype=np.float16), dtype=t.int8)),
    }


@prog
def tensor_and_from_numpy_keep_numpy_dtypes(t):
    out = {}
    for nd in (np.float64, np.float32, np.float16, np.int64, np.int32, np.int16, np.int8,
               np.uint8, np.bool_):
        a = np.array([[1, 0, 3], [4, 5, 0]], dtype=nd)
        x = t.tensor(a)
        y = t.from_numpy(a)
        out[np.dtype(nd).name] = {"tensor": _obs(t, x), "from_numpy": _obs(t, y),
                                  "stride": y.stride()}
    return out


@prog
def from_numpy_shares_memory(t):
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    x = t.from_numpy(a)
    a[0, 0] = 100
    x[1, 2] = -7
    xt = t.from_numpy(a.T)
    return {"x": x, "a": a.copy(), "version": x._version, "xt": xt, "xt_stride": xt.stride(),
            "same": x.data_ptr() == xt.data_ptr()}


@prog
def from_numpy_refusals(t):
    return {
        "list": catch(lambda: t.from_numpy([1, 2])),
        "object": catch(lambda: t.from_numpy(np.array([1, None]))),
        "str": catch(lambda: t.tensor(np.array(["a"]))),
        "negative stride": catch(lambda: t.from_numpy(np.arange(3)[::-1])),
        "byte order": catch(lambda: t.from_numpy(np.array([1, 2], dtype=">i4"))),
    }


@prog
def setitem_checked(t):
    out = {}
    for d in (t.int64, t.uint8, t.int8, t.float32, t.float16):
        for v in (float("nan"), 1e30, 300, -1, 2.5):
            x = t.zeros(3, dtype=d)
            r = catch(lambda: x.__setitem__(0, v))  # noqa: B023
            out[f"{d}[0]={v!r}"] = {"r": r if r is not None else "ok", "x": x,
                                    "version": x._version}
    return out


@prog
def int_power_dtypes(t):
    i = t.tensor([1, 2, 3])
    b = t.tensor([1, 2, 3], dtype=t.int8)
    return {
        "2**int64": _obs(t, 2 ** i),
        "2.5**int64": _obs(t, 2.5 ** i),
        "2**int8": _obs(t, 2 ** b),
        "int8**2": _obs(t, b ** 2),
        "uint8**-1": catch(lambda: t.tensor([1, 2], dtype=t.uint8) ** -1),
    }


# ======================================================================================
# finfo / iinfo and reprs


@prog
def finfo_iinfo(t):
    out = {}
    for d in _dts(t):
        if d.is_floating_point:
            f = t.finfo(d)
            out[str(d)] = [f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal,
                           f.resolution, str(f.dtype), repr(f)]
        elif d is not t.bool:
            i = t.iinfo(d)
            out[str(d)] = [i.bits, i.max, i.min, str(i.dtype), repr(i)]
    out["default"] = repr(t.finfo())
    out["finfo(int32)"] = catch(lambda: t.finfo(t.int32))
    out["iinfo(float32)"] = catch(lambda: t.iinfo(t.float32))
    out["iinfo(bool)"] = catch(lambda: t.iinfo(t.bool))
    return out


@prog
def dtype_aliases(t):
    return {n: str(getattr(t, n)) for n in ("half", "short", "int", "long", "float", "double",
                                             "float16", "bfloat16", "uint8", "int8")}


@prog
def reprs_of_small_dtypes(t):
    x = t.tensor([1.5, -2.25, 1000.0, 0.001, 3.0])
    out = {}
    for d in _dts(t):
        out[str(d)] = repr(x.to(d))
        out[f"{d} ints"] = repr(t.tensor([1, 2, 30]).to(d))
        out[f"{d} 0-dim"] = repr(t.tensor(7).to(d))
        out[f"{d} empty"] = repr(t.empty(0, dtype=d))
        out[f"{d} empty2d"] = repr(t.empty(2, 0, dtype=d))
    out["f16 rounding"] = repr(t.tensor([1 / 3, 2 / 3, 0.1, 65504.0]).half())
    out["bf16 rounding"] = repr(t.tensor([1 / 3, 2 / 3, 0.1, 1e30]).bfloat16())
    out["f16 sci"] = repr(t.tensor([1e-5, 1.0, 60000.0]).half())
    out["f16 inf nan"] = repr(t.tensor([float("inf"), float("nan"), 1.5]).half())
    out["f16 grad"] = repr(t.tensor([1.0, 2.0], requires_grad=True).half())
    out["f16 big"] = repr(t.arange(2000).half())
    out["u8 2d"] = repr(t.arange(12).reshape(3, 4).to(t.uint8))
    return out


@prog
def numpy_of_small_dtypes(t):
    out = {}
    for d in _dts(t):
        r = catch(lambda: _vals(t, d).numpy())  # noqa: B023
        out[str(d)] = r if not isinstance(r, np.ndarray) else (r.dtype.name, r.tolist())
    out["bf16 tolist"] = t.tensor([1.5, 2.0]).bfloat16().tolist()
    out["bf16 item"] = t.tensor([1.5]).bfloat16().item()
    out["f16 item"] = t.tensor([0.1]).half().item()
    return out



# ======================================================================================
# ops on every dtype: results, dtypes, and "not implemented for 'Bool'"-style refusals

_UNARY = ["neg", "abs", "exp", "log", "sqrt", "relu", "sigmoid", "tanh", "reciprocal", "sum",
          "mean", "var", "std", "amax", "argmax", "exp_", "relu_", "sigmoid_", "tanh_", "neg_",
          "abs_", "sqrt_", "zero_"]


def _op_grid(t, ops):
    out = {}
    for d in _dts(t):
        base = t.tensor([[1, 0, 3], [2, 5, 1]]).to(d)
        for op in ops:
            x = base.clone()
            r = catch(lambda: ops[op](t, x, base) if isinstance(ops, dict)  # noqa: B023
                      else getattr(x, op)())  # noqa: B023
            out[f"{d}.{op}"] = _obs(t, r)
            out[f"{d}.{op} self"] = {"x": x, "version": x._version}
    return out


@prog
def unary_methods_on_every_dtype(t):
    return _op_grid(t, _UNARY)


_BINARY = {
    "mul_": lambda t, x, b: x.mul_(b),
    "div_": lambda t, x, b: x.div_(b),
    "add_": lambda t, x, b: x.add_(b, alpha=2),
    "sub": lambda t, x, b: x.sub(b),
    "pow2": lambda t, x, b: x ** 2,
    "pow_": lambda t, x, b: x.pow_(2),
    "maximum": lambda t, x, b: t.maximum(x, b),
    "eq": lambda t, x, b: x == b,
    "lt": lambda t, x, b: x < 2,
    "where": lambda t, x, b: t.where(x > 1, x, b),
    "clamp": lambda t, x, b: x.clamp(0, 2),
    "clamp_": lambda t, x, b: x.clamp_(0, 2),
    "clamp_min_": lambda t, x, b: x.clamp_min_(0.5),
    "clamp_max_": lambda t, x, b: x.clamp_max_(1),
    "fill_": lambda t, x, b: x.fill_(7),
    "copy_": lambda t, x, b: x.copy_(t.tensor([[0.5, 2.5, 3.0], [9.0, 1.5, 2.0]])),
    "mm": lambda t, x, b: x.mm(b.t()),
    "matmul": lambda t, x, b: x @ b.t(),
    "dot": lambda t, x, b: x[0].dot(b[1]),
    "mv": lambda t, x, b: x.mv(b[0]),
    "bmm": lambda t, x, b: x[None].bmm(b.t()[None]),
}


@prog
def binary_ops_on_every_dtype(t):
    return _op_grid(t, _BINARY)


@prog
def float16_values_round_once(t):
    """float16/bfloat16 ops compute in float32 and round once (sigmoid: 1/(1+exp(-x)) in
    float32, then one rounding; a float32 scalar operand is not rounded to 16 bits first).

    64 contiguous elements: PyTorch's vectorised loop covers them all. Its scalar loop (a
    tail of n mod 32 elements, or a strided innermost dimension) rounds a Python scalar, and
    ``alpha * y`` of add/sub, to 16 bits before adding, so there an element can differ by
    one unit in the last place; the core follows the vectorised loop everywhere."""
    a = np.linspace(-4, 4, 64).astype(np.float32)
    out = {}
    for d in (t.float16, t.bfloat16):
        x = t.tensor(a).to(d)
        out[str(d)] = {k: v.float() for k, v in {  # float32 values: compared bit for bit
            "sigmoid": x.sigmoid(), "tanh": x.tanh(), "exp": x.exp(), "sqrt": x.abs().sqrt(),
            "reciprocal": (x + 5).reciprocal(), "mul_scalar": x * 1.0004,
            "div_scalar": x / 3.0, "add_alpha": x.add(x, alpha=0.3),
            "sub_alpha": x.sub(x * 0.7, alpha=1.7),
            "add_alpha_": x.clone().add_(x * 3, alpha=-0.1),
            "sigmoid_": x.clone().sigmoid_(), "mul_tensor": x * (x + 1),
            "pow": x.abs().pow(1.5), "relu": x.relu(), "neg": -x,
            "broadcast_add": x.reshape(64, 1) + x[:5],
            "add_": x.clone().add_(0.1),
        }.items()}
    return out


@prog
def nan_to_num_uses_the_dtypes_own_limits(t):
    # float16/bfloat16 compute in a wider type; inf must become *their* largest finite value
    out = {}
    for d in (t.float16, t.bfloat16, t.float32, t.float64):
        x = t.tensor([float("inf"), float("-inf"), float("nan"), 1.5]).to(d)
        target = t.empty(4, dtype=d)
        t.nan_to_num(x, out=target)
        out[str(d)] = {"out": x.nan_to_num().double(), "in_place": x.clone().nan_to_num_().double(),
                       "out=": target.double(), "posinf": x.nan_to_num(posinf=7.0).double()}
    return out


@pytest.mark.parametrize("program", prog.params())
def test_small_dtypes_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
