"""torch.Size: the tuple ``x.shape`` and ``x.size()`` return (PyTorch's torch/csrc/Size.cpp).

A plain tuple of ints that prints as PyTorch prints it and knows its number of elements;
tensor.py keeps shapes as bare tuples and wraps them in a Size only when asked.
"""
from __future__ import annotations


class Size(tuple):
    """torch.Size: a tuple that prints as ``torch.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n
