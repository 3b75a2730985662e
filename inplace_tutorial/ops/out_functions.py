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
from ..copy_kernel import cast_into
from ..layout import contiguous_strides, wrap_dim
from ..tensor import Tensor
from . import dtype_rules, joining, out_variants, put_take
from . import matrix_vector as mv
from .arg_checks import check_tensor
from .compare import where
from .index_ops import check_no_overlap
from .joining import check_stack_inputs
from .tensor_iterator import check_internal_overlap, check_partial_overlap
from .views import _compute_stride

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
    aliased = out._shape != shape and any(t is out for t in (self, mat, vec))
    if aliased:  # out is an input that the resize below changes: computed from it as given
        with grad_mode.no_grad():
            result = Tensor._empty(shape, vec.dtype, "addmv")
            mv.compute_addmv(result, self, mat, vec, beta, alpha)
    structured_out(out, shape, vec.dtype)
    dtype_rules.check("mv", vec.dtype)
    if mat.numel():
        check_internal_overlap(out)  # (its copy of self into out refuses this)
    if aliased:
        wrap_dim(1, mat.dim())  # PyTorch's kernel reads mat's size(1): a resized mat fails
        return write(out, "addmv", lambda: cast_into(out._array(), result._array(), out.dtype,
                                                      "addmv"))
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
              differentiable: bool = True, rule_after_resize: bool = False,
              internal_first: bool = False) -> Tensor:
    """The shared path: out's type, autograd, the op (under no_grad), out's dtype rule,
    overlaps, resize, then one cast copy into out (its version goes up by one).
    ``rule_after_resize``: kernels that resize out before they look at its dtype (dot, the
    mean/var/std reductions); ``internal_first``: kernels that refuse an out writing a cell
    twice as it was given, before any resize (TensorIterator's where, index_select)."""
    if differentiable:
        start(name, out, tensors)
    elif not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if internal_first:
        check_internal_overlap(out)
    with grad_mode.no_grad():
        result = compute()
    if not rule_after_resize:
        rule(out, result)
    # structured kernels check out's cells once out has its new shape (an expanded out that
    # is resized is contiguous then); the resize is the one PyTorch made before refusing
    resized = out if out._shape == result._shape else Tensor._make(
        out._storage, result._shape, contiguous_strides(result._shape), out._offset,
        out.dtype, out._vc)
    if internal and not internal_first:
        try:
            check_internal_overlap(resized)
        except RuntimeError:
            out_variants.resize_output(out, result._shape, warn=warn)
            raise
    if inputs_overlap:
        # PyTorch resizes out first, then checks it against the inputs: a view of an input
        # that grows over it is refused, and an out that is an input keeps its new shape
        for t in tensors:
            try:
                check_no_overlap(resized, t)
            except RuntimeError:
                out_variants.resize_output(out, result._shape, warn=warn)
                raise
    before = out._shape
    out_variants.resize_output(out, result._shape, warn=warn)
    if rule_after_resize:
        rule(out, result)
    if out._shape != before and any(t is out for t in tensors):
        result = reread(out, compute, result, warn, again=name in ("mean", "max", "min"))
    return write(out, name, lambda: cast_into(out._array(), result._array(), out.dtype, name))


def reread(out: Tensor, compute: Callable[[], Tensor], result: Tensor, warn: bool = True,
           again: bool = False) -> Tensor:
    """PyTorch resizes out BEFORE its kernel reads the inputs: an out that is itself one of
    the inputs is read at its new shape, and the kernel may then refuse it (sum(x, 1, out=x):
    dim 1 is out of range of the resized x). ``again``: ops that compute only after the resize
    (max(x, out=x) is max_unary_out; mean is sum_out, then div_): their result is the resized
    input's, and may resize out once more. (What a kernel writes while it reads its own
    output is not reproduced: otherwise the values stay the clean result.)"""
    with grad_mode.no_grad():
        second = compute()
    if not again:
        return result
    out_variants.resize_output(out, second._shape, warn=warn)
    return second


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
    return computed("dot", out, (self, tensor), lambda: self.dot(tensor), rule, internal=False,
                    rule_after_resize=True)


@out_form("mv")
def mv_out(self: Tensor, vec, *, out=None) -> Tensor:
    def rule(o: Tensor, r: Tensor) -> None:
        # mv is addmv: with out itself as addmv's self when out has the rows' count (or one
        # element); else with a fresh self, and then addmv's out check speaks
        rows = self._shape[0] if self.dim() == 2 else None
        if o.dim() > 1 or (o.numel() != rows and o.numel() != 1):
            exact(o, r.dtype)
        elif o.dtype is not r.dtype:
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
    if name == "stack" and listed and len(listed) == len(tensors) and len(args) <= 1 \
            and set(kwargs) <= {"dim"} and len(args) + len(kwargs) <= 1:
        dim = (args + tuple(kwargs.values()) + (0,))[0]
        if isinstance(dim, int) and not isinstance(dim, bool):
            return stack_out(listed, dim, out)
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


def stack_out(tensors: tuple, dim: int, out) -> Tensor:
    """torch.stack(tensors, dim, out=o) in the order of PyTorch's stack_out: the sizes are
    checked, out is resized to the stacked shape FIRST, then cat writes into a view of out
    with the joined dim (or, when out can't be viewed so, cat of the inputs unsqueezed writes
    into out). So a dtype out can't hold is refused after out was resized; and an out that is
    one of the inputs has changed shape before cat reads the inputs (PyTorch then resizes it
    once more and refuses the overlap)."""
    wrapped = wrap_dim(dim, tensors[0].dim() + 1)
    start("stack", out, tensors)
    if wrapped < tensors[0].dim():
        check_stack_inputs(list(tensors))
        first = tensors[0]._shape
        out_variants.resize_output(out, first[:wrapped] + (len(tensors),) + first[wrapped:])
        joined = list(tensors[0]._shape)  # (read again: out may be tensors[0], now resized)
        joined[wrapped] *= len(tensors)
        strides = _compute_stride(out._shape, out._stride, joined)
        if strides is not None:
            view = Tensor._make(out._storage, tuple(joined), strides, out._offset, out.dtype,
                                out._vc)
            join_out("cat", joining.cat, tensors, (wrapped,), {}, view)
            return out
    with grad_mode.no_grad():
        unsqueezed = [t.unsqueeze(dim) for t in tensors]
    return join_out("cat", joining.cat, unsqueezed, (dim,), {}, out)


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
                     rule, inputs_overlap=True, internal_first=True)


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
        if any(o is t for t in (condition, input, other)) and o._shape != r._shape:
            # an out that is also an input can't be resized (mark_resize_outputs)
            raise RuntimeError(f"output with shape [{', '.join(map(str, o._shape))}] doesn't "
                               f"match the broadcast shape [{', '.join(map(str, r._shape))}]")
        for t in (condition, input, other):
            check_partial_overlap(o, t)
    return computed("where", out, (condition, input, other),
                     lambda: where(condition, input, other), rule, internal_first=True)


def _simple(name: str, method: str, internal: bool = True):
    """An op whose out must have exactly the result's dtype (tril, renorm, scatter ...)."""
    def fn(self: Tensor, *args, out=None, **kwargs) -> Tensor:
        tensors = (self, *(a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)))

        def rule(o: Tensor, r: Tensor) -> None:
            if name in ("scatter", "scatter_add"):  # scatter_meta_impl: before the dtype
                check_internal_overlap(o)
                for t in tensors[1:]:  # index and src (self is copied first: it may be out)
                    check_no_overlap(o, t)
            exact(o, r.dtype)
        return computed(name, out, tensors, lambda: getattr(self, method)(*args, **kwargs),
                         rule, internal=internal)
    fn.__name__ = name + "_out"
    OUT[name] = fn
    return fn


for _name, _internal in (("tril", False), ("triu", False), ("renorm", True),
                         ("scatter", True), ("scatter_add", True), ("index_add", True),
                         ("index_copy", True)):
    _simple(_name, _name, _internal)




__all__ = ["OUT", "addbmm_out", "addmm_out", "addmv_out", "addr_out", "baddbmm_out",
           "castable", "computed", "cumprod_out", "cumsum_out", "dot_out", "exact",
           "gather_out", "index_select_out", "join_out", "mv_out", "out_form", "reread",
           "stack_out", "start", "structured_out", "take_out", "where_out", "write"]
