"""profile_step: one training step on the memory timeline, every storage given a role.

The step runs inside ``ipt.memory.record()`` in four phases (forward, backward, update,
zero_grad). Each storage alive at the overall peak is labelled by the op that created it
and by a category: parameter, input, activation, saved tensor, grad, optimizer state or
temporary (scratch, im2col workspaces, gradients in flight).
"""
from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from . import memory
from .memory import Trace

CATEGORIES = ("parameter", "input", "activation", "saved tensor", "grad", "optimizer state",
              "temporary")
_WORKSPACE_OPS = ("(scratch)", "im2col", "col2im")


@dataclass(frozen=True)
class StorageInfo:
    label: str
    nbytes: int
    op: str
    category: str
    phase: str | None  # phase it was allocated in (None: before the step)


@dataclass
class StepProfile:
    trace: Trace
    phase_peaks: dict[str, int]
    peak: int
    alive_at_peak: list[StorageInfo]
    peak_phase: str | None
    loss: float
    saved_bytes: int  # everything the graph saved, at the end of forward
    largest_temporary: int  # the biggest single temporary allocation in the step
    baseline: int = 0  # bytes allocated before the step that belong to none of the above
    sizes: dict[str, int] = field(default_factory=dict)  # params / grads / state before

    def by_category(self) -> dict[str, int]:
        out = dict.fromkeys(CATEGORIES, 0)
        for s in self.alive_at_peak:
            out[s.category] += s.nbytes
        return out

    @property
    def step_peak(self) -> int:
        """The peak without unrelated storages that were alive before the step."""
        return self.peak - self.baseline

    def summary(self, top: int = 8) -> str:
        # One unit for the whole summary, the one the timeline picture's axis uses.
        def _mib(n: int, scale: int = 2 ** 20 if self.step_peak >= 2 * 2 ** 20 else 2 ** 10) -> str:
            return f"{n / scale:8.1f} {'MiB' if scale == 2 ** 20 else 'KiB'}"

        lines = [f"one training step: peak {_mib(self.step_peak)} "
                 f"(reached in {self.peak_phase}), loss {self.loss:.2f}"]
        for name, value in self.phase_peaks.items():
            lines.append(f"  {name:<10} peak {_mib(value - self.baseline)}")
        lines.append("alive at the peak, by category:")
        for cat, nbytes in self.by_category().items():
            if nbytes:
                lines.append(f"  {cat:<16} {_mib(nbytes)}")
        lines.append(f"largest storages at the peak (top {top}):")
        # no storage labels: S-numbers count every storage made before the step, so they
        # would change with anything allocated earlier
        for s in self.alive_at_peak[:top]:
            lines.append(f"  {_mib(s.nbytes)}  {s.category:<16} from {s.op}")
        return "\n".join(lines)


def saved_storages(root) -> dict[str, int]:
    """label -> nbytes of every storage a node below ``root`` (a grad_fn) has saved."""
    out: dict[str, int] = {}
    seen, stack = set(), [root]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        for saved in getattr(node, "_saved", {}).values():
            st = saved._storage
            if st is not None:
                out[st.label] = st.nbytes()
        stack.extend(fn for fn, _ in node.next_functions)
    return out


def _labels(tensors) -> set[str]:
    return {t.untyped_storage().label for t in tensors if t is not None}


def _state_tensors(optimizer) -> list:
    from .tensor import Tensor

    return [v for s in optimizer.state.values() for v in s.values() if isinstance(v, Tensor)]


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def profile_step(model, batch, loss_fn: Callable, optimizer,
                 zero_grad_set_to_none: bool = True) -> StepProfile:
    """Run forward, backward, optimizer.step() and zero_grad once, and explain the peak."""
    x, y = batch
    params = list(model.parameters())
    before: dict[str, StorageInfo] = {}

    def note(tensors, category):
        for t in tensors:
            if t is not None:
                st = t.untyped_storage()
                before.setdefault(st.label, StorageInfo(st.label, st.nbytes(), st.op, category,
                                                        None))

    note(params, "parameter")
    note(model.buffers(), "parameter")
    note([p.grad for p in params], "grad")
    note(_state_tensors(optimizer), "optimizer state")
    note([x, y], "input")
    sizes = {c: sum(s.nbytes for s in before.values() if s.category == c)
             for c in ("parameter", "grad", "optimizer state", "input")}
    gc.collect()  # garbage of earlier code must not be freed inside the measured step
    baseline = memory.memory_allocated() - sum(sizes.values())

    with memory.record() as trace, _gc_paused():
        with memory.phase("forward"):
            loss = loss_fn(model(x), y)
        saved = saved_storages(loss.grad_fn)
        with memory.phase("backward"):
            loss.backward()
        grads = _labels(p.grad for p in params)
        with memory.phase("update"):
            optimizer.step()
        state = _labels(_state_tensors(optimizer))
        with memory.phase("zero_grad"):
            optimizer.zero_grad(set_to_none=zero_grad_set_to_none)

    def category(e) -> str:
        if any(w in e.op for w in _WORKSPACE_OPS):
            return "temporary"
        if e.label in saved:
            return "saved tensor"
        if e.label in grads:
            return "grad"
        if e.label in state:
            return "optimizer state"
        return "activation" if e.phase == "forward" else "temporary"

    idx = trace.peak_index
    freed_before_peak = {e.label for e in trace.events[:idx + 1] if e.kind == "free"}
    alive = [s for label, s in before.items() if label not in freed_before_peak]
    alive += [StorageInfo(e.label, e.nbytes, e.op, category(e), e.phase)
              for e in trace.alive_at(idx)]
    alive.sort(key=lambda s: -s.nbytes)
    temporaries = [e.nbytes for e in trace.events if e.kind == "alloc" and category(e) ==
                   "temporary"]
    return StepProfile(
        trace=trace, phase_peaks={p: trace.phase_peak(p) for p in trace.phases()},
        peak=trace.peak, alive_at_peak=alive,
        peak_phase=trace.events[idx].phase if idx >= 0 else None, loss=float(loss.item()),
        saved_bytes=sum(saved.values()), largest_temporary=max(temporaries, default=0),
        baseline=baseline, sizes=sizes)


__all__ = ["CATEGORIES", "StepProfile", "StorageInfo", "profile_step", "saved_storages"]
