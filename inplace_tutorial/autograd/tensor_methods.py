"""The autograd half of Tensor: ``grad_fn``, ``backward()`` and the hooks (hooks.py).

tensor.py sits below autograd and may not import it, so these two are defined here and
attached to Tensor at the bottom of this file, when ``inplace_tutorial.autograd`` is imported
(``inplace_tutorial`` imports it before it returns). ``grad_fn`` is where a view whose base was
modified in place gets its node regenerated (AsStridedBackward0), exactly when PyTorch does it.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..tensor import Tensor
from .engine import backward as run_backward
from .errors import MULTI_VIEW_TAIL, NO_GRAD_VIEW, short_name
from .graph import Node
from .hooks import move_retained, register_hook, register_post_accumulate_grad_hook
from .views_backward import as_strided_node


def grad_fn(self: Tensor) -> Node | None:
    """The node that produced this tensor (None for a leaf)."""
    fn = self._grad_fn
    # A view whose base was modified in place (through any alias) gets its grad_fn
    # regenerated from the base as AsStridedBackward0, exactly when PyTorch does it,
    # and with PyTorch's errors for views that may not be regenerated (raised in any grad
    # mode: reading grad_fn under no_grad doesn't make the ambiguity go away).
    if (self._base is not None and self._attr_version != self._vc.value
            and self._base._requires_grad):
        if self._creation is not None:
            raise RuntimeError(stale_view_message(self, fn))
        new = self._grad_fn = as_strided_node(self, self._base)
        move_retained(self, fn, new)  # retain_grad() follows the tensor to its new node
        fn = new
        self._requires_grad = True
        self._attr_version = self._vc.value
    return fn


def stale_view_message(t: Tensor, fn: Node | None) -> str:
    """PyTorch's error for reading grad_fn of a view it refuses to regenerate."""
    kind = t._creation
    if kind == "multi" and fn is not None:
        return (f"Output {t._output_nr} of {short_name(fn.name())} is a view and its base or "
                f"another view of its base has been modified inplace. " + MULTI_VIEW_TAIL)
    head = ("A view was created in no_grad mode and its base or another view of its base has "
            "been modified inplace with grad mode enabled. ")
    if kind == "multi":
        return head + MULTI_VIEW_TAIL
    return head + NO_GRAD_VIEW[NO_GRAD_VIEW.index("Given that"):]


def backward(self: Tensor, gradient=None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Tensor | Sequence[Tensor] | None = None) -> None:
    """Tensor.backward: ``autograd.backward(self, gradient, ...)``."""
    run_backward(self, gradient, retain_graph, inputs, create_graph=create_graph)


# The registration step: Tensor gets its autograd entry points.
Tensor.grad_fn = property(grad_fn)
Tensor.backward = backward
Tensor.register_hook = register_hook
Tensor.register_post_accumulate_grad_hook = register_post_accumulate_grad_hook
