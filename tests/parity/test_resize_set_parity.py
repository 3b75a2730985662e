"""resize_ and resize_as_: a tensor takes a new shape over its own storage (set_, which moves it
to another storage: test_set_storage_parity.py).

What torch defines is compared: shapes, strides, offsets, the storage's size in bytes, which
tensors share a buffer (and that a grown one has moved), ``_version``, the cells a resize
keeps, errors word for word and what a refused call leaves behind. Cells a grown storage has
not written yet are uninitialised on both sides: no program reads them.
"""

import numpy as np
import pytest

from .harness import Registry, catch, check_parity, meta, same_storage

pytestmark = pytest.mark.parity

prog = Registry()


@pytest.fixture(autouse=True)
def _default_determinism(torch_mod):
    """The parity session turns on torch.use_deterministic_algorithms, under which a grown
    storage's new cells are filled with NaN; these programs compare PyTorch's default mode,
    which the core follows (new cells are left as the allocator gives them)."""
    torch_mod.use_deterministic_algorithms(False)
    yield
    torch_mod.use_deterministic_algorithms(True)


def _state(x):
    return {"meta": meta(x), "version": x._version, "nbytes": x.untyped_storage().nbytes()}


@prog
def resize_shrinks_in_place_and_keeps_the_bytes(t):
    x = t.arange(6.0)
    ptr, storage_ptr = x.data_ptr(), x.untyped_storage().data_ptr()
    r = x.resize_(2, 2)
    res = {"returns self": r is x, "2x2": _state(x), "values": x.clone(),
           "same ptr": x.data_ptr() == ptr}
    x.resize_(0)
    res["empty"] = {**_state(x), "data_ptr": x.data_ptr(),
                    "storage kept": x.untyped_storage().data_ptr() == storage_ptr}
    x.resize_(6)  # the storage was never shrunk: all six cells come back
    res["back"] = {**_state(x), "values": x.clone()}
    return res


@prog
def resize_grows_the_storage_in_place_for_every_view(t):
    x = t.arange(6.0)
    y = x.view(2, 3)
    old = x.data_ptr()
    x.resize_(3, 3)
    return {"x": _state(x), "moved": x.data_ptr() != old, "shared": same_storage(x, y),
            "same ptr": x.data_ptr() == y.data_ptr(), "kept": x.reshape(-1)[:6].clone(),
            "y": y.clone(), "y version": y._version,
            "same storage object": x.untyped_storage().nbytes() == y.untyped_storage().nbytes()}


@prog
def resize_a_view_grows_its_base(t):
    b = t.zeros(4)
    v = b[1:3]
    v.resize_(5)
    return {"v": _state(v), "b": _state(b), "is view": v._is_view(), "base": v._base is b,
            "b values": b.clone(), "v kept": v[:3].clone()}


@prog
def the_storage_offset_counts_in_the_new_size(t):
    x = t.arange(6.0)[2:]
    x.resize_(5)
    e = t.arange(6.0)[4:]
    e.resize_(0)  # no elements: no resize, whatever the offset
    e2 = t.arange(6.0)[4:]
    e2.resize_(0, 9)
    return {"x": _state(x), "kept": x[:4].clone(), "e": _state(e), "e2": _state(e2)}


@prog
def an_empty_tensor_gets_bytes(t):
    e = t.empty(0)
    before = (e.data_ptr(), e.untyped_storage().nbytes())
    e.resize_(3)
    return {"before": before, "after": _state(e), "points somewhere": e.data_ptr() != 0}


@prog
def same_shape_keeps_strides_and_version(t):
    x = t.arange(6.0).view(2, 3).t()
    x.resize_(3, 2)
    kept = _state(x)
    x.resize_((3, 2), memory_format=t.contiguous_format)  # restrided, the same shape: no step
    y = t.arange(6.0).view(2, 3).t()
    y.resize_(6)
    return {"kept": kept, "restrided": _state(x), "reshaped": _state(y)}


@prog
def every_shape_change_steps_the_version(t):
    x = t.arange(6.0)
    steps = []
    for shape in ((6,), (2, 3), (3, 2), (0,), (6, 1), (6, 1), ()):
        before = x._version
        x.resize_(*shape)
        steps.append(x._version - before)
    return {"steps": steps, "x": _state(x)}


@prog
def memory_formats(t):
    a = t.zeros(2, 3, 4, 5)
    a.resize_(2, 3, 4, 5, memory_format=t.channels_last)
    b = t.zeros(2)
    b.resize_(1, 2, 3, 4, 5, memory_format=t.channels_last_3d)
    c = t.zeros(2)
    c.resize_(3, 1, 1, 2, memory_format=t.channels_last)
    return {"a": _state(a), "b": _state(b), "c": _state(c)}


@prog
def a_refused_memory_format_leaves_the_new_shape(t):
    res = {}
    for name, fmt, shape in (("preserve", t.preserve_format, (3,)),
                             ("channels_last on 2-D", t.channels_last, (3, 3)),
                             ("channels_last_3d on 4-D", t.channels_last_3d, (1, 2, 3, 4))):
        x = t.zeros(2)
        res[name] = {"raised": catch(lambda x=x, fmt=fmt, shape=shape:
                                     x.resize_(*shape, memory_format=fmt)), **_state(x)}
    return res


@prog
def tensors_that_require_grad_are_refused(t):
    w = t.zeros(2, requires_grad=True)
    y = w * 1
    res = {"leaf": catch(lambda: w.resize_(3)), "non-leaf": catch(lambda: y.resize_(3)),
           "same shape": catch(lambda: w.resize_(2)),
           "resize_as_": catch(lambda: w.resize_as_(t.zeros(3)))}
    with t.no_grad():
        res["no_grad"] = catch(lambda: w.resize_(3))
        v = w[:1]  # a view made under no_grad does not require grad: it may be resized
        res["no_grad view"] = catch(lambda: v.resize_(2).shape)
    res["w"] = _state(w)
    res["detached"] = y.detach().resize_(5).shape
    res["y"] = {"shape": y.shape, "version": y._version, "nbytes": y.untyped_storage().nbytes()}
    return res


@prog
def inference_tensors(t):
    with t.inference_mode():
        a = t.zeros(2)
        inside = a.resize_(3).shape
    with t.inference_mode():
        b = t.zeros(2)
    return {"inside": inside, "same shape outside": catch(lambda: b.resize_(2).shape),
            "outside": catch(lambda: b.resize_(4)), "b shape": b.shape,
            "resize_as_ outside": catch(lambda: b.resize_as_(t.zeros(5))), "b after": b.shape}


@prog
def sizes_that_overflow_or_are_negative(t):
    res = {}
    for shape in ((-1,), (2, -1), (-2, -3), (2, 2**62), (2**61,), (3, 2**61)):
        res[str(shape)] = catch(lambda shape=shape: t.zeros(2).resize_(*shape))
    z = t.zeros(2)
    z.resize_(0, -1)  # a zero first: the uint64 product never overflows, torch accepts it
    res["(0, -1)"] = {"shape": z.shape, "version": z._version}
    return res


@prog
def a_numpy_buffer_is_not_resizable(t):
    a = np.zeros(3, dtype=np.float32)
    x = t.from_numpy(a)
    res = {"grow": catch(lambda: x.resize_(5))}
    y = t.from_numpy(np.arange(3, dtype=np.float32))
    y.resize_(2)
    res["shrink"] = {**_state(y), "values": y.clone()}
    return res


@prog
def dtypes_keep_their_cells(t):
    res = {}
    for dt in (t.int64, t.int32, t.bool, t.float16, t.float64):
        x = t.tensor([1, 0, 1, 1, 0, 1]).to(dt)
        x.resize_(2, 4)
        res[str(dt)] = {**_state(x), "kept": x.reshape(-1)[:6].clone()}
    return res


@prog
def the_binding(t):
    x = t.zeros(2)
    return {
        "tuple": x.resize_((2, 3)).shape, "list": x.resize_([3, 2]).shape,
        "keyword": x.resize_(size=(4,)).shape, "empty tuple": x.resize_(()).shape,
        "memory_format None": x.resize_(5, memory_format=None).shape,
        "missing": catch(lambda: x.resize_()), "float": catch(lambda: x.resize_(2.0)),
        "two sequences": catch(lambda: x.resize_((3,), 2)),
        "bad keyword": catch(lambda: x.resize_(3, foo=1)),
        "bad memory_format": catch(lambda: x.resize_(3, memory_format=1)),
        "str memory_format": catch(lambda: x.resize_(3, memory_format="a")),
        "version": x._version}


@prog
def resize_as_takes_the_template_shape(t):
    x = t.zeros(2)
    r = x.resize_as_(t.zeros(3, dtype=t.int64))
    res = {"returns self": r is x, "x": _state(x)}
    x.resize_as_(t.ones(3))
    res["same shape"] = _state(x)
    template = t.zeros(3, requires_grad=True)
    res["template requires grad"] = x.resize_as_(template).requires_grad
    res["keyword"] = x.resize_as_(the_template=t.zeros(2, 2)).shape
    res["missing"] = catch(lambda: x.resize_as_())
    res["not a tensor"] = catch(lambda: x.resize_as_(3))
    res["bad memory_format"] = catch(lambda: x.resize_as_(t.zeros(3), memory_format="a"))
    res["after"] = _state(x)
    return res


@prog
def resize_as_and_memory_formats(t):
    nhwc = t.zeros(2, 3, 4, 5).to(memory_format=t.channels_last)
    res = {}
    for name, fmt in (("none", None), ("preserve", t.preserve_format),
                      ("contiguous", t.contiguous_format), ("channels_last", t.channels_last)):
        x = t.zeros(2)
        x.resize_as_(nhwc, memory_format=fmt)
        res[name] = _state(x)
    flat = t.zeros(3, 2).t()
    y = t.zeros(6)
    y.resize_as_(flat, memory_format=t.preserve_format)  # no channels-last: contiguous
    res["preserve 2-D"] = _state(y)
    z = t.zeros(2)
    res["refused"] = catch(lambda: z.resize_as_(t.zeros(3, 3), memory_format=t.channels_last))
    res["left"] = _state(z)  # resized, but no version step: the refusal came first
    return res


@pytest.mark.parametrize("prog", prog.params())
def test_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
