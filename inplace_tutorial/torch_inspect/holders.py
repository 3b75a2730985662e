"""``explain(t)`` / ``inplace_safe(t)`` on real PyTorch tensors, in the core's words.

The saved tensors are read from PyTorch's graph: every node reachable from ``graph`` (the
outputs you will call backward on), from ``t.grad_fn``, and from the results recorded by an
active ``detect_inplace()``. A node "holds" t when it saved a tensor over t's storage. The
rules for leaves and special views are PyTorch's ``check_inplace``, as in the core.
"""
from __future__ import annotations

from collections.abc import Iterable

import torch

from ..autograd.explain import Explanation, Holder
from . import detect
from .saved import saved_refs, storage_key, walk

# Views that are one of several outputs: in-place on them with grad enabled raises at once.
_MULTI_OUTPUT = {"UnbindBackward0", "SplitBackward0", "SplitWithSizesBackward0",
                 "UnsafeSplitBackward0", "UnsafeSplitWithSizesBackward0"}


def _roots(t: torch.Tensor, graph) -> list:
    tensors = [t]
    if isinstance(graph, torch.Tensor):
        tensors.append(graph)
    elif graph is not None:
        tensors.extend(graph)
    tensors.extend(detect.active_outputs())
    return [x.grad_fn for x in tensors if x.grad_fn is not None]


def explain(t: torch.Tensor, graph: torch.Tensor | Iterable[torch.Tensor] | None = None
            ) -> Explanation:
    """Which live nodes saved t (or a tensor over its storage), and is in-place on t safe now.

    ``graph``: the output(s) whose backward you will run, e.g. ``explain(x, loss)``; nodes
    that consume ``t`` are only reachable from there.
    """
    if not isinstance(t, torch.Tensor):
        raise TypeError("explain() expects a tensor")
    key = storage_key(t)
    holders, reasons = [], []
    for node in walk(_roots(t, graph)):
        for ref in saved_refs(node):
            if ref.freed or key is None or storage_key(ref.tensor) != key:
                continue
            # A tensor from .data shares the storage but has its own counter; PyTorch does
            # not expose the counter itself, so a differing version is the visible sign.
            shares = ref.current_version == t._version
            holders.append(Holder(node.name(), ref.field, ref.saved_version,
                                  ref.current_version, shares))
            if shares:
                reasons.append(f"{node.name()} needs {ref.field!r} unchanged: an in-place op "
                               f"bumps the version to {t._version + 1} and backward will raise")
    if t.requires_grad and t.is_leaf and not t._is_view():
        reasons.append("t is a leaf that requires grad: in-place raises at once "
                       "(wrap updates in no_grad())")
    base = t._base
    if base is not None and t.requires_grad and base.is_leaf and base.requires_grad:
        reasons.append("t is a view of a leaf that requires grad: in-place raises at once")
    if t._is_view() and t.grad_fn is not None and t.grad_fn.name() in _MULTI_OUTPUT:
        reasons.append("t is a multi-output view (unbind/split/chunk): in-place with grad "
                       "enabled raises at once")
    elif t._is_view() and t.requires_grad and t.grad_fn is None:
        reasons.append("t is a view created under no_grad: in-place with grad enabled "
                       "raises at once")
    blocking = [h for h in holders if h.shares_counter]
    safe = not blocking and not reasons
    if safe and not holders:
        reasons.append("nothing saved t for backward, so mutating it cannot break the graph")
    label = f"tensor {list(t.shape)}"
    return Explanation(label, t._version, safe, holders, reasons)


def inplace_safe(t: torch.Tensor,
                 graph: torch.Tensor | Iterable[torch.Tensor] | None = None) -> bool:
    """True when an in-place op on t now would neither raise nor break a later backward."""
    return explain(t, graph).safe
