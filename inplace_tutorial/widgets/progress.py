"""Progress: a training-loop progress bar with loss and accuracy.

In a Jupyter kernel it is an ipywidgets IntProgress plus a label; anywhere else (a script,
pytest, CI logs) it prints plain text lines. ``train()`` calls it as
``progress(epoch=, step=, total=, loss=, acc=)`` and ``.close()`` at the end.
"""
from __future__ import annotations

import sys
from typing import TextIO


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
            self.box = W.HBox([self.bar, self.label])
            display(self.box)

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
            # The live bar goes away with its kernel; leave the last line as plain output.
            print(f"{self.description}: {self.text or 'no steps'}", file=self.file, flush=True)
        elif self._printed_at != self.step:
            print(f"{self.description}: {self.text}", file=self.file, flush=True)
