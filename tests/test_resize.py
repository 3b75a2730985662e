"""ops/resize.py: what resize_ allocates, keeps and gives back (torch's side of each rule is in
tests/parity/test_resize_set_parity.py)."""
from __future__ import annotations

import gc

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import memory


@pytest.fixture(autouse=True)
def _no_cycle_collection():
    """Counts are read before and after: garbage other tests left must not be freed between."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def test_a_shrink_allocates_nothing_and_keeps_the_storage():
    x = ipt.arange(1000.0)
    storage = x.untyped_storage()
    with memory.record() as trace:
        x.resize_(10, 10)
        x.resize_(0)
    assert trace.events == []
    assert x.untyped_storage() is storage and storage.nbytes() == 4000


def test_a_grow_is_one_counted_allocation_of_the_new_size():
    x = ipt.arange(100.0)
    label = x.untyped_storage().label
    before = memory.memory_allocated()
    with memory.record() as trace:
        x.resize_(30, 10)
    allocs = [e for e in trace.events if e.kind == "alloc"]
    assert [(e.nbytes, e.label, e.op) for e in allocs] == [(1200, label, "resize_")]
    # no view held the old buffer: it went back at once, so the count grew by the difference
    frees = [e for e in trace.events if e.kind == "free"]
    assert [e.nbytes for e in frees] == [400]
    assert memory.memory_allocated() - before == 800
    np.testing.assert_array_equal(x.reshape(-1)[:100].numpy(), np.arange(100.0))


def test_the_old_buffer_lives_as_long_as_a_numpy_view_of_it():
    x = ipt.arange(100.0)
    old = x.numpy()  # a NumPy view of the old buffer
    before = memory.memory_allocated()
    x.resize_(200)
    assert memory.memory_allocated() - before == 800  # both buffers are alive
    assert not np.shares_memory(old, x.numpy())
    del old
    assert memory.memory_allocated() - before == 400


def test_views_read_the_grown_buffer_and_move_with_it():
    x = ipt.arange(6.0)
    y = x.view(2, 3)
    y.numpy()  # caches y's NumPy window on the old buffer
    x.resize_(3, 3)
    assert y.data_ptr() == x.data_ptr()
    x[0, 0] = 7.0
    assert y[0, 0].item() == 7.0


def test_a_failed_resize_leaves_the_tensor_as_it_was():
    """PyTorch sets the sizes before these checks and leaves them set (a tensor its storage
    can't hold); the core checks first."""
    x = ipt.from_numpy(np.zeros(3, dtype=np.float32))
    for shape in ((5,), (-1,), (2**61,)):
        with pytest.raises(RuntimeError):
            x.resize_(*shape)
        assert x.shape == (3,) and x._version == 0


def test_share_memory_moves_the_bytes_into_one_counted_buffer():
    x = ipt.arange(100.0)
    y = x[10:]
    label = x.untyped_storage().label
    before = memory.memory_allocated()
    with memory.record() as trace:
        x.share_memory_()
        x.share_memory_()  # already shared: nothing
    assert [(e.kind, e.nbytes, e.label) for e in trace.events] == [
        ("alloc", 400, label), ("free", 400, f"{label} (before share_memory_)")]
    assert memory.memory_allocated() == before
    assert y.data_ptr() == x.data_ptr() + 40 and y.is_shared()
    with pytest.raises(RuntimeError, match="not resizable"):
        x.resize_(200)  # (torch 2.13 crashes here: a shared storage can't grow)
