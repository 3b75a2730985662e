"""torch.special, the part the core has: the error functions (ops/erf.py), the gamma family
(ops/gamma.py, ops/polygamma.py, ops/igamma.py) and i0 (ops/special.py), under
torch.special's names.

Each is the torch.* function of the same op (gammaln is lgamma, psi digamma, multigammaln
mvlgamma, gammainc igamma, gammaincc igammac), ``out=`` included: the values, nodes and
in-place twins are the ops' own. A call torch refuses names torch's own function,
``special_erf()``.
"""
from __future__ import annotations

from . import functional
from .arg_parser import argument_error, check_int
from .tensor import Tensor

__all__ = ["digamma", "erf", "erfc", "erfinv", "gammainc", "gammaincc", "gammaln", "i0",
           "multigammaln", "polygamma", "psi"]


def erf(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.special.erf: torch.erf."""
    _tensor("erf", input)
    return functional.erf(input, out=out)


def erfc(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.special.erfc: torch.erfc."""
    _tensor("erfc", input)
    return functional.erfc(input, out=out)


def erfinv(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.special.erfinv: torch.erfinv."""
    _tensor("erfinv", input)
    return functional.erfinv(input, out=out)


def gammaln(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.special.gammaln: torch.lgamma."""
    _tensor("gammaln", input)
    return functional.lgamma(input, out=out)


def digamma(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.special.digamma: torch.digamma."""
    _tensor("digamma", input)
    return functional.digamma(input, out=out)


def psi(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.special.psi: torch.digamma."""
    _tensor("psi", input)
    return functional.digamma(input, out=out)


def polygamma(n: int, input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.special.polygamma(n, input): torch.polygamma."""
    check_int("special_polygamma", "n", n, 1)
    _tensor("polygamma", input, 2)
    return functional.polygamma(n, input, out=out)


def multigammaln(input: Tensor, p: int, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.special.multigammaln(input, p): torch.mvlgamma."""
    _tensor("multigammaln", input)
    check_int("special_multigammaln", "p", p, 2)
    return functional.mvlgamma(input, p, out=out)


def i0(input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.special.i0: torch.i0."""
    _tensor("i0", input)
    return functional.i0(input, out=out)


def gammainc(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.special.gammainc(input, other): torch.igamma."""
    _tensor("gammainc", input)
    _tensor("gammainc", other, 2, "other")
    return functional.igamma(input, other, out=out)


def gammaincc(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.special.gammaincc(input, other): torch.igammac."""
    _tensor("gammaincc", input)
    _tensor("gammaincc", other, 2, "other")
    return functional.igammac(input, other, out=out)


def _tensor(name: str, value, position: int = 1, arg: str = "input") -> None:
    if not isinstance(value, Tensor):
        raise argument_error(f"special_{name}", arg, position, "Tensor", value)
