"""What a real PyTorch graph saved: every node's ``_raw_saved_*`` tensors and their versions.

``SavedTensor.data`` gives the tensor a node holds without PyTorch's version check, and
``node._saved_<name>`` runs that check: it returns the tensor when nothing changed and raises
the version-counter error (which names both versions) when something did. This module works
on the objects it is given and never imports torch itself, so ``ipt.viz`` can use it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

VERSION_ERROR = re.compile(
    r"one of the variables needed for gradient computation has been modified by an inplace "
    r"operation: \[(?P<tensor>[^\]]*\]?)\](?:, which is output (?P<output>\d+) of "
    r"(?P<producer>[^,]+),)? is at version (?P<current>\d+); expected version (?P<saved>\d+)")

_fields: dict[type, tuple[str, ...]] = {}


@dataclass
class SavedRef:
    """One tensor a node saved: ``node._saved_<field>``, and where it stands now."""

    node: object
    field: str  # "self", "result", "mat2", "tensors[1]" ...
    tensor: object | None  # the saved tensor (None once backward freed it)
    saved_version: int | None
    current_version: int | None
    message: str | None = None  # PyTorch's text when unpacking it raises

    @property
    def freed(self) -> bool:
        return self.tensor is None

    @property
    def stale(self) -> bool:
        return not self.freed and self.saved_version != self.current_version


def is_torch_tensor(obj) -> bool:
    """True for torch.Tensor (and Parameter) without importing torch."""
    return any(c.__module__.startswith("torch") and c.__name__ == "Tensor"
               for c in type(obj).__mro__)


def saved_fields(node) -> tuple[str, ...]:
    """The names after ``_raw_saved_`` that this node type has (cached per type)."""
    kind = type(node)
    if kind not in _fields:
        _fields[kind] = tuple(a[len("_raw_saved_"):] for a in dir(node)
                              if a.startswith("_raw_saved_"))
    return _fields[kind]


def _check(node, field: str) -> tuple[bool, str | None]:
    """(unpacks cleanly, PyTorch's error text) for ``node._saved_<field>``."""
    try:
        getattr(node, "_saved_" + field)
    except RuntimeError as err:
        return False, str(err)
    return True, None


def saved_refs(node) -> list[SavedRef]:
    """Every tensor ``node`` saved for backward, with saved and current versions."""
    out = []
    for field in saved_fields(node):
        try:
            raw = getattr(node, "_raw_saved_" + field)
        except RuntimeError:
            continue
        items = list(enumerate(raw)) if isinstance(raw, (list, tuple)) else [(None, raw)]
        ok, message = None, None
        for i, sv in items:
            name = field if i is None else f"{field}[{i}]"
            try:
                t = sv.data
            except RuntimeError:  # freed by a backward without retain_graph
                out.append(SavedRef(node, name, None, None, None))
                continue
            if t is None:  # an optional input that was not given
                continue
            if ok is None:
                ok, message = _check(node, field)
            now = t._version
            saved = now
            if not ok:
                m = VERSION_ERROR.search(message or "")
                # A list field raises for its first stale member; the others stay clean.
                if m and int(m["current"]) == now:
                    saved = int(m["saved"])
            out.append(SavedRef(node, name, t, saved, now, None if saved == now else message))
    return out


def walk(roots) -> list:
    """Every node reachable from ``roots`` (nodes), each once, roots first."""
    order, seen, stack = [], set(), [r for r in roots if r is not None]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)  # keeps the wrapper alive, so ids stay unique
        stack.extend(n for n, _ in reversed(node.next_functions) if n is not None)
    return order


def storage_key(t) -> int | None:
    """The storage's address: tensors sharing it (views, detach, .data) share this key.

    Computed from the tensor's own address and offset (cheaper than ``untyped_storage()``,
    which builds a Python object); None for a tensor without memory.
    """
    ptr = t.data_ptr()
    return ptr - t.storage_offset() * t.element_size() if ptr else None


def saved_lines(node) -> tuple[list[str], bool]:
    """Lines for a graph picture (``result: saved v0, now v1 STALE``) and whether any is stale."""
    lines, stale = [], False
    for r in saved_refs(node):
        if r.freed:
            lines.append(f"{r.field}: freed after backward")
        elif r.stale:
            stale = True
            lines.append(f"{r.field}: saved v{r.saved_version}, now v{r.current_version} STALE")
        else:
            lines.append(f"{r.field}: saved v{r.saved_version}, now v{r.current_version}")
    return lines, stale
