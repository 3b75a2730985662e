"""``out=`` for the ops that return a pair: torch.kthvalue, median and nanmedian with a dim
(selection.py), mode (mode.py), cummax/cummin (cummaxmin.py) into a (values, indices) pair
of the caller's, aminmax (aminmax.py) into a (min, max) pair.

Every one of these kernels checks its two outs in its own words and order (kthvalue: "output
values must be of same type as input"; median: legacy type names, indices first), then
resizes them as resize_output does and writes the picked pair; the call returns them as
``torch.return_types.<op>_out``. Registered in out_functions.OUT (functional.py imports this).
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import dtypes
from ..arg_parser import type_name
from ..autograd import grad_mode
from ..layout import wrap_dim
from ..tensor import Tensor
from ..type_names import type_string
from . import out_variants
from .index_ops import check_no_overlap
from .out_functions import exact, out_form, write
from .tensor_iterator import check_internal_overlap, check_partial_overlap


def _named_out(name: str, fields: tuple[str, str] = ("values", "indices")) -> type:
    """torch.return_types.<name>_out: what the out= forms return (out's two tensors)."""
    def __repr__(self) -> str:
        return (f"torch.return_types.{name}_out(\n{fields[0]}={self[0]!r},\n"
                f"{fields[1]}={self[1]!r})")

    return type(name + "_out", (tuple,), {
        "__slots__": (), "__repr__": __repr__,
        fields[0]: property(lambda self: self[0]), fields[1]: property(lambda self: self[1])})


_OUT_PAIRS = {name: _named_out(name)
              for name in ("kthvalue", "median", "nanmedian", "mode", "cummax", "cummin")}
_OUT_PAIRS["aminmax"] = _named_out("aminmax", ("min", "max"))


def tuple_of_outs(op: str, out, position: int, count: int) -> tuple:
    """The parser's checks of a ``tuple of Tensors out`` of ``count`` tensors (a pair here,
    svd's triple in svd_out.py), in its order and words; ``position``: out's place in the
    function's signature, counted from 0."""
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"{op}(): argument 'out' must be tuple of Tensors, not "
                        f"{type_name(out)}")
    for i, o in enumerate(out):
        if not isinstance(o, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument {position}, but got "
                            f"{type_name(o)}")
    if len(out) != count:
        raise TypeError(f"expected tuple of {count} elements but got {len(out)}")
    return tuple(out)


def _pair_into(name: str, self: Tensor, out, position: int, compute: Callable[[], tuple],
               checks: Callable[[Tensor, Tensor, tuple], None],
               shape_first: tuple | None = None) -> tuple:
    """Compute the pair (no graph), let the kernel's ``checks`` check and resize the outs (to
    the result's shape, given), and copy the pair in (each out's version goes up by one).
    ``shape_first``: a kernel that checks and resizes its outs to that shape before anything
    else (cummax: before it even looks at dim)."""
    values, indices = tuple_of_outs(name, out, position, 2)
    out_variants._refuse_autograd(name, (self,), values)
    out_variants._refuse_autograd(name, (self,), indices)
    if shape_first is not None:
        checks(values, indices, shape_first)
    with grad_mode.no_grad():
        rv, ri = compute()  # the op's own argument checks
    if shape_first is None:
        before = (values._shape, indices._shape)
        checks(values, indices, rv._shape)
        if (values._shape, indices._shape) != before and (values is self or indices is self):
            with grad_mode.no_grad():  # the kernel reads self after resizing it: at its new
                rv, ri = compute()  # shape
    for o, r in ((values, rv), (indices, ri)):
        write(o, name, lambda o=o, r=r: np.copyto(o._array(), r._array()))
    return _OUT_PAIRS[name]((values, indices))


def _resize_kept(o: Tensor, self: Tensor, d: int, keepdim: bool, shape: tuple) -> None:
    """_reduction_with_indices_allocate_or_resize_output's resize: without keepdim, an out one
    dim short is unsqueeze_d at dim first (so its strides survive), then resized to the
    kept-dim shape; _squeeze_kept undoes the unsqueeze after the kernel."""
    kept = shape if keepdim or not self.dim() else shape[:d] + (1,) + shape[d:]
    if not keepdim and self.dim() and o.dim() == self.dim() - 1:
        inner = o._shape[d] * o._stride[d] if d < o.dim() else 1
        o._set_geometry(o._shape[:d] + (1,) + o._shape[d:],
                        o._stride[:d] + (inner,) + o._stride[d:], o._offset)
    out_variants.resize_output(o, kept)


def _squeeze_kept(o: Tensor, self: Tensor, d: int, keepdim: bool) -> None:
    if not keepdim and self.dim():
        o._set_geometry(o._shape[:d] + o._shape[d + 1:], o._stride[:d] + o._stride[d + 1:],
                        o._offset)


def _kthvalue_checks(self: Tensor, dim, keepdim) -> Callable[[Tensor, Tensor, tuple], None]:
    """kthvalue_out_impl_cpu: no overlap of values with self, then
    _reduction_with_indices_allocate_or_resize_output: values' type, its resize, indices'
    type, its resize (a refused indices leaves values resized, kept dim and all, as in
    PyTorch)."""
    def checks(values: Tensor, indices: Tensor, shape: tuple) -> None:
        d = wrap_dim(dim, max(self.dim(), 1))
        check_no_overlap(values, self)
        if values.dtype is not self.dtype:
            raise RuntimeError("output values must be of same type as input")
        _resize_kept(values, self, d, keepdim, shape)
        if indices.dtype is not dtypes.int64:
            raise RuntimeError("output indices must be of scalar type Long")
        _resize_kept(indices, self, d, keepdim, shape)
        _squeeze_kept(values, self, d, keepdim)
        _squeeze_kept(indices, self, d, keepdim)
    return checks


@out_form("kthvalue")
def kthvalue_out(self: Tensor, k, dim=-1, keepdim=False, *, out=None) -> tuple:
    return _pair_into("kthvalue", self, out, 4, lambda: self.kthvalue(k, dim, keepdim),
                      _kthvalue_checks(self, dim, keepdim))


def _median_checks(self: Tensor, dim) -> Callable[[Tensor, Tensor, tuple], None]:
    """median_with_indices_impl: checkScalarType on indices, then checkSameType on values,
    in at::checkAllSame's words (both ops say "median"), the resizes, then its iterator's
    overlap checks (unless the reduced dim is strided: it reads a contiguous copy then)."""
    def checks(values: Tensor, indices: Tensor, shape: tuple) -> None:
        if indices.dtype is not dtypes.int64:
            raise RuntimeError("Expected tensor for argument #1 'indices' to have scalar type "
                               f"Long; but got {type_string(indices.dtype)} instead (while "
                               "checking arguments for median)")
        if values.dtype is not self.dtype:
            raise RuntimeError("Expected tensor for 'values' to have the same type as tensor "
                               f"for argument #2 'self'; but type {type_string(values.dtype)} "
                               f"does not equal {type_string(self.dtype)} (while checking "
                               "arguments for median)")
        out_variants.resize_output(values, shape)
        out_variants.resize_output(indices, shape)
        d = wrap_dim(dim, max(self.dim(), 1))
        if self.dim() == 0 or self._stride[d] <= 1:  # (else the kernel reads a copy of self)
            _iterator_overlaps((values, indices), self)
    return checks


def _iterator_overlaps(outs: tuple, self: Tensor) -> None:
    """The kernel's TensorIterator over the outs and self: no out writes a cell twice, and
    none shares only some of its cells with self."""
    for o in outs:
        check_internal_overlap(o)
        check_partial_overlap(o, self)


@out_form("median")
def median_out(self: Tensor, dim, keepdim=False, *, out=None) -> tuple:
    return _pair_into("median", self, out, 3, lambda: self.median(dim, keepdim),
                      _median_checks(self, dim))


@out_form("nanmedian")
def nanmedian_out(self: Tensor, dim, keepdim=False, *, out=None) -> tuple:
    return _pair_into("nanmedian", self, out, 3, lambda: self.nanmedian(dim, keepdim),
                      _median_checks(self, dim))


def _mode_checks(self: Tensor, dim, keepdim) -> Callable[[Tensor, Tensor, tuple], None]:
    """mode_out: values' and indices' types in its own words; then, for a non-empty input,
    the kernel's _reduction_with_indices_allocate_or_resize_output (as kthvalue's), else a
    plain resize."""
    def checks(values: Tensor, indices: Tensor, shape: tuple) -> None:
        for o, want, what in ((values, self.dtype, "values"), (indices, dtypes.int64,
                                                               "indices")):
            if o.dtype is not want:
                raise RuntimeError(f"expected scalar type '{want.short}' but got "
                                   f"'{o.dtype.short}' for {what} output")
        if self.numel() == 0 or self.dim() == 0:
            for o in (values, indices):
                out_variants.resize_output(o, shape, warn=self.dim() > 0)
            return
        d = wrap_dim(dim, self.dim())
        for o in (values, indices):
            _resize_kept(o, self, d, keepdim, shape)
        _iterator_overlaps((values, indices), self)  # (a refused out keeps its kept dim)
        for o in (values, indices):
            _squeeze_kept(o, self, d, keepdim)
    return checks


@out_form("mode")
def mode_out(self: Tensor, dim=-1, keepdim=False, *, out=None) -> tuple:
    return _pair_into("mode", self, out, 3, lambda: self.mode(dim, keepdim),
                      _mode_checks(self, dim, keepdim))


def _scan_checks(self: Tensor) -> Callable[[Tensor, Tensor, tuple], None]:
    """cummax_out/cummin_out: check_scalar_type_device_layout on values, then indices, then
    both resized to self's shape, all before the dim is looked at."""
    def checks(values: Tensor, indices: Tensor, shape: tuple) -> None:
        for o, want in ((values, self.dtype), (indices, dtypes.int64)):
            if o.dtype is not want:
                raise RuntimeError(f"expected scalar_type {want.short} but found {o.dtype.short}")
        out_variants.resize_output(values, shape)
        out_variants.resize_output(indices, shape)
    return checks


@out_form("cummax")
def cummax_out(self: Tensor, dim, *, out=None) -> tuple:
    return _pair_into("cummax", self, out, 2, lambda: self.cummax(dim), _scan_checks(self),
                      self._shape)


@out_form("cummin")
def cummin_out(self: Tensor, dim, *, out=None) -> tuple:
    return _pair_into("cummin", self, out, 2, lambda: self.cummin(dim), _scan_checks(self),
                      self._shape)


def _aminmax_checks(self: Tensor, dim) -> Callable[[Tensor, Tensor, tuple], None]:
    """A structured kernel's set_output, output by output: min's dtype must match exactly and
    min is resized, then max. With a dim, compare_base_kernel's TensorIterator then refuses
    an out that writes a cell twice or shares only some cells with self (the whole-tensor
    kernel has no such check: it reads self before writing its two scalars)."""
    def checks(mn: Tensor, mx: Tensor, shape: tuple) -> None:
        for o in (mn, mx):
            exact(o, self.dtype)
            out_variants.resize_output(o, shape)
        if dim is not None and self.numel():
            _iterator_overlaps((mn, mx), self)
    return checks


@out_form("aminmax")
def aminmax_out(self: Tensor, *, dim=None, keepdim=False, out=None) -> tuple:
    return _pair_into("aminmax", self, out, 3, lambda: self.aminmax(dim=dim, keepdim=keepdim),
                      _aminmax_checks(self, dim))


__all__ = ["aminmax_out", "cummax_out", "cummin_out", "kthvalue_out", "median_out",
           "mode_out", "nanmedian_out"]
