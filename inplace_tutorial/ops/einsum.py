"""einsum: an equation of subscripts, contracted as PyTorch's einsum does it.

Operands are contracted two at a time, left to right: a label that only one operand holds and
nothing later needs is summed out first; then the pair is permuted to (batch, kept, summed)
and (batch, summed, kept) and multiplied with np.matmul (PyTorch: bmm), a view where the
layout allows it and a counted copy where it does not, as PyTorch's reshape copies. np.einsum
itself is not used: its iterator takes loop buffers of its own behind the allocator's back
(NumPy 2.2: 64 KiB per operand). Two operands are differentiable (one EinsumBackward0 node
whose backward is two more einsums; PyTorch records permutes and a bmm instead, with the same
gradients).
"""
from __future__ import annotations

import math
import re

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..storage import UntypedStorage
from ..tensor import Tensor
from .arg_checks import type_name
from .linalg import check_same_dtype

_NOT_A_LABEL = re.compile(r"[^a-zA-Z ]")


def _parse(equation: str, operands) -> tuple[list[str], str, dict]:
    """PyTorch's einsum parse (aten's einsum), check for check: the labels of each operand,
    then their counts against the operands' dims, then the output's labels, then sizes."""
    lhs, arrow, rhs = equation.partition("->")
    commas = 0
    for m in _NOT_A_LABEL.finditer(lhs):  # (letters and spaces are skipped at C speed: a
        c = m.group()                     # million-letter equation is refused at once)
        if c == ".":
            raise NotImplementedError("this core's einsum does not support '...'")
        if c != ",":
            raise RuntimeError(f"einsum(): invalid subscript given at index {m.start()} in the "
                               "equation string, subscripts must be in [a-zA-Z]")
        commas += 1
        if commas + 1 > len(operands):
            raise RuntimeError("einsum(): fewer operands were provided than specified in the "
                               "equation")
    subs = lhs.replace(" ", "").split(",")
    if len(subs) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    for k, (sub, t) in enumerate(zip(subs, operands)):
        if len(sub) != t.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(sub)}) "
                               f"does not match the number of dimensions ({t.dim()}) for "
                               f"operand {k} and no ellipsis was given")
    labels = "".join(subs)
    if not arrow:  # the implicit output: labels seen once, A-Z before a-z
        out = "".join(sorted(c for c in set(labels) if labels.count(c) == 1))
    else:
        out = ""
        for j, c in enumerate(rhs):
            if c == " ":
                continue
            if c == ".":
                raise NotImplementedError("this core's einsum does not support '...'")
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(f"einsum(): invalid subscript given at index {len(lhs) + 2 + j} "
                                   "in the equation string, subscripts must be in [a-zA-Z]")
            if c not in labels or c in out:
                raise RuntimeError(f"einsum(): output subscript {c}" + (
                    " appears more than once in the output" if c in out
                    else " does not appear in the equation for any input operand"))
            out += c
    sizes: dict[str, int] = {}
    for k, (sub, t) in enumerate(zip(subs, operands)):
        for label, size in zip(sub, t._shape):
            if label in sizes and sizes[label] != size and 1 not in (size, sizes[label]):
                raise RuntimeError(f"einsum(): subscript {label} has size {size} for operand "
                                   f"{k} which does not broadcast with previously seen size "
                                   f"{sizes[label]}")
            sizes[label] = size if sizes.get(label, 1) == 1 else sizes[label]
    return subs, out, sizes


def einsum(equation: str, *operands) -> Tensor:
    """Delegates to NumPy, writing straight into a counted output."""
    if not operands:  # torch.einsum's own Python check
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    for k, o in enumerate(operands):
        if not isinstance(o, Tensor):
            raise TypeError(f"expected Tensor as element {k} in argument 1, but got "
                            f"{type_name(o)}")
    subs, rhs, sizes = _parse(equation, operands)
    check_same_dtype("bmm", *operands)
    out = Tensor._empty(tuple(sizes[c] for c in rhs), dtypes.result_type(*operands), "einsum")
    _contract([_diagonal(o._array(), sub) for o, sub in zip(operands, subs)], rhs, sizes,
              out._array())
    inputs = {f"op{i}": o for i, o in enumerate(operands)}
    if len(operands) == 2:
        return record("einsum", out, {"self": operands[0], "other": operands[1]}, subs=subs,
                      rhs=rhs, sizes=sizes)
    return out if not any(o._requires_grad for o in inputs.values()) else _no_grad_einsum()


def _diagonal(a: np.ndarray, sub: str) -> tuple[np.ndarray, str]:
    """A label written twice in one operand ('ii') takes its diagonal: a view whose stride
    for the label is the sum of both."""
    labels, shape, strides = "", [], []
    for c, n, st in zip(sub, a.shape, a.strides):
        if c in labels:
            k = labels.index(c)
            strides[k] += st
            shape[k] = min(shape[k], n)
        else:
            labels += c
            shape.append(n)
            strides.append(st)
    if labels == sub:
        return a, sub
    return np.lib.stride_tricks.as_strided(a, tuple(shape), tuple(strides)), labels


def _scratch(shape: tuple, dtype: np.dtype, what: str) -> np.ndarray:
    n = math.prod(shape)
    return UntypedStorage(n, dtype, f"einsum ({what})")._array.reshape(shape)


def _sum_out(a: np.ndarray, sub: str, keep: str) -> tuple[np.ndarray, str]:
    """Sum over the labels of ``a`` that are not in ``keep``, into a counted buffer."""
    axes = tuple(i for i, c in enumerate(sub) if c not in keep)
    if not axes:
        return a, sub
    left = "".join(c for c in sub if c in keep)
    out = _scratch(tuple(n for c, n in zip(sub, a.shape) if c in keep), a.dtype, "sum")
    np.sum(a, axis=axes, out=out)
    return out, left


def _grouped(a: np.ndarray, sub: str, groups: list[str], sizes: dict, what: str) -> np.ndarray:
    """``a`` permuted to the labels of ``groups`` in order (broadcast where a label has size
    1 here and n elsewhere), each group merged into one dimension: a view when the layout
    allows it, else a counted copy. A stack of matrices must be C-contiguous and a single
    matrix row- or column-major, or np.matmul copies it behind the count."""
    order = "".join(groups)
    v = np.broadcast_to(np.transpose(a, [sub.index(c) for c in order]),
                        tuple(sizes[c] for c in order))
    shape = tuple(math.prod(sizes[c] for c in g) for g in groups)
    if shape[0] == 1:
        shape = shape[1:]  # no batch: one matrix
    try:
        m = v.reshape(shape, copy=False)
        if m.flags.c_contiguous or (m.ndim == 2 and m.flags.f_contiguous):
            return m
    except ValueError:  # the merge needs a copy
        pass
    m = _scratch(shape, a.dtype, what)
    np.copyto(m.reshape(v.shape), v)
    return m


def _pair(a: np.ndarray, sa: str, b: np.ndarray, sb: str, keep: str, sizes: dict,
          out: np.ndarray | None) -> tuple[np.ndarray, str]:
    """a * b summed over the labels they share that ``keep`` does not hold: np.matmul of
    (batch, a's kept, summed) by (batch, summed, b's kept), or b by a if that puts the
    result's labels in ``keep``'s order. ``out``: the C-contiguous buffer of ``keep``'s
    labels, written when the result comes in that order (else a counted buffer is)."""
    a, sa = _sum_out(a, sa, keep + sb)
    b, sb = _sum_out(b, sb, keep + sa)
    pos = {c: i for i, c in enumerate(keep)}
    batch = "".join(sorted((c for c in sa if c in sb and c in keep), key=pos.get))
    summed = "".join(c for c in sa if c in sb and c not in keep)
    left = "".join(sorted((c for c in sa if c not in sb), key=pos.get))
    right = "".join(sorted((c for c in sb if c not in sa), key=pos.get))
    if batch + right + left == keep != batch + left + right:
        a, sa, b, sb, left, right = b, sb, a, sa, right, left
    result = batch + left + right
    x = _grouped(a, sa, [batch, left, summed], sizes, "left operand")
    y = _grouped(b, sb, [batch, summed, right], sizes, "right operand")
    shape = x.shape[:-1] + y.shape[-1:]
    direct = out is not None and result == keep
    into = out.reshape(shape) if direct else _scratch(shape, x.dtype, "product")
    np.matmul(x, y, out=into)
    return (out if direct else into.reshape(tuple(sizes[c] for c in result))), result


def _contract(operands: list, rhs: str, sizes: dict, out: np.ndarray) -> None:
    """Contract the (array, labels) ``operands`` left to right into ``out`` (rhs's labels):
    each pair keeps the labels that rhs or a later operand needs."""
    a, sa = operands[0]
    for k in range(1, len(operands)):
        b, sb = operands[k]
        later = "".join(s for _, s in operands[k + 1:])
        keep = rhs + "".join(dict.fromkeys(c for c in later if c not in rhs))
        a, sa = _pair(a, sa, b, sb, keep, sizes, out if k == len(operands) - 1 else None)
    if a is out:
        return
    a, sa = _sum_out(a, sa, rhs)
    np.copyto(out, np.broadcast_to(np.transpose(a, [sa.index(c) for c in rhs]), out.shape))


def _no_grad_einsum():
    raise NotImplementedError("this core differentiates einsum with two operands only")


@derivative("einsum", "EinsumBackward0", inputs=("self", "other"),
            saves={"self": "other", "other": "self"})
def _einsum_bw(ctx, g):
    subs, rhs, sizes = ctx.attr("subs"), ctx.attr("rhs"), ctx.attr("sizes")
    grads = []
    for i in (0, 1):
        if not ctx.needs(i):
            grads.append(None)
            continue
        other = ctx.saved("other" if i == 0 else "self")
        mine, theirs = subs[i], subs[1 - i]
        kept = "".join(c for c in mine if c in rhs or c in theirs)
        gi = einsum(f"{rhs},{theirs}->{kept}", g, other)
        for d, c in enumerate(mine):
            if c not in kept:
                gi = gi.unsqueeze(d)
        grads.append(gi.expand([sizes[c] for c in mine]))
    return tuple(grads)
