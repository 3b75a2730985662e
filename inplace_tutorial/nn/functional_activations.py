"""F.elu, F.leaky_relu, F.hardtanh, F.relu6, F.threshold, F.celu, F.selu, F.rrelu and their
in-place forms (F.elu_, F.leaky_relu_ ...): torch/nn/functional.py's Python over the ops of
ops/activation.py; F.silu, F.mish, F.hardswish, F.hardsigmoid over ops/self_gated.py, and
F.softplus, F.logsigmoid, F.hardshrink, F.softshrink, F.tanhshrink, F.softsign, F.glu, F.prelu.

As in PyTorch, ``F.elu(x, inplace=True)`` is ``elu_``: a different node (EluBackward1, which
saves the result) from ``F.elu(x)`` (EluBackward0, which saves the input). F.elu_,
F.leaky_relu_, F.hardtanh_ are torch._C._nn's bindings and F.celu_, F.selu_, F.rrelu_,
F.threshold_ torch's own, so a bad call is refused by that binding's parser, in its words.
"""
from __future__ import annotations

from .. import function_parser
from ..function_parser import torch_function
from ..functional import hardshrink, prelu
from ..functional_inplace import celu_, rrelu_, selu_, threshold_
from ..ops import activation, self_gated, shrink
from ..ops import glu as glu_ops
from ..ops import rrelu as rrelu_ops
from ..ops import softplus as softplus_ops
from ..tensor import Tensor

# ruff: noqa: A002  (``input`` is PyTorch's name)

# the bindings a user calls (F.elu_ is torch._C._nn.elu_, F.celu_ is torch.celu_ ...)
elu_ = torch_function("elu_", module="nn")(activation.elu_)
leaky_relu_ = torch_function("leaky_relu_", module="nn")(activation.leaky_relu_)
hardtanh_ = torch_function("hardtanh_", module="nn")(activation.hardtanh_)


def _bound(name: str, module: str = "nn", ops=activation):
    """torch._C._nn.<name> (or torch.<name>) as F's Python calls it: the op, and a call it
    refuses put to torch's parser, whose refusal, if it refuses too, is the one raised."""
    op = getattr(ops, name)

    def call(*args):
        try:
            return op(*args)
        except Exception:
            function_parser.parse(name, args, {}, module)
            raise
    call.__name__ = name
    return call


_nn_elu, _nn_elu_ = _bound("elu"), _bound("elu_")
_nn_leaky_relu, _nn_leaky_relu_ = _bound("leaky_relu"), _bound("leaky_relu_")
_nn_hardtanh, _nn_hardtanh_ = _bound("hardtanh"), _bound("hardtanh_")
_nn_relu6, _nn_relu6_ = _bound("relu6"), _bound("relu6_")
_celu, _celu_ = _bound("celu", "functions"), _bound("celu_", "functions")
_selu, _selu_ = _bound("selu", "functions"), _bound("selu_", "functions")
_rrelu, _rrelu_ = (_bound("rrelu", "functions", rrelu_ops),
                   _bound("rrelu_", "functions", rrelu_ops))
_vf_threshold, _vf_threshold_ = _bound("threshold", "functions"), _bound("threshold_",
                                                                         "functions")


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return _nn_elu_(input, alpha) if inplace else _nn_elu(input, alpha)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return _celu_(input, alpha) if inplace else _celu(input, alpha)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    return _selu_(input) if inplace else _selu(input)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    if inplace:
        return _nn_leaky_relu_(input, negative_slope)
    return _nn_leaky_relu(input, negative_slope)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    if min_val > max_val:  # F's own check; torch._C._nn.hardtanh clamps to max_val
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return _nn_hardtanh_(input, min_val, max_val)
    return _nn_hardtanh(input, min_val, max_val)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return _nn_relu6_(input) if inplace else _nn_relu6(input)


def _threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    if inplace:
        return _vf_threshold_(input, threshold, value)
    return _vf_threshold(input, threshold, value)


threshold = _threshold  # torch/nn/functional.py's name for it (its errors say _threshold())


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
          training: bool = False, inplace: bool = False) -> Tensor:
    if inplace:
        return _rrelu_(input, lower, upper, training)
    return _rrelu(input, lower, upper, training)


# ---- the self-gated activations (ops/self_gated.py): F.silu(x, inplace=True) is
# torch._C._nn.silu_, which records the same SiluBackward0 as F.silu and saves a copy of x
_nn_silu, _nn_silu_ = _bound("silu", ops=self_gated), _bound("silu_", ops=self_gated)
_nn_mish, _nn_mish_ = _bound("mish", ops=self_gated), _bound("mish_", ops=self_gated)
_nn_hardswish = _bound("hardswish", ops=self_gated)
_nn_hardswish_ = _bound("hardswish_", ops=self_gated)
_nn_hardsigmoid = _bound("hardsigmoid", ops=self_gated)
_nn_hardsigmoid_ = _bound("hardsigmoid_", ops=self_gated)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    return _nn_silu_(input) if inplace else _nn_silu(input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    return _nn_mish_(input) if inplace else _nn_mish(input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    return _nn_hardswish_(input) if inplace else _nn_hardswish(input)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    return _nn_hardsigmoid_(input) if inplace else _nn_hardsigmoid(input)


# ---- softplus, logsigmoid, the shrinks, glu, prelu (ops/softplus.py, ops/shrink.py,
# ops/glu.py, ops/prelu.py). F.softplus is torch._C._nn.softplus itself, F.hardshrink and
# F.prelu are torch.hardshrink and torch.prelu; F.glu, F.tanhshrink, F.softsign are Python.
softplus = torch_function("softplus", module="nn")(softplus_ops.softplus)
logsigmoid = torch_function("log_sigmoid", module="nn")(softplus_ops.log_sigmoid)
softshrink = torch_function("softshrink", module="nn")(shrink.softshrink)
_nn_glu = _bound("glu", ops=glu_ops)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    if input.dim() == 0:  # F's own check, before torch._C._nn.glu's
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return _nn_glu(input, dim)


def tanhshrink(input):
    """x - tanh(x): SubBackward0 over TanhBackward0, as torch/nn/functional.py writes it."""
    return input - input.tanh()


def softsign(input):
    """x / (|x| + 1): DivBackward0, as torch/nn/functional.py writes it."""
    return input / (input.abs() + 1)


__all__ = ["celu", "celu_", "elu", "elu_", "hardtanh", "hardtanh_", "leaky_relu",
           "leaky_relu_", "relu6", "rrelu", "rrelu_", "selu", "selu_", "threshold", "threshold_",
           "hardsigmoid", "hardswish", "mish", "silu", "glu", "hardshrink", "logsigmoid",
           "prelu", "softplus", "softshrink", "softsign", "tanhshrink"]
