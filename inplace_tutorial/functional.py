"""Module-level functions, as in ``torch.add`` or ``torch.bmm``: thin calls to the methods,
plus PyTorch's ``out=`` argument for the element-wise ops and matrix products."""
from __future__ import annotations

import re

from .arg_parser import (
    argument_error,
    binding_error,
    binds,
    call_keywords,
    form_params,
    forms_fitting,
    invalid_combination,
    is_number,
    numpy_aliases,
)
from .ops import joining, out_functions, out_reductions, out_variants, tensor_shape  # noqa: F401
from .ops.compare import where as _where
from .ops.cross import cross_function as cross
from .ops.diff import diff_function as diff
from .ops.distributions import bernoulli, normal
from .ops.einsum import einsum
from .ops.fill_draw import fill
from .ops.index_put import bind
from .ops.index_reduce import index_reduce_function as index_reduce
from .ops.pad_nd import constant_pad_nd
from .ops.scatter_reduce import scatter_reduce_function as scatter_reduce
from .ops.take_along_dim import take_along_dim_function as take_along_dim
from .tensor import Tensor

# out= for every element-wise op (read from the op table, see out_variants.pointwise_ops) and
# the matrix products
_POINTWISE = out_variants.pointwise_ops()
_OUT = set(_POINTWISE) | set(out_variants.ELEMENTWISE) | set(out_variants.MATRIX)
OUT_FUNCTIONS = set(out_functions.OUT)
_ABSENT = object()  # out= not given at all (PyTorch refuses even out=None where it has none)


def _method(name: str):
    def fn(input: Tensor, *args, out=_ABSENT, **kwargs):
        if not isinstance(input, Tensor):
            raise argument_error(name, "input", 1, "Tensor", input)
        has_out = out is not _ABSENT and (out is not None or name not in _OUT | OUT_FUNCTIONS)
        if name in _SIZES and args and (len(args) > 1 or not isinstance(args[0], (list, tuple))):
            _refuse_sizes(name, args)  # the function takes one sequence: no varargs
        kwargs = numpy_aliases(kwargs)
        try:
            forms = _FORMS.get(name) if kwargs or out is not _ABSENT else None
            if forms and not binds(forms, (input, *args), _with_out(kwargs, out)):
                raise TypeError  # no form takes these keywords: the forms say how PyTorch refuses
            if not has_out:
                return getattr(input, name)(*args, **kwargs)
            if name in out_functions.OUT:  # addmv, addr, take ... (ops/out_functions.py)
                return out_functions.OUT[name](input, *args, out=out, **kwargs)
        except TypeError as e:
            raise _function_error(e, name, (input, *args), _with_out(kwargs, out)) from None
        if name not in _OUT:
            raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
        return out_variants.with_out(name, (input, *args), out, **kwargs)
    fn.__name__ = name
    fn.__doc__ = f"torch.{name}(input, ...) is input.{name}(...)."
    return fn


def _with_out(kwargs: dict, out) -> dict:
    return kwargs if out is _ABSENT else {**kwargs, "out": out}


def _function_error(e: TypeError, name: str, args: tuple, kwargs: dict) -> TypeError:
    """The method's refusal as the function words it. With the function's overloads known
    (_FORMS), PyTorch's parser decides: the one form that takes that many arguments names the
    problem, otherwise all are listed; else the method's text, with input counted."""
    forms = _FORMS.get(name)
    if forms:
        fits = forms_fitting(forms, len(args) + len(kwargs))
        keywords = {k: kwargs[k] for k in call_keywords() if k in kwargs}
        if len(fits) != 1:
            return invalid_combination(name, args, forms, keywords)
        error = binding_error(name, form_params(fits[0]), args, keywords)
        if error is not None or not e.args:
            return error or invalid_combination(name, args, forms, keywords)
    return _as_function(e, name)


_SIZES = {"permute": "dims", "reshape": "shape", "flip": "dims"}


def _refuse_sizes(name: str, args: tuple) -> None:
    """torch.permute(x, 1, 0): the function has no varargs form, as the method has."""
    if len(args) > 1:
        raise TypeError(f"{name}() takes 2 positional arguments but {len(args) + 1} were given")
    raise argument_error(name, _SIZES[name], 2, "tuple of ints", args[0])


# The functions' overloads as PyTorch prints them, where they decide the error. torch.mm, bmm,
# addmm and baddbmm also take an out_dtype: when both forms fit the number of arguments,
# PyTorch's parser lists them instead of naming the bad argument.
_PRODUCT = "Tensor input, Tensor mat2, {}*, Tensor out = None"
_FUSED = ("Tensor input, Tensor {0}, Tensor {1}, {2}*, Number beta = 1, Number alpha = 1, "
          "Tensor out = None")
_DTYPE = "torch.dtype out_dtype, "
_MAX = ["Tensor input, *, Tensor out = None", "Tensor input, Tensor other, *, Tensor out = None",
        "Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None"]
_SUM = ["Tensor input, *, torch.dtype dtype = None{}",
        "Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, "
        "Tensor out = None"]
_DIV, _DIV_N = "Tensor input, Tensor other{}", "Tensor input, Number other{}"
_FORMS = {
    "mm": [_PRODUCT.format(""), _PRODUCT.format(_DTYPE)],
    "bmm": [_PRODUCT.format(""), _PRODUCT.format(_DTYPE)],
    "addmm": [_FUSED.format("mat1", "mat2", ""), _FUSED.format("mat1", "mat2", _DTYPE)],
    "baddbmm": [_FUSED.format("batch1", "batch2", ""), _FUSED.format("batch1", "batch2", _DTYPE)],
    "max": _MAX, "min": _MAX, "sum": [_SUM[0].format(""), _SUM[1]],
    "mean": [_SUM[0].format(", Tensor out = None"), _SUM[1]],
    "squeeze": ["Tensor input", "Tensor input, int dim", "Tensor input, tuple of ints dim"],
    "narrow": ["Tensor input, int dim, Tensor start, int length",
               "Tensor input, int dim, int start, int length"],
    "masked_fill": ["Tensor input, Tensor mask, Tensor value",
                    "Tensor input, Tensor mask, Number value"],
    "clamp_": ["Tensor input, Tensor min = None, Tensor max = None",
               "Tensor input, Number min = None, Number max = None"],
    "argsort": ["Tensor input, *, bool stable, int dim = -1, bool descending = False, "
                "Tensor out = None", "Tensor input, int dim = -1, bool descending = False"],
    # div's Number overloads take no out= (torch.div(x, 2, out=o) is the Tensor one: a number
    # passes for a tensor there)
    **{n: [_DIV.format(", *, Tensor out = None"), _DIV.format(", *, str rounding_mode, "
                                                              "Tensor out = None"),
           *([_DIV_N.format("")] if n == "divide" else []), _DIV_N.format(", *, str rounding_mode")]
       for n in ("div", "divide")},
    "true_divide": [_DIV.format(", *, Tensor out = None"), _DIV_N.format("")],
    **{n: ["Tensor input, int source, int destination",
           "Tensor input, tuple of ints source, tuple of ints destination"]
       for n in ("movedim", "moveaxis")},
}

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

_WHERE = ["Tensor condition", "Tensor condition, Tensor input, Tensor other, *, Tensor out = None",
          "Tensor condition, Number self, Tensor other",
          "Tensor condition, Tensor input, Number other",
          "Tensor condition, Number self, Number other"]


def where(*args, **kwargs):
    """torch.where(condition) is ``condition.nonzero(as_tuple=True)``; torch.where(condition,
    input, other[, out=]) picks from input or other (ops/compare.py; out= in
    ops/out_functions.py). The arguments are bound to the first of PyTorch's five forms they
    fit, by position or by name; none fitting is PyTorch's overload error."""
    form, values = _bind_where(args, kwargs)
    if form == 0:
        return values["condition"].nonzero(as_tuple=True)
    input = values.get("input", values.get("self"))  # noqa: A001 - PyTorch's name
    if values.get("out") is None:
        return _where(values["condition"], input, values["other"])
    return out_functions.where_out(values["condition"], input, values["other"],
                                   out=values["out"])


def _bind_where(args: tuple, kwargs: dict) -> tuple[int, dict]:
    """The first form the call fits (its index, its values by name), as PyTorch's parser."""
    def typed(form: str) -> list[tuple[str, str, int | None, object]]:
        pieces = [p.partition(" = ")[0].rsplit(" ", 1) for p in form.split(", ") if p != "*"]
        return [(kind, name, k + 1 if k < len(args) else None,
                 args[k] if k < len(args) else kwargs.get(name))
                for k, (kind, name) in enumerate(pieces) if k < len(args) or name in kwargs]

    def fits(kind: str, name: str, v) -> bool:
        if name == "out":
            return v is None or isinstance(v, Tensor)
        return isinstance(v, Tensor) if kind == "Tensor" else is_number(v)

    for k, form in enumerate(_WHERE):  # (all/any are torch.all/torch.any in this module)
        if binding_error("where", form_params(form), args, kwargs) is None and not [
                v for kind, name, _, v in typed(form) if not fits(kind, name, v)]:
            return k, {name: v for _, name, _, v in typed(form)}
    plausible = forms_fitting(_WHERE, len(args) + len(kwargs))
    if len(plausible) == 1:  # one form takes that many arguments: PyTorch names the fault
        error = binding_error("where", form_params(plausible[0]), args, kwargs)
        if error is not None:
            raise error
        for kind, name, position, v in typed(plausible[0]):
            if not fits(kind, name, v):
                raise argument_error("where", name, position, kind, v)
    raise invalid_combination("where", args, _WHERE, kwargs)

def _joined(name: str):
    """torch.cat(tensors, dim, out=...) and the other joins (ops/joining.py); out= in
    ops/out_functions.py."""
    join = getattr(joining, name)

    def fn(tensors, *args, out: Tensor | None = None, **kwargs):
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
              "unflatten movedim moveaxis swapdims swapaxes i0 i0_").split()
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

# shape functions made of other ops (ops/tensor_shape.py) and masked_select (ops/masking.py)
broadcast_to = tensor_shape.broadcast_to_function
tile = tensor_shape.tile_function
outer = tensor_shape.outer_function
ger = tensor_shape.ger_function
tensor_split = tensor_shape.tensor_split_function
hsplit = tensor_shape.hsplit_function
vsplit = tensor_shape.vsplit_function
dsplit = tensor_shape.dsplit_function
repeat_interleave = tensor_shape.repeat_interleave_function
masked_select = _method("masked_select")
__all__ += ["broadcast_to", "dsplit", "ger", "hsplit", "masked_select", "outer",
            "repeat_interleave", "tensor_split", "tile", "vsplit"]

# selecting reductions (ops/selection.py): torch.kthvalue(x, k, dim, out=(values, indices)),
# median and nanmedian (out= with a dim only), cummax/cummin, aminmax (ops/out_selection.py)
_SELECTION = "kthvalue median nanmedian mode cummax cummin aminmax".split()
for _name in _SELECTION:
    globals()[_name] = _method(_name)
for _name in ("median", "nanmedian"):
    _FORMS[_name] = ["Tensor input", "Tensor input, int dim, bool keepdim = False, *, tuple of "
                     "Tensors out = None"]
__all__ += _SELECTION
