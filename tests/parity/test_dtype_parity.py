"""Type promotion grid: every binary op x left operand kind x right operand kind.

Left operands: 1-D and 0-dim tensors of bool, int64, float32, float64. Right operands: the same,
plus the Python scalars True, 2 and 2.5. For each (op, left) one program records, for every
right operand, the result (dtype, values) or the error (type and message). In-place ops check
the "result type X can't be cast to the desired output type Y" rule and the version counter.
"""

import numpy as np
import pytest

from .harness import Registry, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()

DTYPES = ["bool", "int64", "float32", "float64"]
VALUES = {
    "bool": [True, False, True],
    "int64": [1, 2, 3],
    "float32": [1.5, -2.0, 3.25],
    "float64": [0.5, 2.0, -1.75],
}
RIGHT_VALUES = {
    "bool": [True, True, False],
    "int64": [2, 1, 3],
    "float32": [0.5, 4.0, -1.5],
    "float64": [2.5, -0.5, 1.0],
}

OPS = {
    "add": lambda t, a, b: a + b,
    "sub": lambda t, a, b: a - b,
    "mul": lambda t, a, b: a * b,
    "div": lambda t, a, b: a / b,
    "pow": lambda t, a, b: a**b,
    "maximum": lambda t, a, b: t.maximum(a, b) if isinstance(b, t.Tensor) else a.clamp_min(b),
    "add_alpha": lambda t, a, b: a.add(b, alpha=2),
    "eq": lambda t, a, b: a == b,
    "gt": lambda t, a, b: a > b,
    "add_": lambda t, a, b: a.add_(b),
    "sub_": lambda t, a, b: a.sub_(b),
    "mul_": lambda t, a, b: a.mul_(b),
    "div_": lambda t, a, b: a.div_(b),
    "copy_": lambda t, a, b: a.copy_(b) if isinstance(b, t.Tensor) else a.fill_(b),
}


def _make(t, dtype, zero_dim, right=False):
    vals = (RIGHT_VALUES if right else VALUES)[dtype]
    arr = np.array(vals[0] if zero_dim else vals, dtype=np.bool_ if dtype == "bool" else dtype)
    return t.tensor(arr)


def _rights(t):
    out = {}
    for d in DTYPES:
        out[f"{d}[3]"] = _make(t, d, False, right=True)
        out[f"{d}[]"] = _make(t, d, True, right=True)
    out["py_bool"] = True
    out["py_int"] = 2
    out["py_float"] = 2.5
    return out


def make_program(op, dtype, zero_dim):
    def program(t):
        obs = {}
        for name, right in _rights(t).items():
            left = _make(t, dtype, zero_dim)
            r = catch(lambda: OPS[op](t, left, right))  # noqa: B023 - called immediately
            if op.endswith("_"):
                obs[name] = {
                    "result_is_left": r is left,
                    "left": left,
                    "left_dtype": str(left.dtype),
                    "version": left._version,
                    "error": r if not isinstance(r, t.Tensor) else None,
                }
            else:
                obs[name] = (
                    r if not isinstance(r, t.Tensor) else {"value": r, "dtype": str(r.dtype)}
                )
        return obs

    program.__name__ = f"{op}__{dtype}{'_0dim' if zero_dim else ''}"
    return program


for _op in OPS:
    for _d in DTYPES:
        for _z in (False, True):
            prog(make_program(_op, _d, _z))


@prog
def unary_ops_on_each_dtype(t):
    out = {}
    for d in DTYPES:
        x = _make(t, d, False)
        for name, f in {
            "neg": lambda v: -v,
            "abs": lambda v: v.abs(),
            "exp": lambda v: v.exp(),
            "sqrt": lambda v: v.abs().sqrt(),
            "relu": lambda v: v.relu(),
            "sigmoid": lambda v: v.sigmoid(),
            "sum": lambda v: v.sum(),
            "mean": lambda v: v.mean(),
            "amax": lambda v: v.amax(0),
            "argmax": lambda v: v.argmax(),
            "clamp": lambda v: v.clamp(0, 2),
            "softmax": lambda v: v.softmax(0),
            "float": lambda v: v.float(),
            "long": lambda v: v.long(),
        }.items():
            r = catch(lambda: f(x))  # noqa: B023 - called immediately
            out[f"{name}({d})"] = (
                r if not isinstance(r, t.Tensor) else {"value": r, "dtype": str(r.dtype)}
            )
    return out


@pytest.mark.parametrize("program", prog.params())
def test_dtype_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
