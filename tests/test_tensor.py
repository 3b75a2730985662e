"""Tensor basics that the parity suite doesn't cover: the shared workspace, storage labels,
the NumPy window, and the fast in-place paths staying correct."""
from __future__ import annotations

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import memory


def test_relu_after_workspace_was_dirtied_is_still_exact():
    rng = np.random.default_rng(0)
    big = ipt.tensor(rng.standard_normal((512, 512)).astype(np.float32))
    g = ipt.tensor(rng.standard_normal((512, 512)).astype(np.float32))
    big.add_(g, alpha=3.0)  # uses the workspace as scratch: it now holds garbage
    expect = np.maximum(big.numpy(), 0)
    big.relu_()  # reads the workspace as its zero block
    np.testing.assert_array_equal(big.numpy(), expect)
    out = ipt.tensor(rng.standard_normal((512, 512)).astype(np.float32))
    np.testing.assert_array_equal(out.relu().numpy(), np.maximum(out.numpy(), 0))


def test_nested_scratch_users_get_their_own_buffer():
    from inplace_tutorial.ops.workspace import Scratch

    with memory.record() as tr:
        with Scratch(np.float32, "outer", 10) as a, Scratch(np.float32, "inner", 10) as b:
            a.view((10,))[:] = 1
            b.view((10,))[:] = 2
            assert a.view((10,)).sum() == 10 and b.view((10,)).sum() == 20
    assert [e.op for e in tr.events if e.kind == "alloc"] == ["inner (scratch)"]


def test_fast_inplace_path_still_bumps_versions_and_checks_dtype():
    x = ipt.zeros(3)
    v = x[1:]
    x.add_(1)
    assert x._version == v._version == 1
    y = ipt.zeros(3, dtype=ipt.int64)
    with pytest.raises(RuntimeError, match="result type Float can't be cast"):
        y.add_(0.5)
    assert y._version == 0 and y.tolist() == [0, 0, 0]  # nothing half-written


def test_storage_labels_and_numpy_window():
    from inplace_tutorial.storage import reset_labels

    reset_labels()
    a = ipt.arange(6.0)
    b = a.view(2, 3).t()
    assert a.untyped_storage().label == "S0" and b.untyped_storage() is a.untyped_storage()
    assert b.numpy().base is not None  # a window onto the storage, not a copy
    b.numpy()[0, 1] = 42.0  # b[0, 1] is a.view(2, 3)[1, 0], which is a[3]
    assert a.tolist()[3] == 42.0


def test_repr_like_pytorch():
    assert repr(ipt.tensor([1.0, 2.0])) == "tensor([1., 2.])"
    assert repr(ipt.tensor([1, 2])) == "tensor([1, 2])"
    assert repr(ipt.tensor([1.0], dtype=ipt.float64)) == "tensor([1.], dtype=torch.float64)"
    x = ipt.tensor([1.0, 2.0], requires_grad=True)
    assert repr(x) == "tensor([1., 2.], requires_grad=True)"
    assert repr(x * 2) == "tensor([2., 4.], grad_fn=<MulBackward0>)"
    assert repr(ipt.zeros(0, 3)) == "tensor([], size=(0, 3))"


def test_empty_and_size_one_strides_never_confuse_numpy():
    x = ipt.arange(4.0)
    v = x.as_strided((1, 3), (100, 1), 0)  # a size-1 dim may carry any stride
    assert v.tolist() == [[0.0, 1.0, 2.0]]
    e = x.as_strided((0, 2), (1, 1), 3)
    assert e.numel() == 0 and e.tolist() == []


@pytest.mark.parametrize("call", [
    lambda x: x.index_put_((ipt.tensor([0, 2]),), ipt.tensor(9.0)),
    lambda x: x.index_put_((ipt.tensor([1, 0, -3]),), ipt.tensor(9.0), accumulate=True),
    lambda x: x.index_put_((ipt.tensor([0, 1]), ipt.tensor([2, 5])), ipt.tensor(9.0)),
    lambda x: x.__setitem__((slice(None), [1, 0, 5]), 7.0),
    lambda x: x.index_add_(1, ipt.tensor([0, 7]), x[:, :2]),
    lambda x: x.index_fill_(0, ipt.tensor([1, 2]), 0.0),
    lambda x: x.masked_scatter_(ipt.tensor([True, True, True]), ipt.tensor([1.0])),
], ids=["index_put_", "index_put_acc", "index_put_cols", "setitem", "index_add_",
        "index_fill_", "masked_scatter_"])
def test_calls_pytorch_half_writes_write_nothing(call):
    """PyTorch's kernels write the cells before a bad index (or past a short source), then
    raise; the core refuses before its first write: values and version stay as they were."""
    x = ipt.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with pytest.raises((IndexError, RuntimeError)):
        call(x)
    assert x.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] and x._version == 0


def test_the_numpy_window_of_a_transposed_matrix_is_its_own_cells():
    """weight.t() and the like get their window as a transposed block of the buffer (a fast
    path): the same cells, shape and byte steps as the strided view, at any storage offset and
    through a view(dtype), and writes through it land in the storage."""
    import numpy as np

    big = ipt.arange(40.0)
    for m in (big[:12].view(3, 4), big[8:20].view(4, 3), ipt.arange(6).view(2, 3)):
        t = m.t()
        a = t._array()
        assert a.shape == (m.shape[1], m.shape[0])
        assert a.strides == (m.element_size(), m.shape[1] * m.element_size())
        assert a.__array_interface__["data"][0] == t.data_ptr()
        assert np.array_equal(a, m._array().T)
    v = big[:12].view(3, 4).view(ipt.int32).t()
    assert np.array_equal(v._array(), big[:12].view(3, 4)._array().view(np.int32).T)
    w = big[20:32].view(3, 4)
    w.t()._array()[1, 2] = -1.0  # row 2, column 1 of w
    assert big[20 + 2 * 4 + 1].item() == -1.0


def test_a_cached_numpy_window_follows_its_storage_when_an_out_grows_it():
    """An out= too small grows its storage in place; every other tensor on it had its NumPy
    window cached on the old buffer and must read the new one: the storage's generation
    moves on, and each window is rebuilt at its next read (no search for those tensors)."""
    import gc

    base = ipt.zeros(2)
    view, alias = base[1:], base.detach()
    for t in (base, view, alias):
        t._array()  # cache the windows
    generation = base._storage._generation
    referrers = gc.get_referrers
    gc.get_referrers = None  # the growth must not scan the heap for the storage's tensors
    try:
        ipt.add(ipt.ones(4), ipt.arange(4.0), out=base)
    finally:
        gc.get_referrers = referrers
    assert base._storage._generation == generation + 1
    assert view._array().tolist() == [2.0] and alias._array().tolist() == [1.0, 2.0]
    view.fill_(7.0)  # writes land in the new buffer, seen through every tensor
    assert base.tolist() == [1.0, 7.0, 3.0, 4.0] and alias.tolist() == [1.0, 7.0]
    assert view.data_ptr() == base.data_ptr() + 4
