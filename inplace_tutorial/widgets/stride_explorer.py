"""StrideExplorer: choose shape, stride and offset over a 12-cell storage, see the cells hit.

``StrideView`` is the logic: it parses the learner's text, calls the core's real
``as_strided`` on a real storage and keeps either the view or the error message (the core's
own RuntimeError text). ``StrideExplorer`` is the ipywidgets face, drawn with ``viz``.
"""
from __future__ import annotations

import asyncio
import html

import ipywidgets as W

import inplace_tutorial as ipt

from .. import viz
from . import _static

# Wait this long after a keystroke before redrawing: typing "3, 4" fast draws once, not per key.
DEBOUNCE_S = 0.15


def _ints(text: str, what: str) -> tuple[int, ...]:
    """'3, 4' -> (3, 4); anything that is not a whole number is the learner's error."""
    parts = [p for p in text.replace("(", " ").replace(")", " ").replace(",", " ").split()]
    out = []
    for p in parts:
        try:
            out.append(int(p))
        except ValueError:
            raise TypeError(f"{what} must be whole numbers, got {p!r}") from None
    return tuple(out)


def _count(n: int, noun: str) -> str:
    """1 element, 2 elements."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class StrideView:
    """``set(shape, stride, offset)`` from text; then ``.view`` or ``.error`` is set."""

    def __init__(self, numel: int = 12):
        self.base = ipt.arange(float(numel))
        self.view = None
        self.error: str | None = None
        self.set("3, 4", "4, 1", "0")

    def set(self, shape: str, stride: str, offset: str) -> bool:
        self.view, self.error = None, None
        try:
            size, strides = _ints(shape, "shape"), _ints(stride, "stride")
            offs = _ints(offset, "offset")
            if len(offs) != 1:
                raise TypeError(f"offset must be one whole number, got {offset!r}")
            (off,) = offs
            # Until the core rejects these itself (see .notes/CORE_BUGS.md), the same checks
            # and texts as torch.as_strided.
            if len(size) != len(strides):
                raise RuntimeError("mismatch in length of strides and shape")
            if off < 0:
                raise RuntimeError(f"Tensor: invalid storage offset {off}")
            self.view = self.base.as_strided(size, strides, off)
        except (RuntimeError, TypeError, ValueError) as err:
            self.error = f"{type(err).__name__}: {err}"
        return self.error is None

    def touched(self) -> dict[int, int]:
        """cell -> how many indices of the view read it."""
        if self.view is None:
            return {}
        hits = viz.storage.touches(tuple(self.view.shape), self.view.stride(),
                                   self.view.storage_offset())
        return {c: n for c, (n, _) in hits.items()}

    def describe(self) -> str:
        if self.view is None:
            return self.error or ""
        v = self.view
        hits = self.touched()
        shared = sum(1 for n in hits.values() if n > 1)
        text = (f"x.as_strided({tuple(v.shape)}, {v.stride()}, {v.storage_offset()}): "
                f"{_count(v.numel(), 'element')} over {len(hits)} of "
                f"{_count(self.base.numel(), 'cell')}, "
                f"is_contiguous()={v.is_contiguous()}")
        if shared:
            text += (f"; {_count(shared, 'cell')} {'is' if shared == 1 else 'are'} read by more "
                     f"than one index")
        return text


class StrideExplorer(W.VBox):
    """Text boxes for shape / stride / offset, a message line and the storage picture.

    A keystroke schedules one redraw ``DEBOUNCE_S`` later (inside a kernel's event loop; without
    one, e.g. in tests, it redraws at once); inputs that give the same view as the picture
    already shown draw nothing. ``redraws`` counts the pictures drawn.
    """

    def __init__(self, numel: int = 12):
        self.model = StrideView(numel)
        def field(value: str, name: str) -> W.Text:
            # Narrow fields that wrap onto a new line in a narrow window instead of clipping.
            return W.Text(value=value, description=name, style={"description_width": "4em"},
                          layout=W.Layout(width="13em", flex="0 1 auto"))

        self.shape, self.stride, self.offset = (field("3, 4", "shape"), field("4, 1", "stride"),
                                                field("0", "offset"))
        self.message = W.HTML(layout=W.Layout(width="100%"))
        # Own pixel size (sharp), pinned to the left: no stretching, no sideways jumps.
        self.image = W.Image(format="png", layout=W.Layout(width="auto", max_width="100%",
                                                           align_self="flex-start"))
        self.redraws = 0
        self._drawn: tuple | None = None
        self._pending = None
        for box in (self.shape, self.stride, self.offset):
            box.observe(lambda _change: self._schedule(), names="value")
        super().__init__([W.HBox([self.shape, self.stride, self.offset],
                                 layout=W.Layout(flex_flow="row wrap")),
                          self.message, self.image])
        self.update()

    def _schedule(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (plain Python, tests): draw now
            self.update()
            return
        if self._pending is not None:
            self._pending.cancel()
        self._pending = loop.call_later(DEBOUNCE_S, self.update)

    def update(self) -> None:
        self._pending = None
        ok = self.model.set(self.shape.value, self.stride.value, self.offset.value)
        v = self.model.view
        key = ((tuple(v.shape), v.stride(), v.storage_offset()) if ok else None,
               self.model.describe())
        if key == self._drawn:
            return
        self._drawn = key
        said = ("v = " if ok else "") + self.model.describe()
        self.message.value = _static.status_line(html.escape(said), "ok" if ok else "error")
        self.image.value = self._picture()
        self.redraws += 1

    def _picture(self) -> bytes:
        # One-letter names: the name column keeps its width whether or not the view exists,
        # so the storage strip never moves sideways when an input turns invalid.
        views = {"x": self.model.base}
        if self.model.view is not None:
            views["v"] = self.model.view
        return viz.to_png(viz.storage_diagram(views))

    def _repr_mimebundle_(self, **kwargs):
        view = super()._repr_mimebundle_(**kwargs) or {}
        fields = [f"{b.description}: {b.value}" for b in (self.shape, self.stride, self.offset)]
        png = _static.card(fields, [self.model.describe()], self.image.value)
        plain = ("StrideExplorer (interactive: run the cell to use it): "
                 + " | ".join(fields) + " -> " + self.model.describe())
        return _static.mimebundle(view, plain, png)
