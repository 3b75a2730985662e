"""RMSprop: PyTorch's single-tensor update, op for op (torch/optim/rmsprop.py).

square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha); centered: grad_avg.lerp_(grad,
1 - alpha) and avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_(), else avg =
square_avg.sqrt(); avg.add_(eps); momentum: buf.mul_(momentum).addcdiv_(grad, avg) and
param.add_(buf, alpha=-lr), else param.addcdiv_(grad, avg, value=-lr). Each of those ops
rounds as torch's kernels do (ops/ternary.py, ops/_fma.py), so the steps agree bit for bit.
"""
from __future__ import annotations

from ..autograd import grad_mode
from ..creation import zeros_like
from ..dtypes import float32
from ..tensor_new import tensor
from .optimizer import Optimizer


class RMSprop(Optimizer):
    def __init__(self, params, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach=None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        for name, value in (("learning rate", lr), ("epsilon value", eps),
                            ("momentum value", momentum), ("weight_decay value", weight_decay),
                            ("alpha value", alpha)):
            if not 0.0 <= value:
                raise ValueError(f"Invalid {name}: {value}")
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps,
                                      centered=centered, weight_decay=weight_decay,
                                      capturable=capturable, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable))

    def _init_state(self, p, group: dict) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = tensor(0.0, dtype=float32)
            state["square_avg"] = zeros_like(p)
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(p)
            if group["centered"]:
                state["grad_avg"] = zeros_like(p)
        return state

    @grad_mode.no_grad()
    def step(self, closure=None):
        loss = self._evaluate(closure)
        for group in self.param_groups:
            lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
            wd, momentum = group["weight_decay"], group["momentum"]
            for p in group["params"]:
                grad = p.grad
                if grad is None:
                    continue
                if group["maximize"]:
                    grad = grad.neg()
                state = self._init_state(p, group)
                state["step"].add_(1)
                if wd != 0:
                    grad = grad.add(p, alpha=wd)
                square_avg = state["square_avg"]
                square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                if group["centered"]:
                    grad_avg = state["grad_avg"]
                    grad_avg.lerp_(grad, 1 - alpha)
                    avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
                else:
                    avg = square_avg.sqrt()
                avg = avg.add(eps) if group["differentiable"] else avg.add_(eps)
                if momentum > 0:
                    buf = state["momentum_buffer"]
                    buf.mul_(momentum).addcdiv_(grad, avg)
                    p.add_(buf, alpha=-lr)
                else:
                    p.addcdiv_(grad, avg, value=-lr)
        return loss
