"""The backward engine: a dependency-counted walk of the graph, newest node first.

Gradients flowing into a node are summed in a buffer; the node runs once all its
consumers have run. Without retain_graph each node frees its saved tensors right
after it runs, so memory drops during backward just as it does in PyTorch.
"""
from __future__ import annotations

import heapq
from collections.abc import Sequence

from . import grad_mode
from .graph import Node, edge


def _roots(tensors, grad_tensors):
    from ..creation import ones_like
    from ..tensor import Tensor

    roots = []
    for i, t in enumerate(tensors):
        if not t._requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn")
        g = grad_tensors[i] if grad_tensors is not None else None
        if g is None:
            if t.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            g = ones_like(t)
        elif not isinstance(g, Tensor):
            from ..creation import tensor as make

            g = make(g, dtype=t.dtype)
        elif g._shape != t._shape:
            from ..tensor import Size

            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                               f"{Size(g._shape)!r} and output[{i}] has a shape of "
                               f"{Size(t._shape)!r}.")
        else:
            g = g.detach() if g.dtype is t.dtype else g.to(t.dtype)  # PyTorch casts it too
            g._shared_grad = True  # the caller still holds it: never store it as .grad
        roots.append((edge(t), g))
    return roots


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None,
             inputs: Sequence | None = None) -> None:
    """Compute gradients of ``tensors`` and accumulate them into the leaves' ``.grad``."""
    from ..tensor import Tensor

    if isinstance(tensors, Tensor):
        tensors = (tensors,)
    if isinstance(grad_tensors, Tensor) or grad_tensors is None:
        grad_tensors = None if grad_tensors is None else (grad_tensors,)
    roots = _roots(tensors, grad_tensors)
    with grad_mode.no_grad():
        _run(roots, bool(retain_graph))


def _run(roots, retain_graph: bool) -> None:
    deps: dict[Node, int] = {}
    seen: set[Node] = set()
    stack = [e[0][0] for e in roots if e[0][0] is not None]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for nxt, _ in node.next_functions:
            if nxt is not None:
                deps[nxt] = deps.get(nxt, 0) + 1
                stack.append(nxt)

    buffers: dict[Node, list] = {}
    grad_users: dict[object, int] = {}  # storage -> how many edges a grad buffer went to
    ready: list = []

    def send(node, nr, g):
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = [None] * max(node._num_outputs, nr + 1)
        if buf[nr] is None:
            buf[nr] = g
            grad_users[id(g._storage)] = grad_users.get(id(g._storage), 0) + 1
        else:
            buf[nr] = buf[nr] + g

    for (node, nr), g in roots:
        if node is not None:
            send(node, nr, g)
            if deps.get(node, 0) == 0:
                heapq.heappush(ready, (-node._seq, id(node), node))

    while ready:
        _, _, node = heapq.heappop(ready)
        grads = buffers.pop(node)
        for nr, ref in node._retained:
            t = ref()
            if t is not None and grads[nr] is not None:
                t.grad = grads[nr].clone() if t.grad is None else t.grad + grads[nr]
        for g in grads:
            if g is not None and grad_users.get(id(g._storage), 0) > 1:
                g._shared_grad = True
        outs = node.apply(grads)
        if not retain_graph:
            node.release()
        del grads
        for (nxt, nr), g in zip(node.next_functions, outs):
            if nxt is None:
                continue
            if g is not None:
                send(nxt, nr, g)
            deps[nxt] -= 1
            if deps[nxt] == 0:
                if nxt in buffers:
                    heapq.heappush(ready, (-nxt._seq, id(nxt), nxt))
                else:
                    _skip(nxt, deps, buffers, ready)
        del outs


def _skip(node, deps, buffers, ready) -> None:
    """A node that received no gradient at all: release its consumers' counts."""
    for nxt, _ in node.next_functions:
        if nxt is None:
            continue
        deps[nxt] -= 1
        if deps[nxt] == 0:
            if nxt in buffers:
                heapq.heappush(ready, (-nxt._seq, id(nxt), nxt))
            else:
                _skip(nxt, deps, buffers, ready)
