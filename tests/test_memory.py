"""The allocator: counts, peaks, event traces, frees, and agreement with tracemalloc."""
from __future__ import annotations

import gc
import sys
import tracemalloc

import numpy as np
import pytest
from byte_intervals import OtherThreads, assert_alone, remeasured

import inplace_tutorial as ipt
from inplace_tutorial import memory

MB = 1 << 20


@pytest.fixture(autouse=True)
def _no_cycle_collection():
    """Counts are read before and after: garbage that earlier tests left for the cycle collector
    must not be freed in between."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def test_counts_follow_storages_not_tensors():
    base = memory.memory_allocated()
    x = ipt.zeros(1000, 1000)
    assert memory.memory_allocated() - base == 4_000_000
    v = x[10:20]  # a view: no new storage
    t = x.t()
    assert memory.memory_allocated() - base == 4_000_000
    del x, t
    assert memory.memory_allocated() - base == 4_000_000  # v still holds the storage
    del v
    assert memory.memory_allocated() == base


def test_peak_and_reset():
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    y = ipt.ones(256, 256) + 1  # ones (256 KiB) and the result alive together
    assert memory.max_memory_allocated() - base == 2 * 256 * 256 * 4
    del y
    memory.reset_peak_memory_stats()
    assert memory.max_memory_allocated() == memory.memory_allocated()


def test_trace_records_alloc_free_ops_phases_and_labels():
    with memory.record() as trace:
        with memory.phase("forward"):
            x = ipt.ones(100)
            y = x.exp()
        with memory.phase("cleanup"):
            del x, y
    kinds = [(e.kind, e.op, e.phase) for e in trace.events]
    assert kinds[:2] == [("alloc", "ones", "forward"), ("alloc", "exp", "forward")]
    assert {e.kind for e in trace.events[2:]} == {"free"}
    assert all(e.phase == "cleanup" for e in trace.events[2:])
    labels = [e.label for e in trace.events]
    assert all(lbl.startswith("S") for lbl in labels)
    assert trace.peak - trace.start_allocated == 800
    assert trace.phase_peak("forward") == trace.peak
    alive = trace.alive_at(trace.peak_index)
    assert [e.op for e in alive] == ["ones", "exp"]


def test_op_scope_names_allocations():
    with memory.record() as trace, memory.op_scope("my workspace"):
        _ = ipt.zeros(4)
    assert trace.events[0].op == "my workspace"


_OPS = ["add_", "sub_", "mul_", "div_", "pow_", "clamp_min_", "relu_", "sigmoid_", "tanh_", "exp_",
        "abs_", "neg_", "sqrt_", "zero_", "fill_", "copy_", "normal_", "uniform_"]
_CASES = [(op, operand) for op in _OPS for operand in ("scalar", "same", "broadcast")
          if not (op == "copy_" and operand == "scalar")]  # copy_ takes a tensor


@pytest.mark.parametrize(("op", "operand"), _CASES)
def test_inplace_elementwise_allocates_nothing_proportional(op, operand):
    x = ipt.rand(512, 1024) + 1  # 2 MiB, positive so sqrt/log stay finite
    arg = {"scalar": 2.0, "same": ipt.rand(512, 1024) + 1, "broadcast": ipt.rand(1024) + 1}[operand]
    args = {
        "relu_": (), "sigmoid_": (), "tanh_": (), "exp_": (), "abs_": (), "neg_": (), "sqrt_": (),
        "zero_": (), "normal_": (), "uniform_": (), "clamp_min_": (0.5,), "fill_": (1.5,),
    }.get(op, (arg,))
    ptr = x.data_ptr()
    gc.disable()  # garbage earlier tests left for the cycle collector must not be freed in here
    try:
        memory.reset_peak_memory_stats()
        before = memory.memory_allocated()
        out = getattr(x, op)(*args)
        after = memory.memory_allocated()
    finally:
        gc.enable()
    assert out is x and x.data_ptr() == ptr
    assert after == before
    assert memory.max_memory_allocated() == before  # the shared workspace serves any scratch


def test_add_alpha_is_chunked_but_sub_of_product_allocates_full_temporary():
    p = ipt.randn(1024, 1024)
    g = ipt.randn(1024, 1024)
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    p.add_(g, alpha=-0.1)  # PyTorch's SGD form
    assert memory.max_memory_allocated() == base
    memory.reset_peak_memory_stats()
    p.sub_(0.1 * g)  # the seed article's form: 0.1 * g is a full-size tensor
    assert memory.max_memory_allocated() - base >= 4 * 1024 * 1024


def test_addbmm_inplace_keeps_one_product_buffer():
    out = ipt.zeros(64, 64)
    b1, b2 = ipt.randn(32, 64, 16), ipt.randn(32, 16, 64)
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    out.addbmm_(b1, b2)
    assert memory.max_memory_allocated() - base == 64 * 64 * 4  # one (n, p) product
    memory.reset_peak_memory_stats()
    alt = out + ipt.bmm(b1, b2).sum(0)  # materialises all 32 products
    assert memory.max_memory_allocated() - base >= 32 * 64 * 64 * 4
    np.testing.assert_allclose(alt.numpy(), 2 * out.numpy() - out.numpy() + ipt.bmm(b1, b2)
                               .sum(0).numpy(), rtol=1e-4, atol=1e-4)


def _workload():
    ipt.manual_seed(0)
    x = ipt.randn(256, 512)
    w1 = ipt.randn(512, 512, requires_grad=True)
    w2 = ipt.randn(512, 10, requires_grad=True)
    h = (x @ w1).relu_()
    h2 = h * 0.5 + 1
    out = (h2 @ w2).log_softmax(1)
    loss = -out.mean()
    loss.backward()
    with ipt.no_grad():
        w1.add_(w1.grad, alpha=-0.01)
        w2.sub_(0.01 * w2.grad)
    y = x.t().contiguous().exp().sum(0)
    z = ipt.bmm(ipt.randn(8, 64, 64), ipt.randn(8, 64, 64)).sum(0)
    return y, z


@remeasured
def test_peak_agrees_with_tracemalloc_within_5_percent():
    gc.collect()
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    others = OtherThreads()
    tracemalloc.start()
    try:
        _workload()
        _, traced_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    ours = memory.max_memory_allocated() - base
    assert ours > 2 * MB
    assert_alone(abs(ours - traced_peak) / traced_peak <= 0.05, f"{ours:,} B counted, "
                 f"{traced_peak:,} B traced", others)


def test_observe_sees_every_change_of_the_count_as_it_happens():
    seen = []
    with memory.observe(lambda ev: seen.append((ev.kind, ev.nbytes, ev.op,
                                                ev.allocated - base, memory.memory_allocated()
                                                - base))):
        base = memory.memory_allocated()
        x = ipt.ones(100, dtype=ipt.float64)
        del x
    # request: before the buffer exists (count unchanged); alloc: counted; free: given back
    assert seen == [("request", 800, "ones", 0, 0), ("alloc", 800, "ones", 800, 800),
                    ("free", 800, "ones", 0, 0)]
    y = ipt.ones(3)
    assert len(seen) == 3  # the block is over: no observer left
    with memory.record() as trace:
        z = ipt.ones(3)
    del y, z
    assert [e.kind for e in trace.events] == ["alloc"]  # traces never see requests


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt (Linux only)")
def test_a_freed_buffer_is_reused_without_page_faults():
    # memory._keep_freed_pages: without it glibc unmaps every freed buffer of 128 KiB or more
    # and the next one is faulted in again page by page (256 faults a MiB)
    import resource  # Unix only: imported here so that this file still imports on Windows

    for _ in range(3):  # warm: the heap grows once
        ipt.ones(MB // 4)
    # this thread's faults only: pytest-xdist's I/O thread and BLAS's threads fault pages too
    before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    for _ in range(20):
        ipt.ones(MB // 4)  # 1 MiB, every page written, then freed
    faults = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before
    assert faults < 20 * 256 // 10


@remeasured
def test_bookkeeping_of_many_live_tensors_stays_small_on_every_allocation():
    """Each counted buffer's weak reference is kept in a table (storage.py). One dict for all
    of them rebuilt its table every few hundred allocations, as large as every live buffer
    together and outside the count: 37 KB at a random op with 400 tensors alive, which made
    the byte-accounting tests fail now and then. In small dicts no allocation takes more
    than a few KiB of bookkeeping, however many tensors are alive."""
    keep = [ipt.zeros(1) for _ in range(1500)]
    was_enabled = gc.isenabled()
    gc.disable()
    others = OtherThreads()
    tracemalloc.start()
    try:
        worst = 0
        for _ in range(3000):  # several rebuilds of a 1,500-entry table
            tracemalloc.reset_peak()
            start = tracemalloc.get_traced_memory()[0]
            t = ipt.zeros(2)
            worst = max(worst, tracemalloc.get_traced_memory()[1] - start)
            del t
    finally:
        tracemalloc.stop()
        if was_enabled:
            gc.enable()
    assert len(keep) == 1500
    assert_alone(worst < 4096, f"{worst:,} B", others)
