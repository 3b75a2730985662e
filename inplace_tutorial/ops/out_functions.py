"""``out=`` for the functions that are not element-wise: torch.addmv(..., out=o),
torch.addr, torch.take, torch.cat, torch.gather, torch.cumsum ... (element-wise ops and
mm/bmm/matmul: out_variants.py; reductions and the sort/topk/max pairs: out_reductions.py).

Each entry follows its PyTorch kernel's order: the argument parser, the refusal of autograd,
the op's own checks, then out's checks. Structured kernels (addmv, addmm, cumsum ...) want
out's dtype to be exactly the result's and keep out's strides when its shape is right;
TensorIterator ops (addr) check overlaps first and accept any dtype the result can be cast
to. A wrongly shaped out is resized (out_variants.resize_output: PyTorch's warning unless it
was empty; when its storage is too small, that same storage grows in place, so its data_ptr
changes and every other tensor on it sees the new buffer).
"""
from __future__ import annotations

from collections.abc import Callable

from .. import dtypes
from ..autograd import grad_mode
from ..creation import cast_into
from ..layout import contiguous_strides, wrap_dim
from ..tensor import Tensor
from . import dtype_rules, out_variants, put_take
from . import matrix_vector as mv
from .arg_checks import check_tensor
from .compare import where
from .index_ops import check_no_overlap
from .tensor_iterator import check_internal_overlap, check_partial_overlap

OUT: dict[str, Callable[..., Tensor]] = {}  # torch function name -> (input, *args, out, **kw)


def out_form(name: str):
    def deco(fn):
        OUT[name] = fn
        return fn
    return deco


def start(name: str, out, operands: tuple) -> None:
    """Every out= form begins so: out must be a Tensor, and nothing may require grad."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    out_variants._refuse_autograd(name, operands, out)


def structured_out(out: Tensor, shape: tuple, dtype: dtypes.dtype) -> None:
    """A structured kernel's resize_out: the dtype must match exactly, then resize_output."""
    if out.dtype is not dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {dtype.c_name}, but got "
                           f"{out.dtype.c_name} instead")
    out_variants.resize_output(out, tuple(shape))


def write(out: Tensor, name: str, compute: Callable[[], None]) -> Tensor:
    out._vc.write(compute, name)
    return out


# --------------------------------------------------------------------------- addmv, addr
@out_form("addmv")
def addmv_out(self: Tensor, mat, vec, *, beta=1, alpha=1, out=None) -> Tensor:
    beta, alpha = mv.addmv_args("addmv", mat, vec, beta, alpha)
    start("addmv", out, (self, mat, vec))
    mv.addmv_checks(self, mat, vec)
    shape = (mat._shape[0],)
    if mat.numel() == 0 and beta != 0:
        shape = self._shape  # PyTorch's self * beta resizes the result to self's shape
    structured_out(out, shape, vec.dtype)
    dtype_rules.check("mv", vec.dtype)
    if mat.numel():
        check_internal_overlap(out)  # (its copy of self into out refuses this)
    return write(out, "addmv", lambda: mv.compute_addmv(out, self, mat, vec, beta, alpha))


@out_form("addr")
def addr_out(self: Tensor, vec1, vec2, *, beta=1, alpha=1, out=None) -> Tensor:
    beta, alpha = mv.addr_args("addr", vec1, vec2, beta, alpha)
    start("addr", out, (self, vec1, vec2))
    s = mv.addr_checks(self, vec1, vec2, out)
    mv.check_addr_out(out, s, vec1, vec2)
    rd = dtypes.result_type(self, vec1, vec2)
    if not dtypes.can_cast(rd, out.dtype):
        raise RuntimeError(f"result type {rd.short} can't be cast to the desired output type "
                           f"{out.dtype.short}")
    out_variants.resize_output(out, s._shape)
    rd = mv.addr_dtype(self, vec1, vec2, beta, alpha)
    return write(out, "addr", lambda: mv.addr_kernel(out, s, vec1, vec2, beta, alpha, rd))


# --------------------------------------------------------------------------- take
@out_form("take")
def take_out(self: Tensor, index, *, out=None) -> Tensor:
    check_tensor("take", "index", index, position=1)
    start("take", out, (self, index))
    put_take.take_checks(self, index, out)
    check_internal_overlap(out)
    check_no_overlap(out, index)
    check_no_overlap(out, self)
    out_variants.resize_output(out, index._shape)
    put_take.check_range(index._array(), self.numel())
    return write(out, "take", lambda: put_take.take_into(self, index, out))


# --------------------------------------------------------------------------- computed ones
# The other functions compute their result with the method (its own argument, shape and range
# errors; one counted temporary), then check out and copy: PyTorch writes straight into out,
# and checks out's dtype before the errors only its kernel sees (an index out of range).
def exact(out: Tensor, rd: dtypes.dtype) -> None:
    if out.dtype is not rd:
        raise RuntimeError(f"Expected out tensor to have dtype {rd.c_name}, but got "
                           f"{out.dtype.c_name} instead")


def castable(out: Tensor, rd: dtypes.dtype) -> None:
    if not dtypes.can_cast(rd, out.dtype):
        raise RuntimeError(f"result type {rd.short} can't be cast to the desired output type "
                           f"{out.dtype.short}")


def computed(name: str, out, tensors: tuple, compute: Callable[[], Tensor], rule,
              *, inputs_overlap: bool = False, internal: bool = True, warn: bool = True,
              differentiable: bool = True) -> Tensor:
    """The shared path: out's type, autograd, the op (under no_grad), out's dtype rule,
    overlaps, resize, then one cast copy into out (its version goes up by one)."""
    if differentiable:
        start(name, out, tensors)
    elif not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    with grad_mode.no_grad():
        result = compute()
    rule(out, result)
    if internal:
        check_internal_overlap(out)
    if inputs_overlap:
        # PyTorch resizes out first, then checks it against the inputs: a view of an input
        # that grows over it is refused, and an out that is an input keeps its new shape
        resized = out if out._shape == result._shape else Tensor._make(
            out._storage, result._shape, contiguous_strides(result._shape), out._offset,
            out.dtype, out._vc)
        for t in tensors:
            try:
                check_no_overlap(resized, t)
            except RuntimeError:
                out_variants.resize_output(out, result._shape, warn=warn)
                raise
    out_variants.resize_output(out, result._shape, warn=warn)
    return write(out, name, lambda: cast_into(out._array(), result._array(), out.dtype, name))


@out_form("addmm")
def addmm_out(self: Tensor, mat1, mat2, *, beta=1, alpha=1, out=None) -> Tensor:
    return computed("addmm", out, (self, mat1, mat2),
                     lambda: self.addmm(mat1, mat2, beta=beta, alpha=alpha),
                     lambda o, r: exact(o, r.dtype))


@out_form("baddbmm")
def baddbmm_out(self: Tensor, batch1, batch2, *, beta=1, alpha=1, out=None) -> Tensor:
    return computed("baddbmm", out, (self, batch1, batch2),
                     lambda: self.baddbmm(batch1, batch2, beta=beta, alpha=alpha),
                     lambda o, r: exact(o, r.dtype))


def _addbmm_rule(batch2):
    def rule(out: Tensor, r: Tensor) -> None:  # PyTorch runs addmm_ on out: its own words
        if out.dtype is not r.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                               f"{out.dtype.short} and {batch2.dtype.short}")
    return rule


@out_form("addbmm")
def addbmm_out(self: Tensor, batch1, batch2, *, beta=1, alpha=1, out=None) -> Tensor:
    # out takes self's shape with resize_as_: no warning
    return computed("addbmm", out, (self, batch1, batch2),
                     lambda: self.addbmm(batch1, batch2, beta=beta, alpha=alpha),
                     _addbmm_rule(batch2), warn=False)


@out_form("dot")
def dot_out(self: Tensor, tensor, *, out=None) -> Tensor:
    def rule(o: Tensor, r: Tensor) -> None:
        if o.dtype is not r.dtype:
            raise RuntimeError(f"result dtype {o.dtype.short} does not match input dtype "
                               f"{self.dtype.short}")
    return computed("dot", out, (self, tensor), lambda: self.dot(tensor), rule, internal=False)


@out_form("mv")
def mv_out(self: Tensor, vec, *, out=None) -> Tensor:
    def rule(o: Tensor, r: Tensor) -> None:  # mv is addmv with out as its self
        if o.dtype is not r.dtype:
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                               f"{o.dtype.short}, {self.dtype.short}, and {vec.dtype.short}")
    return computed("mv", out, (self, vec), lambda: self.mv(vec), rule, internal=False)


def join_out(name: str, join: Callable[..., Tensor], tensors, args: tuple, kwargs: dict,
             out) -> Tensor:
    """cat, concat, concatenate, hstack, vstack, row_stack (all cat() for autograd) and
    stack: out may have any dtype the inputs cast to; it must not overlap an input."""
    grad = "stack" if name == "stack" else "cat"
    listed = tuple(t for t in tensors if isinstance(t, Tensor)) \
        if isinstance(tensors, (list, tuple)) else ()
    if listed and len(listed) == len(tensors) and name in ("cat", "concat", "concatenate",
                                                          "stack"):
        dim = (args + tuple(kwargs.values()) + (0,))[0]
        if isinstance(dim, int):  # the dim first, then the cast, then the shapes
            wrap_dim(dim, listed[0].dim() + (name == "stack"))
        start(grad, out, listed)
        _catcastable(out, dtypes.result_type(*listed))

    def rule(o: Tensor, r: Tensor) -> None:
        _catcastable(o, r.dtype)
    return computed(grad, out, listed, lambda: join(tensors, *args, **kwargs), rule,
                     inputs_overlap=True)


def _catcastable(out, rd: dtypes.dtype) -> None:
    if isinstance(out, Tensor) and not dtypes.can_cast(rd, out.dtype):
        raise TypeError(f"torch.cat(): input types can't be cast to the desired output type "
                        f"{out.dtype.short}")


@out_form("gather")
def gather_out(self: Tensor, dim, index, *, sparse_grad=False, out=None) -> Tensor:
    return computed("gather", out, (self, index),
                     lambda: self.gather(dim, index, sparse_grad=sparse_grad),
                     lambda o, r: exact(o, r.dtype), inputs_overlap=True)


@out_form("index_select")
def index_select_out(self: Tensor, dim, index, *, out=None) -> Tensor:
    def rule(o: Tensor, r: Tensor) -> None:
        if o.dtype is not self.dtype:
            raise RuntimeError("index_select(): self and result must have the same scalar type")
    if isinstance(out, Tensor):
        start("index_select", out, (self, index))
        rule(out, self)  # before anything else
    return computed("index_select", out, (self, index), lambda: self.index_select(dim, index),
                     rule, inputs_overlap=True)


def _scan_out(name: str, self: Tensor, dim, dtype, out) -> Tensor:
    """cumsum/cumprod: without dtype=, the input is converted to out's dtype first (a float
    cumsum into a long out sums truncated values); with it, out's dtype must be that."""
    if isinstance(out, Tensor) and dtype is None and out.dtype is dtypes.bool_:
        raise NotImplementedError(f'"{name}_out_cpu" not implemented for \'Bool\'')
    want = dtype if dtype is not None else getattr(out, "dtype", None)
    return computed(name, out, (self,), lambda: getattr(self, name)(dim, dtype=want),
                     lambda o, r: exact(o, r.dtype))


@out_form("cumsum")
def cumsum_out(self: Tensor, dim, *, dtype=None, out=None) -> Tensor:
    return _scan_out("cumsum", self, dim, dtype, out)


@out_form("cumprod")
def cumprod_out(self: Tensor, dim, *, dtype=None, out=None) -> Tensor:
    return _scan_out("cumprod", self, dim, dtype, out)


def where_out(condition, input, other, *, out=None) -> Tensor:  # noqa: A002
    """torch.where(cond, a, b, out=o): both branches must be tensors here (the out= overload
    takes no Python number), out's dtype must be the result's, and out may be an input as a
    whole but not overlap one partly (TensorIterator's rule)."""
    check_tensor("where", "condition", condition, position=1)
    check_tensor("where", "input", input, position=2)
    check_tensor("where", "other", other, position=3)

    def rule(o: Tensor, r: Tensor) -> None:
        if o.dtype is not r.dtype:
            raise RuntimeError(f"Expected out type to be {r.dtype.short} but got "
                               f"{o.dtype.short}")
        for t in (condition, input, other):
            check_partial_overlap(o, t)
    return computed("where", out, (condition, input, other),
                     lambda: where(condition, input, other), rule)


def _simple(name: str, method: str, internal: bool = True):
    """An op whose out must have exactly the result's dtype (tril, renorm, scatter ...)."""
    def fn(self: Tensor, *args, out=None, **kwargs) -> Tensor:
        tensors = (self, *(a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)))
        return computed(name, out, tensors, lambda: getattr(self, method)(*args, **kwargs),
                         lambda o, r: exact(o, r.dtype), internal=internal)
    fn.__name__ = name + "_out"
    OUT[name] = fn
    return fn


for _name, _internal in (("tril", False), ("triu", False), ("renorm", True),
                         ("scatter", True), ("scatter_add", True), ("index_add", True),
                         ("index_copy", True)):
    _simple(_name, _name, _internal)




__all__ = ["OUT", "addbmm_out", "addmm_out", "addmv_out", "addr_out", "baddbmm_out",
           "castable", "computed", "cumprod_out", "cumsum_out", "dot_out", "exact",
           "gather_out", "index_select_out", "join_out", "mv_out", "out_form", "start",
           "structured_out", "take_out", "where_out", "write"]
