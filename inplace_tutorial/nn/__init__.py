"""nn: Module, Parameter and the layers, named and behaving as in torch.nn.

Layers own Parameters and buffers; their forward calls ``nn.functional``, which calls the
core ops (ops/nn_ops.py, ops/pooling.py, ops/loss_ops.py), so every activation is a counted storage.
"""
from . import functional, init
from .activation import (
    CELU,
    ELU,
    GELU,
    GLU,
    SELU,
    Hardshrink,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    RReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Softshrink,
    Softsign,
    Tanh,
    Tanhshrink,
    Threshold,
)
from .batchnorm import BatchNorm1d, BatchNorm2d
from .container import Sequential
from .conv import Conv2d
from .dropout import Dropout
from .linear import Flatten, Identity, Linear
from .loss import CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module
from .normalization import LayerNorm
from .padding import (
    CircularPad1d,
    CircularPad2d,
    CircularPad3d,
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)
from .parameter import Parameter
from .pooling import AvgPool2d, MaxPool2d
from .sparse import Embedding

__all__ = ["AvgPool2d", "BatchNorm1d", "BatchNorm2d", "Conv2d", "CrossEntropyLoss", "Dropout",
           "Embedding", "Flatten", "GELU", "Identity", "LayerNorm", "Linear", "LogSoftmax",
           "MSELoss", "MaxPool2d", "Module",
           "NLLLoss", "Parameter", "ReLU", "ReLU6", "RReLU", "CELU", "ELU", "SELU", "Hardtanh",
           "LeakyReLU", "Threshold", "Sequential", "Sigmoid", "Softmax", "Tanh",
           "functional", "init",
           "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d", "Hardsigmoid", "Hardswish", "Mish", "SiLU",
           "GLU", "Hardshrink", "LogSigmoid", "PReLU", "Softplus", "Softshrink", "Softsign",
           "Tanhshrink"]
