"""torch.linalg, the part the core has: vector_norm, matrix_norm, norm and svdvals
(ops/norms.py, ops/svd.py). Tensor.norm and torch.norm call these, as in PyTorch."""
from __future__ import annotations

from .ops.norms import linalg_norm as norm
from .ops.norms import matrix_norm, vector_norm
from .ops.svd import svdvals

__all__ = ["matrix_norm", "norm", "svdvals", "vector_norm"]
