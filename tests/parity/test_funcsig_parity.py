"""torch.* functions as torch's parser binds them (funcsig, issue 11), programs side by side:
numbers where a Tensor goes (``torch.div(2, x)``: the number wrapped, values, dtype, node and
gradient), deprecated forms (``torch.add(x, 2, y)``), the factories' placement keywords, and
out= of the composite norms when the input requires grad (``linalg.matrix_norm(x, out=o)``:
torch computes with autograd, then ``o.copy_``, so o gets a CopyBackwards node)."""

import warnings

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, upstream

pytestmark = pytest.mark.parity

prog = Registry()


def quiet(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return catch(fn)


def _node(y):
    fn = y.grad_fn
    return None if fn is None else {
        "fn": fn_name(fn), "next": [fn_name(f) for f, _ in fn.next_functions]}


@prog
def numbers_where_a_tensor_goes(t):
    x = t.tensor(arr(2, 3, seed=1))
    i = t.tensor(np.array([[1, -2, 3], [4, 5, -6]]))
    b = t.tensor(np.array([True, False]))
    h = t.tensor(arr(3, seed=2)).half()
    return {
        "div": t.div(2, x), "div_int": t.div(2, i), "div_half": t.div(3, h),
        "floor": t.div(7, i, rounding_mode="floor"), "trunc": t.div(-7, i, rounding_mode="trunc"),
        "add_alpha": t.add(2, x, alpha=3), "add_float_int": t.add(2.5, i),
        "add_bools": t.add(True, b), "sub": t.sub(2, x), "sub_alpha": t.sub(1.5, x, alpha=2),
        "mul": t.mul(2.5, i), "multiply": t.multiply(3, h), "true_divide": t.true_divide(2, i),
        "floor_divide": t.floor_divide(7, i), "two_numbers": t.add(2, 3),
        "two_floats": t.mul(2.5, 3), "divide_floor": t.divide(2, x, rounding_mode="floor"),
    }


@prog
def number_first_gradients_and_nodes(t):
    w = leaf(t, arr(2, 3, seed=3, low=0.5, high=2.0))
    out = {}
    for name, fn in (("div", lambda: t.div(2, w)), ("sub", lambda: t.sub(2, w, alpha=3)),
                     ("add", lambda: t.add(1.5, w)), ("mul", lambda: t.mul(3, w))):
        w.grad = None
        y = fn()
        y.backward(upstream(t, y))
        out[name] = {"y": y, "node": _node(y), "grad": w.grad}
    return out


@prog
def numbers_into_out(t):
    x = t.tensor(arr(2, 3, seed=4))
    o = t.empty(2, 3)
    r = t.div(2, x, out=o)
    return {"same": r is o, "o": o, "version": o._version,
            "add": t.add(1, x, out=t.empty(2, 3))}


@prog
def deprecated_forms_bind_by_name(t):
    x = t.tensor(arr(2, 3, seed=5))
    m = t.tensor(arr(3, 3, seed=6))
    return {
        "add": quiet(lambda: t.add(x, 2, x)), "sub": quiet(lambda: t.sub(x, 2, x)),
        "addmm": quiet(lambda: t.addmm(2, m, m, m)),
        "addmm2": quiet(lambda: t.addmm(2, m, 3, m, m)),
        "addcdiv": quiet(lambda: t.addcdiv(x, 2, x, x + 3)),
        "addcmul": quiet(lambda: t.addcmul(x, 0.5, x, x)),
    }


@prog
def factories_take_torchs_placement_keywords(t):
    x = t.tensor(arr(2, 3, seed=7))
    s = t.strided
    return {
        "zeros": t.zeros(2, 3, layout=s, device="cpu", pin_memory=False),
        "ones": t.ones((2,), layout=None, device=None, pin_memory=None, requires_grad=None),
        "full": t.full((2,), 1.5, layout=s, requires_grad=None),
        "empty": t.empty(2, 3, layout=s).shape, "zeros_like": t.zeros_like(x, layout=s),
        "ones_like": t.ones_like(x, device="cpu", pin_memory=False),
        "full_like": t.full_like(x, 2, layout=s), "empty_like": t.empty_like(x, layout=s).shape,
        "arange": t.arange(3, layout=s), "dtype_float": t.zeros(2, dtype=float).dtype,
        "dtype_int": t.ones(2, dtype=int).dtype, "sum_float": t.sum(x, dtype=float).dtype,
        "empty_strided": t.empty_strided((2, 3), (1, 2), layout=s).stride(),
        "rand": t.rand(2, layout=s).shape, "randn": t.randn(2, layout=s, dtype=t.float64).dtype,
        "pinned": catch(lambda: t.zeros(2, pin_memory=True)),
        "bad_layout": catch(lambda: t.zeros(2, layout="a")),
        "tensor": t.tensor([1.0, 2.0], device="cpu", pin_memory=False),
    }


def _matrix_norm_out(t, ord, out_shape, dtype=None):
    x = leaf(t, arr(2, 3, seed=8))
    o = t.empty(out_shape, dtype=dtype) if dtype else t.empty(out_shape)
    r = quiet(lambda: t.linalg.matrix_norm(x, ord, out=o) if ord else t.linalg.matrix_norm(
        x, out=o))
    if not hasattr(r, "shape"):
        return {"raised": r, "version": o._version}
    out = {"same": r is o, "o": o, "version": o._version, "node": _node(o),
           "leaf": o.is_leaf, "requires_grad": o.requires_grad}
    o.backward()
    out["grad"] = x.grad
    return out


@prog
def matrix_norm_out_with_an_input_that_requires_grad(t):
    return {"fro": _matrix_norm_out(t, None, ()), "nuc": _matrix_norm_out(t, "nuc", ()),
            "inf": _matrix_norm_out(t, float("inf"), ()),
            "resized": _matrix_norm_out(t, None, (2,)),
            "wrong_dtype": _matrix_norm_out(t, None, (), t.float64)}


@prog
def linalg_norm_out_with_an_input_that_requires_grad(t):
    x = leaf(t, arr(2, 3, seed=9))
    o, p = t.empty(()), t.empty(3)
    t.linalg.norm(x, out=o)
    t.linalg.norm(x, dim=0, out=p)
    out = {"o": o, "p": p, "nodes": (_node(o), _node(p)), "versions": (o._version, p._version)}
    (o + p.sum()).backward()
    out["grad"] = x.grad
    return out


@prog
def norm_out_refusals_with_grad(t):
    x = leaf(t, arr(2, 3, seed=10))
    o = t.empty((), requires_grad=True)
    with t.no_grad():
        quiet_o = t.empty(())
        t.linalg.matrix_norm(x, out=quiet_o)
    return {
        "vector_norm": catch(lambda: t.linalg.vector_norm(x, out=t.empty(()))),
        "leaf_out": catch(lambda: t.linalg.matrix_norm(x.detach(), out=o)),
        "no_grad": (quiet_o, quiet_o.requires_grad, quiet_o._version),
    }


@pytest.mark.parametrize("prog", prog.params())
def test_funcsig(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
