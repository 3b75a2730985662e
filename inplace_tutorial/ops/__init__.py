"""The ops, one module per family. Importing this package attaches them to Tensor."""
from . import compare, elementwise, fill, indexing, linalg, operators, reduce, views  # noqa: F401
from . import loss_ops, nn_ops, optim_ops  # noqa: F401  (issue 4: nn, losses, optimizer ops)
