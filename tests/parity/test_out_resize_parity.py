"""A too-small ``out=`` grows its OWN storage, side by side with torch 2.13.

PyTorch's resize_output calls ``out.resize_(shape)``, and a storage too small for the new
shape is grown in place (``resize_bytes_cpu``): the same storage object gets a larger buffer,
the old bytes copied to its front. So every other tensor on that storage (a view, a
``detach()``, ``.data``, the base of a sliced out) reads the new buffer: the storage objects
stay identical, every data_ptr moves, and the offsets between them stay. The programs below
observe that for every family of out= forms, with the other tensors' NumPy windows already
opened (the core caches one per tensor) and only cells that hold defined bytes (PyTorch leaves
the rest of a grown buffer uninitialised).
"""

import numpy as np
import pytest

from .harness import Registry, catch, check_parity, warned

pytestmark = pytest.mark.parity

prog = Registry()


# index_reduce's "is in beta" warning is TORCH_WARN_ONCE on both sides: whether it shows here
# depends on what ran before in the process, so it is left out (test_index_reduce_parity checks
# it in fresh processes).
ONCE_A_PROCESS = "is in beta and the API may change at any time."


def _grow(t, call, out, *others):
    """Call ``call(out)`` with ``others`` on out's storage (each read once before): out's
    storage afterwards (same object? bytes? pointer moved?), the others' storage identity,
    pointer offsets from out and values, the versions, the warnings."""
    s = out.untyped_storage()
    ptr = s.data_ptr()
    before = [o.clone() for o in others]  # (reads each one: the core opens its window)
    r, w = warned(lambda: call(out))
    obs = {"returned": r if not isinstance(r, t.Tensor) else r is out,
           "same storage object": out.untyped_storage() is s, "nbytes": s.nbytes(),
           "moved": s.data_ptr() != ptr, "out at storage start":
           out.data_ptr() - s.data_ptr() == out.storage_offset() * out.element_size(),
           "out": out, "out version": out._version,
           "warnings": [m for m in w if not m.endswith(ONCE_A_PROCESS)]}
    for k, (o, b) in enumerate(zip(others, before)):
        obs[k] = {"storage is out's": o.untyped_storage() is s,
                  "offset from out": o.data_ptr() - out.data_ptr() if o.numel()
                  else ("no elements: data_ptr", o.data_ptr()),
                  "values": o, "changed": not np.array_equal(o.numpy(), b.numpy()),
                  "version": o._version}
    return obs


@prog
def out_grows_in_place_other_views_see_the_new_buffer(t):
    x = t.zeros(2)
    v, w = x[1:], x.view(2)
    d, data = x.detach(), x.data
    return _grow(t, lambda o: t.add(t.ones(3), 1, out=o), x, v, w, d, data)


@prog
def out_grows_from_an_offset_the_base_sees_it(t):
    """out = b[3:] needs 3 cells from offset 3: b's storage grows to 6 floats; b (4 cells)
    reads its old cells and the first result cell."""
    b = t.tensor(np.arange(4, dtype=np.float32))
    o = b[3:]
    obs = _grow(t, lambda o: t.mul(t.tensor([2.0, 3.0, 4.0]), 5, out=o), o, b, b[:2])
    obs["o offset"] = o.storage_offset()
    return obs


@prog
def out_empty_grows_its_zero_byte_storage(t):
    """The recommended reuse (an out with no elements): no warning, the same storage object
    grows from 0 bytes, a view of it (also empty) sees the new pointer."""
    e = t.empty(0)
    v = e[:]
    obs = _grow(t, lambda o: t.sub(t.ones(2, 3), 2, out=o), e, v)
    obs["v shape"] = tuple(v.shape)
    return obs


@prog
def out_large_enough_storage_keeps_its_buffer(t):
    """Storage big enough for the new shape (a strided view of a larger base): no growth,
    same pointer; the base sees the result in its first cells."""
    b = t.zeros(8)
    o = b[::2]
    return _grow(t, lambda o: t.add(t.ones(3), 2, out=o), o, b)


def _families(t):
    """One out= call of each family (element-wise, matrix, structured, TensorIterator, join,
    gather/index, scan, reduction, arg-reduction, softmax, where, take), each needing more
    than the 2 cells of the out it gets."""
    x = t.tensor(np.arange(12, dtype=np.float32).reshape(3, 4) - 5)
    v = t.tensor([1.0, -2.0, 3.0, 0.5])
    idx = t.tensor([[0, 2], [1, 3], [3, 0]])
    c = x > 0
    return {
        "sin": (lambda o: t.sin(x, out=o), t.float32),
        "clamp": (lambda o: t.clamp(x, -1, 2, out=o), t.float32),
        "matmul": (lambda o: t.matmul(x, v, out=o), t.float32),
        "mm": (lambda o: t.mm(x, x.t(), out=o), t.float32),
        "addmv": (lambda o: t.addmv(t.ones(3), x, v, out=o), t.float32),
        "addr": (lambda o: t.addr(x, t.ones(3), v, out=o), t.float32),
        "addmm": (lambda o: t.addmm(t.ones(3, 3), x, x.t(), out=o), t.float32),
        "cat": (lambda o: t.cat([x, x], out=o), t.float32),
        "stack": (lambda o: t.stack([v, v], out=o), t.float32),
        "gather": (lambda o: t.gather(x, 1, idx, out=o), t.float32),
        "index_select": (lambda o: t.index_select(x, 1, t.tensor([3, 1, 0]), out=o),
                         t.float32),
        "cumsum": (lambda o: t.cumsum(x, 1, out=o), t.float32),
        "cumprod": (lambda o: t.cumprod(v, 0, out=o), t.float32),
        "tril": (lambda o: t.tril(x, out=o), t.float32),
        "sum": (lambda o: t.sum(x, 1, out=o), t.float32),
        "mean": (lambda o: t.mean(x, 0, out=o), t.float32),
        "amax": (lambda o: t.amax(x, 1, out=o), t.float32),
        "argmax": (lambda o: t.argmax(x, 1, out=o), t.int64),
        "softmax": (lambda o: t.softmax(x, 1, out=o), t.float32),
        "where": (lambda o: t.where(c, x, -x, out=o), t.float32),
        "take": (lambda o: t.take(x, t.tensor([5, 1, 7]), out=o), t.float32),
        "eq": (lambda o: t.eq(x, 1.0, out=o), t.bool),
        "scatter_add": (lambda o: t.scatter_add(x, 1, idx, x, out=o), t.float32),
    }


@prog
def out_every_family_grows_in_place(t):
    obs = {}
    for name, (call, dtype) in _families(t).items():
        o = t.zeros(2, dtype=dtype)
        obs[name] = _grow(t, call, o, o[1:], o.detach())
    return obs


@prog
def out_pairs_grow_each_storage_in_place(t):
    """sort/topk/max(dim)/min(dim) into (values, indices): each grows its own storage; a view
    of either made before sees the new buffer."""
    x = t.tensor(np.array([[3.0, 1.0, 2.0], [0.0, -1.0, 5.0]], dtype=np.float32))
    calls = {"sort": lambda vi: t.sort(x, 1, out=vi), "topk": lambda vi: t.topk(x, 2, out=vi),
             "max": lambda vi: t.max(x, 1, out=vi), "min": lambda vi: t.min(x, 0, out=vi)}
    obs = {}
    for name, call in calls.items():
        vals, ind = t.zeros(1), t.zeros(1, dtype=t.int64)
        vv, iv = vals[:], ind.view(1)
        vv.clone(), iv.clone()
        sv, si = vals.untyped_storage(), ind.untyped_storage()
        pv, pi = sv.data_ptr(), si.data_ptr()
        r, w = warned(lambda call=call, vals=vals, ind=ind: call((vals, ind)))
        obs[name] = {"values": vals, "indices": ind, "vv": vv, "iv": iv, "warnings": len(w),
                     "returned the outs": r[0] is vals and r[1] is ind,
                     "same storages": (vv.untyped_storage() is sv, iv.untyped_storage() is si),
                     "nbytes": (sv.nbytes(), si.nbytes()),
                     "moved": (sv.data_ptr() != pv, si.data_ptr() != pi),
                     "views follow": (vv.data_ptr() == vals.data_ptr(),
                                      iv.data_ptr() == ind.data_ptr()),
                     "versions": (vals._version, ind._version, vv._version, iv._version)}
    return obs


@prog
def out_scatter_and_index_reduce_grow_in_place(t):
    x = t.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    idx = t.tensor([[0, 0, 1], [1, 2, 2]])
    obs = {}
    for name, call in (
            ("scatter_reduce", lambda o: t.scatter_reduce(x, 1, idx, x, "sum", out=o)),
            ("index_reduce", lambda o: t.index_reduce(x, 1, t.tensor([0, 0, 2]), x, "amax",
                                                      out=o))):
        o = t.zeros(2)
        obs[name] = _grow(t, call, o, o[:1])
    return obs


@prog
def out_from_numpy_cannot_grow(t):
    """from_numpy's storage is NumPy's memory, not resizable: PyTorch warns, then refuses.
    (PyTorch has already set out's new sizes when its storage refuses to grow, so out's shape
    claims more cells than its storage holds; the core keeps out's shape. Only the error, the
    warning, the version and the NumPy memory are compared here.)"""
    obs = {}
    for name, call in (("add", lambda o: t.add(t.ones(3), 1, out=o)),
                       ("cumsum", lambda o: t.cumsum(t.ones(3), 0, out=o)),
                       ("cat", lambda o: t.cat([t.ones(3)], out=o)),
                       ("empty out", None)):
        a = np.zeros(2 if call else 0, dtype=np.float32)
        o = t.from_numpy(a)
        call = call or (lambda o: t.add(t.ones(3), 1, out=o))
        r, w = warned(lambda call=call, o=o: call(o))
        obs[name] = {"raised": r, "warnings": w, "version": o._version,
                     "numpy": a.copy(), "nbytes": o.untyped_storage().nbytes()}
    return obs


@prog
def out_grown_storage_then_written_in_place_through_a_view(t):
    """After the growth, a write through an old view lands in the new buffer that out reads
    (and bumps the shared version counter)."""
    x = t.zeros(2)
    v = x[:1]
    v.clone()
    _, w = warned(lambda: t.add(t.ones(4), 1, out=x))
    v.fill_(-7.0)
    return {"x": x, "v": v, "versions": (x._version, v._version), "warnings": len(w),
            "x after mul_": catch(lambda: x.mul_(2)), "v after": v}


@prog
def out_a_dtype_view_grows_the_bytes_it_needs(t):
    """out = x.view(float32) over a float64 storage of 16 bytes, asked for 5 floats: the
    storage grows to exactly 20 bytes (not a whole number of float64s); x still reads its two
    float64s from the new buffer's first 16 bytes."""
    x = t.tensor(np.array([1.5, -2.0]))
    o = x.view(t.float32)
    obs = _grow(t, lambda o: t.add(t.ones(5), 1, out=o), o, x)
    obs["x then"] = x.view(t.int64)  # (two float64s whose bytes are float32 results)
    return obs


@pytest.mark.parametrize("program", prog.params())
def test_out_resize_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 9
