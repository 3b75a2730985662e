"""Nothing half-written and unannounced: a KeyboardInterrupt in the middle of an in-place op.

Python delivers a signal between two bytecodes, so an interrupt can land between any two lines
of the core (never inside one NumPy call). The sweep below raises KeyboardInterrupt at the 1st,
2nd, 3rd ... line the core executes during an op, until the op runs to its end, and checks after
every interrupted run: if any element changed, ``_version`` went up; the shared workspace is
free again; and a later ``add_(y, alpha=2)`` allocates nothing. A second test sends a real
SIGALRM during a large ``add_`` several times over.
"""
from __future__ import annotations

import gc
import signal
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import memory
from inplace_tutorial.fused import fused_addbmm_
from inplace_tutorial.ops import workspace

PKG = str(Path(ipt.__file__).parent)
N = 3 * workspace.CHUNK + 5  # float64: three chunks and a bit through the workspace


class InterruptAtLine:
    """A tracer that raises KeyboardInterrupt at the ``at``-th line run inside the package."""

    def __init__(self, at: int):
        self.at, self.lines, self.fired = at, 0, False

    def __call__(self, frame, event, arg):
        return self.local if frame.f_code.co_filename.startswith(PKG) else None

    def local(self, frame, event, arg):
        if event == "line" and not self.fired:
            self.lines += 1
            if self.lines == self.at:
                self.fired = True
                raise KeyboardInterrupt
        return self.local


def _vals(n=N, seed=0):
    return np.random.default_rng(seed).uniform(-2, 2, n)


def _setup_1d():
    return ipt.tensor(_vals()), ipt.tensor(_vals(seed=1)), ipt.tensor(_vals(seed=2) + 3.0)


def _graph_self():
    """A non-leaf that requires grad: the in-place op goes through autograd's record_inplace."""
    leaf = ipt.tensor(_vals(), requires_grad=True)
    return leaf * 1


# name -> (make (self, *operands), the in-place call)
OPS = {
    "add_(y, alpha=2)": (_setup_1d, lambda x, y, z: x.add_(y, alpha=2)),
    "sub_(y, alpha=2)": (_setup_1d, lambda x, y, z: x.sub_(y, alpha=2)),
    "addcmul_": (_setup_1d, lambda x, y, z: x.addcmul_(y, z, value=2)),
    "addcdiv_": (_setup_1d, lambda x, y, z: x.addcdiv_(y, z, value=0.5)),
    "lerp_": (_setup_1d, lambda x, y, z: x.lerp_(y, 0.25)),
    "relu_": (_setup_1d, lambda x, y, z: x.relu_()),
    "mul_": (_setup_1d, lambda x, y, z: x.mul_(y)),
    "copy_": (_setup_1d, lambda x, y, z: x.copy_(y)),
    "add(out=, alpha=2)": (_setup_1d, lambda x, y, z: ipt.add(z, y, alpha=2, out=x)),
    "normal_ (strided)": (lambda: (ipt.tensor(_vals(2 * N)).view(N, 2)[:, 0], None, None),
                          lambda x, y, z: x.normal_()),
    "addmm_(alpha=2)": (lambda: (ipt.tensor(_vals(300 * 400).reshape(300, 400)),
                                 ipt.tensor(_vals(300 * 8).reshape(300, 8)),
                                 ipt.tensor(_vals(8 * 400).reshape(8, 400))),
                        lambda x, a, b: x.addmm_(a, b, alpha=2)),
    "fused_addbmm_": (lambda: (ipt.tensor(_vals(300 * 400).reshape(300, 400)),
                               ipt.tensor(_vals(2 * 300 * 4).reshape(2, 300, 4)),
                               ipt.tensor(_vals(2 * 4 * 400).reshape(2, 4, 400))),
                      lambda x, a, b: fused_addbmm_(x, a, b, alpha=2)),
    "add_ with autograd": (lambda: (_graph_self(), ipt.tensor(_vals(seed=1)), None),
                           lambda x, y, z: x.add_(y, alpha=2)),
    "addcmul_ with autograd": (lambda: (_graph_self(), ipt.tensor(_vals(seed=1)),
                                        ipt.tensor(_vals(seed=2))),
                               lambda x, y, z: x.addcmul_(y, z, value=2)),
}


def _later_add_allocates() -> int:
    """Bytes a fresh multi-chunk ``add_(y, alpha=2)`` allocates (0 with a free workspace)."""
    a, b = ipt.ones(N, dtype=ipt.float64), ipt.ones(N, dtype=ipt.float64)
    start = memory.memory_allocated()
    memory.reset_peak_memory_stats()
    a.add_(b, alpha=2)
    return memory.max_memory_allocated() - start


@pytest.mark.parametrize("name", sorted(OPS))
def test_interrupt_at_every_line(name):
    make, call = OPS[name]
    _later_add_allocates()  # the workspace exists before the baseline is taken
    gc.collect()
    counted_before = memory.memory_allocated()
    at = 1
    while True:
        x, *operands = make()
        before, v0 = x.detach().numpy().copy(), x._version
        tracer = InterruptAtLine(at)
        sys.settrace(tracer)
        try:
            call(x, *operands)
        except KeyboardInterrupt:
            pass
        finally:
            sys.settrace(None)
        changed = not np.array_equal(before, x.detach().numpy(), equal_nan=True)
        where = f"{name}: interrupt at line {at}"
        assert not workspace._WORKSPACE.busy, f"{where} left the workspace taken"
        if changed:
            assert x._version > v0, f"{where} wrote elements and left _version at {v0}"
        if not tracer.fired:
            assert changed and x._version == v0 + 1, f"{name} ran to the end without writing"
            break
        at += 1
        assert at < 2000, f"{name}: the sweep does not end"
    assert _later_add_allocates() == 0
    assert at > 3  # the op ran a few core lines, so the sweep did interrupt it somewhere
    # An interrupt inside an allocation must not split the count from what the free gives back.
    del x, operands
    gc.collect()
    assert memory.memory_allocated() == counted_before, f"{name}: the byte count drifted"


def test_a_real_signal_during_a_large_add_():
    """SIGALRM (its handler raises KeyboardInterrupt, as Ctrl-C does) during a 4M-element add_."""
    n = 4_000_000
    x, y = ipt.zeros(n, dtype=ipt.float64), ipt.ones(n, dtype=ipt.float64)
    t0 = time.perf_counter()
    x.add_(y, alpha=2)
    took = time.perf_counter() - t0

    def handler(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, handler)
    try:
        for frac in (0.1, 0.3, 0.5, 0.7, 0.9):
            x.zero_()
            v0 = x._version
            try:
                signal.setitimer(signal.ITIMER_REAL, max(took * frac, 1e-4))
                x.add_(y, alpha=2)
                time.sleep(took)  # an interrupt that comes after the op lands here
            except KeyboardInterrupt:
                pass
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            written = int(np.count_nonzero(x.numpy()))
            assert not workspace._WORKSPACE.busy
            if written:
                assert x._version == v0 + 1, (frac, written)
    finally:
        signal.signal(signal.SIGALRM, old)
    assert _later_add_allocates() == 0


def test_two_threads_never_share_the_workspace():
    """A second thread that finds the workspace taken gets a counted buffer of its own."""
    import threading

    results = []

    def work(seed):
        a = ipt.tensor(_vals(seed=seed))
        b = ipt.tensor(_vals(seed=seed + 10))
        want = a.numpy() + 2 * b.numpy()
        for _ in range(20):
            a.copy_(ipt.tensor(want - 2 * b.numpy()))
            a.add_(b, alpha=2)
            results.append(np.allclose(a.numpy(), want))

    threads = [threading.Thread(target=work, args=(s,)) for s in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 60 and all(results)
    assert not workspace._WORKSPACE.busy
