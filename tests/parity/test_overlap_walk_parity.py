"""In-place ops whose operand overlaps the written tensor where PyTorch's overlap check lets
them through (neither operand dense: ``x[:, 1:].add_(x[:, :-1])``, ``x.div_(x[:, :1])``):
torch 2.13 reads cells it has already written, in its CPU loop's order (ops/cpu_loops.py).
Rows shorter than a 64-byte step run element by element (a running sum); longer rows run
64 bytes a step, each step reading before it writes; a broadcast operand is read once per row
in the vector part, again per element in the tail. Every dtype, row lengths around the step,
3-D and permuted layouts, strided rows, alpha, autograd on top. test_cpu_capability_parity.py
runs these programs again under each CPU build (the order is the same in all three).
"""

import numpy as np
import pytest

from .harness import Raised, Registry, compare, fn_name, leaf, run

pytestmark = pytest.mark.parity

prog = Registry()

LENGTHS = (5, 15, 16, 17, 31, 33, 40, 70)


def _shift(dtype):
    def program(t):
        out = {}
        for m in LENGTHS:
            x = t.ones(2, m + 1, dtype=getattr(t, dtype))
            x[:, 1:].add_(x[:, :-1])
            out[m] = (x, x._version)
        return out
    program.__name__ = f"shift_add_{dtype}"
    return program


for _dt in ("float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8",
            "uint8", "bool"):
    prog(_shift(_dt))


def _column(op, dtype):
    def program(t):
        out = {}
        for m in LENGTHS:
            x = (t.arange(2 * m, dtype=getattr(t, dtype)).reshape(2, m) + 2) * 0.5
            getattr(x, op)(x[:, :1])
            out[m] = x
        return out
    program.__name__ = f"column_{op}_{dtype}"
    return program


for _op in ("add_", "sub_", "mul_", "div_"):
    for _dt in ("float32", "float64"):
        prog(_column(_op, _dt))


def _pattern(t, m, dtype, mixed=False):
    """Two equal rows of m + 1 values that tell every walk order apart."""
    if dtype.startswith("int"):
        row = np.arange(m + 1) % 5 + 1
    else:
        row = (np.arange(m + 1) % 7 - (3 if mixed else 0)) * 0.37 + 1.1
    return t.tensor(np.stack([row, row]).astype(dtype))


def _shift_op(method, dtype, mixed=False, **kw):
    def program(t):
        out = {}
        for m in (5, 13, 20, 40, 70, 140):
            x = _pattern(t, m, dtype, mixed)
            getattr(x[:, 1:], method)(x[:, :-1], **kw)
            out[m] = x
        return out
    program.__name__ = f"shift_{method}_{dtype}" + "".join(f"_{v}" for v in kw.values())
    return program


# kernels with a 64-byte step, a 128-byte step in the AVX512 build, or no vector loop at all
for _method, _dts in (("pow_", ("float32", "float64")), ("atan2_", ("float32", "float64")),
                      ("hypot_", ("float32", "float64")), ("float_power_", ("float64",)),
                      ("xlogy_", ("float32", "float64")), ("ldexp_", ("float32",)),
                      ("fmod_", ("float32",)), ("remainder_", ("float64",)),
                      ("floor_divide_", ("float32", "int64", "int32")),
                      ("bitwise_or_", ("int64", "int32")), ("bitwise_xor_", ("int64",)),
                      ("lcm_", ("int64",)), ("gcd_", ("int32",)), ("mul_", ("int32",))):
    for _dt in _dts:
        prog(_shift_op(_method, _dt))
def _shift_fused(method, dtype, second):
    """addcmul_/addcdiv_/lerp_/clamp_/copy_ with the shifted view as one or both operands."""
    def program(t):
        out = {}
        for m in (5, 13, 20, 40, 70):
            x = _pattern(t, m, dtype)
            a, b = x[:, :-1], x[:, 1:]
            other = {"same": a, "self": b, "fresh": t.full((2, m), 0.75, dtype=x.dtype),
                     "none": None}[second]
            if method == "clamp_":
                b.clamp_(a, a + 2)  # min overlaps; max is a fresh tensor made from it first
            elif method == "clamp_min_":
                b.clamp_min_(a)
            elif method == "clamp_max_":
                b.clamp_max_(a)
            elif method == "copy_":
                b.copy_(a)
            elif method == "lerp_":
                b.lerp_(a, 0.25 if other is None else other)
            else:
                getattr(b, method)(a, other, value=0.5 if x.is_floating_point() else 2)
            out[m] = (x, x._version)
        return out
    program.__name__ = f"shift_{method}_{dtype}_{second}"
    return program


for _method, _second in (("addcmul_", "same"), ("addcmul_", "self"), ("addcmul_", "fresh"),
                         ("addcdiv_", "fresh"), ("addcdiv_", "same"), ("lerp_", "none"),
                         ("lerp_", "same"), ("lerp_", "fresh"), ("clamp_", "none"),
                         ("clamp_min_", "none"), ("clamp_max_", "none"), ("copy_", "none")):
    prog(_shift_fused(_method, "float32", _second))
for _method in ("addcmul_", "lerp_", "copy_", "clamp_min_"):
    prog(_shift_fused(_method, "float64", "same" if _method != "copy_" else "none"))
    prog(_shift_fused(_method, "float16", "same" if _method != "copy_" else "none"))
prog(_shift_fused("copy_", "int64", "none"))
prog(_shift_fused("addcmul_", "int64", "same"))

_OUT_CALLS = {  # out= forms with the output a view overlapping an input: (t, out, shifted)
    "add": lambda t, o, a: t.add(o, a, out=o),
    "add_alpha": lambda t, o, a: t.add(a, o, alpha=2, out=o),
    "sub_out_second": lambda t, o, a: t.sub(a, o, out=o),
    "mul_scalar": lambda t, o, a: t.mul(a, 1.5, out=o),
    "div": lambda t, o, a: t.div(a, 2, out=o),
    "maximum": lambda t, o, a: t.maximum(a, o, out=o),
    "minimum": lambda t, o, a: t.minimum(o, a, out=o),
    "pow": lambda t, o, a: t.pow(o, a, out=o),
    "abs": lambda t, o, a: t.abs(a, out=o),
    "neg": lambda t, o, a: t.neg(a, out=o),
    "sigmoid": lambda t, o, a: t.sigmoid(a, out=o),
    "sqrt": lambda t, o, a: t.sqrt(a, out=o),
}


def _shift_out(call, dtype):
    def program(t):
        out = {}
        for m in (5, 13, 20, 40, 70, 140):
            x = _pattern(t, m, dtype)
            _OUT_CALLS[call](t, x[:, 1:], x[:, :-1])
            out[m] = (x, x._version)
        return out
    program.__name__ = f"shift_out_{call}_{dtype}"
    return program


for _call in _OUT_CALLS:
    prog(_shift_out(_call, "float32"))
# the unary ops' out= forms, MKL's among them: test_overlap_unary_parity.py
for _call in ("add_alpha", "maximum", "pow", "neg"):
    prog(_shift_out(_call, "float64"))
for _call in ("add", "sub_out_second", "maximum", "neg"):
    prog(_shift_out(_call, "int64"))

for _dt in ("float32", "float64"):
    prog(_shift_op("copysign_", _dt, mixed=True))
    prog(_shift_op("lt_", _dt, mixed=True))
for _mode in ("floor", "trunc"):
    for _dt in ("float32", "int64"):
        prog(_shift_op("div_", _dt, rounding_mode=_mode))


@prog
def integer_fmod_reads_a_zero_it_wrote(t):
    """fmod(2, 1) writes 0 and the next element divides by it: torch raises in the middle of
    the walk, the cells before it already written."""
    out = {}
    for method in ("fmod_", "remainder_"):
        x = _pattern(t, 5, "int64")
        try:
            getattr(x[:, 1:], method)(x[:, :-1])
            out[method] = x
        except RuntimeError as e:
            out[method] = (str(e), x, x._version)
    return out


@prog
def column_in_the_middle_mul_(t):
    """The broadcast cell (column 20) is written by the second step; the tail reads it again."""
    x = t.arange(80.0).reshape(2, 40) / 8 + 1
    x.mul_(x[:, 20:21])
    return x


@prog
def integer_column_add_(t):
    x = t.arange(2 * 40).reshape(2, 40)
    x.add_(x[:, 3:4])
    y = t.arange(2 * 20, dtype=t.int32).reshape(2, 20)
    y.sub_(y[:, 19:])
    return x, y


@prog
def rows_add_in_order(t):
    """Whole rows of a non-dense view: each row adds the row above it, already updated."""
    b = t.ones(5, 8)
    x = b[:, :5]
    x[1:].add_(x[:-1])
    return b


@prog
def rows_two_apart_and_a_column(t):
    """Each row adds the row two above it, one column to the left, already updated."""
    b = t.arange(12 * 75.0).reshape(12, 75) / 100
    x = b[:, :70]
    x[2:, 1:].add_(x[:-2, :-1])
    c = t.arange(12 * 75.0).reshape(12, 75) / 100
    y = c[:, :70]
    y[:-3, :-1].mul_(y[3:, 1:])  # reads rows not written yet: the values from before
    return b, c


@prog
def read_ahead_add_(t):
    """Reading cells not yet written gives the values from before the op."""
    x = t.arange(2 * 41.0).reshape(2, 41)
    x[:, :-1].add_(x[:, 1:])
    return x


@prog
def strided_rows_element_loop(t):
    """A row with stride 2 is never vectorised: a running sum along every row."""
    x = t.ones(3, 70)
    x[:, 2::2].add_(x[:, :-2:2])
    return x


@prog
def alpha_and_sub(t):
    x = t.ones(2, 20)
    x[:, 1:].add_(x[:, :-1], alpha=2)
    y = t.ones(2, 20, dtype=t.float64)
    y[:, 1:].sub_(y[:, :-1], alpha=0.5)
    z = t.full((2, 20), 1.5)
    z[:, 1:].mul_(z[:, :-1])
    return x, y, z


@prog
def three_dims_coalesced(t):
    """Dims 1 and 2 merge into one row of 3 * 7 = 21 (float32: 16 vectorised, 5 one by one)."""
    b = t.ones(4, 3, 8)
    x = b[..., :7]
    y = b[..., 1:]
    y.add_(x)
    return b


@prog
def permuted_layout(t):
    """A transposed tensor: TensorIterator walks rows along the dim with stride 1."""
    b = t.ones(20, 3)
    x = b.t()  # (3, 20), strides (1, 3)
    x[1:, :].add_(x[:-1, :])  # rows of 20 along stride 3: the element loop
    c = t.ones(3, 41).t()[:40]  # (40, 3), strides (1, 41)
    c[:, 1:].add_(c[:, :-1])  # rows of 40 along stride 1: 32 in steps, 8 one by one
    return b, c


@prog
def disjoint_and_same_cells(t):
    """Views that share the storage but no cell, or the very same cells, need no walk."""
    x = t.arange(2 * 20.0).reshape(2, 20)
    x[:, :10].add_(x[:, 10:])
    y = t.arange(6.0).reshape(2, 3)
    y.t().mul_(y.t())
    return x, y


@prog
def autograd_over_an_overlapping_add_(t):
    """The graph is PyTorch's (CopySlices over AddBackward0); the values follow the walk."""
    a = leaf(t, np.ones((2, 6), np.float32))
    x = a * 1
    x[:, 1:].add_(x[:, :-1])
    g = t.arange(12.0).reshape(2, 6)
    (x * g).sum().backward()
    return {"x": x, "version": x._version, "fn": fn_name(x.grad_fn), "grad": a.grad}


@prog
def autograd_div_saves_the_overwritten_divisor(t):
    """div_ saves its divisor, a view of the tensor it overwrites: backward refuses."""
    a = leaf(t, np.ones((2, 5), np.float32) * 3)
    x = a * 1
    x.div_(x[:, :1])
    try:
        x.sum().backward()
        res = a.grad
    except RuntimeError as e:
        res = ("raised", type(e).__name__, str(e).split(";")[0])
    return x, res


@pytest.mark.parametrize("prog", prog.params())
def test_overlap_walk_parity(prog, torch_mod, core):
    ref = run(torch_mod, prog)
    assert not isinstance(ref, Raised), ref  # a program that raises as a whole compares nothing
    diffs = compare(ref, run(core, prog))
    assert not diffs, "\n".join(d[:1500] for d in diffs)

