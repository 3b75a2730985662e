"""torch.meshgrid and torch.cartesian_prod (TensorShape.cpp, Itertools.cpp): grids made of
views.

``meshgrid`` views each 1-D (or 0-dim) tensor along its own dim and expands it over the
others: every grid is an ExpandBackward0 over a ViewBackward0, a view of its input with
stride 0 along the other dims. ``indexing="xy"`` swaps the first two inputs and outputs;
left out, it is "ij" with PyTorch's one-time warning. ``cartesian_prod`` flattens the "ij"
grids (a copy: CloneBackward0, UnsafeViewBackward0) and stacks them as columns; one tensor
comes back as itself.
"""
from __future__ import annotations

from ..function_parser import PythonArgParser
from ..tensor import Tensor
from ..warn_once import warn_once
from .joining import stack

# torch._VF.meshgrid's forms, as the parser reads them
_MESHGRID = PythonArgParser("meshgrid", ["(TensorList tensors)",
                                         "(TensorList tensors, *, c10::string_view indexing)"],
                            False)
_CARTESIAN = PythonArgParser("cartesian_prod", ["(TensorList tensors)"], False)


def _grids(tensors: list, indexing: str) -> list[Tensor]:
    """at::meshgrid: checks in PyTorch's order, then one view-and-expand per tensor."""
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for a, b in zip(tensors, tensors[1:]):
        if a.dtype is not b.dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    refs = list(tensors)
    swap = indexing == "xy" and len(refs) >= 2
    if indexing not in ("xy", "ij"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but received: '
                           f"{indexing}")
    if swap:
        refs[0], refs[1] = refs[1], refs[0]
    for t in refs:
        if t.dim() > 1:  # (PyTorch prints the tensor itself in its legacy format here)
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               f"got: {t.dim()}D tensor of shape {list(t.shape)}")
    shape = [t.numel() for t in refs]
    grids = []
    for i, t in enumerate(refs):
        view_shape = [1] * len(refs)
        view_shape[i] = -1
        grids.append(t.view(view_shape).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return grids


def meshgrid(*tensors, indexing: str | None = None) -> tuple:
    """torch.meshgrid(*tensors, indexing=None): one grid per tensor, each a view."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]  # torch.meshgrid([a, b])
    kwargs = {} if indexing is None else {"indexing": indexing}
    _, values = _MESHGRID.parse((tensors,), kwargs)
    if indexing is None:
        warn_once("torch.meshgrid: in an upcoming release, it will be required to pass the "
                  "indexing argument.")
    return tuple(_grids(list(values["tensors"]), values.get("indexing") or "ij"))


def cartesian_prod(*tensors) -> Tensor:
    """torch.cartesian_prod(*tensors): every combination, one per row."""
    _, values = _CARTESIAN.parse((tensors,), {})
    tensors = list(values["tensors"])
    for t in tensors:
        if t.dim() != 1:
            sizes = ", ".join(map(str, t.shape))
            raise RuntimeError(f"Expect a 1D vector, but got shape [{sizes}]")
    if len(tensors) == 1:
        return tensors[0]
    return stack([g.flatten() for g in _grids(tensors, "ij")], 1)


__all__ = ["cartesian_prod", "meshgrid"]
