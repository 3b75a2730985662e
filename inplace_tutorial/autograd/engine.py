"""The backward engine: a dependency-counted walk of the graph, newest node first.

Gradients flowing into a node are summed in a buffer; the node runs once all its
consumers have run. Without retain_graph each node frees its saved tensors right
after it runs, so memory drops during backward just as it does in PyTorch. With
``inputs=`` only the nodes that lead to those tensors run (PyTorch's exec_info).
"""
from __future__ import annotations

import heapq
from collections.abc import Sequence

from ..creation import ones_like
from ..creation import tensor as make_tensor
from ..tensor import Size, Tensor
from . import grad_mode
from .errors import HIGHER_ORDER
from .graph import AccumulateGrad, Node, edge


def _roots(tensors, grad_tensors):
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
            g = make_tensor(g, dtype=t.dtype)
        elif g._shape != t._shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                               f"{Size(g._shape)!r} and output[{i}] has a shape of "
                               f"{Size(t._shape)!r}.")
        else:
            g = g.detach() if g.dtype is t.dtype else g.to(t.dtype)  # PyTorch casts it too
            g._shared_grad = True  # the caller still holds it: never store it as .grad
        roots.append((edge(t), g))
    return roots


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None,
             inputs: Tensor | Sequence[Tensor] | None = None, *,
             create_graph: bool = False) -> None:
    """Compute gradients of ``tensors`` and accumulate them into the leaves' ``.grad``.

    ``inputs``: accumulate only into these tensors (leaves or not; a non-leaf one is made to
    retain its grad, as in PyTorch) and run only the part of the graph that leads to them.
    """
    if create_graph:
        raise NotImplementedError(HIGHER_ORDER)
    if isinstance(tensors, Tensor):
        tensors = (tensors,)
    if isinstance(grad_tensors, Tensor) or grad_tensors is None:
        grad_tensors = None if grad_tensors is None else (grad_tensors,)
    targets = None
    if inputs is not None:
        inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for t in inputs:
            if not t.requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            t.retain_grad()  # PyTorch does this too: a non-leaf input keeps its .grad
        targets = {edge(t)[0] for t in inputs}
    roots = _roots(tensors, grad_tensors)
    with grad_mode.no_grad():
        _run(roots, bool(retain_graph), targets)


def _needed(roots, targets: set) -> set:
    """Nodes that lead to a target (PyTorch's exec_info): everything else is left alone."""
    needed: set = set()
    done: set = set()
    stack = [(node, False) for (node, _), _ in roots if node is not None]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            if node in targets or any(n in needed for n, _ in node.next_functions):
                needed.add(node)
            continue
        if node in done:
            continue
        done.add(node)
        stack.append((node, True))
        stack.extend((n, False) for n, _ in node.next_functions if n is not None and n not in done)
    return needed


def _run(roots, retain_graph: bool, targets: set | None = None) -> None:
    needed = None if targets is None else _needed(roots, targets)
    deps: dict[Node, int] = {}
    seen: set[Node] = set()
    stack = [e[0][0] for e in roots if e[0][0] is not None
             and (needed is None or e[0][0] in needed)]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for nxt, _ in node.next_functions:
            if nxt is not None and (needed is None or nxt in needed):
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
        if node is not None and (needed is None or node in needed):
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
        if needed is not None and not isinstance(node, AccumulateGrad) and not any(
                n in needed for n, _ in node.next_functions):
            continue  # a non-leaf input's own node: its gradient was captured above
        for g in grads:
            if g is not None and grad_users.get(id(g._storage), 0) > 1:
                g._shared_grad = True
        outs = node.apply(grads)
        if not retain_graph:
            node.release()
        del grads
        for (nxt, nr), g in zip(node.next_functions, outs):
            if nxt is None or (needed is not None and nxt not in needed):
                continue
            if g is not None:
                send(nxt, nr, g)
            deps[nxt] -= 1
            if deps[nxt] == 0:
                if nxt in buffers:
                    heapq.heappush(ready, (-nxt._seq, id(nxt), nxt))
                else:
                    _skip(nxt, deps, buffers, ready, needed)
        del outs


def _skip(node, deps, buffers, ready, needed) -> None:
    """A node that received no gradient at all: release its consumers' counts."""
    for nxt, _ in node.next_functions:
        if nxt is None or (needed is not None and nxt not in needed):
            continue
        deps[nxt] -= 1
        if deps[nxt] == 0:
            if nxt in buffers:
                heapq.heappush(ready, (-nxt._seq, id(nxt), nxt))
            else:
                _skip(nxt, deps, buffers, ready, needed)
