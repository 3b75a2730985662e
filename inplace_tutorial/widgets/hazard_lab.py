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
    rows = "".join(
        f"<tr style='color:{'#C0392B' if s.stale else 'inherit'}'><td>{s.node}</td>"
        f"<td>{s.field}</td><td>{s.saved_version}</td><td>{s.current_version}</td>"
        f"<td>{'STALE' if s.stale else 'ok'}</td></tr>" for s in saved)
    return ("<table><tr><th>node</th><th>saved</th><th>saved at version</th>"
            f"<th>version now</th><th></th></tr>{rows}</table>")


class HazardLab(W.VBox):
    """Dropdowns for the ops, a prediction, a Run button; ``.result`` after each run."""

    def __init__(self):
        self.forward = W.Dropdown(options=list(FORWARD), value="sigmoid", description="forward")
        self.inplace = W.Dropdown(options=list(INPLACE), value="mul_(2)", description="in-place")
        self.target = W.ToggleButtons(options=list(TARGETS), value="output y",
                                      description="apply to")
        self.prediction = W.RadioButtons(options=["backward works", "it fails"],
                                         value=None, description="predict")
        self.run_button = W.Button(description="Run", button_style="primary")
        self.output = W.HTML()
        self.result: HazardResult | None = None
        self.run_button.on_click(lambda _b: self.run())
        super().__init__([W.HBox([self.forward, self.inplace]), self.target, self.prediction,
                          self.run_button, self.output])

    def run(self) -> HazardResult:
        predicted = None if self.prediction.value is None else self.prediction.value == "it fails"
        r = run_experiment(self.forward.value, self.inplace.value, self.target.value, predicted)
        self.result = r
        if r.failed:
            outcome = (f"<b style='color:#C0392B'>RuntimeError during the {r.stage}:</b>"
                       f"<pre style='white-space:pre-wrap'>{html.escape(r.error)}</pre>")
        else:
            grads = "".join(f"<li>{n}.grad = {html.escape(str(g))}</li>"
                            for n, g in r.grads.items())
            outcome = f"<b style='color:#1E8449'>backward succeeded</b><ul>{grads}</ul>"
        verdict = ("<i>make a prediction first next time</i>" if r.prediction_correct is None
                   else "<b>your prediction was right</b>" if r.prediction_correct
                   else "<b>your prediction was wrong</b>")
        self.output.value = (
            f"<pre>{html.escape(r.code)}</pre>{outcome}<p>{verdict}</p>"
            f"<p><b>Saved tensors after the in-place op</b></p>{_saved_table(r.saved)}"
            f"<p><b>explain() just before the in-place op</b></p>"
            f"<pre>{html.escape(r.explanation)}</pre>")
        return r
