"""Dim bookkeeping views: Tensor.unfold (sliding windows), unflatten, movedim/moveaxis and
swapdims/swapaxes (PyTorch's other names for transpose, with their in-place forms).

All are views: new shape and strides over self's storage. unfold is the one with a node of
its own (UnfoldBackward0: windows may overlap, so backward adds every window's gradient back
into place); the others are spelled with view, permute and transpose, and record their nodes.
"""
from __future__ import annotations

import numpy as np

from ..arg_parser import binding
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..creation import zeros
from ..layout import wrap_dim
from ..tensor import Tensor, tensor_method
from .arg_checks import check_int, int_list, python_method, saved, signed, type_name
from .views import _make_view


# --------------------------------------------------------------------------- unfold
@binding()
@tensor_method
def unfold(self, dimension: int, size: int, step: int) -> Tensor:
    """Every window of ``size`` cells along ``dimension``, ``step`` apart, as a new last dim."""
    dimension = check_int("unfold", "dimension", dimension, 1)
    size = check_int("unfold", "size", size, 2)
    step = check_int("unfold", "step", step, 3)
    d = wrap_dim(dimension, self.dim())
    max_size = self._shape[d] if self.dim() else 1
    if size > max_size:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {max_size} but size "
                           f"is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    shape, stride = list(self._shape), list(self._stride)
    if self.dim():
        shape[d] = (shape[d] - size) // step + 1
        stride[d] *= step
        shape.append(size)
        stride.append(self._stride[d])
    else:
        shape, stride = [size], [1]
    v = _make_view(self, shape, stride, self._offset)
    return record("unfold", v, {"self": self}, dimension=saved(dimension), size=size,
                  step=step, self_sym_sizes=self._shape)


@derivative("unfold", "UnfoldBackward0")
def _unfold_bw(ctx, g):
    sizes, size, step = ctx.attr("self_sym_sizes"), ctx.attr("size"), ctx.attr("step")
    out = zeros(sizes, dtype=g.dtype)
    if not sizes:
        out._array()[...] = g._array().reshape(())
        return (out,)
    d = wrap_dim(signed(ctx.attr("dimension")), len(sizes))
    o, ga = np.moveaxis(out._array(), d, -1), g._array()
    windows = ga.shape[d]
    for j in range(size):  # cell j of every window: one strided add, windows may overlap
        target = o[..., j: j + step * (windows - 1) + 1: step]
        np.add(target, np.moveaxis(ga[..., j], d, -1), out=target)
    return (out,)


# --------------------------------------------------------------------------- unflatten
@tensor_method
@python_method
def unflatten(self, dim: int, sizes) -> Tensor:
    """Split one dim into ``sizes`` (a view; one size may be -1)."""
    if not sizes:  # Tensor.unflatten's own Python check, before the binding's
        raise RuntimeError("unflatten: sizes must be non-empty")
    dim = check_int("unflatten", "dim", dim, 1)
    sizes = int_list("unflatten", "sizes", (sizes,), position=2, varargs=False)
    d = wrap_dim(dim, self.dim())
    unexpected = "unflatten got an unexpected error:\n"  # aten wraps infer_size's errors so
    if self.dim() == 0:
        raise RuntimeError(unexpected + "Dimension specified as 0 but tensor has no dimensions")
    n, known, inferred = self._shape[d], 1, None
    for k, s in enumerate(sizes):  # at::infer_size, check for check
        if s == -1:
            if inferred is not None:
                raise RuntimeError(unexpected + "only one dimension can be inferred")
            inferred = k
        elif s < 0:
            raise RuntimeError(f"{unexpected}invalid shape dimension {s} at index {k} of shape "
                               f"{list(sizes)}")
        else:
            known *= s
    if not (n == known or (inferred is not None and known > 0 and n % known == 0)):
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the "
                           f"size of dim {d} ({n}) in the input tensor")
    if inferred is not None:
        if known == 0:
            raise RuntimeError(f"{unexpected}cannot reshape tensor of 0 elements into shape "
                               f"{list(sizes)} because the unspecified dimension size -1 can be "
                               "any value and is ambiguous")
        sizes = sizes[:inferred] + (n // known,) + sizes[inferred + 1:]
    return self.view(*self._shape[:d], *sizes, *self._shape[d + 1:])


# --------------------------------------------------------------------------- movedim
def _movedim_args(source, destination) -> tuple:
    both_int = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                   for v in (source, destination))
    both_seq = all(isinstance(v, (list, tuple)) and all(
        isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in v)
        for v in (source, destination))
    if both_int:
        return (int(source),), (int(destination),)
    if both_seq:
        return tuple(int(x) for x in source), tuple(int(x) for x in destination)
    got = f"{type_name(source)}, {type_name(destination)}"

    def mark(v, ok):
        return type_name(v) if ok(v) else f"!{type_name(v)}!"

    def is_int(v):
        return isinstance(v, (int, np.integer)) and not isinstance(v, bool)

    def is_ints(v):
        return isinstance(v, (list, tuple)) and all(is_int(x) for x in v)

    raise TypeError(
        f"movedim() received an invalid combination of arguments - got ({got}), but expected "
        "one of:\n * (int source, int destination)\n      didn't match because some of the "
        f"arguments have invalid types: ({mark(source, is_int)}, {mark(destination, is_int)})\n"
        " * (tuple of ints source, tuple of ints destination)\n      didn't match because some "
        f"of the arguments have invalid types: ({mark(source, is_ints)}, "
        f"{mark(destination, is_ints)})\n")


@binding()
@tensor_method
def movedim(self, source, destination) -> Tensor:
    """Move the dims ``source`` to the positions ``destination``; the others keep their
    order (a permute)."""
    src, dst = _movedim_args(source, destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} "
                           f"dims) should contain the same number of dims as destination "
                           f"({list(dst)} dims)")
    n = self.dim()
    nsrc = [wrap_dim(s, n) for s in src]
    ndst = [wrap_dim(s, n) for s in dst]
    if len(set(nsrc)) != len(nsrc):
        raise RuntimeError(f"movedim: repeated dim in `source` ({list(src)})")
    if len(set(ndst)) != len(ndst):
        raise RuntimeError(f"movedim: repeated dim in `destination` ({list(dst)})")
    if n == 0:
        return self[...]  # PyTorch: a no-op alias
    order = [-1] * n
    for s, t in zip(nsrc, ndst):
        order[t] = s
    rest = iter(i for i in range(n) if i not in nsrc)
    order = [o if o != -1 else next(rest) for o in order]
    return self.permute(*order)


@binding()
@tensor_method
def moveaxis(self, source, destination) -> Tensor:
    return self.movedim(source, destination)


# --------------------------------------------------------------------------- swapdims
def _swap_args(op: str, dim0, dim1) -> tuple:
    return check_int(op, "dim0", dim0, 1), check_int(op, "dim1", dim1, 2)


@binding()
@tensor_method
def swapdims(self, dim0: int, dim1: int) -> Tensor:
    return self.transpose(*_swap_args("swapdims", dim0, dim1))


@binding()
@tensor_method
def swapaxes(self, axis0: int, axis1: int) -> Tensor:
    return self.transpose(check_int("swapaxes", "axis0", axis0, 1),
                          check_int("swapaxes", "axis1", axis1, 2))


@binding()
@tensor_method
def swapdims_(self, dim0: int, dim1: int) -> Tensor:
    return self.transpose_(*_swap_args("swapdims_", dim0, dim1))


@binding()
@tensor_method
def swapaxes_(self, axis0: int, axis1: int) -> Tensor:
    return self.transpose_(check_int("swapaxes_", "axis0", axis0, 1),
                           check_int("swapaxes_", "axis1", axis1, 2))
