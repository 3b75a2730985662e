"""NaN sign bits, -0.0 and reinterpreting casts on torch 2.13 and the core (issue 10), and
the small methods that came with them: ``Tensor.where``.

Float results are compared bit for bit: ``bits`` turns a float tensor into its integer bit
patterns, so a NaN whose sign or payload differs, or a 0.0 where torch has -0.0, fails the
program (the harness's value comparison treats every NaN alike and -0.0 == 0.0).
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, upstream

pytestmark = pytest.mark.parity

prog = Registry()


# ======================================================================================
# Tensor.where(condition, other): torch.where(condition, self, other) as a method


@prog
def where_method_values_and_grads(t):
    x = leaf(t, arr(2, 3, seed=1))
    y = leaf(t, arr(3, seed=2))
    r = x.where(x > 0, y)
    r.backward(upstream(t, r))
    s = x.where(condition=x < 0, other=-1.5)
    return {"r": r, "fn": fn_name(r.grad_fn), "saved": r.grad_fn._saved_condition,
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


@pytest.mark.parametrize("prog", prog.params())
def test_nan_sign_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
