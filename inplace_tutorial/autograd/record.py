"""How an op records itself into the graph: ``record`` and ``record_inplace``.

``record`` is called by out-of-place ops after computing (PyTorch's set_history): it builds
the op's node from the derivative table and saves what the table says. ``record_inplace``
wraps an in-place op and reads top to bottom in PyTorch's order (VariableTypeUtils.h):
check_inplace, the kernel's own checks, clone what backward needs from the old self, write,
bump the version, then rebase_history (CopySlices when self is a view).
"""
from __future__ import annotations

from collections.abc import Callable

from ..modes import STATE
from ..tensor import Tensor
from . import grad_mode
from .derivatives import DERIVATIVES, Formula
from .errors import (
    INFERENCE_INPLACE,
    LEAF_INPLACE,
    LEAF_VIEW_INPLACE,
    MULTI_VIEW_TAIL,
    NO_GRAD_VIEW,
    short_name,
)
from .graph import Node, any_requires_grad, edge
from .hooks import move_retained
from .saved_tensor import SavedTensor, SavedTensorList, producer_of
from .views_backward import CopySlices, as_strided_node


def _meta(v):
    return (v._shape, v.dtype) if isinstance(v, Tensor) else None


def _save(node: Node, key: str, value, producer: tuple | None, is_output: bool = False,
          requires_grad: bool | None = None) -> None:
    if isinstance(value, Tensor):
        node._saved[key] = SavedTensor(value, key, node, producer, is_output, requires_grad)
    elif isinstance(value, list) and any(isinstance(v, Tensor) for v in value):
        # a Tensor?[] (index's indices): each tensor in it version-checked
        node._saved[key] = SavedTensorList(value, key, node)
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
    if not STATE.grad or not (any_requires_grad(inputs.values()) or any(
            isinstance(v, list) and any_requires_grad(v) for v in inputs.values())):
        return out
    f = DERIVATIVES[op]
    outs = out if isinstance(out, tuple) else (out,)
    # The formula's inputs in its order: where each one's gradient goes (its edge), and the
    # shape and dtype that gradient must have (_meta).
    edges, metas = [], []
    for name in f.inputs:
        v = inputs.get(name)
        if isinstance(v, list):  # a TensorList (cat's tensors): one edge per tensor, as in
            edges += [edge(t) for t in v]  # PyTorch
            metas += [_meta(t) for t in v]
        else:
            edges.append(edge(v))
            metas.append((v._shape, v.dtype) if isinstance(v, Tensor) else None)
    node = f.node_cls(tuple(edges), len(outs))
    node._input_meta = metas
    node._attrs = attrs  # this call's own keywords: a dict made for it, the node keeps it
    for key, cond in f.saves.items():
        if cond is not None and not getattr(inputs.get(cond), "_requires_grad", False):
            continue  # (_wants, written out: this loop runs for every op that records)
        if key == "result" or key in f.outputs:
            nr = f.outputs.index(key) if key in f.outputs else 0
            _save(node, key, outs[nr], producer_of(outs[nr], node, nr), is_output=True,
                  requires_grad=True)
        else:
            value = inputs[key] if key in inputs else attrs.get(key)
            if isinstance(value, Tensor):  # (most saved inputs: _save's first case, directly)
                node._saved[key] = SavedTensor(value, key, node, producer_of(value))
            else:
                _save(node, key, value,
                      producer_of(value) if hasattr(value, "_grad_fn") else None)
    for i, o in enumerate(outs):
        if o.dtype.category == 2:  # only floating-point outputs carry gradients
            o._grad_fn, o._requires_grad, o._output_nr = node, True, i
    return out


def check_inplace(t) -> None:
    """PyTorch's check_inplace: the errors an in-place op raises before touching data."""
    if t._base is not None and t._creation is not None:
        if t._creation == "multi":
            fn = t._grad_fn
            head = (f"Output {t._output_nr} of {short_name(fn.name())} is a view and is being "
                    "modified inplace. " if fn is not None else
                    "A view was created in no_grad mode and is being modified inplace with grad "
                    "mode enabled. ")
            raise RuntimeError(head + MULTI_VIEW_TAIL)
        raise RuntimeError(NO_GRAD_VIEW)
    if t._base is not None and t._requires_grad and t._base.is_leaf:
        raise RuntimeError(LEAF_VIEW_INPLACE)
    if t._requires_grad and t.is_leaf:
        raise RuntimeError(LEAF_INPLACE)


def record_inplace(op: str, self, inputs: dict, compute: Callable[[], None],
                   check: Callable[[], None] | None = None, metadata: bool = False, **attrs):
    """Run ``compute`` (which writes into self) with PyTorch's checks and bookkeeping.

    Order as in PyTorch: autograd's checks, then the kernel's ``check`` (overlap, shape,
    dtype), then the write. Nothing is written or bumped if a check raises.
    """
    if not self._vc.tracked and not STATE.inference:  # an inference tensor or its view
        raise RuntimeError(INFERENCE_INPLACE)
    needs = STATE.grad and any_requires_grad(inputs.values())
    method = op if op.endswith("_") else op + "_"  # the name the user typed, for anomaly mode
    if not needs:
        if check is not None:
            check()
        self._vc.write(compute, method)
        return self
    check_inplace(self)
    if check is not None:
        check()
    f = DERIVATIVES[op]
    node = f.node_cls(tuple([edge(inputs.get(n)) for n in f.inputs]), 1)
    node._input_meta = [_meta(inputs.get(n)) for n in f.inputs]
    node._attrs = attrs  # this call's own keywords: a dict made for it, the node keeps it
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
        _save(node, key, value, producer_of(value) if hasattr(value, "_grad_fn") else None)
    self._vc.write(compute, method)
    if metadata:
        # t_(), transpose_() ... change only this tensor's geometry: no CopySlices on the base
        # (retain_grad() stays on the old node here: PyTorch's .grad is then the gradient
        # of the value before the geometry changed)
        self._grad_fn, self._requires_grad, self._output_nr = node, True, 0
        self._attr_version = self._vc.value
    else:
        rebase_history(self, node)
    if "result" in f.saves and _wants(f, "result", inputs):  # saved after the rebase, as in PyTorch
        _save(node, "result", self, producer_of(self, node, 0), is_output=True,
              requires_grad=True)
    return self


def rebase_history(self, node: Node) -> None:
    """Make ``node`` self's history; for a view, wrap it in CopySlices on the base.
    retain_grad() moves with the tensor to its new node (hooks registered earlier stay)."""
    old = self._grad_fn
    if self._base is None:
        self._grad_fn, self._requires_grad, self._output_nr = node, True, 0
        move_retained(self, old, node)
        return
    base = self._base
    old_base = base._grad_fn
    base._grad_fn = CopySlices(base, self, node)
    base._requires_grad, base._output_nr = True, 0
    move_retained(base, old_base, base._grad_fn)
    self._requires_grad = True
    self._grad_fn = as_strided_node(self, base)
    self._attr_version = self._vc.value
    move_retained(self, old, self._grad_fn)


__all__ = ["check_inplace", "rebase_history", "record", "record_inplace"]
