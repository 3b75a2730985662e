"""torch.positive, torch.angle and torch.signbit (with out=), against torch 2.13.

positive returns its input itself (``+x is x``), refusing bool. angle of a real number is pi
below zero and +0.0 elsewhere (-0.0 too), float for integer inputs; AngleBackward0 saves self
and sends back zeros laid out like self. Its NaN keeps its bits in PyTorch's element loop and
in the DEFAULT build; an AVX2/AVX512 vector writes its own NaN, so angle's bits are compared
exactly here and under each CPU build (test_cpu_capability_parity.BIT_PROGRAMS). signbit is a
bool read of the sign bit (-0.0 and -NaN: True), no gradient, its out= bool only.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, meta, upstream
from .test_nan_sign_parity import _lengths, _special, bits

pytestmark = pytest.mark.parity

prog = Registry()
FLOATS = ("float32", "float64", "float16", "bfloat16")


@prog
def positive_is_the_tensor_itself(t):
    x = t.tensor(arr(2, 3, seed=1), requires_grad=True)
    y = x * 2
    v = y.t()
    obs = {"same": t.positive(x) is x, "plus": (+y) is y, "method": v.positive() is v,
           "grad_fn": fn_name(t.positive(y).grad_fn), "version": y._version}
    for dtype in ("int64", "uint8", "int8", "float16", "bfloat16"):
        z = t.zeros(2, dtype=getattr(t, dtype))
        obs[dtype] = t.positive(z) is z
    return obs


@prog
def positive_refusals(t):
    b = t.tensor([True, False])
    x = t.ones(2)
    return {"bool_function": catch(lambda: t.positive(b)),
            "bool_operator": catch(lambda: +b),
            "bool_method": catch(lambda: b.positive()),
            "out": catch(lambda: t.positive(x, out=x)),
            "not_tensor": catch(lambda: t.positive(1)),
            "method_argument": catch(lambda: x.positive(1))}


@prog
def angle_values_and_dtypes(t):
    obs = {}
    for dtype in FLOATS:
        x = _special(t, dtype)
        y = t.angle(x)
        obs[dtype] = {"y": y, "bits": bits(y), "meta": meta(y)}
    for dtype in ("int64", "int32", "int16", "int8", "uint8", "bool"):
        x = t.tensor([3, -2, 0, 1, -7]).to(getattr(t, dtype))
        y = x.angle()
        obs[dtype] = {"y": y, "meta": meta(y)}
    return obs


@prog
def angle_nan_bits_by_loop(t):
    """Vectors and tails: 37 and 200 elements, a strided view, a transposed matrix."""
    obs = {}
    for dtype in FLOATS:
        x = _special(t, dtype)
        for name, v in _lengths(t, x).items():
            obs[f"{dtype}_{name}"] = bits(t.angle(v))
        m = x.repeat(30)[:200].reshape(10, 20).t()
        obs[f"{dtype}_transposed"] = bits(m.angle())
    return obs


@prog
def angle_layouts(t):
    x = t.tensor(arr(3, 4, 5, seed=2))
    obs = {}
    for name, v in {"permuted": x.permute(2, 0, 1), "sliced": x[:, ::2],
                    "expanded": x[:1].expand(3, 4, 5), "empty": x[:, :0],
                    "scalar": x[0, 0, 0], "int_transposed": x[0].long().t()}.items():
        y = v.angle()
        obs[name] = {"y": y, "meta": meta(y)}
    return obs


@prog
def angle_backward(t):
    base = t.tensor(arr(3, 4, seed=3), requires_grad=True)
    obs = {}
    for name, fn in {"plain": lambda b: b, "transposed": lambda b: b.t(),
                     "product": lambda b: (b * 2).t()}.items():
        base.grad = None
        x = fn(base)
        y = t.angle(x)
        gf = y.grad_fn
        obs[name] = {"grad_fn": fn_name(gf), "saved_self": meta(gf._saved_self),
                     "saved_is_input": gf._saved_self.data_ptr() == x.data_ptr()}
        y.backward(upstream(t, y))
        obs[name]["grad"] = base.grad
        obs[name]["grad_meta"] = meta(base.grad)
    nan = t.tensor([float("nan"), -1.0, 2.0], requires_grad=True)
    t.angle(nan).backward(t.tensor([float("nan"), float("inf"), 1.0]))
    obs["nan_grad"] = nan.grad  # zeros_like: nothing of the incoming gradient survives
    return obs


@prog
def angle_saved_self_version(t):
    x = t.tensor(arr(4, seed=4), requires_grad=True)
    h = x * 1
    y = h.angle()
    h.add_(1)
    return {"backward": catch(lambda: y.sum().backward()), "version": h._version}


@prog
def angle_out(t):
    x = t.tensor([1.0, -2.0, 0.0, -0.0])
    calls = {
        "float": lambda: t.angle(x, out=t.empty(4)),
        "double": lambda: t.angle(x, out=t.empty(4, dtype=t.float64)),
        "half": lambda: t.angle(x, out=t.empty(4, dtype=t.float16)),
        "long_out": lambda: t.angle(x, out=t.empty(4, dtype=t.long)),
        "int_in_long_out": lambda: t.angle(t.tensor([1, -2]), out=t.empty(2, dtype=t.long)),
        "int_in_double_out": lambda: t.angle(t.tensor([1, -2]), out=t.empty(2).double()),
        "resized_empty": lambda: t.angle(x, out=t.empty(0)),
        "self": lambda: t.angle(x.clone(), out=None),
        "expanded_out": lambda: t.angle(x, out=t.empty(1).expand(4)),
        "partial_overlap": lambda: t.angle(x, out=x[1:3]),
        "not_tensor": lambda: t.angle(x, out=1),
        "requires_grad": lambda: t.angle(x.clone().requires_grad_(), out=t.empty(4)),
    }
    obs = {name: catch(fn) for name, fn in calls.items()}
    o = t.empty(2, 2).t()
    p = o.data_ptr()
    r = t.angle(t.tensor([[1.0, -2.0], [-3.0, 4.0]]), out=o)
    obs["transposed_out"] = {"same": r is o, "ptr": o.data_ptr() == p, "o": o,
                             "meta": meta(o), "version": o._version}
    y = x.clone()
    obs["into_self"] = {"r": t.angle(y, out=y), "version": y._version}
    return obs


@prog
def signbit_values(t):
    obs = {}
    for dtype in FLOATS:
        x = _special(t, dtype)
        obs[dtype] = {name: t.signbit(v) for name, v in _lengths(t, x).items()}
    for dtype in ("int64", "int32", "int16", "int8", "uint8", "bool"):
        x = t.tensor([3, -2, 0, 1, -7]).to(getattr(t, dtype))
        obs[dtype] = x.signbit()
    x = t.tensor(arr(3, 4, seed=5))
    for name, v in {"transposed": x.t(), "sliced": x[:, ::2], "expanded": x[:1].expand(3, 4),
                    "empty": x[:0], "scalar": x[1, 1]}.items():
        y = v.signbit()
        obs[name] = {"y": y, "meta": meta(y)}
    return obs


@prog
def signbit_no_gradient(t):
    x = t.tensor(arr(3, seed=6), requires_grad=True)
    y = t.signbit(x)
    return {"requires_grad": y.requires_grad, "grad_fn": fn_name(y.grad_fn),
            "backward": catch(lambda: y.sum().backward())}


@prog
def signbit_out(t):
    x = t.tensor([1.0, -2.0, 0.0, -0.0])
    b = t.empty(4, dtype=t.bool)
    calls = {
        "bool": lambda: t.signbit(x, out=b),
        "float_out": lambda: t.signbit(x, out=t.empty(4)),
        "float_out_itself": lambda: t.signbit(x, out=x),
        "float_expanded": lambda: t.signbit(x, out=t.empty(1).expand(4)),
        "bool_expanded": lambda: t.signbit(x, out=t.empty(1, dtype=t.bool).expand(4)),
        "resized_empty": lambda: t.signbit(x, out=t.empty(0, dtype=t.bool)),
        "bool_input": lambda: t.signbit(t.tensor([True, False]), out=t.ones(2, dtype=t.bool)),
        "int_input": lambda: t.signbit(t.tensor([-1, 1]), out=t.empty(2, dtype=t.bool)),
        "requires_grad": lambda: t.signbit(x.clone().requires_grad_(),
                                           out=t.empty(4, dtype=t.bool)),
        "not_tensor": lambda: t.signbit(x, out=1),
        "out_none": lambda: t.signbit(x, out=None),
    }
    obs = {name: catch(fn) for name, fn in calls.items()}
    o = t.empty(2, 2, dtype=t.bool).t()
    r = t.signbit(t.tensor([[1.0, -2.0], [-3.0, 4.0]]), out=o)
    obs["transposed_out"] = {"same": r is o, "o": o, "meta": meta(o), "version": o._version}
    return obs


@prog
def comparisons_out_take_inputs_that_require_grad(t):
    """Bool results carry no gradient, so their out= forms don't refuse autograd."""
    x = t.tensor(arr(3, seed=7), requires_grad=True)
    obs = {}
    for name in ("eq", "ne", "lt", "le", "gt", "ge", "greater", "less_equal", "not_equal",
                 "logical_and", "logical_xor"):
        obs[name] = catch(lambda name=name: getattr(t, name)(x, x.detach() * 0,
                                                          out=t.empty(3, dtype=t.bool)))
    obs["logical_not"] = catch(lambda: t.logical_not(x, out=t.empty(3, dtype=t.bool)))
    obs["sign_refuses"] = catch(lambda: t.sign(x, out=t.empty(3)))
    obs["floor_refuses"] = catch(lambda: t.floor(x, out=t.empty(3)))
    return obs


@pytest.mark.filterwarnings("ignore:An output with one or more elements was resized")
@pytest.mark.parametrize("program", prog.params())
def test_sign_angle_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_programs_count():
    assert len(prog.programs) == 12
