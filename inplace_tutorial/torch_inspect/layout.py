"""A real torch.Tensor's storage as the course's pictures need it, without importing torch.

``ipt.viz`` draws a storage as a strip of cells with every tensor that looks into it; for a
torch tensor the cells are read through a 1-D ``as_strided`` window over the whole storage.
"""
from __future__ import annotations

import numpy as np

from .saved import is_torch_tensor  # noqa: F401  (re-exported for ipt.viz)


def storage_cells(t) -> tuple[int, np.ndarray, int]:
    """(storage address, a copy of every cell in t's dtype, storage bytes)."""
    s = t.untyped_storage()
    n = s.nbytes() // t.element_size()
    flat = t.detach().as_strided((n,), (1,), 0)
    return s.data_ptr(), flat.cpu().numpy().copy(), s.nbytes()
