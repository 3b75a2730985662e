"""The ops, one module per family. Importing this package attaches them to Tensor."""
from . import (  # noqa: F401  # noqa: F401  (issue 4: nn layers and losses)
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
