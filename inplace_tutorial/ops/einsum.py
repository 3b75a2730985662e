"""einsum: an equation of subscripts, computed by NumPy straight into a counted output.

Two operands are differentiable (one EinsumBackward0 node whose backward is two more einsums;
PyTorch decomposes it into permutes and a bmm instead, with the same gradients).
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..tensor import Tensor
from .arg_checks import type_name
from .linalg import check_same_dtype


def _parse(equation: str, operands) -> tuple[list[str], str, dict]:
    """PyTorch's einsum parse (aten's einsum), check for check: the labels of each operand,
    then their counts against the operands' dims, then the output's labels, then sizes."""
    lhs, arrow, rhs = equation.partition("->")
    subs, i = [""], 0
    for i, c in enumerate(lhs):
        if c == " ":
            continue
        if c == ".":
            raise NotImplementedError("this core's einsum does not support '...'")
        if c == ",":
            subs.append("")
            if len(subs) > len(operands):
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
        elif not (c.isascii() and c.isalpha()):
            raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the equation "
                               "string, subscripts must be in [a-zA-Z]")
        else:
            subs[-1] += c
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
            sizes[label] = max(size, sizes.get(label, 1))
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
    np.einsum(f"{','.join(subs)}->{rhs}", *[o._array() for o in operands], out=out._array())
    inputs = {f"op{i}": o for i, o in enumerate(operands)}
    if len(operands) == 2:
        return record("einsum", out, {"self": operands[0], "other": operands[1]}, subs=subs,
                      rhs=rhs, sizes=sizes)
    return out if not any(o._requires_grad for o in inputs.values()) else _no_grad_einsum()


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
