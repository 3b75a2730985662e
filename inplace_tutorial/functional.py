"""Module-level functions, as in ``torch.add`` or ``torch.bmm``: thin calls to the methods,
plus PyTorch's ``out=`` argument for the element-wise ops and matrix products."""
from __future__ import annotations

import re

from . import dtypes, function_parser
from .arg_parser import argument_error, binds, numpy_aliases
from .call_site import call_keywords
from .functional_inplace import dropout_impl
from .ops import (  # noqa: F401
    activation,
    activation_out,
    joining,
    linalg,
    out_functions,
    out_reductions,
    out_variants,
    shrink,
    tensor_shape,
)
from .ops.atleast import atleast_1d, atleast_2d, atleast_3d
from .ops.bucketization import bucketize, isin, searchsorted
from .ops.compare import where as _where
from .ops.cross import cross_function as cross
from .ops.diag import diag_function
from .ops.diff import diff_function as diff
from .ops.distributions import bernoulli, normal
from .ops.einsum import einsum
from .ops.fill_draw import fill
from .ops.index_put import bind
from .ops.index_reduce import index_reduce_function as index_reduce
from .ops.kron import kron_function
from .ops.meshgrid import cartesian_prod, meshgrid
from .ops.nanmean import nanmean_function
from .ops.pad_nd import constant_pad_nd
from .ops.repeat_interleave import repeat_interleave_function
from .ops.rrelu import rrelu as _rrelu
from .ops.scatter_reduce import scatter_reduce_function as scatter_reduce
from .ops.take_along_dim import take_along_dim_function as take_along_dim
from .ops.tensor_split import (
    dsplit_function,
    hsplit_function,
    tensor_split_function,
    vsplit_function,
)
from .ops.tensordot import inner_function
from .ops.vander import vander
from .ops.var_mean import std_mean, var_mean
from .tensor import Tensor
from .tensor_new import tensor

# out= for every element-wise op (read from the op table, see out_variants.pointwise_ops) and
# the matrix products
_POINTWISE = out_variants.pointwise_ops()
_OUT = set(_POINTWISE) | set(out_variants.ELEMENTWISE) | set(out_variants.MATRIX)
OUT_FUNCTIONS = set(out_functions.OUT)
_ABSENT = object()  # out= not given at all (PyTorch refuses even out=None where it has none)


def _method(name: str):
    limit = []  # torch's most positional arguments for this function (found on first call)

    def fn(input=_ABSENT, *args, out=_ABSENT, **kwargs):  # noqa: A002 - PyTorch's name
        if input is _ABSENT and kwargs:  # torch.sum(a=x): NumPy's names for input
            kwargs = numpy_aliases(kwargs)
            input = kwargs.pop("input", _ABSENT)  # noqa: A001
        if not isinstance(input, Tensor):
            input = _not_a_tensor(name, input, args, _with_out(kwargs, out))  # noqa: A001
        has_out = out is not _ABSENT and (out is not None or name not in _OUT | OUT_FUNCTIONS)
        if name in _SIZES and args and (len(args) > 1 or not isinstance(args[0], (list, tuple))):
            _refuse_sizes(name, args)  # the function takes one sequence: no varargs
        kwargs = numpy_aliases(kwargs)
        if name in linalg.OUT_DTYPE_OPS and ("out_dtype" in kwargs or len(
                args) >= linalg.OUT_DTYPE_OPS[name]):  # torch.mm(x, y, out_dtype): no CPU kernel
            bound = _torch_parse(name, (input, *args), _with_out(kwargs, out))
            if bound is not None and "out_dtype" in bound[1]:
                linalg.refuse_out_dtype(name, bound[1].get("out"))
        if "dtype" in kwargs:  # torch.sum(x, dtype=float)
            kwargs["dtype"] = function_parser.scalar_type(kwargs["dtype"])
        if not limit:
            limit.append(function_parser.max_positional(name) or 64)
        try:
            if (kwargs or out is not _ABSENT or len(args) >= limit[0]) and not _keywords_bind(
                    name, len(args) + 1, kwargs, out):
                raise TypeError  # no form takes these keywords: the parser says how torch refuses
            if not has_out:
                return getattr(input, name)(*args, **kwargs)
            if name in out_functions.OUT:  # addmv, addr, take ... (ops/out_functions.py)
                return out_functions.OUT[name](input, *args, out=out, **kwargs)
        except TypeError as e:
            bound = _torch_parse(name, (input, *args), _with_out(kwargs, out))
            if bound is None or not bound[0].hidden:  # torch takes it: the op refused it
                raise _as_function(e, name) from None
            # one of torch's deprecated forms (torch.add(x, 2, y) is add(input, alpha, other)):
            # the call again, by name
            return fn(**{k: v for k, v in bound[1].items() if v is not None})
        if name not in _OUT:
            raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
        # torch's parser first: with_out hands the operands to kernels, which don't say
        # "argument 'other' (position 2) must be Tensor, not str" (torch.add(x, 'a', out=o))
        _torch_parse(name, (input, *args), _with_out(kwargs, out))
        return out_variants.with_out(name, (input, *args), out, **kwargs)
    fn.__name__ = name
    fn.__doc__ = f"torch.{name}(input, ...) is input.{name}(...)."
    return fn


def _with_out(kwargs: dict, out) -> dict:
    return kwargs if out is _ABSENT else {**kwargs, "out": out}


_BINDS: dict[tuple, bool] = {}  # (name, number of positionals, *keywords) -> some form fits


def _keywords_bind(name: str, nargs: int, kwargs: dict, out) -> bool:
    """Whether some signature of torch.name takes these keywords by name and count (types
    aside); cached per call shape, so a keyword call costs one look-up after the first."""
    key = (name, nargs, *kwargs, *(() if out is _ABSENT else ("out",)))
    fits = _BINDS.get(key)
    if fits is None:
        p, limit = function_parser.parser(name), function_parser.max_positional(name)
        fits = _BINDS[key] = p is None or (limit is None or nargs <= limit) and binds(
            p.all_forms, (None,) * nargs, dict.fromkeys(key[2:]))
    return fits


def _not_a_tensor(name: str, input, args: tuple, kwargs: dict) -> Tensor:  # noqa: A002
    """torch.name(input, ...) with no tensor first: torch's parser refuses it in its words,
    unless the function takes a number there (torch.div(2, x): python_arg_parser.cpp's
    numbers-as-tensors), which it wraps into a 0-dim tensor of the result's dtype."""
    given = args if input is _ABSENT else (input, *args)
    bound = function_parser.parse(name, given, kwargs)
    if bound is None or input is _ABSENT or not function_parser.is_number(input):
        raise argument_error(name, "input", 1, "Tensor", input)
    other = bound[1].get("other")
    dtype = dtypes.result_type(other, input) if isinstance(other, Tensor) else None
    return tensor(input, dtype=dtype)


def _torch_parse(name: str, args: tuple, kwargs: dict):
    """torch's parser on a call the core refused (function_parser.py, from the function's own
    signatures): its TypeError is raised, keywords in the call's order; else the signature
    and values it bound (None: no table for the function)."""
    keywords = {k: kwargs[k] for k in call_keywords() if k in kwargs}
    try:
        return function_parser.parse(name, args, {**keywords, **{
            k: v for k, v in kwargs.items() if k not in keywords}})
    except TypeError as refused:
        raise refused from None


_SIZES = {"permute": "dims", "reshape": "shape", "flip": "dims"}


def _refuse_sizes(name: str, args: tuple) -> None:
    """torch.permute(x, 1, 0): the function has no varargs form, as the method has."""
    if len(args) > 1:
        raise TypeError(f"{name}() takes 2 positional arguments but {len(args) + 1} were given")
    raise argument_error(name, _SIZES[name], 2, "tuple of ints", args[0])


_POSITION = re.compile(r"^(\w+\(\): argument '\w+' \(position )(\d+)(\))")
_COUNTS = re.compile(r"^(\w+)\(\) takes (?:from (\d+) to )?(\d+) positional arguments? but (\d+) "
                     r"(?:was|were) given$")

def _as_function(e: TypeError, name: str) -> TypeError:
    """A method's argument error, as the function reports it: ``input`` is position 1 there,
    so every other argument moves one place (``torch.maximum(x, 1)``: position 2)."""
    msg = str(e)
    counted = _COUNTS.match(msg)
    if counted and counted[1] == name:  # "add() takes 1 positional argument but 2 were given"
        low, high, n = (int(counted[k]) + 1 if counted[k] else None for k in (2, 3, 4))
        takes = f"from {low} to {high}" if low is not None else str(high)
        return TypeError(f"{name}() takes {takes} positional argument{'' if high == 1 else 's'}"
                         f" but {n} {'was' if n == 1 else 'were'} given")
    if name == "split" or not msg.startswith(f"{name}(): argument '"):
        return e  # torch.split calls the method; other texts name no position
    return TypeError(_POSITION.sub(lambda m: f"{m[1]}{int(m[2]) + 1}{m[3]}", msg, count=1))

_NAMES = ("add sub mul div pow neg exp log sqrt abs relu sigmoid tanh clamp clamp_min clamp_max "
          "maximum minimum sum mean var std amax amin max min argmax argmin softmax log_softmax "
          "matmul mm bmm dot addmm addbmm baddbmm transpose permute t reshape flatten squeeze "
          "unsqueeze select narrow unbind split chunk as_strided clone detach sign reciprocal "
          "rsub relu_ sigmoid_ exp_ tanh_ clamp_ addmm_ addbmm_ baddbmm_ gt lt ge le eq ne isnan "
          "isinf isfinite positive").split()

for _name in _NAMES:
    globals()[_name] = _method(_name)
_POINTWISE_MORE = [n for n in _POINTWISE if n not in _NAMES and n != "where"]
for _name in _POINTWISE_MORE:  # torch.sin, torch.atan2, torch.logical_and ... (with out=)
    globals()[_name] = _method(_name)

def pow(input, exponent, *, out: Tensor | None = None):  # noqa: A001
    """torch.pow also takes a Python scalar base: pow(2, x) is 2 ** x."""
    if out is not None:
        return out_variants.with_out("pow", (input, exponent), out)
    if not isinstance(input, Tensor):
        return exponent.__rpow__(input)
    return input.pow(exponent)

# shape, gather and Transformer ops (issue 10): torch.masked_fill(x, mask, v) is x.masked_fill(...)
_JOIN_INDEX = ("masked_fill masked_scatter index_select index_copy index_add index_fill gather "
               "scatter scatter_add").split()
_JOIN = ["cat", "concat", "concatenate", "hstack", "row_stack", "stack", "vstack"]

for _name in _JOIN_INDEX:
    globals()[_name] = _method(_name)

def where(*args, **kwargs):
    """torch.where(condition) is ``condition.nonzero(as_tuple=True)``; torch.where(condition,
    input, other[, out=]) picks from input or other (ops/compare.py; out= in
    ops/out_functions.py). torch's parser binds the call to the first of its five forms it
    fits, by position or by name (function_parser.py); none fitting is its error."""
    form, values = function_parser.parse("where", args, kwargs)
    if len(form.params) == 1:
        return values["condition"].nonzero(as_tuple=True)
    input = values.get("input", values.get("self"))  # noqa: A001 - PyTorch's name
    if values.get("out") is None:
        return _where(values["condition"], input, values["other"])
    return out_functions.where_out(values["condition"], input, values["other"],
                                   out=values["out"])

def _joined(name: str):
    """torch.cat(tensors, dim, out=...) and the other joins (ops/joining.py); out= in
    ops/out_functions.py."""
    join = getattr(joining, name)

    def fn(tensors, *args, out: Tensor | None = None, **kwargs):
        kwargs = numpy_aliases(kwargs)  # torch.concat(xs, axis=0)
        if out is None:
            return join(tensors, *args, **kwargs)
        return out_functions.join_out(name, join, tensors, args, kwargs, out)
    fn.__name__, fn.__doc__ = name, join.__doc__
    return fn

for _name in _JOIN:
    globals()[_name] = _joined(_name)

__all__ = [*_NAMES, *_POINTWISE_MORE, *_JOIN_INDEX, *_JOIN, "constant_pad_nd", "cross", "diff",
           "einsum", "index_reduce", "take_along_dim",
           "scatter_reduce", "where", "bernoulli", "fill", "normal"]

# Shape ops of issue 10 (ops/reorder.py, triangular.py, scan.py ...): torch.flip(x, dims) is
# x.flip(dims), and so on.
_SHAPE_OPS = ("flip roll diagonal tril triu cumsum cumprod sort argsort msort topk norm renorm "
              "unflatten movedim moveaxis swapdims swapaxes i0 i0_ adjoint").split()
for _name in _SHAPE_OPS:
    globals()[_name] = _method(_name)
__all__ += _SHAPE_OPS
_norm = norm  # noqa: F821 - made just above


def norm(input, *args, **kwargs):  # noqa: A002
    """torch.norm is Python in PyTorch, and its first step reads ``input.layout``."""
    if not isinstance(input, Tensor):
        raise AttributeError(f"'{type(input).__name__}' object has no attribute 'layout'")
    return _norm(input, *args, **kwargs)

# BLAS level 2 and flat indexing (ops/matrix_vector.py, ops/put_take.py); out= in
# ops/out_functions.py
_BLAS = "addmv addr put take mv".split()
for _name in _BLAS:
    globals()[_name] = _method(_name)
__all__ += _BLAS

def index_put(input, *args, **kwargs) -> Tensor:  # noqa: A002  (PyTorch's name)
    """torch.index_put(input, indices, values, accumulate=False): input.index_put(...), with
    the function's argument positions in its errors (and no out=, as in PyTorch)."""
    if not isinstance(input, Tensor):
        raise argument_error("index_put", "input", 1, "Tensor", input)
    indices, values, accumulate = bind("index_put", args, kwargs, first=2)
    return input.index_put(indices, values, accumulate)

def index_put_(input, *args, **kwargs) -> Tensor:  # noqa: A002
    """torch.index_put_(input, indices, values, accumulate=False): input.index_put_(...)."""
    if not isinstance(input, Tensor):
        raise argument_error("index_put_", "input", 1, "Tensor", input)
    indices, values, accumulate = bind("index_put_", args, kwargs, first=2)
    return input.index_put_(indices, values, accumulate)

__all__ += ["index_put", "index_put_"]

# reductions of issue 10 (ops/any_all.py ...): torch.any(x, dim, out=o) is x.any(dim) into o
_REDUCTIONS = "any all prod logsumexp nansum trace isclose allclose equal".split()
for _name in _REDUCTIONS:
    globals()[_name] = _method(_name)
__all__ += _REDUCTIONS

# torch.nonzero(x, as_tuple=...) is x.nonzero(...) (ops/nonzero.py; no out= here yet)
nonzero = _method("nonzero")
__all__ += ["nonzero"]

# shape functions made of other ops (ops/tensor_shape.py, ops/tensor_split.py,
# ops/repeat_interleave.py) and masked_select (ops/masking.py)
broadcast_to = tensor_shape.broadcast_to_function
tile = tensor_shape.tile_function
outer = tensor_shape.outer_function
ger = tensor_shape.ger_function
tensor_split = tensor_split_function
hsplit = hsplit_function
vsplit = vsplit_function
dsplit = dsplit_function
repeat_interleave = repeat_interleave_function
masked_select = _method("masked_select")
__all__ += ["broadcast_to", "dsplit", "ger", "hsplit", "masked_select", "outer",
            "repeat_interleave", "tensor_split", "tile", "vsplit"]

# torch.svd(x, some, compute_uv, out=(U, S, V)): x.svd(...) (ops/svd.py), out= in ops/svd_out.py
svd = _method("svd")
__all__ += ["svd"]

# selecting reductions (ops/selection.py): torch.kthvalue(x, k, dim, out=(values, indices)),
# median and nanmedian (out= with a dim only), cummax/cummin, aminmax (ops/out_selection.py)
_SELECTION = "kthvalue median nanmedian mode cummax cummin aminmax".split()
for _name in _SELECTION:
    globals()[_name] = _method(_name)
__all__ += _SELECTION

# The functions written by hand (here, in creation.py or in ops/): a call torch's parser refuses
# is refused in its words (function_parser.torch_function), before the core's own checks.
_HAND_BOUND = ("bernoulli broadcast_to cat concat concatenate constant_pad_nd cross diff dsplit "
               "fill ger hsplit hstack index_put index_put_ index_reduce normal outer pow "
               "repeat_interleave row_stack scatter_reduce stack take_along_dim tensor_split "
               "tile vsplit vstack").split()
for _name in _HAND_BOUND:
    globals()[_name] = function_parser.torch_function(_name)(globals()[_name])
for _name in ("bernoulli", "normal"):  # off the hot path: every call is parsed first
    globals()[_name] = function_parser.torch_function(_name, strict=True)(globals()[_name])


@function_parser.torch_function(strict=True)
def can_cast(from_: dtypes.dtype, to: dtypes.dtype) -> bool:
    """torch.can_cast(from_, to), torch's names (dtypes.py holds the rule)."""
    return dtypes.can_cast(from_, to)


promote_types = function_parser.torch_function("promote_types", strict=True)(
    dtypes.promote_types)
result_type = function_parser.torch_function("result_type", strict=True)(dtypes.result_type)
numel = _method("numel")
__all__ += ["can_cast", "numel", "promote_types", "result_type"]

# functions learners reach for (issue 10): torch.rot90(x, k, dims) is x.rot90(k, dims)
# (ops/tensor_transformations.py, ops/atleast.py); atleast_* are functions only, as in torch
_LEARNER = "ravel fliplr flipud rot90 diag_embed diagflat count_nonzero".split()
for _name in _LEARNER:
    globals()[_name] = _method(_name)
# with out= (ops/diag.py, ops/tensordot.py, ops/kron.py): torch's parser refuses first
diag = function_parser.torch_function("diag")(diag_function)
inner = function_parser.torch_function("inner")(inner_function)
kron = function_parser.torch_function("kron")(kron_function)
nanmean = function_parser.torch_function("nanmean")(nanmean_function)
__all__ += [*_LEARNER, "atleast_1d", "atleast_2d", "atleast_3d", "diag", "inner", "kron",
            "nanmean", "std_mean", "var_mean"]
# element-wise with out= (ops/logaddexp.py: no in-place twin, so listed by hand)
_LOGADDEXP = ["logaddexp", "logaddexp2"]
for _name in _LOGADDEXP:
    globals()[_name] = _method(_name)
    _OUT.add(_name)
__all__ += _LOGADDEXP
__all__ += ["cartesian_prod", "meshgrid", "vander"]  # (ops/meshgrid.py, ops/vander.py)
bincount = _method("bincount")  # (ops/bincount.py; searchsorted/bucketize/isin: bucketization)
__all__ += ["bincount", "bucketize", "isin", "searchsorted"]

# activations with no Tensor method (ops/activation.py): torch.celu(x, alpha) ...; the in-place
# forms are in functional_inplace.py, the F.* ones in nn/functional_activations.py
celu = function_parser.torch_function("celu")(activation.celu)
selu = function_parser.torch_function("selu")(activation.selu)
rrelu = function_parser.torch_function("rrelu")(_rrelu)  # (ops/rrelu.py)
threshold = activation_out.threshold  # (with its out=)
__all__ += ["celu", "rrelu", "selu", "threshold"]
# activations with a Tensor method (ops/shrink.py, ops/prelu.py): torch.hardshrink(x, 0.5) ...
hardshrink = function_parser.torch_function("hardshrink")(shrink.hardshrink_function)
hardshrink.__name__ = hardshrink.__qualname__ = "hardshrink"  # (torch.hardshrink's name)
prelu = _method("prelu")
__all__ += ["hardshrink", "prelu"]


@function_parser.torch_function()
def dropout(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    """torch.dropout(input, p, train): ATen's dropout (functional_inplace.dropout_impl)."""
    return dropout_impl(input, p, train, False)


@function_parser.torch_function()
def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    return dropout_impl(input, p, train, False, feature=True)


@function_parser.torch_function()
def alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    return dropout_impl(input, p, train, False, alpha=True)


@function_parser.torch_function()
def feature_alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:  # noqa: A002
    return dropout_impl(input, p, train, False, feature=True, alpha=True)


__all__ += ["alpha_dropout", "dropout", "feature_alpha_dropout", "feature_dropout"]


@function_parser.torch_function(strict=True)
def polygamma(n: int, input: Tensor, *, out: Tensor | None = None) -> Tensor:  # noqa: A002
    """torch.polygamma(n, input): input.polygamma(n), n first (ops/polygamma.py)."""
    if out is None:
        return input.polygamma(n)
    return out_variants.with_out("polygamma", (input,), out, n=n)


_mvlgamma_function = mvlgamma  # noqa: F821 - made above, from the op table


def mvlgamma(input, *args, out=None, **kwargs):  # noqa: A002
    """torch.mvlgamma(input, p, out=None); an out= its float result can't be cast into is
    refused in mvlgamma's own words, naming input's type first (mvlgamma_out in PyTorch)."""
    p = args[0] if args else kwargs.get("p")
    if (isinstance(input, Tensor) and isinstance(out, Tensor) and type(p) is int and p >= 1
            and input.dtype is not dtypes.bool_):
        result = dtypes.float_result(input.dtype)
        if not dtypes.can_cast(result, out.dtype):
            raise RuntimeError(f"mvlgamma: result type {input.dtype.short} can't be cast to the "
                               f"desired output type {result.short}")
    return _mvlgamma_function(input, *args, out=out, **kwargs)
