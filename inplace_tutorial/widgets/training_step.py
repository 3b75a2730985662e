"""TrainingStep: one training step of a tiny classifier, one op at a time (no widgets here).

Raw leaf tensors, addmm, relu/relu_, log_softmax and a manual NLL, then backward, an SGD update
and zero_grad, each op recorded into one memory trace with its phase. The in-place switch picks
relu_, add_(alpha=) and set_to_none; off, it picks relu, sub(lr * g) and zero-filled grads.

Memory is counted from the step's own start (right before its first op), and only what the
step's ops allocate and free: data a later notebook cell loads between two clicks is not part
of the step, so it never shows up in the step's numbers.
"""
from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable

import inplace_tutorial as ipt
from inplace_tutorial import memory
from inplace_tutorial.memory import Trace

PHASES = ("forward", "backward", "update", "zero_grad")
PARAMS = ("W1", "b1", "W2", "b2")


class TrainingStep:
    """State of one step: ``phase``, ``op_index``, ``done`` (op names), ``trace``, ``peak``.

    ``trace.start_allocated`` is what was allocated right before the first op; ``held`` and
    ``peak_extra`` are bytes above it.
    """

    def __init__(self, inplace: bool = True, batch: int = 16, hidden: int = 8,
                 lr: float = 0.1, seed: int = 0):
        self.batch, self.hidden, self.lr, self.seed = batch, hidden, lr, seed
        self.inplace = inplace
        self.reset()

    # ------------------------------------------------------------------ the program
    def _program(self) -> list[tuple[str, str, Callable[[], None]]]:
        t, lr, n = self.t, self.lr, self.batch
        ops: list[tuple[str, str, Callable[[], None]]] = [
            ("forward", "h = torch.addmm(b1, X, W1)",
             lambda: t.__setitem__("h", ipt.addmm(t["b1"], t["X"], t["W1"]))),
        ]
        if self.inplace:
            ops.append(("forward", "a = h.relu_()   # a is h",
                        lambda: t.__setitem__("a", t["h"].relu_())))
        else:
            ops.append(("forward", "a = h.relu()", lambda: t.__setitem__("a", t["h"].relu())))
        ops += [
            ("forward", "z = torch.addmm(b2, a, W2)",
             lambda: t.__setitem__("z", ipt.addmm(t["b2"], t["a"], t["W2"]))),
            ("forward", "logp = z.log_softmax(dim=1)",
             lambda: t.__setitem__("logp", t["z"].log_softmax(dim=1))),
            ("forward", "picked = logp * onehot",
             lambda: t.__setitem__("picked", t["logp"] * t["onehot"])),
            ("forward", f"loss = picked.sum() / -{n}",
             lambda: t.__setitem__("loss", t["picked"].sum().div(-n))),
            ("backward", "loss.backward()", lambda: t["loss"].backward()),
        ]
        for p in PARAMS:
            if self.inplace:
                ops.append(("update", f"{p}.add_({p}.grad, alpha=-lr)",
                            lambda p=p: t[p].add_(t[p].grad, alpha=-lr)))
            else:
                ops.append(("update", f"{p} = {p}.sub(lr * {p}.grad)",
                            lambda p=p: self._replace(p, t[p].sub(t[p].grad.mul(lr)))))
        if self.inplace:
            ops.append(("zero_grad", "p.grad = None for each p   (set_to_none=True)",
                        self._grads_to_none))
        else:
            ops.append(("zero_grad", "p.grad.zero_() for each p   (set_to_none=False)",
                        lambda: [t[p].grad.zero_() for p in PARAMS]))
        return ops

    def _replace(self, name: str, new) -> None:
        # An out-of-place update makes a new leaf; the old weights die when nothing holds them.
        old = self.t[name]
        new.requires_grad_(True)
        new.grad = old.grad
        self.t[name] = new

    def _grads_to_none(self) -> None:
        for p in PARAMS:
            self.t[p].grad = None

    # ------------------------------------------------------------------ stepping
    def reset(self) -> None:
        """A fresh model and batch (same seed, so both modes see the same numbers)."""
        self.t = {}  # drop the previous step's tensors before counting the new ones
        ipt.manual_seed(self.seed)
        n, h = self.batch, self.hidden
        with ipt.no_grad():
            X = ipt.randn(n, 4)
            labels = [i % 3 for i in range(n)]
            onehot = ipt.zeros(n, 3)
            for i, c in enumerate(labels):
                onehot[i, c] = 1.0
            self.t.update(X=X, onehot=onehot,
                          W1=ipt.randn(4, h).mul_(0.5), b1=ipt.zeros(h),
                          W2=ipt.randn(h, 3).mul_(0.5), b2=ipt.zeros(3))
        for p in PARAMS:
            self.t[p].requires_grad_(True)
        self.ops = self._program()
        self.op_index = 0
        self.done: list[str] = []
        self.held = 0  # bytes the step's ops hold now, above trace.start_allocated
        # Storages the step may free: the model and batch now, then whatever its ops allocate.
        self._owned = {x.untyped_storage().label for x in self.t.values()}
        self.trace = Trace(start_allocated=memory.memory_allocated())

    def set_inplace(self, inplace: bool) -> None:
        self.inplace = inplace
        self.reset()

    @property
    def phase(self) -> str:
        """Phase of the next op ("ready" before the first, "done" after the last)."""
        if self.op_index == 0:
            return "ready"
        if self.op_index >= len(self.ops):
            return "done"
        return self.ops[self.op_index][0]

    @property
    def current_op(self) -> str | None:
        """The op that ran last."""
        return self.done[-1] if self.done else None

    @property
    def peak(self) -> int:
        """Highest bytes allocated during the step (start + the step's own peak)."""
        return self.trace.peak

    @property
    def peak_extra(self) -> int:
        """The step's own peak: bytes above what was allocated right before its first op."""
        return self.trace.peak - self.trace.start_allocated

    @property
    def finished(self) -> bool:
        return self.op_index >= len(self.ops)

    def next_op(self) -> bool:
        """Run one op; False when the step is already complete."""
        if self.finished:
            return False
        if self.op_index == 0:
            # The step starts now: whatever other cells allocated since reset() is not ours.
            self.trace = Trace(start_allocated=memory.memory_allocated())
            self.held = 0
        phase, name, fn = self.ops[self.op_index]
        # The optimizer's ops run under no_grad, like torch.optim's step() and zero_grad().
        grad = contextlib.nullcontext() if phase in ("forward", "backward") else ipt.no_grad()
        with memory.record() as tr, memory.phase(phase), grad:
            fn()
        # Re-base the running totals on the step's own bytes (see the module docstring).
        events = []
        for e in tr.events:
            if e.kind == "alloc":
                self._owned.add(e.label)
            elif e.label in self._owned:
                self._owned.discard(e.label)
            else:
                # Not the step's: e.g. the cyclic garbage collector freeing an earlier cell's
                # tensors mid-op (it runs at other moments on other Python versions).
                continue
            self.held += e.nbytes if e.kind == "alloc" else -e.nbytes
            events.append(dataclasses.replace(
                e, allocated=self.trace.start_allocated + self.held))
        tr.events = events
        self.trace.extend(tr)
        self.op_index += 1
        self.done.append(name)
        return True

    def previous_op(self) -> bool:
        """Go back one op: replay the step from a fresh start (same seed) up to the op before.

        False when nothing has run yet.
        """
        if self.op_index == 0:
            return False
        target = self.op_index - 1
        self.reset()
        for _ in range(target):
            self.next_op()
        return True

    def run_phase(self, phase: str) -> int:
        """Run every op up to the end of ``phase`` (earlier phases first); returns ops run."""
        last = max(i for i, op in enumerate(self.ops) if op[0] == phase)
        ran = 0
        while self.op_index <= last:
            self.next_op()
            ran += 1
        return ran

    def run_all(self) -> None:
        while self.next_op():
            pass

    # ------------------------------------------------------------------ what to show
    def graph_root(self):
        for name in ("loss", "picked", "logp", "z", "a", "h"):
            if name in self.t:
                return name, self.t[name]
        return None, None

    def live_storages(self) -> list[tuple[str, list[str], int, str, int]]:
        """(storage name, tensor names, bytes, made by, version) for every named tensor."""
        rows: dict[int, list] = {}
        named = dict(self.t)
        named.update({f"{p}.grad": self.t[p].grad for p in PARAMS if self.t[p].grad is not None})
        for name, tensor in named.items():
            s = tensor.untyped_storage()
            if id(s) not in rows:
                rows[id(s)] = [f"S{len(rows)}", [], s.nbytes(), s.op, tensor._version]
            rows[id(s)][1].append(name)
        return [tuple(r) for r in rows.values()]
