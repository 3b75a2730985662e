"""Measure an op interval by interval: the allocator's count against tracemalloc.

``memory.observe`` calls the meter at every alloc and free. Between two events the count is
constant, so tracemalloc's peak inside that interval (it sees every NumPy buffer and every
Python object) may exceed the count only by what the allocator missed: an uncounted NumPy
temporary shows up in the interval where it lived, even when it was freed long before the
op's own peak. The meter keeps the largest such excess and where it happened.

Two timing details of the allocator's events (see ``memory.observe``):
- an allocation sends "request" right before NumPy makes the buffer and "alloc" right after
  it is counted, so only the short interval between the two may hold the new bytes early;
- a free event comes from the buffer's weakref callback, right before NumPy gives the bytes
  back. The meter restarts tracemalloc's peak once they are gone: a one-shot profile hook
  (``sys.setprofile``) fires at the first Python event after the callback chain returned,
  which is before any Python code can make a temporary. The cycle collector breaks that
  order (it runs all weakref callbacks of a garbage cycle first, then frees the buffers), so
  it is off during a measured run.

What is left beyond the count is the Python objects an op makes (tensors, nodes: a few KiB
that do not grow with the data); each test measures the same op on small inputs too, and
``check`` takes those bytes off.

tracemalloc counts every thread's allocations, and NumPy lets other threads run while it
computes: under pytest-xdist a message read by the worker's I/O thread once showed as
16,841 B "not counted". So each measurement also asks Linux whether any other thread of the
process ran during it (``OtherThreads``). A failure measured while no other thread ran is the
op's own and final; one measured while another thread ran raises ``OtherThreadRan``, and the
test, decorated with ``remeasured``, is run again. An op's own temporary shows in every run,
so it still fails, only a few runs later.
"""
from __future__ import annotations

import contextlib
import functools
import gc
import os
import sys
import threading
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

import inplace_tutorial as ipt
from inplace_tutorial import memory, storage
from inplace_tutorial.ops.workspace import LOOP_BUFFER_ELEMENTS

_CHAIN_END = storage._buffer_gone.__code__  # the weakref callback a free event comes from


@dataclass
class Excess:
    """What one measured run found."""

    worst: int = 0  # largest bytes tracemalloc saw beyond the count in one interval
    where: str = "-"  # the interval: events before it, the event that closed it
    peak: int = 0  # counted bytes alive at the run's peak, above the floor
    under: int = 0  # largest bytes counted that tracemalloc did not hold (over-counting)
    events: int = 0
    others_ran: bool = False  # another thread may have allocated or freed during the run


class OtherThreadRan(AssertionError):
    """A failed check whose measurement another thread of the process may have disturbed."""


class OtherThreads:
    """Did any other thread of this process run between ``OtherThreads()`` and ``ran()``?

    Linux keeps, per thread, how often it was put on a CPU and its CPU time
    (``/proc/self/task/<id>/schedstat``) and whether it is running now (``.../stat``). A
    thread that was asleep at both ends and whose counts did not move never ran in between,
    so it allocated nothing. Without ``/proc`` (macOS, Windows) there is no such evidence and
    ``ran()`` says True. Threads NumPy's BLAS starts count too: they allocate nothing
    tracemalloc sees, but telling them apart would take guesswork; they only cost re-runs."""

    def __init__(self) -> None:
        self.before = _threads()

    def ran(self) -> bool:
        after = _threads()
        if self.before is None or after is None or set(self.before) != set(after):
            return True
        return any(after[t] != self.before[t] or after[t][0] == "R" for t in after)


def _threads() -> dict[str, tuple[str, str, str]] | None:
    """Every other thread: id -> (state, CPU time in ns, times put on a CPU); None if unknown."""
    me = str(threading.get_native_id())
    found = {}
    try:
        for tid in os.listdir("/proc/self/task"):
            if tid == me:
                continue
            with open(f"/proc/self/task/{tid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]  # the name may hold spaces
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                cpu_ns, _, slices = f.read().split()[:3]
            found[tid] = (state, cpu_ns, slices)
    except (OSError, IndexError, ValueError):  # no /proc, or a thread ended while read
        return None
    return found


class IntervalMeter:
    """``with IntervalMeter(floor) as m: op()`` then read ``m.result``."""

    def __init__(self, floor: int):
        self.floor = floor  # counted bytes that belong to no test (the workspace ...)
        self.result = Excess()
        self._pending: list = []  # frames of a free's callback chain, until the bytes are gone
        self._prev_profile = None

    def __enter__(self) -> IntervalMeter:
        self._gc = gc.isenabled()
        gc.disable()  # the collector calls every weakref callback first, then frees the buffers
        self._others = OtherThreads()  # read before tracemalloc's start line is drawn
        self.level = self.level0 = memory.memory_allocated()
        self.result.peak = self.level0 - self.floor
        self._observing = memory.observe(self)
        self._observing.__enter__()
        tracemalloc.reset_peak()
        self.traced0 = tracemalloc.get_traced_memory()[0]
        return self

    def __exit__(self, *exc) -> None:
        self._close(None)
        self.result.others_ran = self._others.ran()
        self._observing.__exit__(*exc)
        if self._pending:
            self._fired()
        if self._gc:
            gc.enable()

    def __call__(self, ev: memory.Event) -> None:
        self._close(ev)
        self.level = ev.allocated
        self.result.peak = max(self.result.peak, ev.allocated - self.floor)
        self.result.events += 1
        tracemalloc.reset_peak()
        if ev.kind == "free":
            self._after_free()

    def _close(self, ev: memory.Event | None) -> None:
        """Compare the interval that ``ev`` ends with the count it had."""
        current, peak = tracemalloc.get_traced_memory()
        made = ev.nbytes if ev is not None and ev.kind == "alloc" else 0  # made just before
        counted = self.level + made - self.level0
        excess = peak - self.traced0 - counted
        r = self.result
        if excess > r.worst:
            what = "the end" if ev is None else f"{ev.kind} {ev.nbytes:,} B ({ev.op})"
            r.worst = excess
            r.where = (f"after {r.events} events, before {what}, counted "
                       f"{counted:,} B above the start")
        # right now tracemalloc holds ev's buffer if it was just made; a buffer being freed is
        # still in the count, and may or may not be given back already: Python 3.12+ runs the
        # weakref callback after NumPy freed it, 3.10/3.11 before
        held = self.level + made - self.level0
        gone = ev.nbytes if ev is not None and ev.kind == "free" else 0
        r.under = max(r.under, held - gone - (current - self.traced0))

    def _after_free(self) -> None:
        frames, f = [], sys._getframe(0)
        while f is not None:
            frames.append(f)
            if f.f_code is _CHAIN_END:
                break
            f = f.f_back
        if not self._pending:  # a second free before the first fired: keep the outer hook
            self._prev_profile = sys.getprofile()
        self._pending = frames
        sys.setprofile(self._profile)

    def _profile(self, frame, event, arg) -> None:
        if any(frame is f for f in self._pending):
            return  # still returning through the callback: the buffer is not freed yet
        self._fired()

    def _fired(self) -> None:
        # never reinstall ourselves: a hook left behind would reset tracemalloc's peak in
        # every later measurement (the meter's own test then saw nothing on Python 3.10)
        prev = self._prev_profile
        sys.setprofile(None if prev == self._profile else prev)
        self._pending = []
        tracemalloc.reset_peak()


_FLOOR = [0]


@contextlib.contextmanager
def tracing() -> Iterator[None]:
    """tracemalloc on, and the objects alive so far moved out of the collector's sight
    (``gc.freeze``), so the collection of each test's floor scans only that test's objects."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        if started:
            tracemalloc.stop()


def set_floor() -> None:
    """Bytes counted before a test made anything (the workspace, other tests' leftovers),
    after a collection (cheap under ``tracing()``, which froze the older objects)."""
    gc.collect()
    _FLOOR[0] = memory.memory_allocated()


def measure(thunk: Callable):
    """``(result, Excess)`` of one run of ``thunk``."""
    with IntervalMeter(_FLOOR[0]) as m:
        result = thunk()
    return result, m.result


# NumPy's loop buffer, capped by the core (ops/tensor_iterator.py): the one temporary no
# kernel can route through the allocator, a constant 8 KiB in float64 however large the tensors.
# test_byte_accounting.py::test_numpy_loop_buffer_is_capped measures it.
LOOP_BUFFER_BYTES = 8 * LOOP_BUFFER_ELEMENTS


def fwd_bwd(run: Callable, inputs: list):
    """Measure forward then backward of ``run(*inputs)`` with a gradient of ones (after one
    warm-up run): the two Excess records of ``measure``."""
    out = run(*inputs)
    g = ipt.tensor(np.ones(tuple(out.shape)), dtype=out.dtype)
    out.backward(g)
    for t in inputs:
        t.grad = None
    del out
    out, fwd = measure(lambda: run(*inputs))
    _, bwd = measure(lambda: out.backward(g))
    return fwd, bwd


def allowed(peak: int) -> int:
    """The issue's limit, 2% of the op's peak memory or 4 KiB, plus one NumPy loop buffer."""
    return max(4096, peak // 50) + LOOP_BUFFER_BYTES


def check(what: str, small: Excess, big: Excess, known: int = 0,
          must_exceed: bool = True) -> None:
    """``big``'s worst interval, less the Python objects ``small`` measured, within the limit.
    ``known``: the measured size of a temporary the test names as not counted yet; the check
    fails once it is gone, so the test's table only shrinks (``must_exceed=False``: a
    temporary whose share of the peak sits near the limit, so it may fall either side)."""
    overhead = max(small.worst, 0)
    excess = big.worst - overhead
    limit = allowed(big.peak)
    fail = OtherThreadRan if small.others_ran or big.others_ran else AssertionError
    if excess > limit + known:
        raise fail(
            f"{what}: {excess:,} B not counted ({big.where}; peak {big.peak:,} B, "
            f"~{overhead:,} B of Python objects taken off, limit {limit:,} B"
            + (f" + {known:,} B named as not counted yet)" if known else ")")
            + (" while another thread ran" if fail is OtherThreadRan else ""))
    assert not known or not must_exceed or excess > limit, (
        f"{what}: now within the limit ({excess:,} B beyond the count): take it off the "
        f"table of temporaries not counted yet")
    if big.under > limit + max(small.under, 0):
        raise fail(f"{what}: {big.under:,} B counted that tracemalloc did not see")


RUNS = 5  # how often a test runs while other threads keep disturbing its measurements


def remeasured(test: Callable) -> Callable:
    """Run a measuring test again, up to ``RUNS`` times, while it fails only with
    ``OtherThreadRan``; any other failure, or the last run's, is the test's result."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        for attempt in range(1, RUNS + 1):
            try:
                return test(*args, **kwargs)
            except OtherThreadRan:
                if attempt == RUNS:
                    raise

    return run


def assert_alone(ok: bool, message: str, others: OtherThreads) -> None:
    """``assert ok, message`` for a test that reads tracemalloc without the meter: a failure
    while another thread ran raises ``OtherThreadRan`` (see ``remeasured``)."""
    if not ok:
        raise (OtherThreadRan if others.ran() else AssertionError)(message)
