"""The text ``detect_inplace()`` adds under PyTorch's version-counter error.

It finds the stale saved tensor in the live graph (the node whose ``_saved_<name>`` raises
the same error), traces that node back to the call that created it, and lists the recorded
writes that moved the tensor's storage from the saved version to the current one.
"""
from __future__ import annotations

from .frames import Site
from .record import Call, Recorder
from .saved import VERSION_ERROR, SavedRef, saved_refs, storage_key, walk


def find_stale(message: str, roots: list) -> SavedRef | None:
    """The saved tensor whose unpacking raises ``message``'s error (latest node first)."""
    want = VERSION_ERROR.search(message)
    if want is None:
        return None
    best = None
    for node in walk([t.grad_fn for t in roots if t.grad_fn is not None]):
        for ref in saved_refs(node):
            if not ref.stale:
                continue
            got = VERSION_ERROR.search(ref.message or "")
            if got and got.groupdict() == want.groupdict():
                # The engine runs later nodes first: the highest sequence number failed first.
                if best is None or node._sequence_nr() > best.node._sequence_nr():
                    best = ref
    return best


def _site_lines(user: Site | None, lib: Site | None, indent: str) -> list[str]:
    lines = []
    if user is not None:
        lines.append(f"{indent}    {user.source}")
    if lib is not None:
        lines.append(f"{indent}  inside {lib.label}")
        lines.append(f"{indent}    {lib.source}")
    return lines


def _at(call: Call) -> str:
    return f"at {call.user.where}" if call.user is not None else "(no user frame)"


def build(message: str, roots: list, rec: Recorder) -> str:
    """The report for one version-counter error, or a line saying what could not be found."""
    head = "detect_inplace():"
    ref = find_stale(message, roots)
    if ref is None:
        return (f"{head} could not find the stale saved tensor in a live graph recorded "
                "inside the manager (was the graph built before detect_inplace() started?)")
    node = ref.node
    lines = [f"{head} the in-place op that broke backward"]
    made = rec.creator(node)
    if made is None:
        lines.append(f"  saved: as {ref.field!r} by {node.name()}, created before "
                     "detect_inplace() started")
    else:
        lines.append(f"  saved: as {ref.field!r} by {node.name()}, created by {made.op} "
                     f"{_at(made)}")
        lines += _site_lines(made.user, made.lib, "  ")
    writes = rec.writes_to(storage_key(ref.tensor), ref.saved_version, ref.current_version)
    if not writes:
        lines.append(f"  modified: no in-place op was recorded between version "
                     f"{ref.saved_version} and {ref.current_version}; it ran outside "
                     "detect_inplace()")
        return "\n".join(lines)
    lines.append("  modified in place by:")
    for w in writes:
        lines.append(f"  - {w.call.op} {_at(w.call)} (version {w.before} -> {w.after})")
        lines += _site_lines(w.call.user, w.call.lib, "  ")
    return "\n".join(lines)
