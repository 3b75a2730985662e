"""The ops, one module per family. Importing this package attaches them to Tensor."""
from . import (compare, elementwise, fill, indexing, linalg, operators, reduce,  # noqa: F401
               ternary, views)
from . import loss_ops, nn_ops  # noqa: F401  (issue 4: nn layers and losses)
