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
from .linalg import check_same_dtype


def _parse(equation: str, operands) -> tuple[list[str], str, dict]:
    eq = equation.replace(" ", "")
    lhs, _, rhs = eq.partition("->")
    subs = lhs.split(",")
    if len(subs) != len(operands):
        raise RuntimeError(f"einsum(): {len(subs)} operands were specified in the equation but "
                           f"{len(operands)} were provided")
    sizes: dict[str, int] = {}
    for i, (s, t) in enumerate(zip(subs, operands)):
        if "." in s:
            raise NotImplementedError("this core's einsum does not support '...'")
        if len(s) != t.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(s)}) "
                               f"does not match the number of dimensions ({t.dim()}) for "
                               f"operand {i} and no ellipsis was given")
        for label, size in zip(s, t._shape):
            if label in sizes and sizes[label] != size and 1 not in (size, sizes[label]):
                raise RuntimeError(f"einsum(): subscript {label} has size {size} for operand "
                                   f"{i} which does not broadcast with previously seen size "
                                   f"{sizes[label]}")
            sizes[label] = max(size, sizes.get(label, 1))
    if not _:
        rhs = "".join(sorted(label for label in sizes if lhs.count(label) == 1))
    return subs, rhs, sizes


def einsum(equation: str, *operands) -> Tensor:
    """Delegates to NumPy, writing straight into a counted output."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
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
