"""TrainingStepper: the ipywidgets face of ``TrainingStep`` (one training step, op by op).

Buttons run a phase, one op, or go one op back; a switch picks the in-place or the out-of-place
variants. It shows what the last click did, the graph so far, the memory timeline so far and the
live storages. Every byte count is the step's own, counted from right before its first op
(``TrainingStep``), so data loaded by other cells never leaks into the numbers.
"""
from __future__ import annotations

import html

import ipywidgets as W

from .. import viz
from ..viz import style as st
from . import _static
from .training_step import PARAMS, PHASES, TrainingStep

__all__ = ["PARAMS", "PHASES", "TrainingStep", "TrainingStepper"]

_LABELS = {"forward": "Forward", "backward": "Backward", "update": "Update",
           "zero_grad": "Zero grad", "back": "Back one op", "next": "Next op",
           "reset": "Reset"}
# Buttons keep their natural width (no "Forw…") and the row wraps in a narrow window.
_BUTTON = {"width": "auto", "flex": "0 0 auto"}
_ROW = {"flex_flow": "row wrap", "align_items": "center"}
# Pictures at their own pixel size (sharp), left-aligned, and never wider than the cell.
_PICTURE = {"width": "auto", "max_width": "100%", "align_self": "flex-start"}
# The graph of a full step is tall: it scrolls inside a box, so the buttons stay in view.
_GRAPH_BOX = {"max_height": "520px", "overflow": "auto", "width": "100%"}


def _bytes(n: int) -> str:
    return f"{n:,} B"


class TrainingStepper(W.VBox):
    """Forward / Backward / Update / Zero grad / Back one op / Next op / Reset, an in-place
    switch, and live pictures. ``.step`` is the TrainingStep; ``.peaks`` holds the last complete
    step's own peak (bytes above its start) per mode.
    """

    def __init__(self, inplace: bool = True, **model_kwargs):
        self.step = TrainingStep(inplace=inplace, **model_kwargs)
        self.peaks: dict[str, int] = {}
        self.buttons = {k: W.Button(description=v, layout=W.Layout(**_BUTTON))
                        for k, v in _LABELS.items()}
        self.toggle = W.ToggleButton(value=inplace, description="in-place ops",
                                     layout=W.Layout(**_BUTTON),
                                     tooltip="relu_ / add_(alpha=) / set_to_none vs "
                                             "relu / sub(lr*g) / zero_()")
        self.message = W.HTML()
        self.status = W.HTML()
        self.compare = W.HTML()
        self.storages = W.HTML()
        self.graph_image = W.Image(format="png", layout=W.Layout(**_PICTURE))
        self.graph_empty = W.HTML()
        self.timeline_image = W.Image(format="png", layout=W.Layout(**_PICTURE))
        self.timeline_empty = W.HTML()
        for key, button in self.buttons.items():
            button.on_click(lambda _b, key=key: self._on(key))
        self.toggle.observe(self._on_toggle, names="value")
        graph_box = W.VBox([self.graph_empty, self.graph_image], layout=W.Layout(**_GRAPH_BOX))
        timeline_box = W.VBox([self.timeline_empty, self.timeline_image])
        self.pictures = W.Tab(children=[graph_box, timeline_box, self.storages])
        for i, name in enumerate(("graph so far", "memory timeline", "live storages")):
            self.pictures.set_title(i, name)
        super().__init__([W.HBox([*self.buttons.values(), self.toggle], layout=W.Layout(**_ROW)),
                          self.message, self.status, self.compare, self.pictures])
        self._said = "Click Forward (or Next op) to start the step."
        self.refresh()

    # ------------------------------------------------------------------ clicks
    def _on(self, key: str) -> None:
        s = self.step
        # The first op starts a new trace, so only a running step has events to keep.
        before, held, seen = s.op_index, s.held, len(s.trace.events) if s.op_index else 0
        if key == "reset":
            s.reset()
            said = "Reset: a fresh model and batch; the step starts again at op 0."
        elif key == "back":
            said = (f"Back one op: replayed the step up to op {s.op_index - 1}."
                    if s.previous_op() else "Nothing to undo: no op has run yet.")
        elif key == "next":
            said = self._ran(before, held, seen, "Next op") if s.next_op() else \
                "The step is complete: press Reset for a new step, or Back one op."
        else:
            ran = s.run_phase(key)
            label = _LABELS[key]
            said = self._ran(before, held, seen, label) if ran else (
                f"{label} already ran in this step (the step is at "
                f"{'the end' if s.finished else 'phase ' + s.phase}): press Reset for a new "
                f"step, or Back one op.")
        self._said = said
        self.refresh()

    def _ran(self, before: int, held: int, seen: int, label: str) -> str:
        """What the click did: ops run, bytes allocated and freed, net change."""
        s = self.step
        n = s.op_index - before
        new = s.trace.events[seen:]
        alloc = sum(e.nbytes for e in new if e.kind == "alloc")
        freed = sum(e.nbytes for e in new if e.kind == "free")
        delta = s.held - held  # reset() and the first op both start the count at 0
        if not alloc:
            what = "allocated nothing: 0 B"
        else:
            what = f"allocated {_bytes(alloc)}"
        if freed:
            what += f", freed {_bytes(freed)}"
        what += ("; the step holds as much as before" if delta == 0 else
                 f"; the step now holds {_bytes(abs(delta))} {'more' if delta > 0 else 'less'}")
        end = " The step is complete." if s.finished else ""
        return (f"{label}: ran {n} op{'s' if n != 1 else ''} "
                f"(last: <code>{html.escape(s.current_op or '')}</code>); {what}.{end}")

    def _on_toggle(self, change) -> None:
        self.step.set_inplace(change["new"])
        self._said = (f"Switched to {self._mode()} ops: a fresh step (same seed, same "
                      f"numbers); click Forward to start.")
        self.refresh()

    def _mode(self) -> str:
        return "in-place" if self.step.inplace else "out-of-place"

    # ------------------------------------------------------------------ drawing
    def _status_text(self) -> str:
        s = self.step
        op = s.current_op or "nothing yet"
        return (f"{self._mode()} · phase {s.phase} · op {s.op_index}/{len(s.ops)}: {op} · "
                f"held by the step {_bytes(s.held)} · step peak {_bytes(s.peak_extra)}")

    def _compare_text(self) -> str:
        if len(self.peaks) < 2:
            done = ", ".join(f"{m} {_bytes(p)}" for m, p in sorted(self.peaks.items()))
            return ("Step peaks (bytes above the step's start): "
                    + (done + "; finish a step in the other mode to compare" if done
                       else "finish a step in each mode to compare"))
        inp, out = self.peaks["in-place"], self.peaks["out-of-place"]
        diff = out - inp
        verdict = (f"in-place saves {_bytes(diff)} ({diff / out:.0%} of the out-of-place peak)"
                   if diff > 0 else f"in-place costs {_bytes(-diff)} more" if diff < 0
                   else "no difference")
        return (f"Step peaks (bytes above the step's start): in-place {_bytes(inp)} · "
                f"out-of-place {_bytes(out)} · {verdict}")

    def refresh(self) -> None:
        s = self.step
        if s.finished:
            self.peaks[self._mode()] = s.peak_extra
        self.message.value = _static.status_line(self._said, "info")
        self.status.value = _static.status_line(html.escape(self._status_text()), "ok")
        self.compare.value = _static.status_line(html.escape(self._compare_text()), "info")
        # Before the first op there is nothing to draw: a line of text in the theme's colours,
        # not an empty white picture.
        empty = _static.status_line("No op has run yet: the graph and the memory timeline "
                                    "appear with the first op.", "info")
        png = self._graph_png()
        self._show(self.graph_empty, self.graph_image, empty, png)
        self._show(self.timeline_empty, self.timeline_image, empty, viz.to_png(
            viz.memory_timeline(s.trace, title=f"{self._mode()}: memory during the step so far"))
            if s.op_index else None)
        rows = [[lab, html.escape(", ".join(ns)), st.fmt_bytes(nb), html.escape(op), str(v)]
                for lab, ns, nb, op, v in s.live_storages()]
        self.storages.value = _static.table(
            ["storage", "tensors", "bytes", "made by", "version"], rows)

    @staticmethod
    def _show(placeholder: W.HTML, image: W.Image, text: str, png: bytes | None) -> None:
        if png is None:
            placeholder.value = text
            placeholder.layout.display, image.layout.display = None, "none"
        else:
            image.value = png
            placeholder.layout.display, image.layout.display = "none", None

    def _graph_png(self) -> bytes | None:
        name, root = self.step.graph_root()
        if root is None:
            return None
        names = {p: self.step.t[p] for p in PARAMS}
        return viz.to_png(viz.graph_diagram(root, names=names, root_name=name))

    # ------------------------------------------------------------------ static fallback
    def _repr_mimebundle_(self, **kwargs):
        view = super()._repr_mimebundle_(**kwargs) or {}
        s = self.step
        lines = [self._status_text(), self._compare_text()]
        if not s.op_index:
            lines.append("The graph and the memory timeline appear with the first op.")
        png = _static.card([*_LABELS.values(), "in-place ops"], lines,
                           self.graph_image.value if s.op_index else None)
        plain = f"TrainingStepper (interactive: run the cell to use it): {self._status_text()}"
        return _static.mimebundle(view, plain, png)
