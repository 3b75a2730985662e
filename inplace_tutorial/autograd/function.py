"""The derivative registry and the two ways an op records itself into the graph.

``derivative(...)`` registers, per op, the PyTorch node name, the differentiable inputs,
what to save (and on which condition) and the backward formula: our derivatives.yaml.
``record`` is called by out-of-place ops after computing; ``record_inplace`` wraps an
in-place op: checks first, clones what backward needs from the old self, mutates, bumps
the version, then rebases history (CopySlices when self is a view).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import grad_mode, graph
from .graph import AccumulateGrad, Node, SavedTensor, _producer_text, any_requires_grad, edge

Backward = Callable[[Node, Any], tuple]


@dataclass
class Formula:
    op: str
    node: str
    inputs: tuple[str, ...]
    saves: dict[str, str | None]  # saved name -> input whose requires_grad triggers it
    backward: Backward
    multi_output: bool = False
    node_cls: type = field(default=Node, repr=False)


DERIVATIVES: dict[str, Formula] = {}


def derivative(op: str, node: str, inputs: tuple[str, ...] = ("self",),
               saves: dict[str, str | None] | None = None, multi_output: bool = False,
               qualified: bool = False):
    """Register the backward formula of ``op`` (a decorator on the formula).

    ``qualified``: a hand-written PyTorch node whose name() is "torch::autograd::<node>"."""

    def deco(fn: Backward) -> Backward:
        f = Formula(op, node, tuple(inputs), dict(saves or {}), fn, multi_output)
        body = {"_formula": f, "__slots__": ()}
        if qualified:
            body["name"] = lambda self: f"torch::autograd::{node}"
        f.node_cls = type(node, (Node,), body)
        DERIVATIVES[op] = f
        return fn

    return deco


def _meta(v):
    return (v._shape, v.dtype) if isinstance(v, graph.Tensor) else None


def _save(node: Node, key: str, value, producer: str | None, is_output: bool = False,
          requires_grad: bool | None = None) -> None:
    if isinstance(value, graph.Tensor):
        node._saved[key] = SavedTensor(value, key, node, producer, is_output, requires_grad)
    else:
        node._attrs[key] = value
        if key in node._formula.inputs:
            node._saved_scalar = True  # PyTorch saves a wrapped Python scalar as a variable


def _wants(formula: Formula, key: str, inputs: dict) -> bool:
    cond = formula.saves[key]
    if cond is None:
        return True
    v = inputs.get(cond)
    return getattr(v, "_requires_grad", False)


def record(op: str, out, inputs: dict, **attrs):
    """Attach a node to ``out`` (a tensor or tuple of differentiable outputs) if needed."""
    if not grad_mode._state["enabled"] or not any_requires_grad(inputs.values()):
        return out
    f = DERIVATIVES[op]
    outs = out if isinstance(out, tuple) else (out,)
    node = f.node_cls(tuple(edge(inputs.get(n)) for n in f.inputs), len(outs))
    node._input_meta = [_meta(inputs.get(n)) for n in f.inputs]
    node._attrs.update(attrs)
    for key in f.saves:
        if not _wants(f, key, inputs):
            continue
        if key == "result":
            _save(node, key, outs[0], _producer_text(outs[0], node, 0), is_output=True,
                  requires_grad=True)
        else:
            value = inputs[key] if key in inputs else attrs.get(key)
            _save(node, key, value, _producer_text(value) if hasattr(value, "_grad_fn") else None)
    for i, o in enumerate(outs):
        if o.dtype.category == 2:  # only floating-point outputs carry gradients
            o._grad_fn, o._requires_grad, o._output_nr = node, True, i
    return out


NO_GRAD_VIEW = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace "
    "to be tracked)."
)


def check_inplace(t) -> None:
    """PyTorch's check_inplace: the errors an in-place op raises before touching data."""
    if t._base is not None and t._creation is not None:
        if t._creation == "multi":
            from .graph import short_name

            fn = t._grad_fn
            head = (f"Output {t._output_nr} of {short_name(fn.name())} is a view and is being "
                    "modified inplace. " if fn is not None else
                    "A view was created in no_grad mode and is being modified inplace with grad "
                    "mode enabled. ")
            raise RuntimeError(
                head + "This view is the output of a function that returns multiple views. "
                "Such functions do not allow the output views to be modified inplace. You "
                "should replace the inplace operation by an out-of-place one.")
        raise RuntimeError(NO_GRAD_VIEW)
    if t._base is not None and t._requires_grad and t._base.is_leaf:
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an in-place operation.")
    if t._requires_grad and t.is_leaf:
        raise RuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation.")


def record_inplace(op: str, self, inputs: dict, compute: Callable[[], None],
                   check: Callable[[], None] | None = None, metadata: bool = False, **attrs):
    """Run ``compute`` (which writes into self) with PyTorch's checks and bookkeeping.

    Order as in PyTorch: autograd's checks, then the kernel's ``check`` (overlap, shape,
    dtype), then the write. Nothing is written or bumped if a check raises.
    """
    if self._inference and not grad_mode._state["inference"]:
        raise RuntimeError(
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can make "
            "a clone to get a normal tensor before doing inplace update.See "
            "https://github.com/pytorch/rfcs/pull/17 for more details.")
    needs = grad_mode._state["enabled"] and any_requires_grad(inputs.values())
    method = op if op.endswith("_") else op + "_"  # the name the user typed, for anomaly mode
    if not needs:
        if check is not None:
            check()
        compute()
        self._vc.bump(method)
        return self
    check_inplace(self)
    if check is not None:
        check()
    f = DERIVATIVES[op]
    node = f.node_cls(tuple(edge(inputs.get(n)) for n in f.inputs), 1)
    node._input_meta = [_meta(inputs.get(n)) for n in f.inputs]
    node._attrs.update(attrs)
    # Backward formulas that read `self` need the value from before the write: clone it.
    if "self" in f.saves and _wants(f, "self", inputs):
        with grad_mode.no_grad():
            original = self.clone()
        _save(node, "self", original, None, requires_grad=self._requires_grad)
    # Other inputs are saved before the write: `x.mul_(x)` must see x's old version.
    for key in f.saves:
        if key in ("self", "result") or not _wants(f, key, inputs):
            continue
        value = inputs[key] if key in inputs else attrs.get(key)
        _save(node, key, value, _producer_text(value) if hasattr(value, "_grad_fn") else None)
    compute()
    self._vc.bump(method)
    if metadata:
        # t_(), transpose_() ... change only this tensor's geometry: no CopySlices on the base
        self._grad_fn, self._requires_grad, self._output_nr = node, True, 0
        self._attr_version = self._vc.value
    else:
        rebase_history(self, node)
    if "result" in f.saves and _wants(f, "result", inputs):  # saved after the rebase, as in PyTorch
        _save(node, "result", self, _producer_text(self, node, 0), is_output=True,
              requires_grad=True)
    return self


def rebase_history(self, node: Node) -> None:
    from .views_backward import CopySlices, as_strided_node

    if self._base is None:
        self._grad_fn, self._requires_grad, self._output_nr = node, True, 0
        return
    base = self._base
    base._grad_fn = CopySlices(base, self, node)
    base._requires_grad, base._output_nr = True, 0
    self._requires_grad = True
    self._grad_fn = as_strided_node(self, base)
    self._attr_version = self._vc.value


__all__ = ["AccumulateGrad", "DERIVATIVES", "Formula", "derivative", "record", "record_inplace"]
