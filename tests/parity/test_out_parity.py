"""``out=`` on the module-level functions: the result lands in ``out`` (same storage, version
bumped), out's dtype must hold the result, and out= refuses autograd — as in PyTorch."""


import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, warned

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



# ======================================================================================
# out= for every element-wise op of the core (the list is read from the core's op table)

def _pointwise_args():
    """name -> how to call it: ("ints" | "floats", number of tensor operands, extra args)."""
    import inplace_tutorial as ipt
    from inplace_tutorial.ops.out_variants import pointwise_ops

    special = {"clamp": (1, (-0.5, 0.5)), "clip": (1, (-0.5, 0.5)), "clamp_min": (1, (0.5,)),
               "clamp_max": (1, (0.5,)), "pow": (1, (2.0,)), "float_power": (1, (2.0,)),
               "lerp": (2, (0.25,)), "addcmul": (3, ()), "addcdiv": (3, ()),
               "ldexp": (2, ()), "round": (1, ())}
    out = {}
    x = ipt.tensor([0.5, 0.25])
    for name in pointwise_ops():
        ints = name.startswith("bitwise") or name in ("gcd", "lcm")
        if name in special:
            n, extra = special[name]
        else:
            try:
                getattr(ipt.tensor([1, 2]) if ints else x, name)()
                n, extra = 1, ()
            except TypeError:
                n, extra = 2, ()
        out[name] = ("ints" if ints else "floats", n, extra)
    return out


POINTWISE = _pointwise_args()


def _operands(t, kind, n, seed=0):
    if kind == "ints":
        return [t.tensor(arr(2, 3, seed=seed + i, dtype=np.int64, low=1, high=9)) for i in range(n)]
    return [t.tensor(arr(2, 3, seed=seed + i, low=0.2, high=0.9)) for i in range(n)]




@prog
def out_every_pointwise_op(t):
    """torch.NAME(..., out=o) for every element-wise op of the core: the values land in o (same
    storage, version 1), the function returns o."""
    obs = {}
    for name, (kind, n, extra) in POINTWISE.items():
        xs = _operands(t, kind, n)
        o = t.empty(2, 3, dtype=t.float64 if name == "float_power" else xs[0].dtype)
        if name in ("eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less",
                    "less_equal", "not_equal", "logical_and", "logical_or", "logical_xor",
                    "logical_not"):
            o = t.empty(2, 3, dtype=t.bool)
        p = o.data_ptr()

        def call(xs=xs, o=o, name=name, extra=extra, p=p):
            r = getattr(t, name)(*xs, *extra, out=o)
            return {"same": r is o, "ptr": o.data_ptr() == p, "version": o._version, "o": o}
        obs[name] = catch(call)
    return obs


@prog
def out_every_pointwise_op_resizes_a_wrong_shaped_out(t):
    """A wrongly shaped out is resized to the result's shape, with PyTorch's deprecation
    warning unless it had no elements; its storage stays if it is large enough."""
    obs = {}
    for name, (kind, n, extra) in POINTWISE.items():
        xs = _operands(t, kind, n, seed=3)
        dt = t.float64 if name == "float_power" else xs[0].dtype
        for label, o in (("small", t.empty(2, dtype=dt)), ("large", t.zeros(20, dtype=dt)),
                         ("empty", t.empty(0, dtype=dt))):
            if name in ("eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less",
                        "less_equal", "not_equal") or name.startswith("logical"):
                o = o.bool()
            p = o.data_ptr()
            r, w = warned(lambda xs=xs, o=o, name=name, extra=extra:
                           getattr(t, name)(*xs, *extra, out=o))
            obs[f"{name} {label}"] = (r if not isinstance(r, t.Tensor) else
                                      (tuple(r.shape), r.stride(), o.data_ptr() == p), w)
    return obs


@prog
def out_dtype_rules(t):
    f, i, b = t.tensor([0.5, 1.5]), t.tensor([1, 2]), t.tensor([True, False])
    return {
        "sin int into long": catch(lambda: t.sin(i, out=t.zeros(2, dtype=t.int64))),
        "sin int into float": catch(lambda: t.sin(i, out=t.zeros(2))),
        "sqrt float into double": catch(lambda: t.sqrt(f, out=t.zeros(2, dtype=t.float64))),
        "eq into float": catch(lambda: t.eq(f, f, out=t.zeros(2))),
        "eq into long": catch(lambda: t.eq(f, f, out=t.zeros(2, dtype=t.int64))),
        "neg bool": catch(lambda: t.neg(b, out=t.zeros(2, dtype=t.bool))),
        "abs bool": catch(lambda: t.abs(b, out=t.zeros(2, dtype=t.bool))),
        "sub bool": catch(lambda: t.sub(b, b, out=t.zeros(2, dtype=t.bool))),
        "div int into long": catch(lambda: t.div(i, 2, out=t.zeros(2, dtype=t.int64))),
        "floor_divide int": catch(lambda: t.floor_divide(i, 2, out=t.zeros(2, dtype=t.int64))),
        "add int into float": catch(lambda: t.add(i, i, out=t.zeros(2))),
        "add float into int8": catch(lambda: t.add(f, 1, out=t.zeros(2, dtype=t.int8))),
        "float_power into float": catch(lambda: t.float_power(f, 2, out=t.zeros(2))),
        "clamp into long": catch(lambda: t.clamp(f, 0, 1, out=t.zeros(2, dtype=t.int64))),
        "clamp into double": catch(lambda: t.clamp(f, 0, 1, out=t.zeros(2, dtype=t.float64))),
        "logical_and into float": catch(lambda: t.logical_and(f, f, out=t.zeros(2))),
        "bitwise_and float": catch(lambda: t.bitwise_and(f, f, out=t.zeros(2))),
        "relu has no out=": catch(lambda: t.relu(f, out=t.zeros(2))),
        "out not a tensor": catch(lambda: t.sin(f, out=[1.0])),
    }


@prog
def out_autograd_and_overlap_rules(t):
    a = t.tensor([0.5, 1.5, 2.5])
    x = t.tensor([0.5, 1.5, 2.5], requires_grad=True)

    def no_grad_sin():
        with t.no_grad():
            return t.sin(x, out=t.zeros(3))
    return {
        "input requires grad": catch(lambda: t.cos(x, out=t.zeros(3))),
        "out requires grad": catch(lambda: t.atan2(a, a, out=t.zeros(3, requires_grad=True))),
        "ternary input requires grad": catch(lambda: t.addcmul(a, x, a, out=t.zeros(3))),
        "under no_grad": no_grad_sin(),
        "out is the input": catch(lambda: t.sin(a.clone(), out=a)),
        "out is part of the input": catch(lambda: t.sin(a, out=a[:2])),
        "out overlaps itself": catch(lambda: t.exp(a, out=t.zeros(1).expand(3))),
        "strided out": catch(lambda: (lambda o: (t.tan(a, out=o), o.stride()))(
            t.zeros(6)[::2])),
    }


@pytest.mark.parametrize("program", prog.params())
def test_out_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 9
