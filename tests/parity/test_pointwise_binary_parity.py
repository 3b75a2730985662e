"""Comparisons in place, logical and bitwise ops, the operators that must be in place
(``&=`` ... ``%=``), binary math (atan2 ... lcm), clamp with tensor bounds, lerp with a tensor
weight, pow's saved tensors, and PyTorch's argument-type errors, on torch 2.13 and the core.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, fn_name, leaf, pos, upstream

pytestmark = pytest.mark.parity

prog = Registry()


def saved_names(fn):
    return None if fn is None else sorted(n for n in dir(fn) if n.startswith("_saved_"))


def dense(t, a):
    return None if a.grad is None else t.zeros_like(a) + a.grad


# ======================================================================================
# comparisons in place


def _compare_program(op):
    def program(t):
        x = t.tensor(arr(2, 3, seed=1))
        y = t.tensor(arr(3, seed=2))
        a, b = x.clone(), x.clone()
        ra = getattr(a, op + "_")(0.5)
        getattr(b, op + "_")(y)
        i = t.tensor([1, 2, 3])
        lf = leaf(t, arr(3, seed=4))
        z = lf * 1
        getattr(z, op + "_")(t.tensor([0.0, 1.0, -1.0], requires_grad=True))
        z.backward(upstream(t, z))
        return {
            "scalar": a, "tensor": b, "same": ra is a, "version": a._version,
            "long": getattr(i.clone(), op + "_")(1.5), "bool": getattr(t.tensor([True, False]),
                                                                       op + "_")(0.5),
            "fn": fn_name(z.grad_fn), "saved": saved_names(z.grad_fn), "grad": dense(t, lf),
            "fn_scalar": fn_name(getattr(leaf(t, [1.0]) * 1, op + "_")(0.0).grad_fn),
            "leaf": catch(lambda: getattr(leaf(t, [1.0]), op + "_")(0.0)),
            "broadcast": catch(lambda: getattr(i.clone(), op + "_")(t.ones(2, 3))),
            "overlap": catch(lambda: getattr(x.view(-1)[1:], op + "_")(x.view(-1)[:5])),
            "none": catch(lambda: getattr(x.clone(), op + "_")(None)),
            "list": catch(lambda: getattr(x.clone(), op + "_")([1.0, 2.0])),
        }
    program.__name__ = f"compare_inplace_{op}"
    return program


for _op in ("eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less",
            "less_equal", "not_equal"):
    prog(_compare_program(_op))


# ======================================================================================
# logical and bitwise


@prog
def logical_ops_in_place_are_not_recorded(t):
    a = leaf(t, [1.0, 0.0, 2.0])
    out = {}
    for op in ("logical_and", "logical_or", "logical_xor"):
        x = t.tensor([1.0, 0.0, 2.0])
        other = t.tensor([1, 0, 0])
        out[op] = getattr(x, op)(other)
        out[op + "_"] = (getattr(x.clone(), op + "_")(other), x._version)
        out[op + "_int"] = getattr(t.tensor([3, 0, 1]), op + "_")(t.tensor([0.5, 0.0, 1.0]))
        out[op + "_scalar"] = catch(lambda op=op, x=x: getattr(x, op + "_")(1))
    z = a * 1
    z.logical_not_()
    out["not"] = (t.tensor([1.5, 0.0]).logical_not(), t.tensor([1.5, 0.0]).logical_not_())
    out["on_leaf"] = a.logical_not_()
    out["leaf_version"] = a._version
    out["fn_after"] = fn_name(z.grad_fn)
    v = t.tensor([1.0, 0.0, 2.0, 3.0])
    out["overlap"] = catch(lambda: v[1:].logical_and_(v[:3]))
    out["expanded"] = catch(lambda: v[:1].expand(3).logical_not_())
    return out


def _bitwise_program(op):
    def program(t):
        i = t.tensor([5, 3, -7, 12])
        j = t.tensor([1, 6, 2, 3])
        c = i.clone()
        r = getattr(c, op + "_")(j)
        return {
            "tensor": getattr(i, op)(j), "scalar": getattr(i, op)(2),
            "inplace": c, "same": r is c, "version": c._version,
            "bool": catch(lambda: getattr(t.tensor([True, False]), op)(t.tensor([True, True]))),
            "bool_int": catch(lambda: getattr(t.tensor([True, False]), op)(t.tensor([3, 1]))),
            "float": catch(lambda: getattr(t.tensor([1.0]), op)(t.tensor([1.0]))),
            "float_scalar_": catch(lambda: getattr(i.clone(), op + "_")(1.5)),
            "float_self_": catch(lambda: getattr(t.tensor([1.0]), op + "_")(1)),
            "none": catch(lambda: getattr(i.clone(), op + "_")(None)),
        }
    program.__name__ = f"bitwise_{op}"
    return program


for _op in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
            "bitwise_right_shift"):
    prog(_bitwise_program(_op))


@prog
def bitwise_not_and_invert(t):
    return {
        "int": t.tensor([5, -1, 0]).bitwise_not(), "bool": ~t.tensor([True, False]),
        "inplace": t.tensor([5, -1]).bitwise_not_(),
        "float": catch(lambda: t.tensor([1.0]).bitwise_not()),
        "invert_float": catch(lambda: ~t.tensor([1.0])),
    }


@prog
def operators_that_must_be_in_place(t):
    out = {}
    for sym, fn in (("&=", lambda a, b: a.__iand__(b)), ("|=", lambda a, b: a.__ior__(b)),
                    ("^=", lambda a, b: a.__ixor__(b)), ("<<=", lambda a, b: a.__ilshift__(b)),
                    (">>=", lambda a, b: a.__irshift__(b)),
                    ("//=", lambda a, b: a.__ifloordiv__(b)),
                    ("%=", lambda a, b: a.__imod__(b))):
        a = t.tensor([13, -7, 6])
        p = a.data_ptr()
        r = fn(a, t.tensor([3, 2, 4]) if sym in ("&=", "|=", "^=") else 2)
        out[sym] = (a, r is a, a.data_ptr() == p, a._version)
    f = t.tensor([5.5, -3.0])
    g = f
    f //= 2
    f %= 1.5
    out["float"] = (f, g is f, f._version)
    return out


@prog
def operators_binary_and_reflected(t):
    i = t.tensor([5, -3, 8])
    x = t.tensor([5.5, -3.0, 8.0])
    return {
        "and": i & t.tensor([1, 1, 0]), "or": i | 2, "xor": i ^ 7, "rand": 1 & i, "ror": 2 | i,
        "rxor": 3 ^ i, "lshift": i << 1, "rshift": i >> 1, "rlshift": 1 << t.tensor([2, 3]),
        "floordiv": i // 2, "ffloordiv": x // 2, "rfloordiv": 7 // t.tensor([2, 3]),
        "mod": i % 3, "fmod": x % 2.5, "rmod": 7 % t.tensor([2, 3]),
        "bool_and": t.tensor([True, False]) & t.tensor([True, True]),
        "float_and": catch(lambda: x & x),
        "add_none": catch(lambda: x + None), "iadd_none": catch(lambda: x.__iadd__(None)),
        "mul_list": catch(lambda: x * [1, 2, 3]),
        "int_div_zero": catch(lambda: i // 0), "int_mod_zero": catch(lambda: i % 0),
    }


# ======================================================================================
# binary math


def _binary_program(op, tensor_only, low=0.5, high=2.0):
    def program(t):
        x = t.tensor(arr(2, 3, seed=1, low=low, high=high))
        y = t.tensor(arr(3, seed=2, low=low, high=high))
        c = x.clone()
        r = getattr(c, op + "_")(y)
        a, b = leaf(t, arr(2, 3, seed=3, low=low, high=high)), leaf(t, arr(3, seed=4,
                                                                           low=low, high=high))
        z = getattr(a, op)(b)
        z.backward(upstream(t, z))
        w = leaf(t, arr(3, seed=5, low=low, high=high)) * 1
        getattr(w, op + "_")(t.tensor(arr(3, seed=6, low=low, high=high)))
        out = {
            "value": getattr(x, op)(y), "inplace": c, "same": r is c, "version": c._version,
            "fn": fn_name(z.grad_fn), "saved": saved_names(z.grad_fn),
            "grad_a": dense(t, a), "grad_b": dense(t, b), "fn_": fn_name(w.grad_fn),
            "long": catch(lambda: getattr(t.tensor([5, -3]), op)(t.tensor([2, 2]))),
            "long_": catch(lambda: getattr(t.tensor([5, -3]), op + "_")(t.tensor([2, 2]))),
            "bcast_": catch(lambda: getattr(y.clone(), op + "_")(x)),
            "none": catch(lambda: getattr(x, op + "_")(None)),
            "scalar": catch(lambda: getattr(x, op)(1.5)),
        }
        if not tensor_only:
            s = leaf(t, arr(3, seed=7, low=low, high=high))
            q = getattr(s, op)(1.5)
            out["scalar_fn"] = fn_name(q.grad_fn)
            out["scalar_saved"] = saved_names(q.grad_fn)
            q.backward(upstream(t, q))
            out["scalar_grad"] = dense(t, s)
        return out
    program.__name__ = f"binary_{op}"
    return program


for _op, _only in (("atan2", True), ("arctan2", True), ("copysign", False), ("fmod", False),
                   ("remainder", False), ("hypot", True), ("xlogy", False), ("ldexp", True),
                   ("nextafter", True)):
    prog(_binary_program(_op, _only))


@prog
def binary_floor_divide_and_heaviside(t):
    a = leaf(t, [1.5, -2.0])
    b = leaf(t, [0.5, 3.0])
    fd, hv = a.floor_divide(b), a.heaviside(b)
    return {
        "fd": t.tensor([5.0, -3.0]).floor_divide(2), "fd_int": t.tensor([5, -3]).floor_divide(2),
        "fd_": t.tensor([5.0, -3.0]).floor_divide_(t.tensor([2.0, 2.0])),
        "fn": fn_name(fd.grad_fn), "next": [fn_name(f) for f, _ in fd.grad_fn.next_functions],
        "backward": catch(lambda: fd.sum().backward()),
        "hv": t.tensor([-1.0, 0.0, 2.0]).heaviside(t.tensor([0.5])),
        "hv_fn": fn_name(hv.grad_fn), "hv_backward": catch(lambda: hv.sum().backward()),
        "hv_dtypes": catch(lambda: t.tensor([-1, 0]).heaviside(t.tensor([0.5]))),
        "hv_values": catch(lambda: t.tensor([1.0]).heaviside(0.5)),
    }


@prog
def binary_gcd_lcm(t):
    a, b = t.tensor([12, 18, -4]), t.tensor([8, 4, 6])
    c = a.clone()
    return {"gcd": a.gcd(b), "lcm": a.lcm(b), "gcd_": c.gcd_(b), "version": c._version,
            "float": catch(lambda: t.tensor([1.0]).gcd(t.tensor([2.0]))),
            "scalar": catch(lambda: a.gcd(2))}


@prog
def binary_float_power(t):
    a = leaf(t, arr(3, seed=1, low=0.5, high=2.0))
    e = leaf(t, [1.0, 2.0, 0.5])
    y = a.float_power(2)
    z = a.float_power(e)
    z.backward(t.ones(3, dtype=t.float64))
    d = t.tensor([2.0, 3.0], dtype=t.float64)
    return {
        "y": y, "y_fn": fn_name(y.grad_fn), "y_exp": y.grad_fn._saved_exponent,
        "z_fn": fn_name(z.grad_fn), "z_saved": saved_names(z.grad_fn),
        "grad_a": a.grad, "grad_e": e.grad,
        "long": t.tensor([2, 3]).float_power(2), "inplace": d.float_power_(2),
        "float_": catch(lambda: t.tensor([2.0]).float_power_(2)),
        "long_": catch(lambda: t.tensor([2]).float_power_(2)),
    }


# ======================================================================================
# pow's saved tensors


@prog
def pow_saved_tensors(t):
    x = leaf(t, pos(3, seed=1))
    e = leaf(t, [1.0, 2.0, 3.0])
    y0, y1, y2 = x.pow(2), x.pow(e), 2.0 ** x
    y3 = x.pow(t.tensor([1.0, 2.0, 3.0]))
    out = {"fn": [fn_name(y.grad_fn) for y in (y0, y1, y2, y3)],
           "saved": [saved_names(y.grad_fn) for y in (y0, y1, y2, y3)],
           "exp0": y0.grad_fn._saved_exponent, "exp1": y1.grad_fn._saved_exponent,
           "base": y2.grad_fn._saved_self, "exp2": y2.grad_fn._saved_exponent,
           "int_rpow": 2 ** t.tensor([3, 4]), "float_rpow_int": 2.5 ** t.tensor([1, 2])}
    w = x * 1
    w.pow_(e)
    out["inplace_fn"] = fn_name(w.grad_fn)
    out["inplace_saved"] = saved_names(w.grad_fn)
    ee = leaf(t, [1.0, 2.0, 3.0])
    z = x.pow(ee)
    with t.no_grad():
        ee.mul_(2)
    out["exponent_modified"] = catch(lambda: z.sum().backward())
    xx = leaf(t, [1.0, 2.0])
    r = 2.0 ** xx
    with t.no_grad():
        xx.add_(1)
    out["rpow_exponent_modified"] = catch(lambda: r.sum().backward())
    return out


# ======================================================================================
# clamp with tensor bounds, lerp with a tensor weight


@prog
def clamp_tensor_bounds(t):
    z = leaf(t, [-1.0, 0.6, 2.0, 0.3])
    lo = leaf(t, [0.0, 0.5, 0.0, 0.8])
    hi = leaf(t, [1.0, 0.7, 1.5, 0.4])
    y = z.clamp(lo, hi)
    y.backward(upstream(t, y))
    out = {"y": y, "fn": fn_name(y.grad_fn), "saved": saved_names(y.grad_fn),
           "gz": z.grad, "glo": lo.grad, "ghi": hi.grad}
    for name, fn in (("min_only", lambda a, b: a.clamp(min=b)),
                     ("max_only", lambda a, b: a.clamp(max=b)),
                     ("clamp_min", lambda a, b: a.clamp_min(b)),
                     ("clamp_max", lambda a, b: a.clamp_max(b)),
                     ("clamp_min_", lambda a, b: (a * 1).clamp_min_(b)),
                     ("clamp_", lambda a, b: (a * 1).clamp_(b, None))):
        a, b = leaf(t, [-1.0, 0.6, 2.0]), leaf(t, [0.0, 0.7, 1.0])
        r = fn(a, b)
        r.backward(upstream(t, r))
        out[name] = (r, fn_name(r.grad_fn), saved_names(r.grad_fn), a.grad, b.grad)
    s = leaf(t, [-1.0, 2.0]) * 1
    out["scalar_fns"] = [fn_name(s.clamp(0.0, 1.0).grad_fn), fn_name(s.clamp(max=1.0).grad_fn),
                         fn_name(s.clamp_min(0.0).grad_fn), fn_name(s.clamp_max(0.0).grad_fn)]
    out["int_float_bound"] = t.tensor([1, 5]).clamp(t.tensor([2.5]), t.tensor([3.5]))
    out["inplace_int_bound"] = t.tensor([1.0, 5.0]).clamp_(t.tensor([2, 2]), None)
    return out


@prog
def clamp_argument_errors_write_nothing(t):
    x = t.tensor([-1.0, 0.5, 2.0])
    out = {}
    for name, fn in (("str_max", lambda: x.clamp_(0, "a")),
                     ("none_str", lambda: x.clamp_(None, "a")),
                     ("mixed", lambda: x.clamp_(t.tensor([0.0]), 1.0)),
                     ("list", lambda: x.clamp_([0.0])), ("none", lambda: x.clamp_()),
                     ("min_none", lambda: x.clamp_min_(None)),
                     ("max_array", lambda: x.clamp_max_(np.array([1.0])))):
        out[name] = catch(fn)
    out["x"] = x
    out["version"] = x._version
    return out


@prog
def lerp_tensor_weight(t):
    s, e, w = leaf(t, arr(3, seed=1)), leaf(t, arr(3, seed=2)), leaf(t, [0.25, 0.5, 0.9])
    y = s.lerp(e, w)
    y.backward(upstream(t, y))
    a = leaf(t, arr(3, seed=1)) * 1
    a.lerp_(t.tensor(arr(3, seed=2)), t.tensor([0.1, 0.2, 0.3]))
    b = leaf(t, arr(2, 3, seed=4))
    z = b.lerp(t.zeros(2, 3), 0.25)
    x = t.tensor(arr(2, 3, seed=5))
    c = x.clone()
    c.lerp_(t.ones(3), t.tensor([[0.5], [0.25]]))
    return {
        "y": y, "fn": fn_name(y.grad_fn), "saved": saved_names(y.grad_fn),
        "gs": s.grad, "ge": e.grad, "gw": w.grad, "a": a, "a_fn": fn_name(a.grad_fn),
        "scalar_fn": fn_name(z.grad_fn), "scalar_saved": saved_names(z.grad_fn),
        "scalar_weight": z.grad_fn._saved_weight, "bcast": c,
        "none": catch(lambda: x.clone().lerp_(x, None)),
        "str": catch(lambda: x.clone().lerp_(x, "a")),
    }


# ======================================================================================
# argument types (issue 11 item 2) and dtype checks (item 8)


@prog
def non_tensor_operands_are_refused(t):
    b = t.tensor([1.0, 2.0, 3.0, 4.0])
    out = {}
    for op in ("add_", "sub_", "mul_", "div_", "add", "mul", "atan2_", "maximum", "minimum"):
        for name, v in (("none", None), ("list", [1.0, 2.0]), ("array", np.array([1.0, 2.0])),
                        ("str", "a")):
            out[f"{op}_{name}"] = catch(lambda op=op, v=v: getattr(b[1:3], op)(v))
    for op in ("pow_", "fmod_", "remainder_", "eq_", "copysign_", "xlogy_", "floor_divide_",
               "bitwise_and_", "clamp_min_"):
        for name, v in (("none", None), ("list", [1.0, 2.0]), ("tuple", (1, 2.0))):
            out[f"{op}_{name}"] = catch(lambda op=op, v=v: getattr(b[1:3], op)(v))
    out["alpha_none"] = catch(lambda: b.add_(1, alpha=None))
    out["alpha_str"] = catch(lambda: b.add_(b, alpha="a"))
    out["np_scalar"] = b.clone().add_(np.float64(2.0))
    out["b"] = b
    out["version"] = b._version
    return out


@prog
def addcmul_addcdiv_checks(t):
    x = t.tensor([1.0, 2.0])
    i = t.tensor([1, 2])
    return {
        "t1_none": catch(lambda: x.clone().addcmul_(None, x)),
        "value_none": catch(lambda: x.clone().addcmul_(x, x, value=None)),
        "t2_float": catch(lambda: x.clone().addcdiv_(x, 2.0)),
        "int_addcdiv": catch(lambda: i.clone().addcdiv_(i, i)),
        "int_addcdiv_oop": catch(lambda: i.addcdiv(i, i)),
        "int_addcmul": i.clone().addcmul_(i, i, value=2),
        "x": x, "version": x._version,
    }


@prog
def where_with_scalar_branches(t):
    c = t.tensor([True, False, True])
    x = t.tensor([1.0, 2.0, 3.0])
    return {
        "floats": t.where(c, 1.0, 0.0), "ints": t.where(c, 1, 0), "mixed": t.where(c, x, 0.0),
        "left": t.where(c, 5, x), "bcast": t.where(t.tensor([[True], [False]]), x, -1.0),
        "float_cond": catch(lambda: t.where(t.tensor([1.0]), x, 0.0)),
    }


@prog
def bool_neg_abs_sub(t):
    b = t.tensor([True, False])
    return {
        "neg": catch(lambda: b.neg()), "neg_": catch(lambda: b.clone().neg_()),
        "abs": catch(lambda: b.abs()), "abs_": catch(lambda: b.clone().abs_()),
        "sub": catch(lambda: b - b), "sub_": catch(lambda: b.clone().sub_(True)),
        "negative_": catch(lambda: b.clone().negative_()),
    }


@prog
def fmod_remainder_save_only_for_other(t):
    """FmodBackward1/RemainderBackward1 save self and other only when other requires grad
    (only its gradient reads them): a second backward through them works otherwise."""
    out = {}
    for op in ("fmod", "remainder"):
        a = leaf(t, [1.5, -2.5, 3.0])
        y = getattr(a, op)(t.tensor([1.0, 0.75, -2.0]))
        out[op] = (y.grad_fn._saved_self, y.grad_fn._saved_other)
        y.sum().backward()
        out[op + "_twice"] = catch(lambda y=y: y.sum().backward())
        c = leaf(t, [1.0, 0.75, -2.0])
        z = getattr(a * 1, op + "_")(c)
        z.sum().backward()
        out[op + "_grads"] = (a.grad, c.grad, catch(lambda z=z: z.sum().backward()))
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_pointwise_binary_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
