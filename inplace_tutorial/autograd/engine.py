"""The backward engine: a dependency-counted walk of the graph, newest node first.

Gradients flowing into a node are summed in a buffer; the node runs once all its
consumers have run. Without retain_graph each node frees its saved tensors right
after it runs, so memory drops during backward just as it does in PyTorch. With
``inputs=`` only the nodes that lead to those tensors run (PyTorch's exec_info).

Before a node runs, the tensor hooks on its inputs run (hooks.py), then retain_grad's copies
are taken. ``grad()`` (torch.autograd.grad) walks the same way but captures the gradients
flowing into its inputs instead of accumulating into ``.grad``. In anomaly mode with
``check_nan``, a node that returns NaN raises at once, with PyTorch's text.
"""
from __future__ import annotations

import heapq
import math
import warnings
from collections.abc import Sequence

import numpy as np

from ..creation import new_like, zeros_like
from ..layout import contiguous_strides
from ..modes import STATE
from ..tensor import Size, Tensor
from . import grad_mode
from .anomaly import nan_message
from .errors import HIGHER_ORDER
from .graph import AccumulateGrad, Node, edge
from .hooks import node_hooks, run_hooks, run_post_accumulate_hooks


def _as_tuple(tensors) -> tuple:
    return (tensors,) if isinstance(tensors, Tensor) else tuple(tensors)


def _grad_tuple(grads, n: int) -> tuple:
    """grad_tensors / grad_outputs as PyTorch takes them: None, a Tensor, or a sequence of
    Tensors and Nones (a bare number is not a sequence: TypeError, as in PyTorch)."""
    if grads is None:
        return (None,) * n
    if isinstance(grads, Tensor):
        return (grads,)
    try:
        grads = tuple(grads)
    except TypeError:
        raise TypeError(f"'{type(grads).__name__}' object is not iterable") from None
    for g in grads:
        if g is not None and not isinstance(g, Tensor):
            raise TypeError("gradients can be either Tensors or None, but got "
                            f"{type(g).__name__}")
    return grads


def _ones_like(t: Tensor) -> Tensor:
    """ones_like(t), the implicit gradient of a scalar output. A contiguous output (a loss
    always is) gets the plain contiguous "ones_like" buffer that ones_like's layout rule
    gives it, made directly; any other layout goes through that rule (creation.new_like)."""
    if t._stride == contiguous_strides(t._shape):
        g = Tensor._empty(t._shape, t.dtype, "ones_like")
        g._array().fill(1)
        return g
    return new_like(t, None, False, 1, "ones_like")  # ones_like(t), past its parser


def _roots(tensors, grad_tensors):
    roots = []
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):  # zip: PyTorch ignores extras
        if not t._requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn")
        if g is None:
            if math.prod(t._shape) != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            g = _ones_like(t)
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
    tensors = _as_tuple(tensors)
    grad_tensors = _grad_tuple(grad_tensors, len(tensors))
    targets = None
    if inputs is not None:
        inputs = _as_tuple(inputs)
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


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> tuple:
    """torch.autograd.grad: the gradients of ``outputs`` with respect to ``inputs``, returned
    (a tuple, one per input), not accumulated into any ``.grad``.

    Tensor hooks and retain_grad() run as in backward(). ``allow_unused``: an input the outputs
    don't depend on gives None (or zeros with ``materialize_grads``) instead of an error.
    """
    if create_graph:
        raise NotImplementedError(HIGHER_ORDER)
    if is_grads_batched:
        raise NotImplementedError("is_grads_batched=True (vmap over grad_outputs) is not part "
                                  "of this core")
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads="
                         "True, but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). "
                      "To accumulate gradient for other parts of the graph, please use "
                      "torch.autograd.backward.", FutureWarning, stacklevel=2)
    outputs = _as_tuple(outputs)
    if not all(isinstance(t, Tensor) for t in outputs):
        raise AssertionError("Expected output to be a torch.Tensor")
    inputs = _as_tuple(inputs)
    for t in inputs:
        if not isinstance(t, Tensor):
            raise RuntimeError("all inputs have to be Tensors or GradientEdges, but got "
                               f"{type(t).__name__}")
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    roots = _roots(outputs, _grad_tuple(grad_outputs, len(outputs)))
    capture: dict[Node, list] = {}
    for i, t in enumerate(inputs):
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        node, nr = edge(t)
        capture.setdefault(node, []).append((nr, i))
    results: list = [None] * len(inputs)
    with grad_mode.no_grad():
        _run(roots, bool(retain_graph), set(capture), capture=(capture, results))
    for i, g in enumerate(results):
        if g is None:
            if materialize_grads:
                results[i] = zeros_like(inputs[i])
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior.")
    return tuple(results)


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


def _dependencies(roots, needed: set | None) -> dict[Node, int]:
    """For every node below the roots: how many edges will bring it a gradient."""
    deps: dict[Node, int] = {}
    starts = {e[0][0] for e in roots if e[0][0] is not None
              and (needed is None or e[0][0] in needed)}
    stack = list(starts)
    while stack:  # each node is expanded once: a root at the start, any other when first met
        for nxt, _ in stack.pop().next_functions:
            if nxt is not None and (needed is None or nxt in needed):
                if nxt in deps:
                    deps[nxt] += 1
                else:
                    deps[nxt] = 1
                    if nxt not in starts:
                        stack.append(nxt)
    return deps


def _run(roots, retain_graph: bool, targets: set | None = None, capture=None) -> None:
    """Run the graph from ``roots``. ``capture``: autograd.grad's (node -> [(output_nr, i)],
    results): the gradients flowing into those nodes are stored in results[i], and no
    AccumulateGrad runs."""
    needed = None if targets is None else _needed(roots, targets)
    deps = _dependencies(roots, needed)
    buffers: dict[Node, list] = {}
    # A gradient sent along a second edge (AddBackward0 gives one tensor to both inputs) is
    # shared, and no AccumulateGrad may keep it as .grad. A sent gradient is marked with this
    # run's token in its _shared_grad; sent again in this run, the mark becomes True (shared).
    # A view of it is a tensor of its own, as in PyTorch (which counts references to the
    # tensor, not to its storage).
    run = object()
    ready: list = []  # a heap of (-sequence number, id, node): the newest node runs first

    def send(node, nr, g):
        buf = buffers.get(node)
        if buf is None:
            n = node._num_outputs
            buf = buffers[node] = [None] * (n if nr < n else nr + 1)
        if buf[nr] is None:
            buf[nr] = g
            mark = g._shared_grad
            if mark is run:
                g._shared_grad = True
            elif mark is not True:
                g._shared_grad = run
        else:
            buf[nr] = buf[nr] + g

    for (node, nr), g in roots:
        if node is not None and (needed is None or node in needed):
            queued = node in buffers  # the same node as two roots: queue it once
            send(node, nr, g)
            if deps.get(node, 0) == 0 and not queued:
                heapq.heappush(ready, (-node._seq, id(node), node))

    while ready:
        node = heapq.heappop(ready)[2]
        grads = buffers.pop(node)
        sink = isinstance(node, AccumulateGrad)  # a leaf's: its hooks live on the leaf
        # (the hook and retain_grad tables are empty on most nodes: one look, not a call)
        if sink or node._pre_hooks or node._retained:
            _run_tensor_hooks(node, grads)
        if capture is not None and node in capture[0]:
            for nr, i in capture[0][node]:
                if nr < len(grads) and grads[nr] is not None:
                    grads[nr]._shared_grad = True
                    capture[1][i] = grads[nr]
            if sink:
                continue
        if needed is not None and not sink and not any(
                n in needed for n, _ in node.next_functions):
            continue  # a non-leaf input's own node: its gradient was captured above
        outs = node.apply(grads)
        if STATE.anomaly and STATE.check_nan:
            _check_nan(node, outs)
        if not retain_graph:
            node.release()
        if sink:
            run_post_accumulate_hooks(node.variable)
        del grads
        for (nxt, nr), g in zip(node.next_functions, outs):
            if nxt is None or (needed is not None and nxt not in needed):
                continue
            if g is not None:
                send(nxt, nr, g)
            left = deps[nxt] = deps[nxt] - 1
            if left == 0:
                if nxt in buffers:
                    heapq.heappush(ready, (-nxt._seq, id(nxt), nxt))
                else:
                    _skip(nxt, deps, buffers, ready, needed)
        del outs


def _run_tensor_hooks(node: Node, grads: list) -> None:
    """Before a node runs: the tensor hooks on the gradients flowing into it, in registration
    order, then retain_grad()'s copies of what they returned."""
    hooks = node_hooks(node)
    if hooks:
        for nr, table in hooks.items():
            if nr < len(grads):
                grads[nr] = run_hooks(table, grads[nr])
    for nr, ref in node._retained:
        t = ref()
        if t is not None and grads[nr] is not None:
            # set directly, as PyTorch's retains_grad hook does: after t_() the retained
            # gradient keeps the old geometry, which a checked assignment would refuse.
            # A first one is clone(memory_format=contiguous) there: a column-major
            # gradient (mm's, for a transposed input) is retained row-major.
            g = grads[nr]
            t._grad = (g.clone() if g.is_contiguous() else g.contiguous()) \
                if t._grad is None else t._grad + g


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


def _check_nan(node: Node, outs) -> None:
    """detect_anomaly(check_nan=True): a backward function that returns NaN raises at once."""
    for i, ((nxt, _), g) in enumerate(zip(node.next_functions, outs)):
        if nxt is not None and g is not None and g.dtype.is_floating_point \
                and np.isnan(g._array()).any():
            raise RuntimeError(nan_message(node.name(), i))
