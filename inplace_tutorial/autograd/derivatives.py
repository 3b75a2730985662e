"""The derivative table: per op, PyTorch's node name, its differentiable inputs, what it
saves (and on which condition) and its backward formula. Our derivatives.yaml.

Ops fill it with the ``@derivative(...)`` decorator right under their kernel (ops/*.py), so
an op's forward, what it saves and its backward read together. ``record.py`` reads the table
when an op runs; ``Node.apply`` (graph.py) calls the formula during backward.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .graph import Node

Backward = Callable[[Node, Any], tuple]


@dataclass
class Formula:
    op: str
    node: str
    inputs: tuple[str, ...]
    saves: dict[str, str | None]  # saved name -> input whose requires_grad triggers it
    # (None: always saved). "result" is the op's output, saved after the op ran.
    backward: Backward
    multi_output: bool = False
    outputs: tuple[str, ...] = ()  # saved names of the op's outputs (_linalg_svd's U, S, Vh)
    node_cls: type = field(default=Node, repr=False)


DERIVATIVES: dict[str, Formula] = {}


def derivative(op: str, node: str, inputs: tuple[str, ...] = ("self",),
               saves: dict[str, str | None] | None = None, multi_output: bool = False,
               qualified: bool = False, outputs: tuple[str, ...] = ()):
    """Register the backward formula of ``op`` (a decorator on the formula).

    ``qualified``: a hand-written PyTorch node whose name() is "torch::autograd::<node>".
    ``outputs``: names for the op's outputs, in order, where ``saves`` names them (a
    multi-output node that saves its outputs, as _linalg_svd saves U, S and Vh)."""

    def deco(fn: Backward) -> Backward:
        f = Formula(op, node, tuple(inputs), dict(saves or {}), fn, multi_output, tuple(outputs))
        body = {"_formula": f, "__slots__": ()}
        if qualified:
            body["name"] = lambda self: f"torch::autograd::{node}"
        f.node_cls = type(node, (Node,), body)
        DERIVATIVES[op] = f
        return fn

    return deco


__all__ = ["DERIVATIVES", "Backward", "Formula", "derivative"]
