"""addmv(_), addr(_) with their out= forms, side by side with torch 2.13: values, dtypes and
broadcasting, argument errors word for word (checked before any write: versions unchanged),
grad_fn names, ``_saved_*`` names and values, gradients, and out='s dtype/resize rules."""


import numpy as np
import pytest

from .harness import (
    Registry,
    arr,
    catch,
    check_parity,
    fn_name,
    ints,
    saved_fields,
    upstream,
    warned,
)

pytestmark = pytest.mark.parity

prog = Registry()






# ======================================================================================
# addmv


@prog
def addmv_values_beta_alpha_and_self_shapes(t):
    m, v = t.tensor(ints(3, 4, seed=1)), t.tensor(ints(4, seed=2))
    obs = {}
    for label, s in (("vector", t.tensor(ints(3, seed=3))), ("one", t.tensor(ints(1, seed=4))),
                     ("scalar", t.tensor(2.0))):
        obs[label] = [t.addmv(s, m, v), s.addmv(m, v, beta=0.5, alpha=2),
                      t.addmv(s, m, v, beta=0, alpha=-1), t.addmv(s, m, v, beta=t.tensor(3.0))]
    nan = t.full((3,), float("nan"))
    obs["beta 0 ignores NaN"] = t.addmv(nan, m, v, beta=0)
    obs["float64"] = t.addmv(t.tensor(arr(3, seed=5, dtype=np.float64)),
                             t.tensor(arr(3, 4, seed=6, dtype=np.float64)),
                             t.tensor(arr(4, seed=7, dtype=np.float64)), beta=0.25, alpha=1.5)
    obs["transposed mat"] = t.addmv(t.zeros(4), m.t(), t.tensor(ints(3, seed=8)))
    return obs


@prog
def addmv_integer_and_half_dtypes(t):
    one = t.ones(3, dtype=t.int64)
    m, v = t.ones(3, 4, dtype=t.int64), t.tensor([1, 2, 3, 4])
    i8 = t.tensor([100, 1, 2], dtype=t.int8)
    half = t.tensor(ints(3, seed=1)).half()
    return {
        "long": t.addmv(one, m, v, beta=2, alpha=3),
        "long float beta truncates": t.addmv(one, m, v, beta=2.7),
        "long float alpha truncates": one.clone().addmv_(m, v, alpha=2.7),
        "long bool alpha": t.addmv(one, m, v, alpha=True),
        "int8 wraps": t.addmv(i8, t.ones(3, 4, dtype=t.int8), t.tensor([10, 10, 10, 10],
                                                                       dtype=t.int8)),
        "half": t.addmv(half, t.tensor(ints(3, 2, seed=2)).half(), t.tensor(ints(2, seed=3)).half(),
                        beta=2, alpha=0.5),
        "bool": catch(lambda: t.addmv(t.ones(3, dtype=t.bool), t.ones(3, 4, dtype=t.bool),
                                      t.ones(4, dtype=t.bool))),
    }


@prog
def addmv_with_an_empty_matrix(t):
    """No product to compute: PyTorch writes beta * self, so the result takes self's shape."""
    return {
        "zero columns": t.addmv(t.ones(3), t.ones(3, 0), t.ones(0), beta=2.5),
        "zero columns long": t.addmv(t.ones(3, dtype=t.int64), t.ones(3, 0, dtype=t.int64),
                                     t.ones(0, dtype=t.int64), beta=2.7),
        "zero columns beta 0": t.addmv(t.full((3,), float("nan")), t.ones(3, 0), t.ones(0),
                                       beta=0),
        "zero rows": t.addmv(t.ones(1), t.ones(0, 3), t.ones(3), beta=2.5),
        "zero rows scalar self": t.addmv(t.tensor(1.0), t.ones(0, 3), t.ones(3), beta=2.5),
        "in place zero columns": t.ones(3).addmv_(t.ones(3, 0), t.ones(0), beta=-2),
    }


@prog
def addmv_argument_errors_in_order(t):
    f = lambda *s: t.ones(*s)  # noqa: E731
    x = t.tensor([1.0, 2.0, 3.0])
    obs = {
        "size mismatch": catch(lambda: t.addmv(f(3), f(3, 4), f(5))),
        "size mismatch before dtype": catch(lambda: t.addmv(f(3), f(3, 4).double(), f(5))),
        "self size": catch(lambda: t.addmv(f(2), f(3, 4), f(4))),
        "self 2-D": catch(lambda: t.addmv(f(3, 1), f(3, 4), f(4))),
        "mat 3-D": catch(lambda: t.addmv(f(3), f(3, 4, 1), f(4))),
        "vec 2-D": catch(lambda: t.addmv(f(3), f(3, 4), f(4, 1))),
        "mat double": catch(lambda: t.addmv(f(3), f(3, 4).double(), f(4))),
        "vec double": catch(lambda: t.addmv(f(3), f(3, 4), f(4).double())),
        "self double": catch(lambda: t.addmv(f(3).double(), f(3, 4), f(4))),
        "vec a list": catch(lambda: t.addmv(f(3), f(3, 4), [1.0])),
        "method vec a list": catch(lambda: x.addmv_(f(3, 4), [1.0])),
        "method mat None": catch(lambda: x.addmv(None, f(4))),
        "beta a str": catch(lambda: t.addmv(f(3), f(3, 4), f(4), beta="a")),
        "alpha None": catch(lambda: x.addmv_(f(3, 4), f(4), alpha=None)),
        "alpha a 1-D tensor": catch(lambda: x.addmv_(f(3, 4), f(4), alpha=t.tensor([2.0]))),
        "in place size [1]": catch(lambda: x[:1].addmv_(f(3, 4), f(4))),
        "in place scalar": catch(lambda: t.tensor(1.0).addmv_(f(3, 4), f(4))),
        "in place dtype before size": catch(lambda: x[:1].addmv_(f(3, 4).double(), f(4))),
        "input not a tensor": catch(lambda: t.addmv([1.0], f(3, 4), f(4))),
    }
    obs["x untouched"], obs["x version"] = x, x._version
    return obs


@prog
def addmv_inplace_identity_version_and_graph(t):
    s = t.tensor(ints(3, seed=1), requires_grad=True)
    m, v = t.tensor(ints(3, 4, seed=2), requires_grad=True), t.tensor(ints(4, seed=3))
    y = s * 1
    p = y.data_ptr()
    r = y.addmv_(m, v, beta=0.5, alpha=2)
    fn = y.grad_fn
    obs = {"same object": r is y, "same ptr": y.data_ptr() == p, "version": y._version,
           "grad_fn": fn_name(fn), "saved": saved_fields(fn, ("_saved_alpha", "_saved_beta",
                                                         "_saved_mat", "_saved_vec")),
           "leaf": catch(lambda: s.addmv_(m, v))}
    y.backward(upstream(t, y))
    obs["grads"] = (s.grad, m.grad)
    return obs


@prog
def addmv_saves_the_other_operand_as_pytorch_does(t):
    obs = {}
    for who in ("self", "mat", "vec"):
        s, m, v = (t.tensor(ints(*shape, seed=i), requires_grad=(who == name))
                   for i, (name, shape) in enumerate((("self", (3,)), ("mat", (3, 4)),
                                                      ("vec", (4,)))))
        y = t.addmv(s, m, v, beta=3, alpha=0.5)
        obs[who] = (fn_name(y.grad_fn), saved_fields(y.grad_fn, ("_saved_mat", "_saved_vec",
                                                           "_saved_alpha", "_saved_beta")))
        y.backward(upstream(t, y))
        obs[who + " grad"] = {"self": s, "mat": m, "vec": v}[who].grad
    return obs


@prog
def addmv_saved_vec_modified_before_backward(t):
    m = t.tensor(ints(3, 4, seed=1), requires_grad=True)
    v = t.tensor(ints(4, seed=2))
    y = t.addmv(t.zeros(3), m, v)
    v.add_(1)
    return {"error": catch(lambda: y.sum().backward())}


@prog
def addmv_broadcast_self_gradient(t):
    s = t.tensor([2.0], requires_grad=True)
    s0 = t.tensor(3.0, requires_grad=True)
    m, v = t.tensor(ints(3, 4, seed=1)), t.tensor(ints(4, seed=2), requires_grad=True)
    y = t.addmv(s, m, v, beta=-2) + t.addmv(s0, m, v)
    y.backward(upstream(t, y))
    return {"s": s.grad, "s0": s0.grad, "v": v.grad}


# ======================================================================================
# addr


@prog
def addr_values_broadcasting_and_layout(t):
    u, v = t.tensor(ints(3, seed=1)), t.tensor(ints(4, seed=2))
    obs = {}
    for label, s in (("matrix", t.tensor(ints(3, 4, seed=3))), ("row", t.tensor(ints(4, seed=4))),
                     ("column", t.tensor(ints(3, 1, seed=5))), ("scalar", t.tensor(2.0)),
                     ("transposed", t.tensor(ints(4, 3, seed=6)).t())):
        r = t.addr(s, u, v, beta=0.5, alpha=-2)
        obs[label] = (r, r.stride(), s.addr(u, v).stride())
    obs["beta 0 ignores NaN"] = t.addr(t.full((3, 4), float("nan")), u, v, beta=0)
    obs["method"] = t.tensor(ints(3, 4, seed=7)).addr(u, v, alpha=3)
    return obs


@prog
def addr_dtype_promotion_and_integer_rules(t):
    fm = t.tensor(ints(3, 4, seed=1))
    fu, fv = t.tensor(ints(3, seed=2)), t.tensor(ints(4, seed=3))
    lu, lv = t.tensor([1, 2, 3]), t.tensor([1, 2, 3, 4])
    bm = t.ones(3, 4, dtype=t.bool)
    bu, bv = t.tensor([True, False, True]), t.tensor([False, True, True, False])
    i8u, i8v = t.tensor([100, 2, 3], dtype=t.int8), t.tensor([1, 2, 3, 4], dtype=t.int8)
    return {
        "float self, double vec": t.addr(fm, fu.double(), fv),
        "float self, long vec": t.addr(fm, fu, lv),
        "long": t.addr(t.ones(3, 4, dtype=t.int64), lu, lv, alpha=2, beta=3),
        "int8 wraps": t.addr(t.ones(3, 4, dtype=t.int8), i8u, i8v, alpha=2, beta=3),
        "uint8 and int8 promote to int16": t.addr(t.ones(3, 4, dtype=t.uint8), i8u, i8v),
        "bool": t.addr(bm, bu, bv),
        "bool beta 0": t.addr(bm, bu, bv, beta=0),
        "bool beta 2": t.addr(bm, bu, bv, beta=2),
        "bool alpha False": t.addr(bm, bu, bv, alpha=False),
        "bool alpha 0.5": catch(lambda: t.addr(bm, bu, bv, alpha=0.5)),
        "long beta float": catch(lambda: t.addr(t.ones(3, 4, dtype=t.int64), lu, lv, beta=2.5)),
        "long alpha float": catch(lambda: t.addr(t.ones(3, 4, dtype=t.int64), lu, lv,
                                                 alpha=2.5)),
        "long alpha True": catch(lambda: t.addr(t.ones(3, 4, dtype=t.int64), lu, lv,
                                                alpha=True)),
        "float beta True": catch(lambda: t.addr(fm, fu, fv, beta=True)),
        "half": t.addr(fm.half(), fu.half(), fv.half(), beta=0.1, alpha=0.3),
    }


@prog
def addr_argument_errors_in_order(t):
    f = lambda *s: t.ones(*s)  # noqa: E731
    x = t.tensor(ints(3, 4, seed=1))
    obs = {
        "vec1 2-D": catch(lambda: t.addr(f(3, 4), f(3, 1), f(4, 1))),
        "vec2 2-D": catch(lambda: t.addr(f(3, 4), f(3), f(4, 1))),
        "self doesn't expand": catch(lambda: t.addr(f(3, 5), f(3), f(4))),
        "self 3-D": catch(lambda: t.addr(f(2, 3, 4), f(3), f(4))),
        "in place size": catch(lambda: x[:, :2].addr_(f(3), f(4))),
        "in place 1-D": catch(lambda: f(4).addr_(f(3), f(4))),
        "in place 3-D": catch(lambda: f(2, 3, 4).addr_(f(3), f(4))),
        "in place float into long": catch(lambda: t.ones(3, 4, dtype=t.int64).addr_(f(3), f(4))),
        "in place long into bool": catch(lambda: t.ones(3, 4, dtype=t.bool).addr_(
            t.tensor([1, 2, 3]), t.tensor([1, 2, 3, 4]))),
        "vec2 a list": catch(lambda: t.addr(f(3, 4), f(3), [1.0])),
        "method vec1 a number": catch(lambda: x.addr_(1.0, f(4))),
        "alpha a str": catch(lambda: x.addr_(f(3), f(4), alpha="2")),
        "in place alias of self": catch(lambda: x.addr_(x[0, :3], f(4))),
        "in place expanded self": catch(lambda: t.ones(1).expand(3, 4).addr_(f(3), f(4))),
    }
    obs["x untouched"], obs["x version"] = x, x._version
    return obs


@prog
def addr_inplace_identity_dtype_and_graph(t):
    s = t.tensor(ints(3, 4, seed=1), requires_grad=True)
    u, v = t.tensor(ints(3, seed=2)), t.tensor(ints(4, seed=3), requires_grad=True)
    y = s * 1
    p = y.data_ptr()
    r = y.addr_(u, v, alpha=2)
    fn = y.grad_fn
    obs = {"same object": r is y, "same ptr": y.data_ptr() == p, "version": y._version,
           "grad_fn": fn_name(fn), "saved": saved_fields(fn, ("_saved_alpha", "_saved_beta",
                                                         "_saved_vec1", "_saved_vec2"))}
    y.backward(upstream(t, y))
    obs["grads"] = (s.grad, v.grad)
    h = t.tensor(ints(3, 4, seed=4)).half()
    h.addr_(u, t.tensor(ints(4, seed=5)), beta=0.5)  # float vectors into a half self
    obs["half self"] = (h, h._version)
    u8 = t.ones(3, 4, dtype=t.uint8)
    u8.addr_(t.tensor([100, 2, 3], dtype=t.int8), t.tensor([1, 2, 3, 4], dtype=t.int8))
    obs["uint8 self, int8 vectors"] = u8
    return obs


@prog
def addr_saves_the_other_vector_as_pytorch_does(t):
    obs = {}
    for who in ("self", "vec1", "vec2"):
        s, u, v = (t.tensor(ints(*shape, seed=i), requires_grad=(who == name))
                   for i, (name, shape) in enumerate((("self", (4,)), ("vec1", (3,)),
                                                      ("vec2", (4,)))))
        y = t.addr(s, u, v, beta=-1, alpha=0.5)
        obs[who] = (fn_name(y.grad_fn), saved_fields(y.grad_fn, ("_saved_vec1", "_saved_vec2",
                                                           "_saved_alpha", "_saved_beta")))
        y.backward(upstream(t, y))
        obs[who + " grad"] = {"self": s, "vec1": u, "vec2": v}[who].grad
    return obs


# ======================================================================================
# out=


@prog
def addmv_out_rules(t):
    f = lambda *s: t.tensor(ints(*s, seed=len(s)))  # noqa: E731
    obs = {}
    o = t.empty(3)
    p = o.data_ptr()
    r = t.addmv(f(3), f(3, 4), f(4), beta=2, out=o)
    obs["into out"] = (r is o, o.data_ptr() == p, o._version, o)
    for label, out in (("larger", t.zeros(5)), ("smaller", t.zeros(2)), ("empty", t.empty(0)),
                       ("2-D", t.zeros(2, 2))):
        p = out.data_ptr()
        r, w = warned(lambda out=out: t.addmv(f(3), f(3, 4), f(4), out=out))
        obs[label] = (out.shape, out.stride(), out.data_ptr() == p, w, out)
    s = t.zeros(6)[::2]
    t.addmv(f(3), f(3, 4), f(4), out=s)
    obs["strided out keeps its strides"] = (s.stride(), s)
    obs["double out"] = catch(lambda: t.addmv(f(3), f(3, 4), f(4), out=t.empty(3).double()))
    obs["long out"] = catch(lambda: t.addmv(f(3), f(3, 4), f(4), out=t.empty(3).long()))
    obs["requires grad"] = catch(lambda: t.addmv(t.ones(3, requires_grad=True), f(3, 4), f(5),
                                                 out=t.empty(3)))
    obs["size before out"] = catch(lambda: t.addmv(f(3), f(3, 4), f(5), out=t.empty(3).long()))
    obs["beta first"] = catch(lambda: t.addmv(t.ones(3, requires_grad=True), f(3, 4), f(4),
                                              beta="a", out=t.empty(3)))
    obs["expanded out"] = catch(lambda: t.addmv(f(3), f(3, 4), f(4), out=t.zeros(1).expand(3)))
    obs["out a list"] = catch(lambda: t.addmv(f(3), f(3, 4), f(4), out=[0.0]))
    return obs


@prog
def addr_out_rules(t):
    f = lambda *s: t.tensor(ints(*s, seed=len(s) + s[0]))  # noqa: E731
    obs = {}
    o = t.empty(3, 4)
    p = o.data_ptr()
    r = t.addr(f(3, 4), f(3), f(4), alpha=2, out=o)
    obs["into out"] = (r is o, o.data_ptr() == p, o._version, o)
    for label, out in (("smaller", t.zeros(5)), ("larger", t.zeros(20)), ("empty", t.empty(0)),
                       ("transposed", t.zeros(4, 3).t())):
        p = out.data_ptr()
        r, w = warned(lambda out=out: t.addr(f(3, 4), f(3), f(4), out=out))
        obs[label] = (out.shape, out.stride(), out.data_ptr() == p, w, out)
    obs["double out"] = t.addr(f(3, 4), f(3), f(4), out=t.empty(3, 4).double())
    obs["half out"] = t.addr(f(3, 4), f(3), f(4), out=t.empty(3, 4).half())
    obs["long out"] = catch(lambda: t.addr(f(3, 4), f(3), f(4), out=t.empty(3, 4).long()))
    obs["requires grad"] = catch(lambda: t.addr(f(3, 4), f(3), t.ones(5, requires_grad=True),
                                                out=t.empty(3, 4)))
    obs["out requires grad"] = catch(lambda: t.addr(f(3, 4), f(3), f(4),
                                                    out=t.ones(3, 4, requires_grad=True)))
    obs["expanded out"] = catch(lambda: t.addr(f(3, 4), f(3), f(4),
                                               out=t.zeros(1).expand(3, 4)))
    x = t.zeros(3, 4)
    obs["out is self"] = (t.addr(x, f(3), f(4), out=x) is x, x)
    y = t.zeros(3, 4)
    obs["out overlaps vec1"] = catch(lambda: t.addr(y, y[0, :3], f(4), out=y))
    obs["bool alpha"] = catch(lambda: t.addr(f(3, 4), f(3), f(4), alpha=True,
                                             out=t.empty(3, 4)))
    return obs


@pytest.mark.parametrize("program", prog.params())
def test_blas_out_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 15
