"""Unary ops with ``out=`` a shifted view of their input (``torch.sinh(x[:, :-1],
out=x[:, 1:])``): torch 2.13's overlap check lets it through (neither is dense), and its CPU loop
reads cells it has already written, in its own order (ops/cpu_loops.py:row_loop): the element-
wise loop's 64-byte steps (128 in the AVX512 build for some kernels) and a tail one element at a
time; the vml loop's vectors and a tail read as one block (floor, expm1 ...); MKL's steps of two
widths, then a block (exp, log, sin ...); no vector loop at all (asinh, acosh, sinc). Rows of 5
to 150 elements in the four float dtypes cross every boundary; a strided row goes through the vml
loop's buffer. test_cpu_capability_parity.py runs these again under each CPU build.
"""

import numpy as np
import pytest

from .harness import Registry, compare, run

pytestmark = pytest.mark.parity

prog = Registry()

LENGTHS = (5, 13, 20, 37, 45, 70, 100, 150)
# values whose chains stay moderate (a chain of sinh or exp2 from 1.0 overflows in a few
# steps, where one unit in the last place of torch's own sinh grows past any tolerance)
SMALL = {"sinh", "cosh", "exp2", "exp", "reciprocal", "square", "rad2deg", "i0"}
ROUNDING = {"floor", "ceil", "round", "trunc", "frac"}


def _row(op, m, dtype):
    k = np.arange(m + 1)
    if op in ROUNDING:
        return (k % 13) * 1.37 - 6.2
    if op == "acosh":
        return 1.2 + (k % 13) * 0.37
    if op == "reciprocal":
        return 0.9 + (k % 13) * 0.017
    if op in SMALL:
        return (k % 13) * 0.011 + 0.05
    return ((k % 13) * 0.061 + 0.1).astype(dtype)


def _shift_out(op, dtype, strided=False):
    def program(t):
        out = {}
        for m in LENGTHS:
            row = np.asarray(_row(op, m, "float64"), dtype if "16" not in dtype else "float32")
            if strided:  # every other cell: the vml loop's buffered path
                x = t.tensor(np.repeat(np.stack([row, row]), 2, axis=1)).to(getattr(t, dtype))
                getattr(t, op)(x[:, :-2:2], out=x[:, 2::2])
            else:
                x = t.tensor(np.stack([row, row])).to(getattr(t, dtype))
                getattr(t, op)(x[:, :-1], out=x[:, 1:])
            out[m] = (x, x._version)
        return out
    program.__name__ = f"shift_out_{op}_{dtype}" + ("_strided" if strided else "")
    return program


UNARY = ("exp", "log", "tanh", "sqrt", "sin", "cos", "tan", "atan", "asin", "acos", "log2",
         "log10", "trunc", "floor", "ceil", "round", "i0", "expm1", "log1p", "abs", "neg",
         "rsqrt", "frac", "deg2rad", "rad2deg", "nan_to_num", "sigmoid", "reciprocal", "sinh",
         "cosh", "exp2", "atanh", "logit", "square", "asinh", "acosh", "sinc")
for _op in UNARY:
    for _dt in ("float32", "float64"):
        prog(_shift_out(_op, _dt))
for _op in ("exp", "floor", "log1p", "sinh"):
    prog(_shift_out(_op, "float32", strided=True))
# float16/bfloat16: no MKL, every vml op a vec::map over 16-bit vectors
for _op in UNARY:  # (16-bit logit over an overlap: its vector part's values differ; not
    for _dt in ("float16", "bfloat16"):  # modelled, the core reads the operand first)
        if _op != "logit":
            prog(_shift_out(_op, _dt))


@prog
def read_ahead_exp_reads_the_old_values(t):
    """out= one cell behind the input: every cell is read before it is written."""
    x = t.tensor(np.arange(2 * 41, dtype=np.float32).reshape(2, 41) / 50)
    t.exp(x[:, 1:], out=x[:, :-1])
    return x


@pytest.mark.parametrize("prog", prog.params())
def test_overlap_unary_parity(prog, torch_mod, core):
    diffs = compare(run(torch_mod, prog), run(core, prog))
    assert not diffs, "\n".join(d[:1500] for d in diffs)
