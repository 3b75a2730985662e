"""Module-level functions, as in ``torch.add`` or ``torch.bmm``: thin calls to the methods."""
from __future__ import annotations

from .ops.compare import where
from .ops.linalg import einsum
from .tensor import Tensor


def _method(name: str):
    def fn(input: Tensor, *args, **kwargs):
        return getattr(input, name)(*args, **kwargs)
    fn.__name__ = name
    fn.__doc__ = f"torch.{name}(input, ...) is input.{name}(...)."
    return fn


_NAMES = ("add sub mul div pow neg exp log sqrt abs relu sigmoid tanh clamp clamp_min clamp_max "
          "maximum minimum sum mean var std amax max argmax softmax log_softmax matmul mm bmm "
          "dot addmm addbmm baddbmm transpose permute t reshape flatten squeeze unsqueeze select "
          "narrow unbind split chunk as_strided clone sign reciprocal rsub relu_ sigmoid_ exp_ "
          "tanh_ clamp_ addmm_ addbmm_ baddbmm_ gt lt ge le eq ne").split()

for _name in _NAMES:
    globals()[_name] = _method(_name)


def pow(input, exponent):  # noqa: A001
    """torch.pow also takes a Python scalar base: pow(2, x) is 2 ** x."""
    if not isinstance(input, Tensor):
        return exponent.__rpow__(input)
    return input.pow(exponent)

__all__ = [*_NAMES, "einsum", "where"]
