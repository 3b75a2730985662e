"""StrideExplorer: choose shape, stride and offset over a 12-cell storage, see the cells hit.

``StrideView`` is the logic: it parses the learner's text, calls the core's real
``as_strided`` on a real storage and keeps either the view or the error message (the core's
own RuntimeError text). ``StrideExplorer`` is the ipywidgets face, drawn with ``viz``.
"""
from __future__ import annotations

import html

import ipywidgets as W

import inplace_tutorial as ipt

from .. import viz


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
                f"{v.numel()} elements over {len(hits)} of {self.base.numel()} cells, "
                f"is_contiguous()={v.is_contiguous()}")
        if shared:
            text += f"; {shared} cells are read by more than one index"
        return text


class StrideExplorer(W.VBox):
    """Text boxes for shape / stride / offset, a message line and the storage picture."""

    def __init__(self, numel: int = 12):
        self.model = StrideView(numel)
        self.shape = W.Text(value="3, 4", description="shape")
        self.stride = W.Text(value="4, 1", description="stride")
        self.offset = W.Text(value="0", description="offset")
        self.message = W.HTML()
        self.image = W.Image(format="png")
        for box in (self.shape, self.stride, self.offset):
            box.observe(lambda _change: self.update(), names="value")
        super().__init__([W.HBox([self.shape, self.stride, self.offset]), self.message,
                          self.image])
        self.update()

    def update(self) -> None:
        ok = self.model.set(self.shape.value, self.stride.value, self.offset.value)
        colour = "#1E8449" if ok else "#C0392B"
        self.message.value = (f"<span style='color:{colour}'>"
                              f"{html.escape(self.model.describe())}</span>")
        views = {"x": self.model.base}
        if ok:
            views["view"] = self.model.view
        self.image.value = viz.to_png(viz.storage_diagram(views))
