"""Storage diagrams: a storage's cells as a strip, with every tensor/view that looks into it.

A tensor is a window (shape, stride, offset) over a flat storage. Each view gets a coloured
track under the cells it touches, labelled with its geometry and version; a cell reached by
several indices (expand's stride 0) shows the count. ``snapshot()`` freezes values and
versions so a "before" picture survives an in-place op; ``compare_storages`` draws both.
"""
from __future__ import annotations

import itertools
import math
import weakref
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, Rectangle

from ..torch_inspect.layout import is_torch_tensor, storage_cells
from . import style as st

CELL_W, CELL_H, TRACK_H = 0.52, 0.36, 0.26
LEFT = 0.15
LABEL_FS, CELL_FS, TRACK_FS = 8.5, 8.5, st.SMALL

# Identity of a storage that is never reused (unlike id() or a data pointer), without
# keeping the storage alive: a snapshot must not change what the allocator counts.
_keys: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_next_key = itertools.count()
_torch_keys: dict[int, int] = {}  # a real torch storage's address -> key


def _storage_key(storage) -> int:
    if storage not in _keys:
        _keys[storage] = next(_next_key)
    return _keys[storage]


@dataclass(frozen=True)
class StorageState:
    key: int
    values: np.ndarray  # a copy of every cell, taken at snapshot time
    nbytes: int
    op: str


@dataclass(frozen=True)
class TensorState:
    name: str
    storage: StorageState
    shape: tuple
    stride: tuple
    offset: int
    version: int
    dtype: str


class Snapshot(dict):
    """name -> TensorState: tensors' geometry, values and versions at one moment."""


def snapshot(tensors: Mapping) -> Snapshot:
    """Capture values and versions now, so a later in-place op cannot change the picture."""
    snap, storages = Snapshot(), {}
    for name, t in tensors.items():
        if is_torch_tensor(t):  # real PyTorch (see torch_inspect.layout)
            address, values, nbytes = storage_cells(t)
            key = _torch_keys.setdefault(address, next(_next_key))
            storages.setdefault(key, StorageState(key, values, nbytes, "torch"))
        else:
            s = t.untyped_storage()
            key = _storage_key(s)
            if key not in storages:
                storages[key] = StorageState(key, np.array(s._array, copy=True), s.nbytes(),
                                             s.op)
        snap[name] = TensorState(name, storages[key], tuple(t.shape), tuple(t.stride()),
                                 t.storage_offset(), t._version, str(t.dtype).replace("torch.", ""))
    return snap


def _as_states(tensors) -> list[TensorState]:
    return list((tensors if isinstance(tensors, Snapshot) else snapshot(tensors)).values())


def touches(shape: tuple, stride: tuple, offset: int) -> dict[int, tuple[int, tuple]]:
    """cell -> (how many indices reach it, the first index that does).

    A dim of stride 0 sends all its indices to the same cells: it multiplies the counts and
    is 0 in every first index, so only the other dims are walked (a (10**6,) view of stride 0
    is one cell, reached 10**6 times, found at once)."""
    if 0 in shape:
        return {}
    walked = [d for d, (n, s) in enumerate(zip(shape, stride, strict=True)) if n > 1 and s]
    repeat = math.prod(n for n, s in zip(shape, stride) if not s)
    hits: dict[int, tuple[int, tuple]] = {}
    first = [0] * len(shape)
    for sub in np.ndindex(*(shape[d] for d in walked)):
        cell = offset + sum(i * stride[d] for i, d in zip(sub, walked))
        if cell in hits:
            n, idx = hits[cell]
        else:
            for i, d in zip(sub, walked):
                first[d] = i
            n, idx = 0, tuple(first)
        hits[cell] = (n + repeat, idx)
    return hits


def _fmt_value(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "T" if v else "F"
    if isinstance(v, (np.floating, float)):
        if np.isfinite(v) and float(v).is_integer() and abs(v) < 1e4:
            return f"{v:.0f}."
        return f"{v:.3g}"
    return str(v)


def _label(t: TensorState, old_version: int | None) -> str:
    version = f"v{t.version}" if old_version in (None, t.version) else \
        f"v{old_version}→v{t.version}"
    return (f"{t.name}  shape {list(t.shape)}  stride {t.stride}  "
            f"offset {t.offset}  {version}")


class _Canvas:
    """Lays out panels top to bottom in inch units; draws once the size is known."""

    def __init__(self, per_row: int):
        self.per_row = per_row
        self.y = 0.0  # grows downwards
        self.ops: list = []
        self.left = LEFT  # widened to fit the view names written left of their tracks
        self.right = per_row * CELL_W  # width right of ``left``

    def add(self, fn, *args) -> None:
        self.ops.append((fn, args))

    def render(self, title: str | None) -> Figure:
        height = self.y + (0.45 if title else 0.15)
        with st.style():
            width = self.left + self.right + 0.15
            fig = st.new_figure(width, height)
            ax = fig.add_axes((0, 0, 1, 1))
            ax.set_xlim(0, width)
            ax.set_ylim(height, 0)
            ax.axis("off")
            top = 0.4 if title else 0.1
            if title:
                ax.text(0.15, 0.22, title, fontsize=10, weight="bold", va="center")
            for fn, args in self.ops:
                fn(ax, top, self.left, *args)
        return fig


def _draw_panel(cv: _Canvas, states: list[TensorState], names: dict[int, str],
                colours: dict[str, str], heading: str | None,
                before: dict[int, StorageState] | None, old_versions: dict[str, int]) -> None:
    if heading:
        cv.add(lambda ax, top, left, y=cv.y: ax.text(0.15, top + y + 0.12, heading,
                                                     fontsize=9.5, weight="bold",
                                                     color=st.CELL_EDGE, va="center"))
        cv.y += 0.3
    groups: dict[int, list[TensorState]] = {}
    for t in states:
        groups.setdefault(t.storage.key, []).append(t)
    for key, views in groups.items():
        storage = views[0].storage
        is_new = before is not None and key not in before
        cv.add(_draw_head, cv.y, _head(names[key], views[0], is_new), is_new)
        cv.y += 0.28
        old = before.get(key) if before else None
        n = storage.values.size
        hits = [touches(v.shape, v.stride, v.offset) for v in views]
        for start in range(0, max(n, 1), cv.per_row):
            stop = min(n, start + cv.per_row)
            cv.add(_draw_cells, cv.y, storage, old, start, stop)
            cv.y += CELL_H + 0.2
            for v, h in zip(views, hits, strict=True):
                cv.add(_draw_track, cv.y, v, h, start, stop, colours[v.name])
                cv.y += TRACK_H + 0.04
        for v in views:
            cv.add(_draw_text_line, cv.y, _label(v, old_versions.get(v.name)), colours[v.name])
            cv.y += 0.2
        cv.y += 0.18


def _head(name: str, t: TensorState, is_new: bool) -> str:
    s = t.storage
    return (f"{name}: {s.values.size} × {t.dtype}, {st.fmt_bytes(s.nbytes)}, made by {s.op}"
            + ("   (NEW storage)" if is_new else ""))


def _draw_head(ax, top, left, y, text, is_new) -> None:
    ax.text(0.15, top + y + 0.12, text, fontsize=LABEL_FS + 0.5, va="center",
            family=st.MONO, color=st.CELL_EDGE,
            bbox=dict(boxstyle="round,pad=0.25", fc=st.NEW, ec="none") if is_new else None)


def _draw_cells(ax, top, left, y, storage: StorageState, old: StorageState | None,
                start: int, stop: int) -> None:
    y0 = top + y + 0.16
    for c in range(start, stop):
        x = left + (c - start) * CELL_W
        changed = old is not None and c < old.values.size and old.values[c] != storage.values[c]
        ax.add_patch(Rectangle((x, y0), CELL_W, CELL_H, fc=st.CHANGED if changed else "white",
                               ec=st.CELL_EDGE, lw=1.0))
        ax.text(x + CELL_W / 2, y0 + CELL_H / 2, _fmt_value(storage.values[c]),
                ha="center", va="center", fontsize=CELL_FS, family=st.MONO,
                weight="bold" if changed else "normal")
        ax.text(x + CELL_W / 2, y0 - 0.07, str(c), ha="center", va="bottom", fontsize=st.SMALL,
                color=st.MUTED)


def _draw_track(ax, top, left, y, v: TensorState, hits, start, stop, colour) -> None:
    y0 = top + y + 0.04
    ax.text(left - 0.1, y0 + (TRACK_H - 0.04) / 2, v.name, ha="right", va="center",
            fontsize=TRACK_FS + 0.5, family=st.MONO, color=colour, weight="bold")
    ink = st.ink_on(colour)
    for c in range(start, stop):
        if c not in hits:
            continue
        count, first = hits[c]
        x = left + (c - start) * CELL_W
        ax.add_patch(FancyBboxPatch((x + 0.04, y0), CELL_W - 0.08, TRACK_H - 0.04,
                                    boxstyle="round,pad=0,rounding_size=0.05", fc=colour,
                                    ec="none", alpha=0.9))
        text = f"×{count}" if count > 1 else (",".join(map(str, first)) or "·")
        ax.text(x + CELL_W / 2, y0 + (TRACK_H - 0.04) / 2, text, ha="center", va="center",
                fontsize=TRACK_FS, family=st.MONO, color=ink, weight="bold")


def _draw_text_line(ax, top, left, y, text, colour) -> None:
    ax.text(0.15, top + y + 0.1, "■ " + text, fontsize=LABEL_FS, family=st.MONO,
            color=colour, va="center")


def _layout(panels: list[list[TensorState]], per_row: int | None):
    names: dict[int, str] = {}
    colours: dict[str, str] = {}
    longest, widest = 0, 1
    for states in panels:
        for t in states:
            names.setdefault(t.storage.key, f"S{len(names)}")
            colours.setdefault(t.name, st.colour(len(colours)))
            longest = max(longest, len(_label(t, t.version - 1)) + 2,
                          len(_head("S00", t, True)))
            widest = max(widest, t.storage.values.size)
    if per_row is None:
        per_row = min(widest, 16)
    cv = _Canvas(per_row)
    cv.left = LEFT + st.text_width(max(map(len, colours), default=1), TRACK_FS + 0.5) + 0.15
    cv.right = per_row * CELL_W
    # The label lines may be wider than the strip: widen the canvas to fit them.
    cv.right = max(cv.right, st.text_width(longest, LABEL_FS) + 0.1 - cv.left)
    return names, colours, cv


def storage_diagram(tensors, *, title: str | None = None,
                    per_row: int | None = None) -> Figure:
    """Draw each storage behind ``tensors`` ({name: tensor} or a ``snapshot``).

    Storages are named S0, S1 ... in order of first appearance in this drawing.
    """
    states = _as_states(tensors)
    names, colours, cv = _layout([states], per_row)
    _draw_panel(cv, states, names, colours, None, None, {})
    return cv.render(title)


def compare_storages(before, after, *, title: str | None = None,
                     per_row: int | None = None) -> Figure:
    """Before/after pictures with one naming: new storages and changed cells stand out.

    ``before`` should be a ``snapshot(...)`` taken before the op; ``after`` a snapshot or
    {name: tensor}. ``y = x + 5`` shows a NEW storage; ``x.add_(5)`` the same cells with new
    values and the version going up.
    """
    b, a = _as_states(before), _as_states(after)
    names, colours, cv = _layout([b, a], per_row)
    _draw_panel(cv, b, names, colours, "before", None, {})
    old_storages = {t.storage.key: t.storage for t in b}
    old_versions = {t.name: t.version for t in b}
    _draw_panel(cv, a, names, colours, "after", old_storages, old_versions)
    return cv.render(title)
