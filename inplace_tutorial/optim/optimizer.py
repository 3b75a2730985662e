"""Optimizer: param_groups (each a dict with its own hyper-parameters) and per-param state.

Subclasses implement ``step()``; every update there is an in-place op on the parameter,
run under no_grad, and every state buffer (momentum_buffer, exp_avg ...) is a counted
tensor, so ``ipt.memory`` shows what an optimizer costs.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from ..autograd import grad_mode
from ..nn.module import zero_grad_of
from ..tensor import Tensor


class Optimizer:
    def __init__(self, params: Iterable, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.state: defaultdict[Tensor, dict] = defaultdict(dict)
        self.param_groups: list[dict] = []
        params = list(params)
        if not params:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(params[0], dict):
            params = [{"params": params}]
        for group in params:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict) -> None:
        group = dict(param_group)
        ps = group["params"]
        group["params"] = [ps] if isinstance(ps, Tensor) else list(ps)
        for p in group["params"]:
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for k, v in self.defaults.items():
            group.setdefault(k, v)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """set_to_none=True frees every .grad (PyTorch's default since 2.0)."""
        for group in self.param_groups:
            for p in group["params"]:
                zero_grad_of(p, set_to_none)

    def step(self, closure=None):
        raise NotImplementedError

    @staticmethod
    def _evaluate(closure):
        """step(closure) re-runs the model with grad enabled first, as torch.optim does."""
        if closure is None:
            return None
        with grad_mode.enable_grad():
            return closure()

    def state_dict(self) -> dict:
        index = {id(p): i for i, p in enumerate(p for g in self.param_groups
                                                 for p in g["params"])}
        groups = [{**{k: v for k, v in g.items() if k != "params"},
                   "params": [index[id(p)] for p in g["params"]]} for g in self.param_groups]
        return {"state": {index[id(p)]: s for p, s in self.state.items()},
                "param_groups": groups}

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(k for k in group if k != "params"):
                lines.append(f"    {key}: {group[key]}")
        lines.append(")")
        return "\n".join(lines)
