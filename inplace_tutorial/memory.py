"""memory: the one allocator every storage goes through.

Counts bytes like ``torch.cuda.memory_allocated`` does, keeps the peak, and can record
an event trace (alloc/free, bytes, op, storage label, phase) for the timeline pictures, or
hand each event to an observer as it happens. Storages call ``_on_alloc``/``_on_free``;
nothing else touches the counters.
"""
from __future__ import annotations

import contextlib
import ctypes
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

_allocated = 0
_peak = 0
_recorders: list[Trace] = []
_observers: list[Callable[[Event], None]] = []
_phase: str | None = None
_op_stack: list[str] = []


@dataclass(frozen=True)
class Event:
    """One allocation or free, with the running total right after it."""

    kind: str  # "alloc" or "free" ("request" too, for observers only: see observe())
    nbytes: int
    label: str  # stable storage label, S0, S1 ...
    op: str  # op that created the storage
    phase: str | None
    allocated: int  # bytes allocated after this event


@dataclass
class Trace:
    """Events recorded inside ``with memory.record() as trace:``."""

    events: list[Event] = field(default_factory=list)
    start_allocated: int = 0
    marks: list[tuple[int, str]] = field(default_factory=list)  # (event index, phase entered)

    @property
    def peak(self) -> int:
        return max([self.start_allocated] + [e.allocated for e in self.events])

    @property
    def peak_index(self) -> int:
        """Index of the first event at which the peak is reached (-1: before any event)."""
        best, idx = self.start_allocated, -1
        for i, e in enumerate(self.events):
            if e.allocated > best:
                best, idx = e.allocated, i
        return idx

    def phases(self) -> list[str]:
        """Phases entered while recording, in order, even those that allocated nothing."""
        seen: list[str] = []
        for name in [m[1] for m in self.marks] + [e.phase for e in self.events]:
            if name is not None and name not in seen:
                seen.append(name)
        return seen

    def phase_peak(self, phase: str) -> int:
        return max((e.allocated for e in self.events if e.phase == phase), default=0)

    def alive_at(self, index: int) -> list[Event]:
        """Allocation events (made inside this trace) still alive right after event ``index``."""
        alive: dict[str, Event] = {}
        for e in self.events[: index + 1]:
            if e.kind == "alloc":
                alive[e.label] = e
            else:
                alive.pop(e.label, None)
        return sorted(alive.values(), key=lambda e: -e.nbytes)

    def extend(self, other: Trace) -> None:
        """Append another trace recorded right after this one (keeps its phase marks)."""
        offset = len(self.events)
        self.marks.extend((i + offset, name) for i, name in other.marks)
        self.events.extend(other.events)

    def summary(self) -> str:
        lines = [f"start {self.start_allocated:,} B, peak {self.peak:,} B, "
                 f"{len(self.events)} events"]
        for p in self.phases():
            lines.append(f"  {p:<10} peak {self.phase_peak(p):,} B")
        return "\n".join(lines)


def memory_allocated() -> int:
    """Bytes held by live storages right now."""
    return _allocated


def max_memory_allocated() -> int:
    """Highest ``memory_allocated()`` since start or the last ``reset_peak_memory_stats()``."""
    return _peak


def reset_peak_memory_stats() -> None:
    global _peak
    _peak = _allocated


@contextlib.contextmanager
def record() -> Iterator[Trace]:
    """Record every alloc/free event inside the block."""
    trace = Trace(start_allocated=_allocated)
    _recorders.append(trace)
    try:
        yield trace
    finally:
        _recorders.remove(trace)


@contextlib.contextmanager
def observe(callback: Callable[[Event], None]) -> Iterator[None]:
    """Call ``callback(event)`` whenever the count is about to change, inside the block.

    Between two calls ``memory_allocated()`` is constant, so an observer can ask what else
    the process allocated in that interval: tests/test_byte_accounting.py compares every
    interval with tracemalloc, which also sees the NumPy temporaries the count would miss.
    An allocation gives two events: "request" right before NumPy makes the buffer (the count
    not changed yet), then "alloc" once it is counted. A "free" comes right before NumPy gives
    the bytes back (from the buffer's weakref callback). Unobserved, this costs one test of an
    empty list per allocation and per free."""
    _observers.append(callback)
    try:
        yield
    finally:
        _observers.remove(callback)


@contextlib.contextmanager
def phase(name: str) -> Iterator[None]:
    """Label events inside the block with a phase name (forward, backward, update ...)."""
    global _phase
    old, _phase = _phase, name
    for t in _recorders:
        t.marks.append((len(t.events), name))
    try:
        yield
    finally:
        _phase = old


@contextlib.contextmanager
def op_scope(name: str) -> Iterator[None]:
    """Name the op that owns allocations inside the block (e.g. a layer's workspace)."""
    _op_stack.append(name)
    try:
        yield
    finally:
        _op_stack.pop()


def current_op(default: str) -> str:
    return _op_stack[-1] if _op_stack else default


def _on_request(nbytes: int, op: str) -> None:
    """A storage is about to make its buffer (called only while someone observes)."""
    ev = Event("request", nbytes, "", op, _phase, _allocated)
    for callback in _observers:
        callback(ev)


def _on_alloc(nbytes: int, storage, receipt) -> None:
    """Count an allocation. ``receipt.nbytes`` (what the free will give back) is set in the same
    statement as the count, so a KeyboardInterrupt can't separate the two: the count never goes
    negative or keeps bytes that were given back."""
    global _allocated, _peak
    _allocated, receipt.nbytes = _allocated + nbytes, nbytes
    if _allocated > _peak:
        _peak = _allocated
    if _recorders or _observers:
        _publish(Event("alloc", nbytes, storage.label, storage.op, _phase, _allocated))


def _on_free(nbytes: int, storage) -> None:
    global _allocated
    _allocated -= nbytes
    if _recorders or _observers:
        _publish(Event("free", nbytes, storage.label, storage.op, _phase, _allocated))


def _publish(ev: Event) -> None:
    for t in _recorders:
        t.events.append(ev)
    for callback in _observers:
        callback(ev)


# --------------------------------------------------------------------------- the C allocator
# Below the count, NumPy's buffers come from the C library's malloc. glibc gives a freed block
# of 128 KiB or more straight back to the kernel, and the next buffer of that size is handed
# out again one 4 KiB page at a time, each page faulted in and zeroed by the kernel. The core
# makes more short-lived activation-sized buffers than PyTorch's fused kernels do (a kernel's
# temporaries are separate NumPy buffers here), so it paid that price on almost every one: a
# Transformer block's forward+backward made about 1,700 page faults a step (PyTorch's: 60),
# about a tenth of its time. Asking malloc to keep freed memory for reuse removes them. What
# ``memory_allocated()`` counts doesn't change; the process just keeps pages it will reuse.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameter numbers (malloc.h)


def _keep_freed_pages() -> None:
    """glibc only: serve blocks up to 32 MiB from the heap, and shrink the heap only when
    128 MiB at its top are free (elsewhere, or without mallopt: nothing to do)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return
    mallopt(_M_MMAP_THRESHOLD, 32 << 20)
    mallopt(_M_TRIM_THRESHOLD, 128 << 20)


_keep_freed_pages()
