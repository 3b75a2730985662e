"""out= on the functions that are not element-wise (matrix products, joins, gathers, scans,
sort/topk/max pairs, reductions), side by side with torch 2.13: the result lands in out (same
object, version bumped, its strides kept when the shape is right), out's dtype rule as each
PyTorch kernel words it, the resize warning and a grown storage when out is too small, the
refusal of autograd and of an out that overlaps itself or an input."""


import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, ints, warned

pytestmark = pytest.mark.parity

prog = Registry()




def _into(t, call, out):
    """Call with out=out: returned object is out, out's pointer kept, version, values."""
    p = out.data_ptr()
    r, w = warned(lambda: call(out))
    if not isinstance(r, t.Tensor):
        return r
    return {"is out": r is out, "same ptr": out.data_ptr() == p, "version": out._version,
            "stride": out.stride(), "warnings": w, "out": out}


def _outs(t, call, shape, dtype=None):
    """The same call into: a right out, a transposed/strided one, a too small, a larger and
    an empty one, a float64 and an int64 one, an expanded one."""
    dtype = dtype or t.float32
    obs = {"right": _into(t, call, t.empty(*shape, dtype=dtype)),
           "small": _into(t, call, t.zeros(2, dtype=dtype)),
           "large": _into(t, call, t.zeros(200, dtype=dtype)),
           "empty": _into(t, call, t.empty(0, dtype=dtype)),
           "double": _into(t, call, t.empty(*shape, dtype=t.float64)),
           "long": _into(t, call, t.empty(*shape, dtype=t.int64))}
    if len(shape) == 2:
        obs["transposed"] = _into(t, call, t.empty(*shape[::-1], dtype=dtype).t())
    if shape and shape[0] > 1:  # (where PyTorch accepts it, its values are undefined)
        r = catch(lambda: call(t.zeros(1, dtype=dtype).expand(*shape)))
        obs["expanded"] = "accepted" if isinstance(r, t.Tensor) else r
    return obs


@prog
def out_matrix_products(t):
    x, m = t.tensor(ints(3, 4, seed=1)), t.tensor(ints(4, 2, seed=2))
    v = t.tensor(ints(4, seed=3))
    s = t.tensor(ints(3, 2, seed=4))
    g = t.ones(3, 4, requires_grad=True)
    return {
        "addmm": _outs(t, lambda o: t.addmm(s, x, m, beta=2, alpha=0.5, out=o), (3, 2)),
        "baddbmm": _outs(t, lambda o: t.baddbmm(s[None], x[None], m[None], out=o), (1, 3, 2)),
        "addbmm": _outs(t, lambda o: t.addbmm(s, x[None], m[None], alpha=-1, out=o), (3, 2)),
        "dot": _outs(t, lambda o: t.dot(v, v, out=o), ()),
        "mv": _outs(t, lambda o: t.mv(x, v, out=o), (3,)),
        "addmm grad": catch(lambda: t.addmm(s, g, m, out=t.empty(3, 2))),
        "mv grad": catch(lambda: t.mv(g, v, out=t.empty(3))),
        "addmm shapes first": catch(lambda: t.addmm(s, x, x, out=t.empty(0).double())),
        "addmm out a list": catch(lambda: t.addmm(s, x, m, out=[1.0])),
    }


@prog
def out_joins(t):
    a, b = t.tensor(ints(2, 3, seed=1)), t.tensor(ints(2, 3, seed=2))
    g = t.ones(2, 3, requires_grad=True)
    obs = {}
    for name, shape in (("cat", (4, 3)), ("concat", (4, 3)), ("concatenate", (4, 3)),
                        ("hstack", (2, 6)), ("vstack", (4, 3)), ("row_stack", (4, 3)),
                        ("stack", (2, 2, 3))):
        fn = getattr(t, name)
        obs[name] = _outs(t, lambda o, fn=fn: fn([a, b], out=o), shape)
        obs[name + " grad"] = catch(lambda fn=fn: fn([a, g], out=t.empty(0)))
    obs["cat dim 1"] = _into(t, lambda o: t.cat([a, b], 1, out=o), t.empty(0))
    obs["stack dim -1"] = _into(t, lambda o: t.stack([a, b], dim=-1, out=o), t.empty(0))
    obs["cat long inputs into float"] = _into(t, lambda o: t.cat([a.long(), b.long()], out=o),
                                              t.empty(4, 3))
    obs["cat dim before cast"] = catch(lambda: t.cat([a, b], dim=5, out=t.empty(0).long()))
    obs["cat cast before shapes"] = catch(lambda: t.cat([a, b[:, :2]], out=t.empty(0).long()))
    obs["cat shapes"] = catch(lambda: t.cat([a, b[:, :2]], out=t.empty(0)))
    c = t.ones(4)
    obs["cat out is an input"] = catch(lambda: t.cat([c[:2], c[2:]], out=c))
    obs["stack out is an input"] = catch(lambda: t.stack([c[:2], c[2:]], out=c))
    obs["c version"] = c._version
    return obs


@prog
def out_gathers_and_scatters(t):
    x = t.tensor(ints(3, 4, seed=1))
    i = t.tensor([[0, 1, 2, 0]])
    idx = t.tensor([0, 2])
    g = t.ones(3, 4, requires_grad=True)
    obs = {
        "gather": _outs(t, lambda o: t.gather(x, 0, i, out=o), (1, 4)),
        "index_select": _outs(t, lambda o: t.index_select(x, 0, idx, out=o), (2, 4)),
        "scatter": _outs(t, lambda o: t.scatter(x, 0, i, 1.5, out=o), (3, 4)),
        "scatter_add": _outs(t, lambda o: t.scatter_add(x, 0, i, x[:1], out=o), (3, 4)),
        "index_add": _outs(t, lambda o: t.index_add(x, 0, idx, x[:2], out=o), (3, 4)),
        "index_copy": _outs(t, lambda o: t.index_copy(x, 0, idx, x[1:], out=o), (3, 4)),
        "gather grad": catch(lambda: t.gather(g, 0, i, out=t.empty(0))),
        "index_select grad": catch(lambda: t.index_select(g, 0, idx, out=t.empty(0))),
        "index_select dtype first": catch(lambda: t.index_select(x, 0, t.tensor([7]),
                                                                 out=t.empty(0).double())),
        "index_select out is self": catch(lambda: t.index_select(x, 0, t.tensor([1, 0, 2]),
                                                                 out=x)),
    }
    obs["x version"] = x._version
    return obs


@prog
def out_scans(t):
    x = t.tensor([[0.5, 0.5, 0.7, 1.6], [1.5, -0.5, 2.0, 0.25]])
    g = t.ones(2, 4, requires_grad=True)
    return {
        "cumsum": _outs(t, lambda o: t.cumsum(x, 1, out=o), (2, 4)),
        "cumprod": _outs(t, lambda o: t.cumprod(x * 3, 0, out=o), (2, 4)),
        "cumsum half out": _into(t, lambda o: t.cumsum(x, 1, out=o), t.empty(2, 4).half()),
        "cumsum bool out": catch(lambda: t.cumsum(x, 1, out=t.empty(2, 4, dtype=t.bool))),
        "cumsum dtype= and out": catch(lambda: t.cumsum(x, 1, dtype=t.float64,
                                                        out=t.empty(2, 4))),
        "cumsum dtype= matching out": _into(t, lambda o: t.cumsum(x, 1, dtype=t.float64, out=o),
                                            t.empty(2, 4).double()),
        "cumsum long into float": _into(t, lambda o: t.cumsum(t.tensor([1, 2, 3]), 0, out=o),
                                        t.empty(3)),
        "cumsum out is self": _into(t, lambda o: t.cumsum(o, 1, out=o), x.clone()),
        "cumsum grad": catch(lambda: t.cumsum(g, 1, out=t.empty(0))),
        "cumsum dim": catch(lambda: t.cumsum(x, 5, out=t.empty(0))),
    }


@prog
def out_sort_topk_max_pairs(t):
    x = t.tensor(arr(3, 5, seed=1))
    g = t.ones(3, 5, requires_grad=True)
    L = t.int64

    def pair(call, v, i):
        pv, pi = v.data_ptr(), i.data_ptr()
        r, w = warned(lambda: call((v, i)))
        if isinstance(r, tuple):
            return {"values is v": r.values is v, "indices is i": r.indices is i,
                    "ptrs": (v.data_ptr() == pv, i.data_ptr() == pi),
                    "versions": (v._version, i._version), "warnings": w, "r": tuple(r)}
        return r
    obs = {}
    for name, call in (("sort", lambda o: t.sort(x, 1, descending=True, out=o)),
                       ("topk", lambda o: t.topk(x, 2, out=o)),
                       ("max", lambda o: t.max(x, 0, out=o))):
        obs[name] = {
            "empty": pair(call, t.empty(0), t.empty(0, dtype=L)),
            "list": pair(lambda o, call=call: call(list(o)), t.empty(0), t.empty(0, dtype=L)),
            "large": pair(call, t.zeros(100), t.zeros(100, dtype=L)),
            "values double": pair(call, t.empty(0).double(), t.empty(0, dtype=L)),
            "indices float": pair(call, t.empty(0), t.empty(0)),
            "three": catch(lambda call=call: call((t.empty(0), t.empty(0, dtype=L),
                                                   t.empty(0)))),
            "grad": catch(lambda name=name: getattr(t, name)(g, 1, out=(t.empty(0),
                                                                       t.empty(0, dtype=L)))),
        }
    obs["max all"] = _outs(t, lambda o: t.max(x, out=o), ())
    obs["argmax"] = _into(t, lambda o: t.argmax(x, 1, out=o), t.empty(0, dtype=L))
    obs["argmax float out"] = catch(lambda: t.argmax(x, 1, out=t.empty(0)))
    obs["argmax int out"] = catch(lambda: t.argmax(x, 1, out=t.empty(0, dtype=t.int32)))
    obs["argmax of a tensor that requires grad"] = _into(
        t, lambda o: t.argmax(g, 0, out=o), t.empty(0, dtype=L))
    return obs


@prog
def out_reductions(t):
    x = t.tensor([[0.5, 0.5, 0.7, 1.6], [1.5, -0.5, 2.0, 0.25], [3.0, 1.0, -2.0, 0.5]])
    g = t.ones(3, 4, requires_grad=True)
    return {
        "sum": _outs(t, lambda o: t.sum(x, 0, out=o), (4,)),
        "sum keepdim": _into(t, lambda o: t.sum(x, 1, keepdim=True, out=o), t.empty(0)),
        "sum int8 wraps": _into(t, lambda o: t.sum(t.tensor([100, 100]), 0, out=o),
                                t.empty((), dtype=t.int8)),
        "sum dtype= and out": catch(lambda: t.sum(x, 0, dtype=t.float64, out=t.empty(0))),
        "mean": _outs(t, lambda o: t.mean(x, 1, out=o), (3,)),
        "mean of long": catch(lambda: t.mean(x.long(), 0, out=t.empty(0))),
        "var": _outs(t, lambda o: t.var(x, 0, out=o), (4,)),
        "std": _outs(t, lambda o: t.std(x, 1, out=o), (3,)),
        "amax": _outs(t, lambda o: t.amax(x, 0, out=o), (4,)),
        "norm": _outs(t, lambda o: t.norm(x, 2, 0, out=o), (4,)),
        "norm 1": _into(t, lambda o: t.norm(x, 1, 1, out=o), t.empty(0)),
        "softmax": _outs(t, lambda o: t.softmax(x, 0, out=o), (3, 4)),
        "log_softmax": _outs(t, lambda o: t.log_softmax(x, 1, out=o), (3, 4)),
        "softmax dtype=": _into(t, lambda o: t.softmax(x, 0, t.float64, out=o),
                                t.empty(0).double()),
        "log_softmax dtype= float out": catch(lambda: t.log_softmax(x, 0, t.float64,
                                                                    out=t.empty(0))),
        "log_softmax out requires grad": catch(lambda: t.log_softmax(
            x, 0, out=t.empty(0, requires_grad=True))),
        "grads": [catch(lambda f=f: f(g)) for f in (
            lambda g: t.sum(g, 0, out=t.empty(0)), lambda g: t.mean(g, 0, out=t.empty(0)),
            lambda g: t.var(g, 0, out=t.empty(0)), lambda g: t.amax(g, 0, out=t.empty(0)),
            lambda g: t.norm(g, 2, 0, out=t.empty(0)), lambda g: t.max(g, out=t.empty(0)),
            lambda g: t.softmax(g.detach(), 0, out=t.empty(0, requires_grad=True)))],
    }


@prog
def out_triangles_and_renorm(t):
    x = t.tensor(ints(3, 4, seed=1))
    return {
        "tril": _outs(t, lambda o: t.tril(x, out=o), (3, 4)),
        "triu": _into(t, lambda o: t.triu(x, 1, out=o), t.zeros(4, 3).t()),
        "renorm": _outs(t, lambda o: t.renorm(x, 2, 0, 1.0, out=o), (3, 4)),
        "tril grad": catch(lambda: t.tril(t.ones(2, 2, requires_grad=True), out=t.empty(0))),
    }


@prog
def out_where(t):
    x = t.tensor(arr(2, 3, seed=1))
    c = x > 0
    g = t.ones(2, 3, requires_grad=True)
    obs = {
        "where": _outs(t, lambda o: t.where(c, x, -x, out=o), (2, 3)),
        "double branch into double": _into(t, lambda o: t.where(c, x.double(), x, out=o),
                                           t.empty(0).double()),
        "number branch": catch(lambda: t.where(c, x, 0.0, out=t.empty(0))),
        "number input": catch(lambda: t.where(c, 1.0, x, out=t.empty(0))),
        "grad": catch(lambda: t.where(c, x, g, out=t.empty(0))),
        "out is an input": _into(t, lambda o: t.where(c, o, -o, out=o), x.clone()),
        "out is part of an input": catch(lambda: t.where(c[0], x[0], x[0], out=x[0, :2])),
        "without out": t.where(c, x, 0.0),
    }
    return obs


@prog
def out_too_small_grows_its_storage_others_keep(t):
    """A wrongly shaped out keeps its storage if it is large enough, else that storage grows
    (its data_ptr moves; test_out_resize_parity.py looks closer): the resize PyTorch
    deprecates, with its warning."""
    x = t.tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    obs = {}
    for size in (0, 5, 12, 20):
        o = t.zeros(size)
        p = o.data_ptr()
        _, w = warned(lambda o=o: t.cumsum(x, 0, out=o))
        obs[size] = (o.shape, o.stride(), o.data_ptr() == p, len(w), o)
    base = t.zeros(20)
    view = base[10:]
    p = view.data_ptr()
    _, w = warned(lambda: t.cat([x, x], out=view))
    obs["view of a larger storage"] = (view.shape, view.storage_offset(), view.data_ptr() == p,
                                       len(w))
    return obs


@pytest.mark.parametrize("program", prog.params())
def test_out_functions_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 8
