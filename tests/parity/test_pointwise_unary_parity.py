"""Unary math, in place and out of place, on torch 2.13 and the core: values, dtypes (integer
and bool inputs), grad_fn names, ``_saved_*`` names, gradients, the in-place form's node and
the leaf error. One program per op, generated from one template.
"""

import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, upstream

pytestmark = pytest.mark.parity

prog = Registry()

# op -> the values it is defined on
DOMAIN = {
    "asin": (-0.8, 0.8), "acos": (-0.8, 0.8), "atanh": (-0.8, 0.8), "acosh": (1.2, 3.0),
    "log2": (0.5, 2.0), "log10": (0.5, 2.0), "log1p": (0.5, 2.0), "rsqrt": (0.5, 2.0),
    "logit": (0.1, 0.9), "sqrt": (0.5, 2.0), "log": (0.5, 2.0), "reciprocal": (0.5, 2.0),
}
UNARY = ("sin cos tan asin acos atan sinh cosh asinh acosh atanh arcsin arccos arctan arcsinh "
         "arccosh arctanh deg2rad rad2deg sinc floor ceil trunc fix round frac exp2 expm1 log2 "
         "log10 log1p rsqrt sgn square logit nan_to_num absolute negative abs neg exp log sqrt "
         "sigmoid tanh reciprocal relu sign").split()


def saved_names(fn):
    return None if fn is None else sorted(n for n in dir(fn) if n.startswith("_saved_"))


def dense(t, a):
    """a.grad as an ordinary tensor (PyTorch may hand back a ZeroTensor, e.g. for sgn)."""
    return None if a.grad is None else t.zeros_like(a) + a.grad


def _unary_program(op):
    lo, hi = DOMAIN.get(op, (-2.0, 2.0))

    def program(t):
        v = arr(2, 3, seed=7, low=lo, high=hi)
        x = t.tensor(v)
        y = x.clone()
        r = getattr(y, op + "_")()
        out = {"value": getattr(x, op)(), "inplace": y, "same": r is y, "version": y._version}
        for name, data in (("long", [[1, 0, 3]]), ("bool", [[True, False, True]])):
            s = t.tensor(data)
            out[name] = catch(lambda s=s: getattr(s, op)())
            c = s.clone()
            out[name + "_"] = catch(lambda c=c: getattr(c, op + "_")())
            out[name + "_version"] = c._version
        a = leaf(t, v)
        z = getattr(a, op)()
        out["fn"] = fn_name(z.grad_fn)
        out["saved"] = saved_names(z.grad_fn)
        if z.grad_fn is not None:
            z.backward(upstream(t, z))
        out["grad"] = dense(t, a)
        b = leaf(t, v)
        w = b * 1
        getattr(w, op + "_")()
        out["fn_"] = fn_name(w.grad_fn)
        out["saved_"] = saved_names(w.grad_fn)
        out["backward_"] = catch(lambda: w.backward(upstream(t, w)))
        out["grad_"] = dense(t, b)
        out["leaf"] = catch(lambda: getattr(leaf(t, v), op + "_")())
        base = leaf(t, v) * 1
        getattr(base[0], op + "_")()
        out["view_base_fn"] = fn_name(base.grad_fn)
        return out

    program.__name__ = f"unary_{op}"
    return program


for _op in UNARY:
    prog(_unary_program(_op))


@prog
def unary_round_decimals(t):
    x = t.tensor([[0.125, -1.25, 2.5, 3.14159, -0.05, 150.0]])
    a = leaf(t, arr(2, 3, seed=3))
    y = a.round(decimals=1)
    c = x.clone()
    return {
        "d2": x.round(decimals=2), "d0": x.round(decimals=0), "dm1": x.round(decimals=-1),
        "inplace": c.round_(decimals=1), "version": c._version,
        "fn": fn_name(y.grad_fn), "fn0": fn_name(a.round().grad_fn),
        "long": catch(lambda: t.tensor([15, 25]).round(decimals=-1)),
        "long0": t.tensor([15, 25]).round(),
        "float_decimals": catch(lambda: x.clone().round_(decimals=1.5)),
        "none_decimals": catch(lambda: x.clone().round_(decimals=None)),
    }


@prog
def unary_logit_eps_and_nan_to_num_args(t):
    x = t.tensor([0.0, 0.05, 0.5, 0.99, 1.0])
    a = leaf(t, [0.05, 0.5, 0.97])
    y = a.logit(0.1)
    y.backward(t.ones(3))
    n = t.tensor([1.5, float("nan"), float("inf"), -float("inf")])
    d = n.to(t.float64)
    return {
        "eps": x.logit(0.1), "no_eps": x.logit(), "saved_eps": y.grad_fn._saved_eps,
        "no_eps_saved": a.logit().grad_fn._saved_eps, "grad": a.grad,
        "eps_str": catch(lambda: x.clone().logit_("a")),
        "default": n.nan_to_num(), "double": d.nan_to_num(),
        "args": n.nan_to_num(nan=2.0, posinf=9.0, neginf=-9.0),
        "inplace": n.clone().nan_to_num_(1.0),
        "nan_str": catch(lambda: n.clone().nan_to_num_(nan="a")),
        "long": t.tensor([1, 2]).nan_to_num(nan=1.5),
    }


@prog
def unary_inverse_hyperbolic_inplace_backward_raises(t):
    out = {}
    for op in ("asinh", "acosh", "atanh"):
        a = leaf(t, [0.3, 0.5] if op != "acosh" else [1.5, 2.0])
        y = a * 1
        getattr(y, op + "_")()
        out[op] = (fn_name(y.grad_fn), catch(lambda y=y: y.sum().backward()))
    return out


@prog
def unary_square_is_pow(t):
    a = leaf(t, arr(3, seed=1))
    y = a.square()
    return {"fn": fn_name(y.grad_fn), "exponent": y.grad_fn._saved_exponent,
            "saved": saved_names(y.grad_fn), "bool": t.tensor([True, False]).square(),
            "bool_": catch(lambda: t.tensor([True]).square_())}


@prog
def unary_conj_physical_on_real(t):
    a = leaf(t, arr(3, seed=1))
    y = a * 1
    r = y.conj_physical_()
    return {"same_object": a.conj_physical() is a, "fn": fn_name(r.grad_fn), "r_is_y": r is y,
            "version": y._version}


@pytest.mark.parametrize("prog", prog.params())
def test_pointwise_unary_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
