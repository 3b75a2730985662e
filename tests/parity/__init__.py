"""Parity tests: the same program on PyTorch and on inplace_tutorial, compared."""
