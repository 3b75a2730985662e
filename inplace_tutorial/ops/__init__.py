"""The ops, one module per family. Importing this package attaches them to Tensor and fills
the derivative table (autograd.function.DERIVATIVES)."""
from . import (  # noqa: F401
    advanced_indexing,
    compare,
    elementwise,
    fill,
    indexing,
    linalg,
    loss_ops,
    nn_ops,
    operators,
    reduce,
    ternary,
    views,
)
