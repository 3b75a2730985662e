"""HazardLab: predict whether an in-place op breaks backward, then run it for real.

The learner picks a forward op (y = f(x)), an in-place op and whether it hits the input x or
the output y, predicts "will it fail?", and ``run_experiment`` does it on the core: the
explanation from ``ipt.autograd.explain`` taken just before the in-place op, the saved
tensors' versions, and the real outcome (gradients, or the real RuntimeError text).
"""
from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field

import ipywidgets as W

import inplace_tutorial as ipt

from . import _static

# name -> (code shown to the learner, y = f(x, w)); w is a second leaf for binary ops.
FORWARD: dict[str, tuple[str, Callable]] = {
    "sigmoid": ("y = x.sigmoid()", lambda x, w: x.sigmoid()),
    "exp": ("y = x.exp()", lambda x, w: x.exp()),
    "relu": ("y = x.relu()", lambda x, w: x.relu()),
    "tanh": ("y = x.tanh()", lambda x, w: x.tanh()),
    "log": ("y = x.log()", lambda x, w: x.log()),
    "pow": ("y = x.pow(2)", lambda x, w: x.pow(2)),
    "mul": ("y = x * w", lambda x, w: x * w),
    "add": ("y = x + w", lambda x, w: x + w),
    "matmul": ("y = x @ w", lambda x, w: x @ w),
}
INPLACE: dict[str, Callable] = {
    "mul_(2)": lambda t: t.mul_(2),
    "add_(1)": lambda t: t.add_(1),
    "relu_()": lambda t: t.relu_(),
    "zero_()": lambda t: t.zero_(),
}
TARGETS = ("input x", "output y")


@dataclass
class Saved:
    node: str
    field: str
    saved_version: int
    current_version: int

    @property
    def stale(self) -> bool:
        return self.saved_version != self.current_version


@dataclass
class HazardResult:
    code: str  # the program that ran, line by line
    explanation: str  # str(ipt.autograd.explain(target)) just before the in-place op
    failed: bool
    stage: str | None  # "in-place op" or "backward" when it failed
    error: str | None
    saved: list[Saved] = field(default_factory=list)
    grads: dict[str, list] = field(default_factory=dict)
    predicted_fail: bool | None = None

    @property
    def prediction_correct(self) -> bool | None:
        return None if self.predicted_fail is None else self.predicted_fail == self.failed


def _saved_in_graph(root_fn) -> list[Saved]:
    out, seen, stack = [], set(), [root_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        for name, s in getattr(node, "_saved", {}).items():
            out.append(Saved(node.name(), name, s.version, s.current_version))
        stack.extend(n for n, _ in node.next_functions)
    return out


def run_experiment(forward: str, inplace: str, target: str,
                   predicted_fail: bool | None = None) -> HazardResult:
    """Build y = f(x) from leaves, mutate x or y in place, call backward; report everything."""
    code_y, f = FORWARD[forward]
    binary = "w" in code_y
    a = ipt.tensor([[0.5, 1.0], [1.5, 2.0]], requires_grad=True)
    w = ipt.tensor([[2.0, -1.0], [0.5, 3.0]], requires_grad=True)
    x = a.clone()  # a non-leaf, so an in-place op on it is allowed at all
    y = f(x, w)
    t, tname = (x, "x") if target == "input x" else (y, "y")
    lines = ["a = leaf 2x2 (requires_grad=True)"] + (["w = leaf 2x2 (requires_grad=True)"]
                                                      if binary else [])
    lines += ["x = a.clone()", code_y, f"{tname}.{inplace}",
              "y.sum().backward()"]
    explanation = str(ipt.autograd.explain(t))
    graph = y.grad_fn  # y's node before any in-place op re-bases it
    error, stage = None, None
    try:
        INPLACE[inplace](t)
    except RuntimeError as err:
        error, stage = str(err), "in-place op"
    saved = _saved_in_graph(graph)
    if error is None:
        try:
            y.sum().backward()
        except RuntimeError as err:
            error, stage = str(err), "backward"
    grads = {}
    if error is None:
        grads = {n: v.grad.tolist() for n, v in (("a", a), ("w", w))
                 if v.grad is not None and (n == "a" or binary)}
    return HazardResult("\n".join(lines), explanation, error is not None, stage, error, saved,
                        grads, predicted_fail)


def _saved_table(saved: list[Saved]) -> str:
    if not saved:
        return "<i>nothing in the graph saved a tensor</i>"
    rows = [[html.escape(s.node), html.escape(s.field), str(s.saved_version),
             str(s.current_version), "<b>STALE</b>" if s.stale else "ok"] for s in saved]
    return _static.table(["node", "saved", "saved at version", "version now", "state"], rows,
                         ["bad" if s.stale else "" for s in saved])


def _rounded(value) -> str:
    """Nested lists of floats, 4 decimals: [[0.1966, 0.105], ...]."""
    if isinstance(value, list):
        return "[" + ", ".join(_rounded(v) for v in value) + "]"
    return f"{value:.4g}"


_PRE = ("white-space: pre-wrap; word-break: normal; overflow-wrap: break-word; line-height: 1.4; "
        f"margin: 4px 0; {_static.TEXT}")


class HazardLab(W.VBox):
    """Dropdowns for the ops, a prediction, a Run button; ``.result`` after each run.

    Changing the scenario clears the prediction, so a guess is only ever graded against the
    scenario it was made for.
    """

    def __init__(self):
        self.forward = W.Dropdown(options=list(FORWARD), value="sigmoid", description="forward",
                                  layout=W.Layout(width="auto"))
        self.inplace = W.Dropdown(options=list(INPLACE), value="mul_(2)", description="in-place",
                                  layout=W.Layout(width="auto"))
        self.target = W.ToggleButtons(options=list(TARGETS), value="output y",
                                      description="apply to")
        self.prediction = W.RadioButtons(options=["backward works", "it fails"],
                                         value=None, description="predict")
        self.run_button = W.Button(description="Run", button_style="primary")
        self.output = W.HTML(layout=W.Layout(width="100%"))
        self.result: HazardResult | None = None
        self.run_button.on_click(lambda _b: self.run())
        for box in (self.forward, self.inplace, self.target):
            box.observe(self._scenario_changed, names="value")
        super().__init__([W.HBox([self.forward, self.inplace],
                                 layout=W.Layout(flex_flow="row wrap")),
                          self.target, self.prediction, self.run_button, self.output])

    def _scenario_changed(self, _change) -> None:
        self.prediction.value = None

    def run(self) -> HazardResult:
        predicted = None if self.prediction.value is None else self.prediction.value == "it fails"
        r = run_experiment(self.forward.value, self.inplace.value, self.target.value, predicted)
        self.result = r
        if r.failed:
            outcome = _static.status_line(
                f"<b>RuntimeError during the {r.stage}:</b>"
                f"<div style='{_PRE}'>{html.escape(r.error)}</div>", "error")
        else:
            grads = "".join(f"<div style='{_PRE}'>{n}.grad = {_rounded(g)}</div>"
                            for n, g in r.grads.items())
            outcome = _static.status_line(f"<b>backward succeeded</b>{grads}", "ok")
        verdict = ("<i>make a prediction first next time</i>" if r.prediction_correct is None
                   else "<b>your prediction was right</b>" if r.prediction_correct
                   else "<b>your prediction was wrong</b>")
        self.output.value = (
            f"<div style='{_PRE}; font-family: var(--jp-code-font-family, monospace)'>"
            f"{html.escape(r.code)}</div>{outcome}<p style='{_static.TEXT}'>{verdict}</p>"
            f"<p style='{_static.TEXT}'><b>Saved tensors after the in-place op</b></p>"
            f"{_saved_table(r.saved)}"
            f"<p style='{_static.TEXT}'><b>explain() just before the in-place op</b></p>"
            f"<div style='{_PRE}; font-family: var(--jp-code-font-family, monospace)'>"
            f"{html.escape(r.explanation)}</div>")
        # The next run is a new question: it needs a new prediction.
        self.prediction.value = None
        return r

    def _repr_mimebundle_(self, **kwargs):
        view = super()._repr_mimebundle_(**kwargs) or {}
        fields = [f"forward: {self.forward.value}", f"in-place: {self.inplace.value}",
                  f"apply to: {self.target.value}", "predict: backward works / it fails", "Run"]
        r = self.result
        last = ("no run yet: pick the ops, predict, then press Run" if r is None
                else f"last run: RuntimeError during the {r.stage}" if r.failed
                else "last run: backward succeeded")
        png = _static.card(fields, [last])
        plain = f"HazardLab (interactive: run the cell to use it): {' | '.join(fields[:3])}; {last}"
        return _static.mimebundle(view, plain, png)
