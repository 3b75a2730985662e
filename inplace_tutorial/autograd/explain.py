"""Ask before you mutate: would an in-place op on ``t`` right now break backward?

``explain(t)`` lists every live graph node that saved a tensor over t's storage, with
the version it saved and the version now, and applies PyTorch's rules (leaf, view of a
leaf, multi-output view, no_grad view) the way ``check_inplace`` would.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..tensor import Tensor
from .saved_tensor import SavedTensor


@dataclass
class Holder:
    node: str  # e.g. "SigmoidBackward0"
    field: str  # "result", "self", "other" ...
    saved_version: int
    current_version: int
    shares_counter: bool  # False when saved through .data: autograd cannot see the bump

    @property
    def stale(self) -> bool:
        return self.shares_counter and self.saved_version != self.current_version


@dataclass
class Explanation:
    tensor: str
    version: int
    safe: bool
    holders: list[Holder] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        head = (f"{self.tensor} at version {self.version}: an in-place op now is "
                + ("SAFE" if self.safe else "NOT SAFE"))
        lines = [head]
        for h in self.holders:
            state = ("already stale: backward will fail" if h.stale else
                     "would go stale" if h.shares_counter else
                     "different version counter (.data): autograd would NOT notice")
            lines.append(f"  - {h.node} saved it as {h.field!r} at version {h.saved_version} "
                         f"(now {h.current_version}): {state}")
        if not self.holders:
            lines.append("  - no graph node holds a saved reference to this storage")
        lines += [f"  * {r}" for r in self.reasons]
        return "\n".join(lines)

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(str(self))


def saved_over(t) -> list[SavedTensor]:
    """Live, unreleased saved tensors that point into t's storage."""
    saved = t._storage._saved
    return [s for s in list(saved or ()) if not s._released and s._node() is not None]


def explain(t) -> Explanation:
    if not isinstance(t, Tensor):
        raise TypeError("explain() expects a tensor")
    holders, reasons = [], []
    for s in saved_over(t):
        node = s._node()
        holders.append(Holder(node.name(), s.field, s.version, s._vc.value, s._vc is t._vc))
        if s._vc is t._vc:
            reasons.append(f"{node.name()} needs {s.field!r} unchanged: an in-place op bumps the "
                           f"version to {t._vc.value + 1} and backward will raise")
    if t._requires_grad and t.is_leaf:
        reasons.append("t is a leaf that requires grad: in-place raises at once "
                       "(wrap updates in no_grad())")
    if t._base is not None and t._requires_grad and t._base.is_leaf and t._base._requires_grad:
        reasons.append("t is a view of a leaf that requires grad: in-place raises at once")
    if t._creation is not None:
        kind = "a multi-output view (unbind/split/chunk)" if t._creation == "multi" else \
            "a view created under no_grad"
        reasons.append(f"t is {kind}: in-place with grad enabled raises at once")
    blocking = [h for h in holders if h.shares_counter]
    safe = not blocking and not reasons
    if safe and not holders:
        reasons.append("nothing saved t for backward, so mutating it cannot break the graph")
    # shape and dtype, not the storage's label: S-numbers count every storage made before,
    # so they would change whenever an earlier cell (or the core) allocates differently
    label = f"{str(t.dtype).removeprefix('torch.')} tensor {list(t._shape)}"
    return Explanation(label, t._vc.value, safe, holders, reasons)


def inplace_safe(t) -> bool:
    """True when an in-place op on t now would neither raise nor break a later backward."""
    return explain(t).safe
