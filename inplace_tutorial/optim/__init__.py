"""optim: Optimizer, SGD, Adam and AdamW, with PyTorch's update formulas, all in place."""
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Optimizer"]
