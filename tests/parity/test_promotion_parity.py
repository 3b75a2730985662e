"""Type promotion and dtype conversions: result dtypes, casts, factory dtype arguments.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once
with ``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, same_storage

pytestmark = pytest.mark.parity

prog = Registry()


# ======================================================================================
# dtype promotion


@prog
def promo_int_tensor_plus_python_float(t):
    a = t.tensor([1, 2, 3])
    r = a + 1.5
    return {"r": r, "dtype": str(r.dtype), "a_dtype": str(a.dtype)}


@prog
def promo_int_plus_int(t):
    a = t.tensor([1, 2, 3])
    b = t.tensor([10, 20, 30])
    return {
        "scalar": a + 2,
        "tensor": a + b,
        "mul": a * b,
        "sub": a - 5,
        "dtype": str((a + b).dtype),
    }


@prog
def promo_bool(t):
    b = t.tensor([True, False, True])
    c = t.tensor([True, True, False])
    i = t.tensor([1, 2, 3])
    return {
        "b_dtype": str(b.dtype),
        "bool_plus_bool": b + c,
        "bool_plus_int": b + 1,
        "bool_plus_float": b + 1.5,
        "bool_times_int_tensor": b * i,
    }


@prog
def promo_float64_mixing(t):
    f = t.tensor(arr(3, seed=1))
    d = t.tensor(arr(3, seed=2, dtype=np.float64))
    i = t.tensor([1, 2, 3])
    return {
        "f32_plus_f64": (f + d).dtype,
        "f64_plus_python_float": (d + 0.5).dtype,
        "int_plus_f64": (i + d).dtype,
        "values": f + d,
        "f32_times_f64": f * d,
    }


@prog
def promo_zero_dim_does_not_win_within_category(t):
    f = t.tensor(arr(3, seed=1))
    d0 = t.tensor(2.0, dtype=t.float64)
    i = t.tensor([1, 2, 3])
    return {
        "f32_vec_plus_f64_scalar_tensor": f + d0,
        "int_vec_plus_f64_scalar_tensor": i + d0,
        "int_vec_plus_f32_scalar_tensor": i + t.tensor(2.5),
        "f32_0dim_plus_int_0dim": t.tensor(1.5) + t.tensor(2),
    }


@prog
def promo_true_division_of_ints(t):
    a = t.tensor([1, 2, 3])
    b = t.tensor([2, 2, 2])
    return {"div": a / b, "div_scalar": a / 2, "rdiv": 1 / a, "method": a.div(b)}


@prog
def promo_unary_on_ints(t):
    a = t.tensor([1, 4, 9])
    return {
        "sqrt": a.sqrt(),
        "exp": a.exp(),
        "log": a.log(),
        "neg": -a,
        "abs": t.tensor([-1, 2, -3]).abs(),
        "pow_int": a.pow(2),
        "pow_float": a.pow(0.5),
        "sigmoid": a.sigmoid(),
        "relu": t.tensor([-1, 2]).relu(),
    }


@prog
def promo_inplace_float_into_long_add_(t):
    a = t.tensor([1, 2, 3])
    return {"err": catch(lambda: a.add_(1.5)), "a": a, "version": a._version}


@prog
def promo_inplace_float_into_long_iadd(t):
    a = t.tensor([1, 2, 3])

    def f():
        nonlocal a
        a += 1.5
        return a

    return {"err": catch(f), "a": a}


@prog
def promo_inplace_float_tensor_into_long_mul_(t):
    a = t.tensor([1, 2, 3])
    return {"err": catch(lambda: a.mul_(t.tensor([1.5, 1.5, 1.5]))), "a": a}


@prog
def promo_inplace_float_into_long_div_(t):
    a = t.tensor([2, 4, 6])
    return {"err": catch(lambda: a.div_(2)), "a": a}


@prog
def promo_inplace_long_into_float_is_fine(t):
    f = t.tensor([1.0, 2.0, 3.0])
    r = f.add_(t.tensor([1, 1, 1]))
    return {"f": f, "same_object": r is f, "dtype": f.dtype, "version": f._version}


@prog
def promo_inplace_float64_into_float32_keeps_float32(t):
    f = t.tensor([1.0, 2.0, 3.0])
    f.mul_(t.tensor([0.5, 0.5, 0.5], dtype=t.float64))
    return {"f": f, "dtype": f.dtype}


@prog
def promo_sum_and_mean_of_ints(t):
    a = t.tensor([[1, 2], [3, 4]])
    b = t.tensor([True, False, True])
    return {
        "sum": a.sum(),
        "sum_dim": a.sum(0),
        "sum_bool": b.sum(),
        "mean_int": catch(lambda: a.mean()),
    }


# ======================================================================================
# dtype conversions and factory kwargs


@prog
def dtype_conversions(t):
    f = t.tensor([1.7, -2.7])
    i = t.tensor([1, 2])
    d = f.double()
    return {
        "double": d,
        "float": i.float(),
        "long": f.long(),
        "to": f.to(t.float64),
        "to_same_is_self": f.to(t.float32) is f,
        "float_same_is_self": f.float() is f,
        "d_new_storage": same_storage(d, f),
    }


@prog
def factories_with_requires_grad(t):
    z = t.zeros(3, requires_grad=True)
    o = t.ones(2, 2, requires_grad=True)
    f = t.full((2,), 1.5, requires_grad=True)
    return {
        "z": [z.is_leaf, z.requires_grad],
        "o": [o.is_leaf, o.requires_grad],
        "f": [f.is_leaf, f.requires_grad],
        "int_rg": catch(lambda: t.zeros(2, dtype=t.int64, requires_grad=True)),
    }


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_promotion_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
