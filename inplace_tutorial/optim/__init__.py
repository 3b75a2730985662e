"""optim: Optimizer, SGD, Adam, AdamW and RMSprop, with PyTorch's update formulas, all in place."""
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adam", "AdamW", "Optimizer", "RMSprop"]
