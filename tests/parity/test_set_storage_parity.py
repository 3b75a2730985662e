"""set_: a tensor made to look into another tensor's storage, a storage at any offset and
geometry, or a new empty one; and the storage-level methods around it.

Compared: shapes, strides, offsets, storage sizes and sharing (data_ptr), ``_version`` of self
and source, the graph a tensor that needs one gets (torch's NotImplemented node) and the error
backward raises through it, refusals word for word and what they leave behind. A storage that
set_ grows has uninitialised cells at its end: no program reads them.
"""

import numpy as np
import pytest

from .harness import Registry, catch, check_parity, graph, meta, same_storage

pytestmark = pytest.mark.parity

prog = Registry()


def _state(x):
    return {"meta": meta(x), "version": x._version, "nbytes": x.untyped_storage().nbytes()}


def _shares(a, b):
    return {"same storage": same_storage(a, b), "ptr delta": a.data_ptr() - b.data_ptr()}


@prog
def set_to_a_tensor_shares_its_storage_not_its_counter(t):
    a, b = t.arange(6.0), t.zeros(2, 3)
    r = a.set_(b)
    res = {"returns self": r is a, "a": _state(a), "b version": b._version, **_shares(a, b)}
    a.add_(1)
    res["b sees the write"] = b.clone()
    res["versions"] = (a._version, b._version)
    c = t.arange(12.0)
    v = c[2:8].view(2, 3).t()
    e = t.zeros(1)
    e.set_(v)
    res["from a view"] = {**_state(e), "is view": e._is_view(), **_shares(e, v)}
    q = t.zeros(3)
    q.set_(q)
    res["itself"] = _state(q)
    return res


@prog
def set_with_nothing_gives_a_new_empty_storage(t):
    x = t.arange(6.0)
    old = x.untyped_storage()
    x.set_()
    return {"x": _state(x), "data_ptr": x.data_ptr(),
            "storage ptr": x.untyped_storage().data_ptr(), "old kept": old.nbytes()}


@prog
def set_to_a_storage_and_a_geometry(t):
    c = t.arange(12.0)
    s = c.untyped_storage()
    res = {}
    a = t.zeros(1)
    a.set_(s)
    res["whole"] = {**_state(a), **_shares(a, c)}
    b = t.zeros(1)
    b.set_(s, 2, (2, 2), (1, 2))
    res["strided"] = {**_state(b), "values": b.clone(), **_shares(b, c)}
    d = t.zeros(1)
    d.set_(s, 2, (2, 2))
    res["contiguous"] = {**_state(d), "values": d.clone()}
    e = t.zeros(1)
    e.set_(c, 1, (3,), (2,))
    res["a tensor's storage"] = {**_state(e), "values": e.clone()}
    for name, stride in (("None", None), ("[]", []), ("()", ())):
        f = t.zeros(1)
        f.set_(s, 1, (2, 3), stride)
        res[f"stride {name}"] = _state(f)
    g = t.zeros(1)
    g.set_(source=s, storage_offset=1, size=(2,), stride=(2,))
    res["keywords"] = _state(g)
    res["offset as tensor"] = t.zeros(1).set_(s, t.tensor(1), (2,)).storage_offset()
    res["offset as numpy"] = t.zeros(1).set_(c, np.int64(3), (2,)).storage_offset()
    return res


@prog
def set_reads_a_storage_in_its_own_dtype(t):
    c = t.arange(12.0)
    s = c.untyped_storage()
    i = t.zeros(1, dtype=t.int64)
    i.set_(s)
    d = t.zeros(1, dtype=t.float64)
    d.set_(t.zeros(3).untyped_storage())  # 12 bytes: one whole float64
    j = t.zeros(2, dtype=t.int32)
    j.set_(c, 0, (2,))  # the four-argument forms take any dtype's storage
    return {"int64": _state(i), "float64": _state(d), "int32": {**_state(j), "values": j},
            "refused": catch(lambda: t.zeros(1, dtype=t.int64).set_(c)),
            "refused the other way": catch(lambda: t.zeros(1, dtype=t.float64).set_(c)),
            "same storage, other dtype": t.zeros(2).view(t.int32).set_(c.view(t.int32)).shape}


@prog
def set_grows_a_storage_that_is_too_small(t):
    c = t.arange(6.0)
    s = c.untyped_storage()
    old = s.data_ptr()
    a = t.zeros(1)
    a.set_(s, 4, (4,))
    return {"nbytes": s.nbytes(), "moved": s.data_ptr() != old, "c": c.clone(),
            "versions": (c._version, a._version), "a": _state(a), "kept": a[:2].clone(),
            **_shares(a, c), "empty": _state(t.zeros(1).set_(c, 20, (0,)))}


@prog
def set_refusals(t):
    c = t.arange(6.0)
    s = c.untyped_storage()
    res = {}
    for name, call in (
            ("negative offset", lambda x: x.set_(s, -1, (2,))),
            ("unequal lengths", lambda x: x.set_(s, 0, (2,), (1, 1))),
            ("int", lambda x: x.set_(3)), ("storage and int", lambda x: x.set_(s, 0)),
            ("float offset", lambda x: x.set_(c, 0.5, (2,))),
            ("size int", lambda x: x.set_(c, 1, 2)),
            ("five", lambda x: x.set_(c, 0, (2,), (1,), 5)),
            ("keyword", lambda x: x.set_(sauce=c))):
        x = t.zeros(3)
        res[name] = {"raised": catch(lambda call=call, x=x: call(x)), **_state(x),
                     "storage kept": x.untyped_storage().nbytes() == 12}
    # torch has set the storage, offset and sizes when these are refused (a tensor its storage
    # can't hold, not read back here); the core refuses before setting anything
    for name, call in (
            ("negative size", lambda x: x.set_(c, 0, (-1,))),
            ("negative stride", lambda x: x.set_(c, 0, (2,), (-1,))),
            ("overflow", lambda x: x.set_(s, 0, (2**61,))),
            ("overflow strided", lambda x: x.set_(s, 0, (2, 2), (2**62, 1))),
            ("numpy", lambda x: x.set_(t.from_numpy(np.zeros(2, dtype=np.float32)), 0, (4,)))):
        res[name] = catch(lambda call=call: call(t.zeros(3)))
    res["numpy storage, fitting"] = t.zeros(1).set_(
        t.from_numpy(np.zeros(2, dtype=np.float32)).untyped_storage()).shape
    return res


@prog
def set_under_autograd(t):
    c = t.arange(12.0)
    res = {}
    w = t.zeros(2, requires_grad=True)
    for name, call in (("()", lambda x: x.set_()), ("tensor", lambda x: x.set_(c)),
                       ("storage", lambda x: x.set_(c.untyped_storage())),
                       ("storage 4", lambda x: x.set_(c.untyped_storage(), 0, (2,))),
                       ("tensor 4", lambda x: x.set_(c, 0, (2,))),
                       ("source requires grad", lambda x: x.set_(t.ones(3, requires_grad=True))),
                       ("source requires grad 4",
                        lambda x: x.set_(t.ones(3, requires_grad=True), 0, (2,)))):
        y = t.zeros(2, requires_grad=True) * 1
        call(y)
        z = t.zeros(2)
        call(z)
        res[name] = {"leaf": catch(lambda call=call: call(w)), "y": graph(y.grad_fn),
                     "y version": y._version, "y requires grad": y.requires_grad,
                     "z": graph(z.grad_fn), "z requires grad": z.requires_grad,
                     "backward": catch(lambda y=y: y.sum().backward())}
    res["leaf with the wrong dtype"] = catch(lambda: w.set_(t.zeros(2, dtype=t.int64)))
    res["view of a leaf"] = catch(lambda: w[:1].set_(c))
    with t.no_grad():
        res["leaf under no_grad"] = w.set_(c).shape
    res["w"] = {"version": w._version, "grad_fn": w.grad_fn, "requires grad": w.requires_grad}
    return res


@prog
def set_on_views_detached_and_inference_tensors(t):
    c = t.arange(12.0)
    x = t.zeros(2)
    res = {"detach": x.detach().set_(c).shape, "data": x.data.set_(c).shape,
           "detach ()": x.detach().set_().shape}
    v = x[:1]
    v.set_(c)
    res["view"] = {"v": _state(v), "is view": v._is_view(), "base": v._base is x,
                   "x": _state(x)}
    with t.inference_mode():
        i = t.zeros(2)
        res["inside"] = i.set_(c).shape
    with t.inference_mode():
        j = t.zeros(2)
        k = t.zeros(2)
    res["outside"] = catch(lambda: j.set_(c))
    res["outside, then"] = {"shape": j.shape, **_shares(j, c)}  # set, then refused
    res["outside, wrong dtype"] = catch(lambda: k.set_(t.zeros(2, dtype=t.int64)))
    return res


@prog
def share_memory_moves_the_storage_and_every_view_with_it(t):
    x = t.arange(6.0)
    y = x[2:]
    ptr, storage = x.data_ptr(), x.untyped_storage()
    res = {"before": (x.is_shared(), y.is_shared(), storage.is_shared())}
    r = x.share_memory_()
    res["after"] = {"returns self": r is x, "shared": (x.is_shared(), y.is_shared()),
                    "moved": x.data_ptr() != ptr, "x": _state(x), "values": x.clone(),
                    **_shares(y, x), "storage shared": x.untyped_storage().is_shared()}
    again = x.data_ptr()
    x.share_memory_()
    res["again"] = {"moved": x.data_ptr() != again, "version": x._version}
    w = t.zeros(2, requires_grad=True)
    res["requires grad"] = {"shared": w.share_memory_().is_shared(), "version": w._version}
    z = t.empty(0)
    res["empty"] = {"shared": z.share_memory_().is_shared(), "data_ptr": z.data_ptr()}
    a = np.zeros(3, dtype=np.float32)
    n = t.from_numpy(a)
    n.share_memory_()
    n.add_(1)
    res["numpy"] = {"shared": n.is_shared(), "numpy array untouched": a.tolist()}
    with t.inference_mode():
        i = t.zeros(2)
    res["inference"] = i.share_memory_().is_shared()
    v = t.zeros(4)[1:3]
    res["view"] = (v.share_memory_().is_shared(), v._base.is_shared())
    res["arguments"] = (catch(lambda: x.share_memory_(1)), catch(lambda: x.is_shared(1)))
    return res


@prog
def nb02_resize_and_set(t):
    """Notebook 02's cell on resize_ and set_, line for line."""
    s = t.arange(6.0)
    v = s[2:]
    store, ptr = s.untyped_storage(), s.data_ptr()
    s.resize_(2, 2)
    shrunk = (s.tolist(), store.nbytes(), s.data_ptr() != ptr, s._version)
    s.resize_(3, 3)
    grown = (store.nbytes(), s.untyped_storage() is store, s.data_ptr() != ptr, s._version)
    moved = (v.data_ptr() == s.data_ptr() + 2 * s.element_size(), v.tolist())
    u = t.zeros(2)
    u.set_(store, 1, (2, 2), (1, 3))
    return {"shrunk": shrunk, "grown": grown, "v": moved,
            "t": (u.tolist(), u.untyped_storage() is store, u._version, s._version)}


@pytest.mark.parametrize("prog", prog.params())
def test_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
