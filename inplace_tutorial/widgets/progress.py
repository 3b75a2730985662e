"""Progress: a training-loop progress bar with loss and accuracy.

In a Jupyter kernel it is an ipywidgets IntProgress plus a label; anywhere else (a script,
pytest, CI logs) it prints plain text lines. ``train()`` calls it as
``progress(epoch=, step=, total=, loss=, acc=)`` (epochs counted from 1) and ``.close()`` at
the end.
"""
from __future__ import annotations

import base64
import sys
from typing import TextIO

from matplotlib.patches import Rectangle

from ..viz import style as st


def _bar_png(fraction: float, line: str) -> bytes:
    """A finished progress bar and its last line, as the stored notebook shows it."""
    width = max(3.0, st.text_width(len(line), 9) + 0.3)
    with st.style():
        fig = st.new_figure(width, 0.55)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, width)
        ax.set_ylim(0.55, 0)
        ax.axis("off")
        ax.add_patch(Rectangle((0.1, 0.06), 2.5, 0.14, fc="#EEEEEE", ec="#BDBDBD"))
        ax.add_patch(Rectangle((0.1, 0.06), 2.5 * min(max(fraction, 0.0), 1.0), 0.14,
                               fc=st.GOOD, ec="none"))
        ax.text(0.1, 0.38, line, fontsize=9, family=st.MONO, va="center")
        return st.to_png(fig)


def in_jupyter_kernel() -> bool:
    """True inside an IPython *kernel* (a notebook), not a terminal IPython or plain python."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    ip = get_ipython()
    return ip is not None and getattr(ip, "kernel", None) is not None


class Progress:
    """``mode``: "auto" (widget in a kernel, else text), "widget" or "text"."""

    def __init__(self, total: int, description: str = "training", *, mode: str = "auto",
                 file: TextIO | None = None, lines: int = 10):
        if mode not in ("auto", "widget", "text"):
            raise ValueError(f"mode must be 'auto', 'widget' or 'text', got {mode!r}")
        self.total, self.description = int(total), description
        self.widget = mode == "widget" or (mode == "auto" and in_jupyter_kernel())
        self.file = file if file is not None else sys.stdout
        self.lines = max(1, lines)  # text mode prints about this many lines per run
        self.step = 0
        self.text = ""
        self.closed = False
        self._printed_at = -1
        if self.widget:
            import ipywidgets as W
            from IPython.display import display

            self.bar = W.IntProgress(value=0, min=0, max=max(self.total, 1),
                                     description=description)
            self.label = W.Label()
            self.box = W.HBox([self.bar, self.label], layout=W.Layout(flex_flow="row wrap"))
            # Readable text instead of the widget repr; close() replaces the whole output with
            # a picture of the finished bar.
            view = self.box._repr_mimebundle_()
            view["text/plain"] = f"{description}: progress bar (live while the cell runs)"
            self._handle = display(view, raw=True, display_id=True)

    def __call__(self, epoch: int | None = None, step: int | None = None,
                 total: int | None = None, loss: float | None = None,
                 acc: float | None = None) -> None:
        if total is not None:
            self.total = int(total)
        if step is not None:
            self.step = int(step)
        parts = [] if epoch is None else [f"epoch {epoch}"]
        parts.append(f"step {self.step}/{self.total}")
        if loss is not None:
            parts.append(f"loss {float(loss):.4f}")
        if acc is not None:
            parts.append(f"acc {float(acc):.1%}")
        self.text = " · ".join(parts)
        if self.widget:
            self.bar.max = max(self.total, 1)
            self.bar.value = min(self.step, self.total)
            self.label.value = self.text
            return
        # Text mode: a line every ~1/lines of the run and at the end, not one per batch.
        every = max(1, self.total // self.lines)
        if self.step == self.total or self.step // every != self._printed_at // every:
            print(f"{self.description}: {self.text}", file=self.file, flush=True)
            self._printed_at = self.step

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.widget:
            self.bar.bar_style = "success" if self.step >= self.total else ""
            self.box.close()
            # The live bar goes away with its kernel: its output becomes a picture of the last
            # state, and the last line as text.
            line = f"{self.description}: {self.text or 'no steps'}"
            if self._handle is not None:
                self._handle.update({"text/plain": line, "image/png": base64.b64encode(
                    _bar_png(self.step / max(self.total, 1), line)).decode("ascii")}, raw=True)
            else:
                print(line, file=self.file, flush=True)
        elif self._printed_at != self.step:
            print(f"{self.description}: {self.text}", file=self.file, flush=True)
