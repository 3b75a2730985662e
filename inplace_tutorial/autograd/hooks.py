"""Tensor hooks: ``register_hook``, ``register_post_accumulate_grad_hook``, ``retain_grad``'s move.

Where a hook lives decides which gradient it sees, and PyTorch's rules follow from that:

* a leaf keeps its hooks itself; they run on the gradient before it is accumulated into
  ``.grad`` (and on what ``autograd.grad`` returns for that leaf);
* a non-leaf's hooks live on its current ``grad_fn``, for its output number. An in-place op
  gives the tensor a new ``grad_fn``, so hooks registered *before* it stay with the old node and
  see the gradient of the old value; hooks registered after see the gradient of the new one;
* ``retain_grad()`` is the exception: it moves to the new node (``move_retained``), so
  ``retains_grad`` stays True and ``.grad`` is the gradient of the tensor's current value.

A hook may return a replacement gradient of the same size and type (checked, with PyTorch's
texts, by ``run_hooks``). The engine (engine.py) calls ``run_hooks`` before a node runs.
"""
from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from typing import Any

from ..tensor import Tensor
from ..type_names import type_string
from .graph import AccumulateGrad, Node

NO_GRAD_HOOK = "cannot register a hook on a tensor that doesn't require gradient"
NON_LEAF_POST_HOOK = "post accumulate grad hooks cannot be registered on non-leaf tensors"

_ids = itertools.count()


class RemovableHandle:
    """What register_hook returns: ``handle.remove()`` takes the hook out again (a second
    remove does nothing); ``with handle:`` removes it at the end of the block."""

    def __init__(self, hooks: dict) -> None:
        self.id = next(_ids)
        self._hooks = weakref.ref(hooks)

    def remove(self) -> None:
        hooks = self._hooks()
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


class _Hooks(dict):
    """An ordered id -> hook table (a dict subclass so a handle can hold it weakly)."""


class LeafHooks:
    """A leaf's two hook tables: before accumulation (``pre``) and after it (``post``)."""

    __slots__ = ("pre", "post")

    def __init__(self) -> None:
        self.pre = _Hooks()
        self.post = _Hooks()


def _leaf_hooks(t: Tensor) -> LeafHooks:
    if t._hooks is None:
        t._hooks = LeafHooks()
    return t._hooks


def register_hook(self: Tensor, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
    """Call ``hook(grad)`` whenever the gradient of this tensor is computed; a returned
    tensor replaces the gradient."""
    if not self.requires_grad:
        raise RuntimeError(NO_GRAD_HOOK)
    fn = self.grad_fn  # a stale view gets its regenerated node here, as in PyTorch
    if fn is None:
        table = _leaf_hooks(self).pre
    else:
        if fn._pre_hooks is None:
            fn._pre_hooks = {}
        table = fn._pre_hooks.setdefault(self._output_nr, _Hooks())
    handle = RemovableHandle(table)
    table[handle.id] = hook
    return handle


def register_post_accumulate_grad_hook(self: Tensor,
                                       hook: Callable[[Tensor], None]) -> RemovableHandle:
    """Call ``hook(tensor)`` after the gradient has been accumulated into a leaf's ``.grad``."""
    if not self.requires_grad:
        raise RuntimeError(NO_GRAD_HOOK)
    if self._grad_fn is not None:
        raise RuntimeError(NON_LEAF_POST_HOOK)
    table = _leaf_hooks(self).post
    handle = RemovableHandle(table)
    table[handle.id] = hook
    return handle


def _hook_name(hook: Any) -> str:
    return getattr(hook, "__name__", None) or repr(hook)


def run_hooks(hooks: dict, grad: Tensor | None) -> Tensor | None:
    """Run tensor hooks in registration order; each sees what the previous one returned."""
    if grad is None or not hooks:
        return grad
    for hook in list(hooks.values()):
        new = hook(grad)
        if new is None:
            continue
        if not isinstance(new, Tensor):
            raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
        if new._shape != grad._shape:
            raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the size of value")
        if new.dtype is not grad.dtype:
            raise RuntimeError(
                f"hook '{_hook_name(hook)}' has changed the type of value (was "
                f"{type_string(grad.dtype)} got {type_string(new.dtype)})")
        new._shared_grad = True  # the hook's author may still hold it: never adopt it as .grad
        grad = new
    return grad


def node_hooks(node: Node) -> dict[int, dict] | None:
    """The tensor hooks to run on the gradients flowing into ``node``, by output number."""
    if node._pre_hooks:
        return node._pre_hooks
    if not isinstance(node, AccumulateGrad):  # (not getattr: Node.__getattr__ would raise)
        return None
    variable = node.variable  # the leaf's own hooks
    if variable is not None and variable._hooks is not None and variable._hooks.pre:
        return {0: variable._hooks.pre}
    return None


def run_post_accumulate_hooks(leaf: Tensor | None) -> None:
    if leaf is not None and leaf._hooks is not None:
        for hook in list(leaf._hooks.post.values()):
            hook(leaf)


def move_retained(t: Tensor, old: Node | None, new: Node | None) -> None:
    """``t`` got a new grad_fn (an in-place op, or a view's regenerated node): its
    retain_grad() follows it, as PyTorch moves retains_grad hooks to the new node."""
    if old is None or new is None or old is new or not old._retained:
        return
    for entry in old._retained:
        if entry[1]() is t:
            old._retained.remove(entry)
            new._retained.append((t._output_nr, entry[1]))
            return


__all__ = ["LeafHooks", "RemovableHandle", "move_retained", "node_hooks", "register_hook",
           "register_post_accumulate_grad_hook", "run_hooks", "run_post_accumulate_hooks"]
