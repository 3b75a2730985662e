"""Nothing half-written and unannounced: a KeyboardInterrupt in the middle of an in-place op.

Python delivers a signal between two bytecodes, so an interrupt can land between any two lines
of the core (never inside one NumPy call). The sweep below raises KeyboardInterrupt at the 1st,
2nd, 3rd ... line the core executes during an op, until the op runs to its end, and checks after
every interrupted run: if any element changed, ``_version`` went up; the shared workspace is
free again; and a later ``add_(y, alpha=2)`` allocates nothing. A second sweep sends a real
SIGALRM (its handler raises KeyboardInterrupt, as Ctrl-C's does) at every bytecode instead of
every line, inside a line too. Where an interrupt lands is chosen by counting, never by a
clock, so every run of the tests interrupts the same places.
"""
from __future__ import annotations

import gc
import signal
import sys
from pathlib import Path

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import memory
from inplace_tutorial.fused import fused_addbmm_
from inplace_tutorial.ops import workspace

PKG = str(Path(ipt.__file__).parent)
N = 3 * workspace.CHUNK + 5  # float64: three chunks and a bit through the workspace


class InterruptAt:
    """A tracer that interrupts at the ``at``-th line (``unit="opcode"``: bytecode) run inside
    the package: it raises KeyboardInterrupt, or (given ``armed``, the list the handler reads)
    sends SIGALRM to this thread, whose handler then runs at once, at that bytecode."""

    def __init__(self, at: int, unit: str = "line", armed: list | None = None):
        self.at, self.unit, self.armed = at, unit, armed
        self.real_signal = armed is not None  # the handler reads ``armed``
        self.count, self.fired = 0, False

    def __call__(self, frame, event, arg):
        if not frame.f_code.co_filename.startswith(PKG):
            return None
        frame.f_trace_opcodes = self.unit == "opcode"
        return self.local

    def local(self, frame, event, arg):
        if event == self.unit and not self.fired:
            self.count += 1
            if self.count == self.at:
                self.fired = True
                if not self.real_signal:
                    raise KeyboardInterrupt
                self.armed.append(True)
                signal.raise_signal(signal.SIGALRM)  # the handler raises here ...
                raise AssertionError("SIGALRM's handler did not run at once")  # ... not later
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


def _sweep(name: str, tracer) -> int:
    """Interrupt ``OPS[name]`` at its 1st, 2nd ... line or bytecode (``tracer(at)``) until it
    runs to its end, checking every interrupted run; the number of places interrupted."""
    make, call = OPS[name]
    _later_add_allocates()  # the workspace exists before the baseline is taken
    gc.collect()
    counted_before = memory.memory_allocated()
    at = 1
    while True:
        x, *operands = make()
        before, v0 = x.detach().numpy().copy(), x._version
        interrupt = tracer(at)
        sys.settrace(interrupt)
        try:
            call(x, *operands)
        except KeyboardInterrupt:
            pass
        finally:
            sys.settrace(None)
        changed = not np.array_equal(before, x.detach().numpy(), equal_nan=True)
        where = f"{name}: interrupt at {interrupt.unit} {at}"
        assert not workspace._WORKSPACE.busy, f"{where} left the workspace taken"
        if changed:
            assert x._version > v0, f"{where} wrote elements and left _version at {v0}"
        if not interrupt.fired:
            assert changed and x._version == v0 + 1, f"{name} ran to the end without writing"
            break
        at += 1
        assert at < 20_000, f"{name}: the sweep does not end"
    assert _later_add_allocates() == 0
    # An interrupt inside an allocation must not split the count from what the free gives back.
    del x, operands
    gc.collect()
    assert memory.memory_allocated() == counted_before, f"{name}: the byte count drifted"
    return at - 1


@pytest.mark.parametrize("name", sorted(OPS))
def test_interrupt_at_every_line(name):
    # the op ran a few core lines, so the sweep did interrupt it somewhere
    assert _sweep(name, InterruptAt) > 3


def _first_opcode_trace(name: str) -> None:
    """One run of the op under an opcode tracer that never interrupts. CPython 3.12.1 reports
    no opcode event at all in a process's first ``sys.settrace`` session that asks for them
    (the op ran, 0 events; from the next session on, every one), so the sweep would end at
    once, having interrupted nothing."""
    make, call = OPS[name]
    x, *operands = make()
    sys.settrace(InterruptAt(0, "opcode"))  # (at 0: the count never reaches it)
    try:
        call(x, *operands)
    finally:
        sys.settrace(None)


@pytest.mark.parametrize("name", ["add_(y, alpha=2)", "add_ with autograd", "copy_"])
def test_a_real_signal_at_every_bytecode(name):
    """SIGALRM, its handler raising KeyboardInterrupt as Ctrl-C does, at each bytecode the core
    runs during the op (where Python may run a handler: within a line as well as between).

    The signal goes to this thread (``raise_signal``), whose handler runs before the call
    returns. (This test used to arm a timer instead. A timer's SIGALRM may be taken by any
    thread of the process, pytest-xdist's I/O thread for one; the main thread then runs the
    handler at its next check, which on Python 3.13 may lie past the ``except``: a
    KeyboardInterrupt that stops the whole pytest run, exit status 2.) A handler that ran late
    would raise nothing and be counted: never an interrupt outside the sweep."""

    handled, late, armed = [], [], []

    def handler(signum, frame):
        if not armed:
            late.append(signum)
            return
        armed.clear()
        handled.append(signum)
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, handler)
    try:
        lines = _sweep(name, InterruptAt)
        _first_opcode_trace(name)
        bytecodes = _sweep(name, lambda at: InterruptAt(at, "opcode", armed))
    finally:
        signal.signal(signal.SIGALRM, old)
    assert not late and len(handled) == bytecodes > lines  # each at once; more than lines


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
