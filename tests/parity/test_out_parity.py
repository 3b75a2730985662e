"""``out=`` on the module-level functions: the result lands in ``out`` (same storage, version
bumped), out's dtype must hold the result, and out= refuses autograd — as in PyTorch."""

import pytest

from .harness import Registry, arr, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


@prog
def out_minimum_into_first_operand(t):
    a, b = t.tensor([1.0, 5.0, 3.0]), t.tensor([2.0, 2.0, 2.0])
    p = a.data_ptr()
    r = t.minimum(a, b, out=a)
    return {"a": a, "same_object": r is a, "same_ptr": a.data_ptr() == p, "version": a._version}


@prog
def out_elementwise_into_a_third_tensor(t):
    x, y = t.tensor(arr(3, 4, seed=1)), t.tensor(arr(4, seed=2))
    outs = {}
    for name in ("add", "sub", "mul", "div", "maximum", "minimum"):
        o = t.zeros(3, 4)
        getattr(t, name)(x, y, out=o)
        outs[name] = (o, o._version)
    for name in ("exp", "tanh", "sigmoid", "abs", "neg"):
        o = t.zeros(3, 4)
        getattr(t, name)(x, out=o)
        outs[name] = (o, o._version)
    return outs


@prog
def out_add_alpha_aliasing_either_input(t):
    a, b = t.tensor([1.0, 2.0, 3.0]), t.tensor([10.0, 20.0, 30.0])
    t.add(a, b, alpha=2, out=a)
    c, d = t.tensor([1.0, 2.0, 3.0]), t.tensor([10.0, 20.0, 30.0])
    t.sub(c, d, alpha=0.5, out=d)
    return {"a": a, "d": d}


@prog
def out_dtype_and_autograd_errors(t):
    x = t.tensor([1.0, 2.0], requires_grad=True)
    return {
        "float_into_long": catch(lambda: t.add(t.ones(2), 1.5, out=t.zeros(2, dtype=t.int64))),
        "long_into_float": t.add(t.tensor([1, 2]), 1, out=t.zeros(2)),
        "requires_grad": catch(lambda: t.mul(x, 2, out=t.zeros(2))),
    }


@prog
def out_matmul_into_a_separate_tensor(t):
    a, b = t.tensor(arr(3, 4, seed=3)), t.tensor(arr(4, 2, seed=4))
    c = t.empty(3, 2)
    t.matmul(a, b, out=c)
    v = t.empty(3)
    t.matmul(a, t.tensor(arr(4, seed=5)), out=v)
    bb = t.empty(2, 3, 2)
    t.bmm(t.tensor(arr(2, 3, 4, seed=6)), t.tensor(arr(2, 4, 2, seed=7)), out=bb)
    return {"c": c, "v": v, "bmm": bb, "versions": [c._version, v._version, bb._version]}


@pytest.mark.parametrize("program", prog.params())
def test_out_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 5
