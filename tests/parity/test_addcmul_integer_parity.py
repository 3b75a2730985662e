"""addcmul/addcdiv on integer and bool tensors: the ``value`` goes through c10's checked
conversion to the result type before anything is written (truncated toward zero, -1 wraps into
uint8, 300 into int8 and NaN into int64 refused in c10's words); Bool has no addcmul kernel;
integer addcdiv is refused whatever the value. The in-place forms leave ``_version`` as is
when they refuse."""

import pytest

from .harness import Registry, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()

# (dtype, value): ones that convert and run, and ones c10 refuses
VALUES = [("int64", 0.5), ("int64", True), ("int32", 2.5), ("int16", -2.7), ("uint8", -1),
          ("uint8", 3.9), ("int8", -128), ("int64", 1e30), ("int8", 300), ("int8", 300.0),
          ("uint8", -1.5), ("int64", float("nan")), ("int32", 2**40), ("int64", float("inf")),
          ("bool", 2.5), ("bool", 0.0)]


@prog
def addcmul_integer_value_conversion(t):
    out = {}
    for dname, value in VALUES:
        dt = getattr(t, dname)
        for op in ("addcmul_", "addcmul", "addcdiv_", "addcdiv"):
            x = t.tensor([1, 0, 3], dtype=dt)
            a, b = t.tensor([4, 5, 6], dtype=dt), t.tensor([2, 2, 1], dtype=dt)
            r = catch(lambda x=x, op=op, a=a, b=b, v=value: getattr(x, op)(a, b, value=v))
            out[f"{op} {dname} {value!r}"] = (r, x, x._version)
    return out


@prog
def addcmul_integer_function_and_broadcast(t):
    x = t.tensor([[1, 2, 3], [4, 5, 6]], dtype=t.int32)
    a, b = t.tensor([7, -8, 9], dtype=t.int32), t.tensor([[2], [-3]], dtype=t.int32)
    o = t.empty(0, dtype=t.int32)
    return {"function": t.addcmul(x, a, b, value=-1.9),
            "out": (t.addcmul(x, a, b, value=3.99, out=o), o),
            "wrap": t.tensor([100], dtype=t.int8).addcmul_(t.tensor([100], dtype=t.int8),
                                                          t.tensor([3], dtype=t.int8), value=2),
            "float_self_int_value": t.tensor([1.0, 2.0]).addcmul(t.tensor([3, 4]),
                                                                t.tensor([5, 6]), value=1e30)}


@pytest.mark.parametrize("prog", prog.params())
def test_addcmul_integer_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
