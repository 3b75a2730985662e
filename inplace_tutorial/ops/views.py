"""View ops: view/reshape/flatten, permute/transpose/t, expand, (un)squeeze.

Each gives a new shape/stride/offset over the SAME storage, sharing the version counter, and
records a node (ViewBackward0 ...) that saves only shapes and the arguments as they were given
(a negative dim shows as PyTorch's uint64: ``_saved_dim0`` of ``transpose(-1, 0)`` is
2**64 - 1), under PyTorch's names. Nothing here copies data, except
``reshape`` when no view is possible. Selecting parts (select, slicing, split) is in
indexing.py; as_strided, the metadata in-place ops (``t_``, ``transpose_`` ...) and
clone/contiguous are in strided.py; the attribute transposes (``x.T``, ``x.mT``, ``x.H`` ...)
in adjoint.py.
"""
from __future__ import annotations

from ..arg_parser import binding, saved, signed
from ..autograd.derivatives import derivative
from ..autograd.record import record
from ..layout import (
    contiguous_format,
    contiguous_strides,
    is_contiguous,
    numel_overflows,
    wrap_dim,
)
from ..modes import STATE
from ..tensor import Tensor, tensor_method
from .arg_checks import (
    argument_error,
    as_called,
    check_int,
    check_tensor,
    int_list,
    invalid_combination,
    is_index,
    size_arg,
)
from .view_dtype import as_dtype, view_dtype


def _shape_list(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _make_view(self: Tensor, shape, stride, offset) -> Tensor:
    v = Tensor._make(self._storage, tuple(shape), tuple(stride), offset, self.dtype, vc=self._vc)
    v._base = self._base if self._base is not None else self
    v._requires_grad = self._requires_grad
    v._attr_version = self._vc.value
    if not STATE.grad:
        v._creation = "no_grad"
    elif self._creation is not None:
        v._creation = self._creation  # a view of a restricted view inherits its restriction
    return v


def _view_op(self, shape, stride, offset, op: str, /, **attrs) -> Tensor:
    v = _make_view(self, shape, stride, offset)
    return record(op, v, {"self": self}, **attrs)


# --------------------------------------------------------------------------- view / reshape
def _infer_size(shape: tuple, numel: int) -> tuple:
    """PyTorch's infer_size: one -1 may be inferred; any other negative size is refused, in
    the order PyTorch walks the sizes."""
    known, infer = 1, None
    for k, s in enumerate(shape):
        if s == -1:
            if infer is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer = k
        elif s >= 0:
            known *= s
        else:
            raise RuntimeError(f"invalid shape dimension {s} at index {k} of shape "
                               f"{_shape_list(shape)}")
    if numel == known or (infer is not None and known > 0 and numel % known == 0):
        if infer is None:
            return tuple(shape)
        if known == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape "
                               f"{_shape_list(shape)} because the unspecified dimension size "
                               "-1 can be any value and is ambiguous")
        return shape[:infer] + (numel // known,) + shape[infer + 1:]
    raise RuntimeError(f"shape '{_shape_list(shape)}' is invalid for input of size {numel}")


_VIEW_FORMS = ["torch.dtype dtype", "tuple of ints size"]


def _compute_stride(old_shape, old_stride, new_shape):
    """PyTorch's computeStride: strides for a view, or None if no view is possible."""
    if not old_shape:
        return (1,) * len(new_shape)
    numel = 1
    for s in old_shape:
        numel *= s
    if numel == 0:  # strides are arbitrary here; PyTorch keeps them if the shape is unchanged
        return tuple(old_stride) if tuple(old_shape) == tuple(new_shape) else \
            contiguous_strides(new_shape)
    new_stride = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base = old_stride[-1]
    tensor_numel = view_numel = 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (old_shape[tensor_d - 1] != 1
                             and old_stride[tensor_d - 1] != tensor_numel * chunk_base):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_stride[view_d] = view_numel * chunk_base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base = old_stride[tensor_d - 1]
                tensor_numel = view_numel = 1
    if view_d != -1:
        return None
    return tuple(new_stride)


@tensor_method
def view(self, *size, **kwargs) -> Tensor:
    """``view(2, 3)``/``view(size=(2, 3))``: new geometry; ``view(torch.int32)``/
    ``view(dtype=torch.int32)``: the same bytes as another dtype (view_dtype.py)."""
    if kwargs.keys() == {"dtype"} and not size and as_dtype(kwargs["dtype"]) is not None:
        return view_dtype(self, as_dtype(kwargs["dtype"]))
    if not kwargs and len(size) == 1 and (dtype := as_dtype(size[0])) is not None:
        return view_dtype(self, dtype)
    shape = _infer_size(size_arg("view", "size", size, kwargs, forms=_VIEW_FORMS), self.numel())
    stride = _compute_stride(self._shape, self._stride, shape)
    if stride is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
    return _view_op(self, shape, stride, self._offset, "view", self_sym_sizes=self._shape)


@tensor_method
def reshape(self, *shape, **kwargs) -> Tensor:
    """A view when the strides allow it, otherwise a contiguous copy. PyTorch's reshape views
    a contiguous self with view (ViewBackward0) and any other self it can with _reshape_alias
    (ReshapeAliasBackward0): same cells, a different node name."""
    return _reshape(self, _infer_size(size_arg("reshape", "shape", shape, kwargs), self.numel()))


def _reshape(self: Tensor, shape: tuple) -> Tensor:
    """reshape to a checked shape (no -1 left, as many elements as self)."""
    stride = _compute_stride(self._shape, self._stride, shape)
    if stride is not None:
        op = "view" if is_contiguous(self._shape, self._stride) else "_reshape_alias"
        return _view_op(self, shape, stride, self._offset, op, self_sym_sizes=self._shape)
    copy = self.clone(memory_format=contiguous_format)
    out = Tensor._make(copy._storage, shape, contiguous_strides(shape), 0, self.dtype)
    return record("_unsafe_view", out, {"self": copy}, self_sym_sizes=copy._shape)


@binding()
@tensor_method
def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    shape = self._shape
    s = wrap_dim(check_int("flatten", "start_dim", start_dim, 1), len(shape))
    e = wrap_dim(check_int("flatten", "end_dim", end_dim, 2), len(shape))
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if not shape:
        return _reshape(self, (1,))
    if s == e:
        return self
    mid = 1
    for d in shape[s:e + 1]:
        mid *= d
    return _reshape(self, shape[:s] + (mid,) + shape[e + 1:])


@binding()
@tensor_method
def view_as(self, other: Tensor) -> Tensor:
    check_tensor("view_as", "other", other)
    return self.view(other._shape)


@binding()
@tensor_method
def reshape_as(self, other: Tensor) -> Tensor:
    check_tensor("reshape_as", "other", other)
    return self.reshape(other._shape)


@derivative("view", "ViewBackward0")
def _view_bw(ctx, g):
    return (g.reshape(ctx.attr("self_sym_sizes")),)


@derivative("_reshape_alias", "ReshapeAliasBackward0")
def _reshape_alias_bw(ctx, g):
    return (g.reshape(ctx.attr("self_sym_sizes")),)


@derivative("_unsafe_view", "UnsafeViewBackward0")
def _unsafe_view_bw(ctx, g):
    return (g.reshape(ctx.attr("self_sym_sizes")),)


# --------------------------------------------------------------------------- permutations
def _permuted(self, dims):
    return [self._shape[d] for d in dims], [self._stride[d] for d in dims]


@tensor_method
def permute(self, *dims, **kwargs) -> Tensor:
    dims = given = size_arg("permute", "dims", dims, kwargs)
    if len(dims) != self.dim():
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does "
                           "not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {self.dim()} is not equal to len(dims) = {len(dims)}")
    dims = tuple(wrap_dim(d, self.dim()) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    shape, stride = _permuted(self, dims)
    return _view_op(self, shape, stride, self._offset, "permute", dims=saved(tuple(given)))


def _swap(self, d0, d1, op: str = "transpose"):
    d0 = wrap_dim(check_int(op, "dim0", d0, 1), self.dim())
    d1 = wrap_dim(check_int(op, "dim1", d1, 2), self.dim())
    if self.dim() == 0:  # a 0-dim tensor accepts dims 0 and -1; nothing moves
        return 0, 0, ((), ())
    dims = list(range(self.dim()))
    dims[d0], dims[d1] = dims[d1], dims[d0]
    return d0, d1, _permuted(self, dims)


@binding()
@tensor_method
def transpose(self, dim0: int, dim1: int) -> Tensor:
    _, _, (shape, stride) = _swap(self, dim0, dim1)
    return _view_op(self, shape, stride, self._offset, "transpose", dim0=saved(dim0),
                    dim1=saved(dim1))


@tensor_method
def t(self) -> Tensor:
    ndim = len(self._shape)
    if ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {ndim}D")
    if ndim < 2:
        return _view_op(self, self._shape, self._stride, self._offset, "t")
    return _view_op(self, self._shape[::-1], self._stride[::-1], self._offset, "t")


@derivative("permute", "PermuteBackward0")
def _permute_bw(ctx, g):
    dims = [wrap_dim(d, g.dim()) for d in signed(ctx.attr("dims"))]
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d] = i
    return (g.permute(inverse),)


@derivative("transpose", "TransposeBackward0")
def _transpose_bw(ctx, g):
    return (g.transpose(signed(ctx.attr("dim0")), signed(ctx.attr("dim1"))),)


@derivative("t", "TBackward0")
def _t_bw(ctx, g):
    return (t(g),)


# --------------------------------------------------------------------------- expand / (un)squeeze
@tensor_method
def expand(self, *size, implicit: bool = False, **kwargs) -> Tensor:
    sizes = size_arg("expand", "size", size, kwargs)
    if not isinstance(implicit, bool):
        raise argument_error("expand", "implicit", None, "bool", implicit)
    if len(sizes) < self.dim():
        raise RuntimeError(
            f"expand(torch.{self.dtype.tensor_type}{{{_shape_list(self._shape)}}}, "
            f"size={_shape_list(sizes)}): the number of sizes provided ({len(sizes)}) must be "
            f"greater or equal to the number of dimensions in the tensor ({self.dim()})")
    lead = len(sizes) - self.dim()
    shape, stride = [], []
    for i in reversed(range(len(sizes))):  # PyTorch walks from the last dim
        size = sizes[i]
        if i < lead:
            if size == -1:
                raise RuntimeError(f"The expanded size of the tensor ({size}) isn't allowed in a "
                                   f"leading, non-existing dimension {i}")
            if size < 0:  # PyTorch's numel() trips over it first
                raise RuntimeError("numel: integer multiplication overflow")
            shape.append(size)
            stride.append(0)
            continue
        old, st = self._shape[i - lead], self._stride[i - lead]
        if size == -1:
            size = old
        if old == size:
            shape.append(size)
            stride.append(st)
        elif old == 1 and size >= 0:
            shape.append(size)
            stride.append(0)
        else:
            raise RuntimeError(
                f"The expanded size of the tensor ({size}) must match the existing size ({old}) "
                f"at non-singleton dimension {i}.  Target sizes: {_shape_list(sizes)}.  "
                f"Tensor sizes: {_shape_list(self._shape)}")
    shape.reverse()
    stride.reverse()
    if numel_overflows(shape):  # (2**40, 2**40, 3): as_strided's numel check
        raise RuntimeError("numel: integer multiplication overflow")
    return _view_op(self, shape, stride, self._offset, "expand", self_sym_sizes=self._shape)


@binding()
@tensor_method
def expand_as(self, other: Tensor) -> Tensor:
    check_tensor("expand_as", "other", other)
    return self.expand(other._shape)


@derivative("expand", "ExpandBackward0")
def _expand_bw(ctx, g):
    return (g,)  # Node._fit sums the broadcast dims back to the input's shape


def _unsqueezed(self, dim, op: str = "unsqueeze"):
    dim = wrap_dim(check_int(op, "dim", dim, 1), self.dim() + 1)
    shape, stride = list(self._shape), list(self._stride)
    new_stride = shape[dim] * stride[dim] if dim < self.dim() else 1
    shape.insert(dim, 1)
    stride.insert(dim, new_stride)
    return dim, shape, stride


@binding()
@tensor_method
def unsqueeze(self, dim: int) -> Tensor:
    _, shape, stride = _unsqueezed(self, dim)
    return _view_op(self, shape, stride, self._offset, "unsqueeze", dim=saved(dim))


_SQUEEZE_FORMS = ["", "int dim", "tuple of ints dim"]


def _squeezed(self, dim, op: str = "squeeze"):
    if dim is not None and not isinstance(dim, (tuple, list)) and not is_index(dim):
        args, kwargs = as_called(["dim"], (dim,))  # a float, a bool
        raise invalid_combination(op, args, _SQUEEZE_FORMS, kwargs)
    if dim is None:
        keep = [i for i, s in enumerate(self._shape) if s != 1]
    else:
        dims = int_list(op, "dim", (dim,), varargs=False) if isinstance(dim, (tuple, list)) \
            else (dim,)
        gone = {wrap_dim(d, self.dim()) for d in dims}
        keep = [i for i in range(self.dim()) if i not in gone or self._shape[i] != 1]
    return [self._shape[i] for i in keep], [self._stride[i] for i in keep]


def _squeeze_node(self, dim) -> tuple:
    """squeeze(), squeeze(int) and squeeze(dims) are three overloads: three nodes, the last
    two saving the dim(s) as given."""
    if dim is None:
        return "squeeze", {"self_sym_sizes": self._shape}
    if isinstance(dim, (tuple, list)):
        return "squeeze_dims", {"dim": saved(tuple(int(d) for d in dim)),
                                "self_sym_sizes": self._shape}
    return "squeeze_dim", {"dim": saved(int(dim)), "self_sym_sizes": self._shape}


@binding()
@tensor_method
def squeeze(self, dim: int | None = None) -> Tensor:
    shape, stride = _squeezed(self, dim)
    op, attrs = _squeeze_node(self, dim)
    return _view_op(self, shape, stride, self._offset, op, **attrs)


@derivative("unsqueeze", "UnsqueezeBackward0")
def _unsqueeze_bw(ctx, g):
    return (g.squeeze(signed(ctx.attr("dim"))),)


@derivative("squeeze", "SqueezeBackward0")
def _squeeze_bw(ctx, g):
    return (g.reshape(ctx.attr("self_sym_sizes")),)


derivative("squeeze_dim", "SqueezeBackward1")(_squeeze_bw)
derivative("squeeze_dims", "SqueezeBackward2")(_squeeze_bw)
