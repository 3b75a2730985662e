"""The version counter: one per storage lineage, shared by a tensor, its views and detach().

Every in-place op bumps it; a SavedTensor (autograd/saved_tensor.py) remembers the value it
saw and refuses to unpack once it moved. PyTorch keeps it in ``VariableVersion``
(c10/core/TensorImpl.h); inference tensors get none (``NoVersionCounter`` here). tensor.py
gives each tensor one; nothing here knows what a tensor is.
"""
from __future__ import annotations

from .modes import STATE, user_location


class VersionCounter:
    """Shared by a tensor, its views and detach(); bumped by every in-place op."""

    __slots__ = ("value", "history")
    tracked = True  # False: an inference tensor's (PyTorch gives those no counter at all)
    inference = False  # True: the tensors sharing it are inference tensors

    def __init__(self):
        self.value = 0
        self.history: list = []  # (new version, op, location), kept only in anomaly mode

    def bump(self, op: str = "") -> None:
        self.value += 1
        if STATE.anomaly:
            self.history.append((self.value, op, user_location()))

    def write(self, compute, op: str = "", *args, **kwargs) -> None:
        """Run ``compute(*args, **kwargs)`` (which writes the data) and count the write. The
        count goes up before the first byte is written, so an op interrupted half-way (a
        KeyboardInterrupt between two chunks) still says the data changed. Every check runs
        before ``compute``: an ordinary exception from it means nothing was written, so the
        count goes back. (The arguments save a fast path a lambda: ``write(np.add, "add_", a,
        b, out=a)``.)"""
        self.value += 1
        try:
            compute(*args, **kwargs)
        except Exception:
            self.value -= 1
            raise
        if STATE.anomaly:
            self.history.append((self.value, op, user_location()))


class NoVersionCounter(VersionCounter):
    """What tensors made in inference mode (and their views) share instead of a counter:
    ``_version`` raises and, outside inference mode, so does any in-place op (record.py)."""

    __slots__ = ()
    tracked = False
    inference = True


class DetachedInferenceCounter(VersionCounter):
    """detach()/.data of an inference tensor outside inference mode: PyTorch gives that one
    (still an inference tensor) a counter of its own; its views get none again."""

    __slots__ = ()
    inference = True


INFERENCE_VERSION = "Inference tensors do not track version counter."
